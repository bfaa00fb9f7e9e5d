"""One run's options, validated once, whoever asks for the run: the command
line (``crane-cosim run``), the Python API (:func:`~crane_cosim.runtime.run.run_cosim`)
and a sweep's workers (each case a :class:`RunConfig`, carried to its
process as JSON).

    config = RunConfig(step=5e-4, algorithm="iterated-midpoint", values={"vessel.m": "1200"})
    system = config.applied_to(system)      # the system this run runs
    run_cosim(system, "results", config)

Options that the system file also holds (stop time, step, algorithm,
coupling, input extrapolation, re-step passes, a component's own step)
override the file's.  An algorithm chosen here does not inherit the file's
settings of another algorithm: with ``algorithm`` given and different from
the file's, the file's ``iterations`` and ``extrapolation`` are left out
(give them here too to keep them).  ``values`` are the ``--set`` values,
``component.variable`` to a value of the variable's type or a text read as
that type says (:func:`runtime.types.value_of`); ``replacements`` swap a
component for another FMU, every connection and value checked against it
(:mod:`runtime.plan`).
"""
from __future__ import annotations

import copy
import dataclasses
import json
import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CraneCosimError
from .observers.pacing import SPIN
from .recording import SIZE_LIMIT

__all__ = ["RunConfig", "SPIN"]


