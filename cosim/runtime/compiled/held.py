"""A component's step in the iterated midpoint's passes, compiled
(``step.py`` makes the passes): its inputs held at their sources' mid-step
values (``IteratedMidpoint._held_step``), its calls made one by one or, for
a component that takes them in one crossing (the project's proxy: portable
FMUs, ``--processes``), sent at once; and the rows of a pass that step at
the same time, each component in its process (``layout.TOGETHER``)."""
from __future__ import annotations

import numpy as np
from numba import njit

from .component import (batched, call_fault, collect_steps, do_step, doubles, fail, finite, first_call, get_outputs,
                        now, post_steps, restore, set_inputs, spent)
from .layout import (FAILED_GET, FAILED_RESTORE, FAILED_SET, FAILED_STEP, GET_CALL, HALVES, LAST, N_IN, N_OUT,
                     NOT_FINITE, OFFSET, PASS, STEPPED, U, Y)

__all__ = ["gather_mid", "held_step", "step_together"]


@njit(cache=True)
def gather_mid(k, ci, ca, mid, route_ptr, route_src, route_idx, route_dst):
    """Component ``k``'s inputs at their sources' mid-step values."""
    u = doubles(ca[k, U], ci[k, N_IN])
    for r in range(route_ptr[k], route_ptr[k + 1]):
        u[route_dst[r]] = mid[ci[route_src[r], OFFSET] + route_idx[r]]


@njit(cache=True)
def _steps(h, halves, last):
    """``(h1, h2)`` [s] of a held step over ``h``: its first step (the
    whole one, or its first half), and the second half made at once where
    ``last`` (0: none)."""
    return (h / 2 if halves else h), (h / 2 if halves and last else 0.0)


@njit(cache=True)
def _held_post(k, save, again, halves, last, t, h, ci, ca, states, mid, route_ptr, route_src, route_idx, route_dst):
    """The calls of :func:`held_step` sent to a component that takes them
    in one crossing (``component.post_steps``), its state saved first where
    ``save``; the status of the sending."""
    gather_mid(k, ci, ca, mid, route_ptr, route_src, route_idx, route_dst)
    h1, h2 = _steps(h, halves, last)
    return post_steps(k, save, states[k] if again else 0, True, t, h1, halves, h2, ci, ca)


@njit(cache=True)
def _held_collect(k, save, again, halves, last, t, h, posted, t0, ci, ca, states, mid, misc, ts, fmi_ns, discarded,
                  fault, fault_t):
    """The answer to :func:`_held_post` (``posted`` its status, ``t0`` its
    time), as :func:`held_step` returns it."""
    state = states[k] if again else 0
    h1, h2 = _steps(h, halves, last)
    if posted > 1:
        s, which = posted, first_call(save, state, True, h1, ci, k)
    else:
        s, which = collect_steps(k, save, state, True, t, h1, halves, h2, ci, ca, misc, fmi_ns, discarded)
    spent(k, t0, misc, ts, fmi_ns)
    if s > 1:
        fail(fault, fault_t, call_fault(which), k, s, t + h / 2 if which >= GET_CALL else t)
        return -1
    if not halves:
        return 1
    y = doubles(ca[k, Y], ci[k, N_OUT])
    mid[ci[k, OFFSET]:ci[k, OFFSET] + ci[k, N_OUT]] = y
    if not finite(y):
        fail(fault, fault_t, NOT_FINITE, k, 0, t + h / 2)
        return -1
    return 1 if last else 0


