// pd_slave: a DCP slave written with DCPLib that stands in for the project's PD controller
// with zero set-points: tau_j = kP_j * (qr - q_j) + kD_j * (ur - u_j), q_j_ref = qr, qr = ur = 0.
//
// Usage: pd_slave PORT [NRT|SRT] [LOG_CSV|-] [q_slew,q_boom,q_jib,u_slew,u_boom,u_jib]
//   PORT     its control port on 127.0.0.1 (the description's UDP_IPv4 Control port)
//   NRT|SRT  the operation mode the master must register it in (default NRT); its description
//            offers both, so another mode is accepted by DCPLib but makes pd_slave exit 1
//   LOG_CSV  a file it appends one line to per computation: the initialize callback's
//            lines have steps_so_far 0, a step's line the steps done including that step:
//            steps_so_far,q_slew,q_boom,q_jib,u_slew,u_boom,u_jib,tau_slew,tau_boom,tau_jib (%.17g)
//   q_slew,...,u_jib  the six input start values (default zeros)
// It prints "pd_slave: listening on udp://127.0.0.1:PORT" once its socket is open, and exits
// once the master deregisters it (state ALIVE again), after printing
// "steps=N last_tau=tau_slew,tau_boom,tau_jib": 0, or 1 if registered in the other mode.
// The description is the one of PdSlave-Description.xml, with PORT as the control port.

#include <iostream>  // first: DCPLib's LogHelper.hpp uses std::cout without including it
#include <dcp/driver/ethernet/udp/UdpDriver.hpp>
#include <dcp/logic/DcpManagerSlave.hpp>

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const char *const HOST = "127.0.0.1";
const char *const UUID = "6eebda40-5e03-432b-b0f2-5c32b0522e7d";
const steps_t MAX_STEPS = 1000000;

const char *const INPUTS[6] = {"q_slew", "q_boom", "q_jib", "u_slew", "u_boom", "u_jib"};
const char *const OUTPUTS[6] = {"tau_slew", "tau_boom", "tau_jib", "q_slew_ref", "q_boom_ref", "q_jib_ref"};

// Gains of slew, boom and jib.
const double kP[3] = {2e4, 4e4, 1e4};
const double kD[3] = {6e3, 6e3, 1e3};

SlaveDescription_t description(uint16_t port, const std::vector<double> &inputStarts) {
    SlaveDescription_t d = make_SlaveDescription(1, 0, "PdSlave", UUID);
    d.OpMode.SoftRealTime = make_SoftRealTime_ptr();
    d.OpMode.NonRealTime = make_NonRealTime_ptr();
    d.OpMode.NonRealTime->fixedSteps = false;
    d.OpMode.NonRealTime->maxSteps = MAX_STEPS;

    // DCPLib accepts a CFG_time_res only if it is listed or inside a range: 1 ms recommended,
    // anything from 1 us to 1 s in two ranges small enough for DCPLib's uint32 products.
    Resolution_t millisecond = make_Resolution();
    millisecond.fixed = false;
    millisecond.recommended = std::make_shared<bool>(true);
    d.TimeRes.resolutions.push_back(millisecond);
    d.TimeRes.resolutionRanges.push_back(make_ResolutionRange(1, 1000, 1000000));
    d.TimeRes.resolutionRanges.push_back(make_ResolutionRange(1, 1000, 1000));

    d.TransportProtocols.UDP_IPv4 = make_UDP_ptr();
    d.TransportProtocols.UDP_IPv4->Control = make_Control_ptr(HOST, port);
    d.TransportProtocols.UDP_IPv4->DAT_input_output = make_DAT_ptr(HOST);
    d.TransportProtocols.UDP_IPv4->DAT_input_output->availablePortRanges.push_back(make_AvailablePortRange(1024, 65535));
    d.TransportProtocols.UDP_IPv4->DAT_parameter = make_DAT_ptr(HOST);
    d.TransportProtocols.UDP_IPv4->DAT_parameter->availablePortRanges.push_back(make_AvailablePortRange(1024, 65535));

    d.CapabilityFlags.canAcceptConfigPdus = true;
    d.CapabilityFlags.canHandleVariableSteps = true;

    for (int i = 0; i < 6; ++i) {
        std::shared_ptr<CommonCausality_t> input = make_CommonCausality_ptr<float64_t>();
        input->Float64->start = std::make_shared<std::vector<float64_t>>(1, inputStarts[i]);
        d.Variables.push_back(make_Variable_input(INPUTS[i], i + 1, input));
    }
    for (int i = 0; i < 6; ++i) {
        std::shared_ptr<Output_t> output = make_Output_ptr<float64_t>();
        output->Float64->start = std::make_shared<std::vector<float64_t>>(1, 0.0);
        // A CFG_steps other than defaultSteps needs a range here.
        output->fixedSteps = false;
        output->minSteps = std::make_shared<steps_t>(1);
        output->maxSteps = std::make_shared<steps_t>(MAX_STEPS);
        d.Variables.push_back(make_Variable_output(OUTPUTS[i], i + 7, output));
    }
    return d;
}

