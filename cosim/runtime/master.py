"""Fixed-step co-simulation of FMI 2.0 co-simulation FMUs through fmpy.

Algorithms (see also ``docs/master.md``):

* ``jacobi``: every component gets the outputs of the previous communication
  point, all step, then all outputs are read;
* ``gauss-seidel``: components step one after another in the order of the
  system file, each with the newest outputs of those before it;
* ``iterated-midpoint``: every input is held at its source's output at the
  middle of the step, the components that read a later one's output being
  stepped again until those values settle (:class:`IteratedMidpoint`);
* ``iterated-quadratic``: the same loop, but an input from a component that
  is stepped again follows, over the step, the quadratic through its
  source's outputs at the start, middle and end of the step, given to the
  FMU as input derivatives (:class:`IteratedQuadratic`).

Otherwise inputs are held constant over a step.
``extrapolation = "none"`` (the default) holds the last sample, as most
masters do.  With ``"midpoint"`` the value held is the input's estimate at
the middle of the step, from its last two samples: ``u_n + (u_n - u_{n-1}) / 2``
for a source that has not stepped yet, and ``(u_n + u_{n+1}) / 2`` for one
that already has (Gauss-Seidel).  It costs nothing and with Jacobi cuts the
error of the crane on the vessel at 1 ms about threefold, but extrapolation
shrinks the range of stable steps (unstable from 5 ms there), and an input
that jumps is overshot by half the jump for one step
(``docs/coupling-error.md``).

Before the first step the outputs are exchanged until they stop changing
(at most one pass more than there are components), which settles direct
feedthrough at the start time.  All outputs of every component are recorded
at every communication point, or those and the points ``record`` and
``record_every`` choose (``cosim/recording.py``).
"""
from __future__ import annotations

import copy
import math
import tempfile
from pathlib import Path

import numpy as np

from .check import require_fit
from ..errors import CraneCosimError, Terminated
from .estimate import CouplingEstimate, floored_scale, order_of
from .fmu import FMUInstance, _read_model_description, describe_variables
from ..fmus.build import bridge_spec_of
from .pacing import SPIN, Pacer, check_factor
from .recording import SIZE_LIMIT, check_every, check_size, recorded, rows_of, select_columns
from ..files.results import ESTIMATE_FILE, ResultWriter
from .runlog import RunLog, RunResult, check_folder
from .system import System, coupled_connections
from .wiring import resolve, routes

#: the iterated midpoint by default: re-step passes until no mid-step output
#: changes by more than this fraction of its peak in a pass, at most
#: MAX_PASSES; the least scale of a change is FLOOR (``cosim/estimate.py``)
#: of the largest output in the same unit of the same component
SETTLED = 1e-6
MAX_PASSES = 12
#: with a tolerance, the smallest step tried is the system's over 2**HALVINGS
HALVINGS = 4


def prepare_fmus(system: System) -> None:
    """Build the project's own FMUs that a system uses when they are missing
    or were built from other sources (never touches a foreign FMU)."""
    from ..blocks import BLOCKS
    from ..fmus.build import build_fmu, needs_building

    for comp in system.components:
        path = system.source_path(comp)
        if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
            build_fmu(path.stem, path.parent)


def steps_of(system: System) -> int:
    return max(1, math.ceil((system.stop_time - system.start_time) / system.step - 1e-9))


class _DeferredInterrupt:
    """Ctrl-C (SIGINT) or SIGTERM during a run: note it and stop between two
    steps.

    The FMUs' Python code runs in this interpreter; a KeyboardInterrupt raised
    inside it would turn into an FMU failure (fatal in pythonfmu), so the
    signals are only recorded while the FMUs are in use; :meth:`stop` then
    raises ``KeyboardInterrupt``, or :class:`Terminated` for SIGTERM (which
    would otherwise end the process at once, leaving no summary)."""

    def __enter__(self):
        import signal
        import threading
        self.signal = None
        self._old = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._note)
        return self

    def _note(self, signum, frame):
        import signal
        if self.signal is None or signum == signal.SIGTERM:  # terminate outranks interrupt
            self.signal = signum

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def stop(self):
        import signal
        raise Terminated() if self.signal == signal.SIGTERM else KeyboardInterrupt()

    def __exit__(self, *exc):
        import signal
        for sig, old in self._old.items():
            signal.signal(sig, old)
        return False


