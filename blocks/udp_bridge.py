"""A block whose outputs come from another process over UDP: a controller on
real hardware, a rig, or one of our blocks served by ``crane-cosim serve``
(hardware in the loop).

One datagram goes each way per exchange, little-endian throughout:

========  =====  ========  ==================================================
offset    size   type      field
========  =====  ========  ==================================================
0         4      bytes     magic ``b"CCB1"``
4         4      uint32    sequence number (1, 2, ... per run; an answer
                           echoes its request's)
8         8      float64   simulation time t [s] the values refer to (an
                           answer echoes it)
16        8 n    float64   values, in the listed order (request: the
                           bridge's inputs; answer: its outputs)
========  =====  ========  ==================================================

The peer holds its block's state ``x`` at its time ``t_peer``.  On a
request ``(seq, t, u)`` it resends its cached answer if ``seq`` is the one
it answered last (a retransmission: it does not step again), ignores an
older ``seq`` other than 1, and on ``seq == 1`` (a new run) restarts from
the initial state at ``t``; then, if ``t > t_peer``, it advances ``x`` to
``t`` with ``u`` held and answers ``(seq, t, y(t, x, u))``.  That is what
the FMU adapter does for ``fmi2SetReal`` + ``fmi2DoStep`` + ``fmi2GetReal``,
so a bridge in lock-step gives the results of the block run in-process; a
request at ``t == t_peer`` evaluates the outputs with new inputs (direct
feedthrough, as in a master's initial exchange).

:func:`bridge_block` makes a bridge with any ports, :func:`bridge_of` one
with a block's ports, :func:`bridge_from_spec` one from the JSON-able spec
a bridge FMU carries.  This module is copied into every FMU: it imports the
standard library, numpy and the block package only.
"""
from __future__ import annotations

import math
import re
import socket
import struct
import time
from typing import ClassVar

import numpy as np

from .block import Block, ParameterError, Variable
from .units import UNITS

__all__ = ["MAGIC", "HEADER_SIZE", "pack", "unpack", "BridgeError", "UdpBridge", "COUNTERS", "MODES",
           "POLICIES", "bridge_block", "bridge_of", "bridge_from_spec"]

MAGIC = b"CCB1"
_HEADER = struct.Struct("<4sId")
HEADER_SIZE = _HEADER.size  # 16
MODES = ("lock-step", "free-running")
POLICIES = ("stop", "hold")
#: a datagram larger than this is not one of ours (64 KiB: UDP's own limit)
_MAX_DATAGRAM = 65536
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def pack(seq: int, t: float, values) -> bytes:
    """The datagram ``(seq, t, values)``; ``seq`` is a uint32."""
    if not 0 <= seq < 2 ** 32:
        raise ValueError(f"sequence number {seq} does not fit the packet's uint32")
    return _HEADER.pack(MAGIC, seq, t) + np.asarray(values, dtype="<f8").tobytes()


def unpack(data: bytes, n: int) -> tuple[int, float, np.ndarray]:
    """``(seq, t, values)`` of a datagram carrying ``n`` values; raises
    ``ValueError`` for one of another length or magic."""
    if len(data) != HEADER_SIZE + 8 * n:
        raise ValueError(f"a packet of {len(data)} bytes is not one of {n} values, which has "
                         f"{HEADER_SIZE + 8 * n} bytes")
    magic, seq, t = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"a packet starting with {magic!r} is not a crane-cosim bridge packet, which starts "
                         f"with {MAGIC!r}")
    return seq, t, np.frombuffer(data, dtype="<f8", count=n, offset=HEADER_SIZE).astype(float)


class BridgeError(ValueError):
    """The link to the peer failed, said in one sentence naming the peer.  A
    ``ValueError``, so that the FMU logs that sentence without a traceback,
    as it does a parameter a block refuses."""


