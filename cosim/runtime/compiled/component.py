"""The FMI 2.0 calls of one component in the compiled master step, the
clock that times them (``fmi_ns``: nanoseconds in each component's calls,
for the master's own time to be told from the FMUs'), and the checks and
records of a fault.

The callers time a component's calls made one after another as one
interval (:func:`now` before the first, :func:`spent` after the last):
a read of the clock costs about 25 ns, as much as a call's own framing,
and a step of the flagship makes some 90 calls.  What lies between such
calls, the test of each call's status, is a few nanoseconds."""
from __future__ import annotations

import numpy as np
from numba import carray, njit

from .calls import (clock_gettime, double_pointer, fmi2_collect_steps, fmi2_do_step, fmi2_get_ints, fmi2_get_real,
                    fmi2_get_status, fmi2_post_steps, fmi2_set_derivatives, fmi2_set_state, int32_pointer)
from .layout import (ANSWER, CLOCK, CLOCK_ID, COLLECT_STEPS, COMPONENT, DO_STEP, DU, DU_ORDER, DU_VR, FAILED_GET,
                     FAILED_RESTORE, FAILED_SAVE, FAILED_SET, FAILED_STEP, GET_BOOLEAN_STATUS, GET_CALL, GET_REAL,
                     GET_REAL_STATUS, GET_TYPED, LAST_SUCCESSFUL_TIME, N_IN, N_OUT, N_TYPED, NO_PRIOR, POST_STEPS,
                     RESTORE_CALL, SAVE_CALL, SECOND_STEP_CALL, SET_CALL, SET_DERIVATIVES, SET_REAL, SET_STATE, SLOT,
                     STATUS_DISCARD, STEP_CALL, TERMINATED, TIMESPEC, TYPED, U, VR_IN, VR_OUT, VR_TYPED, Y)

__all__ = ["now", "spent", "doubles", "set_inputs", "set_derivatives", "get_outputs", "get_typed", "do_step", "restore",
           "fail", "finite", "largest_change", "batched", "first_call", "call_fault", "post_steps", "collect_steps",
           "step_calls", "set_and_get"]


@njit(cache=True)
def now(misc, ts):
    """The monotonic clock [ns]."""
    clock_gettime(misc[CLOCK], misc[CLOCK_ID], misc[TIMESPEC])
    return ts[0] * 1000000000 + ts[1]


@njit(cache=True)
def spent(k, t0, misc, ts, fmi_ns):
    """Add the time since ``t0`` [ns] to component ``k``'s calls."""
    fmi_ns[k, 0] += now(misc, ts) - t0


@njit(cache=True)
def doubles(address, n):
    return carray(double_pointer(address), (n,))


@njit(cache=True)
def _reals(k, function, vr, n, values, ca):
    """fmi2SetReal or fmi2GetReal (``function``, ``vr``, ``values``: columns
    of ``ca``) of component ``k``'s ``n`` values; its status."""
    if n == 0:
        return 0
    # the two calls have one signature (calls.fmi2_set_real is this intrinsic)
    return fmi2_get_real(ca[k, function], ca[k, COMPONENT], ca[k, vr], n, ca[k, values])


@njit(cache=True)
def set_inputs(k, ci, ca):
    return _reals(k, SET_REAL, VR_IN, ci[k, N_IN], U, ca)


@njit(cache=True)
def set_derivatives(k, ci, ca):
    """The first and second time derivatives of component ``k``'s inputs
    (its array ``du``, a row each; ``FMI2Instance.set_input_derivatives``)."""
    n = 2 * ci[k, N_IN]
    if n == 0:
        return 0
    return fmi2_set_derivatives(ca[k, SET_DERIVATIVES], ca[k, COMPONENT], ca[k, DU_VR], n, ca[k, DU_ORDER], ca[k, DU])


@njit(cache=True)
def get_outputs(k, ci, ca):
    return _reals(k, GET_REAL, VR_OUT, ci[k, N_OUT], Y, ca)


