"""Reference trajectories for set-points."""
from __future__ import annotations


def quintic_ramp(t: float, t0: float, T: float, q0: float, q1: float):
    """Set-point moving from ``q0`` to ``q1`` during ``[t0, t0 + T]`` with the
    quintic 10-15-6 profile (eq. (22) of Jarzębowska, Urbaś & Augustynek (2018)), zero
    velocity and acceleration at both ends.  Returns ``(q, dq/dt, d2q/dt2)``
    in the units of ``q0`` per s^0, s^-1, s^-2.  ``T <= 0`` gives a step at
    ``t0``."""
    if t <= t0:
        return q0, 0.0, 0.0
    if T <= 0.0 or t >= t0 + T:
        return q1, 0.0, 0.0
    s = (t - t0) / T
    dq = q1 - q0
    pos = s**3 * (10.0 - 15.0 * s + 6.0 * s * s)
    vel = 30.0 * s**2 * (1.0 - s) ** 2 / T
    acc = 60.0 * s * (1.0 - s) * (1.0 - 2.0 * s) / T**2
    return q0 + dq * pos, dq * vel, dq * acc


def ramp_sequence(t: float, start: float, moves):
    """Set-point after a sequence of quintic moves ``(t0, T, target)`` applied in
    time order, starting from ``start``.  Returns ``(q, dq/dt, d2q/dt2)``."""
    q, v, a = start, 0.0, 0.0
    for t0, T, target in sorted(moves):
        if t < t0:
            break
        q, v, a = quintic_ramp(t, t0, T, q, target)
        if t < t0 + T:
            break
    return q, v, a
