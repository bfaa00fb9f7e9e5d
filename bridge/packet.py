"""The packet layout, version 2, of a UDP bridge (``udp_bridge.py``) and its peer.

One datagram goes each way per exchange, little-endian throughout:

========  =====  ========  ==================================================
offset    size   type      field
========  =====  ========  ==================================================
0         4      bytes     magic ``b"CCB2"``: ``CCB`` and the layout's
                           version, the digit 2
4         4      uint32    run: drawn at random by the bridge for each run
                           (never 0); an answer echoes it
8         4      uint32    sequence number: 1, 2, ... in the run; an answer
                           echoes its request's
12        2      uint16    kind: 1 request, 2 answer, 3 end of the run
14        2      uint16    attempt: 0 when a request is first sent, 1, 2, ...
                           each time it is sent again (at most 65535); an
                           answer echoes it
16        8      float64   simulation time t [s] the values refer to; an
                           answer echoes it
24        8 n    float64   values, in the listed order (request: the
                           bridge's inputs; answer: its outputs; end: none)
========  =====  ========  ==================================================

An answer is its request's header with the kind changed, then the values:
the bridge takes an answer only when it echoes a request it sent.  A
datagram of another length, magic or kind is not one of this layout; one
that starts with ``CCB`` and another digit is of another version of it
(version 1, ``CCB1``, had neither run, kind nor attempt), which either end
counts and names rather than reads.  This module imports the standard
library and numpy only (every FMU carries it).
"""
from __future__ import annotations

import struct
from typing import NamedTuple

import numpy as np

__all__ = ["VERSION", "MAGIC", "HEADER_SIZE", "REQUEST", "ANSWER", "END", "MAX_ATTEMPT", "Packet", "PacketError",
           "pack", "unpack", "answer_to", "version_of"]

VERSION = 2
MAGIC = b"CCB" + str(VERSION).encode()
_PREFIX = b"CCB"
_HEADER = struct.Struct("<4sIIHHd")
HEADER_SIZE = _HEADER.size  # 24
REQUEST, ANSWER, END = 1, 2, 3
_KINDS = {REQUEST: "request", ANSWER: "answer", END: "end of the run"}
#: the attempt field's largest value: a request sent more often says this
MAX_ATTEMPT = 0xFFFF


class Packet(NamedTuple):
    kind: int
    run: int
    seq: int
    attempt: int
    t: float
    values: np.ndarray


class PacketError(ValueError):
    """A datagram that is not one of this layout; ``version``: the layout
    version it claims when it starts with ``CCB`` and another digit, else
    None."""

    def __init__(self, message: str, version: int | None = None):
        super().__init__(message)
        self.version = version


def version_of(data: bytes) -> int | None:
    """The layout version a datagram claims (``CCB`` and a digit), or None."""
    if len(data) >= 4 and data[:3] == _PREFIX and 0x30 <= data[3] <= 0x39:
        return data[3] - 0x30
    return None


def pack(kind: int, run: int, seq: int, t: float, values=(), attempt: int = 0) -> bytes:
    """The datagram ``(kind, run, seq, attempt, t, values)``; ``run`` and
    ``seq`` are uint32, ``attempt`` is held at :data:`MAX_ATTEMPT`."""
    for name, value in (("run", run), ("sequence number", seq)):
        if not 0 <= value < 2 ** 32:
            raise ValueError(f"{name} {value} does not fit the packet's uint32")
    return _HEADER.pack(MAGIC, run, seq, kind, min(attempt, MAX_ATTEMPT), t) + \
        np.asarray(values, dtype="<f8").tobytes()


def answer_to(request: bytes, values_bytes: bytes) -> bytes:
    """The answer to the datagram ``request`` (a well-formed request): its
    header with the kind ``answer``, then ``values_bytes`` (little-endian
    float64s)."""
    return request[:12] + struct.pack("<H", ANSWER) + request[14:HEADER_SIZE] + values_bytes


def unpack(data: bytes, n: int) -> Packet:
    """The :class:`Packet` in ``data``, a request or answer carrying ``n``
    values or an end of run carrying none; raises :class:`PacketError` for
    a datagram of another length, magic, version or kind."""
    version = version_of(data)
    if version is not None and version != VERSION:
        raise PacketError(f"a packet of layout version {version} is not one of version {VERSION}", version)
    if len(data) < HEADER_SIZE:
        raise PacketError(f"a packet of {len(data)} bytes is shorter than the header's {HEADER_SIZE}")
    magic, run, seq, kind, attempt, t = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise PacketError(f"a packet starting with {magic!r} is not a crane-cosim bridge packet, which starts "
                          f"with {MAGIC!r}")
    if kind not in _KINDS:
        raise PacketError(f"a packet of kind {kind} is none of {', '.join(f'{k} ({w})' for k, w in _KINDS.items())}")
    count = 0 if kind == END else n
    if len(data) != HEADER_SIZE + 8 * count:
        what = _KINDS[kind]
        raise PacketError(f"{'an' if what[0] in 'ae' else 'a'} {what} of {len(data)} bytes is not one of {count} "
                          f"values, which has {HEADER_SIZE + 8 * count} bytes")
    values = np.frombuffer(data, dtype="<f8", count=count, offset=HEADER_SIZE).astype(float)
    return Packet(kind, run, seq, attempt, t, values)
