"""The UDP bridge (``blocks/udp_bridge.py``) and its peer (``cosim/hosts/serve.py``),
in-process: the packet, the peer's rules, and a bridge against a peer thread
running our blocks, compared with calling the blocks directly."""
import json
import select
import socket
import struct
import threading
import time
from contextlib import contextmanager

import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError, Variable
from crane_cosim.blocks.controller import Controller
from crane_cosim.blocks.udp_bridge import (COUNTERS, HEADER_SIZE, BridgeError, bridge_block, bridge_from_spec,
                                           bridge_of, pack, unpack)
from crane_cosim.hosts.serve import Peer, Server, random_drop
from integrator_block import Integrator

ControllerBridge = bridge_of(Controller)
IntegratorBridge = bridge_of(Integrator)
N_OUT = len(Controller.outputs)
H = 1.0 / 1024  # a step whose multiples are exact: the peer's t - t_peer is then the step itself


@contextmanager
def serving(block, drop=None):
    """``block`` served by a :class:`Server` on a thread of its own."""
    server = Server(block, drop=drop)
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop.is_set, 0.02), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        stop.set()
        thread.join(5)
        server.close()


@contextmanager
def bridge(cls, port, **params):
    b = cls(port=float(port), **params)
    b.prepare()
    try:
        yield b
    finally:
        b.close()


@contextmanager
def listener():
    """A socket that a test answers from by hand (or leaves silent)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(2.0)
    try:
        yield sock
    finally:
        sock.close()


def counters(y):
    return dict(zip((c.name for c in COUNTERS), y[-len(COUNTERS):]))


def arrived(b, wait=2.0):
    """Wait until an answer is queued at the bridge's socket (a test's peer
    answered by hand), so that the bridge's next look finds it."""
    assert select.select([b._sock], [], [], wait)[0], "the answer did not arrive"


# -- the packet ----------------------------------------------------------------
def test_pack_unpack_round_trip():
    values = [1.5, -2.0, 1e-300, np.inf, np.pi]
    data = pack(7, 0.25, values)
    assert len(data) == HEADER_SIZE + 8 * len(values) == 56
    # the layout of the table, as a C program would write it
    assert data == b"CCB1" + struct.pack("<Id5d", 7, 0.25, *values)
    seq, t, got = unpack(data, len(values))
    assert (seq, t) == (7, 0.25) and got.dtype == float and np.array_equal(got, values)
    assert unpack(pack(2 ** 32 - 1, -1.0, []), 0)[:2] == (2 ** 32 - 1, -1.0)
    assert np.isnan(unpack(pack(1, 0.0, [np.nan]), 1)[2][0])


