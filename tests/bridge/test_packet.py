"""What of the UDP bridge needs no socket: the packet layout
(``bridge/packet.py``, version 3), the peer's rules
(``bridge/serve.py``'s :class:`Peer`: one run served at a time,
everything else counted and never answered) and the bridge's declaration
(``bridge/udp_bridge.py``)."""
import hashlib
import hmac
import json
import struct

import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError, Variable
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.packet import (ANSWER, BIG_ENDIAN, END, HEADER_SIZE, HELLO, MAGIC, REFUSAL, REQUEST, TAG_SIZE,
                                       TAGGED, VERSION, WELCOME, Codec, PacketError, difference, pack, read_key,
                                       signals_digest, unpack, version_of)
from crane_cosim.bridge.serve import Peer
from crane_cosim.bridge.udp_bridge import COUNTERS, bridge_block, bridge_from_spec, bridge_of
from integrator_block import Integrator

CLIENT, OTHER = ("127.0.0.1", 40001), ("127.0.0.1", 40002)
RUN = 0x1234ABCD
ControllerBridge = bridge_of(Controller)


# -- the packet ----------------------------------------------------------------
def test_pack_unpack_round_trip():
    values = [1.5, -2.0, 1e-300, np.inf, np.pi]
    data = pack(REQUEST, RUN, 7, 0.25, values, attempt=3, nonce=2 ** 64 - 2)
    assert len(data) == HEADER_SIZE + 8 * len(values) == 72
    # the layout of the table, as a C program would write it
    assert data == b"CCB3" + struct.pack("<BBHIIQd5d", REQUEST, 0, 3, RUN, 7, 2 ** 64 - 2, 0.25, *values)
    p = unpack(data, len(values))
    assert (p.kind, p.run, p.seq, p.attempt, p.nonce, p.t, p.big) == (REQUEST, RUN, 7, 3, 2 ** 64 - 2, 0.25, False)
    assert p.values.dtype == float and np.array_equal(p.values, values)
    assert unpack(pack(ANSWER, 2 ** 32 - 1, 2 ** 32 - 1, -1.0), 0)[1:6] == (2 ** 32 - 1, 2 ** 32 - 1, 0, 0, -1.0)
    assert np.isnan(unpack(pack(ANSWER, 1, 1, 0.0, [np.nan]), 1).values[0])
    assert pack(REQUEST, 1, 1, 0.0, attempt=70000)[6:8] == b"\xff\xff"  # held at 65535
    assert (MAGIC, VERSION) == (b"CCB3", 3)


def test_a_big_endian_packet_and_its_answer():
    """Flag bit 0: every field after the flags big-endian, as a Siemens S7
    PLC writes them; the answer takes its request's byte order."""
    big = Codec(big=True)
    data = big.pack(REQUEST, RUN, 7, 0.25, [1.5, -2.0], attempt=1, nonce=99)
    assert data == b"CCB3" + struct.pack(">BBHIIQd2d", REQUEST, BIG_ENDIAN, 1, RUN, 7, 99, 0.25, 1.5, -2.0)
    p = Codec().unpack(data, 2)
    assert (p.run, p.seq, p.attempt, p.nonce, p.t, p.values.tolist(), p.big) == (RUN, 7, 1, 99, 0.25, [1.5, -2.0],
                                                                                True)
    answer = Codec().answer_to(p, [3.0])
    assert answer == b"CCB3" + struct.pack(">BBHIIQdd", ANSWER, BIG_ENDIAN, 1, RUN, 7, 99, 0.25, 3.0)


def test_with_a_key_every_datagram_is_tagged_and_only_tagged_ones_are_read():
    """Flag bit 1: the first 16 bytes of the HMAC-SHA256 of the datagram
    follow it; a datagram without the tag, with a wrong one or made with
    another key is refused as forged, and a tagged one where no key is set
    too (the ends must agree)."""
    key = b"k" * 32
    data = Codec(key).pack(REQUEST, RUN, 1, 0.0, [1.0], nonce=5)
    body = data[:-TAG_SIZE]
    assert body[5] == TAGGED and data[-TAG_SIZE:] == hmac.digest(key, body, "sha256")[:TAG_SIZE]
    assert Codec(key).unpack(data, 1).values.tolist() == [1.0]
    for wrong, reader, fragment in (
            (pack(REQUEST, RUN, 1, 0.0, [1.0]), Codec(key), "a request without a tag is refused"),
            (data[:-1] + bytes([data[-1] ^ 1]), Codec(key), "a request whose tag is wrong is refused"),
            (Codec(b"x" * 32).pack(ANSWER, RUN, 1, 0.0, [1.0]), Codec(key), "an answer whose tag is wrong"),
            (data, Codec(), "a request with a tag is refused: it was made with a key, and none is set here")):
        with pytest.raises(PacketError, match=fragment) as err:
            reader.unpack(wrong, 1)
        assert err.value.forged


