"""Passivity of the fitted radiation memory as a 6x6 matrix over the whole
frequency axis, checked and enforced.

A body radiating waves takes energy from its motion and never gives it
back: over a period of the velocities ``u(t) = Re(U e^{jwt})`` the memory
absorbs ``(1/2) Re(U^H K(jw) U) >= 0`` for every amplitude U, that is the
Hermitian part ``H(w) = (K(jw) + K(jw)^H) / 2`` is positive semidefinite at
every w (Newman 1977, section 6.15: the damping matrix ``B(w) = Re K(jw)``
is symmetric and positive semidefinite).  Pairs fitted one at a time
(:mod:`.radiation_pairs`) keep at best each diagonal term non-negative: the
barge's sway-roll coupling left an eigenvalue of -0.24 of the pair's scale
at 3.7 rad/s, above the database's grid.  Compared, everything here is
scaled by ``d_i d_j`` with ``d_i = sqrt(max_w |K_ii(jw)|)`` over the
database's grid (surge's N.s/m and roll's N.m.s are not comparable; the
sign of a quadratic form is unchanged by the scaling), and only the
degrees of freedom with a memory are looked at.

Checked (:func:`passivity`) on the whole axis, not on a grid:

* beyond a dense grid (:data:`PER_DECADE` points a decade from the slowest
  pole's modulus over :data:`REACH` to the fastest's times it), the
  model's series: ``K(s) = -s C A^-2 B + ...`` as ``s -> 0`` (``K(0) = -C
  A^-1 B = 0`` by construction) and ``K(s) = C B / s + C A B / s^2 + ...``
  as ``s -> infinity``.  Their first terms add to H ``+-w (X - X^T) / 2j``,
  eigenvalues of either sign, so ``C A^-2 B`` and ``C B`` must be symmetric
  (they are, to rounding, a coupling's two blocks being one); then ``H = w^2
  sym(C A^-3 B) + O(w^4)`` and ``H = -sym(C A B) / w^2 + O(w^-4)``
  (``sym(X) = (X + X^T) / 2``), and each of these two matrices must be
  positive definite with its least eigenvalue above ``REACH^-2`` of its
  largest, the most the next term, smaller by ``(pole / w)^2``, can take
  from it beyond the grid;
* on the grid and between its points: H's least eigenvalue at each of its
  local minima on the grid, refined between the neighbouring points; and
  the Hamiltonian matrix of ``K(s) + K(-s)^T + 2 eps I`` (Boyd,
  Balakrishnan & Kabamba 1989; Grivet-Talocia 2004), whose imaginary
  eigenvalues ``jw`` are exactly the frequencies where an eigenvalue of H
  crosses ``-eps``: none means ``H > -eps I`` at every w (H is 0 at w =
  0).  ``eps`` is :data:`LEVEL` of the scale: at 1e-9 the Hamiltonian's
  ``1 / eps`` entries round its eigenvalues off the axis and crossings are
  missed; at 1e-6 it finds every crossing a grid of 400000 points does.

Enforced (:func:`enforce_passivity`) by perturbing the residues, the poles
kept (Grivet-Talocia 2004; Gustavsen 2008): the least change of the
model's C, measured as the change of K over the database's grid, such that
at each violation's frequency ``w_k`` (a negative local minimum or a
crossing; each negative eigenvalue's eigenvector ``v_k``) ``v_k^H H(w_k)
v_k`` rises to :data:`MARGIN` of its depth above 0, and at either end
each eigenvalue below the floor to twice the floor; each pair keeps ``K(0)
= 0`` and a coupling's change serves ``(i, j)`` and ``(j, i)`` alike, so the
series stay symmetric.  The change is linear in C, so each round is a
quadratic programme; the violations are searched anew after each round
and kept, until none.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.optimize import brentq, minimize_scalar, nnls

from .radiation import RadiationFit, frequency_response, groups, memory_response

__all__ = ["passivity", "enforce_passivity", "Passivity", "LEVEL", "MARGIN", "REACH", "scale_of"]

#: the level, over the scale, below which the Hamiltonian finds an eigenvalue of H (module docstring)
LEVEL = 1e-6
#: a violation's eigenvalue is brought to this fraction of its depth above 0 (depths range from 1e-8 at
#: 0.01 rad/s to 0.2 where the barge's sway-roll failed)
MARGIN = 0.01
#: the dense grid's points per decade and its reach beyond the poles' range (a factor each way)
PER_DECADE, REACH = 400, 1000.0
#: the enforcement's rounds at most; the ridge added to the change's measure, over its largest eigenvalue
ROUNDS, RIDGE = 30, 1e-10
#: the series' first terms' asymmetry that is rounding's (the barge's: 2e-16)
SYMMETRIC = 1e-9


class Passivity:
    """The verdict of :func:`passivity`: ``low``, ``high`` the least
    eigenvalue over the largest of the two ends' series matrices;
    ``asymmetry`` the larger of ``|X - X^T| / |X|`` of the two series'
    first terms; ``crossings`` [rad/s] where an eigenvalue of the scaled H
    crosses ``-LEVEL``; ``least``, ``at`` the least eigenvalue of the
    scaled H at the grid's refined minima and its frequency [rad/s]."""

    def __init__(self, low, high, asymmetry, crossings, least, at):
        self.low, self.high, self.asymmetry = low, high, asymmetry
        self.crossings, self.least, self.at = crossings, least, at

    @property
    def passive(self) -> bool:
        return (min(self.low, self.high) >= REACH ** -2 and self.asymmetry <= SYMMETRIC
                and len(self.crossings) == 0 and self.least >= 0)

    def __repr__(self):
        return (f"Passivity(passive={self.passive}, low={self.low:.3g}, high={self.high:.3g}, "
                f"asymmetry={self.asymmetry:.2g}, crossings={[round(float(w), 4) for w in self.crossings]}, "
                f"least={self.least:.3g} at {self.at:.4g} rad/s)")