@pytest.mark.parametrize("data,n,fragment", [
    (pack(1, 0.0, [1.0, 2.0]), 3, "a packet of 32 bytes is not one of 3 values, which has 40 bytes"),
    (pack(1, 0.0, [1.0, 2.0])[:-1], 2, "a packet of 31 bytes is not one of 2 values"),
    (b"", 0, "a packet of 0 bytes is not one of 0 values, which has 16 bytes"),
    (b"CCB2" + pack(1, 0.0, [1.0])[4:], 1, "a packet starting with b'CCB2' is not a crane-cosim bridge packet"),
])
def test_unpack_refuses_malformed_packets(data, n, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        unpack(data, n)


def test_pack_refuses_a_sequence_number_beyond_uint32():
    with pytest.raises(ValueError, match="does not fit the packet's uint32"):
        pack(2 ** 32, 0.0, [])


# -- the peer's rules, without sockets -----------------------------------------------
def test_peer_steps_resends_ignores_and_resets():
    peer = Peer(Integrator(k=2.0, x0=0.5))

    def ask(seq, t, u):
        out = peer.answer(pack(seq, t, [u]))
        return None if out is None else unpack(out[1], 2)

    assert ask(1, 0.0, 1.0)[2].tolist() == [0.5, 1.5]  # a new run: the initial state
    seq, t, y = ask(2, 0.25, 1.0)  # x = 0.5 + 2 * 1 * 0.25
    assert (seq, t, y.tolist()) == (2, 0.25, [1.0, 2.0])
    # a retransmission: the cached answer, whatever it carries, without a second step
    assert ask(2, 0.25, 9.0)[2].tolist() == [1.0, 2.0]
    # the same time with new inputs: an evaluation, no step (direct feedthrough)
    assert ask(3, 0.25, 4.0)[2].tolist() == [1.0, 5.0]
    assert ask(4, 0.5, -1.0)[2].tolist() == [0.5, -0.5]  # stepped with u = -1 held
    assert ask(3, 0.75, 1.0) is None  # an old request
    assert peer.answer(b"junk") is None  # malformed
    assert ask(1, 0.0, 0.0)[2].tolist() == [0.5, 0.5]  # seq 1 again: a new run
    stats = peer.stats
    assert (stats.requests, stats.repeated, stats.old, stats.malformed, stats.resets) == (7, 1, 1, 1, 2)


def test_peer_answers_nan_for_a_block_that_fails():
    class Failing(Integrator):
        def output(self, t, x, u):
            raise ValueError("no output today")

    peer = Peer(Failing())
    seq, data = peer.answer(pack(1, 0.0, [1.0]))
    assert np.isnan(unpack(data, 2)[2]).all()
    assert peer.failures == ["Integrator failed at t = 0 s: no output today"] and peer.stats.failures == 1


# -- the bridge's declaration ----------------------------------------------------------
def test_bridge_of_has_the_ports_and_feedthrough_of_its_block():
    assert ControllerBridge.model_name == "ControllerBridge"
    assert ControllerBridge.inputs == Controller.inputs
    assert ControllerBridge.outputs == Controller.outputs + COUNTERS
    deps = ControllerBridge.output_dependencies()
    assert {k: deps[k] for k in Controller.output_names()} == Controller.output_dependencies()
    assert all(deps[c.name] == [] for c in COUNTERS)
    assert ControllerBridge.networked and not ControllerBridge.can_get_and_set_state
    assert Controller.can_get_and_set_state and not Controller.networked
    # every parameter says its default (the port: that it has none)
    for p in ControllerBridge.parameters:
        assert "default" in p.description, p.name
    assert json.loads(json.dumps(ControllerBridge.bridge_spec)) == ControllerBridge.bridge_spec


def test_bridge_from_spec_makes_the_same_bridge():
    again = bridge_from_spec(json.loads(json.dumps(ControllerBridge.bridge_spec)))
    assert again.bridge_spec == ControllerBridge.bridge_spec
    assert (again.model_name, again.inputs, again.outputs) == (ControllerBridge.model_name, ControllerBridge.inputs,
                                                                ControllerBridge.outputs)
    assert again.output_dependencies() == ControllerBridge.output_dependencies()
    with pytest.raises(ValueError, match="bridge spec is incomplete or malformed"):
        bridge_from_spec({"model_name": "X"})


def _port(name, unit="1"):
    return Variable(name, unit, 0.0, "a port")


@pytest.mark.parametrize("args,message", [
    (("1Rig", (), (_port("y"),)), "bridge model name '1Rig' is invalid"),
    (("Rig", (_port("a-b"),), (_port("y"),)), "Rig: input name 'a-b' is invalid"),
    (("Rig", (_port("a"),), (_port("a"),)), "Rig: output a is declared twice"),
    (("Rig", (_port("port"),), (_port("y"),)), "Rig: input port is the name of the bridge's own parameter"),
    (("Rig", (), (_port("bridge_sent"),)), "Rig: output bridge_sent is the name of the bridge's own counter"),
    (("Rig", (_port("a", "Nm"),), (_port("y"),)), "Rig: input a has the unit 'Nm', which is not one of the known"),
    (("Rig", (_port("a"),), (_port("y"),), (("z", ()),)), "Rig: feedthrough pattern 'z' matches no output"),
])
def test_bridge_block_refuses_ports_it_cannot_have(args, message):
    with pytest.raises(ValueError, match=message):
        bridge_block(*args)


def test_a_bridge_of_a_bridge_is_refused():
    with pytest.raises(ValueError, match="ControllerBridge is a bridge already"):
        bridge_of(ControllerBridge)


@pytest.mark.parametrize("params,message", [
    ({}, "ControllerBridge parameter port is not set (0): set it to the UDP port the peer listens on"),
    ({"port": 70000.0}, "ControllerBridge parameter port = 70000 is invalid: it must be a whole number"),
    ({"port": 5000.5}, "ControllerBridge parameter port = 5000.5 is invalid"),
    ({"port": 5000.0, "local_port": -1.0}, "ControllerBridge parameter local_port = -1 is invalid"),
    ({"port": 5000.0, "mode": "sync"}, "ControllerBridge parameter mode = 'sync' is invalid: it must be one of "
                                       "'lock-step', 'free-running'"),
    ({"port": 5000.0, "on_silence": "wait"}, "parameter on_silence = 'wait' is invalid"),
    ({"port": 5000.0, "timeout": 0.0}, "ControllerBridge parameter timeout = 0 s is invalid: it must be positive"),
    ({"port": 5000.0, "retry": -1.0}, "parameter retry = -1 s is invalid"),
    ({"port": 5000.0, "host": " "}, "ControllerBridge parameter host is empty"),
])
def test_bridge_refuses_parameters_it_cannot_use(params, message):
    with pytest.raises(ParameterError) as err:
        ControllerBridge(**params)
    assert message in str(err.value)


# -- lock-step against a peer thread ---------------------------------------------------
def test_lock_step_equals_calling_the_block(rng):
    """Every output equals the Controller's own, bit for bit; reading again
    with the same inputs asks nothing, new inputs at the same time are
    evaluated by the peer (direct feedthrough)."""
    ctrl = Controller()
    x = np.zeros(0)
    with serving(Controller()) as server, bridge(ControllerBridge, server.port) as b:
        u = rng.normal(size=6)
        assert np.array_equal(b.output(0.0, x, u)[:N_OUT], ctrl.output(0.0, x, u))
        t = 0.0
        for _ in range(200):
            x = b.advance(t, x, u, 1e-3)
            t_new = t + 1e-3  # as the FMU adapter keeps it
            assert np.array_equal(b.output(t_new, x, u)[:N_OUT], ctrl.output(t_new, x, u))
            sent = b.sent
            assert np.array_equal(b.output(t_new, x, u.copy())[:N_OUT], ctrl.output(t_new, x, u))
            assert b.sent == sent
            u = rng.normal(size=6)
            assert np.array_equal(b.output(t_new, x, u)[:N_OUT], ctrl.output(t_new, x, u))
            t = t_new
        y = b.output(t, x, u)
    assert counters(y) == {"bridge_sent": 401, "bridge_answers": 401, "bridge_lost": 0, "bridge_stale": 0,
                           "bridge_held": 0, "bridge_age": 0}
    assert (server.stats.requests, server.stats.resets) == (401, 1)


def test_lock_step_steps_a_stateful_block_as_it_steps_itself(rng):
    block = Integrator(k=2.0, x0=0.5)
    x = block.initial_state()
    with serving(Integrator(k=2.0, x0=0.5)) as server, bridge(IntegratorBridge, server.port) as b:
        u = rng.normal(size=1)
        assert np.array_equal(b.output(0.0, np.zeros(0), u)[:2], block.output(0.0, x, u))
        for k in range(100):
            t = k * H
            b.advance(t, np.zeros(0), u, H)
            x = block.advance(t, x, u, H)
            assert np.array_equal(b.output(t + H, np.zeros(0), u)[:2], block.output(t + H, x, u))
            u = rng.normal(size=1)


def test_a_dropped_answer_is_asked_again():
    once = []

    def drop(seq):  # the first answer to request 3
        if seq == 3 and not once:
            once.append(seq)
            return True
        return False

    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.1)
    with serving(Controller(), drop) as server, bridge(ControllerBridge, server.port, retry=0.02) as b:
        b.output(0.0, x, u)
        for k in range(5):
            b.advance(k * H, x, u, H)
            assert np.array_equal(b.output((k + 1) * H, x, u)[:N_OUT], ctrl.output((k + 1) * H, x, u))
    assert (b.sent, b.answers, b.lost) == (7, 6, 1)
    assert (server.stats.repeated, server.stats.dropped_seqs) == (1, [3])


