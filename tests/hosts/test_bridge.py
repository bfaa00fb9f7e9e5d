"""A block in another process: the bridge FMU (``crane-cosim build-bridge``)
in place of the crane's controller, against ``crane-cosim serve Controller``
in a process of its own, compared with the run of the FMUs alone; packet
loss, a server that dies mid-run, and the runs a bridge cannot take part in.
The bridge FMU runs several times in this process, each time unpacked to a
folder of its own that is gone after the run: its entry script must not
read its spec again then."""
import gc
import json
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
import zipfile
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from crane_cosim.blocks.controller import Controller
from crane_cosim.blocks.udp_bridge import bridge_block, bridge_of
from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import replace_component
from crane_cosim.fmus.build import build_bridge_fmu, fmu_is_current, guid, source_hash
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.hosts.serve import Server
from crane_cosim.files.ssp import write_ssd

STOP = 0.5  # s: 500 steps of 1 ms
COUNTER_NAMES = ["bridge_sent", "bridge_answers", "bridge_lost", "bridge_stale", "bridge_held", "bridge_age"]


@pytest.fixture(scope="module")
def bridge_fmu(tmp_path_factory):
    return build_bridge_fmu(Controller, tmp_path_factory.mktemp("bridge"))


@pytest.fixture(scope="module")
def reference(fmu_dir, tmp_path_factory):
    """The crane on the vessel, all three FMUs in this process."""
    out = tmp_path_factory.mktemp("reference")
    run_cosim(crane_on_vessel(base_dir=out, fmu_dir=str(fmu_dir), stop_time=STOP), out / "results", progress=False)
    return pd.read_csv(out / "results" / "results.csv")


def bridged(tmp_path, fmu_dir, bridge_fmu, port, **params):
    s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP)
    replace_component(s, "controller", bridge_fmu)
    s.set_parameter("controller.port", float(port))
    for name, value in params.items():
        s.set_parameter(f"controller.{name}", value)
    return s


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


@contextmanager
def served(*options, stop_signal=signal.SIGTERM):
    """``crane-cosim serve Controller --port 0 OPTIONS`` in a process of its
    own, ready (its line read); stopped with ``stop_signal`` at the end.
    ``.port``, ``.proc``, and after the end ``.err``, its stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "serve", "Controller", "--port", "0",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    server = SimpleNamespace(proc=proc, port=None, err=None)
    try:
        line = proc.stdout.readline() if select.select([proc.stdout], [], [], 60)[0] else ""
        m = re.fullmatch(r"serving Controller on udp://127\.0\.0\.1:(\d+)\n", line)
        assert m, (line, proc.poll())
        server.port = int(m[1])
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(stop_signal)
        _, server.err = proc.communicate(timeout=30)


class Relay:
    """Passes datagrams between a bridge and a served block, and kills the
    server when request number ``kill_after + 1`` comes: the server dies
    mid-run at a known point, whatever the machine's speed."""

    def __init__(self, server, kill_after: int):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.server, self.kill_after, self.passed = server, kill_after, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        target, client = ("127.0.0.1", self.server.port), None
        while not self._stop.is_set():
            try:
                data, addr = self.sock.recvfrom(65536)
            except TimeoutError:
                continue
            if addr == target:
                self.sock.sendto(data, client)
            elif self.server.proc.poll() is None:
                client = addr
                if self.passed == self.kill_after:
                    self.server.proc.kill()
                    self.server.proc.wait()
                    continue
                self.passed += 1
                self.sock.sendto(data, target)

    def close(self):
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


# -- the FMU ------------------------------------------------------------------------
def _structure(path):
    """``(canGetAndSetFMUstate, {output: [inputs it depends on]}, {variable: unit})``
    from the modelDescription of the FMU at ``path``."""
    with zipfile.ZipFile(path) as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    variables = list(md.find("ModelVariables"))
    name = {k: v.get("name") for k, v in enumerate(variables, start=1)}
    deps = {name[int(u.get("index"))]: [name[int(i)] for i in u.get("dependencies").split()]
            for u in md.find("ModelStructure/Outputs")}
    units = {v.get("name"): v.find("Real").get("unit") for v in variables if v.find("Real") is not None}
    return md.find("CoSimulation").get("canGetAndSetFMUstate"), deps, units


def test_bridge_fmu_declares_no_state_and_its_template_structure(bridge_fmu, fmu_dir):
    state, deps, units = _structure(bridge_fmu)
    template_state, template_deps, template_units = _structure(fmu_dir / "Controller.fmu")
    assert (state, template_state) == ("false", "true")
    assert {k: deps[k] for k in template_deps} == template_deps
    assert all(deps[c] == [] for c in COUNTER_NAMES) and len(deps) == len(template_deps) + 6
    ports = [v.name for v in Controller.inputs + Controller.outputs]
    assert {k: units[k] for k in ports} == {k: template_units[k] for k in ports}


