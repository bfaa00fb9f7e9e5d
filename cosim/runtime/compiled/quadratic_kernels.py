"""The iterated quadratic's passes (``algorithms/quadratic.py``) in the
compiled master step: each component stepped again steps in two halves in
every pass, its inputs from components stepped again on the quadratic
through their sources' values at t, mid-step and t + h (set at t with their
first and second derivatives), and is read at mid-step and at t + h; the
others step once, in the first pass, as in the iterated midpoint.  The
same operations in the same order as the Python algorithm.

The arrays beside those of ``step.py``: ``start`` and ``end``, every
component's outputs at t and at t + h (laid out as ``mid``); the inputs
that follow a quadratic, ``follow_from[r]`` (an index into those arrays)
into input ``follow_to[r]`` of component ``k`` for ``r`` from
``follow_ptr[k]`` to ``follow_ptr[k + 1]``; ``first_halves[k]``, for a
component not stepped again, whether it steps in halves (else -1).
"""
from __future__ import annotations

from numba import njit

from .component import (do_step, doubles, fail, finite, get_outputs, largest_change, now, restore, set_derivatives,
                        set_inputs, spent)
from .layout import (DU, FAILED_DERIVATIVES, FAILED_GET, FAILED_RESTORE, FAILED_SET, FAILED_STEP,
                     GROWTH_LIMIT, N_IN, N_OUT, NOT_FINITE, OFFSET, OK, REUSE_STEPS, ROUNDS, SETTLE_TOL, U, Y)
from .qn import qn_new_step, qn_next_input

__all__ = ["quadratic_passes"]


@njit(cache=True)
def _both(values, mid, end, at):
    """``mid`` then ``end`` at the indices ``at``, into ``values``."""
    n = at.size
    for i in range(n):
        values[i] = mid[at[i]]
        values[n + i] = end[at[i]]


@njit(cache=True)
def _settled(p, now, before, wscale, mid, end, watched_at, result, tol):
    """Whether pass ``p`` just made moved no value watched, at mid-step or
    t + h, from ``before`` by more than ``tol`` of its scale (``wscale``);
    ``result``: the passes made, whether they settled, the largest change."""
    _both(now, mid, end, watched_at)
    change = largest_change(now, before, wscale)
    result[0], result[1], result[2] = p, 1.0 if change <= tol else 0.0, change
    return change <= tol


@njit(cache=True)
def _read(k, o, into, t, t0, ci, ca, misc, ts, fmi_ns, fault, fault_t):
    """Component ``k`` read into ``into`` from ``o`` on, the values checked
    at ``t``, its calls timed from ``t0`` on: 0, or the fault's kind."""
    s = get_outputs(k, ci, ca)
    spent(k, t0, misc, ts, fmi_ns)
    if s > 1:
        return fail(fault, fault_t, FAILED_GET, k, s, t)
    y = doubles(ca[k, Y], ci[k, N_OUT])
    into[o:o + y.size] = y
    if not finite(y):
        return fail(fault, fault_t, NOT_FINITE, k, 0, t)
    return OK


@njit(cache=True)
def _quadratic_step(k, again, t, h, ci, ca, states, mid, start, end, route_ptr, route_src, route_idx, route_dst,
                    follow_ptr, follow_from, follow_to, misc, ts, fmi_ns, discarded, fault, fault_t):
    """``IteratedQuadratic._quadratic_step`` (the component's state restored
    first where it steps ``again``): 0, or the fault's kind."""
    n_in = ci[k, N_IN]
    u = doubles(ca[k, U], n_in)
    for r in range(route_ptr[k], route_ptr[k + 1]):
        u[route_dst[r]] = mid[ci[route_src[r], OFFSET] + route_idx[r]]
    du = doubles(ca[k, DU], 2 * n_in)
    du[:] = 0.0
    for r in range(follow_ptr[k], follow_ptr[k + 1]):
        a, to = follow_from[r], follow_to[r]
        u0, um, ue = start[a], mid[a], end[a]
        u[to] = u0
        du[to] = (-3.0 * u0 + 4.0 * um - ue) / h
        du[n_in + to] = (4.0 * u0 - 8.0 * um + 4.0 * ue) / (h * h)
    t0 = now(misc, ts)
    if again:
        s = restore(k, ca, states)
        if s > 1:
            spent(k, t0, misc, ts, fmi_ns)
            return fail(fault, fault_t, FAILED_RESTORE, k, s, t)
    s = set_inputs(k, ci, ca)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_SET, k, s, t)
    s = set_derivatives(k, ci, ca)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_DERIVATIVES, k, s, t)
    s = do_step(k, t, h / 2, ci, ca, misc, fmi_ns, discarded)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_STEP, k, s, t)
    o = ci[k, OFFSET]
    kind = _read(k, o, mid, t + h / 2, t0, ci, ca, misc, ts, fmi_ns, fault, fault_t)
    if kind:
        return kind
    t0 = now(misc, ts)
    s = do_step(k, t + h / 2, h / 2, ci, ca, misc, fmi_ns, discarded)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_STEP, k, s, t + h / 2)
    return _read(k, o, end, t + h, t0, ci, ca, misc, ts, fmi_ns, fault, fault_t)