def test_lost_counts_every_dropped_answer(rng):
    """1% of the answers dropped at random: each costs one retransmission,
    so bridge_lost is the number dropped, exactly, and the outputs are
    still the block's."""
    ctrl = Controller()
    x = np.zeros(0)
    with serving(Controller(), random_drop(0.01, seed=4)) as server, \
            bridge(ControllerBridge, server.port, retry=0.05) as b:
        # the retry is far longer than a round trip here: no answer is merely late
        for k in range(1500):
            u = rng.normal(size=6)
            b.advance(k * H, x, u, H)
            assert np.array_equal(b.output((k + 1) * H, x, u)[:N_OUT], ctrl.output((k + 1) * H, x, u))
        y = b.output(1500 * H, x, u)
    dropped = server.stats.dropped
    assert dropped >= 5 and counters(y)["bridge_lost"] == dropped == len(server.stats.dropped_seqs)
    assert b.sent == b.answers + b.lost == server.stats.requests


def test_answers_from_another_address_or_malformed_are_ignored():
    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.2)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1]) as b:
        got = []
        asking = threading.Thread(target=lambda: got.append(b.output(0.0, x, u)))
        asking.start()
        data, addr = peer.recvfrom(1000)
        seq, t, ins = unpack(data, 6)
        answer = pack(seq, t, ctrl.output(t, x, ins))
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
            stranger.sendto(pack(seq, t, np.full(N_OUT, 7.0)), addr)
        peer.sendto(b"CCB1 but too short", addr)
        peer.sendto(pack(seq, t + 1.0, np.full(N_OUT, 8.0)), addr)  # an answer must echo its time
        peer.sendto(answer, addr)
        asking.join(5)
    assert np.array_equal(got[0][:N_OUT], ctrl.output(0.0, x, u))
    assert (b.foreign, b.malformed, b.answers) == (1, 2, 1)