PARAMETERS = (
    Variable("host", "", "127.0.0.1", "Address or name of the peer process; a name is resolved once, to its "
             "first IPv4 address if it has one (default 127.0.0.1: this machine)", type="String"),
    Variable("port", "1", 0.0, "UDP port the peer listens on, 1 to 65535 (no default: 0 is refused; set it)"),
    Variable("mode", "", "lock-step", "lock-step: each step waits for the peer's answer to it, as if the block "
             "ran in-process; free-running: a step sends its request and takes the newest answer already "
             "arrived, without waiting (default lock-step)", type="String"),
    Variable("timeout", "s", 1.0, "How long a silent peer is waited for before on_silence applies (default 1 s: "
             "far beyond a round trip, short enough to notice a rig that is off)"),
    Variable("retry", "s", 0.005, "Lock-step: a request still unanswered after this long is sent again "
             "(default 0.005 s: many round trips on a local network, a fraction of a typical timeout)"),
    Variable("on_silence", "", "stop", "What a peer silent for timeout does: stop fails the step, naming the "
             "peer; hold keeps the last outputs, counted in bridge_held, until the peer answers again "
             "(default stop)", type="String"),
    Variable("local_port", "1", 0.0, "Local UDP port the bridge sends from, 0 to 65535 (default 0: any free "
             "port; set one where a firewall or the peer expects it)"),
)

COUNTERS = (
    Variable("bridge_sent", "1", 0.0, "Requests sent to the peer, retransmissions included"),
    Variable("bridge_answers", "1", 0.0, "Answers of the peer taken"),
    Variable("bridge_lost", "1", 0.0, "Requests whose answer never came: in lock-step each retransmission, in "
             "free-running each gap in the sequence numbers answered"),
    Variable("bridge_stale", "1", 0.0, "Free-running: steps at which no new answer had arrived since the "
             "previous step"),
    Variable("bridge_held", "1", 0.0, "Steps whose outputs were held because the peer was silent for timeout "
             "(on_silence = hold)"),
    Variable("bridge_age", "1", 0.0, "Requests sent after the one the outputs in use answer (0 in lock-step "
             "while the peer answers)"),
)


def _whole(value: float, low: int, high: int) -> bool:
    return value == int(value) and low <= value <= high


