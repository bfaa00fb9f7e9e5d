"""The algorithms that step every component once: Jacobi and Gauss–Seidel,
with inputs held over the step (the last sample, or its estimate at
mid-step), and components that step every few base steps.

* ``jacobi``: every component gets the outputs of the last communication
  point, all step, then all outputs are read;
* ``gauss-seidel``: components step one after another in the order of the
  system file, each with the newest outputs of those before it.

``extrapolation = "none"`` (the default) holds the last sample.  With
``"midpoint"`` a continuous real input holds its estimate at the middle of
the step from its last two samples: ``u_n + (u_n - u_{n-1}) / 2`` for a
source that has not stepped yet, ``(u_n + u_{n+1}) / 2`` for one that
already has (Gauss–Seidel).  It costs nothing and with Jacobi cuts the
error of the crane on the vessel at 1 ms about threefold, but it shrinks
the range of stable steps (unstable from 5 ms there), and an input that
jumps is overshot by half the jump for one step (``docs/coupling-error.md``).

Components of their own step (every ``k`` base steps, ``Part.every``), as
OSP libcosim's fixed-step algorithm runs them: a component steps at the
base points that are multiples of its ``k``, over ``k`` base steps (the
last cut at the stop time), with the inputs it holds then; its outputs are
read, and passed on, when that step ends, and hold until its next step
ends.  A value passes between two components where both have just ended a
step (their least common multiple of base steps, where neither divides the
other; ``plan._gate``).  With Gauss–Seidel, a component due in a base step
takes the outputs of those before it that ended a step at its end.  No
input is extrapolated with components of their own steps.
"""
from __future__ import annotations

import numpy as np

from .base import Algorithm, check_finite, gather, gather_all, gather_strings

__all__ = ["Jacobi", "GaussSeidel"]


class _Explicit(Algorithm):
    """Shared by Jacobi and Gauss–Seidel: input weights and the schedule of
    components with their own steps."""

    @classmethod
    def problems(cls, plan):
        if plan.multi_rate and plan.settings.extrapolation != "none":
            slow = next(p.name for p in plan.parts if p.every > 1)
            return [(f"input extrapolation ({plan.settings.extrapolation}) is defined over one step for every "
                     f"component, and component {slow} steps every {plan.part(slow).every} steps: use "
                     f"extrapolation none with components of their own steps", (slow,))]
        return []

    def __init__(self, plan, instances):
        super().__init__(plan, instances)
        self.routes, self.string_routes = plan.routes, plan.string_routes
        self.every = [p.every for p in plan.parts]
        self.n_steps = plan.n_steps
        self.gated = any(r.every > 1 for rts in plan.routes + plan.string_routes for r in rts)
        self.single_rate = not plan.multi_rate and not self.gated
        #: each component with the routes that fill its inputs
        self.wiring = list(zip(instances, self.routes, self.string_routes))
        self._bind_extrapolation(plan.settings.extrapolation)

    def _bind_extrapolation(self, extrapolation: str) -> None:
        """Per input, the weight w of ``u = u_n + w (u_n - u_prev)``: +1/2 to
        extrapolate to mid-step, -1/2 to interpolate when the source already
        stepped (Gauss-Seidel, earlier in the order); 0 for an input that is
        not a continuous real; no weights for ``none``."""
        for k, inst in enumerate(self.instances):
            inst.u_prev[:] = inst.u_raw  # the first step has one sample only: it holds it
            if extrapolation == "none":
                continue
            w = np.full(len(inst.u), 0.5)
            if self.name == "gauss-seidel":
                for r in self.routes[k]:
                    if r.src < k:
                        w[r.dst_index] = -0.5
            w[~inst.smooth] = 0.0
            inst.weights = w

    def _inputs(self, k: int, i: int) -> None:
        """Component ``i``'s inputs at base point ``k``, through the gates."""
        routes, strings = self.routes[i], self.string_routes[i]
        if self.gated:
            routes = [r for r in routes if k % r.every == 0]
            strings = [r for r in strings if k % r.every == 0]
        gather_all(self.instances[i], routes, strings, self.instances)

    def _due(self, k: int, i: int) -> bool:
        return k % self.every[i] == 0

    def _ends(self, k: int, i: int) -> bool:
        """Whether component ``i``'s step ends at the end of base step ``k``."""
        return (k + 1) % self.every[i] == 0 or k + 1 == self.n_steps

    def _step_one(self, k: int, i: int, t: float) -> None:
        inst = self.instances[i]
        inst.set_inputs()
        inst.do_step(t, self.time_of(min(k + self.every[i], self.n_steps)) - t)


class Jacobi(_Explicit):
    name = "jacobi"

    def step(self, k, t, h):
        instances = self.instances
        if self.single_rate:
            for inst, rts, srts in self.wiring:
                gather(inst, rts, instances)  # gather_all, unrolled: the hot loop of every step
                if srts:
                    gather_strings(inst, srts, instances)
            for inst in instances:
                inst.set_inputs()
                inst.do_step(t, h)
            for inst in instances:
                inst.get_outputs()
                check_finite(inst, t + h)
            return
        due = [i for i in range(len(instances)) if self._due(k, i)]
        for i in due:
            self._inputs(k, i)
        for i in due:
            self._step_one(k, i, t)
        for i, inst in enumerate(instances):
            if self._ends(k, i):
                inst.get_outputs()
                check_finite(inst, t + h)


class GaussSeidel(_Explicit):
    name = "gauss-seidel"

    def step(self, k, t, h):
        instances = self.instances
        if self.single_rate:
            for inst, rts, srts in self.wiring:
                gather(inst, rts, instances)  # gather_all, unrolled: the hot loop of every step
                if srts:
                    gather_strings(inst, srts, instances)
                inst.set_inputs()
                inst.do_step(t, h)
                inst.get_outputs()
                check_finite(inst, t + h)
            return
        for i, inst in enumerate(instances):
            if self._due(k, i):
                self._inputs(k, i)
                self._step_one(k, i, t)
            if self._ends(k, i):
                inst.get_outputs()
                check_finite(inst, t + h)