def test_bridge_fmu_hash_covers_its_ports(bridge_fmu):
    bridge = bridge_of(Controller)
    assert fmu_is_current(bridge_fmu, bridge)
    fewer = bridge_block("ControllerBridge", Controller.inputs[:-1], Controller.outputs,
                         Controller.feedthrough[:-1])
    assert source_hash(fewer) != source_hash(bridge)
    assert guid("ControllerBridge", source_hash(fewer)) != guid("ControllerBridge", source_hash(bridge))
    assert not fmu_is_current(bridge_fmu, fewer)
    with pytest.raises(ValueError, match="a bridge cannot be named Controller, the name of one of the project's"):
        build_bridge_fmu(bridge_block("Controller", (), Controller.outputs), bridge_fmu.parent)


# -- the commands ------------------------------------------------------------------
def one_sentence(err, *fragments):
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("crane-cosim: error: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_build_bridge_commands(capsys, tmp_path):
    assert main(["build-bridge", "Controller", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "ControllerBridge.fmu")
    assert main(["build-bridge", "--name", "Rig", "--inputs", "q:rad, u:rad/s", "--outputs", "tau:N.m,flag",
                 "--out", str(tmp_path)]) == 0
    state, deps, units = _structure(tmp_path / "Rig.fmu")
    assert state == "false" and deps["tau"] == deps["flag"] == ["q", "u"]  # declared finer nowhere: all inputs
    assert (units["q"], units["u"], units["tau"], units["flag"]) == ("rad", "rad/s", "N.m", "1")


@pytest.mark.parametrize("args,fragment", [
    ([], "build-bridge needs either a block (Vessel, Crane, Controller"),
    (["Controller", "--name", "Rig"], "and --outputs, not both"),
    (["Nope"], "no block named 'Nope'; known: Vessel"),
    (["Controller", "--inputs", "a"], "--inputs and --outputs go with --name; the bridge of Controller has "
                                      "Controller's ports"),
    (["--name", "Rig", "--outputs", "tau:Nm"], "--outputs: port tau has the unit 'Nm', which is not known"),
    (["--name", "Rig", "--inputs", "2q", "--outputs", "y"], "--inputs: '2q' is not a port name"),
    (["--name", "Rig", "--inputs", "a,a", "--outputs", "y"], "Rig: input a is declared twice"),
    (["--name", "Rig", "--inputs", "port", "--outputs", "y"], "Rig: input port is the name of the bridge's own "
                                                              "parameter"),
    (["--name", "Rig"], "--outputs names no port; the bridge Rig needs at least one output"),
    (["--name", "Rig-1", "--outputs", "y"], "bridge model name 'Rig-1' is invalid"),
    (["--name", "Controller", "--outputs", "y"], "a bridge cannot be named Controller"),
])
def test_build_bridge_refuses_bad_input(capsys, tmp_path, args, fragment):
    assert main(["build-bridge", *args, "--out", str(tmp_path)]) == 2
    one_sentence(capsys.readouterr().err, fragment)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args,fragment", [
    (["Nope", "--port", "0"], "no block named 'Nope' to serve; known: Vessel"),
    (["Controller", "--port", "0", "--set", "kP_slew=-1"],
     "Controller parameter kP_slew = -1 N.m/rad is invalid: it must be zero or positive"),
    (["Controller", "--port", "0", "--set", "kP_slw=1"], "Controller has no parameter 'kP_slw'"),
    (["Controller", "--port", "0", "--set", "kP_slew=stiff"], "--set 'kP_slew=stiff': 'stiff' is not a number"),
    (["Controller", "--port", "0", "--set", "kP_slew"], "--set 'kP_slew' is not of the form name=value"),
    (["Controller", "--port", "0", "--drop", "1.5"], "--drop 1.5 must be a fraction from 0 to 1"),
    (["Controller", "--port", "70000"], "--port 70000 must be from 0 (any free port) to 65535"),
])
def test_serve_refuses_bad_input(capsys, args, fragment):
    assert main(["serve", *args]) == 2
    one_sentence(capsys.readouterr().err, fragment)


def test_serve_says_when_its_port_is_taken(capsys):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        assert main(["serve", "Controller", "--port", str(port)]) == 2
    one_sentence(capsys.readouterr().err, f"cannot serve Controller on udp://127.0.0.1:{port}: Address already in use")


