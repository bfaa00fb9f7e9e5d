"""The same blocks and connections as one ODE, integrated by scipy with tight
tolerances: the accuracy reference of every co-simulation.

Each component must be an FMU of this project, so its block can run
in-process.  The connections are those of the inertia coupling (the explicit
exchange would be an algebraic loop here; the coupled accelerations are
exact in one ODE).  Outputs are recorded at the same communication points
as the co-simulation, under the same names (and the same subset, with
``record`` and ``record_every``: the integrator's steps do not depend on
which points are written, so the values are those of the full run).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

from ..blocks import BLOCKS
from ..blocks.block import ParameterError
from ..errors import CraneCosimError
from ..runtime.observers.progress import DeferredSignals
from ..runtime.plan import plan_of
from ..runtime.recording import SIZE_LIMIT, check_every, check_size, recorded, rows_of, select_columns
from ..runtime.runlog import RunLog, RunResult, clear_folder
from ..runtime.system import System

RTOL = 1e-9
ATOL = 1e-9
#: for systems with a stiff block (scipy Radau; DOP853 would need tiny steps)
RTOL_STIFF = 1e-7


def block_models(plan) -> list[str]:
    """The block behind each component of ``plan``, in order; a component
    that is not one of this project's FMUs is an error naming it."""
    from ..fmus.build import bridge_spec_of

    models = []
    for comp in plan.parts:
        path = comp.path
        model = comp.model.ours
        # a bridge's outputs come from another process, at the times it is
        # asked: an integrator's trial states would be sent there as steps
        networked = BLOCKS[model].networked if model is not None else (
            path.exists() and bridge_spec_of(path) is not None)
        if networked:
            raise CraneCosimError(f"component {comp.name} ({path.name}) is a bridge to a block run by "
                                  f"another process, which the monolithic run cannot integrate; run the system "
                                  f"as a co-simulation")
        if model is None:
            raise CraneCosimError(f"the monolithic run needs this project's own FMUs; component "
                                  f"{comp.name} ({path.name}) is not one")
        models.append(model)
    return models


class _Unsettled(CraneCosimError):
    """The outputs of an algebraic loop do not settle."""


class Composite:
    """Blocks joined by connections into ``dx/dt = f(t, x)``, outputs ``y(t, x)``."""

    def __init__(self, plan):
        self.names = [p.name for p in plan.parts]
        self.blocks = []
        for part, model in zip(plan.parts, block_models(plan)):
            try:
                self.blocks.append(BLOCKS[model](**part.values))
            except ParameterError as exc:
                raise CraneCosimError(f"component {part.name}: {exc}") from None
        # the plan's outputs are the blocks' (in their order), its inputs the
        # connected ones in connection order, mapped here to each block's own order
        self.routes = plan.routes
        self.inputs = []
        for part, b in zip(plan.parts, self.blocks):
            u = b.default_inputs()
            self.inputs.append((u, [b.input_names().index(v.name) for v in part.inputs]))
        # Inputs are filled in connection order; map to the block's own order.
        self.ys = [np.array([v.start for v in b.outputs], float) for b in self.blocks]
        sizes = [len(b.states) for b in self.blocks]
        self.slices = np.split(np.arange(sum(sizes)), np.cumsum(sizes)[:-1])
        self.columns = [f"{n}.{v}" for n, b in zip(self.names, self.blocks) for v in b.output_names()]
        self.units = [v.unit for b in self.blocks for v in b.outputs]
        # a chain of direct feedthrough through every block, twice, and the
        # sweeps of a contracting algebraic loop (friction through a crane on
        # its base: about ten, down to round-off, from a poor start)
        self.max_passes = 2 * len(self.blocks) + 30
        units = np.array(self.units)
        self._unit_groups = [np.flatnonzero(units == u) for u in set(self.units)]

    def initial_state(self) -> np.ndarray:
        return np.concatenate([b.initial_state() for b in self.blocks])

    def _inputs(self, i):
        u, order = self.inputs[i]
        for r in self.routes[i]:
            u[np.asarray(order)[r.dst_index]] = self.ys[r.src][r.src_index]
        return u

    def outputs(self, t, x):
        """All outputs.  Direct feedthrough is resolved by sweeping the blocks
        in system order until the outputs stop changing, exactly or, in an
        algebraic loop (a joint's friction torque depends on its reaction,
        which depends on the friction), to round-off: a probe for the number
        of sweeps at one state can under-count, since a value that happens
        to equal its start value looks settled."""
        earlier = None  # the outputs two sweeps back
        start = [y.copy() for y in self.ys]
        for _ in range(self.max_passes):
            before = np.concatenate(self.ys)
            for i, b in enumerate(self.blocks):
                try:
                    self.ys[i] = b.output(t, x[self.slices[i]], self._inputs(i))
                except ValueError as exc:  # a block names what it cannot take
                    raise CraneCosimError(f"component {self.names[i]}: outputs at t = {t:g} s failed: "
                                          f"{exc}") from None
            after = np.concatenate(self.ys)
            # settled, or cycling between two values in the last bits (an
            # ill-conditioned solve, such as a flexible crane's, rounds so)
            if (np.array_equal(before, after) or self._settled(after - before, after)
                    or (earlier is not None and np.array_equal(earlier, after))):
                return after
            earlier = before
        # the next evaluation starts from the last settled outputs, not from
        # what diverged here
        self.ys = start
        raise _Unsettled(f"the outputs do not settle at t = {t:g} s: the connections form an algebraic loop")

    def _settled(self, change, y) -> bool:
        """Every output changed by round-off only: within 1e-10 of the
        largest output of its unit (a loop can cycle in the last bits; a
        flexible crane's ill-conditioned equations round to about 1e-12 of
        its outputs, and the integrator's own tolerance is 1e-9)."""
        scale = np.zeros(len(y))
        for idx in self._unit_groups:
            scale[idx] = np.abs(y[idx]).max()
        return bool(np.all(np.abs(change) <= 1e-10 * scale))

    def derivatives(self, t, x):
        try:
            self.outputs(t, x)
        except _Unsettled:
            # a trial state of the integrator far off the solution (a rate
            # of hundreds of rad/s in a stage of a step too long) can make
            # a loop diverge: not-a-number makes the integrator reject the
            # step and try a shorter one; at a state it keeps, recording
            # its outputs names the loop
            return np.full(len(x), np.nan)
        return np.concatenate([b.derivatives(t, x[self.slices[i]], self._inputs(i))
                               for i, b in enumerate(self.blocks)])


