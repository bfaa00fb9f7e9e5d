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

from ..blocks.warm_up import warm_up
from ..errors import CraneCosimError
from ..files.folders import claimed
from ..runtime.observers.deadline import Deadline
from ..runtime.observers.progress import DeferredSignals
from ..runtime.plan import plan_of
from ..runtime.recording import SIZE_LIMIT, check_every, check_size, recorded, rows_of, select_columns
from ..runtime.runlog import RunLog, RunResult, clear_folder
from ..runtime.system import System
from .composite import Composite, block_models
from .crane_loop import warm_up_loop

RTOL = 1e-9
ATOL = 1e-9
#: for systems with a stiff block (scipy Radau; DOP853 would need tiny steps)
RTOL_STIFF = 1e-7


def run_monolithic(system: System, out_dir, progress: bool = True, rtol: float | None = None,
                   atol: float = ATOL, chunk: float = 0.5, *, record=None, record_every: int | None = None,
                   size_limit: float | None = SIZE_LIMIT, replace_run: bool = False,
                   timeout: float | None = None) -> RunResult:
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
    results so far and the summary on disk; so does ``timeout`` [s] of
    wall-clock time from the set-up, as the co-simulation's ``--timeout``.
    The folder is claimed for the run, as by a co-simulation
    (:func:`~crane_cosim.files.folders.claimed`): a folder another run is
    writing is refused."""
    out_dir = Path(out_dir)
    with claimed(out_dir):
        return _integrated(system, out_dir, progress, rtol, atol, chunk, record, record_every, size_limit,
                           replace_run, timeout)


def _integrated(system: System, out_dir: Path, progress, rtol, atol, chunk, record, record_every, size_limit,
                replace_run, timeout) -> RunResult:
    """:func:`run_monolithic` in its claimed folder."""
    record_every = 1 if record_every is None else record_every
    check_every(record_every)
    clear_folder(out_dir, replace_run)
    # the connections of the inertia coupling: the coupled accelerations are exact in one ODE; no
    # co-simulation algorithm, so none of the needs of the system file's (a state to roll back)
    plan = plan_of(dataclasses.replace(system, coupling="inertia", algorithm="gauss-seidel", iterations=None,
                                       extrapolation="none"))
    models = block_models(plan)
    columns = plan.columns
    chosen = select_columns(columns, record)
    n_steps = plan.n_steps
    check_size(rows_of(n_steps, record_every), len(chosen) + 1, size_limit)
    if progress:
        warm_up(models)
        warm_up_loop(models)
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
    deadline = Deadline(timeout) if timeout is not None else None
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
                    if deadline is not None:
                        deadline.check(tk)
                x = sol.y[:, -1]
                log.steps = j
                log.advanced(grid[j] - grid[i] + system.step)
                i = j + 1
        except KeyboardInterrupt:  # and Terminated: the point the run stopped at
            if last is not None:
                log.record(last[0], last[1] if pick is None else last[1][pick])
            raise
    return log.result