# -- a silent peer ---------------------------------------------------------------------
def test_silent_peer_stops_the_step_with_one_sentence():
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], timeout=0.05, retry=0.01) as b:
        port = peer.getsockname()[1]
        t0 = time.monotonic()
        with pytest.raises(BridgeError) as err:
            b.advance(0.25, x, u, 0.001)
        waited = time.monotonic() - t0
    message = str(err.value)
    assert message.startswith(f"ControllerBridge: the peer at udp://127.0.0.1:{port} was silent for ")
    assert message.endswith(" s and left the request for t = 0.251 s unanswered (timeout 0.05 s, "
                            "on_silence = stop)")
    assert 0.05 <= waited < 1.0 and "\n" not in message
    assert b.lost >= 3 and b.sent == b.lost + 1  # asked again every retry


def test_silent_peer_held_then_lock_step_resumes():
    """With on_silence = hold: the first silence is waited for, then the
    outputs are held and counted without waiting; the peer answering
    anything ends the silence, and the next step is answered in lock-step."""
    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.3)
    server = Server(Controller())  # bound, but silent until its thread starts
    stop = threading.Event()
    thread = threading.Thread(target=server.run, args=(stop.is_set, 0.02), daemon=True)
    try:
        with bridge(ControllerBridge, server.port, on_silence="hold", timeout=0.05, retry=0.01) as b:
            starts = [v.start for v in Controller.outputs]
            assert b.output(0.0, x, u)[:N_OUT].tolist() == starts  # waited for, then held
            assert b.held == 0  # an output evaluation is not a step
            t0 = time.monotonic()
            for k in range(3):
                b.advance(k * H, x, u, H)
                assert b.output((k + 1) * H, x, u)[:N_OUT].tolist() == starts
            assert time.monotonic() - t0 < 0.05 and b.held == 3  # no more waiting
            # the peer answers the newest request it holds; the others stay unanswered
            server.sock.settimeout(0.0)
            requests = []
            while True:
                try:
                    requests.append(server.sock.recvfrom(1000))
                except BlockingIOError:
                    break
            data, addr = requests[-1]
            seq, t, ins = unpack(data, 6)
            server.sock.sendto(pack(seq, t, ctrl.output(t, x, ins)), addr)
            arrived(b)
            b.advance(3 * H, x, u, H)  # finds an old answer: the silence ends, this step is held
            y = b.output(4 * H, x, u)
            assert y[:N_OUT].tolist() == starts and counters(y)["bridge_held"] == 4
            thread.start()
            u = np.full(6, -0.1)
            b.advance(4 * H, x, u, H)  # waited for and answered
            y = b.output(5 * H, x, u)
            assert np.array_equal(y[:N_OUT], ctrl.output(5 * H, x, u))
            assert counters(y)["bridge_held"] == 4 and counters(y)["bridge_age"] == 0
    finally:
        stop.set()
        if thread.is_alive():
            thread.join(5)
        server.close()


