"""The radiation memory of Cummins' equation as a state-space model fitted
to a hull's hydrodynamic database.

Cummins (1962): ``(M + A_inf) du/dt + mu + C eta = F``, the memory ``mu(t)
= int_0^t K(t - s) u(s) ds``, ``u`` the velocities (surge, sway, heave
[m/s]; roll, pitch, yaw [rad/s]; the database's axes and reference point),
``mu`` the forces [N] and moments [N.m] on them, ``K_ij`` row the force's
degree of freedom, column the motion's.  Ogilvie (1964): ``K(t) = (2/pi)
int_0^inf B(w) cos(w t) dw``, ``K(jw) = B(w) + j w (A(w) - A_inf)``.  Here
``mu = C x``, ``dx/dt = A x + B u``, block-diagonal, a block per pair ``(i,
j)`` (input ``u_j``, output ``mu_i``), as Perez & Fossen (2008, 2009).

The fit (:func:`.radiation_fit.fit_radiation`), in the frequency domain:
each pair's ``K(s) = s P(s) / Q(s)`` on its own (:mod:`.radiation_pairs`);
the pairs of each coupled group of degrees of freedom refined together
with their 2x2 (or larger) passivity (:mod:`.radiation_groups`); then the
6x6 model made passive on the whole frequency axis, its residues changed
the least (:mod:`.radiation_passivity`).  Not the time domain (Kung's SVD
realisation of K(t)): K(t) needs B's cosine transform, B is known only up
to ``w_max`` and the barge's has not decayed there (roll: 64% of its
peak), so K(t) would carry the truncation's ringing; the frequency domain
uses A as well as B and nothing beyond the grid.

The grid's ends: nothing is extrapolated.  Below ``w_min`` B is negligible
(B -> 0 as w -> 0) and the structure gives ``K(0) = 0``; above ``w_max`` the
model is what its poles make it, ``K ~ 1/(jw)``, passive.

Pairs: a diagonal pair is fitted when its B is not zero, a coupling ``(i,
j)`` when ``max |B_ij| >= COUPLING_THRESHOLD sqrt(max B_ii max B_jj)``.  A
and B are symmetric up to the panel method's error, so ``i < j`` is fitted
to the mean of ``K_ij`` and ``K_ji`` (A_inf's too) and serves both; the
asymmetry is kept in :attr:`RadiationFit.asymmetry` (the barge's sway-roll:
12% of its largest |K|).  A pair's error: the largest over the grid of
``|K_fit(jw) - K(jw)|`` over the pair's largest ``|K(jw)|``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm

__all__ = ["RadiationFit", "frequency_response", "retardation", "retardation_function", "memory_response",
           "fitted_pairs", "groups", "TOLERANCE", "MAX_ORDER", "COUPLING_THRESHOLD"]

#: the default error asked of each pair (the barge: every pair within 2.5% once passive, 68 states, in
#: about 16 s; 2% leaves heave at 2.1% up to order 10): the time-domain vessel then keeps the barge's
#: RAO within 1.3% of the largest motion, where 5% (the pairs alone, 42 states) left 2.3% near the heave
#: resonance
TOLERANCE = 0.025
#: the highest order tried for a pair
MAX_ORDER = 10
#: a coupling's largest |B_ij| over sqrt(max B_ii max B_jj) below which it is not fitted (the barge's
#: couplings: 0.51 surge-pitch, 0.87 sway-roll, the others below 8e-4, round-off of a symmetric hull)
COUPLING_THRESHOLD = 0.01


@dataclass
class RadiationFit:
    """``dx/dt = A x + B u``, ``mu = C x`` (u [m/s, rad/s], mu [N, N.m], x
    [m, rad]: filtered displacements); per pair ``(i, j)`` its order, error,
    states (a slice of x) and, couplings only, the database's asymmetry
    ``max |K_ij - K_ji|`` over the pair's largest ``|K|``."""

    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    orders: dict
    errors: dict
    states: dict
    asymmetry: dict
    tolerance: float

    @property
    def n_states(self) -> int:
        return self.A.shape[0]


def memory_response(omega, added_mass, radiation_damping, added_mass_inf) -> np.ndarray:
    """Ogilvie's ``K(jw) = B(w) + j w (A(w) - A_inf)`` (n, 6, 6) [kg/s,
    kg.m/s, kg.m2/s] of the database's arrays (``omega`` [rad/s] (n,))."""
    w = np.asarray(omega, float)[:, None, None]
    return np.asarray(radiation_damping, float) + 1j * w * (np.asarray(added_mass, float) - added_mass_inf)


def fitted_pairs(radiation_damping, threshold=COUPLING_THRESHOLD) -> list:
    """The pairs ``(i, j)``, ``i <= j``, worth a fit (module docstring)."""
    peak = np.abs(np.asarray(radiation_damping)).max(axis=0)
    return [(i, j) for i in range(6) for j in range(i, 6) if max(peak[i, j], peak[j, i]) > 0
            and (i == j or max(peak[i, j], peak[j, i]) >= threshold * np.sqrt(peak[i, i] * peak[j, j]))]


def groups(pairs) -> list:
    """The degrees of freedom the ``pairs`` couple, as groups (sorted
    tuples; a degree of freedom coupled to none alone): K is
    block-diagonal over them."""
    found = [{i, j} for i, j in pairs]
    merged = []
    for g in found:
        for other in [m for m in merged if m & g]:
            merged.remove(other)
            g = g | other
        merged.append(g)
    return sorted(tuple(sorted(g)) for g in merged)


def frequency_response(fit: RadiationFit, omega) -> np.ndarray:
    """The model's ``K(jw) = C (jw I - A)^-1 B`` (n, 6, 6) [kg/s, ...] at
    ``omega`` [rad/s] (n,)."""
    eye = np.eye(fit.n_states)
    return np.array([fit.C @ np.linalg.solve(1j * w * eye - fit.A, fit.B) for w in np.asarray(omega, float)])


def retardation(fit: RadiationFit, t) -> np.ndarray:
    """The model's ``K(t) = C expm(A t) B`` (len(t), 6, 6) [kg/s2, kg.m/s2,
    kg.m2/s2] at the times ``t`` [s]."""
    return np.array([fit.C @ expm(fit.A * ti) @ fit.B for ti in np.asarray(t, float)])


def retardation_function(omega, radiation_damping, t) -> np.ndarray:
    """Ogilvie's ``K(t) = (2/pi) int B(w) cos(w t) dw`` (len(t), 6, 6) by
    the trapezoid rule over ``omega`` [rad/s] with ``B(0) = 0`` added and
    nothing above ``w_max``: where B has not decayed there, the truncation
    misses ``(2/pi) int_wmax^inf B dw`` at t = 0 and rings at ``w_max`` with
    an amplitude of about ``(2/pi) B(w_max) / t``."""
    w = np.concatenate([[0.0], np.asarray(omega, float)])
    B = np.concatenate([np.zeros((1, 36)), np.asarray(radiation_damping, float).reshape(-1, 36)])
    weights, t = np.gradient(w) * np.r_[0.5, np.ones(w.size - 2), 0.5], np.asarray(t, float)  # the trapezoid's
    return (2 / np.pi * (np.cos(np.outer(t, w)) * weights) @ B).reshape(t.size, 6, 6)