def scale_of(omega, added_mass, radiation_damping, added_mass_inf) -> np.ndarray:
    """``d_i = sqrt(max_w |K_ii(jw)|)`` (6,) of the database's arrays, 1
    where a degree of freedom has no memory."""
    K = memory_response(omega, added_mass, radiation_damping, added_mass_inf)
    d = np.sqrt(np.abs(np.diagonal(K, axis1=1, axis2=2)).max(axis=0))
    return np.where(d > 0, d, 1.0)


def passivity(fit: RadiationFit, scale) -> Passivity:
    """Whether ``fit`` is passive on the whole frequency axis (module
    docstring), ``scale`` the (6,) of :func:`scale_of`: K being
    block-diagonal over the coupled groups of degrees of freedom, each
    group's block judged on its own, the worst of each figure kept."""
    verdicts = [_verdict(*_scaled(fit, scale, group)) for group in groups(fit.orders)]
    least = min(verdicts, key=lambda v: v.least)
    return Passivity(min(v.low for v in verdicts), min(v.high for v in verdicts),
                     max(v.asymmetry for v in verdicts), np.sort(np.concatenate([v.crossings for v in verdicts])),
                     least.least, least.at)


def enforce_passivity(fit: RadiationFit, omega, scale) -> RadiationFit:
    """``fit`` with its C changed the least over the grid ``omega`` [rad/s]
    that makes it passive (module docstring), group by group, its pairs'
    errors against the database left to the caller; ``fit`` itself when it
    is passive.  Raises ValueError when :data:`ROUNDS` rounds do not
    reach it."""
    C_new, d = fit.C.copy(), np.asarray(scale, float)
    for group in groups(fit.orders):
        A, B, C = _scaled(fit, scale, group)
        states = _states(fit, group)
        pairs = [p for p in fit.orders if p[0] <= p[1] and p[0] in group]
        # the parameters are C's entries in SI, shared by a coupling's two blocks: scaled, row i over d_i
        units = [_delta(fit, pairs, e)[np.ix_(group, states)] / d[list(group), None]
                 for e in np.eye(sum(fit.orders[p] for p in pairs))]
        changed = _enforced(A, B, C, units, omega, [(group.index(i), group.index(j)) for i, j in pairs])
        C_new[np.ix_(group, states)] = changed * d[list(group), None]
    return fit if np.array_equal(C_new, fit.C) else replace(fit, C=C_new)


def _enforced(A, B, C, units, omega, pairs) -> np.ndarray:
    """The scaled C of one group made passive by the least change along
    ``units`` (each a parameter's change of C), ``pairs`` the rows and
    columns of the group's pairs, each keeping ``K(0) = 0``."""
    objective = _objective(A, B, units, np.asarray(omega, float))
    static = np.linalg.solve(A, B)  # K(0) = -C A^-1 B
    equal = np.array([[u[i] @ static[:, j] for u in units] for i, j in pairs])
    rows, bounds, x = [], [], np.zeros(len(units))
    for _ in range(ROUNDS):
        Cx = C + sum(xi * u for xi, u in zip(x, units))
        found = _violations(A, B, Cx)
        if not found:
            return Cx
        for form, level in found:
            rows.append([np.real(np.sum(form * u)) for u in units])
            bounds.append(level - np.real(np.sum(form * C)))
        x = _least_change(objective, equal, np.array(rows), np.array(bounds))
    raise ValueError(f"its radiation memory's fit could not be made passive in {ROUNDS} rounds")


