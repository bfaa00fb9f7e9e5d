"""The programmed path of the flexible crane's end effector E
(:class:`blocks.flexible_crane.FlexibleCrane`), eqs. (17)-(22) of
Jarzębowska, Urbaś & Augustynek (2018): the ellipse ``Phi_1 = x^2/a^2 +
y^2/b^2 - 1 = 0`` in the ground plane and the height ``Phi_2 = z -
z_E,a(t) = 0``, at acceleration level with Baumgarte's terms in the form
``Phi'' + alpha Phi' + beta^2 Phi = 0``; and the check, before a run, that
the path lies within the crane's reach."""
from __future__ import annotations

import math

import numpy as np

from .block import ParameterError


def path_rows(p, z_ramp, r_E, v_E, G, bias):
    """``(grad, Phi, A, gamma)`` of the programme for E at ``r_E`` [m] moving
    at ``v_E`` [m/s] (Frame 0), with ``G = d v_E / d nu`` and ``bias`` E's
    acceleration at ``d nu/dt = 0`` [m/s2]; ``p`` the block's parameters
    (``a_E``, ``b_E``, ``alpha``, ``beta``) and ``z_ramp`` the programmed
    height ``(z, dz/dt, d2z/dt2)`` of eq. (22) now: ``grad`` (2 x 3) the
    constraints' gradients in Frame 0, ``Phi`` their values (eq. 17), and
    the rows ``A d nu/dt = gamma`` (eq. 18 with Baumgarte's terms)."""
    z_a, dz_a, ddz_a = z_ramp
    grad = np.array([[2.0 * r_E[0] / p.a_E**2, 2.0 * r_E[1] / p.b_E**2, 0.0], [0.0, 0.0, 1.0]])
    Phi = np.array([(r_E[0] / p.a_E) ** 2 + (r_E[1] / p.b_E) ** 2 - 1.0, r_E[2] - z_a])
    dPhi = grad @ v_E - np.array([0.0, dz_a])
    hess = 2.0 * (v_E[0] ** 2 / p.a_E**2 + v_E[1] ** 2 / p.b_E**2)
    gamma = np.array([-hess, ddz_a]) - grad @ bias - p.alpha * dPhi - p.beta**2 * Phi
    return grad, Phi, grad @ G, gamma


def check_reach(p, z_E_s: float) -> None:
    """The programmed path, from the start height ``z_E_s`` [m] up by
    ``z_inc``, must lie within the reach of boom and jib from the boom joint
    (at ``l_king`` above the mount, the mount at the ground origin): raise
    :class:`ParameterError` otherwise, in one sentence with the reach."""
    lo, hi = abs(p.l_boom - p.l_jib), p.l_boom + p.l_jib
    radii = (min(p.a_E, p.b_E), max(p.a_E, p.b_E))
    heights = np.array([z_E_s, z_E_s + p.z_inc]) - p.l_king
    far = max(math.hypot(r, z) for r in radii for z in heights)
    near_z = 0.0 if heights.min() <= 0.0 <= heights.max() else np.abs(heights).min()
    near = math.hypot(radii[0], near_z)
    if far >= 0.99 * hi:
        # the farthest point is at the ellipse's long semi-axis; the rise
        # is named too when the start height alone is within reach
        which = "a_E" if p.a_E >= p.b_E else "b_E"
        culprit = f"parameter {which} = {max(p.a_E, p.b_E):g} m"
        if math.hypot(radii[1], heights[0]) < 0.99 * hi:
            culprit = f"parameters {which} = {max(p.a_E, p.b_E):g} m and z_inc = {p.z_inc:g} m"
        raise ParameterError(f"FlexibleCrane {culprit} {'is' if 'and' not in culprit else 'are'} invalid: "
                             f"the programmed path passes {far:.3g} m from the boom joint, beyond the crane's "
                             f"reach of {hi:.3g} m (l_boom + l_jib, less 1%)")
    if near <= lo + 0.01 * hi:
        which = "b_E" if p.a_E >= p.b_E else "a_E"
        raise ParameterError(f"FlexibleCrane parameter {which} = {min(p.a_E, p.b_E):g} m is invalid: the "
                             f"programmed path passes {near:.3g} m from the boom joint, inside the crane's "
                             f"least reach of {lo:.3g} m (|l_boom - l_jib|)")
