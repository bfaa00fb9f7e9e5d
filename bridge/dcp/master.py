"""The master's side of DCP 1.0 for one slave over UDP/IPv4, in
non-real-time mode, lock-step: what a DCP bridge (``dcp_bridge.py``)
drives its device with.

The master registers the slave (its uuid and DCP 1.0), configures it
(its time resolution, one data stream of all its inputs from the master
and one of all its outputs to the master, both in the scope of
initialization and run), and takes it to CONFIGURED.  Then
:meth:`DcpMaster.initialize` sends the inputs and has the outputs
evaluated (``STC_initialize``, ``STC_send_outputs``), as often as the
master's initial exchange asks; :meth:`DcpMaster.step` sends the inputs,
asks for a step of a whole number of resolutions (``STC_do_step``) and
waits for the outputs at its end (``STC_send_outputs``); the first step
starts the run (``STC_run`` twice: synchronizing, running).
:meth:`DcpMaster.close` stops and deregisters the slave.  A negative
acknowledgement, a slave in a state the exchange does not expect, or
silence for ``timeout`` fails in one sentence naming the slave, the PDU
and DCP's error.  Standard library and numpy only.
"""
from __future__ import annotations

import os
import socket
import time

from ..link import local_address
from . import pdu as P
from .description import SlaveDescription

__all__ = ["DcpMaster", "DcpError"]

_IN, _OUT = 1, 2  # the data ids of the inputs' stream and the outputs'
_ID = 1  # the slave's DCP id (one slave per master)


class DcpError(ValueError):
    """A DCP slave that refused, stopped answering or went astray."""