def _verdict(A, B, C) -> Passivity:
    """The verdict on one group's scaled model."""
    low, high = (lam[0] / np.abs(lam).max() for lam in (np.linalg.eigvalsh(m) for m in _ends(A, B, C)))
    first = (C @ B, C @ np.linalg.solve(A, np.linalg.solve(A, B)))
    asymmetry = max(np.abs(X - X.T).max() / np.abs(X).max() for X in first)
    w, least = min(_minima(A, B, C), key=lambda m: m[1])
    return Passivity(float(low), float(high), float(asymmetry), _crossings(A, B, C), float(least), float(w))


def _states(fit, group) -> np.ndarray:
    """The indices of the states of the pairs within ``group``."""
    return np.concatenate([np.arange(s.start, s.stop) for p, s in fit.states.items() if p[0] in group])


def _delta(fit, pairs, x) -> np.ndarray:
    """The (6, N) change of C of the parameters x of ``pairs``: each pair's
    states' entries in its row, a coupling's the same in ``(i, j)`` and
    ``(j, i)``."""
    out, m = np.zeros(fit.C.shape), 0
    for i, j in pairs:
        n = fit.orders[(i, j)]
        for row, states in ((i, fit.states[(i, j)]), (j, fit.states[(j, i)])):
            out[row, states] = x[m:m + n]
        m += n
    return out


def _scaled(fit, scale, group):
    """``(A, B, C)`` of the scaled model of one group of degrees of freedom:
    its pairs' states, its inputs and outputs."""
    d, states, g = np.asarray(scale, float), _states(fit, group), list(group)
    return fit.A[np.ix_(states, states)], fit.B[np.ix_(states, g)] / d[g], fit.C[np.ix_(g, states)] / d[g, None]


def _ends(A, B, C):
    """The series' matrices: ``sym(C A^-3 B)`` (w -> 0), ``-sym(C A B)``."""
    sym = (lambda X: (X + X.T) / 2)
    inverse = np.linalg.inv(A)
    return sym(C @ inverse @ inverse @ inverse @ B), -sym(C @ A @ B)


def _grid(A) -> np.ndarray:
    """A logarithmic grid from ``1 / REACH`` of the slowest pole's modulus to
    ``REACH`` times the fastest's [rad/s]."""
    m = np.abs(np.linalg.eigvals(A))
    lo, hi = m.min() / REACH, m.max() * REACH
    return np.geomspace(lo, hi, int(PER_DECADE * np.log10(hi / lo)))


def _hermitian(A, B, C, w) -> np.ndarray:
    """H(w) (len(w), 6, 6) of the scaled model."""
    K = frequency_response(RadiationFit(A, B, C, {}, {}, {}, {}, 0.0), np.atleast_1d(w))
    return (K + np.conj(np.swapaxes(K, 1, 2))) / 2


def _least(A, B, C, w) -> np.ndarray:
    return np.linalg.eigvalsh(_hermitian(A, B, C, w))[:, 0]


def _crossings(A, B, C, level=LEVEL) -> np.ndarray:
    """The frequencies [rad/s] where an eigenvalue of the scaled H crosses
    ``-level``: the imaginary eigenvalues of the Hamiltonian matrix of
    ``K(s) + K(-s)^T + R``, ``R = 2 level I`` (module docstring): those
    within 1e-3 of the axis (the barge's crossings: up to 1.8e-5 off it)
    that an eigenvalue of H there confirms, within 10% of the level (the
    barge's: within 1.7%; rounding moves the crossing's frequency)."""
    Ri = np.eye(C.shape[0]) / (2 * level)
    M = np.block([[A - B @ Ri @ C, -B @ Ri @ B.T], [C.T @ Ri @ C, -A.T + C.T @ Ri @ B.T]])
    ev = np.linalg.eigvals(M)
    w = np.sort(ev[(np.abs(ev.real) < 1e-3 * np.abs(ev)) & (ev.imag > 0)].imag)
    if w.size == 0:
        return w
    gap = np.abs(np.linalg.eigvalsh(_hermitian(A, B, C, w)) + level)
    return np.array([_refined(A, B, C, x, level, int(np.argmin(g)))
                     for x, g in zip(w, gap) if g.min() < 0.1 * level])


