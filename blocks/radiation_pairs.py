"""One pair of the radiation memory fitted: ``K_ij(s) = s P(s) / Q(s)``
on the database's grid (the method: :mod:`.radiation`).

Frequency-domain identification (deg Q = n, deg P = n - 2: the zero at s =
0 and the relative degree 1 that ``K(0) = 0`` and ``K(jw) -> 0`` ask).
Sanathanan and Koerner's iterated linear least squares, unstable poles
reflected, start a nonlinear least squares over a parametrisation that
stays stable (Q a product of ``s^2 + 2 zeta w0 s + w0^2`` and ``s + d``, in a
box), then Lawson's reweighting towards the least largest error.
Reflection alone is not enough: the barge's best unconstrained fits have
poles just right of the axis (roll near 3.1 rad/s, where B rises towards
the grid's end; heave near 2.5 rad/s in a database whose lid left an
irregular frequency), and the barge's roll, reflected, erred by 13% where
the refinement reached 4.7%.  A diagonal pair is fitted with a penalty on
``Re K_ii(jw) < 0`` from ``w_min / 10`` to ``MAX_POLE w_max``: without it
the barge's roll had ``Re K_33 = -0.7 max |K_33|`` at 7 rad/s.  The
variables are scaled: ``x = jw / scale`` (``scale = w_max / 2``), K over the
pair's largest ``|K|`` on the grid.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

__all__ = ["PairFit", "fit_pair", "passivity_grid", "model", "bounds", "realise", "MAX_POLE", "ZETA",
           "PASSIVITY_GRID", "PASSIVITY_WEIGHT"]

#: Q's factors' natural frequencies w0, d within [w_min / 10, MAX_POLE w_max], damping ratios within ZETA
MAX_POLE, ZETA = 10.0, (0.05, 2.0)
#: Sanathanan and Koerner's iterations; Lawson's reweightings; the orders without a 10% gain that end the search
SK_ITERATIONS, LAWSON, PLATEAU = 20, 4, 3
#: a diagonal pair's passivity penalty: its points (geometric over the poles' box) and weight
PASSIVITY_GRID, PASSIVITY_WEIGHT = 400, 10.0


@dataclass
class PairFit:
    """One pair's fit: ``parameters`` ``(theta, b)`` of order ``order`` in
    the scaled variables (``x = jw / scale``, ``scale`` [rad/s]; K over
    ``peak``, the pair's largest ``|K|`` on the grid), its ``error`` (the
    largest ``|K_fit - K|`` over the grid, over ``peak``)."""

    parameters: np.ndarray
    order: int
    error: float
    scale: float
    peak: float

    def realisation(self):
        """``(A, B, C)``, the block's (n, n), (n,), (n,) matrices of
        :class:`.radiation.RadiationFit`, in SI."""
        a, b, c = realise(self.parameters[:self.order], self.parameters[self.order:], self.order)
        return self.scale * a, b, self.peak * self.scale * c


def passivity_grid(omega) -> np.ndarray:
    """The frequencies [rad/s] a passivity penalty is taken at: the poles'
    box of the grid ``omega``, geometric."""
    return np.geomspace(omega[0] / 10, MAX_POLE * omega[-1], PASSIVITY_GRID)


def fit_pair(omega, K, tolerance, max_order, passive=False, min_order=2) -> PairFit:
    """One pair's ``K(jw)`` (n,) on ``omega`` [rad/s] (increasing): the
    lowest order from ``min_order`` whose error is within ``tolerance``, else the least
    error found up to ``max_order`` (the search ends early when
    :data:`PLATEAU` orders gain less than 10%); ``passive``: a diagonal
    pair, its ``Re K < 0`` penalised."""
    w = np.asarray(omega, float)
    scale, peak = w[-1] / 2, np.abs(K).max()
    x, k = 1j * w / scale, np.asarray(K) / peak
    box, best, history = (w[0] / 10 / scale, MAX_POLE * w[-1] / scale), None, []
    for n in range(min_order, max(max_order, min_order) + 1):
        p, error = _fit_order(x, k, n, box, tolerance, PASSIVITY_WEIGHT if passive else 0.0)
        if best is None or error < best[2]:
            best = (p, n, error)
        history.append(best[2])
        if error <= tolerance or (len(history) > PLATEAU and history[-1] > 0.9 * history[-1 - PLATEAU]):
            break
    p, n, error = best
    return PairFit(p, n, float(error), scale, float(peak))


def _fit_order(x, k, n, box, tolerance, weight):
    """The parameters ``(theta, b)`` and error of order n (``x = jw /
    scale``, ``k`` scaled to a peak of 1): nonlinear least squares from the
    reflected Sanathanan-Koerner fit, with a passivity ``weight`` also from
    the unconstrained optimum (either may end in a poor minimum), then
    Lawson's reweighting while the error exceeds ``tolerance``."""
    def error(p):
        return np.abs(model(p, x, n)[0] - k).max()

    start = _start(x, k, n, box)
    p = _refine(x, k, n, start, box, 0.0)[0]
    if weight:
        p = min((_refine(x, k, n, s, box, weight) for s in (start, p)), key=lambda r: r[1])[0]
    best, emphasis = error(p), np.ones(x.size)
    for _ in range(LAWSON):
        if best <= tolerance:
            break
        emphasis *= np.abs(model(p, x, n)[0] - k)
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
    lo, hi = bounds(n, *box)
    theta = np.clip(np.log(np.maximum(theta + [-r for r in real], 1e-12)), lo + 1e-9, hi - 1e-9)
    b = _lstsq(x[:, None] ** np.arange(1, n) / np.prod(_factors(theta, x, n)[0], axis=0)[:, None], k)
    return np.concatenate([theta, b])


def bounds(n, w_lo, w_hi):
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


def model(p, x, n):
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
        r, negative = model(p, x, n)[0] - k, np.minimum(model(p, xp, n)[0].real, 0)
        return np.concatenate([u * r.real, u * r.imag, [weight * np.linalg.norm(negative)]])

    def jacobian(p):
        J, (rp, Jp) = model(p, x, n)[1], model(p, xp, n)
        negative = np.minimum(rp.real, 0)
        norm = np.linalg.norm(negative)
        row = weight * (negative @ Jp.real) / norm if norm > 0 else np.zeros(2 * n - 1)
        return np.vstack([u[:, None] * J.real, u[:, None] * J.imag, row])

    lo, hi = (np.concatenate([v, np.full(n - 1, sign * np.inf)]) for v, sign in zip(bounds(n, *box), (-1, 1)))
    sol = least_squares(residual, start, jac=jacobian, bounds=(lo, hi), x_scale="jac", max_nfev=100)
    return sol.x, sol.cost


def realise(theta, b, n):
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
