"""The ``iterated-quadratic`` algorithm: the loop of the iterated midpoint, with
each input from a component that is stepped again following, over
``[t, t + h]``, the quadratic through its source's outputs at ``t``,
``t + h/2`` and ``t + h``, the newest of each.

Every component stepped again steps in two halves in every pass and is read at
``t + h/2`` and ``t + h``.  Its inputs are set at ``t`` with their first and
second time derivatives there (``fmi2SetRealInputDerivatives``, FMI 2.0 section
4.2.1): ``u(t + s) = u0 + a1 s/h + a2 (s/h)**2`` with
``a1 = -3 u0 + 4 um - ue`` and ``a2 = 2 u0 - 4 um + 2 ue`` from the values
``u0``, ``um``, ``ue`` at ``t``, ``t + h/2``, ``t + h``.  A source not stepped
yet in the first pass gives the iterated midpoint's prediction (the quadratic
through its last two settled mid-step values and its value at ``t``), at
mid-step and at ``t + h`` (with a fixed number of passes: its value at ``t``
for all three; where the prediction holds, no re-step pass is made).  The
passes repeat until no output read from them, at mid-step or at ``t + h``,
moves by more than a hundredth of the accuracy asked of its peak (the iterated
midpoint's bound), at most ``MAX_PASSES`` times (or ``iterations`` passes): the
fixed point is the collocation of the coupling at the three points (Lobatto
IIIA).  An input from a component that is not stepped again (a set-point
signal, a controller before the loop), and an input that is not a continuous
real, is held at its source's mid-step value, as in the iterated midpoint,
which keeps a step in a signal a step, where a quadratic through it would
overshoot.

Settled, the coupling is fourth order; its accuracy on the examples against the
iterated midpoint's: docs/master.md.  Components stepped again must declare
``canGetAndSetFMUstate`` and ``canInterpolateInputs`` (FMI 2.0: FMI 3.0 has no
input derivatives).  The execution may step its compiled twin in its place
(``runtime/compiled``), to the same bits.
"""
from __future__ import annotations

import numpy as np

from .base import check_finite, gather_strings
from .graph import stepped_again
from .acceleration import extrapolated
from .midpoint import AGAIN, IteratedMidpoint

__all__ = ["IteratedQuadratic"]