def run_cosim(system: System, out_dir, progress: bool = True, *, record=None, record_every: int | None = None,
              size_limit: float | None = SIZE_LIMIT, real_time: float | None = None, spin: float = SPIN,
              rt_priority: int | None = None, estimate: bool = False, tolerance: float | None = None) -> RunResult:
    """Co-simulate ``system`` and write results to ``out_dir``.

    With ``estimate``, a second co-simulation of the system at half the
    step runs beside it, and the difference gives the estimate of the
    coupling error at every communication point (``cosim/estimate.py``):
    written to ``coupling_error.csv`` at the recorded points, its largest
    and its RMS to ``summary.json`` under ``"coupling_error"`` and to
    ``RunResult.coupling_error``.  With ``tolerance`` (a fraction of peak,
    implies ``estimate``) the step is the system's, or the largest of its
    halves down to ``1/2**HALVINGS`` of it, whose largest estimated error
    over the run is at most ``tolerance`` of each force's peak: a run that
    goes over runs again, recording the same points, at the step the
    coupling's order says will meet it (at least half the last).  Each run
    keeps one step throughout, so an FMU that cannot vary its step
    (``canHandleVariableCommunicationStepSize`` false) takes part.  The run
    at the smallest step is kept whatever its estimate, and then
    ``RunResult.coupling_error["met"]`` may be false.

    ``record`` (``component.variable`` patterns with shell wildcards) and
    ``record_every`` choose the columns and communication points written
    (default: the system's ``record`` and ``record_every``, all of them);
    ``size_limit`` [bytes] refuses a run whose results.csv would be larger
    (``None``: no limit; ``cosim/recording.py``).  ``real_time`` paces the
    run: each communication point waits for its wall-clock deadline, at
    ``real_time`` times real time (``spin`` and ``rt_priority``:
    :class:`pacing.Pacer`); the figures go to ``summary.json`` under
    ``"real_time"`` and, a row a step, to ``timing.csv``.  With ``progress``, a bar
    on stderr, and a word there while numba compiles a block's kernels for
    the first time on this machine (``cosim/warmup.py``).

    Raises :class:`CraneCosimError` for bad input (before anything runs) and
    :class:`SimulationError` for a failure during the run, after writing the
    results computed so far and a summary with the reason.  SIGINT (Ctrl-C)
    and SIGTERM stop the run between two steps with ``KeyboardInterrupt``
    and :class:`errors.Terminated`, the results so far and the summary on
    disk.
    """
    record = system.record if record is None else record
    record_every = system.record_every if record_every is None else record_every
    if tolerance is None:
        return _run(system, out_dir, progress, record, record_every, size_limit, real_time, spin, rt_priority,
                    estimate)
    check_tolerance(tolerance)
    if real_time is not None:
        raise CraneCosimError("a tolerance may run the system again at a smaller step, which a run paced to "
                              "real time cannot: leave out the tolerance or the real-time pacing")
    tried, level = [], 0
    while True:
        attempt = copy.deepcopy(system)
        attempt.step = system.step / 2 ** level
        try:
            return _run(attempt, out_dir, progress, record, record_every * 2 ** level, size_limit, None, spin,
                        None, True, tolerance, level == HALVINGS, tried)
        except _OverTolerance as over:
            tried.append({"step": attempt.step, "largest": over.value, "output": over.output})
            # the error falls as the step to the coupling's order: halve as
            # often as that says it takes, at least once
            need = math.log2(over.value / tolerance) / order_of(system.algorithm)
            level = min(HALVINGS, level + max(1, math.ceil(need)))


def check_tolerance(tolerance) -> None:
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < 1:
        raise CraneCosimError(f"the tolerance {tolerance!r} must be a fraction of peak between 0 and 1 "
                              f"(1e-3 for 0.1%)")


def check_twice(system: System) -> None:
    """Refuse, naming it, a component that cannot run a second time beside
    itself, as the estimate needs: a bridge to another process (its peer
    would get the requests of both runs), or an FMU that declares it can be
    instantiated only once per process."""
    for comp in system.components:
        path = system.source_path(comp)
        if bridge_spec_of(path) is not None:
            why = "it is a bridge to a block run by another process, whose peer would answer both runs"
        elif _read_model_description(path).coSimulation.canBeInstantiatedOnlyOncePerProcess:
            why = "it declares canBeInstantiatedOnlyOncePerProcess"
        else:
            continue
        raise CraneCosimError(f"component {comp.name} ({path.name}) cannot run twice side by side, which the "
                              f"estimate of the coupling error needs (a second run at half the step): {why}")


