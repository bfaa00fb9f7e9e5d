"""The ledger of a UDP bridge's run (``bridge/udp_bridge.py``): the requests
it sent, and for each answer of the run that comes, the request it answers
or why it answers none; the counters ``bridge_sent``, ``bridge_answers``,
``bridge_lost`` and ``bridge_late`` are kept here.

A request may be sent several times (lock-step, every ``retry``), each
sending with its attempt number, which the answer echoes.  When an answer
is taken, the sendings before the one it answers are lost so far and those
after it were late (sent again while its answer was on its way); a request
given up (a silent peer) has all its sendings lost; an answer that comes
after its request was given up, or passed by a newer answer (free-running),
moves one from lost to late.  In lock-step, then, ``sent = answers + lost +
late`` at every step.  An answer that echoes no sending (its request's
sequence number and time, its attempt and nonce), or a sending already
answered, is unasked: the nonce, drawn for each sending, is what no one
who has not read the request can guess.

It keeps the round trip of the answer taken last, from the sending it
answers to the bridge reading it.  This module imports the standard
library and the packet layout only (every FMU carries it).
"""
from __future__ import annotations

import time

from .packet import new_nonce

__all__ = ["Ledger", "Request", "WINDOW"]

#: the requests whose answers are recognised: the newest this many (an
#: answer to an older one is counted unasked)
WINDOW = 1024


class Request:
    """A request sent: its sequence number and time, how often it was sent,
    when (``time.monotonic()`` of each sending) and with which nonce, the
    attempt whose
    answer was taken (None: none yet), the attempts answered (bits), and
    whether it was given up (lock-step) or passed by a newer answer
    (free-running)."""

    __slots__ = ("seq", "t", "tries", "taken", "seen", "closed", "sent_at", "nonces")

    def __init__(self, seq: int, t: float):
        self.seq, self.t, self.tries, self.taken, self.seen, self.closed = seq, t, 0, None, 0, False
        self.sent_at: list[float] = []
        self.nonces: list[int] = []


class Ledger:
    """The requests of one run, for a bridge in lock-step (``lock_step``)
    or free-running; :attr:`seq` is the newest request's sequence number,
    :attr:`used` that of the answer in use."""

    def __init__(self, lock_step: bool):
        self.lock_step = lock_step
        self.asked: dict[int, Request] = {}  # the newest WINDOW requests
        self.seq = 0
        self.used = 0
        self.sent = self.answers = self.lost = self.late = self.unasked = 0
        #: the round trip of the answer taken last [s]: from its sending to
        #: the bridge reading it (0 before the first)
        self.round_trip = 0.0

    def new(self, t: float) -> Request:
        """The next request, for time ``t`` (not sent yet)."""
        self.seq += 1
        r = self.asked[self.seq] = Request(self.seq, t)
        self.asked.pop(self.seq - WINDOW, None)
        return r

    def sending(self, r: Request) -> tuple[int, int]:
        """``r`` is sent (again): the attempt number and the nonce to send it
        with."""
        attempt, nonce = r.tries, new_nonce()
        r.tries += 1
        r.sent_at.append(time.monotonic())
        r.nonces.append(nonce)
        self.sent += 1
        return attempt, nonce

    def sort(self, p) -> tuple[Request | None, bool]:
        """``(request, heard)`` for the answer ``p`` of this run from the
        peer: the request it answers first if it is still open (else None,
        the answer accounted for), and whether it answers a request sent at
        all (a sign of life of the peer)."""
        r = self.asked.get(p.seq)
        if r is None or p.t != r.t or p.attempt >= r.tries or p.nonce != r.nonces[p.attempt] or \
                (r.seen >> p.attempt) & 1:
            self.unasked += 1
            return None, False
        r.seen |= 1 << p.attempt
        if r.taken is None and not r.closed:
            return r, True
        if r.taken is None or p.attempt < r.taken:  # counted lost; it came after all
            self.lost -= 1
            self.late += 1
        return None, True  # (an answer to a sending after the one taken: counted late when that was taken)

    def take(self, r: Request, attempt: int) -> None:
        """The answer to sending ``attempt`` of ``r`` is taken; free-running,
        the requests between the answer in use and this one are passed by."""
        r.taken = attempt
        self.round_trip = time.monotonic() - r.sent_at[attempt]
        self.lost += attempt
        self.late += r.tries - 1 - attempt
        oldest = self.seq - WINDOW + 1  # the oldest request kept
        for seq in range(max(self.used + 1, oldest), r.seq):
            q = self.asked[seq]
            if q.taken is None and not q.closed:
                q.closed = True
                self.lost += q.tries
        if not self.lock_step:  # those no longer kept, each sent once (lock-step gave them up)
            self.lost += max(0, min(r.seq, oldest) - self.used - 1)
        self.used = r.seq
        self.answers += 1

    def give_up(self, r: Request) -> None:
        """No answer to ``r`` is waited for any more: its sendings are lost."""
        r.closed = True
        self.lost += r.tries