class IteratedQuadratic(IteratedMidpoint):
    name = "iterated-quadratic"
    order = 4
    predicted_points = 2  # mid-step and t + h
    #: the passes settle the values at t + h too: a loop of direct
    #: feedthrough there starts from them as they stand, not from a
    #: prediction (the flexible crane: one round at 999 of 1000 points, where
    #: the prediction took three or four)
    point_predicted = False

    @classmethod
    def problems(cls, plan):
        found = super().problems(plan)
        for k in stepped_again(plan):
            part = plan.parts[k]
            if part.model.capabilities.can_interpolate_inputs:
                continue
            why = ("it is an FMI 3.0 FMU, and FMI 3.0 has no input derivatives" if part.model.fmi_version == "3.0"
                   else "canInterpolateInputs is false")
            found.append((f"component {part.name} ({part.path.name}) does not take input derivatives ({why}), "
                          f"which the iterated-quadratic algorithm gives it when it steps it again: {AGAIN}; use "
                          f"iterated-midpoint for this system", (part.name,)))
        return found

    def __init__(self, plan, instances):
        super().__init__(plan, instances)
        again = set(self.again)
        #: per component, its routes whose source is stepped again, into
        #: its continuous real inputs (the others hold the mid-step value)
        self.follows = []
        for inst, rts in zip(instances, plan.routes):
            smooth = [_narrowed(r, inst.smooth) for r in rts if r.src in again]
            self.follows.append([r for r in smooth if r is not None])
        #: the values at t and at t + h, laid out as the mid-step ones
        #: (``mid_flat``), each component's part a view
        self.start_flat, self.end_flat = self.mid_flat.copy(), self.mid_flat.copy()
        self.start, self.end = self._parts(self.start_flat), self._parts(self.end_flat)
        #: per component, where the sources of the inputs that follow a
        #: quadratic sit in those arrays, and the inputs (None: none)
        self.follow_from, self.follow_to = self._flat_routes(self.follows)
        #: the first pass as the iterated midpoint plans it, for the others:
        #: whether each is read at mid-step
        self.first = {k: halves for p, k, halves, last in self.pass_steps if p == 0 and k not in again}

    def step(self, k, t, h) -> None:
        for inst, y0, y1 in zip(self.instances, self.start, self.end):
            y0[:] = inst.y
            y1[:] = inst.y  # a source not yet stepped: its value at t
        super().step(k, t, h)

    def _place_prediction(self, j, at, past, now) -> None:
        """Component ``j``'s outputs ``at`` at mid-step and at ``t + h``, on
        the quadratic of the iterated midpoint's prediction."""
        self.mid[j][at] = extrapolated(past, now, 1)
        self.end[j][at] = extrapolated(past, now, 2)

    def _read_first(self) -> np.ndarray:
        return self._read_both()

    def _passes(self, saved, t, h) -> None:
        instances = self.instances
        self.passes, self.settled, self.change = 0, False, 0.0
        for k in range(len(instances)):  # the first pass, in order
            if k in self.first:
                self._held_step(instances[k], k, self.first[k], True, t, h)
            else:
                self._quadratic_step(instances[k], k, t, h)
        if self.predicting and self._settled(self.predicted, self._read_both()):
            return  # the prediction held
        for p in range(1, self.iterations + 1):
            if self.accelerated is not None:
                self._accelerate()
            before = self._read_both()
            self.passes = p
            for k in self.again:
                instances[k].restore_state(saved[k])
                self._quadratic_step(instances[k], k, t, h)
            if self._settled(before, self._read_both()):
                return

    def _predicted_values(self) -> np.ndarray:
        """The continuous real outputs read of the components read early, at
        mid-step and at ``t + h``, in one array."""
        return np.concatenate([self.mid_flat[self.predicted_at], self.end_flat[self.predicted_at]])

    def _place_values(self, x: np.ndarray) -> None:
        half = len(x) // 2
        self.mid_flat[self.predicted_at] = x[:half]
        self.end_flat[self.predicted_at] = x[half:]

    def _predicted_scales(self) -> np.ndarray:
        return np.tile(super()._predicted_scales(), 2)

    def _read_both(self) -> np.ndarray:
        """The values now of the outputs read of the watched components: at
        mid-step, then at ``t + h``, in one array."""
        return np.concatenate([self.mid_flat[self.watched_at], self.end_flat[self.watched_at]])

    def _quadratic_step(self, inst, k, t, h) -> None:
        """A component stepped again, from ``t`` over ``h`` in two halves, its
        inputs on their quadratics; its outputs at mid-step and at ``t + h``
        read."""
        mid, end = self.mid, self.end
        self._gather_mid(inst, k)
        inst.du[:] = 0.0
        at = self.follow_from[k]
        if at is not None:  # the quadratic through the values at t, mid-step and t + h
            u0, um, ue, to = self.start_flat[at], self.mid_flat[at], self.end_flat[at], self.follow_to[k]
            inst.u[to] = u0
            inst.du[0, to] = (-3 * u0 + 4 * um - ue) / h
            inst.du[1, to] = (4 * u0 - 8 * um + 4 * ue) / (h * h)
        if self.string_routes[k]:
            gather_strings(inst, self.string_routes[k], self.instances)
        inst.set_inputs()
        inst.set_input_derivatives()
        inst.do_step(t, h / 2)
        mid[k][:] = inst.get_outputs()
        check_finite(inst, t + h / 2)
        inst.do_step(t + h / 2, h / 2)
        end[k][:] = inst.get_outputs()
        check_finite(inst, t + h)


def _narrowed(route, smooth: np.ndarray):
    """``route`` restricted to its destination inputs that are continuous
    reals (None if none is)."""
    keep = smooth[route.dst_index]
    if keep.all():
        return route
    if not keep.any():
        return None
    return type(route)(route.src, route.src_index[keep], route.dst_index[keep], route.every)