@dataclass(frozen=True)
class RunConfig:
    """Every option of a co-simulation run, each ``None`` (or empty) to keep
    the system file's or the default.

    ``start_time``, ``stop_time``, ``step`` [s]; ``algorithm``, ``coupling``,
    ``extrapolation``, ``iterations``: the master's settings
    (``docs/master.md``); ``component_steps``: component name -> its own
    communication step [s], a multiple of the step; ``values``:
    ``component.variable`` -> value (``--set``); ``replacements``: component
    name -> FMU path (``--replace``); ``record`` (patterns) and
    ``record_every``: what results.arrows holds; ``size_limit`` [bytes]:
    the largest results.arrows a run may write (None: no limit);
    ``real_time`` (factor), ``spin`` [s], ``rt_priority``: pacing to the
    wall clock; ``estimate``, ``tolerance``: the coupling error estimate
    and the step it chooses; ``accuracy``: the accuracy asked of the
    coupling, a fraction of each force's peak, to which the iterated
    algorithms' passes settle (to a hundredth of it; default: the tolerance,
    else 0.1%); ``progress``: a bar and words on stderr;
    ``replace_run``: an earlier run's files in the results folder are
    removed before this run starts (otherwise such a folder is refused, so
    that a folder never holds the files of two runs);
    ``processes``: each FMI 2.0 component runs in a process of its own
    (``fmus/portable.py``), so that one that crashes ends the run with a
    message, not the master; ``call_timeout`` [s]: then the longest one
    FMI call may take, once the components are initialized, before its
    process is killed and the run ends; ``timeout`` [s]: the wall-clock time
    the run may take from its set-up before it stops, its results so far
    on disk (:class:`~runtime.observers.deadline.Deadline`); ``fmi_logging``:
    the FMUs' own messages on stderr as they come
    (:class:`~runtime.observers.fmi_messages.FmiMessages`);
    ``relative_tolerance``: CVode's, for the Model Exchange FMUs the master
    integrates (default 1e-5, FMPy's; ``runtime/model_exchange.py``);
    ``scenario``: the path of a scenario file, whose events change values
    during the run (``runtime/scenario.py``); ``input_file``: the path of a
    CSV or Parquet table that drives inputs no connection drives
    (``runtime/input_table.py``)."""
    stop_time: float | None = None
    step: float | None = None
    start_time: float | None = None
    algorithm: str | None = None
    coupling: str | None = None
    extrapolation: str | None = None
    iterations: int | None = None
    component_steps: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    replacements: dict = field(default_factory=dict)
    record: tuple | None = None
    record_every: int | None = None
    size_limit: float | None = SIZE_LIMIT
    real_time: float | None = None
    spin: float = SPIN
    rt_priority: int | None = None
    estimate: bool = False
    tolerance: float | None = None
    accuracy: float | None = None
    progress: bool = True
    replace_run: bool = False
    processes: bool = False
    call_timeout: float | None = None
    timeout: float | None = None
    fmi_logging: bool = False
    relative_tolerance: float | None = None
    scenario: str | None = None
    input_file: str | None = None

    def __post_init__(self):
        # immutable views of the collections, whatever the caller passed
        object.__setattr__(self, "component_steps", dict(self.component_steps))
        object.__setattr__(self, "values", dict(self.values))
        object.__setattr__(self, "replacements", {k: str(v) for k, v in self.replacements.items()})
        if isinstance(self.record, str):
            object.__setattr__(self, "record", (self.record,))
        elif self.record is not None:
            object.__setattr__(self, "record", tuple(self.record))

    def replace(self, **changes) -> "RunConfig":
        return dataclasses.replace(self, **changes)

    # -- checks that need no system ------------------------------------------------
    def check(self) -> None:
        """Raise :class:`CraneCosimError` naming the first option that cannot
        be (a negative step, a tolerance of 2, ...)."""
        for name in ("start_time", "stop_time", "step"):  # their values against the system's: the plan's
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise CraneCosimError(f"--{name.replace('_', '-')} {value!r} is not a number of seconds")
            if value is not None and not math.isfinite(value):
                raise CraneCosimError(f"--{name.replace('_', '-')} {value!r} is not a finite number of seconds")
        for comp, h in self.component_steps.items():
            if not _real(h) or not h > 0:
                raise CraneCosimError(f"the step of component {comp}, {h!r}, must be a positive finite number "
                                      f"of seconds")
        if self.iterations is not None and (isinstance(self.iterations, bool)
                                            or not isinstance(self.iterations, numbers.Integral)
                                            or self.iterations < 1):
            raise CraneCosimError(f"iterations must be a whole number of at least 1, got {self.iterations!r}")
        if self.record_every is not None and (isinstance(self.record_every, bool)
                                              or not isinstance(self.record_every, numbers.Integral)
                                              or self.record_every < 1):
            raise CraneCosimError(f"--record-every must be a whole number of at least 1, got {self.record_every!r}")
        if self.record is not None and not self.record:
            raise CraneCosimError("the --record list is empty: give at least one component.variable pattern")
        if self.relative_tolerance is not None and (not _real(self.relative_tolerance)
                                                    or not 0 < self.relative_tolerance < 1):
            raise CraneCosimError(f"--relative-tolerance {self.relative_tolerance!r} must be a number between 0 and 1 "
                                  f"(1e-5, FMPy's default)")
        for name in ("tolerance", "accuracy"):
            value = getattr(self, name)
            if value is not None and (not _real(value) or not 0 < value < 1):
                raise CraneCosimError(f"the {name} {value!r} must be a fraction of peak between 0 and 1 "
                                      f"(1e-3 for 0.1%)")
        if self.real_time is not None:
            if not _real(self.real_time) or not self.real_time > 0:
                raise CraneCosimError(f"--real-time {self.real_time!r} is not a positive number (1 = real time, "
                                      f"2 = twice as fast)")
            if self.tolerance is not None:
                raise CraneCosimError("a tolerance may run the system again at a smaller step, which a run paced "
                                      "to real time cannot: leave out the tolerance or the real-time pacing")
            if not _real(self.spin) or not 0 <= self.spin < 1:
                raise CraneCosimError(f"--spin {self.spin!r} must be zero or a positive time below 1 s")
            if self.rt_priority is not None and not 1 <= self.rt_priority <= 99:
                raise CraneCosimError(f"--rt-priority {self.rt_priority} must be between 1 and 99")
        if self.input_file is not None and self.estimates:
            raise CraneCosimError("--estimate and --tolerance run the system again at half the step, which would not "
                                  "take the inputs of the file: leave out the estimate or the --input")
        if self.scenario is not None and self.estimates:
            raise CraneCosimError("--estimate and --tolerance run the system again at half the step, which would not "
                                  "act out the scenario: leave out the estimate or the scenario")
        if self.timeout is not None and (not _real(self.timeout) or not self.timeout > 0):
            raise CraneCosimError(f"--timeout {self.timeout!r} is not a positive number of seconds")
        if self.call_timeout is not None:
            if not self.processes:
                raise CraneCosimError("--call-timeout bounds the calls of components run out of process and needs "
                                      "--processes")
            if not _real(self.call_timeout) or not self.call_timeout > 0:
                raise CraneCosimError(f"--call-timeout {self.call_timeout!r} is not a positive number of seconds")
        for target in self.values:
            comp, dot, var = str(target).partition(".")
            if not dot or not comp or not var:
                raise CraneCosimError(f"--set {target!r} is not of the form component.variable=value")

    @property
    def estimates(self) -> bool:
        """Whether the run estimates its coupling error (asked, or implied by
        a tolerance)."""
        return self.estimate or self.tolerance is not None

    # -- the system this run runs ---------------------------------------------------
    def applied_to(self, system):
        """A copy of ``system`` with this run's settings, values, component
        steps and replacements (paths relative to the working folder); the
        checks of the result are the plan's (:mod:`runtime.plan`)."""
        system = copy.deepcopy(system)
        if self.algorithm is not None and self.algorithm != system.algorithm:
            # the file's settings of its own algorithm do not carry over
            if self.iterations is None:
                system.iterations = None
            if self.extrapolation is None:
                system.extrapolation = "none"
        for name in ("start_time", "stop_time", "step", "algorithm", "coupling", "extrapolation", "iterations"):
            value = getattr(self, name)
            if value is not None:
                setattr(system, name, value)
        for comp, h in self.component_steps.items():
            system.component(comp).step = float(h)
        for target, value in self.values.items():
            system.set_parameter(target, value)
        for comp, path in self.replacements.items():
            system.component(comp).source = str(Path(path).resolve())
        return system

    # -- to and from a sweep's worker -----------------------------------------------------
    def to_json(self) -> str:
        data = dataclasses.asdict(self)
        data["record"] = list(self.record) if self.record is not None else None
        if data["size_limit"] is not None and math.isinf(data["size_limit"]):
            data["size_limit"] = None
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> "RunConfig":
        return cls(**json.loads(text))


def _real(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
