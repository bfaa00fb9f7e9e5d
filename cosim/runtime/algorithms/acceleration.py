"""What speeds up the iterated algorithms' passes: the prediction of the first
pass (:func:`extrapolated`), and the acceleration of the fixed point by the
interface quasi-Newton method with an inverse Jacobian from a least-squares
model (IQN-ILS) of Degroote, Bathe and Vierendeels (2009), with the columns of
past steps reused (what preCICE calls time windows reused).

A pass of an iterated algorithm maps the values ``x`` its components read
before they produce them (the outputs of a later component, or of the reader
itself) to the values ``x~ = H(x)`` they produce; the step's fixed point is
``H(x) = x``.  Plain iteration takes ``x~`` as the next ``x`` and converges by
the loop's contraction per pass (the crane's mount wrench and the vessel's
motion, the controller's torque and the joints' speeds: a third to a half per
pass at 5 ms).  IQN-ILS takes the changes of the residual ``r = x~ - x`` and of
``x~`` seen so far, ``V`` and ``W`` column by column, and steps to ``x~ + W c``
where ``c`` fits ``V c = -r`` in least squares: a secant model of the loop's
Jacobian, built from the differences the passes give for nothing.  The loop
changes little from one step to the next, so the columns of the last ``REUSE``
steps that gave any (a step settled by one correction gives none) model it from
the first correction on.

The values are compared in units of their scales (the peaks the iterated
algorithms settle against), so that a force in newtons and a speed in radians
per second weigh alike in the fit; the fit divides its rows by those scales
rounded up to powers of two, which change far less often than the peaks (so
that the compiled step refits only when a column comes or goes or a scale
doubles) and divide exactly.  Where a correction leaves a residual more than
``GROWTH`` times larger than the pass before (a model from steps unlike this
one), the columns are dropped and the pass's own values taken, a plain pass.
"""
from __future__ import annotations

import numpy as np

__all__ = ["QuasiNewton", "REUSE", "GROWTH", "extrapolated", "powers_of_two_above"]

#: the steps that gave columns whose columns the model keeps, besides the current one's
REUSE = 8
#: a correction whose residual is more than this many times the pass
#: before's drops the model.  Not 1: measured in each value's own scale, a
#: pass that converges may pass the difference from one value to another of
#: a smaller scale, and its largest grow; a model dropped at every such
#: growth is rebuilt step after step where one kept would do (the re-step
#: passes with each limit: docs/benchmarks.md, "A model kept through a
#: pass that moves the difference")
GROWTH = 10.0


