"""A block in another process: the bridge FMU (``crane-cosim build-bridge``)
in place of the crane's controller, against ``crane-cosim serve Controller``
in a process of its own, compared with the run of the FMUs alone, in
lock-step (with packet loss) and free-running, under our master, libcosim
and ecos; the commands, and the runs a bridge cannot take part in.  Peers
that die, never answer, or strangers that send datagrams of every kind are
in ``test_bridge_faults.py``.  The bridge FMU runs several times in this
process, each time unpacked to a folder of its own that is gone after the
run: its entry script must not read its spec again then."""
import gc
import json
import re
import signal
import socket
import subprocess
import time
from pathlib import Path
import xml.etree.ElementTree as ET
import zipfile

import numpy as np
import pytest

from bridge_helpers import (COUNTER_NAMES, GAUSS_SEIDEL, STOP, bridge_fmu, bridged, free_port,  # noqa: F401
                            one_sentence, reference, served, wait_bound)
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.link import BridgeError
from crane_cosim.bridge.peer_check import check_peer
from crane_cosim.bridge.packet import END, HELLO, REFUSAL, REQUEST, WELCOME, pack, signals_digest, unpack
from crane_cosim.bridge.udp_bridge import bridge_block, bridge_of
from crane_cosim.cli import main
from crane_cosim.fmus.build import build_bridge_fmu, fmu_is_current, guid, source_hash
from crane_cosim.fmus.native import find_compiler
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.ssp import write_ssd
from crane_cosim.files.results import read_results
from limits import HUNG


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
    assert all(deps[c] == [] for c in COUNTER_NAMES) and len(deps) == len(template_deps) + len(COUNTER_NAMES)
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
def test_build_bridge_commands(capsys, tmp_path):
    assert main(["build-bridge", "Controller", "--out", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(tmp_path / "ControllerBridge.fmu")
    # the digest a device compares (the docs' C peer and the library's example hold it)
    assert captured.err == ("crane-cosim: the digest of its signals, which its peer compares in the hello: "
                            "c25742c17564a38e8804f9ed90b09d8239ce31a2366a3a0170c60ca1a809fd34 (docs/in_the_loop.md)\n")
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
    (["Controller", "--port", "0", "--idle", "0"], "--idle 0 must be a positive number of seconds"),
    (["Controller", "--port", "0", "--key-file", "/no/such.key"],
     "--key-file: key file /no/such.key cannot be read (No such file or directory)"),
    (["Controller", "--port", "0"], "the key in environment variable CRANE_COSIM_BRIDGE_KEY is 5 bytes long: a key "
                                    "must have at least 16"),
])
def test_serve_refuses_bad_input(capsys, monkeypatch, args, fragment):
    if "--key-file" not in args:
        monkeypatch.setenv("CRANE_COSIM_BRIDGE_KEY", "short" if "key" in fragment else "")
    assert main(["serve", *args]) == 2
    one_sentence(capsys.readouterr().err, fragment)


def test_serve_says_when_its_port_is_taken(capsys):
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        assert main(["serve", "Controller", "--port", str(port)]) == 2
    one_sentence(capsys.readouterr().err, f"cannot serve Controller on udp://127.0.0.1:{port}: Address already in use")


def test_a_monolithic_run_refuses_a_bridge(capsys, tmp_path, fmu_dir, bridge_fmu):
    """At the example's own settings (the iterated midpoint, which a bridge
    could not take part in): the monolithic run has no co-simulation
    algorithm, and says what it cannot do itself."""
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP), tmp_path / "s.ssd")
    code = main(["run", str(ssd), "--monolithic", "--replace", f"controller={bridge_fmu}", "--no-plots",
                 "--set", "controller.port=5000", "--out", str(tmp_path / "out")])
    assert code == 2
    one_sentence(capsys.readouterr().err, "component controller (ControllerBridge.fmu) is a bridge to a block run by "
                                          "another process, which the monolithic run cannot integrate")