class _OverTolerance(Exception):
    """A run whose estimate went over the tolerance: its largest (a
    fraction of peak) and the output it was largest for."""

    def __init__(self, value: float, output: str | None):
        super().__init__(f"the coupling error estimate {value:.3g} of peak ({output}) is over the tolerance; "
                         f"run again at a smaller step")
        self.value, self.output = value, output


def _run(system, out_dir, progress, record, record_every, size_limit, real_time, spin, rt_priority, estimate,
         tolerance=None, final=True, tried=()) -> RunResult:
    """One co-simulation at ``system.step`` (:func:`run_cosim`); with a
    ``tolerance``, unless ``final``, :class:`_OverTolerance` at the end when
    the estimate went over it; ``tried``: the steps tried before."""
    system.check_settings()
    require_fit(system)
    check_every(record_every)
    if real_time is not None:
        check_factor(real_time)
    out_dir = Path(out_dir)
    check_folder(out_dir)
    prepare_fmus(system)
    variables = {c.name: describe_variables(system.source_path(c)) for c in system.components}
    connections = coupled_connections(system)
    wiring = resolve(system, connections, variables)
    order = [c.name for c in system.components]
    outputs = {n: [v.name for v in variables[n].values() if v.causality == "output"] for n in order}
    route_map = routes(wiring, order, outputs)
    columns = [f"{n}.{v}" for n in order for v in outputs[n]]
    units = [variables[n][v].unit for n in order for v in outputs[n]]
    chosen = select_columns(columns, record)
    n_steps = steps_of(system)
    check_size(rows_of(n_steps, record_every), len(chosen) + 1, size_limit)
    if progress:
        from ..fmus.warmup import models_of, warm_up
        warm_up(models_of(system))
    # all columns: the concatenated outputs as they are; else a fancy index
    pick = None if len(chosen) == len(columns) else np.asarray(chosen)

    def values():
        y = np.concatenate([c.y for c in instances])
        return y if pick is None else y[pick]

    settings = {"mode": "cosim", "algorithm": system.algorithm, "coupling": system.coupling,
                "extrapolation": system.extrapolation, "iterations": system.iterations, "step": system.step,
                "record": None if record is None else list(record), "record_every": record_every}
    instances: list[FMUInstance] = []
    pacer = None if real_time is None else Pacer(n_steps, system.step, real_time, system.start_time, spin,
                                                  rt_priority)
    if estimate:
        check_twice(system)
        settings["estimate"] = True
        settings["tolerance"] = tolerance
    abort = tolerance is not None and not final
    half: list[FMUInstance] = []  # the run at half the step, for the estimate
    errors = step = None
    with tempfile.TemporaryDirectory(prefix="crane_cosim_run_") as tmp, \
            RunLog(system, out_dir, settings, progress) as log, _DeferredInterrupt() as interrupt:
        try:
            _instantiate(system, wiring, outputs, Path(tmp), instances)
            if estimate:
                _instantiate(system, wiring, outputs, Path(tmp) / "half", half)
            # from here a failure is one of the run, with results on disk
            log.open([columns[i] for i in chosen], [units[i] for i in chosen])
            step = _start(system, route_map, instances)
            if estimate:
                step_half = _start(system, route_map, half)
                rating = CouplingEstimate(columns, units, order_of(system.algorithm))
                errors = ResultWriter(out_dir, rating.names, name=ESTIMATE_FILE)
                errors.append(log.t, rating.error)
            log.record(log.t, values())
            if interrupt.requested:
                interrupt.stop()
            log.started()
            for inst in instances:
                inst.fmi_time = 0.0
            if pacer is not None:
                pacer.start()
            for k in range(1, n_steps + 1):
                t_next = min(system.start_time + k * system.step, system.stop_time)
                t, h = log.t, t_next - log.t
                step(instances, route_map, t, h)
                log.steps = k
                if estimate:
                    step_half(half, route_map, t, h / 2)
                    step_half(half, route_map, t + h / 2, h / 2)
                    rating.update(t_next, np.concatenate([c.y for c in instances]),
                                  np.concatenate([c.y for c in half]))
                    if recorded(k, n_steps, record_every):
                        errors.append(t_next, rating.error)
                if recorded(k, n_steps, record_every):
                    log.record(t_next, values())
                else:
                    log.t = t_next
                if pacer is not None:
                    pacer.wait(t_next, log.writer.write_until)
                if k % 200 == 0:
                    if interrupt.requested:
                        if not recorded(k, n_steps, record_every):
                            log.record(t_next, values())  # the point the run stopped at
                        interrupt.stop()
                    log.advanced(200 * system.step)
            if interrupt.requested:
                interrupt.stop()
            if abort and rating.largest > tolerance:
                summary = rating.summary()
                raise _OverTolerance(summary["largest"], summary["largest_output"])
        finally:
            log.summary["fmi_call_time_s"] = sum(inst.fmi_time for inst in instances)
            log.summary["fmi_call_time_by_component_s"] = {inst.name: inst.fmi_time for inst in instances}
            if isinstance(step, IteratedMidpoint):
                log.summary["re_step_passes"] = {str(p): c for p, c in sorted(step.pass_counts.items())}
            if errors is not None:
                errors.close()
                found = rating.summary()
                if tolerance is not None:
                    found.update(tolerance=tolerance, met=rating.largest <= tolerance, step=system.step,
                                 steps_tried=list(tried))
                log.summary["coupling_error"] = found
            for inst in half:
                inst.free()
            if pacer is not None:
                pacer.stop()
                log.summary["real_time"] = pacer.summary()
                pacer.write(out_dir / "timing.csv")
            for inst in instances:
                inst.free()
    return log.result