@njit(cache=True)
def get_typed(k, ci, ca):
    """Read component ``k``'s Boolean or Integer outputs, those after its
    Real ones, into its ``y`` after them (as the Python instance's typed
    channels convert them): its status."""
    n = ci[k, N_TYPED]
    s = fmi2_get_ints(ca[k, GET_TYPED], ca[k, COMPONENT], ca[k, VR_TYPED], n, ca[k, TYPED])
    if s > 1:
        return s
    values = carray(int32_pointer(ca[k, TYPED]), (n,))
    y = doubles(ca[k, Y], ci[k, N_OUT] + n)
    for j in range(n):
        y[ci[k, N_OUT] + j] = values[j]
    return s


@njit(cache=True)
def do_step(k, t, h, ci, ca, misc, fmi_ns, discarded):
    """Step component ``k``: its status.  A discarded step is noted (with
    its start) and passed as success where the component says it reached
    the step's end and asks to end the simulation there, as
    ``FMI2Instance._ended`` asks it; else the status stays a discard, which
    stops the step, for the caller to ask the component as the Python
    algorithm does at once (``engine.py``)."""
    status = fmi2_do_step(ca[k, DO_STEP], ca[k, COMPONENT], t, h, ci[k, NO_PRIOR])
    fmi_ns[k, 1] += 1
    if status == STATUS_DISCARD:
        if np.isnan(discarded[k, 0]):
            discarded[k, 0], discarded[k, 1] = t, h
        return 1 if _ended_at_end(k, t, h, ca, misc) else status
    return status


@njit(cache=True)
def _ended_at_end(k, t, h, ca, misc):
    """Whether component ``k``, which discarded its step from ``t`` over
    ``h`` [s], asks to end the simulation (fmi2Terminated) having reached
    the step's end (fmi2LastSuccessfulTime)."""
    answer = doubles(misc[ANSWER], 1)
    answer[0] = 0.0
    if fmi2_get_status(ca[k, GET_BOOLEAN_STATUS], ca[k, COMPONENT], TERMINATED, misc[ANSWER]) != 0:
        return False
    if answer[0] == 0.0:  # the fmi2Boolean written over the double's first bytes: still all zero
        return False
    if fmi2_get_status(ca[k, GET_REAL_STATUS], ca[k, COMPONENT], LAST_SUCCESSFUL_TIME, misc[ANSWER]) != 0:
        return False
    return answer[0] >= t + h * (1 - 1e-9)


@njit(cache=True)
def batched(k, ca):
    """Whether component ``k`` takes a step's calls in one crossing (the
    project's proxy: :func:`post_steps`)."""
    return ca[k, POST_STEPS] != 0


@njit(cache=True)
def first_call(save, state, give, h1, ci, k):
    """The call a sequence makes first (``layout.SAVE_CALL`` ...): the one
    that failed where the process is gone."""
    if save:
        return SAVE_CALL
    if state:
        return RESTORE_CALL
    return SET_CALL if give and ci[k, N_IN] else STEP_CALL if h1 > 0 else GET_CALL


@njit(cache=True)
def call_fault(which):
    """The kind of fault (``layout.FAILED_STEP`` ...) of a failed call of a
    sequence (``layout.SAVE_CALL`` ...)."""
    if which == SAVE_CALL:
        return FAILED_SAVE
    if which == RESTORE_CALL:
        return FAILED_RESTORE
    if which == SET_CALL:
        return FAILED_SET
    return FAILED_GET if which == GET_CALL else FAILED_STEP


@njit(cache=True)
def post_steps(k, save, state, give, t, h1, get, h2, ci, ca):
    """Send component ``k`` the calls of a step, not waiting for them
    (``crane_cosim_fmi2_post_steps``): its state saved into ``states[k]``
    where ``save``, the state ``state`` restored where not 0, its inputs
    set where ``give``, a step from ``t`` over ``h1`` where ``h1 > 0``, its
    outputs read where ``get``, a step over ``h2`` after it where
    ``h2 > 0``; the status of the sending."""
    return fmi2_post_steps(ca[k, POST_STEPS], ca[k, COMPONENT], ca[k, SLOT] if save else 0, state, ca[k, VR_IN],
                           ci[k, N_IN] if give else 0, ca[k, U], t, h1, ci[k, NO_PRIOR], ca[k, VR_OUT],
                           ci[k, N_OUT] if get else 0, h2)