class UdpBridge(Block):
    """The base of every bridge: the parameters, the counters and the link.
    A bridge is made with its ports by :func:`bridge_block` or
    :func:`bridge_of`.

    Lock-step (``mode = "lock-step"``): :meth:`advance` from ``t`` over
    ``h`` sends ``(seq, t + h, u)`` and waits for the answer of that
    ``seq``, resending the request every ``retry`` [s] and giving up after
    ``timeout`` [s]; :meth:`output` returns the last answer if it answered
    exactly ``(t, u)``, and otherwise (inputs changed at the same time, the
    first read in initialization) asks and waits the same way, so that
    setting the same inputs again costs no round trip.

    Free-running: :meth:`advance` sends ``(seq, t + h, u)`` and takes, without
    waiting, every answer already arrived; the newest is output.  Only the
    outputs before the first step (the master's initial exchange) are waited
    for.  A peer silent for more than ``timeout`` since its last answer (wall
    clock) is treated as below.

    A silent peer, with ``on_silence = "stop"``, fails the step (or the
    output) with one sentence naming the peer, the time and how long it was
    silent; with ``"hold"`` the outputs keep their last values and the peer
    is marked silent: the following steps send their request and look once
    for an answer, without waiting, and lock-step resumes as soon as the
    peer answers anything.

    The bridge has no continuous state, and the peer cannot be rolled back:
    ``can_get_and_set_state`` is false, which masters that step twice
    (iterated midpoint) refuse by name.  It cannot run in the monolithic
    reference either (``networked``).  The socket opens in :meth:`prepare`
    and closes in :meth:`close`."""

    model_name = "UdpBridge"
    description = ("Stands in for a block run by another process: sends its inputs to the peer over UDP and "
                   "outputs the peer's answers.")
    parameters = PARAMETERS
    outputs = COUNTERS
    states = ()
    networked = True
    can_get_and_set_state = False
    #: the spec the class was made from (:func:`bridge_block`); None for the base
    bridge_spec: ClassVar[dict | None] = None

    def setup(self):
        p, name = self.p, self.model_name
        if p.port == 0:
            raise ParameterError(f"{name} parameter port is not set (0): set it to the UDP port the peer "
                                 f"listens on, 1 to 65535")
        if not _whole(p.port, 1, 65535):
            raise ParameterError(f"{name} parameter port = {p.port:g} is invalid: it must be a whole number "
                                 f"from 1 to 65535")
        if not _whole(p.local_port, 0, 65535):
            raise ParameterError(f"{name} parameter local_port = {p.local_port:g} is invalid: it must be a whole "
                                 f"number from 0 (any) to 65535")
        if not p.host.strip():
            raise ParameterError(f"{name} parameter host is empty: set it to the peer's address")
        self.require_one_of("mode", MODES)
        self.require_one_of("on_silence", POLICIES)
        self.require_positive("timeout", "retry")
        host = p.host.strip()
        self.address = f"udp://[{host}]:{int(p.port)}" if ":" in host else f"udp://{host}:{int(p.port)}"
        self._lock_step = p.mode == "lock-step"
        self._n_values = len(self.outputs) - len(COUNTERS)
        self._values = np.array([v.start for v in self.outputs[:self._n_values]], dtype=float)
        self._sock = None
        self._peer = None
        self._seq = 0  # the newest request's
        self._used = 0  # the seq of the answer whose values are output
        self._answered = None  # (t, inputs) the values answer (lock-step)
        self._stepped = False
        self._silent = False
        self._heard = None  # time.monotonic() of the last answer (or of the first request)
        self.sent = self.answers = self.lost = self.stale = self.held = 0
        #: datagrams ignored: not a well-formed answer, or from another address
        self.malformed = self.foreign = 0

    # -- the socket ----------------------------------------------------------
    def prepare(self) -> None:
        """Open the socket (the FMU does it at initialization)."""
        if self._sock is not None:
            return
        host, port = self.p.host.strip(), int(self.p.port)
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_DGRAM)
        except (OSError, UnicodeError) as exc:
            raise BridgeError(f"{self.model_name}: the peer's host {host!r} cannot be resolved "
                              f"({getattr(exc, 'strerror', None) or exc})") from None
        # a name such as localhost may resolve to ::1 first while rigs listen on IPv4
        family, _, _, _, addr = sorted(infos, key=lambda i: i[0] != socket.AF_INET)[0]
        sock = socket.socket(family, socket.SOCK_DGRAM)
        if self.p.local_port:
            try:
                sock.bind(("::" if family == socket.AF_INET6 else "0.0.0.0", int(self.p.local_port)))
            except OSError as exc:
                sock.close()
                raise BridgeError(f"{self.model_name}: local UDP port {int(self.p.local_port)} cannot be used "
                                  f"({exc.strerror or exc})") from None
        self._sock, self._peer = sock, addr[:2]

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()

    def _send(self, packet: bytes) -> None:
        if self._sock is None:
            self.prepare()
        try:
            self._sock.sendto(packet, self._peer)
        except OSError as exc:
            raise BridgeError(f"{self.model_name}: a request cannot be sent to the peer at {self.address} "
                              f"({exc.strerror or exc})") from None
        self.sent += 1
        if self._heard is None:
            self._heard = time.monotonic()

    def _receive(self, wait: float):
        """The next well-formed answer from the peer, ``(seq, t, values)``,
        waiting up to ``wait`` [s] (0: only one already arrived), or None."""
        sock = self._sock
        end = time.monotonic() + wait
        while True:
            remaining = end - time.monotonic()
            sock.settimeout(remaining if remaining > 0 else 0.0)
            try:
                data, addr = sock.recvfrom(_MAX_DATAGRAM)
            except (BlockingIOError, TimeoutError, InterruptedError):
                return None
            except ConnectionResetError:  # Windows reports an earlier request's "port unreachable" here
                continue
            if addr[:2] != self._peer:
                self.foreign += 1
                continue
            try:
                return unpack(data, self._n_values)
            except ValueError:
                self.malformed += 1

    def _take(self, seq: int, values: np.ndarray) -> None:
        self._values, self._used = values, seq
        self.answers += 1
        self._heard = time.monotonic()
        self._silent = False

    # -- the exchanges ---------------------------------------------------------
    def _ask(self, t: float, u: np.ndarray, step: bool) -> None:
        """Lock-step: request ``(t, u)`` and take its answer, or apply the
        silence policy."""
        self._seq += 1
        seq, packet = self._seq, pack(self._seq, t, u)
        self._send(packet)
        if self._silent:
            if not self._look_once(seq, t) and step:
                self.held += 1
        elif not self._await(seq, t, packet):
            self._silence(t, step)
        # held values stand for (t, u) too: asking again at once would only
        # double the requests while the peer is silent
        self._answered = (t, u.tobytes())

    def _await(self, seq: int, t: float, packet: bytes) -> bool:
        start = now = time.monotonic()
        deadline, resend = start + self.p.timeout, start + self.p.retry
        while True:
            got = self._receive(min(deadline, resend) - now)
            now = time.monotonic()
            if got is not None:
                if got[0] == seq and got[1] == t:
                    self._take(seq, got[2])
                    return True
                if got[0] == seq:
                    self.malformed += 1  # an answer must echo its request's time
                continue  # a late or repeated answer to an earlier request
            if now >= deadline:
                return False
            if now >= resend:
                self._send(packet)
                self.lost += 1
                resend = now + self.p.retry

    def _look_once(self, seq: int, t: float) -> bool:
        """A silent peer: take what arrived without waiting.  Any answer
        ends the silence (the next request is waited for again), but only
        this request's answer replaces the held outputs."""
        while (got := self._receive(0.0)) is not None:
            self._silent = False
            if got[0] == seq and got[1] == t:
                self._take(seq, got[2])
                return True
        return False

    def _silence(self, t: float, step: bool) -> None:
        if self.p.on_silence == "stop":
            silent = time.monotonic() - self._heard
            raise BridgeError(f"{self.model_name}: the peer at {self.address} was silent for {silent:.3g} s and "
                              f"left the request for t = {t:g} s unanswered (timeout {self.p.timeout:g} s, "
                              f"on_silence = stop)")
        self._silent = True
        if step:
            self.held += 1

    def _free_step(self, t: float, u: np.ndarray) -> None:
        self._seq += 1
        self._send(pack(self._seq, t, u))
        new = False
        while (got := self._receive(0.0)) is not None:
            seq = got[0]
            if seq > self._used:  # an older one arrived late, after a newer one: not used
                self.lost += seq - self._used - 1
                self._take(seq, got[2])
                new = True
        if new:
            return
        self.stale += 1
        if time.monotonic() - self._heard > self.p.timeout:
            self._silence(t, step=True)

    # -- the block -------------------------------------------------------------
    def advance(self, t, x, u, h):
        u = np.asarray(u, dtype=float)
        if self._lock_step:
            self._ask(t + h, u, step=True)
        else:
            self._free_step(t + h, u)
        self._stepped = True
        return x

    def output(self, t, x, u):
        u = np.asarray(u, dtype=float)
        if (self._lock_step or not self._stepped) and self._answered != (t, u.tobytes()):
            self._ask(t, u, step=False)
        return np.concatenate([self._values, [self.sent, self.answers, self.lost, self.stale, self.held,
                                              self._seq - self._used]])