def test_the_iterated_midpoint_refuses_a_bridge_before_asking_anything(capsys, tmp_path, fmu_dir, bridge_fmu):
    """Bad input (exit 2, one sentence), found before anything runs: the
    peer hears nothing."""
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP), tmp_path / "s.ssd")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
        peer.bind(("127.0.0.1", 0))
        code = main(["run", str(ssd), "--algorithm", "iterated-midpoint", "--extrapolation", "none", "--replace",
                     f"controller={bridge_fmu}", "--set", f"controller.port={peer.getsockname()[1]}", "--no-plots",
                     "--out", str(tmp_path / "out")])
        peer.settimeout(0.2)
        with pytest.raises(TimeoutError):
            peer.recvfrom(1000)
    assert code == 2
    one_sentence(capsys.readouterr().err, "component controller (ControllerBridge.fmu) cannot save and restore its "
                                          "state (canGetAndSetFMUstate is false), which the iterated-midpoint "
                                          "algorithm needs", "use gauss-seidel for this system (--algorithm "
                                          "gauss-seidel)")
    assert not (tmp_path / "out").exists()


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
    assert re.fullmatch(r"crane-cosim: served Controller on udp://127\.0\.0\.1:\d+: 1 run \(1 ended by the bridge, 0 "
                        r"abandoned\), \d+ requests .*; ignored: 0 datagrams of strangers, 0 malformed, 0 not "
                        r"tagged with the key, 0 of another packet layout than version 3\n", server.err)
    stats = json.loads(stats_file.read_text())
    df = read_results(tmp_path / "out")
    assert set(reference.columns) < set(df.columns)
    np.testing.assert_allclose(df[reference.columns], reference, rtol=1e-12, atol=0)
    last = {c: int(df[f"controller.{c}"].iloc[-1]) for c in COUNTER_NAMES if c != "bridge_round_trip"}
    assert last["bridge_sent"] == stats["requests"] == last["bridge_answers"] + last["bridge_lost"] + \
        last["bridge_late"]
    # each answer dropped is asked for again; the retry is far beyond a round trip, so an answer is late
    # (then the one to the sending after it may be dropped without a loss) only on a stalled machine
    assert last["bridge_lost"] <= stats["dropped"] <= last["bridge_lost"] + last["bridge_late"]
    if last["bridge_late"] == 0:
        assert last["bridge_lost"] == stats["dropped"] == len(stats["dropped_seqs"]) == stats["repeated"]
    assert (df[[f"controller.{c}" for c in ("bridge_stale", "bridge_held", "bridge_age", "bridge_malformed",
                                            "bridge_unasked")]] == 0).all().all()
    assert (stats["runs"], stats["ended"], stats["strangers"], stats["malformed"], stats["other_layout"]) == \
        (1, 1, 0, 0, 0)
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    trips = summary["bridges"]["controller"].pop("round_trip_us")
    assert summary["bridges"]["controller"] == {
        "peer": f"udp://127.0.0.1:{server.port}", "mode": "lock-step", "on_silence": "stop", "status": "answered",
        **{c[len("bridge_"):]: v for c, v in last.items()}, "time": STOP}
    assert "warnings" not in summary
    # the link's round trips, from the recorded column at each row that brought an answer (every step, and
    # the start), as summary.json gives them: two computations of the same figures, to their rounding
    answered = np.diff(df["controller.bridge_answers"].to_numpy(), prepend=0) > 0
    us = df["controller.bridge_round_trip"].to_numpy()[answered] * 1e6
    assert answered.all() and trips["answers_timed"] == len(df) and (us > 0).all()
    assert trips == {"answers_timed": len(us), "p50": round(float(np.percentile(us, 50)), 1),
                     "p99": round(float(np.percentile(us, 99)), 1), "max": round(float(us.max()), 1),
                     "jitter": round(float(np.abs(np.diff(us)).mean()), 1)}
    if drop:
        assert stats["dropped"] >= 2


