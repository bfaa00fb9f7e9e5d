"""The reads at a communication point (``algorithms/point.py``'s
``PointReads.read``) in the compiled master step: the components read
along the schedule, a loop of direct feedthrough round and round from
its predicted values, its later rounds quasi-Newton steps."""
from __future__ import annotations

import numpy as np
from numba import njit

from .component import (batched, call_fault, doubles, fail, get_outputs, largest_change, now, set_and_get, set_inputs,
                        spent)
from .layout import (FAILED_GET, FAILED_SET, GROWTH_LIMIT, N_IN, N_OUT, OFFSET, OK, POINT_H,
                     REUSE_STEPS, ROUNDS, SETTLE_TOL, U, U_RAW, Y)
from .qn import qn_new_step, qn_next_input

__all__ = ["point_reads"]


@njit(cache=True)
def _give_and_read(k, ci, ca, route_ptr, route_src, route_idx, route_dst, misc, ts, fmi_ns):
    """``point._give_and_read`` of component ``k``: 0, or the kind of the
    call that failed times 16 plus its status."""
    raw = doubles(ca[k, U_RAW], ci[k, N_IN])
    for r in range(route_ptr[k], route_ptr[k + 1]):
        src = route_src[r]
        raw[route_dst[r]] = doubles(ca[src, Y], ci[src, N_OUT])[route_idx[r]]
    doubles(ca[k, U], ci[k, N_IN])[:] = raw
    t0 = now(misc, ts)
    if batched(k, ca):  # both calls in one crossing (no step: nothing is discarded)
        s, which = set_and_get(k, ci, ca)
        spent(k, t0, misc, ts, fmi_ns)
        return 0 if s <= 1 else call_fault(which) * 16 + s
    s = set_inputs(k, ci, ca)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return FAILED_SET * 16 + s
    s = get_outputs(k, ci, ca)
    spent(k, t0, misc, ts, fmi_ns)
    if s > 1:
        return FAILED_GET * 16 + s
    return 0


@njit(cache=True)
def _loop_values(L, out, ci, ca, loop_ptr, loop_src, loop_idx):
    start = loop_ptr[L]
    for i in range(start, loop_ptr[L + 1]):
        src = loop_src[i]
        out[i - start] = doubles(ca[src, Y], ci[src, N_OUT])[loop_idx[i]]


@njit(cache=True)
def _loop_place(L, values, ci, ca, loop_ptr, loop_src, loop_idx):
    start = loop_ptr[L]
    for i in range(start, loop_ptr[L + 1]):
        src = loop_src[i]
        doubles(ca[src, Y], ci[src, N_OUT])[loop_idx[i]] = values[i - start]


@njit(cache=True)
def point_reads(h, ci, ca, route_ptr, route_src, route_idx, route_dst, scale, first, group_ptr, members,
                 group_loop, loop_ptr, loop_src, loop_idx, loop_smooth, loop_hist, predicted, ints, floats,
                 qn_off, qn_f, qn_i, qn_state, qn_size, scratch, loop_rounds, misc, ts,
                 fmi_ns, fault, fault_t, t_point, early):
    """``PointReads.read``: every component read at the point after a step
    of ``h``, along the schedule (those of ``first`` marked ``early`` read
    already, with their last step); 0, or the fault's kind."""
    n_loops = loop_ptr.size - 1
    if h != floats[POINT_H]:  # the points are no longer a step apart: predict afresh
        floats[POINT_H] = h
        for L in range(n_loops):
            ints[1 + L] = 0
    for k in first:
        if early[k]:
            continue
        t0 = now(misc, ts)
        s = get_outputs(k, ci, ca)
        spent(k, t0, misc, ts, fmi_ns)
        if s > 1:
            return fail(fault, fault_t, FAILED_GET, k, s, t_point)
    tol, rounds = floats[SETTLE_TOL], np.int64(floats[ROUNDS])
    for g in range(group_ptr.size - 1):
        L = group_loop[g]
        if L < 0:
            for k in members[group_ptr[g]:group_ptr[g + 1]]:
                s = _give_and_read(k, ci, ca, route_ptr, route_src, route_idx, route_dst, misc, ts, fmi_ns)
                if s:
                    return fail(fault, fault_t, s // 16, k, s % 16, t_point)
            continue
        a, b = loop_ptr[L], loop_ptr[L + 1]
        n = b - a
        # the loop's values: read, produced, the next read, their scales, its history
        read, produced, nxt, scales = (scratch[:n], scratch[n:2 * n], scratch[2 * n:3 * n], scratch[3 * n:4 * n])
        rest = scratch[4 * n:]
        past = loop_hist[:, a:b]
        smooth = loop_smooth[a:b]
        if predicted and ints[1 + L] >= 2:
            _loop_values(L, read, ci, ca, loop_ptr, loop_src, loop_idx)
            for i in range(n):
                if smooth[i]:
                    if ints[1 + L] == 3:
                        read[i] = 3.0 * past[2, i] - 3.0 * past[1, i] + past[0, i]
                    else:
                        read[i] = 2.0 * past[1, i] - past[0, i]
            _loop_place(L, read, ci, ca, loop_ptr, loop_src, loop_idx)
        _loop_values(L, read, ci, ca, loop_ptr, loop_src, loop_idx)
        for i in range(n):
            src = loop_src[a + i]
            scales[i] = scale[ci[src, OFFSET] + loop_idx[a + i]]
        if n:
            qn_new_step(1 + L, qn_off, qn_i, qn_state, np.int64(floats[REUSE_STEPS]))
        made = 0
        for _ in range(rounds):
            made += 1
            for k in members[group_ptr[g]:group_ptr[g + 1]]:
                s = _give_and_read(k, ci, ca, route_ptr, route_src, route_idx, route_dst, misc, ts, fmi_ns)
                if s:
                    return fail(fault, fault_t, s // 16, k, s % 16, t_point)
            _loop_values(L, produced, ci, ca, loop_ptr, loop_src, loop_idx)
            if largest_change(produced, read, scales) <= tol:
                break
            if n == 0:
                continue
            qn_next_input(1 + L, read, produced, scales, nxt, qn_off, qn_f, qn_i, qn_state, qn_size, rest,
                          floats[GROWTH_LIMIT])
            for i in range(n):
                read[i] = nxt[i] if smooth[i] else produced[i]
            _loop_place(L, read, ci, ca, loop_ptr, loop_src, loop_idx)
        if predicted:
            kept = ints[1 + L]
            if kept == 3:
                past[0, :] = past[1, :]
                past[1, :] = past[2, :]
                kept = 2
            _loop_values(L, past[kept], ci, ca, loop_ptr, loop_src, loop_idx)
            ints[1 + L] = kept + 1
        loop_rounds[L, made] += 1
    return OK
