"""The UDP bridge (``bridge/udp_bridge.py``) in-process, against a peer thread
running our blocks (``cosim/bridge/serve.py``) or a peer answering by hand,
compared with calling the blocks directly: what it counts, and what it
ignores.  The packet, the peer's rules and the bridge's declaration, which
need no socket, are in ``test_bridge_packet.py``."""
import select
import socket
import struct
import threading
import time
from contextlib import contextmanager

import numpy as np
import pytest

from crane_cosim.bridge.packet import (ANSWER, END, HEARTBEAT, HELLO, REQUEST, WELCOME, answer_to, pack,
                                       signals_digest, unpack)
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.udp_bridge import COUNTERS, BridgeError, bridge_of
from crane_cosim.bridge.serve import Peer, random_drop
from bridge_helpers import serving
from integrator_block import Integrator
from limits import HUNG
from udp_ports import free_port

ControllerBridge = bridge_of(Controller)
IntegratorBridge = bridge_of(Integrator)
N_OUT = len(Controller.outputs)
H = 1.0 / 1024  # a step whose multiples are exact: the peer's t - t_peer is then the step itself
NAMES = [c.name for c in COUNTERS]


@contextmanager
def bridge(cls, port, **params):
    b = cls(port=float(port), **params)
    b.prepare()
    try:
        yield b
    finally:
        b.close()


class HandPeer:
    """A socket that a test answers from by hand (or leaves silent): it
    welcomes the bridge's hellos itself (as the peer of the same signals
    does) and passes every other datagram on."""

    def __init__(self, sock, welcome=True):
        self.sock, self.welcome, self.hellos = sock, welcome, 0

    def __getattr__(self, name):
        return getattr(self.sock, name)

    def recvfrom(self, size):
        while True:
            data, addr = self.sock.recvfrom(size)
            if data[4] != HELLO:
                return data, addr
            self.hellos += 1
            if self.welcome:
                self.sock.sendto(answer_to(data, kind=WELCOME, payload=unpack(data, 0).payload[:32]), addr)


@contextmanager
def listener(welcome=True):
    """A :class:`HandPeer` on a socket of its own."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(2.0)
    try:
        yield HandPeer(sock, welcome)
    finally:
        sock.close()


def counters(y):
    """The bridge's counters in its outputs ``y`` (the round trip apart)."""
    found = dict(zip(NAMES, y[-len(COUNTERS):]))
    del found["bridge_round_trip"]
    return found


def zero(**given):
    return {name: given.get(name[len("bridge_"):], 0) for name in NAMES if name != "bridge_round_trip"}


def arrived(b, wait=2.0):
    """Wait until a datagram is queued at the bridge's socket (a test's peer
    answered by hand), so that the bridge's next look finds it."""
    assert select.select([b._link.sock], [], [], wait)[0], "the answer did not arrive"


def in_thread(call):
    """Run ``call`` on a thread; ``.join()`` returns its result."""
    box = []
    thread = threading.Thread(target=lambda: box.append(call()))
    thread.start()

    class Joined:
        @staticmethod
        def join():
            thread.join(5)
            return box[0]
    return Joined


# -- lock-step against a peer thread ---------------------------------------------------
def test_lock_step_equals_calling_the_block(rng):
    """Every output equals the Controller's own, bit for bit; reading again
    with the same inputs asks nothing, new inputs at the same time are
    evaluated by the peer (direct feedthrough).  The bridge listens on the
    address that reaches its peer only, and ends its run when closed."""
    ctrl = Controller()
    x = np.zeros(0)
    # sent again only after 0.5 s (not the default 5 ms): the exact counts
    # below hold no late answer, which a busy machine (the suite's workers
    # on two cores) gave once in a while
    with serving(Controller()) as server, bridge(ControllerBridge, server.port, retry=0.5) as b:
        assert b._link.local[0] == "127.0.0.1"
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
        b.close()
        deadline = time.monotonic() + HUNG
        while server.stats.ended == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert counters(y) == zero(sent=401, answers=401)
    s = server.stats
    assert (s.requests, s.runs, s.ended, s.strangers, s.malformed) == (401, 1, 1, 0, 0)


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


KEY = b"a rig's key, 32 bytes long......"