class QuasiNewton:
    """IQN-ILS over ``n`` values, with the columns of the last ``reuse``
    steps kept."""

    def __init__(self, n: int, reuse: int = REUSE):
        self.n, self.reuse = n, reuse
        #: the columns, newest first: (the step they came from, counting the
        #: steps that gave columns, the change of the residual, the change of
        #: the values produced)
        self.columns: list[tuple[int, np.ndarray, np.ndarray]] = []
        #: the changes of the residual and of the values of the columns used,
        #: as matrices (a column each), until the columns change: a step
        #: settled by one correction reuses those of the step before
        self._stacked: tuple[np.ndarray, np.ndarray] | None = None
        self.step = 0
        #: the pass before in this step: the values it produced, its
        #: residual, and the residual's largest scaled magnitude
        self.last: tuple[np.ndarray, np.ndarray, float] | None = None
        # the fit compiled (or loaded from numba's cache) now, not in a paced step
        _least_squares(np.eye(max(n, 1), 1), np.ones(max(n, 1)))

    def new_step(self) -> None:
        """Start a step: the columns of steps more than ``reuse`` before it
        that gave any go (a step that settled in one correction gives none,
        and leaves the model as it was)."""
        if self.columns and self.columns[0][0] == self.step:
            self.step += 1
            oldest = self.step - self.reuse
            while self.columns[-1][0] < oldest:
                self.columns.pop()
                self._stacked = None
        self.last = None

    def next_input(self, x: np.ndarray, produced: np.ndarray, scale: np.ndarray) -> np.ndarray:
        """The values the next pass reads, given those the pass just made
        read (``x``) and produced; ``scale`` the values' scales (a value's
        own magnitude counts where it is larger: one that was zero so far)."""
        r = produced - x
        scale = np.maximum(scale, np.abs(x))
        np.maximum(scale, np.abs(produced), out=scale)
        scale[scale == 0] = 1.0  # a value zero here and so far: no residual either
        size = float(np.abs(r / scale).max(initial=0.0))
        last, self.last = self.last, (produced, r, size)
        if last is not None:
            if size > GROWTH * last[2]:  # the model led away from the fixed point: start it afresh
                self.columns, self._stacked = [], None
                return produced
            self.columns.insert(0, (self.step, r - last[1], produced - last[0]))
            self._stacked = None
        if not self.columns:
            return produced
        if self._stacked is None:
            used = self.columns[:self.n]
            self._stacked = np.array([col[1] for col in used]).T, np.array([col[2] for col in used]).T
        V, W = self._stacked
        rows = powers_of_two_above(scale)
        weights = _least_squares(V / rows[:, None], -r / rows)
        if weights is None:  # a fit of no finite weights: a plain pass, the model afresh
            self.columns, self._stacked = [], None
            return produced
        # column by column, not W @ weights: BLAS may sum in another order
        # (or fused), and the compiled master step must give the same bits
        out = produced.copy()
        for j, w in enumerate(weights.tolist()):
            out += W[:, j] * w
        return out


def powers_of_two_above(x: np.ndarray) -> np.ndarray:
    """Each of the positive finite ``x`` rounded up to a power of two (its
    exponent's bits, one up where the mantissa has any): the scales the
    fit divides its rows by, which stay the same from one fit to the next
    while the peaks grow by less than twofold, so that the compiled step
    keeps the fit's factorisation (``compiled.qn``), and which divide
    exactly."""
    bits = np.ascontiguousarray(x, dtype=np.float64).view(np.int64)
    return ((bits + 0x000FFFFFFFFFFFFF) & 0x7FF0000000000000).view(np.float64)


def _least_squares(A: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The ``x`` that minimises ``|A x - b|`` (``A`` with no more columns
    than rows), leaving out, column by column, those the columns before
    them make to within ``compiled.qn.RCOND`` of the largest (Householder's
    QR, compiled: ``compiled.qn.least_squares``, which the compiled master
    step calls too, so that both give the same bits; a few microseconds at
    these sizes); None where a weight is not finite.  ``A`` is overwritten."""
    # imported here, not with the module: importing the runtime must not load
    # the compiled package and the kernels' sources (parsed at import) where
    # no iterated algorithm runs, as in a sweep's worker threads
    from ..compiled.qn import least_squares
    n, k = A.shape
    weights = np.empty(k)
    ok = least_squares(np.asfortranarray(A).ravel(order="F"), np.array(b, dtype=float), n, k, weights,
                       np.empty(k), np.empty(k), np.empty(k, np.int64))
    return weights if ok else None


def extrapolated(past: list, now: np.ndarray, at: int) -> np.ndarray:
    """The value ``at`` half steps after ``t`` of the polynomial through the
    mid-step values ``past`` (of the steps before: at ``t - 3h/2`` and
    ``t - h/2``, or the last only) and the value ``now`` at ``t``: the
    quadratic's Lagrange weights on the nodes -3, -1, 0 (half steps), or the
    line's on -1, 0."""
    if len(past) == 2:
        w = {1: (1 / 3, -2.0, 8 / 3), 2: (1.0, -5.0, 5.0)}[at]
        return w[0] * past[0] + w[1] * past[1] + w[2] * now
    return (1 + at) * now - at * past[0]
