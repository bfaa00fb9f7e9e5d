"""One of our blocks as the peer of a UDP bridge (``crane-cosim serve``): the
other end of ``bridge/udp_bridge.py``, run in-process with the block's own
numpy or numba code.

:class:`Peer` is the protocol, free of sockets: what a real controller must
do with each datagram (``docs/in_the_loop.md``).  It serves one run at a
time, bound to the address and run id of the hello that opened it, whose
signals it agreed to (the hello of other signals is refused, naming
them); with a key, it reads only datagrams tagged with it.  Every other
datagram is counted and ignored, never answered.  :class:`Server`
runs it on a UDP socket until told to stop, optionally dropping a fraction
of its answers to test how a rig copes with packet loss.
"""
from __future__ import annotations

import json
import socket
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from .packet import (END, HEARTBEAT, HELLO, REFUSAL, REQUEST, VERSION, WELCOME, Codec, PacketError, difference,
                     signals_digest)

__all__ = ["Peer", "Server", "ServeStats", "IDLE", "random_drop"]

#: a run whose bridge has sent no new request for this long [s] may be followed by
#: another before it ends (its bridge gone without saying so)
IDLE = 5.0


@dataclass
class ServeStats:
    """What a server did: ``runs`` served (opened by their hello),
    ``ended`` by their bridge, ``abandoned`` (silent for the idle time, and
    another run started); ``requests`` of those runs received
    (``repeated`` of them retransmissions answered from the cache, ``old``
    ones ignored), their ``heartbeats``, ``answers`` sent, ``dropped``
    answers not sent on purpose (their sequence numbers in
    ``dropped_seqs``); ignored: ``strangers`` (well-formed datagrams not of
    the run served: another address or run id, or a hello while another run
    is served), ``malformed`` datagrams, ``forged`` (of the layout, their
    tag not that of the key), ``other_layout`` (datagrams of another
    version of the packet layout), ``refused`` hellos (their signals not
    the block's); ``failures``: evaluations of the block that raised
    (answered with NaN)."""

    model: str
    address: str
    layout_version: int = VERSION
    runs: int = 0
    ended: int = 0
    abandoned: int = 0
    requests: int = 0
    repeated: int = 0
    old: int = 0
    heartbeats: int = 0
    answers: int = 0
    dropped: int = 0
    dropped_seqs: list = field(default_factory=list)
    strangers: int = 0
    malformed: int = 0
    forged: int = 0
    other_layout: int = 0
    refused: int = 0
    failures: int = 0

    def summary(self) -> str:
        failed = f", {self.failures} failed evaluations answered with NaN" if self.failures else ""
        return (f"served {self.model} on {self.address}: {self.runs} run{'s' if self.runs != 1 else ''} "
                f"({self.ended} ended by the bridge, {self.abandoned} abandoned), {self.requests} requests "
                f"({self.repeated} repeated, {self.old} old), {self.answers} answers sent, {self.dropped} dropped"
                f"{failed}; {self.refused} hellos of other signals refused; ignored: {self.strangers} datagrams "
                f"of strangers, {self.malformed} malformed, {self.forged} not tagged with the key, "
                f"{self.other_layout} of another packet layout than version {VERSION}")

    def write(self, path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")


def _shown(addr) -> str:
    return f"[{addr[0]}]:{addr[1]}" if ":" in addr[0] else f"{addr[0]}:{addr[1]}"


class Peer:
    """The peer's side of the protocol for ``block``: the run it serves
    (:attr:`client`, the address and run id of the hello that opened it),
    the block's state ``x`` at ``t``, the last sequence number answered and
    the values answered; ``key``: the rig's shared key, or None.

    :meth:`answer` takes a datagram from ``addr`` and returns ``(seq,
    datagram)`` to send, or None.  A hello opens a run when none is served,
    or when the one served has sent no new request for ``idle`` [s] (one
    sent again does not count), and is welcomed if its signals are the
    block's (its digest), refused otherwise; the hello of the run served is
    welcomed again.  A request of the run served: the first starts the
    block from its initial state at its time; sent again (the last seq
    again) it gets the same values without a second step; an older seq is
    ignored; a newer one advances the state to its time with its inputs
    held, and the outputs at its time and inputs are answered.  The
    bridge's end of the run ends it.  Everything else is counted
    (:class:`ServeStats`) and not answered; :attr:`notices` gathers a
    sentence for each new address sending another packet layout, datagrams
    not tagged with the key or a hello of other signals, and each new run
    that had to be refused.  A block that raises is answered with NaN (the
    bridge's master then names the output) and the failure kept in
    ``failures``."""

    def __init__(self, block, stats: ServeStats | None = None, idle: float = IDLE, key: bytes | None = None):
        self.block = block
        self.n_inputs = len(block.inputs)
        self.n_outputs = len(block.outputs)
        self.stats = stats or ServeStats(block.model_name, "")
        self.idle = idle
        self.codec = Codec(key)
        self.digest, self.signals = signals_digest(block.inputs, block.outputs)
        self.client = None
        self.heard = 0.0
        self.last_seq = 0
        self.cached = np.empty(0)
        self.t = None
        self.x = None
        self.failures: list[str] = []
        self.notices: list[str] = []
        self._noticed = set()

    def _notice(self, key, message: str) -> None:
        if key not in self._noticed:
            self._noticed.add(key)
            self.notices.append(message)

    def answer(self, data: bytes, addr=("", 0), now: float | None = None):
        stats = self.stats
        now = time.monotonic() if now is None else now
        addr = tuple(addr[:2])
        try:
            p = self.codec.unpack(data, self.n_inputs)
        except PacketError as exc:
            self._unread(exc, addr)
            return None
        ours = self.client == (addr, p.run)
        if p.kind == HELLO:
            return self._greeted(p, addr, ours, now)
        if p.kind == END and ours:
            self.client = None
            stats.ended += 1
            return None
        if p.kind == HEARTBEAT and ours:  # (it does not hold the peer: only a new request does)
            stats.heartbeats += 1
            return None
        if p.kind != REQUEST or not ours:
            stats.strangers += 1
            return None
        stats.requests += 1
        if p.seq == 0:  # no request's number: nothing to answer, nor to repeat
            stats.old += 1
            return None
        if p.seq == self.last_seq:
            stats.repeated += 1
            return p.seq, self.codec.answer_to(p, self.cached)
        if p.seq < self.last_seq:
            stats.old += 1
            return None
        self.heard = now  # a run holds the peer by going on, not by repeating itself
        t, u = p.t, p.values
        if self.x is None:  # the run's first request
            self.x, self.t = self.block.initial_state(), t
        try:
            with np.errstate(all="ignore"):
                if t > self.t:
                    self.x = self.block.advance(self.t, self.x, u, t - self.t)
                y = self.block.output(t, self.x, u)
        except Exception as exc:  # a block's own failure must not end the service
            stats.failures += 1
            self.failures.append(f"{self.block.model_name} failed at t = {t:g} s: {exc}")
            y = np.full(self.n_outputs, np.nan)
        self.t = max(t, self.t)
        self.last_seq, self.cached = p.seq, np.asarray(y, dtype=float)
        return p.seq, self.codec.answer_to(p, self.cached)

    def _unread(self, exc: PacketError, addr) -> None:
        """Count a datagram that is not read, and say once per address what
        it lacks."""
        stats = self.stats
        if exc.forged:
            stats.forged += 1
            self._notice(("forged", addr), f"{_shown(addr)} sends datagrams this server refuses for their tag "
                                           f"({exc}): the bridge and the server must share the key (key_file, "
                                           f"--key-file), or both have none; said once for {_shown(addr)}")
        elif exc.version is None:
            stats.malformed += 1
        else:
            stats.other_layout += 1
            self._notice(("layout", addr, exc.version),
                         f"{_shown(addr)} sends packets of layout version {exc.version}, which this server "
                         f"(version {VERSION}) ignores: build its bridge FMU with this crane-cosim, or make "
                         f"the peer follow version {VERSION} (docs/in_the_loop.md)")

    def _greeted(self, p, addr, ours: bool, now: float):
        """``(0, welcome or refusal)`` for the hello ``p`` from ``addr``, or
        None while another run is served; a welcome opens its run."""
        if p.payload[:len(self.digest)] != self.digest:
            self.stats.refused += 1
            theirs = p.payload[len(self.digest):].decode("utf-8", "replace")
            self._notice(("signals", addr), f"a run from {_shown(addr)} is refused: its signals are not those of "
                                            f"{self.block.model_name} ({difference(self.signals, theirs)}); said "
                                            f"once for {_shown(addr)}")
            return 0, self.codec.answer_to(p, kind=REFUSAL, payload=self.digest + self.signals.encode())
        if not ours:
            if self.client is not None:
                if now - self.heard < self.idle:
                    self._notice(("run", addr),
                                 f"a new run from {_shown(addr)} is ignored while the run from "
                                 f"{_shown(self.client[0])} is served (it ends when its bridge says so, or once it "
                                 f"has sent no new request for {self.idle:g} s); said once for {_shown(addr)}")
                    self.stats.strangers += 1
                    return None
                self.stats.abandoned += 1
            self.client = (addr, p.run)
            self.stats.runs += 1
            self.heard = now
            self.last_seq, self.cached, self.x, self.t = 0, np.empty(0), None, None
        return 0, self.codec.answer_to(p, kind=WELCOME, payload=self.digest)


class Server:
    """:class:`Peer` on a UDP socket bound to ``(host, port)`` (port 0: one
    the system chooses; :attr:`port` tells which).  ``drop(seq)`` decides
    for each answer about to be sent, a repeated one included, whether it
    is dropped instead.  ``on_failure`` is told each failure of the block,
    once, and ``on_notice`` each of the peer's notices; ``idle``: the
    peer's."""

    def __init__(self, block, host: str = "127.0.0.1", port: int = 0,
                 drop: Callable[[int], bool] | None = None, on_failure: Callable[[str], None] | None = None,
                 idle: float = IDLE, on_notice: Callable[[str], None] | None = None, key: bytes | None = None):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_DGRAM)
        try:
            self.sock.bind((host, port))
        except OSError:
            self.sock.close()
            raise
        self.host, self.port = self.sock.getsockname()[:2]
        shown = f"[{self.host}]" if family == socket.AF_INET6 else self.host
        self.address = f"udp://{shown}:{self.port}"
        self.stats = ServeStats(block.model_name, self.address)
        self.peer = Peer(block, self.stats, idle, key)
        self.drop = drop
        self.on_failure = on_failure
        self.on_notice = on_notice

    def run(self, stop: Callable[[], bool], poll: float = 0.1) -> ServeStats:
        """Answer requests until ``stop()`` is true, looking at it at least
        every ``poll`` [s]."""
        sock, peer, stats = self.sock, self.peer, self.stats
        sock.settimeout(poll)
        while not stop():
            try:
                data, addr = sock.recvfrom(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:  # Windows: an earlier answer found no one listening
                continue
            out = peer.answer(data, addr)
            for told, messages in ((self.on_failure, peer.failures), (self.on_notice, peer.notices)):
                if messages and told is not None:
                    for message in messages:
                        told(message)
                messages.clear()
            if out is None:
                continue
            seq, packet = out
            if seq and self.drop is not None and self.drop(seq):  # (a welcome, seq 0, is never dropped)
                stats.dropped += 1
                stats.dropped_seqs.append(seq)
                continue
            try:
                sock.sendto(packet, addr)
            except OSError:  # the bridge's host is gone; its next request will say so
                continue
            stats.answers += 1
        return stats

    def close(self) -> None:
        self.sock.close()


def random_drop(fraction: float, seed: int | None = None) -> Callable[[int], bool] | None:
    """A ``drop`` for :class:`Server` that drops each answer with probability
    ``fraction`` (numpy's ``default_rng(seed)``, one draw per answer); None
    for 0."""
    if not fraction:
        return None
    rng = np.random.default_rng(seed)
    return lambda seq: bool(rng.random() < fraction)
