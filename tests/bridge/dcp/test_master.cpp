// test_master: a DCP master written with DCPLib that drives slaves in non-real-time (NRT)
// lock-step, or lets them run in soft real time (SRT), from a configuration file.
//
// Usage: test_master CONFIG [PORT]   (PORT: its own UDP port on 127.0.0.1, default 0: a free one)
// CONFIG, one directive a line, '#' starts a comment:
//   resolution NUM DEN            CFG_time_res for every slave
//   count K                       STC_do_step cycles in RUNNING
//   steps S                       steps per STC_do_step, and CFG_steps of every output data id
//   init_runs N                   rounds of STC_initialize + STC_send_outputs before STC_run
//   mode MODE                     nrt (lock-step) or srt (the slaves step on their clocks)
//   run_ms MS                     SRT: how long the slaves run, from RUNNING to STC_stop [ms]
//   slave ID HOST PORT UUID       slave ID (1..255) with its control endpoint and uuid
//   output ID DATA_ID POS VR      CFG_output
//   input ID DATA_ID POS VR TYPE  CFG_input, TYPE a DcpDataType name (float64, int32, uint8, ...)
//   target ID DATA_ID HOST PORT   CFG_target_network_information (UDP_IPv4)
//   source ID DATA_ID HOST PORT   CFG_source_network_information (UDP_IPv4)
//   scope ID DATA_ID SCOPE        CFG_scope, SCOPE init_run, init or run
// A slave must be declared before the lines that configure it.  Defaults: resolution 1 1000,
// count 0, steps 1, init_runs 0, mode nrt, run_ms 0.
//
// Every slave goes through each transition before any goes on: STC_register (NRT, DCP 1.0),
// its CFG PDUs (CFG_time_res, CFG_steps for each output data id, then the file's in its
// order), STC_prepare, STC_configure, init_runs x (STC_initialize, STC_send_outputs),
// STC_run twice (CONFIGURED -> SYNCHRONIZING -> SYNCHRONIZED, then -> RUNNING; start time 0,
// at once), then in NRT K x (STC_do_step, STC_send_outputs), in SRT a wait of run_ms, and
// STC_stop, STC_deregister.
// Exit status: 0 all slaves deregistered; 1 a NACK, an error state or a network error (one
// line on stderr); 2 bad usage or configuration; 3 no progress for 10 s (the slaves' states
// on stderr).

#include <iostream>  // first: DCPLib's LogHelper.hpp uses std::cout without including it
#include <dcp/driver/ethernet/udp/UdpDriver.hpp>
#include <dcp/logic/DcpManagerMaster.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

const char *const HOST = "127.0.0.1";
const std::chrono::seconds WATCHDOG(10);

struct Slave {
    uint8_t id = 0;
    std::string host;
    uint16_t port = 0;
    std::string uuid;
    std::vector<std::pair<std::string, std::function<void(DcpManagerMaster &)>>> cfg;  // file order
    std::set<uint16_t> outputDataIds;
    DcpState state = DcpState::ALIVE;
    size_t cfgAcks = 0;
    uint16_t nextSeq = 0;  // mirrors DcpManagerMaster's pdu_seq_id of this slave
    std::map<uint16_t, std::string> sent;  // pdu_seq_id -> PDU, to name a NACKed one
};

struct Config {
    uint32_t numerator = 1, denominator = 1000;
    uint32_t count = 0, steps = 1, initRuns = 0, runMs = 0;
    DcpOpMode mode = DcpOpMode::NRT;
    std::vector<Slave> slaves;
};

uint32_t ipv4(const std::string &host) {
    return asio::ip::make_address_v4(host).to_uint();
}

