"""A bridge and a served block when things go wrong, each said aloud: the
server killed in the middle of a run (the run stops, or holds the outputs,
then makes them safe, and ends degraded), a peer that never answers (a warning and a status in
summary.json whatever ``on_silence`` says), and strangers sending datagrams
of every kind to the server or to the bridge during a run, which change
nothing and are counted."""
import json
import socket
import struct

import numpy as np
import pytest

from bridge_helpers import (COUNTER_NAMES, GAUSS_SEIDEL, STOP, Relay, bridge_fmu, bridged,  # noqa: F401
                            one_sentence, reference, served)
from crane_cosim.blocks.joint_friction import JointFriction
from crane_cosim.bridge.packet import ANSWER, END, HELLO, REQUEST, pack, signals_digest, unpack
from crane_cosim.cli import main
from crane_cosim.ssp import write_ssd
from crane_cosim.fmus.build import build_bridge_fmu
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel, crane_on_vessel_friction
from crane_cosim.files.results import read_results


def _ssd(tmp_path, fmu_dir, stop_time=STOP):
    """The crane on the vessel's system file, by Gauss-Seidel at 1 ms: a
    bridge cannot be rolled back, which the example's default algorithm
    needs (and the counts below are of 1 ms steps)."""
    return write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=stop_time, **GAUSS_SEIDEL),
                     tmp_path / "s.ssd")


# -- a server that dies ------------------------------------------------------------------
def test_server_killed_mid_run_stops_the_run(capsys, tmp_path, fmu_dir, bridge_fmu):
    ssd, out = _ssd(tmp_path, fmu_dir), tmp_path / "out"
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
    df = read_results(out)
    assert 150 < len(df) < 250
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "failed" and "was silent for" in summary["error"]
    assert summary["bridges"]["controller"]["status"] == "answered"  # up to the last point exchanged


def test_server_killed_mid_run_holds_the_outputs_then_makes_them_safe_and_says_so(tmp_path, fmu_dir, bridge_fmu,
                                                                                  reference):
    """With on_silence = hold, hold_steps = 100 and the safe torques
    declared: after the kill, 100 steps hold the last answer, every later
    step gives the safe torques; the run goes to its end, degraded (not
    completed), and says so."""
    safe = {"safe_tau_slew": 0.0, "safe_tau_boom": 2.5e4, "safe_tau_jib": 7.0e3}
    with served() as server:
        relay = Relay(server, kill_after=200)
        try:
            result = run_cosim(bridged(tmp_path, fmu_dir, bridge_fmu, relay.port, timeout=0.2, on_silence="hold",
                                       hold_steps=100.0, **safe), tmp_path / "out", progress=False)
        finally:
            relay.close()
    df = read_results(tmp_path / "out")
    held, safe_steps = df["controller.bridge_held"].to_numpy(), df["controller.bridge_safe"].to_numpy()
    answers = df["controller.bridge_answers"].to_numpy()
    # every step is answered, held or made safe: the held ones after the answered, the safe ones last
    assert (np.diff(held) + np.diff(safe_steps) + np.diff(answers) == 1).all()
    n_held, n_safe = int(held[-1]), int(safe_steps[-1])
    assert n_held == 100 and 150 < n_safe < 250
    silent = n_held + n_safe
    assert (np.diff(held)[-silent:-n_safe] == 1).all() and (np.diff(safe_steps)[-n_safe:] == 1).all()
    assert df["controller.bridge_age"].iloc[-1] == silent
    tau = df[[f"controller.tau_{j}" for j in ("slew", "boom", "jib")]].to_numpy()
    assert (tau[-silent:-n_safe] == tau[-silent - 1]).all()  # held at the last answer
    assert (tau[-n_safe:] == list(safe.values())).all()
    # up to the kill, the run is the all-FMU one
    before = df.iloc[:-silent]
    np.testing.assert_allclose(before[reference.columns], reference.iloc[:len(before)], rtol=1e-12, atol=0)
    warning = (f"the peer of controller at udp://127.0.0.1:{relay.port} was silent at times: controller's outputs "
               f"were held at 100 steps and the safe ones at {n_safe} (on_silence = hold; bridge_held and "
               f"bridge_safe in results.arrows say when)")
    assert result.status == "degraded" and result.reason == warning
    assert result.bridges["controller"]["status"] == "safe outputs"
    assert (result.bridges["controller"]["held"], result.bridges["controller"]["safe"]) == (100, n_safe)
    assert result.warnings == [warning]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["status"] == "degraded" and summary["error"] == warning
    assert summary["warnings"] == result.warnings and summary["bridges"] == result.bridges


