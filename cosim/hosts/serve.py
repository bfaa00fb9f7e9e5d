"""One of our blocks as the peer of a UDP bridge (``crane-cosim serve``): the
other end of ``blocks/udp_bridge.py``, run in-process with the block's own
numpy or numba code.

:class:`Peer` is the protocol, free of sockets: what a real controller must
do with each request (``docs/in_the_loop.md``).  :class:`Server` runs it on
a UDP socket until told to stop, optionally dropping a fraction of its
answers to test how a rig copes with packet loss.
"""
from __future__ import annotations

import json
import socket
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ..blocks.udp_bridge import pack, unpack

__all__ = ["Peer", "Server", "ServeStats"]


@dataclass
class ServeStats:
    """What a server did: ``requests`` well-formed requests received
    (``repeated`` of them retransmissions answered from the cache, ``old``
    ones ignored), ``answers`` sent, ``dropped`` answers not sent on
    purpose (their sequence numbers in ``dropped_seqs``), ``resets`` (new
    runs), ``malformed`` datagrams ignored, ``failures`` evaluations of the
    block that raised (answered with NaN)."""

    model: str
    address: str
    requests: int = 0
    repeated: int = 0
    old: int = 0
    answers: int = 0
    dropped: int = 0
    dropped_seqs: list = field(default_factory=list)
    resets: int = 0
    malformed: int = 0
    failures: int = 0

    def summary(self) -> str:
        failed = f", {self.failures} failed evaluations answered with NaN" if self.failures else ""
        return (f"served {self.model} on {self.address}: {self.requests} requests ({self.repeated} repeated, "
                f"{self.old} old), {self.answers} answers sent, {self.dropped} dropped, {self.resets} "
                f"reset{'s' if self.resets != 1 else ''}, {self.malformed} malformed packets{failed}")

    def write(self, path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1) + "\n")


class Peer:
    """The peer's side of the protocol for ``block``: its state ``x`` at
    ``t``, the last sequence number answered and that answer.

    :meth:`answer` takes a request and returns ``(seq, datagram)`` to send,
    or None: a retransmission (the last seq again) gets the cached answer
    without stepping; an older seq other than 1 is ignored; seq 1 after
    another (a new run) or the first request ever restarts the block from
    its initial state at the request's time; then a later time advances the
    state with the request's inputs held, and the outputs at the request's
    time and inputs are answered.  A block that raises is answered with NaN
    (the bridge's master then names the output) and the failure kept in
    ``failures``."""

    def __init__(self, block, stats: ServeStats | None = None):
        self.block = block
        self.n_inputs = len(block.inputs)
        self.n_outputs = len(block.outputs)
        self.stats = stats or ServeStats(block.model_name, "")
        self.last_seq = 0
        self.cached = None
        self.t = None
        self.x = None
        self.failures: list[str] = []

    def answer(self, data: bytes):
        stats = self.stats
        try:
            seq, t, u = unpack(data, self.n_inputs)
        except ValueError:
            stats.malformed += 1
            return None
        stats.requests += 1
        if seq == self.last_seq and self.cached is not None:
            stats.repeated += 1
            return seq, self.cached
        if seq < self.last_seq and seq != 1:
            stats.old += 1
            return None
        if seq == 1 or self.t is None:
            stats.resets += 1
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
        self.last_seq, self.cached = seq, pack(seq, t, y)
        return seq, self.cached


class Server:
    """:class:`Peer` on a UDP socket bound to ``(host, port)`` (port 0: one
    the system chooses; :attr:`port` tells which).  ``drop(seq)`` decides
    for each answer about to be sent, a repeated one included, whether it
    is dropped instead.  ``on_failure`` is told each failure of the block,
    once."""

    def __init__(self, block, host: str = "127.0.0.1", port: int = 0,
                 drop: Callable[[int], bool] | None = None, on_failure: Callable[[str], None] | None = None):
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
        self.peer = Peer(block, self.stats)
        self.drop = drop
        self.on_failure = on_failure

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
            out = peer.answer(data)
            if peer.failures and self.on_failure is not None:
                for message in peer.failures:
                    self.on_failure(message)
            peer.failures.clear()
            if out is None:
                continue
            seq, packet = out
            if self.drop is not None and self.drop(seq):
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