DcpDataType dataType(const std::string &name) {
    static const std::map<std::string, DcpDataType> types = {
            {"uint8", DcpDataType::uint8}, {"uint16", DcpDataType::uint16}, {"uint32", DcpDataType::uint32},
            {"uint64", DcpDataType::uint64}, {"int8", DcpDataType::int8}, {"int16", DcpDataType::int16},
            {"int32", DcpDataType::int32}, {"int64", DcpDataType::int64}, {"float32", DcpDataType::float32},
            {"float64", DcpDataType::float64}, {"string", DcpDataType::string}, {"binary", DcpDataType::binary}};
    if (types.count(name) == 0) {
        throw std::runtime_error("unknown data type " + name);
    }
    return types.at(name);
}

DcpScope scope(const std::string &name) {
    static const std::map<std::string, DcpScope> scopes = {
            {"init_run", DcpScope::Initialization_Run_NonRealTime},
            {"init", DcpScope::Initialization},
            {"run", DcpScope::Run_NonRealTime}};
    if (scopes.count(name) == 0) {
        throw std::runtime_error("unknown scope " + name);
    }
    return scopes.at(name);
}

// Throws std::exception naming the line on any error.
Config readConfig(const char *path) {
    std::ifstream file(path);
    if (!file) {
        throw std::runtime_error(std::string("cannot read ") + path);
    }
    Config config;
    std::map<int, size_t> slaveIndex;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        std::istringstream in(line.substr(0, line.find('#')));
        std::vector<std::string> f{std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
        if (f.empty()) {
            continue;
        }
        const std::map<std::string, size_t> arity = {
                {"resolution", 3}, {"count", 2}, {"steps", 2}, {"init_runs", 2}, {"mode", 2}, {"run_ms", 2},
                {"slave", 5}, {"output", 5}, {"input", 6}, {"target", 5}, {"source", 5}, {"scope", 4}};
        const std::string where = std::string(path) + ":" + std::to_string(number) + ": ";
        if (arity.count(f[0]) == 0 || arity.at(f[0]) != f.size()) {
            throw std::runtime_error(where + "unknown directive or wrong number of fields: " + line);
        }
        try {
            auto u = [&f](size_t i) { return (uint32_t) std::stoul(f[i]); };
            if (f[0] == "resolution") {
                config.numerator = u(1);
                config.denominator = u(2);
            } else if (f[0] == "count") {
                config.count = u(1);
            } else if (f[0] == "steps") {
                config.steps = u(1);
            } else if (f[0] == "init_runs") {
                config.initRuns = u(1);
            } else if (f[0] == "mode") {
                if (f[1] != "nrt" && f[1] != "srt") {
                    throw std::runtime_error("mode is nrt or srt");
                }
                config.mode = f[1] == "srt" ? DcpOpMode::SRT : DcpOpMode::NRT;
            } else if (f[0] == "run_ms") {
                config.runMs = u(1);
            } else if (f[0] == "slave") {
                if (u(1) < 1 || u(1) > 255 || slaveIndex.count(u(1)) > 0) {
                    throw std::runtime_error("slave id not in 1..255 or repeated");
                }
                Slave added;
                added.id = (uint8_t) u(1);
                added.host = f[2];
                ipv4(added.host);
                added.port = (uint16_t) u(3);
                added.uuid = f[4];
                slaveIndex[added.id] = config.slaves.size();
                config.slaves.push_back(added);
            } else {
                if (slaveIndex.count(u(1)) == 0) {
                    throw std::runtime_error("slave " + f[1] + " not declared");
                }
                Slave &s = config.slaves[slaveIndex.at(u(1))];
                const uint8_t id = s.id;
                const uint16_t dataId = (uint16_t) u(2);
                if (f[0] == "output") {
                    const uint16_t pos = (uint16_t) u(3);
                    const uint64_t vr = u(4);
                    s.outputDataIds.insert(dataId);
                    s.cfg.emplace_back("CFG_output", [=](DcpManagerMaster &m) { m.CFG_output(id, dataId, pos, vr); });
                } else if (f[0] == "input") {
                    const uint16_t pos = (uint16_t) u(3);
                    const uint64_t vr = u(4);
                    const DcpDataType type = dataType(f[5]);
                    s.cfg.emplace_back("CFG_input",
                                       [=](DcpManagerMaster &m) { m.CFG_input(id, dataId, pos, vr, type); });
                } else if (f[0] == "target") {
                    const uint32_t ip = ipv4(f[3]);
                    const uint16_t port = (uint16_t) u(4);
                    s.cfg.emplace_back("CFG_target_network_information", [=](DcpManagerMaster &m) {
                        m.CFG_target_network_information_UDP(id, dataId, ip, port);
                    });
                } else if (f[0] == "source") {
                    const uint32_t ip = ipv4(f[3]);
                    const uint16_t port = (uint16_t) u(4);
                    s.cfg.emplace_back("CFG_source_network_information", [=](DcpManagerMaster &m) {
                        m.CFG_source_network_information_UDP(id, dataId, ip, port);
                    });
                } else {
                    const DcpScope sc = scope(f[3]);
                    s.cfg.emplace_back("CFG_scope", [=](DcpManagerMaster &m) { m.CFG_scope(id, dataId, sc); });
                }
            }
        } catch (const std::exception &e) {
            throw std::runtime_error(where + e.what() + ": " + line);
        }
    }
    if (config.slaves.empty()) {
        throw std::runtime_error(std::string(path) + ": no slave");
    }
    return config;
}

