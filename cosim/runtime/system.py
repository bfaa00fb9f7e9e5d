"""System description: components (FMUs with parameter values) and
connections, the experiment, and a small builder API.

>>> s = System("CraneOnVessel", stop_time=20.0, step=1e-3)
>>> s.add_component("vessel", "fmus/Vessel.fmu", m=1200.0)
>>> s.add_component("crane", "fmus/Crane.fmu")
>>> s.connect("vessel.mount_w_x", "crane.mount_w_x")

Paths of component sources are relative to ``base_dir`` (the folder of the
``.ssd`` file) unless absolute.  Read and write SSP 1.0 with
:mod:`crane_cosim.files.ssp`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CraneCosimError
from .recording import check_every

ALGORITHMS = ("jacobi", "gauss-seidel", "iterated-midpoint", "iterated-quadratic")
#: the algorithms that step components again (re-step passes)
ITERATED = ("iterated-midpoint", "iterated-quadratic")
COUPLINGS = ("inertia", "explicit")
EXTRAPOLATIONS = ("midpoint", "none")


@dataclass
class Component:
    name: str
    source: str
    parameters: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Connection:
    start_element: str
    start_connector: str
    end_element: str
    end_connector: str

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
    #: algorithms (``master.IteratedMidpoint``); ``None``: until the values
    #: read from them settle (at most ``master.MAX_PASSES``).  The other algorithms step each
    #: component once and do not read it.
    iterations: int | None = None
    base_dir: Path = field(default_factory=Path.cwd)
    #: what a run writes to results.csv: the outputs matching these
    #: ``component.variable`` patterns (shell wildcards; ``None``: all), at
    #: every ``record_every``-th communication point and the last one
    #: (``cosim/recording.py``).  Not stored in the ``.ssd`` file.
    record: list | None = None
    record_every: int = 1

    # -- builder -------------------------------------------------------------
    def add_component(self, name: str, source, **parameters) -> Component:
        if any(c.name == name for c in self.components):
            raise CraneCosimError(f"system {self.name!r} already has a component named {name!r}")
        comp = Component(name, str(source), dict(parameters))
        self.components.append(comp)
        return comp

    def connect(self, start: str, end: str) -> Connection:
        """Connect output ``"component.variable"`` to input ``"component.variable"``."""
        (se, sc), (ee, ec) = _split(start), _split(end)
        conn = Connection(se, sc, ee, ec)
        self.connections.append(conn)
        return conn

    def component(self, name: str) -> Component:
        for c in self.components:
            if c.name == name:
                return c
        raise CraneCosimError(f"system {self.name!r} has no component named {name!r} "
                              f"(components: {', '.join(c.name for c in self.components)})")

    def replace(self, name: str, source) -> Component:
        """Swap component ``name`` for the FMU ``source`` (relative to
        ``base_dir`` unless absolute), keeping its connections and
        parameters.  Raises :class:`CraneCosimError` naming every connection
        or parameter the new FMU cannot take (name, causality, unit), and
        leaves the system as it was (``docs/swapping.md``)."""
        from .check import replace_component
        return replace_component(self, name, source)

    def source_path(self, comp: Component) -> Path:
        p = Path(comp.source)
        return p if p.is_absolute() else (Path(self.base_dir) / p)

    def set_parameter(self, target: str, value) -> None:
        """Set ``"component.parameter"`` to a number, true or false, or a text
        (a ``--set`` on the command line)."""
        comp, var = _split(target)
        self.component(comp).parameters[var] = value

    def check_settings(self) -> None:
        """Reject impossible experiment settings with one clear sentence."""
        if not self.step > 0:
            raise CraneCosimError(f"the step size must be positive, got {self.step:g} s")
        if not self.stop_time > self.start_time:
            raise CraneCosimError(f"the stop time {self.stop_time:g} s is not after the start time "
                                  f"{self.start_time:g} s")
        length = self.stop_time - self.start_time
        # a step beyond the run would be cut to the run's length while the
        # results and summary said otherwise; 1e-9 relative: a step written
        # as the run's length in decimal must pass
        if self.step > length * (1 + 1e-9):
            raise CraneCosimError(f"the step {self.step:g} s is longer than the run ({length:g} s, from "
                                  f"{self.start_time:g} s to {self.stop_time:g} s); choose a step of at most "
                                  f"{length:g} s or a later stop time")
        check_every(self.record_every)
        if self.algorithm not in ALGORITHMS:
            raise CraneCosimError(f"unknown algorithm {self.algorithm!r}; use one of {', '.join(ALGORITHMS)}")
        if self.coupling not in COUPLINGS:
            raise CraneCosimError(f"unknown coupling {self.coupling!r}; use one of {', '.join(COUPLINGS)}")
        if self.extrapolation not in EXTRAPOLATIONS:
            raise CraneCosimError(f"unknown input extrapolation {self.extrapolation!r}; use one of "
                                  f"{', '.join(EXTRAPOLATIONS)}")
        if self.iterations is not None and (isinstance(self.iterations, bool) or not isinstance(self.iterations, int)
                                            or self.iterations < 1):
            raise CraneCosimError(f"iterations must be a whole number of at least 1, got {self.iterations!r}")
        if self.algorithm in ITERATED and self.extrapolation != "none":
            raise CraneCosimError(f"the {self.algorithm} algorithm gives every input its mid-step value or "
                                  f"its quadratic over the step and takes no input extrapolation "
                                  f"({self.extrapolation!r}); use extrapolation none with it")


def _split(ref: str):
    comp, dot, var = str(ref).partition(".")
    if not dot or not comp or not var:
        raise CraneCosimError(f"{ref!r} is not of the form component.variable")
    return comp, var


def coupled_connections(system: System) -> list:
    """The connections a co-simulation with ``system.coupling`` uses.

    ``inertia``: as written.  ``explicit``: the plain exchange of wrench and
    motion; the articulated inertia ``I_A_*`` is not passed (those inputs keep
    their start value, zero) and every ``p_A_<c>`` input is fed instead from
    the ``W_mount_<c>`` output of the same component, the wrench itself
    (``docs/interfaces/mount.md``).
    """
    if system.coupling == "inertia":
        return list(system.connections)
    out = []
    for c in system.connections:
        if c.end_connector.startswith("I_A_"):
            continue
        if c.end_connector.startswith("p_A_") and c.start_connector.startswith("p_A_"):
            c = Connection(c.start_element, "W_mount_" + c.start_connector[4:], c.end_element, c.end_connector)
        out.append(c)
    return out