def _port_spec(v: Variable) -> dict:
    return {"name": v.name, "unit": v.unit, "start": float(v.start), "description": v.description}


def bridge_block(model_name: str, inputs, outputs, feedthrough=(), description: str | None = None):
    """A :class:`UdpBridge` subclass named ``model_name`` whose inputs are
    ``inputs`` and whose outputs are ``outputs`` (:class:`Variable` s)
    followed by :data:`COUNTERS`; ``feedthrough`` is the template's
    declaration (:attr:`Block.feedthrough`; the counters depend on no
    input).  Raises ``ValueError`` for a name that is not an identifier, a
    port declared twice or named like a parameter or counter, an unknown
    unit, or a feedthrough pattern that matches no port."""
    if not isinstance(model_name, str) or not _NAME.match(model_name):
        raise ValueError(f"bridge model name {model_name!r} is invalid: it must be letters, digits and "
                         f"underscores, not starting with a digit (it names the FMU's library)")
    inputs, outputs = tuple(inputs), tuple(outputs)
    taken = {p.name: "parameter" for p in PARAMETERS} | {c.name: "counter" for c in COUNTERS}
    for kind, group in (("input", inputs), ("output", outputs)):
        for v in group:
            if not _NAME.match(v.name):
                raise ValueError(f"{model_name}: {kind} name {v.name!r} is invalid: it must be letters, digits "
                                 f"and underscores, not starting with a digit")
            if v.name in taken:
                what = "declared twice" if taken[v.name] in ("input", "output") else \
                    f"the name of the bridge's own {taken[v.name]}"
                raise ValueError(f"{model_name}: {kind} {v.name} is {what}")
            if v.unit and v.unit not in UNITS:
                raise ValueError(f"{model_name}: {kind} {v.name} has the unit {v.unit!r}, which is not one of "
                                 f"the known units ({', '.join(sorted(UNITS))})")
            if not math.isfinite(float(v.start)):
                raise ValueError(f"{model_name}: {kind} {v.name} has the start value {v.start!r}, which is not a "
                                 f"finite number")
            taken[v.name] = kind
    feedthrough = tuple((pattern, tuple(groups)) for pattern, groups in feedthrough)
    spec = {"model_name": model_name,
            "description": description or UdpBridge.description,
            "inputs": [_port_spec(v) for v in inputs],
            "outputs": [_port_spec(v) for v in outputs],
            "feedthrough": [[pattern, [g if isinstance(g, str) else list(g) for g in groups]]
                            for pattern, groups in feedthrough]}
    cls = type(model_name, (UdpBridge,), {
        "__module__": __name__, "__qualname__": model_name, "__doc__": UdpBridge.__doc__,
        "model_name": model_name, "description": spec["description"], "inputs": inputs,
        "outputs": outputs + COUNTERS, "bridge_spec": spec,
        # the counters first: a template's pattern such as "*" must not claim them
        "feedthrough": tuple((c.name, ()) for c in COUNTERS) + feedthrough})
    cls.output_dependencies()  # a pattern that matches no port is refused here, not in a build
    return cls