// All DCP traffic happens on DCPLib's receiving thread, in the SYNC listeners below; the main
// thread only starts it, watches for progress and stops it.
class Master {
public:
    Master(Config config, uint16_t port)
            : config(std::move(config)),
              driver(new UdpDriver(HOST, port)),
              manager(new DcpManagerMaster(driver->getDcpDriver())) {
        for (const Slave &s : this->config.slaves) {
            // port (uint16) then IPv4 address (uint32), in host byte order, as UdpDriver reads them
            uint8_t netInfo[6];
            const uint32_t ip = ipv4(s.host);
            std::memcpy(netInfo, &s.port, 2);
            std::memcpy(netInfo + 2, &ip, 4);
            driver->getDcpDriver().setSlaveNetworkInformation(s.id, netInfo);
        }
        manager->setStateChangedNotificationReceivedListener<SYNC>(
                [this](uint8_t sender, DcpState state) { stateChanged(sender, state); });
        manager->setAckReceivedListener<SYNC>([this](uint8_t sender, uint16_t) { acked(sender); });
        manager->setNAckReceivedListener<SYNC>([this](uint8_t sender, uint16_t seq, DcpError error) {
            Slave *s = find(sender);
            finish(1, "slave " + std::to_string(sender) + ": RSP_nack to " + (s ? s->sent[seq] : "?") +
                      " (pdu_seq_id " + std::to_string(seq) + "): " + to_string(error));
        });
        manager->setErrorListener<SYNC>([this](DcpError error) { finish(1, "network error: " + to_string(error)); });
        // The socket exists only once the receiving thread has opened it, which DCPLib says
        // only in its debug log (-DDEBUG): register the slaves then.
        manager->addLogListener([this](const LogEntry &entry) {
            if (entry.getRawMsg() == NEW_SOCKET.msg && !registered) {
                registered = true;
                registerSlaves();
            }
        });
    }