@pytest.mark.parametrize("byte_order", ["little", "big"])
def test_a_keyed_bridge_in_either_byte_order_equals_calling_the_block(rng, tmp_path, byte_order):
    """With the key in a file at the bridge and given to the server, in
    either byte order: every output the Controller's own, bit for bit;
    answers not tagged with the key, sent to the bridge between its steps,
    are counted forged and change nothing."""
    ctrl = Controller()
    x = np.zeros(0)
    (tmp_path / "rig.key").write_text(KEY.decode() + "\n")
    with serving(Controller(), key=KEY) as server, \
            bridge(ControllerBridge, server.port, key_file=str(tmp_path / "rig.key"), byte_order=byte_order) as b, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
        t = 0.0
        for k in range(50):
            u = rng.normal(size=6)
            x = b.advance(t, x, u, 1e-3)
            t += 1e-3
            assert np.array_equal(b.output(t, x, u)[:N_OUT], ctrl.output(t, x, u))
            if k % 10 == 0:
                p = b._ledger.asked[b._ledger.seq]
                stranger.sendto(pack(ANSWER, b._link.run, p.seq, p.t, np.full(N_OUT, 1e9), 0, p.nonces[0]),
                                b._link.local)
                arrived(b)
        assert (b.answers, b.forged, b.unasked, server.stats.forged) == (50, 5, 0, 0)


def test_a_bridge_without_the_servers_key_is_never_answered_and_says_why(monkeypatch):
    monkeypatch.delenv("CRANE_COSIM_BRIDGE_KEY", raising=False)
    with serving(Controller(), key=KEY) as server, bridge(ControllerBridge, server.port, timeout=0.2) as b:
        with pytest.raises(BridgeError) as err:
            b.output(0.0, np.zeros(0), np.zeros(6))
        assert server.stats.forged >= 2 and server.stats.runs == 0
    assert str(err.value).endswith("; a peer answers nothing that is not running, listens on another address or "
                                   "port, speaks another packet layout than version 3, has another key than this "
                                   "bridge (or one where it has none, or none where it has one), or serves another "
                                   "run")


@pytest.mark.parametrize("period", [0.05, 0.0])
def test_a_paused_master_sends_heartbeats_of_its_run(period):
    """While the master pauses between steps the bridge sends a heartbeat
    (kind 7, its run id) whenever it sent nothing for ``heartbeat`` s: at
    most one a period (the wait can only make them rarer), none before the
    peer welcomed the run, none with ``heartbeat = 0``; the peer counts
    them, answers none, and is held by none."""
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], heartbeat=period, retry=1.0) as b:
        time.sleep(0.2)
        assert peer.hellos == 0  # nothing before the run's first exchange
        asking = in_thread(lambda: b.output(0.0, x, u))
        data, addr = peer.recvfrom(1000)
        peer.sendto(answer_to(data, np.zeros(N_OUT)), addr)
        asking.join()
        start = time.monotonic()
        peer.settimeout(0.1)
        beats = []
        while time.monotonic() - start < 0.5:
            try:
                beats.append(unpack(peer.recvfrom(1000)[0], 0))
            except TimeoutError:
                pass
        elapsed = time.monotonic() - start
    if period == 0:
        assert beats == []
        return
    assert 2 <= len(beats) <= elapsed / period + 1, (len(beats), elapsed)
    assert {(p.kind, p.run, p.seq) for p in beats} == {(HEARTBEAT, b._link.run, 0)}
    served = Peer(Controller(), idle=1.0)
    digest, text = signals_digest(Controller.inputs, Controller.outputs)
    served.answer(pack(HELLO, 5, 0, 0.0, payload=digest + text.encode()), ("127.0.0.1", 1), 0.0)
    assert served.answer(pack(HEARTBEAT, 5, 0, 0.0), ("127.0.0.1", 1), 0.5) is None
    assert served.stats.heartbeats == 1
    # a heartbeat does not hold the peer: another run may start after the idle time
    assert served.answer(pack(HELLO, 6, 0, 0.0, payload=digest + text.encode()), ("127.0.0.1", 2), 1.1) is not None


def test_the_round_trip_is_the_answer_taken_last_from_its_sending():
    """0 before the first answer; then from the sending answered (the
    retry's, its answer taken) to the bridge reading the answer: at least
    the time the peer held it back."""
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], retry=1.0) as b:
        assert b._ledger.round_trip == 0.0
        asking = in_thread(lambda: b.output(0.0, x, u))
        data, addr = peer.recvfrom(1000)
        time.sleep(0.05)
        peer.sendto(answer_to(data, np.zeros(N_OUT)), addr)
        y = asking.join()
        assert 0.05 <= y[-1] < HUNG and y[-1] == b._ledger.round_trip
        assert NAMES[-1] == "bridge_round_trip"