@pytest.mark.parametrize("data,n,fragment,version", [
    (pack(REQUEST, 1, 1, 0.0, [1.0, 2.0]), 3, "a request of 48 bytes is not one of 3 values, which has 56 bytes",
     None),
    (pack(ANSWER, 1, 1, 0.0, [1.0, 2.0])[:-1], 2, "an answer of 47 bytes is not one of 2 values", None),
    (pack(END, 1, 1, 0.0, [1.0]), 1, "an end of the run of 40 bytes is not one of 0 values, which has 32", None),
    (pack(HELLO, 1, 0, 0.0, payload=bytes(31)), 1, "a hello of 63 bytes is shorter than a header and a digest, 64",
     None),
    (b"", 0, "a packet of 0 bytes is shorter than the header's 32", None),
    (b"XCB3" + pack(REQUEST, 1, 1, 0.0)[4:], 0, "a packet starting with b'XCB3' is not a crane-cosim bridge packet",
     None),
    (pack(8, 1, 1, 0.0), 0, "a packet of kind 8 is none of 1 (request), 2 (answer), 3 (end of the run), 4 (hello)",
     None),
    # version 1: magic, seq, t, values; version 2: a 24-byte header without nonce or flags
    (b"CCB1" + struct.pack("<Id", 1, 0.0) + b"\0" * 8, 1, "a packet of layout version 1 is not one of version 3", 1),
    (b"CCB2" + struct.pack("<IIHHd", 1, 1, 1, 0, 0.0) + b"\0" * 8, 1, "layout version 2 is not one of version 3", 2),
    (b"CCB7" + b"\0" * 60, 1, "a packet of layout version 7 is not one of version 3", 7),
])
def test_unpack_refuses_what_is_not_a_packet_of_this_layout(data, n, fragment, version):
    with pytest.raises(PacketError, match=fragment.replace("(", r"\(").replace(")", r"\)")) as err:
        unpack(data, n)
    assert err.value.version == version and version_of(data) in (version, 3, None) and not err.value.forged


def test_pack_refuses_numbers_beyond_uint32():
    with pytest.raises(ValueError, match="sequence number 4294967296 does not fit the packet's uint32"):
        pack(REQUEST, 1, 2 ** 32, 0.0)
    with pytest.raises(ValueError, match="run -1 does not fit"):
        pack(REQUEST, -1, 1, 0.0)


def test_the_signals_digest_names_each_signal_in_order():
    digest, text = signals_digest(Integrator.inputs, Integrator.outputs)
    assert text == "input u [1] Real\noutput y [1] Real\noutput s [1] Real\n"
    assert digest == hashlib.sha256(text.encode()).digest()
    swapped = signals_digest(Controller.inputs[::-1], Controller.outputs)
    assert swapped[0] != signals_digest(Controller.inputs, Controller.outputs)[0]
    assert difference(signals_digest(Controller.inputs, Controller.outputs)[1], swapped[1]) == \
        "signal 1 is 'input q_slew [rad] Real' here and 'input u_jib [rad/s] Real' at the peer"


@pytest.mark.parametrize("text,fragment", [
    ("short", "is 5 bytes long: a key must have at least 16"), ("0123456789abcdef\n", None)])
def test_a_key_is_read_from_its_file_or_the_environment(tmp_path, monkeypatch, text, fragment):
    monkeypatch.delenv("CRANE_COSIM_BRIDGE_KEY", raising=False)
    assert read_key("") is None
    (tmp_path / "key").write_text(text)
    monkeypatch.setenv("CRANE_COSIM_BRIDGE_KEY", text)
    for where in (str(tmp_path / "key"), ""):
        if fragment:
            with pytest.raises(ValueError, match=fragment):
                read_key(where)
        else:
            assert read_key(where) == b"0123456789abcdef"
    with pytest.raises(ValueError, match=f"key file {tmp_path / 'none'} cannot be read"):
        read_key(str(tmp_path / "none"))