def _instantiate(system, wiring, outputs, folder: Path, instances: list) -> None:
    """Instantiate and initialize every component into ``instances`` (FMUs
    unzipped under ``folder``)."""
    for comp in system.components:
        inst = FMUInstance(comp.name, system.source_path(comp), folder)
        instances.append(inst)
        inst.initialize(system.start_time, comp.parameters)
        inst.bind([w[0] for w in wiring[comp.name]], outputs[comp.name])


def _start(system, route_map, instances: list):
    """Exchange the outputs at the start time and return the step of the
    system's algorithm."""
    _exchange_initial(instances, route_map, system.start_time)
    _bind_extrapolation(instances, route_map, system.algorithm, system.extrapolation)
    step = {"jacobi": _jacobi_step, "gauss-seidel": _gauss_seidel_step}.get(system.algorithm)
    if step is not None:
        return step
    iterated = IteratedQuadratic if system.algorithm == "iterated-quadratic" else IteratedMidpoint
    return iterated(instances, route_map, system.iterations)


def _gather(inst: FMUInstance, rts, instances) -> None:
    """Fill the instance's inputs from its sources' outputs; with input
    weights (see the module docstring) hold the mid-step estimate."""
    raw = inst.u_raw
    for r in rts:
        raw[r.dst_index] = instances[r.src].y[r.src_index]
    if inst.weights is None:
        inst.u[:] = raw
    else:
        np.multiply(inst.weights, raw - inst.u_prev, out=inst.u)
        inst.u += raw
        inst.u_prev[:] = raw


def _bind_extrapolation(instances, route_map, algorithm: str, extrapolation: str) -> None:
    """Per input, the weight w of ``u = u_n + w (u_n - u_prev)``: +1/2 to
    extrapolate to mid-step, -1/2 to interpolate when the source already
    stepped (Gauss-Seidel, earlier in the order); no weights for ``none``."""
    order = {inst.name: i for i, inst in enumerate(instances)}
    for inst in instances:
        # the first step has one sample only: it holds it
        inst.u_prev[:] = inst.u_raw
        if extrapolation == "none":
            continue
        w = np.full(len(inst.u), 0.5)
        if algorithm == "gauss-seidel":
            for r in route_map[inst.name]:
                if r.src < order[inst.name]:
                    w[r.dst_index] = -0.5
        inst.weights = w


def _check_finite(inst: FMUInstance, t: float) -> None:
    y = inst.y
    if not np.isfinite(y).all():
        if inst.errors:  # the FMU said why (ours return NaN and log the cause)
            raise inst.explain(f"compute its outputs at t = {t:g} s")
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise CraneCosimError(f"component {inst.name} returned {y[i]} for its output "
                              f"{inst.output_names[i]} at t = {t:g} s")


def _pass_on(instances, route_map) -> None:
    """One pass, in order: each component's inputs from the outputs now,
    then its outputs read again (direct feedthrough at a communication
    point)."""
    for inst in instances:
        _gather(inst, route_map[inst.name], instances)
        inst.set_inputs()
        inst.get_outputs()