def test_a_dropped_answer_is_asked_again():
    once = []

    def drop(seq):  # the first answer to request 3
        if seq == 3 and not once:
            once.append(seq)
            return True
        return False

    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.1)
    with serving(Controller(), drop) as server, bridge(ControllerBridge, server.port, retry=0.1) as b:
        b.output(0.0, x, u)
        for k in range(5):
            b.advance(k * H, x, u, H)
            assert np.array_equal(b.output((k + 1) * H, x, u)[:N_OUT], ctrl.output((k + 1) * H, x, u))
    assert (b.sent, b.answers, b.lost, b.late) == (7, 6, 1, 0)
    assert (server.stats.repeated, server.stats.dropped_seqs) == (1, [3])


def test_lost_counts_every_dropped_answer(rng):
    """1% of the answers dropped at random: each costs one retransmission,
    so bridge_lost is the number dropped, exactly, and the outputs are
    still the block's."""
    ctrl = Controller()
    x = np.zeros(0)
    with serving(Controller(), random_drop(0.01, seed=4)) as server, \
            bridge(ControllerBridge, server.port, retry=0.1) as b:
        for k in range(1500):
            u = rng.normal(size=6)
            b.advance(k * H, x, u, H)
            assert np.array_equal(b.output((k + 1) * H, x, u)[:N_OUT], ctrl.output((k + 1) * H, x, u))
        y = b.output(1500 * H, x, u)
    dropped = server.stats.dropped
    c = counters(y)
    assert dropped >= 5 and c["bridge_lost"] + c["bridge_late"] == dropped == len(server.stats.dropped_seqs)
    assert b.sent == b.answers + b.lost + b.late == server.stats.requests


def test_late_answers_are_late_not_lost():
    """A peer slower than the retry: the request is sent again while its
    answer is on its way.  Taking the answer to the first sending makes the
    later sendings late; taking the answer to the second leaves the first
    lost until its own answer comes after all, and then it is late.  The
    answers to sendings already answered are expected, not unasked; at
    every step sent = answers + lost + late."""
    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.2)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], retry=0.05) as b:
        def exchange(k, first, again=2):
            """Request k, answered once it was sent ``again`` times, sending
            ``first`` first; the answers to the other sendings come after."""
            asking = in_thread(lambda: b.output(k * H, x, u))
            sendings = [peer.recvfrom(1000) for _ in range(again)]
            values = ctrl.output(k * H, x, u)
            addr = sendings[0][1]
            peer.sendto(answer_to(sendings[first][0], values), addr)
            y = asking.join()
            assert np.array_equal(y[:N_OUT], ctrl.output(k * H, x, u))
            peer.settimeout(0.05)  # any sending made while the answer was on its way
            try:
                while True:
                    sendings.append(peer.recvfrom(1000))
            except TimeoutError:
                peer.settimeout(2.0)
            assert [unpack(d, 6).attempt for d, _ in sendings] == list(range(len(sendings)))
            c = counters(y)
            assert c["bridge_sent"] == c["bridge_answers"] + c["bridge_lost"] + c["bridge_late"]
            for j, (d, _) in enumerate(sendings):
                if j != first:
                    peer.sendto(answer_to(d, values), addr)
            if len(sendings) > 1:
                arrived(b)
            return c, len(sendings)

        c, n = exchange(0, first=0)
        assert (c["bridge_lost"], c["bridge_late"]) == (0, n - 1)  # the sendings after the first: late
        late = n - 1
        c, n = exchange(1, first=1)
        assert (c["bridge_lost"], c["bridge_late"]) == (1, late + n - 2)  # the first lost so far
        late += n - 2
        c, n = exchange(2, first=0, again=1)  # its look finds the first sending's answer: late, not lost
        assert (c["bridge_lost"], c["bridge_late"]) == (0, late + 1 + n - 1)
        assert (c["bridge_answers"], c["bridge_unasked"], c["bridge_malformed"]) == (3, 0, 0)


def test_a_silent_peer_stops_the_step_with_one_sentence():
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], timeout=0.05, retry=0.01) as b:
        port = peer.getsockname()[1]
        with pytest.raises(BridgeError) as err:
            b.advance(0.25, x, u, 0.001)
    message = str(err.value)
    assert message.startswith(f"ControllerBridge: the peer at udp://127.0.0.1:{port} never answered: ")
    assert " requests over " in message
    assert (", the last for t = 0.251 s, went unanswered (timeout 0.05 s, on_silence = stop); a peer answers "
            "nothing that is not running") in message
    assert "\n" not in message
    assert b.sent >= 2 and b.lost == b.sent and b.answers == 0  # asked again every retry, all lost


