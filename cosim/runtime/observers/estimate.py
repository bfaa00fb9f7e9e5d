"""The co-simulation's estimate of its own coupling error, without a monolithic
run: Richardson extrapolation against a second co-simulation of the same system
at half the step, run beside it.

Where the error of a co-simulation at step ``h`` is ``e(h) ~ C h^p`` (the
coupling's order ``p``: 1 for Jacobi and Gauss-Seidel, with or without
extrapolated inputs, 2 for the iterated midpoint, 4 for the iterated quadratic,
each where its passes settle, and lower with fewer passes than its loop needs:
the algorithm's ``coupling_order`` from the passes both runs made;
``docs/coupling-error.md``), the run at ``h/2`` has ``e(h)/2^p``, so at every
communication point

    e(h) ~ (y_h - y_{h/2}) 2^p / (2^p - 1)

is an estimate of the error of the recorded output ``y_h`` against the exact
coupling of the same FMUs, the monolithic run (Hairer, Nørsett & Wanner 1993,
section II.4).  Unlike an estimate from the local defect of one step (the
difference between an input held and the output that followed, or the energy it
lets through a connection), it is the global error, phase drift of an undamped
mode and all, in the norm users compare with: the difference over the run, over
each output's peak.  It is as good as the asymptotic regime, where the error
falls with the step by its order (``docs/coupling-error.md`` shows where each
example is).  The cost is the second run, at half the step.

The outputs estimated are the forces and moments (unit N or N.m), which are
what the co-simulation is for; a system with none has every output estimated.
Each is scaled by its peak so far, or, for one that is zero but for round-off,
by ``FLOOR`` of the largest of those in the same unit of the same component
(the scale the iterated midpoint measures its passes against).
"""
from __future__ import annotations

import numpy as np

from ...files.results import ESTIMATE_FILE, CsvWriter
from ..algorithms.base import FLOOR, UnitGroups, floored_scale
from ..execution import Execution
from ..recording import recorded
from . import Observer

__all__ = ["CouplingEstimate", "Estimate", "FORCE_UNITS", "FLOOR", "floored_scale"]

#: the units of the outputs estimated (every output when none has one)
FORCE_UNITS = ("N", "N.m")


class CouplingEstimate:
    """The running estimate over the outputs ``columns`` (``component.variable``)
    with ``units``, of a coupling of order ``order``.

    :meth:`update` takes the outputs of the run and of the run at half the
    step at one communication point and sets ``error``, the estimated error
    of each output estimated there [its unit].  :meth:`summary` gives, over
    the run so far, the largest estimated error of each output over its
    peak, and the RMS of it over its peak: the norms of
    :func:`accuracy.comparison.error_norms` (``max_peak``, ``rms_peak``), whose largest
    over the outputs are ``largest`` and ``rms``."""

    def __init__(self, columns: list[str], units: list[str], order: int):
        self.columns = list(columns)
        self.set_order(order)
        chosen = [i for i, u in enumerate(units) if u in FORCE_UNITS]
        self.index = np.asarray(chosen if chosen else range(len(columns)), dtype=int)
        #: the outputs estimated
        self.names = [self.columns[i] for i in self.index]
        # the outputs of one component in one unit share a floor
        ids = {}
        self._group = UnitGroups([ids.setdefault((self.columns[i].split(".", 1)[0], units[i]), len(ids))
                                  for i in self.index])
        n = len(self.index)
        self.peak = np.zeros(n)
        self.sum_squares = np.zeros(n)
        self.max_abs = np.zeros(n)
        self.max_at = np.zeros(n)
        self.points = 0
        #: the estimated error of each output estimated at the last point
        #: [its unit]
        self.error = np.zeros(n)

    def set_order(self, order: int) -> None:
        """The coupling's order from here on (the passes the runs made)."""
        self.order = order
        self.factor = 2 ** order / (2 ** order - 1)

    def update(self, t: float, y: np.ndarray, y_half: np.ndarray) -> None:
        y, y_half = y[self.index], y_half[self.index]
        np.multiply(y - y_half, self.factor, out=self.error)
        np.maximum(self.peak, np.abs(y), out=self.peak)
        self.sum_squares += self.error ** 2
        size = np.abs(self.error)
        larger = size > self.max_abs
        self.max_abs[larger] = size[larger]
        self.max_at[larger] = t
        self.points += 1

    def _relative(self, values: np.ndarray) -> np.ndarray:
        """``values`` over each output's scale (:func:`floored_scale`)."""
        scale = floored_scale(self.peak, self._group)
        return np.divide(values, scale, out=np.zeros_like(values), where=scale > 0)

    @property
    def largest(self) -> float:
        """The largest estimated error over the run, over its output's peak."""
        return float(self._relative(self.max_abs).max()) if len(self.index) else 0.0

    def summary(self) -> dict:
        """The estimate over the run so far, for ``summary.json``."""
        largest = self._relative(self.max_abs)
        rms = self._relative(np.sqrt(self.sum_squares / max(self.points, 1)))
        if not len(rms):
            return {"order": self.order, "largest": 0.0, "rms": 0.0}
        k, j = int(np.argmax(largest)), int(np.argmax(rms))
        return {"method": "Richardson extrapolation against the run at half the step", "order": self.order,
                "largest": float(largest[k]), "largest_output": self.names[k], "largest_at_time": float(self.max_at[k]),
                "rms": float(rms[j]), "rms_output": self.names[j],
                "by_output": {n: {"largest": float(a), "rms": float(b)} for n, a, b in zip(self.names, largest, rms)}}


class Estimate(Observer):
    """The coupling error of a run, estimated beside it: a second execution
    of the same plan at half the step, stepped twice a step, and
    :class:`CouplingEstimate` of the two at every communication point,
    written to ``coupling_error.csv`` at the recorded points (every
    ``every``-th and the last) and summed up in ``summary.json``.  The
    coupling's order is the algorithm's, from the passes both runs made."""

    def __init__(self, plan, log, out_dir, every: int):
        self.plan, self.log, self.out_dir, self.every = plan, log, out_dir, every
        self.half = self.rating = self.writer = None

    def instantiated(self, execution) -> None:
        self.half = Execution(self.plan.halved(), execution.folder / "half")
        self.half.instantiate()

    def started(self, execution) -> None:
        self.half.start()
        parts = self.plan.parts
        columns = [f"{p.name}.{v.name}" for p in parts for v in p.outputs]
        units = [v.unit for p in parts for v in p.outputs]
        self.rating = CouplingEstimate(columns, units, self._order(execution))
        self.writer = CsvWriter(self.out_dir, self.rating.names, name=ESTIMATE_FILE)
        self.writer.append(execution.t, self.rating.error)

    def _order(self, execution) -> int:
        return min(execution.algorithm.coupling_order(), self.half.algorithm.coupling_order())

    def step_complete(self, execution) -> None:
        self.half.step()
        self.half.step()
        self.rating.set_order(self._order(execution))
        self.rating.update(execution.t, np.concatenate([c.y for c in execution.instances]),
                           np.concatenate([c.y for c in self.half.instances]))
        if recorded(execution.k, self.plan.n_steps, self.every):
            self.writer.append(execution.t, self.rating.error)

    @property
    def largest(self) -> float:
        return self.rating.largest if self.rating is not None else 0.0

    def finished(self, execution, error) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.half is not None:
            self.half.close()

    def summary(self) -> dict:
        """The estimate's largest and RMS over the run (``CouplingEstimate.summary``)."""
        return {"coupling_error": self.rating.summary()} if self.writer is not None else {}