def test_a_monolithic_run_refuses_a_bridge(capsys, tmp_path, fmu_dir, bridge_fmu):
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP), tmp_path / "s.ssd")
    code = main(["run", str(ssd), "--monolithic", "--replace", f"controller={bridge_fmu}", "--no-plots",
                 "--set", "controller.port=5000", "--out", str(tmp_path / "out")])
    assert code == 2
    one_sentence(capsys.readouterr().err, "component controller (ControllerBridge.fmu) is a bridge to a block run by "
                                          "another process, which the monolithic run cannot integrate")


def test_the_iterated_midpoint_refuses_a_bridge(tmp_path, fmu_dir, bridge_fmu):
    server = Server(Controller())
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop.is_set, 0.02), daemon=True)
    thread.start()
    try:
        s = bridged(tmp_path, fmu_dir, bridge_fmu, server.port)
        s.algorithm = "iterated-midpoint"
        with pytest.raises(CraneCosimError, match=r"component controller \(ControllerBridge\.fmu\) cannot save and "
                                                  r"restore its state \(canGetAndSetFMUstate is false\)"):
            run_cosim(s, tmp_path / "out", progress=False)
    finally:
        stop.set()
        thread.join(5)
        server.close()


# -- against a server in another process --------------------------------------------
@pytest.mark.parametrize("drop,stop_signal", [(0.0, signal.SIGINT), (0.01, signal.SIGTERM)])
def test_lock_step_bridge_equals_the_all_fmu_run(tmp_path, fmu_dir, bridge_fmu, reference, drop, stop_signal):
    """The controller served by another process, in lock-step: every
    recorded column equals the run of the FMUs alone.  With 1% of the
    answers dropped too, and bridge_lost is then the number dropped."""
    stats_file = tmp_path / "stats.json"
    local = free_port()
    with served("--drop", str(drop), "--seed", "2", "--stats", str(stats_file), stop_signal=stop_signal) as server:
        # a retry far beyond a round trip: no answer is merely late, each retransmission is a loss
        system = bridged(tmp_path, fmu_dir, bridge_fmu, server.port, retry=0.1, local_port=float(local))
        gc.disable()  # so that only fmi2Terminate, not the collector, can close the bridge's socket
        try:
            run_cosim(system, tmp_path / "out", progress=False)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.bind(("0.0.0.0", local))  # free again
        finally:
            gc.enable()
    assert server.proc.returncode == 0
    assert re.fullmatch(r"crane-cosim: served Controller on udp://127\.0\.0\.1:\d+: \d+ requests .*\n", server.err)
    stats = json.loads(stats_file.read_text())
    df = pd.read_csv(tmp_path / "out" / "results.csv")
    assert set(reference.columns) < set(df.columns)
    np.testing.assert_allclose(df[reference.columns], reference, rtol=1e-12, atol=0)
    last = df.iloc[-1]
    assert last["controller.bridge_lost"] == stats["dropped"] == len(stats["dropped_seqs"])
    assert last["controller.bridge_sent"] == stats["requests"]
    assert last["controller.bridge_answers"] == stats["answers"]  # one per request, retransmissions aside
    assert stats["repeated"] == stats["dropped"]
    assert (df[[f"controller.{c}" for c in ("bridge_stale", "bridge_held", "bridge_age")]] == 0).all().all()
    assert stats["resets"] == 1 and stats["malformed"] == 0
    if drop:
        assert stats["dropped"] >= 2


def test_server_killed_mid_run_stops_the_run(capsys, tmp_path, fmu_dir, bridge_fmu):
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP), tmp_path / "s.ssd")
    out = tmp_path / "out"
    with served() as server:
        relay = Relay(server, kill_after=200)
        try:
            code = main(["run", str(ssd), "--replace", f"controller={bridge_fmu}", "--set",
                         f"controller.port={relay.port}", "--set", "controller.timeout=0.2", "--out", str(out),
                         "--no-plots"])
        finally:
            relay.close()
    assert code == 1
    one_sentence(capsys.readouterr().err, "component controller (ControllerBridge.fmu) failed to step from t = 0.1",
                 f"the peer at udp://127.0.0.1:{relay.port} was silent for 0.", "s and left the request for t = 0.",
                 "(timeout 0.2 s, on_silence = stop)", "the results up to t = 0.1", f"are in {out}")
    df = pd.read_csv(out / "results.csv")
    assert 150 < len(df) < 250
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "failed" and "was silent for" in summary["error"]


