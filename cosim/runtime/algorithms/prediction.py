"""The first pass's prediction and the re-step passes' quasi-Newton steps
of the iterated algorithms (``midpoint.py``, ``quadratic.py``).

Where the passes settle, a value read in the first pass before its source
steps in it is not its source's value at ``t`` but the quadratic through
that source's settled mid-step values of the last two steps and its value
at ``t``, extrapolated to ``t + h/2`` (``acceleration.extrapolated``,
third order in ``h``): where the first pass agrees with it within the
settling bound, the step takes no re-step pass.  A re-step pass then reads
not the values the pass before produced but the quasi-Newton model's next
values (IQN-ILS of Degroote, Bathe and Vierendeels 2009,
``acceleration.QuasiNewton``) over the continuous real outputs read early.
"""
from __future__ import annotations

import numpy as np

from .acceleration import extrapolated

__all__ = ["Predictions", "PREDICTED"]

#: mid-step values of this many past steps predict the next (2: quadratic)
PREDICTED = 2


class Predictions:
    """What an iterated algorithm predicts and accelerates, as a base of
    :class:`~.midpoint.IteratedMidpoint`, whose set-up makes what it reads:
    ``settling_bound``, ``early``, ``predict_at``, ``history``, ``mid``,
    ``mid_flat``, ``predicted_at``, ``scale``, ``accelerated`` and
    ``_read_now()``."""

    @property
    def predicting(self) -> bool:
        """Whether the first pass starts from a prediction: where the passes
        settle (a fixed number of passes starts from the values at t, as it
        always has)."""
        return self.settling_bound is not None

    def _predict(self) -> None:
        """The values of the components read before they step, from the last
        two steps (:meth:`_place_prediction`), and :attr:`predicted`: those
        read (:meth:`_read_first`)."""
        if not self.predicting:
            self.predicted = None
            return
        for j in self.early:
            at, past = self.predict_at[j], self.history[j]
            if past:
                self._place_prediction(j, at, past, self.instances[j].y[at])
        self.predicted = self._read_first()
        if self.accelerated is not None:
            self.accelerated.new_step()
            self.read_in = self._predicted_values()

    def _predicted_values(self) -> np.ndarray:
        """The values a pass reads before they are produced that the
        quasi-Newton model moves: the continuous real outputs read of the
        components read early, at mid-step, in one array."""
        return self.mid_flat[self.predicted_at]

    def _place_values(self, x: np.ndarray) -> None:
        """Set the values :meth:`_predicted_values` gives to ``x``."""
        self.mid_flat[self.predicted_at] = x

    def _predicted_scales(self) -> np.ndarray:
        """The scales of the values :meth:`_predicted_values` gives."""
        return np.concatenate([self.scale[j][self.predict_at[j]] for j in self.early])

    def _accelerate(self) -> None:
        """Place the quasi-Newton model's next values of those a pass reads
        before they are produced, from those the pass just made read and
        produced."""
        x = self.accelerated.next_input(self.read_in, self._predicted_values(), self._predicted_scales())
        self._place_values(x)
        self.read_in = x

    def _place_prediction(self, j, at, past, now) -> None:
        """Component ``j``'s outputs ``at`` at mid-step, extrapolated from its
        ``past`` mid-step values and its values ``now`` at t."""
        self.mid[j][at] = extrapolated(past, now, 1)

    def _read_first(self) -> np.ndarray:
        """The values the first pass reads of the watched components (where
        it is predicted, those read early), to compare with what it
        computes."""
        return self._read_now()

    def _remember(self) -> None:
        """Keep the settled mid-step values of the components read early,
        of the last :data:`PREDICTED` steps."""
        for j in self.early:
            past = self.history[j]
            past.append(self.mid[j][self.predict_at[j]].copy())
            if len(past) > PREDICTED:
                del past[0]
