"""``crane-cosim peer-check``: a device (or any peer of a UDP bridge) driven
through the peer's rules of docs/in_the_loop.md, each a check that passes or
fails with a sentence saying what the device did.

The checks speak packet layout version 3 (``packet.py``) from two sockets of
their own, the bridge's and a stranger's, with the signals of the bridge the
device stands behind: a hello of other signals refused, the run's hello
welcomed, a request numbered 0 left unanswered, a request answered
echoing its header, a request sent again
answered with the same values, an older one, a stranger's, requests of other
lengths and packets of other versions left unanswered, another run not
welcomed while one is served, the end of a run freeing the device at once;
with a key, an untagged request left unanswered.  What values the device
answers is its own law's: they are not checked, but that a request sent
again gets the same ones, and that they are of their signals' types (an
Integer a whole number, a Boolean 0 or 1); the inputs sent are of theirs.  Without a welcome, or an answer to the first
request, the checks stop there: the rest would pass for a device that
answers nothing.
"""
from __future__ import annotations

import socket
from dataclasses import dataclass

import numpy as np

from .packet import (ANSWER, END, HELLO, REFUSAL, REQUEST, WELCOME, Codec, PacketError, mistyped, new_nonce, pack,
                     signals_digest)

__all__ = ["Check", "check_peer"]


@dataclass
class Check:
    """One rule: its ``name``, whether it ``passed``, and what was seen."""
    name: str
    passed: bool
    seen: str


#: the checks' last when they stop early
_UNTRIED = Check("the remaining rules", False, "not tried: they need a welcomed run whose first request is answered")


class _Probe:
    """A socket of the checks', sending with ``codec`` to the device at
    ``address`` and reading what comes back within ``wait`` [s]."""

    def __init__(self, address, codec: Codec, n_out: int, wait: float):
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_DGRAM)
        self.sock.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", 0))
        self.address, self.codec, self.n_out, self.wait = address, codec, n_out, wait

    def send(self, data: bytes) -> None:
        self.sock.sendto(data, self.address)

    def reply(self, wait: float | None = None):
        """The next datagram from the device (a packet; the bytes when it is
        not one of the layout), or None within the wait."""
        self.sock.settimeout(self.wait if wait is None else wait)
        while True:
            try:
                data, addr = self.sock.recvfrom(65536)
            except (TimeoutError, socket.timeout):
                return None
            except ConnectionRefusedError:  # the port unreachable: nothing listens
                return None
            if addr[:2] != self.address[:2]:
                continue
            try:
                return self.codec.unpack(data, self.n_out)
            except PacketError:
                return data

    def close(self):
        self.sock.close()


def _echoes(p, kind, run, seq, attempt, nonce, t) -> str | None:
    """What of the header ``p`` does not echo the request's, in words, or None."""
    if not hasattr(p, "kind"):
        return "a datagram not of layout version 3" if p is not None else "no reply"
    wrong = [name for name, got, want in (("kind", p.kind, kind), ("run", p.run, run), ("sequence number", p.seq, seq),
                                          ("attempt", p.attempt, attempt), ("nonce", p.nonce, nonce), ("time", p.t, t))
             if got != want]
    return f"a reply whose {', '.join(wrong)} differ{'s' if len(wrong) == 1 else ''}" if wrong else None


def _inputs(rng, inputs) -> np.ndarray:
    """Inputs drawn at random, each of its type: a Real from the standard
    normal distribution, an Integer from -100 to 100, a Boolean 0 or 1."""
    draw = {"Real": rng.normal, "Integer": lambda: rng.integers(-100, 101), "Boolean": lambda: rng.integers(2)}
    return np.array([draw[v.type]() for v in inputs], dtype=float)