# -- the peer's rules, without sockets -----------------------------------------------
def hello(peer, run=RUN, addr=CLIENT, now=0.0, block=Integrator, nonce=77):
    """The peer's reply to a hello of ``block``'s signals: its kind, or None."""
    digest, text = signals_digest(block.inputs, block.outputs)
    out = peer.answer(pack(HELLO, run, 0, 0.0, nonce=nonce, payload=digest + text.encode()), addr, now)
    if out is None:
        return None
    p = unpack(out[1], 0)
    assert (out[0], p.run, p.nonce) == (0, run, nonce)  # echoed
    return p.kind


def ask(peer, seq, t, u, run=RUN, addr=CLIENT, now=0.0, attempt=0):
    out = peer.answer(pack(REQUEST, run, seq, t, [u], attempt, nonce=1000 * seq + attempt), addr, now)
    if out is None:
        return None
    p = unpack(out[1], 2)
    assert (out[0], p.kind, p.run, p.seq, p.attempt, p.nonce, p.t) == (seq, ANSWER, run, seq, attempt,
                                                                       1000 * seq + attempt, t)  # echoed
    return p.values.tolist()


def test_peer_steps_resends_and_ignores_old_requests():
    peer = Peer(Integrator(k=2.0, x0=0.5))
    assert hello(peer) == WELCOME
    assert ask(peer, 1, 0.0, 1.0) == [0.5, 1.5]  # a new run: the initial state
    assert ask(peer, 2, 0.25, 1.0) == [1.0, 2.0]  # x = 0.5 + 2 * 1 * 0.25
    # sent again: the same values, whatever it carries, without a second step, its attempt echoed
    assert ask(peer, 2, 0.25, 9.0, attempt=1) == [1.0, 2.0]
    # the same time with new inputs: an evaluation, no step (direct feedthrough)
    assert ask(peer, 3, 0.25, 4.0) == [1.0, 5.0]
    assert ask(peer, 4, 0.5, -1.0) == [0.5, -0.5]  # stepped with u = -1 held
    assert ask(peer, 3, 0.75, 1.0) is None  # an old request
    assert ask(peer, 1, 0.0, 0.0) is None  # seq 1 again is old too: a new run is a new hello
    assert hello(peer) == WELCOME  # the run's hello again (its welcome lost): welcomed, nothing restarted
    assert ask(peer, 5, 0.5, 0.0) == [0.5, 0.5]
    s = peer.stats
    assert (s.runs, s.requests, s.repeated, s.old, s.strangers, s.malformed) == (1, 8, 1, 2, 0, 0)


def test_a_hello_of_other_signals_is_refused_by_name():
    """The same number of signals in another order is refused: the
    refusal carries the peer's own signals, and the peer says once which
    differs; nothing starts, requests of that run are strangers'."""
    peer = Peer(Controller())
    assert hello(peer, block=Controller) == WELCOME
    other = Peer(Controller())
    swapped = type("Swapped", (), {"inputs": Controller.inputs[::-1], "outputs": Controller.outputs})
    assert hello(other, block=swapped) == REFUSAL
    assert hello(other, block=swapped) == REFUSAL
    assert other.notices == [f"a run from {CLIENT[0]}:{CLIENT[1]} is refused: its signals are not those of "
                             f"Controller (signal 1 is 'input q_slew [rad] Real' here and 'input u_jib [rad/s] "
                             f"Real' at the peer); said once for {CLIENT[0]}:{CLIENT[1]}"]
    assert other.answer(pack(REQUEST, RUN, 1, 0.0, np.zeros(6)), CLIENT, 0.0) is None
    assert (other.stats.runs, other.stats.refused, other.stats.strangers) == (0, 2, 1)
    digest, text = signals_digest(Controller.inputs, Controller.outputs)
    refusal = other.answer(pack(HELLO, RUN, 0, 0.0, payload=bytes(32)), CLIENT, 0.0)[1]
    assert unpack(refusal, 0).payload == digest + text.encode()


