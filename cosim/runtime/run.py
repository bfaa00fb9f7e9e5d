"""A co-simulation run, start to end: the plan, the execution and its
observers, the results on disk, and the choice of step for a tolerance.

    from crane_cosim.runtime import RunConfig, run_cosim
    result = run_cosim(system, "results", RunConfig(estimate=True))
    result = run_cosim(system, "results", stop_time=5.0)    # the same options as keywords

Bad input (a problem of the plan, an option that cannot be) raises
:class:`CraneCosimError` before anything runs.  A failure during the run
raises :class:`SimulationError` after the results computed so far and a
summary with the reason are written.  SIGINT (Ctrl-C) and SIGTERM stop the
run between two steps with ``KeyboardInterrupt`` and
:class:`errors.Terminated`, the results so far and the summary on disk.
"""
from __future__ import annotations

import contextlib
import math
import os
import warnings
from pathlib import Path

from ..blocks.warm_up import warm_up
from ..errors import CraneCosimError
from ..files.folders import claimed, unwritable
from ..fmus.build import prepare_fmus
from .algorithms import ALGORITHMS
from .config import RunConfig
from .execution import Execution
from .input_table import read_input_table
from .model import models_of_plan
from .observers.bridges import Bridges
from .observers.deadline import Deadline
from .observers.estimate import Estimate
from .observers.fmi_messages import FmiMessages
from .observers.input_file import InputFile
from .observers.model_range import ModelRange
from .observers.pacing import Pacer, Pacing
from .observers.progress import DeferredSignals, Interrupts, Progress
from .observers.recorder import Recorder
from .observers.scenario_actions import ScenarioActions
from .plan import plan_of
from .recording import check_size, rows_of, select_columns
from .runlog import RunLog, RunResult, check_folder, clear_folder
from .scenario import read_scenario
from .workdir import work_folder

__all__ = ["run_cosim", "HALVINGS"]

#: with a tolerance, the smallest step tried is the system's over 2**HALVINGS
HALVINGS = 4


class _OverTolerance(Exception):
    """A run whose estimate went over the tolerance: its largest (a
    fraction of peak) and the output it was largest for."""

    def __init__(self, value: float, output: str | None, order: int):
        super().__init__(f"the coupling error estimate {value:.3g} of peak ({output}) is over the tolerance; "
                         f"run again at a smaller step")
        self.value, self.output, self.order = value, output, order


def run_cosim(system, out_dir, config: RunConfig | None = None, observers=(), **options) -> RunResult:
    """Co-simulate ``system`` (a :class:`~runtime.system.System`) with
    ``config`` (a :class:`~runtime.config.RunConfig`, or its fields as
    keywords) and write the results to ``out_dir``; returns the
    :class:`~runtime.runlog.RunResult`.  ``observers``: the caller's own,
    each given as a function of the run's plan and
    :class:`~runtime.runlog.RunLog` that returns an
    :class:`~runtime.observers.Observer` (as libcosim's ``add_observer``;
    e.g. :func:`~views.live.live_view`), made for each run and told of it
    after the recorder.  A folder holding an earlier run is
    refused unless ``config.replace_run``, and then that run's files go
    first (:func:`~runtime.runlog.clear_folder`); a folder another run is
    writing is refused (:func:`~files.folders.claimed`).

    With ``estimate``, a second co-simulation of the system at half the
    step runs beside it, and the difference gives the estimate of the
    coupling error at every communication point
    (``runtime/observers/estimate.py``): written to ``coupling_error.csv``
    at the recorded points, its largest and its RMS to ``summary.json``
    under ``"coupling_error"`` and to ``RunResult.coupling_error``.  With a
    ``tolerance`` (a fraction of peak, implies ``estimate``) the step is
    the system's, or the largest of its halves down to ``1/2**HALVINGS``
    of it, whose largest estimated error over the run is at most
    ``tolerance`` of each force's peak: a run that goes over runs again,
    recording the same points, at the step the coupling's order (from the
    passes the run made) says will meet it (at least half the last), a
    component's own step divided alike.  Each run keeps one step
    throughout, so an FMU that cannot vary its step takes part.  The run at the smallest step is kept whatever its
    estimate; over the tolerance, it ends with :class:`SimulationError` (status ``failed``, its summary's
    ``coupling_error["met"]`` false)."""
    config = config or RunConfig()
    if options:
        config = config.replace(**options)
    config.check()
    check_folder(out_dir)
    # the folder is this run's alone until it ends (another run into it is
    # refused), claimed before an earlier run's files in it are removed
    with claimed(out_dir):
        clear_folder(out_dir, config.replace_run)
        return _runs(system, out_dir, config, tuple(observers))


def _runs(system, out_dir, config: RunConfig, makers=()) -> RunResult:
    """The run of ``system``, or, with a tolerance, the runs until one meets it
    (:func:`run_cosim`)."""
    if config.tolerance is None:
        return _run(system, out_dir, config, makers)
    base = config.step if config.step is not None else system.step
    every = config.record_every or 1
    # every step halves, a component's own too (the estimate's error falls as their power)
    own = {c.name: c.step for c in system.components if c.step is not None} | dict(config.component_steps)
    tried, level = [], 0
    while True:
        attempt = config.replace(step=base / 2 ** level, record_every=every * 2 ** level,
                                 component_steps={name: h / 2 ** level for name, h in own.items()})
        try:
            return _run(system, out_dir, attempt, makers, final=level == HALVINGS, tried=tried)
        except _OverTolerance as over:
            tried.append({"step": attempt.step, "largest": over.value, "output": over.output})
            # the error falls as the step to the coupling's order: halve as
            # often as that says it takes, at least once
            need = math.log2(over.value / config.tolerance) / over.order
            level = min(HALVINGS, level + max(1, math.ceil(need)))


