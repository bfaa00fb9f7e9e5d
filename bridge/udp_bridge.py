"""A block whose outputs come from another process over UDP: a controller on
real hardware, a rig, or one of our blocks served by ``crane-cosim serve``
(hardware in the loop).

The packets are those of ``bridge/packet.py`` (layout version 3),
sent through ``bridge/link.py``'s socket: bound to the local address
that reaches the peer, under a run id drawn at random when it opens, the
run opened by a hello the peer welcomes when its signals are the
bridge's.  The bridge takes an answer only when it echoes a sending of a
request (its run, sequence number, attempt, nonce and time); with a key
set (``key_file``, or the environment) every datagram is tagged and only
tagged ones are read.  Anything else is counted (``bridge_malformed``,
``bridge_forged``, ``bridge_unasked``) and changes nothing.

The peer holds its block's state ``x`` at its time ``t_peer``, for one run
at a time: the first request of a run (sequence number 1) restarts it from
the initial state at the request's time; a request sent again (the same
sequence number) gets the same answer without a second step; an older one
is ignored; a newer one advances ``x`` to its time ``t`` with its inputs
``u`` held, if ``t > t_peer``, and is answered ``y(t, x, u)``.  That is what
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
import time
from typing import ClassVar

import numpy as np

from ..blocks.block import Block, ParameterError, Variable
from ..blocks.units import UNITS
from .ledger import WINDOW, Ledger, Request
from .link import BridgeError, Link
from .packet import MAX_ATTEMPT, REQUEST, VERSION, Codec, mistyped, read_key, signals_digest

__all__ = ["VERSION", "BridgeError", "UdpBridge", "COUNTERS", "MODES", "POLICIES", "BYTE_ORDERS", "WINDOW",
           "SIGNAL_TYPES", "bridge_block", "bridge_of", "bridge_from_spec"]

MODES = ("lock-step", "free-running")
BYTE_ORDERS = ("little", "big")
POLICIES = ("stop", "hold")
#: the prefix of the parameter that holds an output's safe value
SAFE = "safe_"
#: the types of the signals a bridge exchanges, and a start value as each holds it
SIGNAL_TYPES = ("Real", "Integer", "Boolean")
_AS = {"Real": float, "Integer": int, "Boolean": bool}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

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
             "peer; hold keeps the last outputs for at most hold_steps steps (counted in bridge_held), then "
             "gives the safe outputs (safe_<output>, counted in bridge_safe), until the peer answers again; "
             "the run's status is then degraded, never completed (default stop)", type="String"),
    Variable("hold_steps", "1", 10.0, "With on_silence = hold: the most steps in a row whose outputs are held "
             "while the peer is silent, a whole number from 0; after them the outputs are the safe ones "
             "(default 10: 10 ms at a 1 ms step, 50 ms at the examples' 5 ms)"),
    Variable("local_port", "1", 0.0, "Local UDP port the bridge sends from and listens on, on the local address "
             "that reaches the peer, 0 to 65535 (default 0: any free port; set one where a firewall or the peer "
             "expects it)"),
    Variable("heartbeat", "s", 0.1, "While the run is open, a heartbeat datagram goes to the peer whenever "
             "nothing was sent to it for this long (the master paused between steps), so that a device hearing "
             "nothing of the run for longer knows the master is gone (default 0.1 s; 0: none)"),
    Variable("key_file", "", "", "File holding the key shared with the peer (at least 16 bytes; the white space at "
             "its ends is not part of it): every datagram is then tagged with it (HMAC-SHA256) and only those "
             "tagged with it are read (default empty: the key in the environment variable CRANE_COSIM_BRIDGE_KEY "
             "if set, else none)", type="String"),
    Variable("byte_order", "", "little", "The byte order of the packets' fields: little, or big for a big-endian "
             "peer (a Siemens S7 PLC); the peer answers in the order of the request (default little)",
             type="String"),
)

COUNTERS = (
    Variable("bridge_sent", "1", 0.0, "Requests sent to the peer, each sending counted (lock-step: the "
             "retransmissions too)"),
    Variable("bridge_answers", "1", 0.0, "Requests answered: the answers of the peer taken"),
    Variable("bridge_lost", "1", 0.0, "Requests sent whose answer has not come: lock-step, the sendings of a "
             "request before the one answered, and those of a request given up; free-running, the requests "
             "older than the answer in use left unanswered"),
    Variable("bridge_late", "1", 0.0, "Lock-step: requests sent again while their answer was on its way (the "
             "retry was shorter than that round trip), and answers that came after their request was given "
             "up; free-running: answers that came after a newer one"),
    Variable("bridge_stale", "1", 0.0, "Free-running: steps at which no new answer had arrived since the "
             "previous step"),
    Variable("bridge_held", "1", 0.0, "Steps whose outputs were held because the peer was silent for timeout "
             "(on_silence = hold)"),
    Variable("bridge_safe", "1", 0.0, "Steps whose outputs were the safe ones (safe_<output>) because the peer "
             "was silent for longer than hold_steps held steps (on_silence = hold)"),
    Variable("bridge_age", "1", 0.0, "Requests sent after the one the outputs in use answer (0 in lock-step "
             "while the peer answers)"),
    Variable("bridge_malformed", "1", 0.0, "Datagrams ignored that are not of the packet layout (version 3) and "
             "the bridge's number of outputs"),
    Variable("bridge_forged", "1", 0.0, "Datagrams of the packet layout ignored because their tag does not match "
             "the key (or is missing while a key is set, or there while none is)"),
    Variable("bridge_unasked", "1", 0.0, "Datagrams ignored that answer no request the bridge sent: from "
             "another address than the peer's, of another run, not an answer, or not echoing a sending of a "
             "request (its sequence number, time, attempt and nonce)"),
    Variable("bridge_round_trip", "s", 0.0, "Round trip of the answer taken last, from the sending it answers "
             "to the bridge reading it (free-running: up to a step more than the network's); 0 before the "
             "first"),
)


def _whole(value: float, low: int, high: int) -> bool:
    return value == int(value) and low <= value <= high


class UdpBridge(Block):
    """The base of every bridge: the parameters, the counters and the link.
    A bridge is made with its ports by :func:`bridge_block` or
    :func:`bridge_of`.

    Lock-step (``mode = "lock-step"``): :meth:`advance` from ``t`` over
    ``h`` sends ``(seq, t + h, u)`` and waits for its answer, sending the
    request again every ``retry`` [s] and giving up after ``timeout`` [s];
    :meth:`output` returns the last answer if it answered exactly ``(t, u)``,
    and otherwise (inputs changed at the same time, the first read in
    initialization) asks and waits the same way, so that setting the same
    inputs again costs no round trip.

    Free-running: :meth:`advance` takes, without waiting, every answer
    already arrived and sends ``(seq, t + h, u)``; the newest answer is
    output.  Only the outputs before the first step (the master's initial
    exchange) are waited for.  A peer that has answered nothing for more
    than ``timeout`` since the first request sent after its last answer
    (wall clock) is silent, treated as below.

    Before each request the bridge looks at what has arrived: an answer
    there cannot answer the request not yet sent.  A silent peer, with
    ``on_silence = "stop"``, fails the step (or the output) with one
    sentence naming the peer, the time and how long it was silent (or that
    it never answered); with ``"hold"`` the outputs keep their last values
    for at most ``hold_steps`` steps in a row, then take the safe values
    declared for them (``safe_<output>``), and the peer is marked silent:
    the following requests are sent and what has arrived is taken, without
    waiting, until an answer of the peer to one of the last
    :data:`WINDOW` requests ends the silence.

    The bridge has no continuous state, and the peer cannot be rolled back:
    ``can_get_and_set_state`` is false, which masters that step twice
    (iterated midpoint) refuse by name.  It cannot run in the monolithic
    reference either (``networked``).  The socket opens in :meth:`prepare`
    and closes in :meth:`close`, which tells the peer the run ended."""

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
        if not (math.isfinite(p.heartbeat) and p.heartbeat >= 0):
            raise ParameterError(f"{name} parameter heartbeat = {p.heartbeat:g} s is invalid: it must be zero (none) "
                                 f"or positive")
        if not _whole(p.hold_steps, 0, 2**31 - 1):
            raise ParameterError(f"{name} parameter hold_steps = {p.hold_steps:g} is invalid: it must be a whole "
                                 f"number from 0")
        self.require_one_of("byte_order", BYTE_ORDERS)
        try:
            key = read_key(p.key_file.strip())
        except ValueError as exc:
            raise ParameterError(f"{name} parameter key_file: {exc}") from None
        self._n_values = len(self.outputs) - len(COUNTERS)
        self._codec = Codec(key, big=p.byte_order == "big")
        self._link = Link(name, p.host.strip(), int(p.port), int(p.local_port), self._n_values, self._codec,
                          self.signals(), p.heartbeat)
        self.address = self._link.address
        self._lock_step = p.mode == "lock-step"
        self._values = np.array([v.start for v in self.outputs[:self._n_values]], dtype=float)
        self._safe = np.array([getattr(p, f"{SAFE}{v.name}") for v in self.outputs[:self._n_values]], dtype=float)
        self._ledger = Ledger(self._lock_step)
        self._answered = None  # (t, inputs) the values answer (lock-step)
        self._stepped = False
        self._silent = False
        # time.monotonic() of the first request sent since the peer's last
        # answer, None while every request sent before now has been heard
        # from: silence counts from there, so that a pause of the master's
        # own (a compile on a cold cache) is never blamed on the peer
        self._waiting_since = None
        self.stale = self.held = self.safe = 0
        self._held_in_a_row = 0

    @classmethod
    def signals(cls) -> tuple[bytes, str]:
        """``(digest, text)`` of the signals the bridge and its peer exchange
        (its inputs, and its outputs but the counters), which its hello
        offers (``packet.signals_digest``)."""
        return signals_digest(cls.inputs, cls.outputs[:len(cls.outputs) - len(COUNTERS)])

    # the counters: the ledger's, and the datagrams ignored
    sent = property(lambda self: self._ledger.sent)
    answers = property(lambda self: self._ledger.answers)
    lost = property(lambda self: self._ledger.lost)
    late = property(lambda self: self._ledger.late)
    malformed = property(lambda self: self._link.malformed)
    forged = property(lambda self: self._link.forged)
    unasked = property(lambda self: self._link.unasked + self._ledger.unasked)

    # -- the socket ----------------------------------------------------------
    def prepare(self) -> None:
        """Open the socket and draw the run id (the FMU does it at
        initialization)."""
        self._link.open()

    def close(self) -> None:
        self._link.close(self._ledger.seq)

    def _send(self, r: Request, u: np.ndarray) -> None:
        link = self._link
        if link.sock is None:
            link.open()
        attempt, nonce = self._ledger.sending(r)
        link.send(self._codec.pack(REQUEST, link.run, r.seq, r.t, u, attempt, nonce))
        if self._waiting_since is None:
            self._waiting_since = time.monotonic()

    def _look(self) -> bool:
        """Take every answer already arrived, without waiting; whether one was
        taken."""
        new = False
        while (p := self._link.receive(0.0)) is not None:
            new = self._sorted(p) is not None or new
        return new

    def _sorted(self, p):
        """Sort the answer ``p`` (``ledger.Ledger.sort``) and take it
        if it answers an open request; that request, or None.  Any answer to
        a request sent ends a silence."""
        r, heard = self._ledger.sort(p)
        if heard:
            self._waiting_since = None
            self._silent = False
            self._held_in_a_row = 0
        if r is not None:
            wrong = mistyped(p.values, self.outputs)
            if wrong:
                raise BridgeError(f"{self.model_name}: the peer at {self.address} answered the request for "
                                  f"t = {p.t:g} s with {wrong}: the signals it agreed to have these types")
            self._ledger.take(r, p.attempt)
            self._values = p.values
        return r

    # -- the exchanges ---------------------------------------------------------
    def _ask(self, t: float, u: np.ndarray, step: bool) -> None:
        """Lock-step: request ``(t, u)`` and take its answer, or apply the
        silence policy."""
        self._look()  # (in lock-step nothing there is awaited: late answers, unasked ones)
        r = self._ledger.new(t)
        self._send(r, u)
        if self._silent:
            self._look()
            if r.taken is None:
                self._ledger.give_up(r)
                if step:
                    self._held_step()
        elif not self._await(r, u):
            self._ledger.give_up(r)
            self._silence(t, step)
        # held values stand for (t, u) too: asking again at once would only
        # double the requests while the peer is silent
        self._answered = (t, u.tobytes())

    def _await(self, r: Request, u: np.ndarray) -> bool:
        start = now = time.monotonic()
        deadline, resend = start + self.p.timeout, start + self.p.retry
        while True:
            p = self._link.receive(min(deadline, resend) - now)
            now = time.monotonic()
            if p is not None:
                if self._sorted(p) is r:
                    return True
                continue  # a late or repeated answer to an earlier request, or one to no request
            if now >= deadline:
                return False
            if now >= resend:
                if r.tries <= MAX_ATTEMPT:
                    self._send(r, u)
                resend = now + self.p.retry

    def _silence(self, t: float, step: bool) -> None:
        if self.p.on_silence == "stop":
            silent = time.monotonic() - self._waiting_since
            timing = f"timeout {self.p.timeout:g} s, on_silence = stop"
            if self.answers == 0:
                raise BridgeError(f"{self.model_name}: the peer at {self.address} never answered: {self.sent} "
                                  f"request{'s' if self.sent != 1 else ''} over {silent:.3g} s, the last for "
                                  f"t = {t:g} s, went unanswered ({timing}){self._ignored()}")
            raise BridgeError(f"{self.model_name}: the peer at {self.address} was silent for {silent:.3g} s and "
                              f"left the request for t = {t:g} s unanswered ({timing}){self._ignored()}")
        self._silent = True
        if step:
            self._held_step()

    def _held_step(self) -> None:
        """A step of a silent peer (``on_silence = hold``): its outputs held,
        or, after ``hold_steps`` such steps in a row, the safe ones."""
        self._held_in_a_row += 1
        if self._held_in_a_row > self.p.hold_steps:
            self._values = self._safe.copy()
            self.safe += 1
        else:
            self.held += 1

    def _ignored(self) -> str:
        """What the bridge ignored, for the sentence of a silent peer."""
        versions = self._link.versions
        if versions:
            found = ", ".join(f"{n} of version {v}" for v, n in sorted(versions.items()))
            return (f"; it sent packets of another layout ({found}), which this bridge, of version {VERSION}, "
                    f"does not read: the peer must follow layout version {VERSION} (docs/in_the_loop.md)")
        if self.forged:
            keyed = "a key is set here" if self._codec.key else "no key is set here"
            return (f"; {self.forged} datagram{'s' if self.forged != 1 else ''} of the layout were refused for "
                    f"their tag ({keyed}): the bridge and its peer must share the key, or both have none")
        if self.malformed or self.unasked:
            return (f"; {self.malformed} malformed datagram{'s' if self.malformed != 1 else ''} and "
                    f"{self.unasked} answering no request sent were ignored")
        if self.answers == 0:
            return (f"; a peer answers nothing that is not running, listens on another address or port, speaks "
                    f"another packet layout than version {VERSION}, has another key than this bridge (or one where it "
                    f"has none, or none where it has one), or serves another run")
        return ""

    def _free_step(self, t: float, u: np.ndarray) -> None:
        new = self._look()
        self._send(self._ledger.new(t), u)
        if new:
            return
        self.stale += 1
        if time.monotonic() - self._waiting_since > self.p.timeout:
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
        return np.concatenate([self._values, [self.sent, self.answers, self.lost, self.late, self.stale, self.held,
                                              self.safe, self._ledger.seq - self._ledger.used, self.malformed,
                                              self.forged, self.unasked, self._ledger.round_trip]])


def _safe_parameter(v: Variable) -> Variable:
    """The parameter ``safe_<output>``, of the output's type: the value of
    output ``v`` while its peer is silent beyond ``hold_steps`` steps."""
    return Variable(f"{SAFE}{v.name}", v.unit, v.start,
                    f"Output {v.name} while the peer is silent beyond hold_steps held steps (on_silence = hold); "
                    f"declare it: the default is the output's start value ({float(v.start):g}), which need not be "
                    f"safe", type=v.type)


def _port_spec(v: Variable) -> dict:
    return {"name": v.name, "unit": v.unit, "start": float(v.start), "description": v.description, "type": v.type}


def _port_of(spec: dict) -> Variable:
    """The port :func:`_port_spec` wrote (a spec without a type: a Real)."""
    kind = spec.get("type", "Real")
    start = float(spec["start"])
    return Variable(spec["name"], spec["unit"], start if kind == "Real" else _AS[kind](start), spec["description"],
                    type=kind)


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
            if v.type not in SIGNAL_TYPES:
                raise ValueError(f"{model_name}: {kind} {v.name} is of type {v.type}: a signal is one of "
                                 f"{', '.join(SIGNAL_TYPES)}")
            if isinstance(v.start, str) or not math.isfinite(float(v.start)):
                raise ValueError(f"{model_name}: {kind} {v.name} has the start value {v.start!r}, which is not a "
                                 f"finite number")
            taken[v.name] = kind
    safe = tuple(_safe_parameter(v) for v in outputs)
    for s in safe:
        if s.name in taken:
            raise ValueError(f"{model_name}: {taken[s.name]} {s.name} has the name of the safe value the bridge "
                             f"declares for its output {s.name[len(SAFE):]}")
    feedthrough = tuple((pattern, tuple(groups)) for pattern, groups in feedthrough)
    spec = {"model_name": model_name,
            "description": description or UdpBridge.description,
            "inputs": [_port_spec(v) for v in inputs],
            "outputs": [_port_spec(v) for v in outputs],
            "feedthrough": [[pattern, [g if isinstance(g, str) else list(g) for g in groups]]
                            for pattern, groups in feedthrough]}
    cls = type(model_name, (UdpBridge,), {
        "__module__": __name__, "__qualname__": model_name, "__doc__": UdpBridge.__doc__,
        "model_name": model_name, "description": spec["description"], "parameters": PARAMETERS + safe,
        "inputs": inputs,
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
        ports = {kind: tuple(_port_of(p) for p in spec[kind]) for kind in ("inputs", "outputs")}
        feedthrough = tuple((pattern, tuple(g if isinstance(g, str) else tuple(g) for g in groups))
                            for pattern, groups in spec["feedthrough"])
        name, description = spec["model_name"], spec["description"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"bridge spec is incomplete or malformed ({type(exc).__name__}: {exc})") from None
    return bridge_block(name, ports["inputs"], ports["outputs"], feedthrough, description)