def test_server_killed_mid_run_holds_the_outputs(tmp_path, fmu_dir, bridge_fmu, reference):
    with served() as server:
        relay = Relay(server, kill_after=200)
        try:
            result = run_cosim(bridged(tmp_path, fmu_dir, bridge_fmu, relay.port, timeout=0.2, on_silence="hold"),
                               tmp_path / "out", progress=False)
        finally:
            relay.close()
    assert result.status == "completed"
    df = pd.read_csv(tmp_path / "out" / "results.csv")
    held, answers = df["controller.bridge_held"].to_numpy(), df["controller.bridge_answers"].to_numpy()
    # every step is either answered or held, and the held ones are the last
    assert (np.diff(held) + np.diff(answers) == 1).all()
    n_held = int(held[-1])
    assert 250 < n_held < 350 and (np.diff(held)[-n_held:] == 1).all()
    assert df["controller.bridge_age"].iloc[-1] == n_held
    tau = df[[f"controller.tau_{j}" for j in ("slew", "boom", "jib")]].to_numpy()
    assert (tau[-n_held:] == tau[-n_held - 1]).all()  # held at the last answer
    # up to the kill, the run is the all-FMU one
    before = df.iloc[:-n_held]
    np.testing.assert_allclose(before[reference.columns], reference.iloc[:len(before)], rtol=1e-12, atol=0)


def test_free_running_in_real_time_stays_close_to_the_all_fmu_run(tmp_path, fmu_dir, bridge_fmu):
    """The controller served by another process, free-running, the run paced
    to real time: the peer keeps up (every answer arrives, the outputs in
    use answer this step's request or the one before), and the interface
    wrenches and the torques stay within 1.5% of their peaks (RMS) of the
    run of the FMUs alone, over 2 s.  The error comes from the steps whose
    answer is one step old, and how many are depends on the machine's
    timing.  Measured: 0.50% (W_mount_fx) with 51% of the steps one step
    old (2 cores, otherwise idle); 1.14% on another machine."""
    stop = 2.0
    ref = run_cosim(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=stop), tmp_path / "ref",
                    progress=False)
    with served() as server:
        system = bridged(tmp_path, fmu_dir, bridge_fmu, server.port, mode="free-running")
        system.stop_time = stop
        result = run_cosim(system, tmp_path / "out", progress=False, real_time=1.0)
    assert result.real_time["steps"] == ref.steps == 2000
    a, b = pd.read_csv(tmp_path / "ref" / "results.csv"), pd.read_csv(tmp_path / "out" / "results.csv")
    last = b.iloc[-1]
    assert last["controller.bridge_lost"] == last["controller.bridge_held"] == 0
    kept_up = (b["controller.bridge_age"] <= 1).mean()
    if kept_up < 0.99:
        # a machine whose cores are all busy with other work delays the peer's
        # process: the claim is about a peer that keeps up
        pytest.skip(f"the peer did not keep up on this machine (answers at most one step old at only "
                    f"{100 * kept_up:.0f}% of the steps, overruns {result.real_time['overruns']})")
    columns = [c for c in a.columns if re.fullmatch(r"crane\.W_(mount|king)_\w+|controller\.tau_\w+", c)]
    assert len(columns) == 15
    err = {c: np.sqrt(np.mean((a[c] - b[c]) ** 2)) / np.abs(a[c]).max() for c in columns}
    one_old = (b["controller.bridge_age"] == 1).mean()
    assert max(err.values()) < 0.015, (f"{100 * one_old:.0f}% of the steps one step old", err)


def test_check_names_a_bridge_without_its_port(capsys, tmp_path, fmu_dir, bridge_fmu):
    """`crane-cosim check` makes the bridge's own parameter checks, as for
    the project's other FMUs: a bridge whose port is not set is named
    before anything runs."""
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir)), tmp_path / "system.ssd")
    assert main(["check", str(ssd), "--replace", f"controller={bridge_fmu}"]) == 2
    err = capsys.readouterr().err
    assert "crane-cosim: error: component controller: ControllerBridge parameter port is not set (0)" in err
    assert main(["check", str(ssd), "--replace", f"controller={bridge_fmu}", "--set", "controller.port=5000"]) == 0


@pytest.mark.parametrize("host", ["libcosim", "ecos"])
def test_the_bridge_in_other_hosts_equals_their_all_fmu_run(tmp_path, fmu_dir, bridge_fmu, host):
    """OSP libcosim and ecos run the bridge FMU too: with the controller
    served by another process in lock-step, every output equals the host's
    run of the FMUs alone (each host's own algorithm on both sides)."""
    if host == "libcosim":
        from crane_cosim.hosts.libcosim import run_libcosim as run
    else:
        from crane_cosim.hosts.ecos import run_ecos as run
    reference = run(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP))
    with served() as server:
        df = run(bridged(tmp_path, fmu_dir, bridge_fmu, server.port))
    assert len(df) == len(reference) == 501
    assert set(reference.columns) < set(df.columns)
    np.testing.assert_allclose(df[reference.columns], reference, rtol=1e-12, atol=0)
    assert df["controller.bridge_lost"].iloc[-1] == df["controller.bridge_held"].iloc[-1] == 0
