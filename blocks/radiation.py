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

Method: frequency-domain identification of each pair's ``K(s) = s P(s) /
Q(s)`` (deg Q = n, deg P = n - 2: the zero at s = 0 and the relative degree
1 that ``K(0) = 0`` and ``K(jw) -> 0`` ask).  Sanathanan and Koerner's
iterated linear least squares, unstable poles reflected, start a nonlinear
least squares over a parametrisation that stays stable (Q a product of
``s^2 + 2 zeta w0 s + w0^2`` and ``s + d``, in a box), then Lawson's
reweighting towards the least largest error.  Reflection alone is not
enough: the barge's best unconstrained fits have poles just right of the
axis (roll near 3.1 rad/s, where B rises towards the grid's end; heave
near 2.5 rad/s in a database whose lid left an irregular frequency), and
the barge's roll, reflected, erred by 13% where the refinement reached
4.7%.  A diagonal pair
is kept passive (``Re K_ii(jw) >= 0``: the memory takes energy) by a
penalty from ``w_min / 10`` to ``MAX_POLE w_max``: without it the barge's
roll had ``Re K_33 = -0.7 max |K_33|`` at 7 rad/s.  Not the time domain
(Kung's SVD realisation of K(t)): K(t) needs B's cosine transform, B is
known only up to ``w_max`` and the barge's has not decayed there (roll: 64%
of its peak), so K(t) would carry the truncation's ringing; the frequency
domain uses A as well as B and nothing beyond the grid.

The grid's ends: nothing is extrapolated.  Below ``w_min`` B is negligible
(B -> 0 as w -> 0) and the structure gives ``K(0) = 0``; above ``w_max`` the
model is what its poles make it, ``K ~ 1/(jw)``, passive on the diagonal.