@njit(cache=True)
def _collected(k, save, state, give, h1, get, ci, ca):
    """``(status, which)`` of the calls :func:`post_steps` sent, as the
    proxy answers them (``crane_cosim_fmi2_collect_steps``); where the
    process is gone, the first call is the one that failed."""
    r = fmi2_collect_steps(ca[k, COLLECT_STEPS], ca[k, COMPONENT], ca[k, Y], ci[k, N_OUT] if get else 0)
    status, which = r & 255, r >> 8
    if which == 0 and status > 1:
        which = first_call(save, state, give, h1, ci, k)
    return status, which


@njit(cache=True)
def collect_steps(k, save, state, give, t, h1, get, h2, ci, ca, misc, fmi_ns, discarded):
    """Wait for the calls :func:`post_steps` sent: ``(status, which)``, the
    status and the call (``layout.SAVE_CALL`` ...) as the calls made one by
    one leave them: the status of the first above fmi2Warning and that
    call, else a success and the last call.  A step discarded where the
    component asks to end having reached the step's end passes, as in
    :func:`do_step`, and the calls after it are made one by one."""
    status, which = _collected(k, save, state, give, h1, get, ci, ca)
    fmi_ns[k, 1] += (h1 > 0 and which >= STEP_CALL) + (h2 > 0 and which >= SECOND_STEP_CALL)
    if status != STATUS_DISCARD or (which != STEP_CALL and which != SECOND_STEP_CALL):
        return status, which
    ts, hs = (t, h1) if which == STEP_CALL else (t + h1, h2)
    if np.isnan(discarded[k, 0]):
        discarded[k, 0], discarded[k, 1] = ts, hs
    if not _ended_at_end(k, ts, hs, ca, misc):
        return status, which
    if which == STEP_CALL:
        if get:
            s = get_outputs(k, ci, ca)
            if s > 1:
                return s, GET_CALL
        if h2 > 0:
            s = do_step(k, t + h1, h2, ci, ca, misc, fmi_ns, discarded)
            if s > 1:
                return s, SECOND_STEP_CALL
    return 1, which


@njit(cache=True)
def step_calls(k, save, state, give, t, h1, get, h2, ci, ca, misc, fmi_ns, discarded):
    """:func:`post_steps` and :func:`collect_steps` at once."""
    s = post_steps(k, save, state, give, t, h1, get, h2, ci, ca)
    if s > 1:
        return s, first_call(save, state, give, h1, ci, k)
    return collect_steps(k, save, state, give, t, h1, get, h2, ci, ca, misc, fmi_ns, discarded)


@njit(cache=True)
def set_and_get(k, ci, ca):
    """Component ``k``'s inputs set and outputs read in one crossing (no
    step, so nothing to discard): ``(status, which)`` as
    :func:`collect_steps` gives them."""
    s = post_steps(k, False, 0, True, 0.0, 0.0, True, 0.0, ci, ca)
    if s > 1:
        return s, first_call(False, 0, True, 0.0, ci, k)
    return _collected(k, False, 0, True, 0.0, True, ci, ca)


@njit(cache=True)
def restore(k, ca, states):
    return fmi2_set_state(ca[k, SET_STATE], ca[k, COMPONENT], states[k])


@njit(cache=True)
def fail(fault, fault_t, kind, k, status, t):
    fault[0], fault[1], fault[2] = kind, k, status
    fault_t[0] = t
    return kind


@njit(cache=True)
def finite(y):
    for v in y:
        if not np.isfinite(v):
            return False
    return True


@njit(cache=True)
def largest_change(now, before, scale):
    """``base.largest_change``."""
    tiny = np.finfo(np.float64).tiny
    largest = 0.0
    for i in range(now.size):
        s = max(scale[i], abs(now[i]))
        s = max(s, abs(before[i]))
        s = max(s, tiny)
        largest = max(largest, abs(now[i] - before[i]) / s)
    return largest
