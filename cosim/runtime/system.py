"""System description: components (FMUs with parameter values) and
connections, the experiment, and a small builder API.

>>> s = System("CraneOnVessel", stop_time=20.0, step=1e-3)
>>> s.add_component("vessel", "fmus/Vessel.fmu", m=1200.0)
>>> s.add_component("crane", "fmus/Crane.fmu")
>>> s.connect("vessel.mount_w_x", "crane.mount_w_x")

Paths of component sources are relative to ``base_dir`` (the folder of the
``.ssd`` file) unless absolute.  Read and write SSP 1.0 with
:mod:`crane_cosim.ssp`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CraneCosimError, did_you_mean


@dataclass(frozen=True)
class Connector:
    """What a system file declares of a component's variable (SSP 1.0
    ``ssd:Connector``): ``kind`` (``input``, ``output``, ``parameter`` ...),
    ``type`` (``Real``, ``Integer``, ``Boolean``, ``String``,
    ``Enumeration``, or None when not declared) and ``unit`` (a unit's
    name, or None).  The plan checks them against the FMU's own
    description."""
    kind: str
    type: str | None = None
    unit: str | None = None


@dataclass
class Component:
    """An FMU of the system: ``source``, its path (relative to the system's
    ``base_dir`` unless absolute); ``parameters``: the values set before
    the run, by variable name; ``step`` [s]: its own communication step, a
    multiple of the system's (None: the system's); ``connectors``: variable
    name -> :class:`Connector`, as a system file declares them (empty for a
    system built in Python: the FMU's description is the interface)."""
    name: str
    source: str
    parameters: dict = field(default_factory=dict)
    step: float | None = None
    connectors: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Connection:
    """An output that drives an input.  ``transformation``: what the
    connection does to the value on its way (``runtime/transformations.py``:
    a ``Linear`` or a ``Mapping``), None for nothing; a Real between two
    units of one dimension is converted first, unless
    ``suppress_unit_conversion`` (SSP 1.0's ``suppressUnitConversion``)."""
    start_element: str
    start_connector: str
    end_element: str
    end_connector: str
    transformation: object = None
    suppress_unit_conversion: bool = False

    def __str__(self):
        return f"{self.start_element}.{self.start_connector} -> {self.end_element}.{self.end_connector}"


@dataclass
class System:
    name: str
    components: list = field(default_factory=list)
    connections: list = field(default_factory=list)
    start_time: float = 0.0
    stop_time: float = 10.0
    step: float = 1e-3
    algorithm: str = "jacobi"
    coupling: str = "inertia"
    extrapolation: str = "none"
    #: re-step passes of the iterated-midpoint and iterated-quadratic
    #: algorithms (``runtime/algorithms/midpoint.py``); ``None``: until the
    #: values read from them settle (at most ``MAX_PASSES``).  The other
    #: algorithms step each component once and do not read it.
    iterations: int | None = None
    base_dir: Path = field(default_factory=Path.cwd)
    #: what reading the system file noted (a default it took), which ``check`` shows
    notes: list = field(default_factory=list)

    # -- builder -------------------------------------------------------------
    def add_component(self, name: str, source, **parameters) -> Component:
        """Add the FMU ``source`` as component ``name`` with ``parameters``;
        its own step, if any, is the returned component's ``step``."""
        if any(c.name == name for c in self.components):
            raise CraneCosimError(f"system {self.name!r} already has a component named {name!r}")
        comp = Component(name, str(source), dict(parameters))
        self.components.append(comp)
        return comp

    def connect(self, start: str, end: str, transformation=None, suppress_unit_conversion: bool = False) -> Connection:
        """Connect output ``"component.variable"`` to input ``"component.variable"``,
        the value transformed on its way as ``transformation`` says
        (:class:`Connection`)."""
        (se, sc), (ee, ec) = _split(start), _split(end)
        conn = Connection(se, sc, ee, ec, transformation, suppress_unit_conversion)
        self.connections.append(conn)
        return conn

    def component(self, name: str) -> Component:
        for c in self.components:
            if c.name == name:
                return c
        names = [c.name for c in self.components]
        raise CraneCosimError(f"system {self.name!r} has no component named {name!r}"
                              f"{did_you_mean(name, names) or ' (components: ' + ', '.join(names) + ')'}")

    def source_path(self, comp: Component) -> Path:
        p = Path(comp.source)
        return p if p.is_absolute() else (Path(self.base_dir) / p)

    def set_parameter(self, target: str, value) -> None:
        """Set ``"component.parameter"`` to a number, true or false, or a text
        (a ``--set`` on the command line)."""
        comp, var = _split(target)
        self.component(comp).parameters[var] = value


def _split(ref: str):
    comp, dot, var = str(ref).partition(".")
    if not dot or not comp or not var:
        raise CraneCosimError(f"{ref!r} is not of the form component.variable")
    return comp, var