def test_a_peer_that_falls_silent_stops_the_step():
    ctrl = Controller()
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], timeout=0.05, retry=0.01) as b:
        port = peer.getsockname()[1]
        asking = in_thread(lambda: b.output(0.0, x, u))
        data, addr = peer.recvfrom(1000)
        peer.sendto(answer_to(data, ctrl.output(0.0, x, u)), addr)
        asking.join()
        peer.sendto(b"CCB1" + struct.pack("<Id", 2, 0.0) + bytes(8 * N_OUT), addr)  # an old peer's answer
        with pytest.raises(BridgeError) as err:
            b.advance(0.0, x, u, 0.001)
    message = str(err.value)
    assert message.startswith(f"ControllerBridge: the peer at udp://127.0.0.1:{port} was silent for ")
    assert message.endswith(" s and left the request for t = 0.001 s unanswered (timeout 0.05 s, on_silence = stop); "
                            "it sent packets of another layout (1 of version 1), which this bridge, of version 3, "
                            "does not read: the peer must follow layout version 3 (docs/in_the_loop.md)")
    assert (b.answers, b.malformed) == (1, 1)


def test_silent_peer_held_then_lock_step_resumes():
    """With on_silence = hold: the first silence is waited for, then the
    outputs are held and counted, each held step sending its request once
    and waiting for nothing; an answer of the peer to any request (here a
    late one) ends the silence, and the next request is waited for and
    answered."""
    ctrl = Controller()
    x, u = np.zeros(0), np.full(6, 0.3)
    # a timeout far beyond a loaded machine's answer by hand, no retry within it: what is counted late is
    # then the answer given late alone
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], on_silence="hold", timeout=0.5,
                                    retry=1.0) as b:
        starts = [v.start for v in Controller.outputs]
        assert b.output(0.0, x, u)[:N_OUT].tolist() == starts  # waited for, then held
        assert b.held == 0 and b.lost == b.sent  # an output evaluation is not a step
        sent = b.sent
        for k in range(3):
            b.advance(k * H, x, u, H)
            assert b.output((k + 1) * H, x, u)[:N_OUT].tolist() == starts
        assert b.held == 3 and b.sent == sent + 3 == b.lost  # one sending each: no waiting, no retry
        requests = [peer.recvfrom(1000) for _ in range(b.sent)]
        data, addr = requests[-1]  # the newest, given up: answered late
        assert unpack(data, 6).seq == 4
        peer.sendto(answer_to(data, ctrl.output(3 * H, x, u)), addr)
        arrived(b)
        u = np.full(6, -0.1)
        asking = in_thread(lambda: b.advance(3 * H, x, u, H))
        data, addr = peer.recvfrom(1000)  # waited for again
        peer.sendto(answer_to(data, ctrl.output(4 * H, x, u)), addr)
        asking.join()
        y = b.output(4 * H, x, u)
        assert np.array_equal(y[:N_OUT], ctrl.output(4 * H, x, u))
        c = counters(y)
        assert (c["bridge_held"], c["bridge_age"], c["bridge_answers"], c["bridge_late"]) == (3, 0, 1, 1)
        assert c["bridge_sent"] == c["bridge_answers"] + c["bridge_lost"] + c["bridge_late"]



