"""A block whose outputs come from a DCP 1.0 slave over UDP/IPv4 (a device
that speaks DCP, or one of our blocks served by ``crane-cosim
dcp-slave``): it drives the slave as its master (``master.py``) in
non-real-time mode, in lock-step with the master of the system.

:func:`dcp_bridge_of` makes one with the ports of a slave description
(its inputs and outputs, every number a Real; its units where they are
ours, else none and the slave's unit named in the description), the
outputs' feedthrough from the description's run dependencies.  A bridge
FMU carries its spec (:func:`dcp_bridge_from_spec` makes the class again).

Its step from ``t`` over ``h`` sends the inputs and asks for a step of
``h / resolution`` resolutions, which must be whole (refused by name
otherwise); its outputs are those the slave sent at the end of the step.
Before the first step, its outputs are evaluated by the slave's
initialization with the inputs given (``STC_initialize``), as often as
the master's initial exchange asks.  After the run has started, a slave
evaluates its outputs only in its steps: new inputs at the same time
change nothing until the next step (DCP 1.0 has no evaluation without a
step).  A slave cannot be rolled back (``can_get_and_set_state`` false:
the iterated algorithms refuse the bridge by name).
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import ClassVar

import numpy as np

from ...blocks.block import Block, ParameterError, Variable
from ...blocks.units import UNITS
from .description import DescriptionError, SlaveDescription, description_xml, read_description_text
from .master import DcpMaster

__all__ = ["DcpBridge", "dcp_bridge_of", "dcp_bridge_from_spec", "DCP_COUNTERS"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: the DCP data types whose values an FMI Integer (32 bits, signed) holds
INTEGER_TYPES = ("int8", "int16", "int32", "uint8", "uint16")

DCP_PARAMETERS = (
    Variable("host", "", "", "Address of the DCP slave (default empty: its control host in the slave "
             "description)", type="String"),
    Variable("port", "1", 0.0, "UDP port of the slave's control endpoint, 1 to 65535 (default 0: the one in the "
             "slave description)"),
    Variable("local_port", "1", 0.0, "Local UDP port the bridge sends from and receives the slave's outputs on, "
             "on the local address that reaches the slave, 0 to 65535 (default 0: any free port)"),
    Variable("timeout", "s", 5.0, "The longest wait for any one answer of the slave: an acknowledgement, a state "
             "change, its outputs (default 5 s: a step of a slow model on a busy machine; the run fails after it, "
             "naming the slave)"),
)

DCP_COUNTERS = (
    Variable("dcp_steps", "1", 0.0, "Steps the slave did for the bridge (STC_do_step acknowledged)"),
    Variable("dcp_missed", "1", 0.0, "Data PDUs of the slave's outputs missed: gaps in their sequence numbers"),
    Variable("dcp_round_trip", "s", 0.0, "Wall time of the last step's exchange: inputs sent, step done, outputs "
             "received (0 before the first)"),
)


class DcpBridge(Block):
    """The base of every DCP bridge: its parameters, counters and master.
    Made with the ports of a slave by :func:`dcp_bridge_of`."""

    model_name = "DcpBridge"
    description = "Stands in for a DCP slave: drives it as its master over UDP/IPv4, in non-real-time lock-step."
    parameters = DCP_PARAMETERS
    outputs = DCP_COUNTERS
    states = ()
    networked = True
    can_get_and_set_state = False
    #: the spec the class was made from; None for the base
    bridge_spec: ClassVar[dict | None] = None
    slave: ClassVar[SlaveDescription | None] = None

    def setup(self):
        p, name, d = self.p, self.model_name, self.slave
        port = p.port or d.port
        if not (port == int(port) and 1 <= port <= 65535):
            raise ParameterError(f"{name} parameter port = {p.port:g} is invalid: it must be a whole number from 1 "
                                 f"to 65535 (0: the slave description's)")
        if not (p.local_port == int(p.local_port) and 0 <= p.local_port <= 65535):
            raise ParameterError(f"{name} parameter local_port = {p.local_port:g} is invalid: it must be a whole "
                                 f"number from 0 (any) to 65535")
        self.require_positive("timeout")
        self._master = DcpMaster(name, d, p.host.strip() or d.host, int(port), int(p.local_port), p.timeout)
        self._n = len(self.outputs) - len(DCP_COUNTERS)
        self._evaluated = None  # (t, inputs) the outputs were evaluated with before the run
        self._steps = 0

    def prepare(self) -> None:
        """Register and configure the slave (the FMU does it at
        initialization)."""
        self._master.open()

    def close(self) -> None:
        self._master.close()

    def advance(self, t, x, u, h):
        steps = steps_of(h, self.slave.resolution)
        if steps is not None and not self.slave.steps_allowed(steps):
            default, fixed, least, most = self.slave.nrt_steps
            allowed = f"{default} only" if fixed else f"{least} to {most}"
            raise ParameterError(f"{self.model_name}: a step of {h:g} s is {steps} of the DCP slave's time "
                                 f"resolution ({self.slave.resolution} s), and the slave takes steps of {allowed} "
                                 f"resolutions (its NonRealTime mode): choose a step it takes")
        if steps is None:
            raise ParameterError(f"{self.model_name}: a step of {h:g} s is not a whole number of the DCP slave's "
                                 f"time resolution, {float(self.slave.resolution):g} s "
                                 f"({self.slave.resolution} s): choose a step that is")
        if self._master.sock is None:
            self._master.open()
        self._master.step(np.asarray(u, dtype=float), steps)
        self._steps += 1
        return x

    def output(self, t, x, u):
        m = self._master
        key = (t, np.asarray(u, dtype=float).tobytes())
        if not m.running and self._evaluated != key:
            if m.sock is None:
                m.open()
            m.initialize(np.asarray(u, dtype=float))
            self._evaluated = key
        return np.concatenate([m.values, [self._steps, m.missed, m.round_trip]])


def steps_of(h: float, resolution: Fraction) -> int | None:
    """The whole number of ``resolution`` steps in ``h`` [s], or None when
    ``h`` is not one to round-off."""
    n = round(h / float(resolution))
    return n if n >= 1 and math.isclose(n * float(resolution), h, rel_tol=1e-9, abs_tol=0.0) else None


def _port(v, where: str) -> Variable:
    """The bridge's port of the slave's variable ``v``: an Integer for a DCP
    integer type an FMI Integer holds (int8 to int32, uint8, uint16; DCP 1.0
    has no boolean: a Boolean is sent as a uint8), a Real for the others."""
    unit = v.unit if v.unit in UNITS else ""
    described = v.description or f"{v.causality} {v.name} of the DCP slave"
    if v.unit and not unit:
        described += f" (unit {v.unit} in the slave description)"
    if not math.isfinite(v.start):
        raise DescriptionError(f"{where}: variable {v.name} starts at {v.start!r}, not a finite number")
    if v.type in INTEGER_TYPES:
        if not float(v.start).is_integer():
            raise DescriptionError(f"{where}: variable {v.name} of type {v.type} starts at {v.start!r}, not a whole "
                                   f"number")
        return Variable(v.name, unit, int(v.start), described, type="Integer")
    return Variable(v.name, unit, float(v.start), described)


def dcp_bridge_of(d: SlaveDescription, model_name: str | None = None, where: str = "the slave description"):
    """A :class:`DcpBridge` subclass for the slave ``d``, named
    ``model_name`` (default: the slave's name); :class:`DescriptionError`
    for a name that is not an identifier or a variable named like one of
    the bridge's own."""
    model_name = model_name or d.name
    if not _NAME.match(model_name):
        raise DescriptionError(f"{where}: the bridge's name {model_name!r} is not an identifier (letters, digits "
                               f"and underscores, not starting with a digit): give one (--name)")
    taken = {v.name for v in DCP_PARAMETERS + DCP_COUNTERS}
    for v in d.variables:
        if v.causality in ("input", "output") and (v.name in taken or not _NAME.match(v.name)):
            raise DescriptionError(f"{where}: variable {v.name} cannot be a port of the bridge: "
                                   + ("it is the name of the bridge's own parameter or counter" if v.name in taken
                                      else "its name is not an identifier"))
    inputs = tuple(_port(v, where) for v in d.of("input"))
    outputs = tuple(_port(v, where) for v in d.of("output"))
    name_of = {v.vr: v.name for v in d.of("input")}
    feedthrough = tuple((v.name, tuple(name_of[i] for i in v.depends_on if i in name_of))
                        for v in d.of("output") if v.depends_on is not None)
    spec = {"protocol": "dcp", "model_name": model_name, "slave_description": description_xml(d)}
    cls = type(model_name, (DcpBridge,), {
        "__module__": __name__, "__qualname__": model_name, "__doc__": DcpBridge.__doc__,
        "model_name": model_name, "description": f"Stands in for the DCP slave {d.name} (DCP 1.0, UDP/IPv4, "
                                                 f"non-real-time lock-step).",
        "inputs": inputs, "outputs": outputs + DCP_COUNTERS, "slave": d, "bridge_spec": spec,
        "feedthrough": tuple((c.name, ()) for c in DCP_COUNTERS) + feedthrough})
    cls.output_dependencies()
    return cls


def dcp_bridge_from_spec(spec: dict):
    """The DCP bridge class described by ``spec`` (its ``bridge_spec``, as
    a bridge FMU carries it)."""
    try:
        text, name = spec["slave_description"], spec["model_name"]
    except (KeyError, TypeError) as exc:
        raise ValueError(f"DCP bridge spec is incomplete ({exc})") from None
    return dcp_bridge_of(read_description_text(text, f"the slave description of {name}"), name)