class DcpMaster:
    """The master of the slave ``d`` (its description) reached at
    ``host``:``port``, from ``local_port`` on the local address that
    reaches it (0: any free port); ``timeout`` [s]: the longest wait for
    any one answer."""

    def __init__(self, name: str, d: SlaveDescription, host: str, port: int, local_port: int = 0,
                 timeout: float = 5.0):
        self.name, self.d, self.timeout = name, d, timeout
        self.address = (host, port)
        self.inputs, self.outputs = d.of("input"), d.of("output")
        self.sock = None
        self.seq = 0
        self.state = None
        self.running = False
        self.data_seq = 0
        self.values = [v.start for v in self.outputs]
        self.fresh = False
        self.missed = 0
        self._heard = None
        self.round_trip = 0.0
        self.local_port = local_port

    # -- the socket -----------------------------------------------------------------------------------
    def open(self) -> None:
        """Bind the socket and take the slave to CONFIGURED."""
        if self.sock is not None:
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.bind(local_address(socket.AF_INET, self.address, self.local_port))
        except OSError as exc:
            sock.close()
            raise DcpError(f"{self.name}: no UDP socket reaches the DCP slave at {self._where()} "
                           f"({exc.strerror or exc})") from None
        self.sock = sock
        self.seq = int.from_bytes(os.urandom(2), "little")
        self.state = P.ALIVE
        self._configure()

    def _where(self) -> str:
        return f"udp://{self.address[0]}:{self.address[1]}"

    def _send(self, pdu_type: int, payload: bytes = b"", **fields) -> int:
        if pdu_type != P.DAT_INPUT_OUTPUT:
            self.seq = (self.seq + 1) & 0xFFFF
            fields = {"seq": self.seq, "receiver": _ID, **fields}
        self.sock.sendto(P.encode(pdu_type, payload, **fields), self.address)
        return self.seq

    def _expect(self, seq: int, what: str, *states: int, data: bool = False) -> None:
        """Wait for the acknowledgement of PDU ``seq`` (``what``), the
        notifications of ``states`` in turn and, with ``data``, the
        outputs' data PDU."""
        acked = False
        pending = list(states)
        deadline = time.monotonic() + self.timeout
        self.fresh = False
        while not acked or pending or (data and not self.fresh):
            left = deadline - time.monotonic()
            if left <= 0:
                waited = "its acknowledgement" if not acked else (
                    f"its state {P.state_name(pending[0])}" if pending else "its outputs")
                raise DcpError(f"{self.name}: the DCP slave at {self._where()} did not answer {what} within "
                               f"{self.timeout:g} s (waited for {waited}; its last state "
                               f"{P.state_name(self.state)})")
            self.sock.settimeout(left)
            try:
                raw, addr = self.sock.recvfrom(65536)
            except TimeoutError:
                continue
            except ConnectionResetError:  # Windows: an earlier PDU found no one listening
                continue
            try:
                p = P.decode(raw)
            except P.PduError:
                continue
            if p.type == P.RSP_ACK and p.resp_seq == seq:
                acked = True
            elif p.type == P.RSP_NACK and p.resp_seq == seq:
                raise DcpError(f"{self.name}: the DCP slave at {self._where()} refused {what}: "
                               f"{P.error_name(p.error)} (in state {P.state_name(self.state)})")
            elif p.type == P.NTF_STATE_CHANGED:
                self.state = p.state
                if pending and p.state == pending[0]:
                    pending.pop(0)
                elif p.state in (P.ERROR_HANDLING, P.ERROR_RESOLVED, P.ALIVE) and P.ALIVE not in states:
                    why = "" if p.state == P.ALIVE else ": it failed (its own log says why)"
                    raise DcpError(f"{self.name}: the DCP slave at {self._where()} went to "
                                   f"{P.state_name(p.state)} during {what}{why}")
            elif p.type == P.DAT_INPUT_OUTPUT and p.data_id == _OUT:
                self._take(p)

    def _take(self, p) -> None:
        try:
            self.values = [float(v) for v in P.unpack_values(p.payload, [v.type_code for v in self.outputs])]
        except P.PduError:
            return
        if self._heard is not None and (p.seq - self._heard) & 0xFFFF != 1:
            self.missed += 1
        self._heard = p.seq
        self.fresh = True

    # -- the exchanges ------------------------------------------------------------------------------
    def _configure(self) -> None:
        d = self.d
        seq = self._send(P.STC_REGISTER, state=P.ALIVE, uuid=d.uuid_bytes,
                         op_mode=P.NRT, major=1, minor=0)
        self._expect(seq, "its registration (STC_register)", P.CONFIGURATION)
        local_ip, local_port = self.sock.getsockname()[:2]
        pdus = [(P.CFG_TIME_RES, {"numerator": d.resolution.numerator, "denominator": d.resolution.denominator})]
        for pos, v in enumerate(self.inputs):
            pdus.append((P.CFG_INPUT, {"data_id": _IN, "pos": pos, "vr": v.vr, "source_type": v.type_code}))
        if self.inputs:
            pdus += [(P.CFG_SCOPE, {"data_id": _IN, "scope": P.SCOPE_INITIALIZATION_RUN_NRT}),
                     (P.CFG_SOURCE_NETWORK_INFORMATION, {"data_id": _IN, "protocol": P.UDP_IPV4,
                                                         "port": d.data_port(), "ip": P.ip_to_int(self.address[0])})]
        for pos, v in enumerate(self.outputs):
            pdus.append((P.CFG_OUTPUT, {"data_id": _OUT, "pos": pos, "vr": v.vr}))
        if self.outputs:
            pdus += [(P.CFG_SCOPE, {"data_id": _OUT, "scope": P.SCOPE_INITIALIZATION_RUN_NRT}),
                     (P.CFG_STEPS, {"data_id": _OUT, "steps": 1}),
                     (P.CFG_TARGET_NETWORK_INFORMATION, {"data_id": _OUT, "protocol": P.UDP_IPV4,
                                                         "port": local_port, "ip": P.ip_to_int(local_ip)})]
        for pdu_type, fields in pdus:
            self._expect(self._send(pdu_type, **fields), P.TYPES[pdu_type])
        self._expect(self._send(P.STC_PREPARE, state=P.CONFIGURATION), "STC_prepare", P.PREPARING, P.PREPARED)
        self._expect(self._send(P.STC_CONFIGURE, state=P.PREPARED), "STC_configure", P.CONFIGURING,
                     P.CONFIGURED)

    def _send_inputs(self, u) -> None:
        """Send the inputs ``u``; :class:`DcpError` naming the first that its
        DCP data type cannot hold (the slave would read another number)."""
        for v, value in zip(self.inputs, u):
            why = P.unfit(float(value), v.type_code)
            if why:
                raise DcpError(f"{self.name}: input {v.name} = {why} (its data type in the slave description)")
        if self.inputs:
            self.data_seq = (self.data_seq + 1) & 0xFFFF
            self._send(P.DAT_INPUT_OUTPUT, P.pack_values(u, [v.type_code for v in self.inputs]),
                       seq=self.data_seq, data_id=_IN)

    def initialize(self, u) -> list[float]:
        """The outputs the slave evaluates with the inputs ``u`` before the
        run (in CONFIGURED)."""
        self._send_inputs(u)
        self._expect(self._send(P.STC_INITIALIZE, state=P.CONFIGURED), "STC_initialize", P.INITIALIZING,
                     P.INITIALIZED)
        self._expect(self._send(P.STC_SEND_OUTPUTS, state=P.INITIALIZED), "STC_send_outputs", P.CONFIGURED,
                     data=bool(self.outputs))
        return self.values

    def step(self, u, steps: int) -> list[float]:
        """The outputs at the end of a step of ``steps`` resolutions with
        the inputs ``u`` held."""
        if not self.running:
            self._expect(self._send(P.STC_RUN, state=P.CONFIGURED, start_time=0), "STC_run", P.SYNCHRONIZING,
                         P.SYNCHRONIZED)
            self._expect(self._send(P.STC_RUN, state=P.SYNCHRONIZED, start_time=0), "STC_run", P.RUNNING)
            self.running = True
        start = time.monotonic()
        self._send_inputs(u)
        self._expect(self._send(P.STC_DO_STEP, state=P.RUNNING, steps=steps), "STC_do_step", P.COMPUTING,
                     P.COMPUTED)
        self._expect(self._send(P.STC_SEND_OUTPUTS, state=P.COMPUTED), "STC_send_outputs", P.RUNNING,
                     data=bool(self.outputs))
        self.round_trip = time.monotonic() - start
        return self.values

    def close(self) -> None:
        """Stop and deregister the slave (as far as it answers), and close
        the socket."""
        sock = self.sock
        if sock is None:
            return
        try:
            if self.state == P.ERROR_HANDLING:  # the slave failed, and resolves it: it says so next
                self.state = P.ERROR_RESOLVED
            if self.state not in (P.ALIVE, P.CONFIGURATION, P.STOPPED, P.ERROR_RESOLVED):
                self._expect(self._send(P.STC_STOP, state=self.state), "STC_stop", P.STOPPED)
            if self.state in (P.CONFIGURATION, P.STOPPED, P.ERROR_RESOLVED):
                self._expect(self._send(P.STC_DEREGISTER, state=self.state), "STC_deregister", P.ALIVE)
        except (DcpError, OSError):
            pass  # a slave gone or astray at the end: the run's results are whole already
        finally:
            self.sock = None
            sock.close()
