"""One of our blocks as a DCP 1.0 slave: the state machine of DCP 1.0
(chapter 4, Figure 4.1 for the non-real-time and soft-real-time modes),
free of sockets; ``slave_server.py`` runs it on UDP.

:class:`Slave` takes each PDU with :meth:`Slave.handle` and returns what
to send where: the acknowledgement (or the negative one, with the DCP
error that names why), the state-changed notifications to the master, and
the data PDUs of its outputs.  It checks what DCPLib's slave checks (the
master's sequence numbers, the receiver, the state a state-changing PDU
names, the operating mode, the configuration's completeness at
``STC_prepare``).  The block is made at ``STC_configure`` with the values
given on the command line and those the master set (``CFG_parameter``);
its time starts at 0.  A step of ``n`` steps advances it by ``n`` times
the time resolution with the inputs held, as an FMU's ``doStep`` does,
and computes its outputs at the end of the step from the same inputs.
In soft real time :meth:`Slave.tick` does one step of the resolution each
time the clock has passed its due time, and sends each output data
stream every ``CFG_steps`` steps.
"""
from __future__ import annotations

import time
from fractions import Fraction

import numpy as np

from . import pdu as P
from .description import SlaveDescription

__all__ = ["Slave"]

# the states in which a PDU may come (DCPLib's stateChangePossible)
_RUNNING_STATES = {P.SYNCHRONIZING, P.SYNCHRONIZED, P.RUNNING}
_STOPPABLE = {P.PREPARING, P.PREPARED, P.CONFIGURING, P.CONFIGURED, P.INITIALIZING, P.INITIALIZED, P.SENDING_I,
              P.SYNCHRONIZING, P.SYNCHRONIZED, P.RUNNING, P.COMPUTING, P.COMPUTED, P.SENDING_D}
_CONFIG_PDUS = {P.CFG_TIME_RES, P.CFG_STEPS, P.CFG_INPUT, P.CFG_OUTPUT, P.CFG_CLEAR, P.CFG_SCOPE,
                P.CFG_TARGET_NETWORK_INFORMATION, P.CFG_SOURCE_NETWORK_INFORMATION, P.CFG_PARAMETER}
_ALLOWED = {
    P.STC_REGISTER: {P.ALIVE}, P.STC_DEREGISTER: {P.CONFIGURATION, P.STOPPED, P.ERROR_RESOLVED},
    P.STC_PREPARE: {P.CONFIGURATION},
    P.STC_CONFIGURE: {P.PREPARED}, P.STC_INITIALIZE: {P.CONFIGURED}, P.STC_RUN: {P.CONFIGURED, P.SYNCHRONIZED},
    P.STC_DO_STEP: _RUNNING_STATES, P.STC_SEND_OUTPUTS: {P.INITIALIZED, P.COMPUTED}, P.STC_STOP: _STOPPABLE,
    P.STC_RESET: {P.STOPPED, P.ERROR_RESOLVED}, **{t: {P.CONFIGURATION} for t in _CONFIG_PDUS}}
_DATA_STATES = {P.CONFIGURED, P.INITIALIZING, P.INITIALIZED, P.SENDING_I, P.SYNCHRONIZING, P.SYNCHRONIZED,
                P.RUNNING, P.COMPUTING, P.COMPUTED, P.SENDING_D, P.STOPPING, P.STOPPED}
# the source data types an input of each type takes (DCPLib's castAllowed): a float64 input takes any
# number that converts exactly, an int32 (our Integer) any integer of 16 bits or fewer and an int32, a
# uint8 (our Boolean) a uint8 only
_CASTS = {"float64": {0, 1, 2, 4, 5, 6, 8, 9}, "int32": {0, 1, 4, 5, 6}, "uint8": {0}}
_INIT, _RUN = {P.SCOPE_INITIALIZATION_RUN_NRT, P.SCOPE_INITIALIZATION}, {P.SCOPE_INITIALIZATION_RUN_NRT,
                                                                         P.SCOPE_RUN_NRT}


class _Refused(Exception):
    def __init__(self, error: str, why: str = ""):
        super().__init__(why or error)
        self.error = error