def run_monolithic(system: System, out_dir, progress: bool = True, rtol: float | None = None,
                   atol: float = ATOL, chunk: float = 0.5, *, record=None, record_every: int | None = None,
                   size_limit: float | None = SIZE_LIMIT, replace_run: bool = False) -> RunResult:
    """Integrate the composite ODE of ``system`` and record outputs at the
    co-simulation's communication points; results are written chunk by chunk.

    The integrator is scipy's DOP853 (``rtol`` default :data:`RTOL`), or
    Radau (:data:`RTOL_STIFF`) when a block declares itself stiff (the
    hydraulic cylinder: its oil columns are springs of 1e8 N/m) and none
    oscillatory (a flexible crane, whose undamped springs ring at up to
    1 kHz: DOP853 runs its system with friction 2.5 times faster than
    Radau, the two agreeing to 2e-8 of each output's peak).
    ``record``, ``record_every``, ``size_limit``, ``replace_run`` and ``progress`` as for
    :func:`~crane_cosim.runtime.run.run_cosim`.  SIGTERM stops the run with
    :class:`errors.Terminated`, Ctrl-C with ``KeyboardInterrupt``, the
    results so far and the summary on disk."""
    record_every = 1 if record_every is None else record_every
    check_every(record_every)
    out_dir = Path(out_dir)
    clear_folder(out_dir, replace_run)
    # the connections of the inertia coupling: the coupled accelerations are exact in one ODE
    plan = plan_of(dataclasses.replace(system, coupling="inertia"))
    models = block_models(plan)
    columns = plan.columns
    chosen = select_columns(columns, record)
    n_steps = plan.n_steps
    check_size(rows_of(n_steps, record_every), len(chosen) + 1, size_limit)
    if progress:
        from ..fmus.warmup import warm_up
        warm_up(set(models))
    model = Composite(plan)
    pick = None if len(chosen) == len(columns) else np.asarray(chosen)
    stiff = any(b.stiff for b in model.blocks) and not any(b.oscillatory for b in model.blocks)
    method = "Radau" if stiff else "DOP853"
    rtol = rtol if rtol is not None else (RTOL_STIFF if stiff else RTOL)
    grid = np.minimum(system.start_time + system.step * np.arange(n_steps + 1), system.stop_time)
    settings = {"mode": "monolithic", "integrator": f"scipy {method}", "rtol": rtol, "atol": atol,
                "step": system.step, "record": None if record is None else list(record),
                "record_every": record_every}
    x = model.initial_state()
    with RunLog.of_system(system, out_dir, settings, progress) as log, DeferredSignals() as interrupt:
        log.open([model.columns[i] for i in chosen], [model.units[i] for i in chosen])
        y = model.outputs(system.start_time, x)
        log.record(system.start_time, y if pick is None else y[pick])
        log.started()
        last = None  # the last point reached and not written: (t, y)
        try:
            i = 1
            while i <= n_steps:
                j = min(n_steps, i + max(1, int(round(chunk / system.step))) - 1)
                # the points written in this chunk and its end (the state to go
                # on from); the chunks, and so the integrator's steps, are those
                # of the full run
                ks = [k for k in range(i, j + 1) if recorded(k, n_steps, record_every) or k == j]
                sol = solve_ivp(model.derivatives, (log.t, grid[j]), x, method=method, t_eval=grid[ks],
                                rtol=rtol, atol=atol)
                if not sol.success:
                    raise CraneCosimError(f"the integrator failed after t = {log.t:g} s: {sol.message}")
                for k, tk, xk in zip(ks, sol.t, sol.y.T):
                    y = model.outputs(tk, xk)
                    if not np.isfinite(y).all():
                        bad = model.columns[int(np.flatnonzero(~np.isfinite(y))[0])]
                        raise CraneCosimError(f"output {bad} is not finite at t = {tk:g} s")
                    if recorded(k, n_steps, record_every):
                        log.record(tk, y if pick is None else y[pick])
                        last = None
                    else:
                        log.t, last = tk, (tk, y)
                    # a signal is noted and acted on here, between two points,
                    # so that what is on disk and the time reached agree
                    if interrupt.requested:
                        interrupt.stop()
                x = sol.y[:, -1]
                log.steps = j
                log.advanced(grid[j] - grid[i] + system.step)
                i = j + 1
        except KeyboardInterrupt:  # and Terminated: the point the run stopped at
            if last is not None:
                log.record(last[0], last[1] if pick is None else last[1][pick])
            raise
    return log.result