def test_with_a_key_the_peer_reads_only_tagged_datagrams():
    """A stranger who reads the traffic but has not the key can neither
    open, step nor end a run: each is counted forged, said once."""
    key = b"0123456789abcdef"
    peer = Peer(Integrator(k=2.0, x0=0.5), key=key)
    digest, text = signals_digest(Integrator.inputs, Integrator.outputs)
    assert peer.answer(pack(HELLO, RUN, 0, 0.0, payload=digest + text.encode()), CLIENT, 0.0) is None
    keyed = Codec(key)
    welcome = peer.answer(keyed.pack(HELLO, RUN, 0, 0.0, nonce=3, payload=digest + text.encode()), CLIENT, 0.0)[1]
    assert keyed.unpack(welcome, 0).kind == WELCOME
    answer = peer.answer(keyed.pack(REQUEST, RUN, 1, 0.0, [1.0], nonce=4), CLIENT, 0.0)[1]
    assert keyed.unpack(answer, 2).values.tolist() == [0.5, 1.5]
    for forged in (pack(REQUEST, RUN, 2, 1.0, [1e9]), pack(END, RUN, 1, 0.0),
                   Codec(b"x" * 16).pack(REQUEST, RUN, 2, 1.0, [1e9])):
        assert peer.answer(forged, CLIENT, 0.5) is None
    assert keyed.unpack(peer.answer(keyed.pack(REQUEST, RUN, 2, 0.25, [1.0]), CLIENT, 0.5)[1], 2).values.tolist() \
        == [1.0, 2.0]
    assert (peer.stats.forged, peer.stats.runs, peer.stats.ended) == (4, 1, 0)
    assert len(peer.notices) == 1 and "sends datagrams this server refuses for their tag" in peer.notices[0]


def test_peer_serves_one_run_and_ignores_every_stranger():
    """While a run is served, nothing but its own requests changes the
    block or gets an answer: another address or run id, a new run's hello,
    a huge sequence number, an end of the run from a stranger, an answer, a
    malformed datagram, another layout."""
    peer = Peer(Integrator(k=2.0, x0=0.5))
    assert hello(peer) == WELCOME
    assert ask(peer, 1, 0.0, 1.0) == [0.5, 1.5]
    assert ask(peer, 2, 0.25, 1.0) == [1.0, 2.0]
    strangers = [
        pack(REQUEST, RUN + 1, 1, 0.0, [1e9]),  # a request of another run, from the client's address
        pack(REQUEST, RUN, 3, 0.5, [1e9]),  # the right run id, but from another address (below)
        pack(REQUEST, RUN, 2 ** 31, 0.0, [1e9]),
        pack(END, RUN, 2, 0.0),
        pack(ANSWER, RUN, 3, 0.5, [1e9]),
    ]
    for data in strangers:
        for addr in (CLIENT, OTHER):
            if addr == CLIENT and data[8:12] == struct.pack("<I", RUN):
                continue  # those are the client's own
            assert peer.answer(data, addr, 1.0) is None
    assert peer.answer(pack(ANSWER, RUN, 3, 0.5, [1e9]), CLIENT, 1.0) is None  # an answer is no request
    assert peer.answer(b"CCB3 but too short", CLIENT, 1.0) is None
    assert peer.answer(b"CCB1" + struct.pack("<Id", 3, 0.5) + struct.pack("<d", 1e9), OTHER, 1.0) is None
    assert peer.answer(b"CCB1" + struct.pack("<Id", 4, 0.5) + struct.pack("<d", 1e9), OTHER, 1.0) is None
    assert hello(peer, run=RUN + 1, now=1.0) is None  # a new run from the client's address
    for run in range(RUN + 2, RUN + 12):  # a stranger trying run id after run id: said once
        assert hello(peer, run=run, addr=OTHER, now=1.0) is None
    assert ask(peer, 3, 0.5, 1.0, now=1.0) == [1.5, 2.5]  # as if none had come
    s = peer.stats
    assert (s.runs, s.requests, s.strangers, s.malformed, s.other_layout) == (1, 3, 18, 1, 2)
    # one notice per address refused and per address and layout: said once, counted always
    assert peer.notices[1] == (f"a new run from {CLIENT[0]}:{CLIENT[1]} is ignored while the run from "
                               f"{CLIENT[0]}:{CLIENT[1]} is served (it ends when its bridge says so, or once it has "
                               f"sent no new request for 5 s); said once for {CLIENT[0]}:{CLIENT[1]}")
    assert peer.notices[2].startswith(f"a new run from {OTHER[0]}:{OTHER[1]} is ignored")
    assert peer.notices[0].startswith(f"{OTHER[0]}:{OTHER[1]} sends packets of layout version 1, which this "
                                      f"server (version 3) ignores")
    assert len(peer.notices) == 3


