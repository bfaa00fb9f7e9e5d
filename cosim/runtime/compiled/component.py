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

from .calls import (clock_gettime, double_pointer, fmi2_do_step, fmi2_get_real, fmi2_get_status,
                    fmi2_set_derivatives, fmi2_set_state)
from .layout import (ANSWER, CLOCK, CLOCK_ID, COMPONENT, DO_STEP, DU, DU_ORDER, DU_VR, GET_BOOLEAN_STATUS, GET_REAL,
                     GET_REAL_STATUS, LAST_SUCCESSFUL_TIME, N_IN, N_OUT, NO_PRIOR, SET_DERIVATIVES, SET_REAL, SET_STATE,
                     STATUS_DISCARD, TERMINATED, TIMESPEC, U, VR_IN, VR_OUT, Y)

__all__ = ["now", "spent", "doubles", "set_inputs", "set_derivatives", "get_outputs", "do_step", "restore", "fail",
           "finite", "largest_change"]


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