def _exchange_initial(instances, route_map, t0: float) -> None:
    for inst in instances:
        inst.get_outputs()
    for _ in range(len(instances) + 1):
        before = np.concatenate([c.y for c in instances])
        _pass_on(instances, route_map)
        if np.array_equal(before, np.concatenate([c.y for c in instances])):
            break
    # NaN spreads through the loop in the exchange: name first a component
    # that logged the cause
    for inst in sorted(instances, key=lambda c: not c.errors):
        _check_finite(inst, t0)


def _jacobi_step(instances, route_map, t, h) -> None:
    for inst in instances:
        _gather(inst, route_map[inst.name], instances)
    for inst in instances:
        inst.set_inputs()
        inst.do_step(t, h)
    for inst in instances:
        inst.get_outputs()
        _check_finite(inst, t + h)


def _gauss_seidel_step(instances, route_map, t, h) -> None:
    for inst in instances:
        _gather(inst, route_map[inst.name], instances)
        inst.set_inputs()
        inst.do_step(t, h)
        inst.get_outputs()
        _check_finite(inst, t + h)


class IteratedMidpoint:
    """The ``iterated-midpoint`` step: each input is held, over ``[t, t + h]``,
    at its source's output at ``t + h/2``, the midpoint rule's value.

    Every component steps in two halves of ``h/2`` where a mid-step output of
    it is wanted.  In the first pass the components step in the order of the
    system file; an input from a component that has not stepped yet holds
    that source's value at ``t``.  Then the components that read such an
    input (a later component's output, or their own), and those that read
    one of them in turn, are rolled back to ``t`` (``fmi2SetFMUstate``) and
    step again, in order, with the newest mid-step outputs: one fixed-point
    iteration of the implicit midpoint coupling, second order in ``h``
    where the components' own integration is.  The others (sources that
    read nothing stepped again, such as a signal) are not repeated.  At ``t + h`` the outputs are read and, in
    order, each component gets its inputs at ``t + h`` and is read again, so
    that recorded outputs that depend directly on inputs (a reaction on an
    acceleration) agree with their inputs at the communication point.

    By default the second pass is repeated until no mid-step output read
    by a component moves, in a pass, by more than ``SETTLED`` (1e-6) of its
    peak so far (or of a millionth of the largest output of the component
    in the same unit, for an output that is zero but for round-off), at most
    ``MAX_PASSES`` times: the fixed point of the coupling, so that what is
    left is the midpoint rule's own error.  How many passes that takes
    depends on how strongly the components are coupled (3-5 for the crane
    on the vessel at 1 ms, where the fixed point's error falls about
    tenfold a pass); ``run_cosim`` writes the count to ``summary.json``
    (``re_step_passes``: steps by number of passes).  ``iterations``
    (``System.iterations``) fixes the number of passes instead.  The
    outputs at ``t + h`` are passed on once more than the links of direct
    feedthrough that run against the order on one path
    (:func:`links_against_order`): where an input reaches a component
    through a chain of them (the controller's torque into the crane's bias
    wrench p_A, on into the vessel's acceleration), a pass carries a value
    one such link further (``docs/master.md``).

    For the flexible crane of Jarzębowska et al. (2018) on its spring
    supports, whose base rings at 30-41 Hz and boom at up to 111 Hz
    (``omega h`` up to 0.7 at 1 ms), this cuts the support forces' error at
    1 ms from 2.1% to 0.4% of their peaks over 5 s, for about twice the cost
    of Gauss-Seidel (``docs/master.md``).  Components stepped twice must
    declare ``canGetAndSetFMUstate``."""

    algorithm = "iterated-midpoint"

    def __init__(self, instances, route_map, iterations: int | None = None):
        n = len(instances)
        sources = [{r.src for r in route_map[inst.name]} for inst in instances]
        # read a value at t (a source after them, or themselves), or, in
        # turn, a component stepped again
        again = set()
        for k in range(n):
            if any(src >= k or src in again for src in sources[k]):
                again.add(k)
        again = sorted(again)
        for k in again:
            if not instances[k].can_roll_back:
                inst = instances[k]
                raise CraneCosimError(
                    f"component {inst.name} ({inst.path.name}) cannot save and restore its state "
                    f"(canGetAndSetFMUstate is false), which the {self.algorithm} algorithm needs to "
                    f"step it twice: it is in a loop with a component after it in the system's order; "
                    f"use gauss-seidel for this system")
        links = links_against_order(instances, route_map)
        #: re-step passes: at most this many; with ``tolerance``, fewer when
        #: the mid-step values settle
        self.iterations = (MAX_PASSES if iterations is None else iterations) if again else 0
        self.tolerance = SETTLED if iterations is None else None
        #: the passes of outputs to inputs at t + h
        self.settle = links + 1
        passes = [list(range(n))] + [again] * self.iterations
        #: (pass, component, whether someone after it reads its mid-step
        #: output, whether this is its last step of the communication step)
        self.plan = []
        for p, order in enumerate(passes):
            for j, k in enumerate(order):
                later = set(order[j + 1:]).union(*passes[p + 1:])
                halves = any(k in sources[c] for c in later)
                last = not any(k in q for q in passes[p + 1:])
                if halves or last:  # else nothing reads what this step gives
                    self.plan.append((p, k, halves, last))
        self.again = again
        self.mid = [inst.y.copy() for inst in instances]
        #: per component, the largest magnitude of each output so far, and
        #: the least scale of a change: FLOOR of the largest of those in the
        #: same unit (a force that is zero but for round-off is measured
        #: against the component's forces, not against itself)
        self.peak = [np.abs(inst.y) for inst in instances]
        self.unit_of = [np.unique(inst.output_units, return_inverse=True)[1] if len(inst.y) else np.zeros(0, int)
                        for inst in instances]
        self.scale = [floored_scale(p, u) for p, u in zip(self.peak, self.unit_of)]
        #: the re-step passes of the last step, and the largest change in
        #: the last of them (relative to the outputs' peaks)
        self.passes, self.change = 0, 0.0
        #: how many steps took each number of re-step passes
        self.pass_counts = {}

    def __call__(self, instances, route_map, t, h) -> None:
        for inst, m in zip(instances, self.mid):
            m[:] = inst.y  # a source not yet stepped: its value at t
        saved = {k: instances[k].save_state() for k in self.again}
        try:
            self._passes(instances, route_map, saved, t, h)
            self.pass_counts[self.passes] = self.pass_counts.get(self.passes, 0) + 1
        finally:
            for k, state in saved.items():
                instances[k].free_state(state)
        for inst in instances:
            inst.get_outputs()
        for _ in range(self.settle):
            _pass_on(instances, route_map)
        for k, (inst, peak) in enumerate(zip(instances, self.peak)):
            _check_finite(inst, t + h)
            np.maximum(peak, np.abs(inst.y), out=peak)
            self.scale[k] = floored_scale(peak, self.unit_of[k])

    def _passes(self, instances, route_map, saved, t, h) -> None:
        mid, before = self.mid, None
        at_mid = set()  # components stopped at mid-step in this pass
        self.passes, self.change = 0, 0.0
        for p, k, halves, last in self.plan:
            if p > self.passes:  # a re-step pass begins
                if before is not None and self._settled(before):
                    return self._finish(instances, route_map, saved, at_mid, t, h)
                before = [mid[j].copy() for j in self.again]
                self.passes, at_mid = p, set()
            inst = instances[k]
            if p:
                inst.restore_state(saved[k])
            if not self._held_step(inst, k, route_map, halves, last, t, h):
                at_mid.add(k)  # stopped at mid-step: rolled back before it steps again
        if before is not None:
            self._settled(before)

    def _held_step(self, inst, k, route_map, halves, last, t, h) -> bool:
        """Step ``inst`` (component ``k``) from ``t`` with its inputs held at
        their sources' mid-step values: in halves, read at mid-step, if
        ``halves``, and then on to ``t + h`` if ``last``; whether it
        reached ``t + h``."""
        for r in route_map[inst.name]:
            inst.u[r.dst_index] = self.mid[r.src][r.src_index]
        inst.set_inputs()
        if not halves:
            inst.do_step(t, h)
            return True
        inst.do_step(t, h / 2)
        self.mid[k][:] = inst.get_outputs()
        _check_finite(inst, t + h / 2)
        if last:
            inst.do_step(t + h / 2, h / 2)
        return last

    def _settled(self, before, now=None) -> bool:
        """Whether the pass just made changed no output read from it (``now``,
        default: the mid-step outputs of the components stepped again, in
        the order of ``before``) by more than ``tolerance`` of its peak (and
        notes the largest change)."""
        change = 0.0
        now = [self.mid[j] for j in self.again] if now is None else now
        for j, b, y in zip(self.again, before, now):
            # y may hold the outputs more than once (at mid-step and at t + h)
            scale = np.maximum(np.maximum(np.resize(self.scale[j], y.shape), np.abs(y)), np.abs(b))
            d = np.abs(y - b)
            moved = d > 0
            if moved.any():
                change = max(change, float(np.max(d[moved] / scale[moved])))
        self.change = change
        return self.tolerance is not None and change <= self.tolerance

    def _finish(self, instances, route_map, saved, at_mid, t, h) -> None:
        """End the step after a pass whose values settled: a component
        stopped at mid-step takes its second half; one whose step in that
        pass no one read (left out of it) steps from t, with its inputs
        at their newest mid-step values."""
        for k in self.again:
            inst = instances[k]
            if k in at_mid:
                inst.do_step(t + h / 2, h / 2)
                continue
            inst.restore_state(saved[k])
            for r in route_map[inst.name]:
                inst.u[r.dst_index] = self.mid[r.src][r.src_index]
            inst.set_inputs()
            inst.do_step(t, h)