def test_a_run_ends_by_its_bridge_or_when_idle():
    peer = Peer(Integrator(k=2.0, x0=0.5), idle=2.0)
    assert hello(peer) == WELCOME
    assert ask(peer, 1, 0.0, 1.0) == [0.5, 1.5]
    assert ask(peer, 2, 0.25, 1.0, now=1.0) == [1.0, 2.0]
    assert peer.answer(pack(END, RUN, 2, 0.0), CLIENT, 1.5) is None  # its own end: the peer is free
    assert hello(peer, run=7, addr=OTHER, now=1.5) == WELCOME  # a new run at once
    assert ask(peer, 1, 1.0, 0.0, run=7, addr=OTHER, now=1.5) == [0.5, 0.5]  # at t = 1
    assert ask(peer, 2, 1.25, 1.0, run=7, addr=OTHER, now=2.0) == [1.0, 2.0]
    assert ask(peer, 2, 1.25, 1.0, run=7, addr=OTHER, now=3.5, attempt=1) == [1.0, 2.0]  # sent again: no new request
    assert hello(peer, run=8, now=3.9) is None  # the run served sent a new request 1.9 s ago
    assert hello(peer, run=8, now=4.0) == WELCOME  # 2 s: it is abandoned, its repeat held nothing
    assert ask(peer, 1, 0.0, 1.0, run=8, now=4.0) == [0.5, 1.5]
    assert ask(peer, 3, 1.5, 1.0, run=7, addr=OTHER, now=4.1) is None  # and a stranger now
    s = peer.stats
    assert (s.runs, s.ended, s.abandoned, s.strangers, s.repeated) == (3, 1, 1, 2, 1)


def test_a_request_numbered_0_is_not_answered():
    """Sequence numbers start at 1: a request numbered 0 before the run's
    first (when the last answered is 0 too) is neither a repeat nor new."""
    peer = Peer(Integrator(k=2.0, x0=0.5))
    assert hello(peer) == WELCOME
    assert ask(peer, 0, 0.0, 1.0) is None
    assert ask(peer, 1, 0.0, 1.0) == [0.5, 1.5]
    assert (peer.stats.old, peer.stats.repeated) == (1, 0)


def test_a_request_without_a_hello_starts_no_run():
    """A peer started (or restarted) in the middle of a run does not take
    it up from the initial state: the bridge, unanswered, says so."""
    peer = Peer(Integrator())
    assert ask(peer, 1, 0.0, 1.0) is None
    assert ask(peer, 5, 0.25, 1.0) is None
    assert (peer.stats.runs, peer.stats.strangers) == (0, 2)


def test_peer_answers_nan_for_a_block_that_fails():
    class Failing(Integrator):
        def output(self, t, x, u):
            raise ValueError("no output today")

    peer = Peer(Failing())
    assert hello(peer) == WELCOME
    assert np.isnan(ask(peer, 1, 0.0, 1.0)).all()
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
    (("Rig", (), (_port("bridge_late"),)), "Rig: output bridge_late is the name of the bridge's own counter"),
    (("Rig", (_port("safe_y"),), (_port("y"),)), "Rig: input safe_y has the name of the safe value the bridge "
                                                 "declares for its output y"),
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
    ({"port": 5000.0, "hold_steps": -1.0}, "ControllerBridge parameter hold_steps = -1 is invalid: it must be a "
                                           "whole number from 0"),
    ({"port": 5000.0, "hold_steps": 2.5}, "parameter hold_steps = 2.5 is invalid"),
    ({"port": 5000.0, "byte_order": "middle"}, "ControllerBridge parameter byte_order = 'middle' is invalid: it must "
                                               "be one of 'little', 'big'"),
    ({"port": 5000.0, "key_file": "/no/such/key"}, "ControllerBridge parameter key_file: key file /no/such/key "
                                                   "cannot be read (No such file or directory)"),
])
def test_bridge_refuses_parameters_it_cannot_use(params, message):
    with pytest.raises(ParameterError) as err:
        ControllerBridge(**params)
    assert message in str(err.value)