# -- a peer that never answers -------------------------------------------------------------
@pytest.mark.parametrize("policy", ["hold", "stop"])
def test_a_peer_that_never_answers_is_said_whatever_on_silence_says(capsys, tmp_path, fmu_dir, bridge_fmu, policy):
    """With hold, the run goes to its end with the controller's start values,
    held for hold_steps steps and then the safe ones (by default the start
    values too): degraded, a warning and an error line on the terminal, the
    status in summary.json.
    With stop, the run fails in its first exchange, before any point was
    recorded, and says both."""
    ssd, out = _ssd(tmp_path, fmu_dir, stop_time=0.05), tmp_path / "out"
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as peer:
        peer.bind(("127.0.0.1", 0))
        port = peer.getsockname()[1]
        code = main(["run", str(ssd), "--replace", f"controller={bridge_fmu}", "--set", f"controller.port={port}",
                     "--set", "controller.timeout=0.1", "--set", f"controller.on_silence={policy}", "--out", str(out),
                     "--no-plots"])
    captured = capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text())
    entry = summary["bridges"]["controller"]
    if policy == "stop":
        assert code == 1
        one_sentence(captured.err, f"the peer at udp://127.0.0.1:{port} never answered: ",
                     "went unanswered (timeout 0.1 s, on_silence = stop)",
                     f"; no point was recorded (summary.json in {out} says how the run ended)")
        assert summary["status"] == "failed" and "never answered" in summary["error"]
        assert entry["status"].startswith("not read")
        assert len(read_results(out)) == 0
        return
    assert code == 1 and summary["status"] == "degraded"
    sent = entry["sent"]
    warning = (f"the peer of controller at udp://127.0.0.1:{port} never answered: controller's outputs were their "
               f"start values, held at 10 steps and the safe ones at 40 ({sent} requests sent; on_silence = hold)")
    assert captured.err.strip().splitlines() == [
        f"crane-cosim: warning: {warning}",
        "crane-cosim: error: the run is degraded, not completed: a bridge's peer was silent and the run went on "
        "with held or safe outputs (the warnings above say which and how long)"]
    assert summary["warnings"] == [warning] and summary["error"] == warning
    assert entry == {"peer": f"udp://127.0.0.1:{port}", "mode": "lock-step", "on_silence": "hold",
                     "status": "never answered", "sent": sent, "answers": 0, "lost": sent, "late": 0, "stale": 0,
                     "held": 10, "safe": 40, "age": 51, "malformed": 0, "forged": 0, "unasked": 0,
                     "time": 0.05}  # one request at 0, one a step; hold_steps 10 by default
    assert (f"bridge controller (udp://127.0.0.1:{port}, lock-step): never answered; {sent} requests sent, "
            f"0 answered, {sent} lost, 0 late, 0 stale, 10 held, 40 safe") in captured.out


# -- strangers ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def friction_bridge(tmp_path_factory):
    return build_bridge_fmu(JointFriction, tmp_path_factory.mktemp("friction_bridge"))