class IteratedQuadratic(IteratedMidpoint):
    """The ``iterated-quadratic`` step: the loop of :class:`IteratedMidpoint`,
    with each input from a component that is stepped again following, over
    ``[t, t + h]``, the quadratic through its source's outputs at ``t``,
    ``t + h/2`` and ``t + h``, the newest of each.

    Every component stepped again steps in two halves in every pass and is
    read at ``t + h/2`` and ``t + h``.  Its inputs are set at ``t`` with
    their first and second time derivatives there
    (``fmi2SetRealInputDerivatives``): ``u(t + s) = u0 + a1 s/h + a2 (s/h)**2``
    with ``a1 = -3 u0 + 4 um - ue`` and ``a2 = 2 u0 - 4 um + 2 ue`` from the
    values ``u0``, ``um``, ``ue`` at ``t``, ``t + h/2``, ``t + h``.  A source
    not stepped yet in the first pass gives its value at ``t`` for all
    three.  The passes repeat until no output read from them, at mid-step
    or at ``t + h``, moves by more than ``SETTLED`` of its peak, at most
    ``MAX_PASSES`` times (or ``iterations`` passes): the fixed point is the
    collocation of the coupling at the three points (Lobatto IIIA).  An
    input from a component that is not stepped again (a set-point signal, a
    controller before the loop) is held at its source's mid-step value, as
    in the iterated midpoint, which keeps a step in a signal a step, where
    a quadratic through it would overshoot.

    Two integrators in a loop: fourth order settled (the error falls
    16-fold as ``h`` halves), third with one pass.  For the flexible crane
    of Jarzębowska et al. (2018) on its spring supports, every force and
    moment is within 0.07% of its peak (RMS) at 1 ms over the 5 s, where
    the iterated midpoint gives 1.35%, and needs 0.25 ms for 0.08%
    (``docs/master.md``).  Components stepped again must declare
    ``canGetAndSetFMUstate`` and ``canInterpolateInputs``."""

    algorithm = "iterated-quadratic"

    def __init__(self, instances, route_map, iterations: int | None = None):
        super().__init__(instances, route_map, iterations)
        for k in self.again:
            inst = instances[k]
            if not inst.can_interpolate_inputs:
                raise CraneCosimError(
                    f"component {inst.name} ({inst.path.name}) does not take input derivatives "
                    f"(canInterpolateInputs is false), which the iterated-quadratic algorithm gives it: it is "
                    f"in a loop with a component after it in the system's order; use iterated-midpoint for "
                    f"this system")
        again = set(self.again)
        #: per component, its routes whose source is stepped again
        self.follows = [[r for r in route_map[inst.name] if r.src in again] for inst in instances]
        self.start = [inst.y.copy() for inst in instances]
        self.end = [inst.y.copy() for inst in instances]
        #: the first pass as the iterated midpoint plans it, for the others:
        #: whether each is read at mid-step
        self.first = {k: halves for p, k, halves, last in self.plan if p == 0 and k not in again}

    def __call__(self, instances, route_map, t, h) -> None:
        for inst, y0, y1 in zip(instances, self.start, self.end):
            y0[:] = inst.y
            y1[:] = inst.y  # a source not yet stepped: its value at t
        super().__call__(instances, route_map, t, h)

    def _passes(self, instances, route_map, saved, t, h) -> None:
        mid, end = self.mid, self.end
        self.passes, self.change = 0, 0.0
        for k in range(len(instances)):  # the first pass, in order
            if k in self.first:
                self._held_step(instances[k], k, route_map, self.first[k], True, t, h)
            else:
                self._quadratic_step(instances[k], k, route_map, t, h)
        for p in range(1, self.iterations + 1):
            before = [np.concatenate([mid[j], end[j]]) for j in self.again]
            self.passes = p
            for k in self.again:
                instances[k].restore_state(saved[k])
                self._quadratic_step(instances[k], k, route_map, t, h)
            now = [np.concatenate([mid[j], end[j]]) for j in self.again]
            if self._settled(before, now):
                return

    def _quadratic_step(self, inst, k, route_map, t, h) -> None:
        """A component stepped again, from ``t`` over ``h`` in two halves, its
        inputs on their quadratics; its outputs at mid-step and at ``t + h``
        read."""
        mid, end = self.mid, self.end
        for r in route_map[inst.name]:
            inst.u[r.dst_index] = mid[r.src][r.src_index]
        inst.du[:] = 0.0
        for r in self.follows[k]:
            u0 = self.start[r.src][r.src_index]
            um = mid[r.src][r.src_index]
            ue = end[r.src][r.src_index]
            inst.u[r.dst_index] = u0
            inst.du[0, r.dst_index] = (-3 * u0 + 4 * um - ue) / h
            inst.du[1, r.dst_index] = (4 * u0 - 8 * um + 4 * ue) / (h * h)
        inst.set_inputs()
        inst.set_input_derivatives()
        inst.do_step(t, h / 2)
        mid[k][:] = inst.get_outputs()
        _check_finite(inst, t + h / 2)
        inst.do_step(t + h / 2, h / 2)
        end[k][:] = inst.get_outputs()
        _check_finite(inst, t + h)


