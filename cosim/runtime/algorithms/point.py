"""The outputs at a communication point, read after a step so that every
output that depends directly on an input agrees with its inputs there.

The components are read along the schedule of ``graph.point_schedule``:
those whose outputs wanted first are of their state alone, then each group,
in order, given its inputs and read.  A group whose outputs depend on one
another round a loop of direct feedthrough (an algebraic loop: on the crane
on the vessel with friction, the vessel's acceleration on the crane's
articulated inertia and bias wrench, these on the friction torques, the
torques on the joint reactions, the reactions on the acceleration) is read
round and round, each round in order, until no value a member reads before
its source is read in the round (the loop's values read early: the crane's
inertia and bias wrench, the friction torques) differs from what the round
produced by more than the settling
bound of its peak: every output then agrees with its inputs to that bound,
the criterion of the iterated algorithms' passes.

The first round does not start from the values read after the step (the
loop's sources as they stood with their inputs at mid-step, a hundredth of
their peaks off at 5 ms): the values read early are predicted, the
quadratic through their settled values at the last three communication
points extrapolated one step on (the line through the last two after a
start), whose error, third order in the step, is mostly below the bound,
so that one round may settle the loop.  The rounds after it read, as the
passes of the iterated algorithms do, a quasi-Newton step towards the
loop's fixed point (``acceleration.QuasiNewton``, its columns kept from
the points before).  The rounds this saves on the examples: docs/master.md
("Stepping"), where the friction torques, which stick and slip, miss the
prediction most.  The iterated quadratic's passes settle the
values at t + h themselves: its loops start from them as they stand.
"""
from __future__ import annotations

import numpy as np

from ..types import continuous_reals
from .acceleration import QuasiNewton
from .base import gather, largest_change

__all__ = ["PointReads"]

#: settled values at this many past points predict the next (3: quadratic)
PREDICTED = 3


class _Loop:
    """One looped group of the schedule: its members ``ks`` in order, the
    outputs of theirs read in a round before the source is read in it
    (``sources``: per source, the indices of those outputs), which of those
    are continuous reals (predicted), and their settled values at the last
    points, newest last."""

    def __init__(self, ks, plan):
        position = {k: i for i, k in enumerate(ks)}
        early = {}
        for i, k in enumerate(ks):
            for r in plan.routes[k]:
                if r.src in position and position[r.src] >= i:
                    early.setdefault(r.src, set()).update(int(o) for o in r.src_index)
        self.ks = ks
        self.sources = [(src, np.array(sorted(idx), dtype=int)) for src, idx in sorted(early.items())]
        self.smooth = np.concatenate([np.array(continuous_reals(plan.parts[src].outputs), bool)[idx]
                                      for src, idx in self.sources]) if self.sources else np.zeros(0, bool)
        self.history: list[np.ndarray] = []
        #: the quasi-Newton model of the rounds (``acceleration.py``)
        self.model = QuasiNewton(len(self.smooth)) if len(self.smooth) else None

    def values(self, instances) -> np.ndarray:
        """The values read early, as the sources' outputs now stand, in one array."""
        if not self.sources:
            return np.zeros(0)
        return np.concatenate([instances[src].y[idx] for src, idx in self.sources])

    def scales(self, scale) -> np.ndarray:
        """Their scales, from the per-component scales ``scale``."""
        if not self.sources:
            return np.zeros(0)
        return np.concatenate([scale[src][idx] for src, idx in self.sources])

    def predict(self, instances) -> None:
        """Place the predicted values read early in their sources' outputs
        (with fewer than two settled points, leave them as read)."""
        past = self.history
        if len(past) < 2:
            return
        if len(past) == 3:
            guess = 3.0 * past[2] - 3.0 * past[1] + past[0]
        else:
            guess = 2.0 * past[1] - past[0]
        values = self.values(instances)
        values[self.smooth] = guess[self.smooth]
        self.place(instances, values)

    def place(self, instances, values: np.ndarray) -> None:
        """Set the values read early to ``values`` (laid out as :meth:`values`)."""
        start = 0
        for src, idx in self.sources:
            instances[src].y[idx] = values[start:start + len(idx)]
            start += len(idx)

    def remember(self, instances) -> None:
        self.history.append(self.values(instances))
        if len(self.history) > PREDICTED:
            del self.history[0]


class PointReads:
    """Reads along ``schedule`` (``graph.point_schedule``, not None) of
    ``plan``, each loop from its values read early predicted from its last
    settled points (see the module docstring), or, not ``predicted``, as
    they stand after the step (where the algorithm's passes settled them
    there: the iterated quadratic's)."""

    def __init__(self, plan, schedule, predicted: bool = True):
        self.routes = plan.routes
        #: whether a loop starts from its values predicted, or as they stand after the step
        self.predicted = predicted
        self.groups, self.first = schedule
        self.loops = {g: _Loop(ks, plan) for g, (ks, looped) in enumerate(self.groups) if looped}
        self.h = None
        #: per looped group (its index in the schedule), how many points took how many rounds
        self.rounds = {g: {} for g in self.loops}

    def read(self, instances, h: float, rounds: int, settling_bound: float, scale) -> None:
        """Read every component at the point after a step of ``h`` [s]; a
        loop at most ``rounds`` rounds, settled within ``settling_bound`` of the
        ``scale`` of each value (per component, ``base.Peaks.scale``; or the
        value's own magnitude where larger)."""
        if h != self.h:  # the points are no longer a step apart: predict afresh
            self.h = h
            for loop in self.loops.values():
                loop.history.clear()
        routes = self.routes
        for k in self.first:
            instances[k].get_outputs()
        for g, (ks, looped) in enumerate(self.groups):
            if not looped:
                _give_and_read(instances, ks, routes)
                continue
            loop = self.loops[g]
            if self.predicted:
                loop.predict(instances)
            read = loop.values(instances)
            scales = loop.scales(scale)
            if loop.model is not None:
                loop.model.new_step()
            made = 0
            for _ in range(rounds):
                made += 1
                _give_and_read(instances, ks, routes)
                produced = loop.values(instances)
                if largest_change(produced, read, scales) <= settling_bound:
                    break
                if loop.model is None:
                    read = produced
                    continue
                read = loop.model.next_input(read, produced, scales)
                read[~loop.smooth] = produced[~loop.smooth]
                loop.place(instances, read)
            if self.predicted:
                loop.remember(instances)
            self.rounds[g][made] = self.rounds[g].get(made, 0) + 1


def _give_and_read(instances, ks, routes) -> None:
    """Components ``ks`` in order given their inputs from the outputs as
    they stand, and read."""
    for k in ks:
        inst = instances[k]
        gather(inst, routes[k], instances)
        inst.set_inputs()
        inst.get_outputs()
