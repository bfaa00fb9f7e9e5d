"""The packet layout, version 3, of a UDP bridge (``udp_bridge.py``) and its
peer (``serve.py``, or a device); the table is in docs/in_the_loop.md.

A 32-byte header: magic ``b"CCB3"``, kind (uint8), flags (uint8: bit 0 the
byte order of everything after it, 1 big-endian; bit 1 a tag follows),
attempt (uint16), run (uint32), sequence number (uint32), nonce (uint64,
drawn at random for each sending; an answer echoes it), time (float64);
then the values (float64 each, an Integer's or a Boolean's too) or, in a hello, the digest of the signals
and their description (a heartbeat and an end of the run: nothing); then, with a key, the first 16 bytes of the
HMAC-SHA256 of everything before it.  An answer is its request's header
with the kind changed, in its byte order.  This module imports the
standard library and numpy only (every FMU carries it).
"""
from __future__ import annotations

import hashlib
import hmac
import math
import os
import struct
from typing import NamedTuple

import numpy as np

__all__ = ["VERSION", "MAGIC", "HEADER_SIZE", "TAG_SIZE", "DIGEST_SIZE", "REQUEST", "ANSWER", "END", "HELLO",
           "WELCOME", "REFUSAL", "HEARTBEAT", "KINDS", "MAX_ATTEMPT", "BIG_ENDIAN", "TAGGED", "Packet",
           "PacketError", "Codec", "version_of", "new_nonce", "signals_digest", "mistyped", "difference", "read_key",
           "pack", "unpack", "answer_to"]

VERSION = 3
MAGIC = b"CCB" + str(VERSION).encode()
_PREFIX = b"CCB"
_HEADERS = {False: struct.Struct("<4sBBHIIQd"), True: struct.Struct(">4sBBHIIQd")}
HEADER_SIZE = 32
TAG_SIZE = 16
DIGEST_SIZE = 32
REQUEST, ANSWER, END, HELLO, WELCOME, REFUSAL, HEARTBEAT = 1, 2, 3, 4, 5, 6, 7
KINDS = {REQUEST: "request", ANSWER: "answer", END: "end of the run", HELLO: "hello", WELCOME: "welcome",
         REFUSAL: "refusal", HEARTBEAT: "heartbeat"}
#: the flags' bits
BIG_ENDIAN, TAGGED = 0x01, 0x02
#: the attempt field's largest value: a request sent more often says this
MAX_ATTEMPT = 0xFFFF


class Packet(NamedTuple):
    kind: int
    run: int
    seq: int
    attempt: int
    nonce: int
    t: float
    values: np.ndarray  # a request's or an answer's values, else empty
    big: bool = False  # its byte order
    payload: bytes = b""  # a hello's, welcome's or refusal's bytes after the header


class PacketError(ValueError):
    """A datagram that is not one of this layout; ``version``: the layout
    version it claims when it starts with ``CCB`` and another digit, else
    None; ``forged``: of this layout, but its tag is missing, wrong or not
    expected (the key differs)."""

    def __init__(self, message: str, version: int | None = None, forged: bool = False):
        super().__init__(message)
        self.version, self.forged = version, forged


def version_of(data: bytes) -> int | None:
    """The layout version a datagram claims (``CCB`` and a digit), or None."""
    if len(data) >= 4 and data[:3] == _PREFIX and 0x30 <= data[3] <= 0x39:
        return data[3] - 0x30
    return None


def new_nonce() -> int:
    """A nonce for a sending: 64 bits from the system's random source, so
    that no one who has not read the request can answer it."""
    return int.from_bytes(os.urandom(8), "little")


def signals_digest(inputs, outputs) -> tuple[bytes, str]:
    """``(digest, text)``: the text naming the signals a bridge and its peer
    exchange, a line each in their order (``input <name> [<unit>] <type>``,
    the type Real, Integer or Boolean; then the outputs), and its SHA-256,
    which the hello carries."""
    text = "".join(f"{kind} {v.name} [{v.unit}] {v.type}\n" for kind, group in (("input", inputs),
                                                                                  ("output", outputs))
                   for v in group)
    return hashlib.sha256(text.encode()).digest(), text