def check_peer(host: str, port: int, inputs, outputs, key: bytes | None = None, big: bool = False,
               wait: float = 0.5) -> list[Check]:
    """The checks of the device at ``host``:``port`` serving the signals
    ``inputs`` and ``outputs`` (:class:`~crane_cosim.blocks.block.Variable`
    s, a bridge's without its counters), with the rig's ``key`` and byte
    order; a reply is waited for ``wait`` [s], and so long is the silence
    that a rule asks for."""
    address = socket.getaddrinfo(host, port, type=socket.SOCK_DGRAM)[0][4]
    codec = Codec(key, big)
    n_in, n_out = len(inputs), len(outputs)
    digest, text = signals_digest(inputs, outputs)
    bridge, stranger = _Probe(address, codec, n_out, wait), _Probe(address, codec, n_out, wait)
    checks: list[Check] = []
    rng = np.random.default_rng(1)

    def check(name, passed, seen):
        checks.append(Check(name, bool(passed), seen))

    def hello(probe, run, offered=digest + text.encode()):
        nonce = new_nonce()
        probe.send(codec.pack(HELLO, run, 0, 0.0, nonce=nonce, payload=offered))
        return nonce, probe.reply()

    def request(probe, run, seq, t, attempt=0, values=None, length=None):
        nonce = new_nonce()
        data = codec.pack(REQUEST, run, seq, t, _inputs(rng, inputs) if values is None else values, attempt, nonce)
        probe.send(data if length is None else (data + bytes(8))[:length])
        return nonce, probe.reply()

    try:
        run = 1 + int(rng.integers(2 ** 31))
        nonce, p = hello(bridge, run, bytes(32) + b"input nothing [1] Real\n")
        check("a hello of other signals is refused", getattr(p, "kind", None) == REFUSAL and p.nonce == nonce,
              "a refusal" if getattr(p, "kind", None) == REFUSAL else _echoes(p, REFUSAL, run, 0, 0, nonce, 0.0))
        nonce, p = hello(bridge, run)
        wrong = _echoes(p, WELCOME, run, 0, 0, nonce, 0.0)
        check("the hello of its signals is welcomed, its header echoed", wrong is None and p.payload[:32] == digest,
              wrong or ("a welcome" if p.payload[:32] == digest else "a welcome with another digest"))
        if not checks[-1].passed:
            return checks + [_UNTRIED]
        _, p = request(bridge, run, 0, 0.0)
        check("a request numbered 0 is not answered", p is None, "no reply" if p is None else "a reply")
        nonce, p = request(bridge, run, 1, 0.0)
        wrong = _echoes(p, ANSWER, run, 1, 0, nonce, 0.0)
        check(f"a request is answered with {n_out} values, its header echoed", wrong is None,
              wrong or "an answer")
        if not checks[-1].passed:
            return checks + [_UNTRIED]
        if any(v.type != "Real" for v in outputs):
            wrong = mistyped(p.values, outputs)
            check("the answer's values are of the signals' types", wrong is None, wrong or "values of their types")
        nonce, p = request(bridge, run, 2, 0.01)
        first = p.values if hasattr(p, "values") else None
        nonce, p = request(bridge, run, 2, 0.01, attempt=1)
        wrong = _echoes(p, ANSWER, run, 2, 1, nonce, 0.01)
        same = wrong is None and first is not None and np.array_equal(p.values, first, equal_nan=True)
        check("a request sent again gets the same values, its own attempt and nonce echoed", same,
              wrong or ("the same values" if same else "other values"))
        _, p = request(bridge, run, 1, 0.0)
        check("an older request is not answered", p is None, "no reply" if p is None else "a reply")
        _, p = request(stranger, run, 3, 0.02)
        check("a request of the run from another address is not answered", p is None,
              "no reply" if p is None else "a reply")
        answered = [length for length in (32 + 8 * n_in - 1, 32 + 8 * n_in + 1, 32 + 8 * n_in + 8, 31)
                    if request(bridge, run, 3, 0.02, length=length)[1] is not None]
        check("requests of other lengths are not answered", not answered,
              f"replies to those of {answered} bytes" if answered else "no reply")
        old = [b"CCB2" + bytes(24 + 8 * n_in), b"CCB1" + bytes(12 + 8 * n_in)]
        for data in old:
            bridge.send(data)
        p = bridge.reply()
        check("packets of layout versions 1 and 2 are not answered", p is None, "no reply" if p is None else "a reply")
        if key is not None:
            bridge.send(pack(REQUEST, run, 4, 0.03, _inputs(rng, inputs), nonce=new_nonce()))
            p = bridge.reply()
            check("a request without the key's tag is not answered", p is None,
                  "no reply" if p is None else "a reply")
        _, p = hello(stranger, run + 1)
        check("another run's hello is not welcomed while a run is served", p is None,
              "no reply" if p is None else "a reply")
        bridge.send(codec.pack(END, run, 4, 0.0, nonce=new_nonce()))
        nonce, p = hello(stranger, run + 2)
        wrong = _echoes(p, WELCOME, run + 2, 0, 0, nonce, 0.0)
        check("after the end of a run another is welcomed at once", wrong is None, wrong or "a welcome")
        if wrong is None:
            stranger.send(codec.pack(END, run + 2, 0, 0.0, nonce=new_nonce()))
    finally:
        bridge.close()
        stranger.close()
    return checks