@njit(cache=True)
def held_step(k, save, again, halves, last, t, h, ci, ca, states, mid, route_ptr, route_src, route_idx, route_dst,
              misc, ts, fmi_ns, discarded, fault, fault_t):
    """``IteratedMidpoint._held_step`` (the component's state restored
    first where it steps ``again``; saved first where ``save``, which only
    a component taking its calls in one crossing is asked): 1 if the
    component reached t + h, 0 if stopped at mid-step, -1 on a fault."""
    if batched(k, ca):
        t0 = now(misc, ts)
        posted = _held_post(k, save, again, halves, last, t, h, ci, ca, states, mid, route_ptr, route_src,
                            route_idx, route_dst)
        return _held_collect(k, save, again, halves, last, t, h, posted, t0, ci, ca, states, mid, misc, ts, fmi_ns,
                             discarded, fault, fault_t)
    gather_mid(k, ci, ca, mid, route_ptr, route_src, route_idx, route_dst)
    t0 = now(misc, ts)
    if again:
        s = restore(k, ca, states)
        if s > 1:
            spent(k, t0, misc, ts, fmi_ns)
            fail(fault, fault_t, FAILED_RESTORE, k, s, t)
            return -1
    s = set_inputs(k, ci, ca)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        fail(fault, fault_t, FAILED_SET, k, s, t)
        return -1
    s = do_step(k, t, h / 2 if halves else h, ci, ca, misc, fmi_ns, discarded)
    if s > 1:
        spent(k, t0, misc, ts, fmi_ns)
        fail(fault, fault_t, FAILED_STEP, k, s, t)
        return -1
    if not halves:
        spent(k, t0, misc, ts, fmi_ns)
        return 1
    s = get_outputs(k, ci, ca)
    spent(k, t0, misc, ts, fmi_ns)
    if s > 1:
        fail(fault, fault_t, FAILED_GET, k, s, t + h / 2)
        return -1
    y = doubles(ca[k, Y], ci[k, N_OUT])
    mid[ci[k, OFFSET]:ci[k, OFFSET] + ci[k, N_OUT]] = y
    if not finite(y):
        fail(fault, fault_t, NOT_FINITE, k, 0, t + h / 2)
        return -1
    if last:
        t0 = now(misc, ts)
        s = do_step(k, t + h / 2, h / 2, ci, ca, misc, fmi_ns, discarded)
        spent(k, t0, misc, ts, fmi_ns)
        if s > 1:
            fail(fault, fault_t, FAILED_STEP, k, s, t + h / 2)
            return -1
        return 1
    return 0


@njit(cache=True)
def step_together(row, end, saving, t, h, plan, ci, ca, states, mid, route_ptr, route_src, route_idx, route_dst,
                  at_mid, misc, ts, fmi_ns, discarded, fault, fault_t):
    """The rows ``row`` to ``end`` of a pass (``plan``'s ``TOGETHER``: none
    reads what another steps in it, and each takes its calls in one
    crossing) stepped at the same time, each in its process: every one's
    calls sent, then every answer taken, in order; a component's state
    saved first in the first pass where ``saving[k]``.  Whether all went
    well; else the first fault, in the rows' order, is in ``fault``."""
    n = end - row
    posted, t0 = np.empty(n, np.int32), np.empty(n, np.int64)
    for i in range(n):
        p, k, halves, last = plan[row + i, PASS], plan[row + i, STEPPED], plan[row + i, HALVES], plan[row + i, LAST]
        t0[i] = now(misc, ts)
        posted[i] = _held_post(k, p == 0 and saving[k], p > 0, halves, last, t, h, ci, ca, states, mid, route_ptr,
                               route_src, route_idx, route_dst)
    ok = True
    for i in range(n):
        p, k, halves, last = plan[row + i, PASS], plan[row + i, STEPPED], plan[row + i, HALVES], plan[row + i, LAST]
        save = p == 0 and saving[k]
        if not ok:  # a fault before it: its answer taken all the same, so that no call is left open
            if posted[i] <= 1:
                h1, h2 = _steps(h, halves, last)
                collect_steps(k, save, states[k] if p > 0 else 0, True, t, h1, halves, h2, ci, ca, misc, fmi_ns,
                              discarded)
            continue
        reached = _held_collect(k, save, p > 0, halves, last, t, h, posted[i], t0[i], ci, ca, states, mid, misc, ts,
                                fmi_ns, discarded, fault, fault_t)
        if reached < 0:
            ok = False
        elif reached == 0:
            at_mid[k] = True
    return ok