def bridge_of(block_cls):
    """``<Model>Bridge``: a bridge with exactly the ports (names, units,
    starts, descriptions) and feedthrough of the block ``block_cls``, so
    that it takes that block's place in a system."""
    if getattr(block_cls, "networked", False):
        raise ValueError(f"{block_cls.model_name} is a bridge already")
    return bridge_block(f"{block_cls.model_name}Bridge", block_cls.inputs, block_cls.outputs,
                        block_cls.feedthrough,
                        description=f"Stands in for {block_cls.model_name} run by another process, over UDP: "
                                    f"{block_cls.description}")


def bridge_from_spec(spec: dict):
    """The bridge class described by ``spec`` (the ``bridge_spec`` of a
    class :func:`bridge_block` made, as a bridge FMU carries it in JSON)."""
    try:
        ports = {kind: tuple(Variable(p["name"], p["unit"], float(p["start"]), p["description"])
                             for p in spec[kind]) for kind in ("inputs", "outputs")}
        feedthrough = tuple((pattern, tuple(g if isinstance(g, str) else tuple(g) for g in groups))
                            for pattern, groups in spec["feedthrough"])
        name, description = spec["model_name"], spec["description"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"bridge spec is incomplete or malformed ({type(exc).__name__}: {exc})") from None
    return bridge_block(name, ports["inputs"], ports["outputs"], feedthrough, description)