# -- free-running ----------------------------------------------------------------------
def test_free_running_counts_stale_steps_and_lost_answers(rng):
    """A peer answering by hand after each step, except requests 4, 7 and
    8: a step finds the answer to the one before it; a step after a dropped
    answer finds none (stale), and the next answer shows the gap (lost)."""
    ctrl = Controller()
    x = np.zeros(0)
    dropped = {4, 7, 8}
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], mode="free-running") as b:
        sent = {}
        for k in range(1, 11):
            u = rng.normal(size=6)
            b.advance((k - 1) * H, x, u, H)  # does not wait
            y = b.output(k * H, x, u)
            answered = max((s for s in sent if s < k and s not in dropped), default=None)
            if answered is not None:  # the newest answer arrived before this step
                assert np.array_equal(y[:N_OUT], sent[answered])
            assert counters(y)["bridge_age"] == k - (answered or 0)
            data, addr = peer.recvfrom(1000)
            seq, t, ins = unpack(data, 6)
            assert (seq, t) == (k, k * H)
            sent[seq] = ctrl.output(t, x, ins)
            if seq not in dropped:
                peer.sendto(pack(seq, t, sent[seq]), addr)
                arrived(b)
    c = counters(y)
    # stale: step 1 (nothing asked before it) and the steps after 4, 7 and 8
    assert (c["bridge_stale"], c["bridge_lost"], c["bridge_answers"], c["bridge_sent"]) == (4, 3, 6, 10)
    assert c["bridge_held"] == 0


@pytest.mark.parametrize("policy", ["stop", "hold"])
def test_free_running_silent_peer(policy):
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], mode="free-running", timeout=0.05,
                                    on_silence=policy) as b:
        b.advance(0.0, x, u, H)
        assert b.stale == 1 and b.held == 0  # silent, but not for long yet
        time.sleep(0.06)
        if policy == "stop":
            with pytest.raises(BridgeError, match=r"ControllerBridge: the peer at udp://127\.0\.0\.1:\d+ was silent "
                                                  r"for [\d.]+ s and left the request for t = 0\.00195312 s"):
                b.advance(H, x, u, H)
            return
        b.advance(H, x, u, H)
        b.advance(2 * H, x, u, H)
        assert (b.stale, b.held) == (3, 2)
        data, addr = peer.recvfrom(1000)  # the peer wakes up and answers its first request
        peer.sendto(pack(1, H, np.full(N_OUT, 5.0)), addr)
        arrived(b)
        b.advance(3 * H, x, u, H)
        y = b.output(4 * H, x, u)
        assert y[:N_OUT].tolist() == [5.0] * N_OUT
        assert counters(y) == {"bridge_sent": 4, "bridge_answers": 1, "bridge_lost": 0, "bridge_stale": 3,
                               "bridge_held": 2, "bridge_age": 3}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return s.getsockname()[1]


def test_close_releases_the_socket():
    local = free_port()
    with listener() as peer:
        b = ControllerBridge(port=float(peer.getsockname()[1]), local_port=float(local))
        b.prepare()
        with pytest.raises(BridgeError, match=f"ControllerBridge: local UDP port {local} cannot be used"):
            other = ControllerBridge(port=float(peer.getsockname()[1]), local_port=float(local))
            other.prepare()
        b.close()
        b.close()  # twice: nothing more
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind(("0.0.0.0", local))