class Slave:
    """The slave of ``block_cls`` described by ``description``, its
    parameters ``values`` (name -> value) before the master's.  ``record``,
    if given, is called ``record(t, u, y)`` after every evaluation of the
    outputs.  :attr:`notices` gathers a sentence for each refused PDU."""

    def __init__(self, block_cls, description: SlaveDescription, values: dict | None = None, record=None):
        self.block_cls, self.d = block_cls, description
        self.values = dict(values or {})
        self.record = record
        self.by_vr = {v.vr: v for v in description.variables}
        self.inputs = description.of("input")
        self.outputs = description.of("output")
        self._input_at = {v.vr: i for i, v in enumerate(self.inputs)}
        self._output_at = {v.vr: i for i, v in enumerate(self.outputs)}
        self.notices: list[str] = []
        self.state, self.dcp_id, self.master, self.seq = P.ALIVE, 0, None, 0
        self.steps_done = 0
        self.missed = self.late = self.refused = 0
        self._clear()

    # -- configuration ------------------------------------------------------------------------------
    def _clear(self) -> None:
        self.op_mode = P.NRT
        self.resolution: Fraction | None = None
        self.in_cfg: dict[int, dict[int, tuple]] = {}   # data id -> pos -> (vr, source type)
        self.out_cfg: dict[int, dict[int, int]] = {}    # data id -> pos -> vr
        self.steps: dict[int, int] = {}
        self.scope: dict[int, int] = {}
        self.sources: dict[int, tuple] = {}             # data id -> (host, port) where it comes
        self.targets: dict[int, tuple] = {}             # data id -> (host, port) where it goes
        self.set_values: dict[str, float] = {}
        self.data_seq: dict[int, int] = {}
        self.heard_seq: dict[int, int] = {}
        self.block = self.x = None
        self.t = 0.0
        self.u = np.array([v.start for v in self.inputs], dtype=float)
        self.y = np.array([v.start for v in self.outputs], dtype=float)
        self.due: float | None = None  # the monotonic time [s] of the next soft-real-time step
        self.counters: dict[int, int] = {}
        self.last_exit = P.RUNNING

    def ports_to_open(self) -> set[tuple]:
        """The (host, port) where inputs come, other than the control socket's."""
        return {s for s in self.sources.values() if s[1] != self.d.port}

    # -- the PDUs -----------------------------------------------------------------------------------
    def handle(self, data: bytes, addr, now: float) -> list[tuple[bytes, tuple]]:
        """What to send, and where, for the datagram ``data`` from ``addr``
        (``now``: the monotonic clock [s], for a soft-real-time start)."""
        try:
            p = P.decode(data)
        except P.PduError as exc:
            if len(data) >= 4 and data[0] in P.TYPES and data[0] < 0x80 and self.state != P.ALIVE:
                seq = int.from_bytes(data[1:3], "little")
                self.seq = seq
                return [self._nack(seq, exc.error)]
            self._notice(f"a datagram from {addr[0]}:{addr[1]} ignored: {exc}")
            return []
        if p.type == P.DAT_INPUT_OUTPUT:
            self._data(p)
            return []
        if p.type >= 0x80 and p.type not in (P.INF_STATE, P.INF_ERROR, P.INF_LOG):
            return []  # responses and notifications are not a slave's to take
        if self.state != P.ALIVE and p.receiver != self.dcp_id:
            return []
        if p.type == P.STC_REGISTER:
            return self._register(p, addr)
        if self.state == P.ALIVE:
            return []
        diff = (p.seq - self.seq) & 0xFFFF
        self.seq = p.seq
        if diff != 1:
            return [self._nack(p.seq, P.error_code("INVALID_SEQUENCE_ID"))]
        if p.type == P.INF_STATE:
            return [(P.encode(P.RSP_STATE_ACK, resp_seq=p.seq, sender=self.dcp_id, state=self.state), self.master)]
        if p.type == P.INF_ERROR:
            return [(P.encode(P.RSP_ERROR_ACK, resp_seq=p.seq, sender=self.dcp_id, error=0), self.master)]
        if p.type not in _ALLOWED:
            return [self._nack(p.seq, P.error_code("NOT_SUPPORTED_PDU"))]
        if self.state not in _ALLOWED[p.type]:
            return [self._nack(p.seq, P.error_code("PROTOCOL_ERROR_PDU_NOT_ALLOWED_IN_THIS_STATE"))]
        if "state" in p.fields and p.state != self.state:
            return [self._nack(p.seq, P.error_code("INVALID_STATE_ID"))]
        ack = (P.encode(P.RSP_ACK, resp_seq=p.seq, sender=self.dcp_id), self.master)  # (deregistering forgets the id)
        try:
            follow = self._checked(p, now)
        except _Refused as exc:
            self._notice(f"{p.name} refused ({exc.error}){': ' + str(exc) if str(exc) != exc.error else ''}")
            return [self._nack(p.seq, P.error_code(exc.error))]
        except Exception as exc:  # the block failed, or gave an output its data type cannot hold
            return [ack] + self._failed(exc)
        return [ack] + follow

    def _failed(self, exc: Exception) -> list:
        """The block failed: said, the block dropped, and the slave through
        ERROR_HANDLING to ERROR_RESOLVED (DCP 1.0's error states, as
        DCPLib's gotoErrorHandling and gotoErrorResolved), from which the
        master resets or deregisters it."""
        self._notice(f"{self.block_cls.model_name} failed at t = {self.t:g} s: {exc}")
        self.block, self.due = None, None
        return self._notify(P.ERROR_HANDLING, P.ERROR_RESOLVED)

    def _nack(self, seq: int, error: int, sender: int | None = None, to=None):
        """The negative acknowledgement of PDU ``seq``: as DCPLib's slave,
        the next sequence number expected is the one after it."""
        self.refused += 1
        return (P.encode(P.RSP_NACK, resp_seq=seq, sender=self.dcp_id if sender is None else sender,
                         exp_seq=(seq + 1) & 0xFFFF, error=error), self.master if to is None else to)

    def _notice(self, message: str) -> None:
        self.notices.append(message)

    def _notify(self, *states: int) -> list:
        out = []
        for s in states:
            self.state = s
            out.append((P.encode(P.NTF_STATE_CHANGED, sender=self.dcp_id, state=s), self.master))
        return out

    def _register(self, p, addr):
        def nack(error):
            return [self._nack(p.seq, P.error_code(error), p.receiver, tuple(addr))]
        if self.state != P.ALIVE or p.state != P.ALIVE:
            return nack("INVALID_STATE_ID")
        if p.uuid != self.d.uuid_bytes:
            return nack("INVALID_UUID")
        if P.OP_MODES.get(p.op_mode) not in self.d.op_modes:
            return nack("INVALID_OP_MODE")
        if p.major != 1:
            return nack("INVALID_MAJOR_VERSION")
        if p.minor != 0:
            return nack("INVALID_MINOR_VERSION")
        self._clear()
        self.dcp_id, self.master, self.seq, self.op_mode = p.receiver, tuple(addr), p.seq, p.op_mode
        return [(P.encode(P.RSP_ACK, resp_seq=p.seq, sender=self.dcp_id), self.master)] + \
            self._notify(P.CONFIGURATION)

    def _checked(self, p, now: float) -> list:
        """Apply ``p``, allowed in this state; what follows its
        acknowledgement.  :class:`_Refused` for what cannot be."""
        t = p.type
        if t in _CONFIG_PDUS:
            self._configured(p)
            return []
        if t == P.STC_PREPARE:
            self._complete()
            return self._notify(P.PREPARING, P.PREPARED)
        if t == P.STC_CONFIGURE:
            self._make_block()
            return self._notify(P.CONFIGURING, P.CONFIGURED)
        if t == P.STC_INITIALIZE:
            self._evaluate()
            return self._notify(P.INITIALIZING, P.INITIALIZED)
        if t == P.STC_SEND_OUTPUTS:
            if self.state == P.INITIALIZED:
                return self._notify(P.SENDING_I) + self._sent(_INIT) + self._notify(P.CONFIGURED)
            return self._notify(P.SENDING_D) + self._sent(_RUN) + self._notify(self.last_exit)
        if t == P.STC_RUN:
            return self._run(p, now)
        if t == P.STC_DO_STEP:
            if self.op_mode != P.NRT:
                raise _Refused("NOT_SUPPORTED_PDU", "a step is asked in soft real time")
            self.last_exit = self.state
            out = self._notify(P.COMPUTING)
            self._step(p.steps)
            return out + self._notify(P.COMPUTED)
        if t == P.STC_STOP:
            self.due = None
            return self._notify(P.STOPPING, P.STOPPED)
        if t == P.STC_RESET:
            self._clear()
            return self._notify(P.CONFIGURATION)
        # STC_deregister
        out = self._notify(P.ALIVE)
        self._clear()
        self.dcp_id = 0
        return out

    def _configured(self, p) -> None:
        t = p.type
        if t == P.CFG_TIME_RES:
            if p.numerator == 0 or p.denominator == 0:
                raise _Refused("INVALID_TIME_RESOLUTION", "a time resolution of zero")
            res = Fraction(p.numerator, p.denominator)
            if self.d.fixed and res != self.d.resolution:
                raise _Refused("INVALID_TIME_RESOLUTION", f"{res} s, where the slave's is fixed at {self.d.resolution}")
            self.resolution = res
        elif t == P.CFG_STEPS:
            if p.steps == 0:
                raise _Refused("INVALID_STEPS", "zero steps")
            self.steps[p.data_id] = p.steps
        elif t == P.CFG_INPUT:
            v = self.by_vr.get(p.vr)
            if v is None or v.causality != "input":
                raise _Refused("INVALID_VALUE_REFERENCE", f"value reference {p.vr} is no input of the slave")
            if p.source_type not in _CASTS[v.type]:
                raise _Refused("INVALID_SOURCE_DATA_TYPE",
                               f"input {v.name} ({v.type}) cannot take {P.DATA_TYPES.get(p.source_type, ('?',))[0]}")
            self.in_cfg.setdefault(p.data_id, {})[p.pos] = (p.vr, p.source_type)
        elif t == P.CFG_OUTPUT:
            v = self.by_vr.get(p.vr)
            if v is None or v.causality != "output":
                raise _Refused("INVALID_VALUE_REFERENCE", f"value reference {p.vr} is no output of the slave")
            self.out_cfg.setdefault(p.data_id, {})[p.pos] = p.vr
        elif t == P.CFG_SCOPE:
            if p.scope > 2:
                raise _Refused("INVALID_SCOPE")
            self.scope[p.data_id] = p.scope
        elif t in (P.CFG_SOURCE_NETWORK_INFORMATION, P.CFG_TARGET_NETWORK_INFORMATION):
            if p.protocol != P.UDP_IPV4:
                raise _Refused("INVALID_TRANSPORT_PROTOCOL", "only UDP/IPv4 is spoken here")
            where = (P.int_to_ip(p.ip), p.port)
            if t == P.CFG_TARGET_NETWORK_INFORMATION:
                self.targets[p.data_id] = where
            elif not any(lo <= p.port <= hi for lo, hi in self.d.ports):
                raise _Refused("INVALID_NETWORK_INFORMATION", f"port {p.port} is not among the slave's data ports")
            else:
                self.sources[p.data_id] = where
        elif t == P.CFG_PARAMETER:
            v = self.by_vr.get(p.vr)
            if v is None or v.causality != "parameter":
                raise _Refused("INVALID_VALUE_REFERENCE", f"value reference {p.vr} is no parameter of the slave")
            if p.source_type not in _CASTS[v.type]:
                raise _Refused("INVALID_SOURCE_DATA_TYPE")
            try:
                (value,) = P.unpack_values(p.payload, [p.source_type])
            except P.PduError:
                raise _Refused("INVALID_LENGTH") from None
            self.set_values[v.name] = bool(value) if v.type == "uint8" else float(value)
        else:  # CFG_clear
            self._clear()

    def _complete(self) -> None:
        """Refuse ``STC_prepare`` for a configuration that is not whole."""
        for data_id, positions in self.in_cfg.items():
            if sorted(positions) != list(range(len(positions))):
                raise _Refused("INCOMPLETE_CONFIG_GAP_INPUT_POS", f"data id {data_id}")
        for data_id, positions in self.out_cfg.items():
            if sorted(positions) != list(range(len(positions))):
                raise _Refused("INCOMPLETE_CONFIG_GAP_OUTPUT_POS", f"data id {data_id}")
        for data_id in self.in_cfg:
            if data_id not in self.sources:
                raise _Refused("INCOMPLETE_CONFIG_NW_INFO_INPUT", f"data id {data_id}")
        for data_id in self.out_cfg:
            if data_id not in self.targets:
                raise _Refused("INCOMPLETE_CONFIG_NW_INFO_OUTPUT", f"data id {data_id}")
            if data_id not in self.steps:
                raise _Refused("INCOMPLETE_CONFIG_STEPS", f"data id {data_id}")
        if self.resolution is None:
            raise _Refused("INCOMPLETE_CONFIG_TIME_RESOLUTION")
        for data_id in (*self.in_cfg, *self.out_cfg):
            if data_id not in self.scope:
                raise _Refused("INCOMPLETE_CONFIG_SCOPE", f"data id {data_id}")

    # -- the block ----------------------------------------------------------------------------------
    def _make_block(self) -> None:
        try:
            self.block = self.block_cls(**{**self.values, **self.set_values})
            self.block.prepare()
            self.x = self.block.initial_state()
        except Exception as exc:  # a parameter the block refuses: said, and the configuration refused
            self.block = None
            raise _Refused("PROTOCOL_ERROR_GENERIC", f"{self.block_cls.model_name} refuses its parameters: {exc}")
        self.t, self.steps_done = 0.0, 0

    def _evaluate(self) -> None:
        with np.errstate(all="ignore"):
            self.y = np.asarray(self.block.output(self.t, self.x, self.u), dtype=float)
        if self.record is not None:
            self.record(self.t, self.u.copy(), self.y.copy())

    def _step(self, steps: int) -> None:
        h = float(steps * self.resolution)
        with np.errstate(all="ignore"):
            self.x = self.block.advance(self.t, self.x, self.u, h)
        self.steps_done += steps
        self.t = float(self.steps_done * self.resolution)
        self._evaluate()

    def _data(self, p) -> None:
        positions = self.in_cfg.get(p.data_id)
        if positions is None or self.state not in _DATA_STATES:
            return
        last = self.heard_seq.get(p.data_id)
        if last is not None and (p.seq - last) & 0xFFFF != 1:
            self.missed += 1
        self.heard_seq[p.data_id] = p.seq
        order = [positions[i] for i in range(len(positions))]
        try:
            values = P.unpack_values(p.payload, [src for _, src in order])
        except P.PduError as exc:
            self._notice(f"DAT_input_output of data id {p.data_id} ignored: {exc}")
            return
        for (vr, _), value in zip(order, values):
            self.u[self._input_at[vr]] = float(value)

    def _sent(self, scopes: set, data_ids=None) -> list:
        out = []
        for data_id, positions in sorted(self.out_cfg.items()):
            if self.scope.get(data_id) not in scopes or (data_ids is not None and data_id not in data_ids):
                continue
            vrs = [positions[i] for i in range(len(positions))]
            values = [float(self.y[self._output_at[vr]]) for vr in vrs]
            types = [self.by_vr[vr].type_code for vr in vrs]
            for vr, value, code in zip(vrs, values, types):
                why = P.unfit(value, code)
                if why:
                    raise ValueError(f"output {self.by_vr[vr].name} = {why}")
            payload = P.pack_values(values, types)
            seq = self.data_seq[data_id] = (self.data_seq.get(data_id, 0) + 1) & 0xFFFF
            out.append((P.encode(P.DAT_INPUT_OUTPUT, payload, seq=seq, data_id=data_id), self.targets[data_id]))
        return out

    # -- soft real time -----------------------------------------------------------------------------
    def _run(self, p, now: float) -> list:
        if self.state == P.SYNCHRONIZED:
            return self._notify(P.RUNNING)
        if self.op_mode == P.NRT:
            return self._notify(P.SYNCHRONIZING, P.SYNCHRONIZED)
        if p.start_time < 0:
            raise _Refused("INVALID_START_TIME", "a start time before the epoch")
        # the start time is Unix time [s] (0: at once); the steps' due times are kept on the monotonic clock
        self.due = now + max(0.0, p.start_time - time.time()) if p.start_time > 0 else now
        self.counters = {d: self.steps[d] for d in self.out_cfg if self.scope.get(d) in _RUN}
        return self._notify(P.SYNCHRONIZING, P.SYNCHRONIZED)

    def next_due(self) -> float | None:
        """The monotonic time [s] of the next soft-real-time step, or None."""
        return self.due if self.state in _RUNNING_STATES else None

    def tick(self, now: float) -> list:
        """The steps of the resolution whose due time has passed at ``now``
        (monotonic [s]), each with the outputs it sends; a step done more
        than a resolution after its due time is counted in :attr:`late`."""
        out = []
        while self.due is not None and now >= self.due and self.state in _RUNNING_STATES:
            period = float(self.resolution)
            if now - self.due > period:
                self.late += 1
            ready = set()
            for d in self.counters:
                self.counters[d] -= 1
                if self.counters[d] == 0:
                    self.counters[d] = self.steps[d]
                    ready.add(d)
            try:
                self._step(1)
                out += self._sent(_RUN, ready)
            except Exception as exc:  # as in handle
                return out + self._failed(exc)
            self.due += period
        return out

