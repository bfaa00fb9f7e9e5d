"""The iterated midpoint's and the iterated quadratic's step compiled
(``step.py``), set up from the Python algorithm (``algorithms/midpoint.py``,
``algorithms/quadratic.py``) it stands in for, and what it reports turned
into the algorithm's errors and counts.  The execution asks
:func:`stand_in` for the twin of an algorithm that has one
(``Algorithm.compiled_twin``) and steps it in the algorithm's place; the
FMU instances give it what it calls (``FMI2Instance.native_access``).

The compiled step runs where every component is an FMI 2.0 FMU whose
exchange is all Real (no String, no Integer or Boolean to convert) but for
Boolean or Integer outputs after its Real ones that nothing reads (a
payload's ``slack``: read after each step, for the record), the
passes settle (no fixed number of ``iterations``), and the components
stepped again keep one saved state each (the project's FMUs, whose binary
says so: ``NativeAccess.keeps_one_state``); elsewhere, or with numba switched
off (``CRANE_COSIM_NUMBA=0``) or ``CRANE_COSIM_MASTER=python`` set, the
Python algorithm runs, which gives the same bits (``summary.json``:
``master_step``).  A step that numba cannot compile is an error (the run
stops, saying so), never the Python algorithm in its place.

A component that discards a step (``fmi2Discard``) is asked at once
whether it asks to end the simulation having reached the step's end
(``component._ended_at_end``): then the step goes on, as the Python
algorithm's does; else the step stops and :meth:`CompiledMidpoint.step`
asks it (``FMI2Instance.ended_at``), ending or failing the run alike.
"""
from __future__ import annotations

import ctypes
import math
import os
import time

import numpy as np

from ...blocks.compile_lock import compiling_alone
from ...blocks.jit import _numba
from ...errors import CraneCosimError
from ..algorithms.acceleration import GROWTH, REUSE
from ..algorithms.base import FLOOR, check_finite
from ..algorithms.midpoint import MAX_PASSES, IteratedMidpoint
from ..algorithms.quadratic import IteratedQuadratic
from ..fmi2 import FMI2Instance, address_of
from . import cache, layout, qn
from . import step as kernel

__all__ = ["CompiledMidpoint", "stand_in", "why_not_compiled", "TOGETHER_SWITCH"]

#: the environment variable that, set to ``python``, runs the Python algorithm
SWITCH = "CRANE_COSIM_MASTER"
#: the environment variable that, set to ``0``, steps the components of a
#: pass one after another where they could step at the same time
TOGETHER_SWITCH = "CRANE_COSIM_STEP_TOGETHER"


def why_not_compiled(algorithm) -> str | None:
    """Why the compiled step cannot stand in for ``algorithm`` (an
    ``IteratedMidpoint`` or ``IteratedQuadratic``), in a few words; None
    where it can."""
    if os.environ.get(SWITCH, "").strip().lower() == "python":
        return f"{SWITCH}=python"
    if _numba() is None:
        return "numba switched off"
    if _clock_gettime() is None:
        return "no clock_gettime in the C library"
    if type(algorithm) not in (IteratedMidpoint, IteratedQuadratic):
        return f"the {algorithm.name} step is not compiled"
    if algorithm.settling_bound is None:
        return "a fixed number of passes"
    if algorithm.point is None:
        return "outputs read in passes at the point"
    for k, inst in enumerate(algorithm.instances):
        if not isinstance(inst, FMI2Instance):
            return f"component {inst.name} is not an FMI 2.0 FMU"
        if inst.transforms_inputs:
            return f"component {inst.name}'s values are transformed on their way (a connection or a scenario)"
        if inst.model.model_exchange is not None:
            return f"component {inst.name} is a Model Exchange FMU, integrated by the master"
        access = inst.native_access()
        if not (access.only_reals or access.typed_after_reals):
            return f"component {inst.name} exchanges values other than Real"
        if not access.only_reals and _reads_typed(algorithm, k, access.n_real_out):
            return f"component {inst.name}'s outputs other than Real are connected"
        if inst.weights is not None:
            return f"component {inst.name} has its inputs extrapolated"
        if k in algorithm.again and not access.keeps_one_state:
            return f"component {inst.name} does not keep one saved state"
    return None