    // DCPLib's driver and manager are never destroyed: a socket closing logs into the manager.
    int run() {
        std::thread receiving(&DcpManagerMaster::start, manager);
        std::unique_lock<std::mutex> lock(mutex);
        while (!done) {
            progress.wait_until(lock, lastProgress + WATCHDOG);
            if (!done && std::chrono::steady_clock::now() >= lastProgress + WATCHDOG) {
                std::string states;
                for (const Slave &s : config.slaves) {
                    states += " slave " + std::to_string(s.id) + " " + to_string(s.state);
                }
                done = true;
                exitCode = 3;
                message = "no progress for 10 s:" + states;
            }
        }
        lock.unlock();
        manager->stop();
        receiving.join();
        if (exitCode == 0 && config.mode == DcpOpMode::SRT) {
            std::printf("test_master: %zu slaves, %u ms in soft real time after %u initialization runs: done\n",
                        config.slaves.size(), config.runMs, config.initRuns);
        } else if (exitCode == 0) {
            std::printf("test_master: %zu slaves, %u x STC_do_step(%u) after %u initialization runs: done\n",
                        config.slaves.size(), config.count, config.steps, config.initRuns);
        } else {
            std::fprintf(stderr, "test_master: %s\n", message.c_str());
        }
        return exitCode;
    }

private:
    Config config;
    UdpDriver *driver;
    DcpManagerMaster *manager;
    bool registered = false;

    bool configuring = false;  // counting the CFG PDUs' acks
    DcpState awaited = DcpState::ALIVE;
    std::function<void()> whenAllAwaited;  // empty while nothing awaited
    uint32_t initRunsDone = 0, stepsDone = 0;

    std::mutex mutex;  // guards what the main thread reads: the slaves' states and what follows
    std::condition_variable progress;
    std::chrono::steady_clock::time_point lastProgress = std::chrono::steady_clock::now();
    bool done = false;
    int exitCode = 0;
    std::string message;

    Slave *find(uint8_t id) {
        for (Slave &s : config.slaves) {
            if (s.id == id) {
                return &s;
            }
        }
        return nullptr;
    }

    // The first outcome wins; the main thread then stops the receiving thread.
    void finish(int code, const std::string &why) {
        std::lock_guard<std::mutex> guard(mutex);
        if (!done) {
            done = true;
            exitCode = code;
            message = why;
        }
        progress.notify_all();
    }

    // Records the PDU about to be sent to s under the pdu_seq_id DCPLib gives it.
    void sending(Slave &s, const std::string &pdu) { s.sent[s.nextSeq++] = pdu; }

    // Sends an STC PDU to every slave with `send`, which names the state they are all in (DCPLib's
    // slave NACKs any other), and calls `then` once every slave has announced state `to`.
    // The slaves' notifications are handled on this thread, after this returns.
    void toAll(const std::string &pdu, DcpState to, const std::function<void(uint8_t)> &send,
               std::function<void()> then) {
        awaited = to;
        whenAllAwaited = std::move(then);
        for (Slave &s : config.slaves) {
            sending(s, pdu);
            send(s.id);
        }
    }

    void stateChanged(uint8_t sender, DcpState state) {
        Slave *s = find(sender);
        if (s == nullptr) {
            return finish(1, "NTF_state_changed from unknown slave " + std::to_string(sender));
        }
        {
            std::lock_guard<std::mutex> guard(mutex);
            s->state = state;
            lastProgress = std::chrono::steady_clock::now();
        }
        if (state == DcpState::ERROR_HANDLING || state == DcpState::ERROR_RESOLVED) {
            return finish(1, "slave " + std::to_string(sender) + ": state " + to_string(state));
        }
        for (const Slave &t : config.slaves) {
            if (t.state != awaited) {
                return;
            }
        }
        if (whenAllAwaited) {
            std::function<void()> next = std::move(whenAllAwaited);
            whenAllAwaited = nullptr;
            next();
        }
    }

    void acked(uint8_t sender) {
        Slave *s = find(sender);
        if (s == nullptr) {
            return finish(1, "RSP_ack from unknown slave " + std::to_string(sender));
        }
        {
            std::lock_guard<std::mutex> guard(mutex);
            lastProgress = std::chrono::steady_clock::now();
        }
        if (!configuring) {
            return;
        }
        s->cfgAcks++;
        for (const Slave &t : config.slaves) {
            if (t.cfgAcks < t.cfg.size() + 1 + t.outputDataIds.size()) {  // + CFG_time_res and CFG_steps
                return;
            }
        }
        configuring = false;
        prepare();
    }

