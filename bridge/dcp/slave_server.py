"""A DCP slave (``slave.py``) on UDP/IPv4 (``crane-cosim dcp-slave``): its
control socket, a socket for each further port the master tells it to
receive data on, and the clock of the soft-real-time mode.

Every PDU goes out of the control socket, as DCPLib's UDP driver sends
them; acknowledgements and notifications go to the master that
registered the slave, data to the targets the master configured.
"""
from __future__ import annotations

import json
import select
import socket
import time
from dataclasses import asdict, dataclass
from typing import Callable

from .description import description_of, description_xml
from .slave import Slave

__all__ = ["SlaveServer", "SlaveStats"]


@dataclass
class SlaveStats:
    """What a slave did: PDUs ``received`` (data included), ``sent``,
    ``refused`` (answered with a negative acknowledgement), ``steps`` of
    its resolution done, data PDUs ``missed`` (a gap in a stream's
    sequence numbers), ``late`` soft-real-time steps (done more than a
    resolution after their due time)."""
    model: str
    address: str
    received: int = 0
    sent: int = 0
    refused: int = 0
    steps: int = 0
    missed: int = 0
    late: int = 0

    def summary(self) -> str:
        return (f"DCP slave {self.model} on {self.address}: {self.received} PDUs received, {self.sent} sent, "
                f"{self.refused} refused; {self.steps} steps of its resolution, {self.missed} data PDUs missed, "
                f"{self.late} real-time steps late")

    def write(self, path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(asdict(self), f, indent=1)


class SlaveServer:
    """``block_cls`` served as a DCP slave on UDP ``host``:``port`` (0: a
    port the system chooses; :attr:`port` says which), its parameters
    ``values``; ``record(t, u, y)`` is told every evaluation of its
    outputs, ``on_notice`` every PDU refused, with why."""

    def __init__(self, block_cls, host: str = "127.0.0.1", port: int = 0, values: dict | None = None,
                 record=None, on_notice: Callable[[str], None] | None = None):
        self.control = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.control.bind((host, port))
        except OSError:
            self.control.close()
            raise
        self.host, self.port = self.control.getsockname()[:2]
        self.description = description_of(block_cls, self.host, self.port)
        self.slave = Slave(block_cls, self.description, values, record)
        self.stats = SlaveStats(block_cls.model_name, f"udp://{self.host}:{self.port}")
        self.on_notice = on_notice
        self._sockets = {(self.host, self.port): self.control}

    def description_xml(self) -> str:
        return description_xml(self.description)

    def _open_data_sockets(self) -> None:
        for where in self.slave.ports_to_open() - set(self._sockets):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(where)
            self._sockets[where] = s

    def _send(self, out) -> None:
        for data, addr in out:
            try:
                self.control.sendto(data, addr)
                self.stats.sent += 1
            except OSError:  # the master's host is gone; its next PDU, or none, will say so
                continue

    def run(self, stop: Callable[[], bool], poll: float = 0.1) -> SlaveStats:
        """Serve until ``stop()`` is true, looking at it at least every
        ``poll`` [s]."""
        slave, stats = self.slave, self.stats
        while not stop():
            now = time.monotonic()
            due = slave.next_due()
            wait = poll if due is None else min(poll, max(0.0, due - now))
            ready, _, _ = select.select(list(self._sockets.values()), [], [], wait)
            for s in ready:
                try:
                    data, addr = s.recvfrom(65536)
                except OSError:
                    continue
                stats.received += 1
                self._send(slave.handle(data, addr, time.monotonic()))
                self._open_data_sockets()
            self._send(slave.tick(time.monotonic()))
            stats.steps, stats.missed, stats.late, stats.refused = (slave.steps_done, slave.missed, slave.late,
                                                                    slave.refused)
            if slave.notices:
                if self.on_notice is not None:
                    for message in slave.notices:
                        self.on_notice(message)
                slave.notices.clear()
        return stats

    def close(self) -> None:
        for s in self._sockets.values():
            s.close()