def _friction_run(tmp_path, fmu_dir, friction_bridge, target=None):
    """The crane on the vessel with LuGre friction (a block with states),
    by Gauss-Seidel at 1 ms (:func:`bridged`: a bridge cannot be rolled
    back), served by another process through a relay; with ``target``, a stranger
    sends datagrams of every kind to the server or the bridge before the
    relay passes on the answer to request 150.  The results and the
    server's stats."""
    big = np.full(len(JointFriction.inputs), 1e9)
    answer_big = np.full(len(JointFriction.outputs), 1e9)
    stats_file = tmp_path / "stats.json"

    def hello(run):
        digest, text = signals_digest(JointFriction.inputs, JointFriction.outputs)
        return pack(HELLO, run, 0, 0.0, nonce=1, payload=digest + text.encode())

    def meddle(request, answer, bridge_address):
        p = unpack(request, len(JointFriction.inputs))
        h = 1e-3
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
            if target == "serve":
                to = ("127.0.0.1", server.port)
                for data in (hello(p.run ^ 7),  # a new run, from a stranger
                             pack(REQUEST, p.run, p.seq - 1, p.t - h, big),  # stale, with the run's id
                             pack(REQUEST, p.run, 2 ** 31, p.t, big),  # huge
                             pack(REQUEST, p.run, p.seq + 1, p.t + h, big),  # the next, early
                             pack(END, p.run, p.seq, p.t),  # the end of a run not its own
                             b"CCB3 malformed",
                             b"CCB1" + struct.pack("<Id", 1, 0.0) + big.tobytes()):  # the old layout
                    stranger.sendto(data, to)
                relay.sock.sendto(hello(p.run ^ 7), to)  # a new run, from the client's address
            else:  # from the peer's own address (the relay), and from another
                for data in (pack(ANSWER, p.run, p.seq + 1, p.t + h, answer_big),  # the next, before it is asked
                             pack(ANSWER, p.run, p.seq - 1, p.t - h, answer_big),  # stale
                             pack(ANSWER, p.run, 2 ** 31, p.t, answer_big),  # huge
                             pack(ANSWER, p.run ^ 7, p.seq, p.t, answer_big),  # another run
                             pack(ANSWER, p.run, p.seq, p.t, answer_big, attempt=9),  # a sending never made
                             # all but the sending's nonce: a peer that predicts the rest
                             pack(ANSWER, p.run, p.seq, p.t, answer_big, p.attempt, p.nonce + 1),
                             b"CCB3 malformed",
                             b"CCB1" + struct.pack("<Id", p.seq, p.t) + answer_big.tobytes()):
                    relay.sock.sendto(data, bridge_address)
                stranger.sendto(answer, bridge_address)  # the right answer, from a stranger

    with served("--stats", str(stats_file), block="JointFriction") as server:
        relay = Relay(server, meddle=meddle if target else None, meddle_at=150)
        try:
            system = bridged(tmp_path, fmu_dir, friction_bridge, relay.port, system=crane_on_vessel_friction,
                             component="friction")
            result = run_cosim(system, tmp_path / "out", progress=False)
        finally:
            relay.close()
    assert result.status == "completed"
    return read_results(tmp_path / "out"), json.loads(stats_file.read_text()), result, server.err


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory, fmu_dir, friction_bridge):
    return _friction_run(tmp_path_factory.mktemp("undisturbed"), fmu_dir, friction_bridge)


@pytest.mark.parametrize("target", ["serve", "bridge"])
def test_strangers_change_nothing_and_are_counted(tmp_path, fmu_dir, friction_bridge, undisturbed, target):
    """A stranger's request that would restart the served block, a stale,
    a huge or an early sequence number, an end of the run, a malformed
    datagram, one of the old layout; to the bridge, answers to requests not
    sent, of another run or from another address: the results are those
    of the run without them, to the last bit, and each is counted."""
    df, stats, result, err = _friction_run(tmp_path, fmu_dir, friction_bridge, target)
    calm, calm_stats, calm_result, _ = undisturbed
    physics = [c for c in calm.columns if ".bridge_" not in c]
    assert df[physics].equals(calm[physics])
    assert (calm_stats["strangers"], calm_stats["malformed"], calm_stats["other_layout"]) == (0, 0, 0)
    counted = (stats["strangers"], stats["malformed"], stats["other_layout"])
    counters = result.bridges["friction"]
    if target == "serve":
        assert counted == (6, 1, 1) and (stats["runs"], stats["ended"]) == (1, 1)
        warnings = [line for line in err.splitlines() if line.startswith("crane-cosim: warning: ")]
        assert len(warnings) == 3, err  # the new run from each address, the old layout
        assert any("sends packets of layout version 1" in w for w in warnings)
        assert (counters["malformed"], counters["unasked"]) == (0, 0) and result.warnings is None
    else:
        assert counted == (0, 0, 0)
        assert (counters["malformed"], counters["unasked"]) == (2, 7)
        assert result.warnings == ["friction ignored 2 malformed datagrams and 7 answering no request it sent, "
                                   "or one already answered (the peer answering twice or ahead of a request, or "
                                   "another process sending to its port)"]
        last = df.iloc[-1]
        assert (last["friction.bridge_malformed"], last["friction.bridge_unasked"]) == (2, 7)
    assert counters["status"] == "answered" and counters["lost"] == 0