def mistyped(values, signals) -> str | None:
    """The first of ``values`` (float64s) that its signal (``signals``, with
    ``name`` and ``type``) cannot hold, in words, or None: an Integer is a
    whole number from -2**31 to 2**31 - 1, a Boolean 0 or 1 (the packet
    carries both as float64, which holds them exactly)."""
    for v, x in zip(signals, values):
        if v.type == "Boolean" and x not in (0.0, 1.0):
            return f"{v.name} = {float(x)!r}, which is not a Boolean (0 or 1)"
        if v.type == "Integer" and not (math.isfinite(x) and float(x).is_integer() and -2**31 <= x < 2**31):
            return f"{v.name} = {float(x)!r}, which is not an Integer (a whole number from -2**31 to 2**31 - 1)"
    return None


def _an(what: str) -> str:
    return f"{'an' if what[0] in 'aeo' else 'a'} {what}"


class Codec:
    """Packs and reads the datagrams of one end: ``key`` (bytes or None)
    tags every datagram it packs and is required of every one it reads;
    ``big``: the byte order it packs in (an answer takes its request's)."""

    def __init__(self, key: bytes | None = None, big: bool = False):
        self.key, self.big = key or None, big

    def _tagged(self, body: bytes) -> bytes:
        if self.key is None:
            return body
        return body + hmac.digest(self.key, body, "sha256")[:TAG_SIZE]

    def pack(self, kind: int, run: int, seq: int, t: float, values=(), attempt: int = 0, nonce: int = 0,
             payload: bytes = b"", big: bool | None = None) -> bytes:
        """The datagram ``(kind, run, seq, attempt, nonce, t)`` with
        ``values`` (float64s) or ``payload`` after the header, in the byte
        order ``big`` (None: this end's); ``run`` and ``seq`` are uint32,
        ``attempt`` is held at :data:`MAX_ATTEMPT`."""
        for name, value in (("run", run), ("sequence number", seq)):
            if not 0 <= value < 2 ** 32:
                raise ValueError(f"{name} {value} does not fit the packet's uint32")
        big = self.big if big is None else big
        flags = (BIG_ENDIAN if big else 0) | (TAGGED if self.key else 0)
        head = _HEADERS[big].pack(MAGIC, kind, flags, min(attempt, MAX_ATTEMPT), run, seq, nonce, t)
        return self._tagged(head + np.asarray(values, dtype=">f8" if big else "<f8").tobytes() + payload)

    def answer_to(self, request: Packet, values=(), kind: int = ANSWER, payload: bytes = b"") -> bytes:
        """The answer (or welcome, refusal) to ``request``: its header with
        the kind changed, in its byte order, then ``values`` or ``payload``."""
        return self.pack(kind, request.run, request.seq, request.t, values, request.attempt, request.nonce, payload,
                         big=request.big)

    def unpack(self, data: bytes, n: int) -> Packet:
        """The :class:`Packet` in ``data``: a request or answer carrying
        ``n`` values, an end of run carrying none, a hello, welcome or
        refusal carrying a digest and a text; raises :class:`PacketError`
        for a datagram of another length, magic, version or kind, and for
        one whose tag is missing, wrong, or there without a key here."""
        version = version_of(data)
        if version is not None and version != VERSION:
            raise PacketError(f"a packet of layout version {version} is not one of version {VERSION}", version)
        if len(data) < HEADER_SIZE:
            raise PacketError(f"a packet of {len(data)} bytes is shorter than the header's {HEADER_SIZE}")
        if data[:4] != MAGIC:
            raise PacketError(f"a packet starting with {data[:4]!r} is not a crane-cosim bridge packet, which "
                              f"starts with {MAGIC!r}")
        kind, flags = data[4], data[5]
        if kind not in KINDS:
            raise PacketError(f"a packet of kind {kind} is none of "
                              f"{', '.join(f'{k} ({w})' for k, w in KINDS.items())}")
        tag = TAG_SIZE if flags & TAGGED else 0
        body = data[:len(data) - tag]
        if self.key is not None:
            if not tag:
                raise PacketError(f"{_an(KINDS[kind])} without a tag is refused: a key is set here", forged=True)
            if len(data) < HEADER_SIZE + tag or not hmac.compare_digest(
                    data[len(body):], hmac.digest(self.key, body, "sha256")[:TAG_SIZE]):
                raise PacketError(f"{_an(KINDS[kind])} whose tag is wrong is refused: it was not made with the "
                                  f"key set here", forged=True)
        elif tag:
            raise PacketError(f"{_an(KINDS[kind])} with a tag is refused: it was made with a key, and none is set "
                              f"here", forged=True)
        big = bool(flags & BIG_ENDIAN)
        _, kind, _, attempt, run, seq, nonce, t = _HEADERS[big].unpack_from(body)
        count = {REQUEST: n, ANSWER: n, END: 0, HEARTBEAT: 0}.get(kind)
        if count is None:  # a hello, welcome or refusal: a digest, and a text after it
            if len(body) < HEADER_SIZE + DIGEST_SIZE:
                raise PacketError(f"{_an(KINDS[kind])} of {len(body)} bytes is shorter than a header and a "
                                  f"digest, {HEADER_SIZE + DIGEST_SIZE}")
            return Packet(kind, run, seq, attempt, nonce, t, np.empty(0), big, body[HEADER_SIZE:])
        if len(body) != HEADER_SIZE + 8 * count:
            raise PacketError(f"{_an(KINDS[kind])} of {len(body)} bytes{' before its tag' if tag else ''} is "
                              f"not one of {count} values, which has {HEADER_SIZE + 8 * count} bytes")
        values = np.frombuffer(body, dtype=">f8" if big else "<f8", count=count, offset=HEADER_SIZE).astype(float)
        return Packet(kind, run, seq, attempt, nonce, t, values, big)