@njit(cache=True)
def _held_to_the_end(k, halves, t, h, ci, ca, mid, route_ptr, route_src, route_idx, route_dst, misc, ts, fmi_ns,
                     discarded, fault, fault_t):
    """A component not stepped again: ``IteratedMidpoint._held_step`` to
    t + h, its inputs at their mid-step values; 0, or the fault's kind."""
    u = doubles(ca[k, U], ci[k, N_IN])
    for r in range(route_ptr[k], route_ptr[k + 1]):
        u[route_dst[r]] = mid[ci[route_src[r], OFFSET] + route_idx[r]]
    t0 = now(misc, ts)
    s = set_inputs(k, ci, ca)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_SET, k, s, t)
    s = do_step(k, t, h / 2 if halves else h, ci, ca, misc, fmi_ns, discarded)
    if s > 1 or not halves:
        spent(k, t0, misc, ts, fmi_ns)
        return fail(fault, fault_t, FAILED_STEP, k, s, t) if s > 1 else OK
    kind = _read(k, ci[k, OFFSET], mid, t + h / 2, t0, ci, ca, misc, ts, fmi_ns, fault, fault_t)
    if kind:
        return kind
    t0 = now(misc, ts)
    s = do_step(k, t + h / 2, h / 2, ci, ca, misc, fmi_ns, discarded)
    spent(k, t0, misc, ts, fmi_ns)
    return fail(fault, fault_t, FAILED_STEP, k, s, t + h / 2) if s > 1 else OK


@njit(cache=True)
def quadratic_passes(t, h, ci, ca, states, again, mid, start, end, watched_at, predicted_at, scale, route_ptr,
                     route_src, route_idx, route_dst, follow_ptr, follow_from, follow_to, first_halves, floats,
                     qn_off, qn_f, qn_i, qn_state, qn_size, scratch, misc, ts, fmi_ns,
                     discarded, fault, fault_t, result):
    """``IteratedQuadratic._passes`` (the components' states saved, the
    values read early predicted at mid-step and t + h): ``result`` the
    re-step passes made, whether the last settled, the largest change; 0,
    or the fault's kind."""
    tol = floats[SETTLE_TOL]
    nw, npred = 2 * watched_at.size, 2 * predicted_at.size
    before, now, wscale = scratch[:nw], scratch[nw:2 * nw], scratch[2 * nw:3 * nw]
    read_in, produced = scratch[3 * nw:3 * nw + npred], scratch[3 * nw + npred:3 * nw + 2 * npred]
    pscale, nxt = scratch[3 * nw + 2 * npred:3 * nw + 3 * npred], scratch[3 * nw + 3 * npred:3 * nw + 4 * npred]
    rest = scratch[3 * nw + 4 * npred:]
    _both(before, mid, end, watched_at)
    _both(wscale, scale, scale, watched_at)
    _both(read_in, mid, end, predicted_at)
    _both(pscale, scale, scale, predicted_at)
    if npred:
        qn_new_step(0, qn_off, qn_i, qn_state, int(floats[REUSE_STEPS]))
    for k in range(ci.shape[0]):  # the first pass, in order
        if first_halves[k] >= 0:
            kind = _held_to_the_end(k, first_halves[k] == 1, t, h, ci, ca, mid, route_ptr, route_src, route_idx,
                                    route_dst, misc, ts, fmi_ns, discarded, fault, fault_t)
        else:
            kind = _quadratic_step(k, False, t, h, ci, ca, states, mid, start, end, route_ptr, route_src, route_idx,
                                   route_dst, follow_ptr, follow_from, follow_to, misc, ts, fmi_ns, discarded, fault,
                                   fault_t)
        if kind:
            return kind
    if _settled(0, now, before, wscale, mid, end, watched_at, result, tol):
        return OK  # the prediction held
    passes = int(floats[ROUNDS]) if again.size else 0
    for p in range(1, passes + 1):
        if npred:
            _both(produced, mid, end, predicted_at)
            qn_next_input(0, read_in, produced, pscale, nxt, qn_off, qn_f, qn_i, qn_state, qn_size, rest,
                          floats[GROWTH_LIMIT])
            half = predicted_at.size
            for i in range(half):
                mid[predicted_at[i]] = nxt[i]
                end[predicted_at[i]] = nxt[half + i]
            read_in[:] = nxt
        _both(before, mid, end, watched_at)
        for k in again:
            kind = _quadratic_step(k, True, t, h, ci, ca, states, mid, start, end, route_ptr, route_src, route_idx,
                                   route_dst, follow_ptr, follow_from, follow_to, misc, ts, fmi_ns, discarded, fault,
                                   fault_t)
            if kind:
                return kind
        if _settled(p, now, before, wscale, mid, end, watched_at, result, tol):
            return OK
    return OK
