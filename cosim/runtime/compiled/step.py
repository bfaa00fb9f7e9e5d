"""The iterated midpoint's step (``algorithms/midpoint.py``, with the reads
at the point of ``algorithms/point.py`` and the peaks of
``algorithms/base.py``), and the iterated quadratic's with its passes
(``quadratic_kernels.py``), compiled by numba, calling the FMUs' FMI 2.0
functions through their addresses (``calls.py``): the same calls, values
and operations, in the same order, as the Python algorithm, which is its
reference (tests/runtime/test_compiled_step.py compares the two to the bit).

What a step of the Python algorithm spends on itself, a microsecond or two
a call of an FMU and a few for each small numpy operation, is gone; the
FMUs' own time stays (docs/benchmarks.md).
``engine.py`` builds the tables this step reads from the algorithm and
explains what it reports; ``component.py`` holds the calls of one
component, ``held.py`` a component's step in a pass (and the components
that step at the same time), ``point_kernels.py`` the reads at the point,
``qn.py`` the quasi-Newton step, ``layout.py`` the columns and slots named
below.

The arrays (``engine.py`` says how each is made):

* per component ``k``: ``ci[k]`` its counts and flags (the ``N_IN`` ...
  columns), ``ca[k]`` its addresses (the ``COMPONENT`` ... columns: the
  FMU's instance and functions, the value references, its arrays ``u``,
  ``y`` and ``u_raw``, the slot of its saved state); ``states[k]`` that
  slot;
* the routes into component ``k``: ``route_src[r]``, ``route_idx[r]``,
  ``route_dst[r]`` for ``r`` from ``route_ptr[k]`` to ``route_ptr[k + 1]``;
* the passes: ``plan`` (pass, component, halves, last, together), ``again``;
* the values of every component's outputs one after another (``mid``,
  ``peak``, ``scale``), the indices into them of the values watched
  (``watched_at``) and predicted (``predicted_at``), ``hist`` the
  predicted values' settled mid-step values at the last steps, ``group``
  the group (component and unit) of each output;
* the reads at the point: ``first``, the groups (``group_ptr``,
  ``members``, ``group_loop``), the loops' values read early
  (``loop_ptr``, ``loop_src``, ``loop_idx``, ``loop_smooth``,
  ``loop_hist``);
* the quasi-Newton models (``qn.py``): model 0 the passes', model
  ``1 + L`` loop ``L``'s;
* ``ints``: ``HIST_COUNT`` (settled mid-step values kept), then per loop
  its settled points kept; ``floats``: ``LAST_H`` and ``POINT_H``, the
  steps the histories are of, ``SETTLE_TOL`` the settling bound,
  ``GROWTH_LIMIT``, ``FLOOR_OF``;
* what the step reports: ``counts`` (steps by re-step passes),
  ``loop_rounds`` (points by rounds, per loop), ``result`` (the passes
  made, whether the last settled, the largest change), ``fault`` (kind,
  component, status; ``fault_t`` its time), ``discarded`` (per component: the step from
  which its first discarded ``fmi2DoStep`` went, else NaN) and
  ``fmi_ns``, per component the nanoseconds spent in its FMI calls and
  the steps it was asked to make.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba import types as nt

from .calls import fmi2_get_state
from .component import (batched, call_fault, do_step, doubles, fail, finite, get_typed, largest_change, now, restore,
                        set_inputs, spent, step_calls)
from .held import gather_mid, held_step, step_together
from .layout import (COMPONENT, DISCARDED, FAILED_GET, FAILED_RESTORE, FAILED_SAVE, FAILED_SET, FAILED_STEP,
                     FIXED_STEP, FLOOR_OF, GET_CALL, GET_STATE, GROWTH_LIMIT, HIST_COUNT, LAST_H, N_OUT, N_TYPED,
                     NOT_FINITE_END, OFFSET, OK, PASS, REUSE_STEPS, SETTLE_TOL, SLOT, TOGETHER, Y)
from .point_kernels import point_reads
from .quadratic_kernels import quadratic_passes
from .qn import qn_new_step, qn_next_input

__all__ = ["midpoint_steps", "SIGNATURE"]

@njit(cache=True)
def _update_peaks(ci, ca, peak, scale, group, group_max, floor):
    """``base.Peaks.update`` with the outputs as they stand."""
    for k in range(ci.shape[0]):
        y = doubles(ca[k, Y], ci[k, N_OUT])
        o = ci[k, OFFSET]
        grew = False
        for i in range(y.size):
            v = abs(y[i])
            if v > peak[o + i]:
                peak[o + i] = v
                grew = True
        if not grew:
            continue
        for i in range(o, o + y.size):
            group_max[group[i]] = 0.0
        for i in range(o, o + y.size):
            group_max[group[i]] = max(group_max[group[i]], peak[i])
        for i in range(o, o + y.size):
            scale[i] = max(peak[i], floor * group_max[group[i]])


@njit(cache=True)
def _passes(t, h, ci, ca, states, plan, again, saving, early, first, mid, watched_at, predicted_at, scale, route_ptr,
            route_src, route_idx, route_dst, floats, qn_off, qn_f, qn_i, qn_state, qn_size, scratch, at_mid,
            misc, ts, fmi_ns, discarded, fault, fault_t, result):
    """``IteratedMidpoint._passes`` (the components' states saved, or saved
    in the first pass where ``saving``): ``result`` the re-step passes
    made, whether the last settled, the largest change; 0, or the fault's
    kind.  ``early``: the components of ``first`` whose outputs at the end
    of the step were read with it."""
    tol = floats[SETTLE_TOL]
    nw, npred = watched_at.size, predicted_at.size
    before, now, wscale = scratch[:nw], scratch[nw:2 * nw], scratch[2 * nw:3 * nw]
    read_in, produced = scratch[3 * nw:3 * nw + npred], scratch[3 * nw + npred:3 * nw + 2 * npred]
    pscale, nxt = scratch[3 * nw + 2 * npred:3 * nw + 3 * npred], scratch[3 * nw + 3 * npred:3 * nw + 4 * npred]
    rest = scratch[3 * nw + 4 * npred:]
    for i in range(nw):
        before[i] = mid[watched_at[i]]
        wscale[i] = scale[watched_at[i]]
    for i in range(npred):
        read_in[i] = mid[predicted_at[i]]
        pscale[i] = scale[predicted_at[i]]
    if npred:
        qn_new_step(0, qn_off, qn_i, qn_state, np.int64(floats[REUSE_STEPS]))
    at_mid[:] = False
    current, passes, settled, change = 0, 0, False, 0.0
    for row in range(plan.shape[0]):
        p, k, halves, last = plan[row, 0], plan[row, 1], plan[row, 2], plan[row, 3]
        if p > current:  # a re-step pass begins
            for i in range(nw):
                now[i] = mid[watched_at[i]]
            change = largest_change(now, before, wscale)
            settled = change <= tol
            if settled:
                result[0], result[1], result[2] = passes, 1.0, change
                return _finish(t, h, ci, ca, states, again, early, first, mid, route_ptr, route_src, route_idx,
                               route_dst, at_mid, misc, ts, fmi_ns, discarded, fault, fault_t)
            if npred:
                for i in range(npred):
                    produced[i] = mid[predicted_at[i]]
                qn_next_input(0, read_in, produced, pscale, nxt, qn_off, qn_f, qn_i, qn_state, qn_size, rest,
                              floats[GROWTH_LIMIT])
                for i in range(npred):
                    mid[predicted_at[i]] = nxt[i]
                    read_in[i] = nxt[i]
            for i in range(nw):
                before[i] = mid[watched_at[i]]
            current = p
            at_mid[:] = False
            passes += 1
        if row > 0 and plan[row, TOGETHER] and plan[row - 1, PASS] == p:
            continue  # stepped with the rows before it
        end = row + 1
        while end < plan.shape[0] and plan[end, TOGETHER] and plan[end, PASS] == p:
            end += 1
        if end == row + 1:
            reached = held_step(k, p == 0 and saving[k], p > 0, halves, last, t, h, ci, ca, states, mid, route_ptr,
                                route_src, route_idx, route_dst, misc, ts, fmi_ns, discarded, fault, fault_t)
            if reached < 0:
                return fault[0]
            if reached == 0:
                at_mid[k] = True
        elif not step_together(row, end, saving, t, h, plan, ci, ca, states, mid, route_ptr, route_src, route_idx,
                               route_dst, at_mid, misc, ts, fmi_ns, discarded, fault, fault_t):
            return fault[0]
    for i in range(nw):
        now[i] = mid[watched_at[i]]
    change = largest_change(now, before, wscale)
    result[0], result[1], result[2] = passes, 1.0 if change <= tol else 0.0, change
    return OK


@njit(cache=True)
def _finish(t, h, ci, ca, states, again, early, first, mid, route_ptr, route_src, route_idx, route_dst, at_mid, misc,
            ts, fmi_ns, discarded, fault, fault_t):
    """``IteratedMidpoint._finish``; a component that takes a step's calls
    in one crossing and whose outputs the reads at the point read first
    has them read with its last step (``early``): they depend on nothing
    the others do after it."""
    wanted = np.zeros(early.size, np.bool_)
    for k in first:
        wanted[k] = batched(k, ca)
    for k in again:
        if at_mid[k] and batched(k, ca):
            t0 = now(misc, ts)
            early[k] = wanted[k]
            s, which = step_calls(k, False, 0, False, t + h / 2, h / 2, early[k], 0.0, ci, ca, misc, fmi_ns,
                                  discarded)
            spent(k, t0, misc, ts, fmi_ns)
            if s > 1:
                return fail(fault, fault_t, call_fault(which), k, s, t + h if which == GET_CALL else t + h / 2)
            continue
        if at_mid[k]:
            t0 = now(misc, ts)
            s = do_step(k, t + h / 2, h / 2, ci, ca, misc, fmi_ns, discarded)
            spent(k, t0, misc, ts, fmi_ns)
            if s > 1:
                return fail(fault, fault_t, FAILED_STEP, k, s, t + h / 2)
            continue
        gather_mid(k, ci, ca, mid, route_ptr, route_src, route_idx, route_dst)
        t0 = now(misc, ts)
        if batched(k, ca):
            halves = ci[k, FIXED_STEP] != 0
            early[k] = wanted[k] and not halves  # (the outputs are read between the halves)
            s, which = step_calls(k, False, states[k], True, t, h / 2 if halves else h, early[k],
                                  h / 2 if halves else 0.0, ci, ca, misc, fmi_ns, discarded)
            spent(k, t0, misc, ts, fmi_ns)
            if s > 1:
                return fail(fault, fault_t, call_fault(which), k, s, t + h if which == GET_CALL else t)
            continue
        s = restore(k, ca, states)
        if s > 1:
            spent(k, t0, misc, ts, fmi_ns)
            return fail(fault, fault_t, FAILED_RESTORE, k, s, t)
        s = set_inputs(k, ci, ca)
        if s > 1:
            spent(k, t0, misc, ts, fmi_ns)
            return fail(fault, fault_t, FAILED_SET, k, s, t)
        if ci[k, FIXED_STEP]:
            s = do_step(k, t, h / 2, ci, ca, misc, fmi_ns, discarded)
            if s <= 1:
                s = do_step(k, t + h / 2, h / 2, ci, ca, misc, fmi_ns, discarded)
        else:
            s = do_step(k, t, h, ci, ca, misc, fmi_ns, discarded)
        spent(k, t0, misc, ts, fmi_ns)
        if s > 1:
            return fail(fault, fault_t, FAILED_STEP, k, s, t)
    return OK


@njit(cache=True)
def midpoint_steps(spans, rows, ci, ca, states, plan, again, mid, hist, watched_at, predicted_at, peak, scale, group,
                   group_max, route_ptr, route_src, route_idx, route_dst, first, group_ptr, members, group_loop,
                   loop_ptr, loop_src, loop_idx, loop_smooth, loop_hist, point_predicted, ints, floats, qn_off, qn_f,
                   qn_i, qn_state, qn_size, scratch, at_mid, misc, ts, counts, loop_rounds,
                   result, fault, fault_t, discarded, fmi_ns, quadratic, start, end,
                   follow_ptr, follow_from, follow_to, first_halves):
    """The steps from ``spans[i, 0]`` over ``spans[i, 1]`` [s] in turn, each
    as :func:`_step` makes it (the bit ``DISCARDED`` added to what it
    reports where a component discarded a step: ``discarded`` says which
    and from when), with every component's outputs at the end of step
    ``i``, one after another, in ``rows[i, 1:]`` (the caller writes the
    time in ``rows[i, 0]``).  ``(made, kind)``: the steps
    made, the last of them the one that reported ``kind`` where it is not
    0 (its outputs written only where it went to its end: ``kind`` no
    more than ``DISCARDED``).  ``result[3]``: the fewest re-step passes
    of a step whose passes did not settle, so far (-1: none)."""
    made = 0
    for i in range(spans.shape[0]):
        kind = _step(spans[i, 0], spans[i, 1], ci, ca, states, plan, again, mid, hist, watched_at, predicted_at,
                     peak, scale, group, group_max, route_ptr, route_src, route_idx, route_dst, first, group_ptr,
                     members, group_loop, loop_ptr, loop_src, loop_idx, loop_smooth, loop_hist, point_predicted, ints,
                     floats, qn_off, qn_f, qn_i, qn_state, qn_size, scratch, at_mid, misc, ts, counts, loop_rounds,
                     result, fault, fault_t, discarded, fmi_ns, quadratic, start, end, follow_ptr, follow_from,
                     follow_to, first_halves)
        for k in range(discarded.shape[0]):
            if not np.isnan(discarded[k, 0]):
                kind |= DISCARDED
                break
        made += 1
        if kind & ~DISCARDED:
            return made, kind
        for k in range(ci.shape[0]):
            o, n = 1 + ci[k, OFFSET], ci[k, N_OUT] + ci[k, N_TYPED]
            rows[i, o:o + n] = doubles(ca[k, Y], n)
        if result[1] == 0.0 and again.size and (result[3] < 0.0 or result[0] < result[3]):
            result[3] = result[0]
        if kind:
            return made, kind
    return made, OK


@njit(cache=True)
def _step(t, h, ci, ca, states, plan, again, mid, hist, watched_at, predicted_at, peak, scale, group,
          group_max, route_ptr, route_src, route_idx, route_dst, first, group_ptr, members, group_loop,
          loop_ptr, loop_src, loop_idx, loop_smooth, loop_hist, point_predicted, ints, floats, qn_off, qn_f,
          qn_i, qn_state, qn_size, scratch, at_mid, misc, ts, counts, loop_rounds,
          result, fault, fault_t, discarded, fmi_ns, quadratic, start, end,
          follow_ptr, follow_from, follow_to, first_halves):
    """One step of the iterated midpoint from ``t`` over ``h`` [s]
    (``IteratedMidpoint.step``, settling), or with ``quadratic`` of the
    iterated quadratic (``quadratic_kernels.py``: its arrays, else empty); 0, or
    the kind of the fault that stopped it (``fault``, ``fault_t``: what the
    caller explains)."""
    n = ci.shape[0]
    for k in range(n):
        o, y = ci[k, OFFSET], doubles(ca[k, Y], ci[k, N_OUT])
        mid[o:o + y.size] = y  # a source not yet stepped: its value at t
        if quadratic:
            start[o:o + y.size] = y
            end[o:o + y.size] = y
    if h != floats[LAST_H]:
        floats[LAST_H] = h
        ints[HIST_COUNT] = 0
    kept = ints[HIST_COUNT]
    for i in range(predicted_at.size):  # acceleration.extrapolated, at mid-step (and at t + h)
        j = predicted_at[i]
        at_t = mid[j]
        if kept == 2:
            mid[j] = 1.0 / 3.0 * hist[0, i] + -2.0 * hist[1, i] + 8.0 / 3.0 * at_t
            if quadratic:
                end[j] = 1.0 * hist[0, i] + -5.0 * hist[1, i] + 5.0 * at_t
        elif kept == 1:
            mid[j] = 2.0 * at_t - hist[0, i]
            if quadratic:
                end[j] = 3.0 * at_t - 2.0 * hist[0, i]
    # a component that takes a step's calls in one crossing saves its state
    # in its first pass's (``saving``); the others here.  ``early``: those
    # whose outputs the end of the passes read, which the reads at the
    # point need not read again
    saving, early = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
    for k in again:
        if batched(k, ca) and not quadratic:
            saving[k] = True
            continue
        t0 = now(misc, ts)
        s = fmi2_get_state(ca[k, GET_STATE], ca[k, COMPONENT], ca[k, SLOT])
        spent(k, t0, misc, ts, fmi_ns)
        if s > 1:
            return fail(fault, fault_t, FAILED_SAVE, k, s, t)
    if quadratic:
        kind = quadratic_passes(t, h, ci, ca, states, again, mid, start, end, watched_at, predicted_at, scale,
                                route_ptr, route_src, route_idx, route_dst, follow_ptr, follow_from, follow_to,
                                first_halves, floats, qn_off, qn_f, qn_i, qn_state, qn_size, scratch, misc, ts,
                                fmi_ns, discarded, fault, fault_t, result)
    else:
        kind = _passes(t, h, ci, ca, states, plan, again, saving, early, first, mid, watched_at, predicted_at, scale,
                       route_ptr, route_src, route_idx, route_dst, floats, qn_off, qn_f, qn_i, qn_state, qn_size,
                       scratch, at_mid, misc, ts, fmi_ns, discarded, fault, fault_t, result)
    if kind:
        return kind
    counts[np.int64(result[0])] += 1
    if kept == 2:
        hist[0, :] = hist[1, :]
        kept = 1
    for i in range(predicted_at.size):
        hist[kept, i] = mid[predicted_at[i]]
    ints[HIST_COUNT] = kept + 1
    kind = point_reads(h, ci, ca, route_ptr, route_src, route_idx, route_dst, scale, first, group_ptr, members,
                        group_loop, loop_ptr, loop_src, loop_idx, loop_smooth, loop_hist, point_predicted, ints,
                        floats, qn_off, qn_f, qn_i, qn_state, qn_size, scratch, loop_rounds, misc, ts, fmi_ns, fault,
                        fault_t, t + h, early)
    if kind:
        return kind
    for k in range(n):
        if ci[k, N_TYPED]:  # read for the record alone (none of them is connected)
            t0 = now(misc, ts)
            s = get_typed(k, ci, ca)
            spent(k, t0, misc, ts, fmi_ns)
            if s > 1:
                return fail(fault, fault_t, FAILED_GET, k, s, t + h)
        if not finite(doubles(ca[k, Y], ci[k, N_OUT])):
            return fail(fault, fault_t, NOT_FINITE_END, k, 0, t + h)
    _update_peaks(ci, ca, peak, scale, group, group_max, floats[FLOOR_OF])
    return OK


_F1, _F2, _I1, _I2 = nt.float64[::1], nt.float64[:, ::1], nt.int64[::1], nt.int64[:, ::1]
#: the types of :func:`midpoint_steps`'s arguments, as ``engine.py`` makes
#: them (a test checks), for compiling it before a run (``compiled/master_warm_up.py``)
SIGNATURE = (_F2, _F2, _I2, nt.uint64[:, ::1], nt.uint64[::1], _I2, _I1, _F1, _F2, _I1, _I1, _F1, _F1,
             _I1, _F1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, nt.bool_[::1], _F2, nt.boolean, _I1,
             _F1, _I2, _F1, _I1, _I2, _F1, _F1, nt.bool_[::1], nt.uint64[::1],
             _I1, _I1, _I2, _F1, _I1, _F1, _F2, _I2, nt.boolean, _F1, _F1, _I1, _I1, _I1, _I1)