def difference(ours: str, theirs: str) -> str:
    """Where the signals described by ``theirs`` (:func:`signals_digest`'s
    text) first differ from ``ours``, in words."""
    a, b = ours.splitlines(), theirs.splitlines()
    if not b:
        return "the peer did not say which signals it has"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"signal {i + 1} is {x!r} here and {y!r} at the peer"
    if len(a) > len(b):
        return f"the peer lacks {len(a) - len(b)} signal(s) from {a[len(b)]!r} on"
    if len(b) > len(a):
        return f"the peer has {len(b) - len(a)} more signal(s), from {b[len(a)]!r} on"
    return "the signals are the same; their digests differ"


def read_key(key_file: str = "", env: str = "CRANE_COSIM_BRIDGE_KEY") -> bytes | None:
    """The shared key of a rig: the text of ``key_file`` (its ends' white
    space stripped), else of the environment variable ``env``, else None
    (no key); raises ``ValueError`` naming the file or variable for a key
    that cannot be read or is shorter than 16 bytes."""
    if key_file:
        try:
            key, where = open(key_file, "rb").read().strip(), f"key file {key_file}"
        except OSError as exc:
            raise ValueError(f"key file {key_file} cannot be read ({exc.strerror or exc})") from None
    elif os.environ.get(env):
        key, where = os.environ[env].strip().encode(), f"environment variable {env}"
    else:
        return None
    if len(key) < 16:
        raise ValueError(f"the key in {where} is {len(key)} bytes long: a key must have at least 16 (for instance "
                         f"the 64 hexadecimal digits of `openssl rand -hex 32`)")
    return key


_PLAIN = Codec()


def pack(kind: int, run: int, seq: int, t: float, values=(), attempt: int = 0, nonce: int = 0,
         payload: bytes = b"") -> bytes:
    """:meth:`Codec.pack` without a key, little-endian."""
    return _PLAIN.pack(kind, run, seq, t, values, attempt, nonce, payload)


def unpack(data: bytes, n: int) -> Packet:
    """:meth:`Codec.unpack` without a key."""
    return _PLAIN.unpack(data, n)


def answer_to(request: bytes, values=(), kind: int = ANSWER, payload: bytes = b"") -> bytes:
    """:meth:`Codec.answer_to` the datagram ``request`` (a well-formed one
    without a key)."""
    return _PLAIN.answer_to(unpack(request, (len(request) - HEADER_SIZE) // 8), values, kind, payload)
