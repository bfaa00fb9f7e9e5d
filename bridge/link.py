"""The socket of a UDP bridge (``bridge/udp_bridge.py``) for one run: bound
to the local address that reaches the peer, sending the bridge's packets
(``bridge/packet.py``) under a run id drawn at random when it opens, each
request preceded by a hello until the peer welcomes the run (agreeing on
the signals), and passing on only the peer's answers of that run.
Everything else that arrives is counted, never read: a datagram not of the
packet layout (``malformed``, and by version those of another version of
the layout from the peer), one whose tag does not match the key
(``forged``), a well-formed one from another address or of another run,
or not an answer (``unasked``).  The bridge itself decides whether an
answer of the run answers a request it sent.

This module imports the standard library, numpy and the block package only;
it is copied into every FMU with the blocks.
"""
from __future__ import annotations

import secrets
import socket
import threading
import time

from .packet import ANSWER, END, HEARTBEAT, HELLO, REFUSAL, WELCOME, Codec, PacketError, difference, new_nonce

__all__ = ["BridgeError", "Link", "local_address"]


def local_address(family, addr, port: int) -> tuple:
    """The local address the system routes to ``addr`` from (a connected
    UDP socket sends nothing), with ``port``: a bridge listens there only,
    not on every interface."""
    with socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect(addr)
        local = probe.getsockname()
    return (local[0], port) + tuple(local[2:])

#: a datagram larger than this is not one of ours (64 KiB: UDP's own limit)
_MAX_DATAGRAM = 65536


class BridgeError(ValueError):
    """The link to the peer failed, said in one sentence naming the peer.  A
    ``ValueError``, so that the FMU logs that sentence without a traceback,
    as it does a parameter a block refuses."""