def links_against_order(instances, route_map) -> int:
    """The most connections that run against the stepping order (to the same
    or an earlier component) on one path of direct feedthrough: from any
    output, through connections and through the declared dependencies of
    outputs on inputs (``ModelStructure``; an output that declares none
    depends on every input, FMI 2.0 section 2.2.8).  A value passed on in
    order, one component after another, reaches the end of such a path in
    that many passes and one more.  A loop of direct feedthrough (an
    algebraic loop, such as a friction torque on a joint reaction that
    depends on that torque) is gone round once: its links against the
    order (the components they enter, of the strongly connected inputs
    that make it up) count once."""
    from graphlib import TopologicalSorter
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    # the inputs, numbered; feeds[(k, o)]: the inputs (d, j) output o of component k feeds
    node = {key: i for i, key in enumerate((k, j) for k, inst in enumerate(instances)
                                           for j in range(len(inst.input_names)))}
    feeds = {}
    for d, inst in enumerate(instances):
        for r in route_map[inst.name]:
            for o, j in zip(r.src_index, r.dst_index):
                feeds.setdefault((r.src, int(o)), []).append((d, int(j)))
    # the links from input j of component k, through an output of k that
    # depends on it directly, to the inputs that output feeds
    edges = {}
    for k, inst in enumerate(instances):
        position = {name: j for j, name in enumerate(inst.input_names)}
        declared = {o.variable.name: o.dependencies for o in inst.md.outputs}
        for o, name in enumerate(inst.output_names):
            deps = declared.get(name)
            for j in (range(len(position)) if deps is None else (position[v.name] for v in deps
                                                                 if v.name in position)):
                for d, jj in feeds.get((k, o), ()):
                    edges[node[(k, j)], node[(d, jj)]] = int(d <= k)
    # the first link: from an output to the inputs it feeds
    first = {}
    for (k, o), ends in feeds.items():
        for d, j in ends:
            first[node[(d, j)]] = max(first.get(node[(d, j)], 0), int(d <= k))
    if not first:
        return 0
    pairs = np.array(list(edges), dtype=int).reshape(-1, 2)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(node),) * 2)
    _, loop = connected_components(graph, directed=True, connection="strong")
    # once round a loop, each component is entered once at most: its links
    # against the order are at most the components they enter
    component = [k for k, j in node]
    entered, between = {}, {}
    for (a, b), w in edges.items():
        if loop[a] != loop[b]:
            between.setdefault(loop[b], []).append((loop[a], w))
        elif w:
            entered.setdefault(loop[a], set()).add(component[b])
    inside = {c: len(ks) for c, ks in entered.items()}
    # the longest path over the loops in the order of their links
    reach = {}
    for c in TopologicalSorter({c: [a for a, _ in between.get(c, ())] for c in set(loop)}).static_order():
        entry = max([first.get(i, -1) for i in np.flatnonzero(loop == c)]
                    + [reach[a] + w for a, w in between.get(c, ()) if reach[a] >= 0])
        reach[c] = entry + inside.get(c, 0) if entry >= 0 else -1
    return max(reach.values())