def _settings(plan, config: RunConfig, every: int) -> dict:
    s = plan.settings
    settings = {"mode": "cosim", "algorithm": s.algorithm, "coupling": s.coupling, "extrapolation": s.extrapolation,
                "iterations": s.iterations, "step": s.step,
                "component_steps": {p.name: s.step * p.every for p in plan.parts if p.every > 1},
                "record": None if config.record is None else list(config.record), "record_every": every}
    if config.estimates:
        settings.update(estimate=True, tolerance=config.tolerance)
    return settings


@contextlib.contextmanager
def _call_timeout(seconds: float | None):
    """``CRANE_COSIM_FMU_TIMEOUT`` set to ``seconds`` while the components
    are instantiated and run: the out-of-process FMUs' binaries read it
    (``fmus/native/fmi2_proxy.c``)."""
    if seconds is None:
        yield
        return
    before = os.environ.get("CRANE_COSIM_FMU_TIMEOUT")
    os.environ["CRANE_COSIM_FMU_TIMEOUT"] = repr(float(seconds))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("CRANE_COSIM_FMU_TIMEOUT", None)
        else:
            os.environ["CRANE_COSIM_FMU_TIMEOUT"] = before


def _run(system, out_dir, config: RunConfig, makers=(), final: bool = True, tried=()) -> RunResult:
    """One co-simulation at one step, with the observers ``makers`` make
    besides the run's own; with a ``tolerance``, unless ``final``,
    :class:`_OverTolerance` at the end when the estimate went over it;
    ``tried``: the steps tried before."""
    out_dir = Path(out_dir)
    clear_folder(out_dir, replace=True)  # a run at a smaller step replaces the one before it
    try:
        prepare_fmus(config.applied_to(system))
    except OSError as exc:  # built beside the system: a read-only folder
        raise unwritable(exc, f"cannot build the FMUs of {system.name}") from None
    plan = plan_of(system, config)
    for _, note in plan.left_out.values():
        warnings.warn(note)
    chosen = select_columns(plan.columns, config.record)
    every = config.record_every or 1
    check_size(rows_of(plan.n_steps, every), len(chosen) + 1, config.size_limit)
    if config.progress:
        warm_up(models_of_plan(plan))
        if ALGORITHMS[plan.settings.algorithm].compiled_twin:
            # imported here: numba and the compiled package load only for a run that may use them
            from .compiled.master_warm_up import warm_up_master
            warm_up_master()
    s = plan.settings
    with work_folder() as tmp, \
            RunLog.of_plan(plan, out_dir, _settings(plan, config, every), config.progress) as log, \
            DeferredSignals() as signals:
        bridges, ranges = Bridges(plan, log), ModelRange(plan)
        observers = [Recorder(log, plan, chosen, every), *([bridges] if bridges.bridges else []),
                     *([ranges] if ranges.watched else [])]
        estimate = None
        if config.estimates:
            estimate = Estimate(plan, log, out_dir, every)
            observers.append(estimate)
        if config.real_time is not None:
            # the bar moves in the time the pacer waits; the marker, first, splits a step's time
            pacer = Pacer(plan.n_steps, s.step, config.real_time, s.start_time, config.spin, config.rt_priority)
            pacing = Pacing(pacer, log, out_dir, step=s.step)
            log.writes_behind = True  # the results written off the steps' thread
            observers = [pacing.marker(), *observers, pacing]
        else:
            observers.append(Progress(log, s.step))
        observers.append(Interrupts(signals))
        if config.timeout is not None:
            observers.append(Deadline(config.timeout))
        if config.fmi_logging:
            observers.append(FmiMessages())
        if config.input_file is not None:
            observers.append(InputFile(read_input_table(config.input_file), plan))
        if config.scenario is not None:
            observers.append(ScenarioActions(read_scenario(config.scenario), plan))
        observers[1:1] = [make(plan, log) for make in makers]
        try:
            with _call_timeout(config.call_timeout):
                Execution(plan, tmp, config.processes).run(observers)
        finally:
            log.add_sections(o.summary() for o in observers)
            if estimate is not None and config.tolerance is not None and "coupling_error" in log.summary:
                log.summary["coupling_error"].update(
                    tolerance=config.tolerance, met=estimate.largest <= config.tolerance, step=s.step,
                    steps_tried=list(tried))
        if config.tolerance is not None and estimate.largest > config.tolerance:
            found = log.summary["coupling_error"]
            if not final:
                raise _OverTolerance(found["largest"], found.get("largest_output"), found["order"])
            # what was asked is not met: the run's status says so (failed), as its exit does
            raise CraneCosimError(f"the estimated coupling error {found['largest']:.2g} of peak "
                                  f"({found.get('largest_output')} at t = {found.get('largest_at_time', 0):g} s) "
                                  f"is over the tolerance {config.tolerance:g} even at the smallest step tried, "
                                  f"{s.step:g} s")
    return log.result