Pairs: a diagonal pair is fitted when its B is not zero, a coupling ``(i,
j)`` when ``max |B_ij| >= COUPLING_THRESHOLD sqrt(max B_ii max B_jj)``.  A
and B are symmetric up to the panel method's error, so ``i < j`` is fitted
to the mean of ``K_ij`` and ``K_ji`` (A_inf's too) and serves both; the
asymmetry is kept in :attr:`RadiationFit.asymmetry` (the barge's sway-roll:
12% of its largest |K|).  A pair's error: the largest over the grid of
``|K_fit(jw) - K(jw)|`` over the pair's largest ``|K(jw)|``.  Couplings are
not made passive, so the 6x6 model may not be (the barge's sway-roll is not
above the grid; the free-floating barge is stable).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import expm

__all__ = ["RadiationFit", "fit_radiation", "fit_pair", "frequency_response", "retardation", "retardation_function",
           "memory_response", "fitted_pairs", "TOLERANCE", "MAX_ORDER", "COUPLING_THRESHOLD"]

#: the default error asked of each pair (the barge: every pair within 2.5%, 56 states, in about 4 s; 2%
#: leaves heave at 2.1% up to order 10): the time-domain vessel then keeps the barge's RAO within 1.4%
#: of the largest motion, where 5% (42 states) left 2.3% near the heave resonance
TOLERANCE = 0.025
#: the highest order tried for a pair
MAX_ORDER = 10
#: a coupling's largest |B_ij| over sqrt(max B_ii max B_jj) below which it is not fitted (the barge's
#: couplings: 0.51 surge-pitch, 0.87 sway-roll, the others below 8e-4, round-off of a symmetric hull)
COUPLING_THRESHOLD = 0.01
#: Q's factors' natural frequencies w0, d within [w_min / 10, MAX_POLE w_max], damping ratios within ZETA
MAX_POLE, ZETA = 10.0, (0.05, 2.0)
#: Sanathanan and Koerner's iterations; Lawson's reweightings; the orders without a 10% gain that end the search
SK_ITERATIONS, LAWSON, PLATEAU = 20, 4, 3
#: a diagonal pair's passivity penalty: its points (geometric over the poles' box) and weight
PASSIVITY_GRID, PASSIVITY_WEIGHT = 400, 10.0


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


def fit_pair(omega, K, tolerance=TOLERANCE, max_order=MAX_ORDER, passive=False):
    """One pair's ``K(jw)`` (n,) on ``omega`` [rad/s] (increasing): the
    lowest order from 2 whose error is within ``tolerance``, else the least
    error found up to ``max_order`` (the search ends early when
    :data:`PLATEAU` orders gain less than 10%).  Returns ``(A, B, C,
    order, error)``, the block's (n, n), (n,), (n,) matrices as
    :class:`RadiationFit`'s."""
    w = np.asarray(omega, float)
    scale, peak = w[-1] / 2, np.abs(K).max()
    x, k = 1j * w / scale, np.asarray(K) / peak
    box, best, history = (w[0] / 10 / scale, MAX_POLE * w[-1] / scale), None, []
    for n in range(2, max(max_order, 2) + 1):
        p, error = _fit_order(x, k, n, box, tolerance, PASSIVITY_WEIGHT if passive else 0.0)
        if best is None or error < best[2]:
            best = (p, n, error)
        history.append(best[2])
        if error <= tolerance or (len(history) > PLATEAU and history[-1] > 0.9 * history[-1 - PLATEAU]):
            break
    p, n, error = best
    a, b, c = _realise(p[:n], p[n:], n)
    return scale * a, b, peak * scale * c, n, float(error)


def fit_radiation(omega, added_mass, radiation_damping, added_mass_inf, tolerance=TOLERANCE,
                  max_order=MAX_ORDER, threshold=COUPLING_THRESHOLD) -> RadiationFit:
    """The memory of the database's arrays (``omega`` [rad/s] (n,),
    ``added_mass`` and ``radiation_damping`` (n, 6, 6), ``added_mass_inf``
    (6, 6), SI), pair by pair (module docstring).  A pair that misses
    ``tolerance`` keeps its best order and reports its error."""
    K = memory_response(omega, added_mass, radiation_damping, added_mass_inf)
    blocks, orders, errors, asymmetry = [], {}, {}, {}
    for i, j in fitted_pairs(radiation_damping, threshold):
        k = (K[:, i, j] + K[:, j, i]) / 2
        a, b, c, n, error = fit_pair(omega, k, tolerance, max_order, passive=i == j)
        if i != j:
            asymmetry[(i, j)] = asymmetry[(j, i)] = float(np.abs(K[:, i, j] - K[:, j, i]).max() / np.abs(k).max())
        for pair in dict.fromkeys([(i, j), (j, i)]):
            blocks.append((pair, a, b, c))
            orders[pair], errors[pair] = n, error
    N = sum(a.shape[0] for _, a, _, _ in blocks)
    A, B, C, states, m = np.zeros((N, N)), np.zeros((N, 6)), np.zeros((6, N)), {}, 0
    for (i, j), a, b, c in blocks:
        s = slice(m, m + a.shape[0])
        A[s, s], B[s, j], C[i, s], states[(i, j)], m = a, b, c, s, s.stop
    return RadiationFit(A, B, C, orders, errors, states, asymmetry, float(tolerance))


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


def _fit_order(x, k, n, box, tolerance, weight):
    """The parameters ``(theta, b)`` and error of order n (``x = jw /
    scale``, ``k`` scaled to a peak of 1): nonlinear least squares from the
    reflected Sanathanan-Koerner fit, with a passivity ``weight`` also from
    the unconstrained optimum (either may end in a poor minimum), then
    Lawson's reweighting while the error exceeds ``tolerance``."""
    def error(p):
        return np.abs(_model(p, x, n)[0] - k).max()

    start = _start(x, k, n, box)
    p = _refine(x, k, n, start, box, 0.0)[0]
    if weight:
        p = min((_refine(x, k, n, s, box, weight) for s in (start, p)), key=lambda r: r[1])[0]
    best, emphasis = error(p), np.ones(x.size)
    for _ in range(LAWSON):
        if best <= tolerance:
            break
        emphasis *= np.abs(_model(p, x, n)[0] - k)
        q = _refine(x, k, n, p, box, weight, emphasis / emphasis.mean())[0]
        if error(q) < best:
            p, best = q, error(q)
    return p, best


def _sanathanan_koerner(x, k, n):
    """The poles of Sanathanan and Koerner's fit of ``k ~ x P(x) / Q(x)``:
    each iteration solves ``min sum |(x P - k Q) / Q_prev|^2``, Q monic."""
    V = x[:, None] ** np.arange(n + 1)
    q_prev, a = np.ones_like(x), np.zeros(n + 1)
    for _ in range(SK_ITERATIONS):
        sol = _lstsq(np.hstack([V[:, 1:n], -k[:, None] * V[:, :n]]) / q_prev[:, None], k * V[:, n] / q_prev)
        a_new = np.concatenate([sol[n - 1:], [1.0]])
        if np.allclose(a_new, a, rtol=1e-10, atol=1e-12):
            break
        a, q_prev = a_new, V @ a_new
    return np.roots(a[::-1])


def _lstsq(M, rhs):
    """Real least squares of a complex system, its columns scaled."""
    Mr = np.vstack([M.real, M.imag])
    scale = np.maximum(np.linalg.norm(Mr, axis=0), 1e-300)
    return np.linalg.lstsq(Mr / scale, np.concatenate([rhs.real, rhs.imag]), rcond=None)[0] / scale


def _start(x, k, n, box):
    """``(theta, b)`` of Sanathanan and Koerner's poles, unstable ones
    reflected: ``log(zeta), log(w0)`` of each ``x^2 + 2 zeta w0 x + w0^2``
    (complex or real pairs), then ``log(d)`` of ``x + d`` (odd n); b by
    linear least squares."""
    p = _sanathanan_koerner(x, k, n)
    p = np.where(p.real > 0, -p.conj(), p)
    real, theta = sorted(z.real for z in p if abs(z.imag) <= 1e-9 * abs(z)), []
    for z in (z for z in p if z.imag > 1e-9 * abs(z)):
        theta += [-z.real / abs(z), abs(z)]
    while len(real) >= 2:
        r1, r2 = real.pop(), real.pop()
        theta += [-(r1 + r2) / (2 * np.sqrt(r1 * r2)), np.sqrt(r1 * r2)]
    lo, hi = _bounds(n, *box)
    theta = np.clip(np.log(np.maximum(theta + [-r for r in real], 1e-12)), lo + 1e-9, hi - 1e-9)
    b = _lstsq(x[:, None] ** np.arange(1, n) / np.prod(_factors(theta, x, n)[0], axis=0)[:, None], k)
    return np.concatenate([theta, b])


def _bounds(n, w_lo, w_hi):
    """The box of theta: zeta within ZETA, w0 and d within [w_lo, w_hi]."""
    return tuple(np.log([zeta, w] * (n // 2) + [w] * (n % 2)) for zeta, w in zip(ZETA, (w_lo, w_hi)))


def _coefficients(theta, n):
    """``(c1, c0)`` of each factor ``x^2 + c1 x + c0``, then ``d``."""
    e = np.exp(theta)
    return [(2 * e[2 * m] * e[2 * m + 1], e[2 * m + 1] ** 2) for m in range(n // 2)] + ([e[-1]] if n % 2 else [])


def _factors(theta, x, n):
    """Q's factors at x and their derivatives along theta."""
    f, df = [], []
    for c in _coefficients(theta, n):
        f.append(x ** 2 + c[0] * x + c[1] if np.ndim(c) else x + c)
        df += [c[0] * x, c[0] * x + 2 * c[1]] if np.ndim(c) else [np.full_like(x, c)]
    return f, df


def _model(p, x, n):
    """``x P(x) / Q(x)`` of ``p = (theta, b)`` at x, and its Jacobian."""
    f, df = _factors(p[:n], x, n)
    Q, V = np.prod(f, axis=0), x[:, None] ** np.arange(1, n)
    value = (V @ p[n:]) / Q
    J = np.empty((x.size, 2 * n - 1), complex)
    for m in range(n):
        J[:, m] = -value / f[m // 2] * df[m]
    J[:, n:] = V / Q[:, None]
    return value, J


def _refine(x, k, n, start, box, weight, emphasis=None):
    """Nonlinear least squares of ``x P / Q`` on k (each point weighted by
    ``emphasis``) from ``start`` over theta's box, plus ``weight`` times the
    norm of ``min(Re, 0)`` on the passivity grid.  Returns the parameters
    and the objective."""
    xp = 1j * np.geomspace(*box, PASSIVITY_GRID) if weight else x[:0]
    u = np.ones(x.size) if emphasis is None else np.sqrt(emphasis)

    def residual(p):
        r, negative = _model(p, x, n)[0] - k, np.minimum(_model(p, xp, n)[0].real, 0)
        return np.concatenate([u * r.real, u * r.imag, [weight * np.linalg.norm(negative)]])

    def jacobian(p):
        J, (rp, Jp) = _model(p, x, n)[1], _model(p, xp, n)
        negative = np.minimum(rp.real, 0)
        norm = np.linalg.norm(negative)
        row = weight * (negative @ Jp.real) / norm if norm > 0 else np.zeros(2 * n - 1)
        return np.vstack([u[:, None] * J.real, u[:, None] * J.imag, row])

    lo, hi = (np.concatenate([v, np.full(n - 1, sign * np.inf)]) for v, sign in zip(_bounds(n, *box), (-1, 1)))
    from scipy.optimize import least_squares  # only to fit: the vessel's FMU imports this module to run
    sol = least_squares(residual, start, jac=jacobian, bounds=(lo, hi), x_scale="jac", max_nfev=100)
    return sol.x, sol.cost


def _realise(theta, b, n):
    """``x P(x) / Q(x)`` as companion blocks of Q's factors: ``sum (beta1 x
    + beta0) / (x^2 + c1 x + c0) (+ gamma / (x + d))``, the betas by matching
    the numerator's coefficients.  Returns ``(A, B, C)``."""
    polys = [np.array([c[1], c[0], 1.0]) if np.ndim(c) else np.array([c, 1.0]) for c in _coefficients(theta, n)]
    columns = []
    for m, f in enumerate(polys):
        rest = np.array([1.0])
        for other in polys[:m] + polys[m + 1:]:
            rest = np.convolve(rest, other)
        rest = np.pad(rest, (0, n - rest.size))
        columns += [np.roll(rest, 1), rest] if f.size == 3 else [rest]
    beta = np.linalg.solve(np.array(columns).T, np.concatenate([[0.0], b]))
    A, B, C = np.zeros((n, n)), np.zeros(n), np.zeros(n)
    for m, f in enumerate(polys):
        s = 2 * m
        if f.size == 3:
            A[s:s + 2, s:s + 2], B[s + 1], C[s:s + 2] = [[0.0, 1.0], [-f[0], -f[1]]], 1.0, [beta[s + 1], beta[s]]
        else:
            A[s, s], B[s], C[s] = -f[0], 1.0, beta[s]
    return A, B, C