def _reads_typed(algorithm, k: int, n_real: int) -> bool:
    """Whether a connection reads an output of component ``k`` past its
    first ``n_real`` (its Boolean or Integer outputs)."""
    return any(r.src == k and np.any(np.asarray(r.src_index) >= n_real)
               for routes in algorithm.plan.routes for r in routes)


def stand_in(algorithm):
    """What the execution steps for ``algorithm``: its compiled twin where
    one can stand in for it, else the algorithm itself, told why
    (``why_python``, which ``summary.json`` says)."""
    why = why_not_compiled(algorithm)
    if why is None:
        return CompiledMidpoint(algorithm)
    algorithm.why_python = why
    return algorithm


def _clock_gettime():
    """The C library's clock_gettime (POSIX), or None (Windows)."""
    try:
        return ctypes.CDLL(None).clock_gettime
    except (OSError, TypeError, AttributeError):
        return None


def _csr(lists, dtype=np.int64):
    """``(ptr, flat)``: list ``i`` of ``lists`` is ``flat[ptr[i]:ptr[i + 1]]``."""
    ptr = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
    flat = np.concatenate([np.asarray(x, dtype) for x in lists]) if lists and ptr[-1] else np.zeros(0, dtype)
    return ptr, flat


def _component_tables(alg, states: np.ndarray) -> tuple:
    """``ci``, ``ca`` (``layout.py``'s columns) of the algorithm's
    instances; each one stepped again keeps its saved state in ``states``
    (for the instance to free at the end)."""
    insts = alg.instances
    ci = np.zeros((len(insts), 6), np.int64)
    ca = np.zeros((len(insts), 23), np.uint64)
    for k, inst in enumerate(insts):
        a = inst.native_access()
        n_real = len(a.y) if a.only_reals else a.n_real_out
        ci[k] = (len(a.u), n_real, alg.offsets[k], a.no_prior, k in alg.fixed_step, len(a.y) - n_real)
        if k in alg.again:
            inst.keep_state_in(states, k)
        ca[k] = (a.component, a.get_real, a.set_real, a.do_step, a.get_state, a.set_state, a.in_vr, a.out_vr,
                 a.u.ctypes.data, a.y.ctypes.data, a.u_raw.ctypes.data, states.ctypes.data + 8 * k,
                 a.set_derivatives, a.du_vr, a.du_order, a.du.ctypes.data, a.get_boolean_status,
                 a.get_real_status, a.post_steps, a.collect_steps, a.get_typed, a.typed_vr,
                 0 if a.typed is None else a.typed.ctypes.data)
    return ci, ca, states


def _together(alg) -> list[bool]:
    """Per row of the passes, whether its component steps at the same time
    as the rows before it (``layout.TOGETHER``): in the same pass, each of
    them taking a step's calls in one crossing, and none of them a source
    of its inputs.  (A row before it that reads this one's outputs read
    them before this one stepped either way.)  None does where
    ``CRANE_COSIM_STEP_TOGETHER=0`` (:data:`TOGETHER_SWITCH`) is set, for
    measuring what stepping together gains."""
    if os.environ.get(TOGETHER_SWITCH, "").strip() == "0":
        return [False] * len(alg.pass_steps)
    sources = [{r.src for r in routes} for routes in alg.plan.routes]
    batched = [inst.native_access().post_steps != 0 for inst in alg.instances]
    together, group = [], []
    for row, (p, k, _, _) in enumerate(alg.pass_steps):
        joins = (bool(group) and alg.pass_steps[row - 1][0] == p and batched[k] and batched[group[0]]
                 and not sources[k] & set(group))
        group = group + [k] if joins else [k]
        together.append(joins)
    return together