def _refined(A, B, C, w: float, level: float, i: int) -> float:
    """The crossing near the Hamiltonian's ``w`` [rad/s] where H's ``i``-th
    eigenvalue (the nearest ``-level`` there) crosses it, to rounding.  The
    Hamiltonian's eigenvalues are as exact as its conditioning allows: near
    w = 0, where the pairs ``+-jw`` close in on each other, to some 1e-4 of
    w, and that varies with the LAPACK beneath numpy.  Refined within 1e-3
    of w; kept where the eigenvalue does not change sign there."""
    def above(x):
        return np.linalg.eigvalsh(_hermitian(A, B, C, x))[0][i] + level
    lo, hi = w * (1 - 1e-3), w * (1 + 1e-3)
    if above(lo) * above(hi) >= 0:
        return float(w)
    return float(brentq(above, lo, hi, xtol=1e-15 * w, rtol=4 * np.finfo(float).eps))


def _violations(A, B, C) -> list:
    """The violated quadratic forms of the scaled model, each ``(F,
    level)``: ``Re sum(F * C) >= level`` is asked.  At an end whose series
    matrix has eigenvalues below its floor (``REACH^-2`` of its largest),
    for each (eigenvector v) ``v (A^-3 B v)^T`` or ``-v (A B v)^T``, level
    twice the floor; at each negative refined minimum of H's least
    eigenvalue and each Hamiltonian crossing, for each negative eigenvalue
    of H there, ``conj(v) (G v)^T`` with ``G = (jw I - A)^-1 B``, level
    :data:`MARGIN` of the eigenvalue's depth."""
    found, inverse = [], np.linalg.inv(A)
    for m, G in zip(_ends(A, B, C), (inverse @ inverse @ inverse @ B, -A @ B)):
        lam, V = np.linalg.eigh(m)
        floor = np.abs(lam).max() / REACH ** 2
        found += [(np.outer(v, G @ v), 2 * floor) for l, v in zip(lam, V.T) if l < floor]
    for w in [w for w, least in _minima(A, B, C) if least < 0] + list(_crossings(A, B, C)):
        lam, V = np.linalg.eigh(_hermitian(A, B, C, w)[0])
        G = np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B)
        found += [(np.outer(v.conj(), G @ v), MARGIN * max(-l, LEVEL)) for l, v in zip(lam, V.T) if l < 0]
    return found


def _minima(A, B, C) -> list:
    """``(w, least)`` at each local minimum of H's least eigenvalue on the
    dense grid (its ends included), each refined between the grid's
    neighbouring points: a dip narrower than the grid's spacing (the
    barge's, once enforced, -8e-7 at 3.35 rad/s between two points of
    +1e-4) is found by the minimum beside it."""
    grid = _grid(A)
    least = _least(A, B, C, grid)
    padded = np.r_[np.inf, least, np.inf]
    out = []
    for k in np.flatnonzero((least <= padded[:-2]) & (least <= padded[2:])):
        lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        found = minimize_scalar(lambda w: _least(A, B, C, w)[0], bounds=(lo, hi), method="bounded",
                                options={"xatol": 1e-9 * hi})
        out.append((float(found.x), float(found.fun)) if found.fun < least[k] else (float(grid[k]), float(least[k])))
    return out


def _objective(A, B, units, omega) -> np.ndarray:
    """Q of ``x^T Q x = sum_w ||Delta K(jw)||_F^2`` (scaled) over ``omega``."""
    G = [np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) for w in omega]
    Phi = np.array([np.concatenate([(u @ g).ravel() for g in G]) for u in units]).T
    return np.real(Phi.conj().T @ Phi)


def _least_change(Q, equal, rows, bounds) -> np.ndarray:
    """``argmin x^T Q x`` with ``equal x = 0`` and ``rows x >= bounds``: on
    the null space of ``equal``, Q whitened (a ridge of ``RIDGE`` of its
    largest eigenvalue keeps the directions the grid does not see from
    growing), a least-distance programme solved by non-negative least
    squares (Lawson & Hanson 1974, chapter 23)."""
    _, sv, vt = np.linalg.svd(equal)
    N = vt[np.sum(sv > 1e-12 * sv.max()):].T
    lam, U = np.linalg.eigh(N.T @ Q @ N)
    lam = np.maximum(lam, RIDGE * lam.max())
    W = N @ U / np.sqrt(lam)  # x = W y, x^T Q x ~ |y|^2
    G, h = rows @ W, bounds
    u = nnls(np.vstack([G.T, h]), np.r_[np.zeros(G.shape[1]), 1.0], maxiter=50 * G.shape[0])[0]
    r = np.vstack([G.T, h]) @ u - np.r_[np.zeros(G.shape[1]), 1.0]
    if abs(r[-1]) < 1e-12:
        raise RuntimeError("the radiation fit's passivity constraints are incompatible")
    return W @ (-r[:-1] / r[-1])