def test_held_for_hold_steps_then_safe_until_the_peer_answers():
    """With on_silence = hold and hold_steps = 2: the first two silent steps
    hold the outputs, the next ones give the declared safe values (a torque
    that is not zero, the start values being), counted apart; an answer
    ends the silence, the next request is waited for and its answer
    output, and the next silence is held anew for two steps before the safe
    values."""
    x, u = np.zeros(0), np.full(6, 0.3)
    safe = {f"safe_{v.name}": 1.5 * k - 2.0 for k, v in enumerate(Controller.outputs)}  # none zero
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], on_silence="hold", timeout=0.5,
                                    retry=1.0, hold_steps=2, **safe) as b:
        starts = [v.start for v in Controller.outputs]
        assert b.output(0.0, x, u)[:N_OUT].tolist() == starts  # waited for, then silent: not a step
        outputs = []
        for k in range(4):
            b.advance(k * H, x, u, H)
            outputs.append(b.output((k + 1) * H, x, u))
        assert [y[:N_OUT].tolist() for y in outputs] == [starts, starts, list(safe.values()), list(safe.values())]
        assert [(counters(y)["bridge_held"], counters(y)["bridge_safe"]) for y in outputs] == [
            (1, 0), (2, 0), (2, 1), (2, 2)]
        requests = [peer.recvfrom(1000) for _ in range(b.sent)]
        data, addr = requests[-1]  # the newest, given up: answered late, it ends the silence
        peer.sendto(answer_to(data, np.full(N_OUT, 9.0)), addr)
        arrived(b)
        asking = in_thread(lambda: b.advance(4 * H, x, u, H))
        data, addr = peer.recvfrom(1000)  # waited for again, and answered
        peer.sendto(answer_to(data, np.full(N_OUT, 5.0)), addr)
        asking.join()
        y = b.output(5 * H, x, u)
        assert y[:N_OUT].tolist() == [5.0] * N_OUT
        assert (counters(y)["bridge_held"], counters(y)["bridge_safe"]) == (2, 2)
        held = []
        for k in range(5, 8):  # silent again: waited for, held, held, then safe
            b.advance(k * H, x, u, H)
            held.append(b.output((k + 1) * H, x, u))
        assert [y[:N_OUT].tolist() for y in held] == [[5.0] * N_OUT, [5.0] * N_OUT, list(safe.values())]
        assert [(counters(y)["bridge_held"], counters(y)["bridge_safe"]) for y in held] == [(3, 2), (4, 2), (4, 3)]
        c = counters(held[-1])
        assert c["bridge_sent"] == c["bridge_answers"] + c["bridge_lost"] + c["bridge_late"]

# -- free-running ----------------------------------------------------------------------
def test_free_running_counts_stale_steps_and_lost_answers(rng):
    """A peer answering by hand after each step, except requests 4, 7 and
    8: a step finds the answer to the one before it; a step after a dropped
    answer finds none (stale), and the next answer shows the gap (lost).
    The answer to 7 coming after all, after a newer one, is late."""
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
                assert np.array_equal(y[:N_OUT], sent[answered][1])
            assert counters(y)["bridge_age"] == k - (answered or 0)
            data, addr = peer.recvfrom(1000)
            p = unpack(data, 6)
            assert (p.seq, p.t, p.attempt) == (k, k * H, 0)
            sent[p.seq] = (data, ctrl.output(p.t, x, p.values))
            if p.seq not in dropped:
                peer.sendto(answer_to(data, sent[p.seq][1]), addr)
                arrived(b)
        c = counters(y)
        # stale: step 1 (nothing asked before it) and the steps after 4, 7 and 8
        assert c == zero(sent=10, answers=6, lost=3, stale=4, age=1)
        peer.sendto(answer_to(sent[7][0], sent[7][1]), addr)
        arrived(b)
        b.advance(10 * H, x, u, H)
        c = counters(b.output(11 * H, x, u))
    assert (c["bridge_lost"], c["bridge_late"], c["bridge_answers"], c["bridge_unasked"]) == (2, 1, 7, 0)


@pytest.mark.parametrize("policy", ["stop", "hold"])
def test_free_running_silent_peer(policy):
    x, u = np.zeros(0), np.zeros(6)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], mode="free-running", timeout=0.05,
                                    on_silence=policy) as b:
        b.advance(0.0, x, u, H)
        assert b.stale == 1 and b.held == 0  # silent, but not for long yet
        time.sleep(0.06)
        if policy == "stop":
            with pytest.raises(BridgeError, match=r"ControllerBridge: the peer at udp://127\.0\.0\.1:\d+ never "
                                                  r"answered: 2 requests over [\d.]+ s, the last for t = "
                                                  r"0\.00195312 s, went unanswered"):
                b.advance(H, x, u, H)
            return
        b.advance(H, x, u, H)
        b.advance(2 * H, x, u, H)
        assert (b.stale, b.held) == (3, 2)
        data, addr = peer.recvfrom(1000)  # the peer wakes up and answers its first request
        peer.sendto(answer_to(data, np.full(N_OUT, 5.0)), addr)
        arrived(b)
        b.advance(3 * H, x, u, H)
        y = b.output(4 * H, x, u)
        assert y[:N_OUT].tolist() == [5.0] * N_OUT
        assert counters(y) == zero(sent=4, answers=1, stale=3, held=2, age=3)