    void registerSlaves() {
        toAll("STC_register", DcpState::CONFIGURATION, [this](uint8_t id) {
            manager->STC_register(id, DcpState::ALIVE, convertToUUID(find(id)->uuid), config.mode, 1, 0);
        }, [this] { sendConfiguration(); });
    }

    void sendConfiguration() {
        configuring = true;
        for (Slave &s : config.slaves) {
            sending(s, "CFG_time_res");
            manager->CFG_time_res(s.id, config.numerator, config.denominator);
            for (uint16_t dataId : s.outputDataIds) {
                sending(s, "CFG_steps");
                manager->CFG_steps(s.id, dataId, config.steps);
            }
            for (auto &cfg : s.cfg) {
                sending(s, cfg.first);
                cfg.second(*manager);
            }
        }
    }

    void prepare() {
        toAll("STC_prepare", DcpState::PREPARED,
              [this](uint8_t id) { manager->STC_prepare(id, DcpState::CONFIGURATION); }, [this] {
            toAll("STC_configure", DcpState::CONFIGURED,
                  [this](uint8_t id) { manager->STC_configure(id, DcpState::PREPARED); }, [this] { initialize(); });
        });
    }

    void initialize() {
        if (initRunsDone == config.initRuns) {
            return start();
        }
        toAll("STC_initialize", DcpState::INITIALIZED,
              [this](uint8_t id) { manager->STC_initialize(id, DcpState::CONFIGURED); }, [this] {
            toAll("STC_send_outputs", DcpState::CONFIGURED,
                  [this](uint8_t id) { manager->STC_send_outputs(id, DcpState::INITIALIZED); }, [this] {
                initRunsDone++;
                initialize();
            });
        });
    }

    // In NRT DCPLib ignores STC_run's start time and synchronizes at once; in SRT a start time
    // of 0 starts the slaves' clocks at once.
    void start() {
        toAll("STC_run", DcpState::SYNCHRONIZED,
              [this](uint8_t id) { manager->STC_run(id, DcpState::CONFIGURED, 0); }, [this] {
            toAll("STC_run", DcpState::RUNNING,
                  [this](uint8_t id) { manager->STC_run(id, DcpState::SYNCHRONIZED, 0); }, [this] {
                if (config.mode == DcpOpMode::NRT) {
                    return doStep();
                }
                // The slaves run on their own: no PDU of theirs is awaited until STC_stop, which a
                // thread of its own sends after run_ms (the receiving thread must go on receiving).
                std::thread([this] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(config.runMs));
                    stop();
                }).detach();
            });
        });
    }

    void doStep() {
        if (stepsDone == config.count) {
            return stop();
        }
        toAll("STC_do_step", DcpState::COMPUTED,
              [this](uint8_t id) { manager->STC_do_step(id, DcpState::RUNNING, config.steps); }, [this] {
            toAll("STC_send_outputs", DcpState::RUNNING,
                  [this](uint8_t id) { manager->STC_send_outputs(id, DcpState::COMPUTED); }, [this] {
                stepsDone++;
                doStep();
            });
        });
    }

    void stop() {
        toAll("STC_stop", DcpState::STOPPED, [this](uint8_t id) { manager->STC_stop(id, DcpState::RUNNING); }, [this] {
            toAll("STC_deregister", DcpState::ALIVE,
                  [this](uint8_t id) { manager->STC_deregister(id, DcpState::STOPPED); },
                  [this] { finish(0, "done"); });
        });
    }
};

}  // namespace

int main(int argc, char *argv[]) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: test_master CONFIG [PORT]\n");
        return 2;
    }
    Config config;
    uint16_t port = 0;
    try {
        config = readConfig(argv[1]);
        if (argc == 3) {
            port = (uint16_t) std::stoul(argv[2]);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "test_master: %s\n", e.what());
        return 2;
    }
    return Master(std::move(config), port).run();
}
