"""The pairs of a coupled group of degrees of freedom refined together, so
that the group's memory is passive as a matrix.

Fitted one at a time (:mod:`.radiation_pairs`), each pair of the barge's
sway-roll group fits its grid within 2.5%, yet above the grid, where
nothing is asked of them, roll's ``Re K_33`` dips to zero at 3.7 rad/s
while the coupling does not: the group's ``Re K`` had an eigenvalue of
-0.24 of its scale there.  Here the group's pairs, from their own fits,
are refined by one nonlinear least squares: their errors on the grid (each
pair scaled by its largest ``|K|``, as it was fitted), plus
:data:`WEIGHT` times the negative part of the least eigenvalue of the
group's ``Re K(jw)`` (row and column i scaled by ``1 / d_i``,
:func:`.radiation_passivity.scale_of`) at each point of the pairs'
passivity grid (beyond it, ``Re K`` goes as ``w^2`` and ``1 / w^2``, and
its sign is the enforcement's to settle).  Lawson's
reweighting follows while a pair misses the tolerance, kept when the
group's largest error falls.  What is left is for
:func:`.radiation_passivity.enforce_passivity`: on the barge the refined
sway-roll group's least eigenvalue is -2.6e-4 of its scale, where the
residues alone, the poles kept, cost sway 6.5% and roll 9% of their
largest |K| on the grid.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy.optimize import least_squares

from .radiation_pairs import LAWSON, bounds, model, passivity_grid

__all__ = ["refine_group", "WEIGHT", "FAR"]

#: the weight of each penalty point's negative eigenvalue against the pairs' scaled errors
WEIGHT = 10.0
#: how far beyond the passivity grid's ends a point of the penalty is taken, each way
FAR = 1e3


def refine_group(dofs, fits: dict, targets: dict, omega, scale, tolerance) -> dict:
    """The ``fits`` (:class:`.radiation_pairs.PairFit` by pair ``(i, j)``,
    ``i <= j``) of the group ``dofs`` refined together (module docstring),
    ``targets`` each pair's ``K(jw)`` on ``omega`` [rad/s], ``scale`` the
    (6,) of :func:`.radiation_passivity.scale_of`.  Returns the refined
    fits, their errors on the grid."""
    group = _Group(dofs, fits, targets, omega, scale)
    emphasis = [np.ones(group.x.size) for _ in group.pairs]
    P = group.solve(group.start, emphasis)
    for _ in range(LAWSON):
        e = group.errors(P)
        if max(e) <= tolerance:
            break
        emphasis = [u * np.abs(r) for u, r in zip(emphasis, group.misfits(P))]
        emphasis = [u / u.mean() for u in emphasis]
        Q = group.solve(P, emphasis)
        if max(group.errors(Q)) < max(e):
            P = Q
    return {p: replace(fits[p], parameters=q, error=float(e))
            for p, (q, _), e in zip(group.pairs, group.parts(P), group.errors(P))}


class _Group:
    """One group's refinement as a least-squares problem over its pairs'
    parameters, stacked: the scaled variables and targets, the penalty's
    points, the parameters' box, and the residual and its Jacobian."""

    def __init__(self, dofs, fits, targets, omega, scale):
        self.pairs = [p for p in fits if p[0] in dofs and p[1] in dofs and p[0] <= p[1]]
        self.orders = [fits[p].order for p in self.pairs]
        first = fits[self.pairs[0]]
        self.x = 1j * np.asarray(omega, float) / first.scale
        grid = passivity_grid(omega) / first.scale
        self.points = np.concatenate([[grid[0] / FAR], grid, [grid[-1] * FAR]])
        self.sizes = np.cumsum([0] + [2 * n - 1 for n in self.orders])
        self.k = [targets[p] / fits[p].peak for p in self.pairs]
        self.weights = [scale[i] * scale[j] / fits[(i, j)].peak for i, j in self.pairs]
        self.where = [(dofs.index(i), dofs.index(j)) for i, j in self.pairs]
        self.size = len(dofs)
        box = (grid[0], grid[-1])
        self.lo = np.concatenate([np.r_[bounds(n, *box)[0], np.full(n - 1, -np.inf)] for n in self.orders])
        self.hi = np.concatenate([np.r_[bounds(n, *box)[1], np.full(n - 1, np.inf)] for n in self.orders])
        self.start = np.clip(np.concatenate([fits[p].parameters for p in self.pairs]), self.lo + 1e-12,
                             self.hi - 1e-12)

    def parts(self, P) -> list:
        """Each pair's parameters and order."""
        return [(P[self.sizes[m]:self.sizes[m + 1]], n) for m, n in enumerate(self.orders)]

    def misfits(self, P) -> list:
        """Each pair's scaled ``K_fit - K`` on the grid."""
        return [model(p, self.x, n)[0] - km for (p, n), km in zip(self.parts(P), self.k)]

    def errors(self, P) -> list:
        return [np.abs(r).max() for r in self.misfits(P)]

    def least(self, P):
        """At each penalty point the least eigenvalue over the diagonal's
        sum of moduli, its eigenvector, the diagonal's signs and the sum,
        and each pair's ``Re`` Jacobian and scale there."""
        M, values = np.zeros((self.points.size, self.size, self.size)), []
        for (p, n), (a, b), w in zip(self.parts(P), self.where, self.weights):
            value, J = model(p, 1j * self.points, n)
            values.append((J.real, w))
            M[:, a, b] = M[:, b, a] = value.real / w
        lam, V = np.linalg.eigh(M)
        diagonal = np.diagonal(M, axis1=1, axis2=2)
        size = np.abs(diagonal).sum(axis=1) + 1e-300
        return lam[:, 0] / size, V[:, :, 0], np.sign(diagonal), size, values

    def residual(self, P, emphasis) -> np.ndarray:
        out = []
        for r, u in zip(self.misfits(P), emphasis):
            out += [u * r.real, u * r.imag]
        return np.concatenate(out + [WEIGHT * np.minimum(self.least(P)[0], 0)])

    def jacobian(self, P, emphasis) -> np.ndarray:
        rows = []
        for m, ((p, n), u) in enumerate(zip(self.parts(P), emphasis)):
            J = np.zeros((self.x.size, P.size), complex)
            J[:, self.sizes[m]:self.sizes[m + 1]] = model(p, self.x, n)[1]
            rows += [u[:, None] * J.real, u[:, None] * J.imag]
        ratio, v, signs, size, values = self.least(P)
        penalty = np.zeros((self.points.size, P.size))
        for m, ((a, b), (Jr, w)) in enumerate(zip(self.where, values)):
            d_lam = (2 - (a == b)) * v[:, a] * v[:, b] / w
            d_size = signs[:, a] / w if a == b else 0.0
            penalty[:, self.sizes[m]:self.sizes[m + 1]] = ((d_lam - ratio * d_size) / size)[:, None] * Jr
        return np.vstack(rows + [WEIGHT * (ratio < 0)[:, None] * penalty])

    def solve(self, start, emphasis) -> np.ndarray:
        return least_squares(self.residual, start, jac=self.jacobian, bounds=(self.lo, self.hi), x_scale="jac",
                             max_nfev=200, args=(emphasis,)).x