@pytest.mark.parametrize("mode", ["free-running", "lock-step"])
def test_a_pause_of_the_master_is_not_silence_of_the_peer(mode):
    """A master that pauses between two steps for longer than ``timeout``
    (a compile on a cold cache, a busy machine), with every request sent
    before the pause answered: the next steps are neither failed nor held.
    Silence counts from the first request the peer has left unanswered,
    not from its last answer."""
    x, u = np.zeros(0), np.zeros(6)
    with serving(Controller()) as server, bridge(ControllerBridge, server.port, mode=mode, timeout=0.05,
                                                 retry=0.5) as b:
        b.output(0.0, x, u)  # the initial exchange, waited for in both modes
        time.sleep(0.2)  # four timeouts
        for k in range(3):
            b.advance(k * H, x, u, H)
            y = b.output((k + 1) * H, x, u)
    c = counters(y)
    assert (c["bridge_held"], c["bridge_lost"], c["bridge_sent"]) == (0, 0, 4)


# -- what the bridge ignores -------------------------------------------------------------
def test_nothing_but_answers_to_requests_sent_is_taken(rng):
    """Before each answer the peer sends what no bridge may take: an answer
    to the next request, before it is sent (1e9 N.m); to an old request; to
    a huge sequence number; of another run; not echoing the time, or an
    attempt never sent; echoing all but the nonce of the request's sending;
    a request; a malformed datagram, and one of layout version 1; and a
    stranger on another port sends a copy of the right
    answer.  The outputs are the Controller's, every datagram counted.  The
    peer answers by hand, one request a step: a retry later than any delay
    of its thread on a busy machine (else the bridge asks again, and the
    peer reads that request for the next step's)."""
    ctrl = Controller()
    x = np.zeros(0)
    with listener() as peer, bridge(ControllerBridge, peer.getsockname()[1], retry=1.0, timeout=4.0) as b, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
        big = np.full(N_OUT, 1e9)
        for k in range(20):
            u = rng.normal(size=6)
            asking = in_thread(lambda: b.advance(k * H, x, u, H))
            data, addr = peer.recvfrom(1000)
            p = unpack(data, 6)
            right = answer_to(data, ctrl.output(p.t, x, p.values))
            junk = [pack(ANSWER, p.run, p.seq + 1, p.t + H, big), pack(ANSWER, p.run, p.seq - 1, p.t - H, big),
                    pack(ANSWER, p.run, 2 ** 31, p.t, big), pack(ANSWER, p.run ^ 1, p.seq, p.t, big),
                    pack(ANSWER, p.run, p.seq, p.t + 1.0, big), pack(ANSWER, p.run, p.seq, p.t, big, attempt=5),
                    pack(REQUEST, p.run, p.seq, p.t, big), pack(END, p.run, p.seq, p.t),
                    # all but the nonce echoed: a peer that predicts the rest, or answers early
                    pack(ANSWER, p.run, p.seq, p.t, big, p.attempt, p.nonce ^ 1),
                    b"CCB3 but too short", b"CCB1" + struct.pack("<Id", p.seq, p.t) + big.tobytes()]
            for d in junk:
                peer.sendto(d, addr)
            stranger.sendto(right, addr)
            peer.sendto(right, addr)
            asking.join()
            y = b.output((k + 1) * H, x, u)
            assert np.array_equal(y[:N_OUT], ctrl.output((k + 1) * H, x, u))
        c = counters(y)
    assert c == zero(sent=20, answers=20, malformed=40, unasked=20 * 10)
    assert b._link.versions == {1: 20}


def test_close_ends_the_run_and_releases_the_socket():
    local = free_port()
    with listener() as peer:
        b = ControllerBridge(port=float(peer.getsockname()[1]), local_port=float(local))
        b.prepare()
        assert b._link.local == ("127.0.0.1", local)  # the address that reaches the peer, not every one
        with pytest.raises(BridgeError, match=f"ControllerBridge: local UDP port {local} on the address that "
                                              f"reaches the peer at udp://127.0.0.1:\\d+ cannot be used"):
            other = ControllerBridge(port=float(peer.getsockname()[1]), local_port=float(local))
            other.prepare()
        b.close()  # nothing asked: nothing to end
        b.prepare()
        run = b._link.run
        asking = in_thread(lambda: b.output(0.0, np.zeros(0), np.zeros(6)))
        data, addr = peer.recvfrom(1000)
        peer.sendto(answer_to(data, np.zeros(N_OUT)), addr)
        asking.join()
        b.close()
        b.close()  # twice: nothing more
        p = unpack(peer.recvfrom(1000)[0], 0)
        assert (p.kind, p.run, p.seq) == (END, run, 1)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind(("0.0.0.0", local))