def _pass_tables(alg) -> tuple:
    """The passes (``plan``, ``again``), the mid-step values, their history,
    the indices of the values watched and predicted."""
    pass_rows = np.array([[p, k, halves, last, together] for (p, k, halves, last), together
                          in zip(alg.pass_steps, _together(alg))], np.int64).reshape(-1, 5)
    predicted_at = np.asarray(alg.predicted_at, np.int64)
    return (pass_rows, np.asarray(alg.again, np.int64), alg.mid_flat, np.zeros((2, len(predicted_at))),
            np.asarray(alg.watched_at, np.int64), predicted_at)


def _peak_tables(peaks) -> tuple:
    """``peak``, ``scale``, ``group`` (component and unit, numbered across
    the components) and a workspace of a value per group."""
    groups, first_group = [], 0
    for g in peaks.groups:
        groups.append(np.asarray(g.index, np.int64) + first_group)
        first_group += int(g.index.max()) + 1 if len(g.index) else 0
    return (peaks.peak_flat.copy(), np.concatenate(peaks.scale) if peaks.scale else np.zeros(0),
            np.concatenate(groups) if groups else np.zeros(0, np.int64), np.zeros(max(first_group, 1)))


def _route_tables(routes) -> tuple:
    """The routes into each component: ``route_ptr``, ``route_src``,
    ``route_idx``, ``route_dst``."""
    def joined(part):
        return [np.concatenate([part(r) for r in rts]) if rts else [] for rts in routes]
    route_ptr, route_src = _csr(joined(lambda r: np.full(len(r.src_index), r.src)))
    return route_ptr, route_src, _csr(joined(lambda r: r.src_index))[1], _csr(joined(lambda r: r.dst_index))[1]


def _point_tables(point, loops) -> tuple:
    """The schedule of the reads at the point and its ``loops`` (those of
    ``point``, in the order of their groups)."""
    loop_of = {id(loop): i for i, loop in enumerate(loops)}
    group_ptr, members = _csr([ks for ks, _ in point.groups])
    group_loop = np.array([loop_of.get(id(point.loops.get(g)), -1) for g in range(len(point.groups))], np.int64)
    loop_ptr, loop_src = _csr([np.concatenate([np.full(len(idx), s) for s, idx in loop.sources])
                               if loop.sources else [] for loop in loops])
    _, loop_idx = _csr([np.concatenate([idx for _, idx in loop.sources]) if loop.sources else [] for loop in loops])
    _, loop_smooth = _csr([loop.smooth for loop in loops], np.bool_)
    return (np.asarray(point.first, np.int64), group_ptr, members, group_loop, loop_ptr, loop_src, loop_idx,
            loop_smooth, np.zeros((3, max(int(loop_ptr[-1]), 1))), bool(point.predicted))


def _model_tables(models, scratch_of_passes: int) -> tuple:
    """The quasi-Newton ``models`` (``qn.py``; None: an empty one) and the
    workspaces of their fits: the passes' needing ``scratch_of_passes``
    floats besides its fit's."""
    sizes = [0 if m is None else m.n for m in models]
    qn_off = np.zeros((len(models), 3), np.int64)
    f_at = i_at = 0
    for m, size in enumerate(sizes):
        qn_off[m] = (f_at, i_at, size)
        f_at += qn.model_floats(size)
        i_at += qn.model_ints(size)
    scratch = max([scratch_of_passes + 5 * sizes[0]] + [4 * s + 5 * s for s in sizes[1:]])
    return (qn_off, np.zeros(max(f_at, 1)), np.zeros(max(i_at, 1), np.int64),
            np.zeros((len(models), qn.STATE_COLUMNS), np.int64), np.zeros(len(models)), np.zeros(max(scratch, 1)))