def test_free_running_outputs_the_answers_to_earlier_requests(tmp_path, fmu_dir, bridge_fmu):
    """The controller served by another process, free-running, the run
    paced to real time: each step's outputs are the peer's answer to the
    request ``bridge_age`` steps before, whatever the machine's speed made
    that age: the controller's law at that request's time (its set-points)
    on the crane's state then (its torques).  The peer answers every request
    in order: nothing is lost, late or held.  (How close the run stays to
    the run of the FMUs alone depends on those ages: docs/in_the_loop.md has
    the figures measured.)"""
    with served() as server:
        system = bridged(tmp_path, fmu_dir, bridge_fmu, server.port, mode="free-running")
        result = run_cosim(system, tmp_path / "out", progress=False, real_time=1.0)
    assert result.status == "completed" and result.real_time["steps"] == 500
    df = read_results(tmp_path / "out")
    age = df["controller.bridge_age"].to_numpy().astype(int)
    assert age[0] == 0 and (age >= 0).all()
    rows = np.arange(len(df)) - age  # the row of the request each row's outputs answer
    assert (rows >= 0).all()
    ctrl = Controller()
    inputs = df[[f"crane.{v.name}" for v in Controller.inputs]].to_numpy()
    expected = np.array([ctrl.output(df["time"].iloc[r], np.zeros(0), inputs[r]) for r in rows])
    got = df[[f"controller.{v.name}" for v in Controller.outputs]].to_numpy()
    scale = np.maximum(np.abs(got).max(axis=0), 1.0)
    assert (np.abs(got - expected) <= 1e-9 * scale).all()  # (results.csv keeps 12 digits)
    last = df.iloc[-1]
    for c in ("bridge_lost", "bridge_late", "bridge_held", "bridge_malformed", "bridge_unasked"):
        assert last[f"controller.{c}"] == 0, c
    assert last["controller.bridge_sent"] - last["controller.bridge_answers"] == age[-1]  # taken in order
    # a step at which no new answer came is stale: its request's age grew by one
    assert last["controller.bridge_stale"] == int((np.diff(rows) == 0).sum())


def test_check_names_a_bridge_without_its_port(capsys, tmp_path, fmu_dir, bridge_fmu):
    """`crane-cosim check` makes the bridge's own parameter checks, as for
    the project's other FMUs: a bridge whose port is not set is named
    before anything runs.  The system by Gauss-Seidel at 1 ms: a bridge
    cannot be rolled back, which the example's default algorithm needs."""
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), **GAUSS_SEIDEL), tmp_path / "system.ssd")
    assert main(["check", str(ssd), "--replace", f"controller={bridge_fmu}"]) == 2
    err = capsys.readouterr().err
    assert "crane-cosim: error: component controller: ControllerBridge parameter port is not set (0)" in err
    assert main(["check", str(ssd), "--replace", f"controller={bridge_fmu}", "--set", "controller.port=5000"]) == 0


@pytest.mark.parametrize("host", ["libcosim", "ecos"])
def test_the_bridge_in_other_hosts_equals_their_all_fmu_run(tmp_path, fmu_dir, bridge_fmu, host):
    """OSP libcosim and ecos run the bridge FMU too: with the controller
    served by another process in lock-step, every output equals the host's
    run of the FMUs alone (each host's own algorithm on both sides, the
    system by Gauss-Seidel at 1 ms: a bridge cannot be rolled back)."""
    if host == "libcosim":
        from crane_cosim.hosts.libcosim import run_libcosim as run
    else:
        from crane_cosim.hosts.ecos import run_ecos as run
    reference = run(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL))
    with served() as server:
        df = run(bridged(tmp_path, fmu_dir, bridge_fmu, server.port))
    assert len(df) == len(reference) == 501
    assert set(reference.columns) < set(df.columns)
    np.testing.assert_allclose(df[reference.columns], reference, rtol=1e-12, atol=0)
    last = {c: int(df[f"controller.{c}"].iloc[-1]) for c in COUNTER_NAMES if c != "bridge_round_trip"}
    # a loaded machine may delay an answer beyond the retry: then it is late, not lost
    assert last["bridge_lost"] == last["bridge_held"] == last["bridge_malformed"] == last["bridge_unasked"] == 0, last
    assert last["bridge_sent"] == last["bridge_answers"] + last["bridge_late"]