class Link:
    """The socket of the bridge ``name`` to its peer at ``host``:``port``,
    sending from ``local_port`` (0: any free one); its answers carry
    ``n_values`` values; ``codec`` packs and reads its datagrams (the key,
    the byte order), ``signals`` is ``(digest, text)`` of the signals its
    hello offers (``packet.signals_digest``).  :meth:`open` binds it and
    draws :attr:`run`; while the run is welcomed, a thread sends a heartbeat
    whenever nothing was sent for ``heartbeat`` [s] (0: never);
    :meth:`close` tells the peer the run ended (when it asked anything) and
    closes it."""

    def __init__(self, name: str, host: str, port: int, local_port: int, n_values: int, codec: Codec,
                 signals: tuple[bytes, str], heartbeat: float = 0.0):
        self.name, self.host, self.port, self.local_port, self.n_values = name, host, port, local_port, n_values
        self.codec, self.signals, self.heartbeat = codec, signals, heartbeat
        self._beats: threading.Event | None = None  # set to stop the heartbeat's thread
        self._beating_thread: threading.Thread | None = None
        self._last_sent = 0.0
        self.heartbeats = 0
        self.address = f"udp://[{host}]:{port}" if ":" in host else f"udp://{host}:{port}"
        self.sock = None
        self.peer = None
        self.run = 0
        self.used = False  # whether a request was sent in this run
        self.welcomed = False  # whether the peer welcomed this run
        self._hellos: set[int] = set()  # the nonces of the hellos sent in this run
        #: datagrams ignored: not of the packet layout (of which, by version,
        #: those of another version from the peer), of it but not tagged with
        #: the key, or not an answer of this run from the peer
        self.malformed = self.forged = self.unasked = 0
        self.versions: dict[int, int] = {}

    def open(self) -> None:
        if self.sock is not None:
            return
        try:
            infos = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_DGRAM)
        except (OSError, UnicodeError) as exc:
            raise BridgeError(f"{self.name}: the peer's host {self.host!r} cannot be resolved "
                              f"({getattr(exc, 'strerror', None) or exc})") from None
        # a name such as localhost may resolve to ::1 first while rigs listen on IPv4
        family, _, _, _, addr = sorted(infos, key=lambda i: i[0] != socket.AF_INET)[0]
        sock = socket.socket(family, socket.SOCK_DGRAM)
        try:
            local = local_address(family, addr, self.local_port)
            sock.bind(local)
        except OSError as exc:
            sock.close()
            what = f"local UDP port {self.local_port}" if self.local_port else "a local UDP port"
            raise BridgeError(f"{self.name}: {what} on the address that reaches the peer at {self.address} cannot "
                              f"be used ({exc.strerror or exc})") from None
        self.sock, self.peer = sock, addr[:2]
        self.run = secrets.randbelow(2 ** 32 - 1) + 1
        self.used = self.welcomed = False
        self._hellos.clear()
        if self.heartbeat > 0:
            self._beats = threading.Event()
            self._beating_thread = threading.Thread(target=self._beating, args=(sock, self._beats), daemon=True,
                                                    name=f"{self.name} heartbeat")
            self._beating_thread.start()

    def _beating(self, sock, stop: threading.Event) -> None:
        """The heartbeat's thread, until ``stop`` is set: a heartbeat when
        the run is welcomed and nothing was sent for :attr:`heartbeat`
        seconds (the master paused), so that a device watching the link
        knows the master is there."""
        while not stop.wait(self.heartbeat / 4):
            if self.welcomed and time.monotonic() - self._last_sent >= self.heartbeat:
                try:
                    sock.sendto(self.codec.pack(HEARTBEAT, self.run, 0, 0.0, nonce=new_nonce()), self.peer)
                except OSError:  # closed meanwhile, or the network gone: the requests will say so
                    return
                self._last_sent = time.monotonic()
                self.heartbeats += 1

    @property
    def local(self):
        """``(address, port)`` the socket is bound to, or None."""
        return None if self.sock is None else self.sock.getsockname()[:2]

    def close(self, seq: int) -> None:
        sock, self.sock = self.sock, None
        if sock is None:
            return
        if self._beats is not None:  # stopped before the socket closes: no thread of ours outlives the run
            self._beats.set()
            self._beating_thread.join()
        try:
            if self.used:  # so that a peer serving this run may serve the next at once
                sock.sendto(self.codec.pack(END, self.run, seq, 0.0, nonce=new_nonce()), self.peer)
        except OSError:
            pass
        finally:
            sock.close()

    def send(self, packet: bytes) -> None:
        """Send ``packet``, after a hello while the peer has not welcomed
        the run (a lost hello is sent again with the request sent again)."""
        if self.sock is None:
            self.open()
        try:
            if not self.welcomed:
                nonce = new_nonce()
                self._hellos.add(nonce)
                digest, text = self.signals
                self.sock.sendto(self.codec.pack(HELLO, self.run, 0, 0.0, attempt=len(self._hellos) - 1,
                                                 nonce=nonce, payload=digest + text.encode()), self.peer)
            self.sock.sendto(packet, self.peer)
            self._last_sent = time.monotonic()
        except OSError as exc:
            raise BridgeError(f"{self.name}: a request cannot be sent to the peer at {self.address} "
                              f"({exc.strerror or exc})") from None
        self.used = True

    def receive(self, wait: float):
        """The next answer of this run from the peer (a
        :class:`~packet.Packet`), waiting up to ``wait`` [s] (0: only
        one already arrived), or None; the peer's welcome to one of the
        run's hellos is noted, its refusal raises :class:`BridgeError`
        naming the signals that differ; anything else is counted."""
        sock = self.sock
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
            try:
                packet = self.codec.unpack(data, self.n_values)
            except PacketError as exc:
                if exc.forged:
                    self.forged += 1
                    continue
                self.malformed += 1
                if exc.version is not None and addr[:2] == self.peer:
                    self.versions[exc.version] = self.versions.get(exc.version, 0) + 1
                continue
            if addr[:2] != self.peer or packet.run != self.run:
                self.unasked += 1
            elif packet.kind == ANSWER:
                return packet
            elif packet.kind in (WELCOME, REFUSAL) and packet.nonce in self._hellos:
                if packet.kind == REFUSAL:
                    self._refused(packet.payload)
                self.welcomed = True
            else:
                self.unasked += 1

    def _refused(self, payload: bytes):
        digest, text = self.signals
        theirs = payload[len(digest):].decode("utf-8", "replace")
        raise BridgeError(f"{self.name}: the peer at {self.address} refused the run: its signals are not this "
                          f"bridge's ({difference(text, theirs)}); the bridge and its peer must exchange the same "
                          f"signals, with the same names, units and order (docs/in_the_loop.md)")