class CompiledMidpoint:
    """The compiled step of ``algorithm`` (an ``IteratedMidpoint``, or its
    ``IteratedQuadratic``, for which :func:`why_not_compiled` is None),
    from its state as built: its histories empty, its peaks those of the
    start; it stands in for the algorithm (``Algorithm``'s members: the
    steps, the coupling's order, the summary), whose counts it keeps.
    ``args``: the step's arguments after ``t`` and ``h``, in the order of
    ``step.SIGNATURE``."""

    def __init__(self, algorithm):
        self.algorithm = alg = algorithm
        self.name, self.order, self.plan, self.time_of = alg.name, alg.order, alg.plan, alg.time_of
        self.instances = insts = alg.instances
        n = len(insts)
        point = alg.point
        self.loops = sorted(point.loops)
        loops = [point.loops[g] for g in self.loops]
        quadratic = isinstance(alg, IteratedQuadratic)
        points = 2 if quadratic else 1  # the values at mid-step (and t + h)
        watched, predicted = points * len(alg.watched_at), points * len(alg.predicted_at)
        self.states = np.zeros(n, np.uint64)
        self.ts = np.zeros(2, np.int64)
        self.answer = np.zeros(1)  # an FMU's answer to a status query
        misc = np.array([address_of(_clock_gettime()), self.ts.ctypes.data, time.CLOCK_MONOTONIC,
                         self.answer.ctypes.data], np.uint64)
        self.counts = np.zeros(MAX_PASSES + 1, np.int64)
        self.loop_rounds = np.zeros((len(loops), MAX_PASSES + 1), np.int64)
        self.result = np.array([0.0, 0.0, 0.0, -1.0])  # step.midpoint_steps says what each holds
        self.fault = np.zeros(3, np.int64)
        self.fault_t = np.zeros(1)
        self.discarded = np.full((n, 2), math.nan)
        self.fmi_ns = np.zeros((n, 2), np.int64)
        for k, inst in enumerate(insts):  # the instance's fmi_time counts them
            inst.fmi_ns = (self.fmi_ns, k)
        state = (np.zeros(1 + len(loops), np.int64),
                 np.array([math.nan, math.nan, alg.settling_bound, GROWTH, FLOOR, REUSE, MAX_PASSES], float))
        reports = (np.zeros(n, np.bool_), misc, self.ts, self.counts, self.loop_rounds, self.result, self.fault,
                   self.fault_t, self.discarded, self.fmi_ns)
        self.args = (*_component_tables(alg, self.states), *_pass_tables(alg), *_peak_tables(alg.peaks),
                     *_route_tables(alg.plan.routes), *_point_tables(point, loops), *state,
                     *_model_tables([alg.accelerated] + [loop.model for loop in loops],
                                    3 * watched + 4 * predicted),
                     *reports, *self._quadratic_arguments(quadratic))
        #: the steps' spans (from, over) and rows (``step.midpoint_steps``)
        self.spans, self.rows = np.zeros((1, 2)), np.zeros((1, 1 + len(alg.mid_flat)))
        # numba's machine code loaded (or compiled: ``master_warm_up.py`` says so first) now, not in the first step
        try:
            with compiling_alone([kernel.midpoint_steps], cache.folder()):
                kernel.midpoint_steps.compile(kernel.SIGNATURE)
        except Exception as exc:  # numba's errors have no common base class
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise CraneCosimError(f"numba could not compile the master's step ({first}); "
                                  f"{SWITCH}=python runs the Python algorithm instead") from exc

    def _quadratic_arguments(self, quadratic: bool) -> tuple:
        """The iterated quadratic's arrays (``quadratic_kernels.py``), empty for the
        iterated midpoint."""
        alg, n = self.algorithm, len(self.instances)
        if not quadratic:
            empty = np.zeros(0, np.int64)
            return False, np.zeros(0), np.zeros(0), np.zeros(n + 1, np.int64), empty, empty, np.full(n, -1, np.int64)
        follow_ptr, follow_from = _csr([[] if a is None else a for a in alg.follow_from])
        _, follow_to = _csr([[] if a is None else a for a in alg.follow_to])
        first_halves = np.array([int(alg.first[k]) if k in alg.first else -1 for k in range(n)], np.int64)
        return True, alg.start_flat, alg.end_flat, follow_ptr, follow_from, follow_to, first_halves

    def step(self, k: int, t: float, h: float) -> None:
        """The step ``k`` from ``t`` over ``h`` [s]; raises as the Python algorithm would."""
        self.spans[0] = t, h
        error = self._made(*kernel.midpoint_steps(self.spans[:1], self.rows, *self.args))[1]
        self._counted()
        if error is not None:
            raise error

    def steps(self, times: np.ndarray) -> tuple[np.ndarray, Exception | None]:
        """The steps from ``times[0]`` to each of ``times[1:]`` [s] in turn:
        the rows of those made to their end (the time, then every
        component's outputs), and the error that stopped the steps (None:
        all made), to raise once the rows are recorded."""
        count = times.size - 1
        if self.spans.shape[0] < count:
            self.spans, self.rows = np.zeros((count, 2)), np.zeros((count, self.rows.shape[1]))
        spans = self.spans[:count]
        spans[:, 0] = times[:-1]
        np.subtract(times[1:], times[:-1], out=spans[:, 1])  # as t_next - t, to the bit
        done, error = self._made(*kernel.midpoint_steps(spans, self.rows, *self.args))
        self._counted()
        self.rows[:done, 0] = times[1:done + 1]
        return self.rows[:done], error

    def _counted(self) -> None:
        """The last step's passes, and the fewest of a step that did not
        settle, from the step's ``result``, in the algorithm's counts (which
        the estimate of the coupling's order reads)."""
        alg = self.algorithm
        passes, settled, alg.change, fewest = self.result.tolist()
        alg.passes, alg.settled = int(passes), bool(settled)
        if fewest >= 0:
            alg.fewest_unsettled = int(fewest)

    def coupling_order(self) -> int:
        return self.algorithm.coupling_order()

    def summary(self) -> dict:
        """The algorithm's summary, from the counts of the compiled step's own tables."""
        return self.algorithm.summary(
            passes={p: c for p, c in enumerate(self.counts.tolist()) if c},
            rounds={g: {r: c for r, c in enumerate(self.loop_rounds[L].tolist()) if c}
                    for L, g in enumerate(self.loops)},
            master_step="compiled")

    def _made(self, made: int, kind: int) -> tuple[int, Exception | None]:
        """The steps made to their end of the ``made`` a call made, the last
        of which reported ``kind``, and the error it stopped with (None)."""
        if not kind:
            return made, None
        try:
            if kind & layout.DISCARDED:
                self._ask_discarded()
            if kind & ~layout.DISCARDED:
                raise self._explain(kind & ~layout.DISCARDED)
        except Exception as exc:  # noqa: BLE001 - raised by the caller, after the rows are recorded
            return made - 1, exc
        return made, None  # its component ended the simulation where the step ended

    def _ask_discarded(self) -> None:
        """Ask each component that discarded a step whether it ended the
        simulation (and where); raise where it did not."""
        for k, (t, h) in enumerate(self.discarded.tolist()):
            if not math.isnan(t):
                inst = self.instances[k]
                if not inst.ended_at(t, h):
                    raise inst.explain(f"step from t = {t:g} s")
        self.discarded[:] = math.nan

    def _explain(self, kind: int) -> Exception:
        """The error of the fault the step reported."""
        k = int(self.fault[1])
        t = float(self.fault_t[0])
        inst = self.instances[k]
        if kind in (layout.NOT_FINITE, layout.NOT_FINITE_END):
            check_finite(inst, t)  # raises, naming the output
            return CraneCosimError(f"component {inst.name} returned an output that is not finite at t = {t:g} s")
        what = {layout.FAILED_STEP: f"step from t = {t:g} s", layout.FAILED_SET: "accept its inputs",
                layout.FAILED_DERIVATIVES: "accept its input derivatives",
                layout.FAILED_GET: "return its outputs", layout.FAILED_SAVE: "save its state",
                layout.FAILED_RESTORE: "restore its state"}[kind]
        return inst.explain(what)
