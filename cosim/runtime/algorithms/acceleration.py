"""What speeds up the iterated algorithms' passes: the prediction of the
first pass (:func:`extrapolated`), and the acceleration of the fixed point
by the interface quasi-Newton method with an inverse Jacobian from a
least-squares model (IQN-ILS) of Degroote, Bathe and Vierendeels (2009),
with the columns of past steps reused (what preCICE calls time windows
reused).

A pass of an iterated algorithm maps the values ``x`` its components read
before they produce them (the outputs of a later component, or of the
reader itself) to the values ``x~ = H(x)`` they produce; the step's fixed
point is ``H(x) = x``.  Plain iteration takes ``x~`` as the next ``x`` and
converges by the loop's contraction per pass (the crane's mount wrench
and the vessel's motion, the controller's torque and the joints' speeds:
a third to a half per pass at 5 ms).  IQN-ILS takes the changes of the
residual ``r = x~ - x`` and of ``x~`` seen so far, ``V`` and ``W`` column
by column, and steps to ``x~ + W c`` where ``c`` fits ``V c = -r`` in
least squares: a secant model of the loop's Jacobian, built from the
differences the passes give for nothing.  The loop changes little from
one step to the next, so the columns of the last ``REUSE`` steps model it
from the first correction on.

The values are compared in units of their scales (the peaks the iterated
algorithms settle against), so that a force in newtons and a speed in
radians per second weigh alike in the fit.  Where a correction leaves a
larger residual than the pass before (a model from steps unlike this one),
the columns are dropped and the pass's own values taken, a plain pass.
"""
from __future__ import annotations

import numpy as np

__all__ = ["QuasiNewton", "REUSE", "extrapolated"]

#: the steps whose columns the model keeps besides the current one's
REUSE = 8
#: singular values below this fraction of the largest are left out of the fit
RCOND = 1e-8


class QuasiNewton:
    """IQN-ILS over ``n`` values, with the columns of the last ``reuse``
    steps kept."""

    def __init__(self, n: int, reuse: int = REUSE):
        self.n, self.reuse = n, reuse
        #: per past step, its (V, W) columns as lists of arrays
        self.past: list[tuple[list, list]] = []
        self.V: list[np.ndarray] = []
        self.W: list[np.ndarray] = []
        #: the pass before in this step: the values it produced, its
        #: residual, and the residual's largest scaled magnitude
        self.last: tuple[np.ndarray, np.ndarray, float] | None = None

    def new_step(self) -> None:
        """Start a step: the last step's columns join the past ones."""
        if self.V:
            self.past.append((self.V, self.W))
            del self.past[:-self.reuse]
        self.V, self.W, self.last = [], [], None

    def next_input(self, x: np.ndarray, produced: np.ndarray, scale: np.ndarray) -> np.ndarray:
        """The values the next pass reads, given those the pass just made
        read (``x``) and produced; ``scale`` the values' scales (a value's
        own magnitude counts where it is larger: one that was zero so far)."""
        r = produced - x
        scale = np.maximum(np.maximum(scale, np.abs(x)), np.abs(produced))
        scale[scale == 0] = 1.0  # a value zero here and so far: no residual either
        size = float(np.max(np.abs(r) / scale, initial=0.0))
        if self.last is not None:
            if size > self.last[2]:  # the model led away from the fixed point: start it afresh
                self.past, self.V, self.W = [], [], []
                self.last = (produced, r, size)
                return produced
            self.V.append(r - self.last[1])
            self.W.append(produced - self.last[0])
        self.last = (produced, r, size)
        V = self.V[::-1] + [v for vs, _ in reversed(self.past) for v in vs[::-1]]
        if not V:
            return produced
        W = self.W[::-1] + [w for _, ws in reversed(self.past) for w in ws[::-1]]
        V, W = np.array(V[:self.n]).T, np.array(W[:self.n]).T
        c = np.linalg.lstsq(V / scale[:, None], -r / scale, rcond=RCOND)[0]
        return produced + W @ c


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