class PdSlave {
public:
    PdSlave(uint16_t port, DcpOpMode expectedMode, const std::vector<double> &inputStarts, FILE *log)
            : driver(new UdpDriver(HOST, port)),
              manager(new DcpManagerSlave(description(port, inputStarts), driver->getDcpDriver())),
              log(log) {
        // DCPLib keeps each variable's value at a fixed address for the manager's life.
        for (int j = 0; j < 3; ++j) {
            q[j] = manager->getInput<float64_t *>(j + 1);
            u[j] = manager->getInput<float64_t *>(j + 4);
            tau[j] = manager->getOutput<float64_t *>(j + 7);
            qRef[j] = manager->getOutput<float64_t *>(j + 10);
        }
        auto step = [this](uint64_t steps) { compute(steps); };
        manager->setInitializeCallback<SYNC>([this] { compute(0); });
        manager->setSynchronizingNRTStepCallback<SYNC>(step);
        manager->setSynchronizedNRTStepCallback<SYNC>(step);
        manager->setRunningNRTStepCallback<SYNC>(step);
        manager->setSynchronizingStepCallback<SYNC>(step);
        manager->setSynchronizedStepCallback<SYNC>(step);
        manager->setRunningStepCallback<SYNC>(step);
        manager->setOperationInformationListener<SYNC>([this, expectedMode](uint8_t, DcpOpMode mode) {
            if (mode != expectedMode) {
                std::fprintf(stderr, "pd_slave: registered in %s, expected %s\n",
                             to_string(mode).c_str(), to_string(expectedMode).c_str());
                wrongMode = true;
            }
        });
        manager->setStateChangedListener<SYNC>([this](DcpState state) {
            if (state == DcpState::ALIVE) {  // deregistered: the run is over
                // Stops receiving, which makes start() return; DcpManagerSlave::stop() would
                // instead be DCP's transition to STOPPING, which hides this one.
                manager->AbstractDcpManager::stop();
            }
        });
        // DCPLib says when its socket is open only in its debug log (-DDEBUG): a starter
        // waits for this line before it lets a master send.
        manager->addLogListener([port](const LogEntry &entry) {
            if (entry.getRawMsg() == NEW_SOCKET.msg) {
                std::printf("pd_slave: listening on udp://%s:%u\n", HOST, (unsigned) port);
                std::fflush(stdout);
            } else if (entry.getLevel() <= DcpLogLevel::LVL_WARNING) {
                std::fprintf(stderr, "pd_slave: %s\n", entry.getMsg().c_str());
            }
        });
        manager->setGenerateLogString(true);
    }

    // Receives until deregistered, then prints the summary line.
    // DCPLib's driver and manager are never destroyed: ~DcpManagerSlave deletes its worker
    // threads without joining them (std::terminate), and a socket closing logs into the manager.
    int run() {
        manager->start();
        std::printf("steps=%llu last_tau=%.17g,%.17g,%.17g\n", (unsigned long long) stepsSoFar,
                    *tau[0], *tau[1], *tau[2]);
        return wrongMode ? 1 : 0;
    }

private:
    UdpDriver *driver;
    DcpManagerSlave *manager;
    FILE *log;
    float64_t *q[3], *u[3], *tau[3], *qRef[3];
    uint64_t stepsSoFar = 0;
    bool wrongMode = false;

    // The law in the Python reference's order of operations (compiled with -ffp-contract=off).
    void compute(uint64_t steps) {
        const double qr = 0.0, ur = 0.0;
        for (int j = 0; j < 3; ++j) {
            *tau[j] = kP[j] * (qr - *q[j]) + kD[j] * (ur - *u[j]);
            *qRef[j] = qr;
        }
        stepsSoFar += steps;
        if (log != nullptr) {
            std::fprintf(log, "%llu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                         (unsigned long long) stepsSoFar, *q[0], *q[1], *q[2], *u[0], *u[1], *u[2],
                         *tau[0], *tau[1], *tau[2]);
            std::fflush(log);
        }
    }
};

std::vector<double> parseStarts(const std::string &text) {
    std::vector<double> values;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        values.push_back(std::stod(item));
    }
    return values;
}

}  // namespace

int main(int argc, char *argv[]) {
    if (argc < 2 || argc > 5) {
        std::fprintf(stderr, "usage: pd_slave PORT [NRT|SRT] [LOG_CSV|-] [six input start values]\n");
        return 2;
    }
    uint16_t port;
    DcpOpMode mode = DcpOpMode::NRT;
    std::vector<double> starts(6, 0.0);
    try {
        port = (uint16_t) std::stoul(argv[1]);
        if (argc > 2 && std::string(argv[2]) == "SRT") {
            mode = DcpOpMode::SRT;
        } else if (argc > 2 && std::string(argv[2]) != "NRT") {
            throw std::invalid_argument(std::string("unknown operation mode ") + argv[2]);
        }
        if (argc > 4) {
            starts = parseStarts(argv[4]);
            if (starts.size() != 6) {
                throw std::invalid_argument("six input start values expected");
            }
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "pd_slave: bad argument: %s\n", e.what());
        return 2;
    }
    FILE *log = nullptr;
    if (argc > 3 && std::string(argv[3]) != "-") {
        log = std::fopen(argv[3], "a");
        if (log == nullptr) {
            std::perror(argv[3]);
            return 2;
        }
    }
    return PdSlave(port, mode, starts, log).run();
}