def test_the_c_peer_of_the_docs_serves_a_bridge(tmp_path, rng):
    """The C sketch of a peer in docs/in_the_loop.md, compiled and run: a
    stranger's hello of its signals is welcomed, of others refused with the
    peer's digest; in the run so opened, a first request of every wrong
    length (shorter, longer by a byte, by 1200) is not answered; a bridge
    in lock-step gets its law's answers, to the last bit; a stranger's new
    run meanwhile is not welcomed; the bridge's end of its run lets the
    next run start at once; every rule of ``peer-check`` passes; a bridge
    of the same signals in another order fails, saying the peer refused
    them."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "in_the_loop.md"
    source = re.search(r"```c\n(.*?)```", docs.read_text(), re.S)[1]
    (tmp_path / "peer.c").write_text(source)
    cc = find_compiler()
    assert cc, "no C compiler (gcc or clang) on this machine"
    subprocess.run([*cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Werror", "-o", str(tmp_path / "peer"),
                    str(tmp_path / "peer.c")], check=True, capture_output=True)
    port = free_port()
    peer = subprocess.Popen([str(tmp_path / "peer"), str(port)])
    wait_bound(port)
    ControllerBridge = bridge_of(Controller)
    digest, text = signals_digest(Controller.inputs, Controller.outputs)
    x = np.zeros(0)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
            stranger.settimeout(0.2)
            to = ("127.0.0.1", port)
            stranger.sendto(pack(HELLO, 777, 0, 0.0, nonce=5, payload=bytes(32)), to)
            refusal = unpack(stranger.recvfrom(2000)[0], 0)
            assert (refusal.kind, refusal.run, refusal.nonce, refusal.payload) == (REFUSAL, 777, 5, digest)
            stranger.sendto(pack(HELLO, 777, 0, 0.0, nonce=6, payload=digest + text.encode()), to)
            welcome = unpack(stranger.recvfrom(2000)[0], 0)
            assert (welcome.kind, welcome.run, welcome.nonce, welcome.payload) == (WELCOME, 777, 6, digest)
            first = pack(REQUEST, 777, 1, 0.0, np.full(6, 1e9))
            for data in (first[:31], first[:32], first[:-8], first[:-1], first + b"\0", first + bytes(8),
                         first + bytes(1200)):
                stranger.sendto(data, to)
                with pytest.raises(TimeoutError):  # not a request: nothing answered
                    stranger.recvfrom(2000)
            stranger.sendto(pack(END, 777, 1, 0.0), to)
            for run in range(2):
                b = ControllerBridge(port=float(port))
                b.prepare()
                for k in range(50):
                    u = rng.normal(size=6)
                    if k == 10:  # a stranger's new run
                        stranger.sendto(pack(HELLO, 12345, 0, 0.0, payload=digest + text.encode()), to)
                    b.advance(k / 1024, x, u, 1 / 1024)
                    y = b.output((k + 1) / 1024, x, u)
                    law = np.concatenate([-3e4 * u[:3] - 8e3 * u[3:], np.zeros(3)])
                    assert np.array_equal(y[:6], law), (run, k)
                # (the first request may come before the peer listens: lost, and sent again)
                assert (b.answers, b.unasked, b.malformed) == (50, 0, 0)
                assert b.sent == b.answers + b.lost + b.late
                b.close()
                with pytest.raises(TimeoutError):  # the stranger is not welcomed
                    stranger.recvfrom(1000)
        checks = check_peer("127.0.0.1", port, Controller.inputs, Controller.outputs, wait=0.2)
        assert len(checks) == 11 and all(c.passed for c in checks), [(c.name, c.seen) for c in checks]
        swapped = bridge_block("Swapped", Controller.inputs[::-1], Controller.outputs)(port=float(port))
        swapped.prepare()
        with pytest.raises(BridgeError, match=f"Swapped: the peer at udp://127.0.0.1:{port} refused the run: its "
                                              f"signals are not this bridge's \\(the peer did not say which signals "
                                              f"it has\\)"):
            swapped.output(0.0, x, np.zeros(6))
        swapped.close()
    finally:
        peer.kill()
        peer.wait()
