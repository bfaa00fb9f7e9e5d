"""The ``iterated-midpoint`` algorithm: each input is held, over
``[t, t + h]``, at its source's output at ``t + h/2``, the midpoint rule's
value; docs/master.md ("Stepping") says how and why at length, with the
figures measured on the examples.

In short: the components step in the order of the system file, in two
halves where a mid-step output of theirs is wanted; those that read a
later component's output (and those that read them) are rolled back
(``fmi2SetFMUstate``) and step again with the newest mid-step outputs, one
fixed-point iteration of the implicit midpoint coupling, second order in
``h``.  The passes repeat until the values read settle to ``SETTLE`` of
the accuracy asked of their peaks (at most ``MAX_PASSES``), starting from
a prediction and taking quasi-Newton steps (``prediction.py``,
``acceleration.py``), or ``iterations`` plain passes.  At ``t + h`` the
outputs are read along their direct feedthrough (``point.py``), so that a
recorded reaction agrees with the inputs at the point.  Components stepped
twice must declare ``canGetAndSetFMUstate``.  The execution may step the
compiled twin in its place (``runtime/compiled``): the same calls, the
same bits.
"""
from __future__ import annotations

import math

import numpy as np

from .base import SETTLE, Algorithm, Peaks, check_finite, gather_strings, largest_change, pass_on
from ..types import continuous_reals
from .graph import links_against_order, point_schedule, read_outputs, stepped_again, steps_of_passes
from .acceleration import QuasiNewton
from .point import PointReads
from .prediction import Predictions

__all__ = ["IteratedMidpoint", "MAX_PASSES", "AGAIN"]

#: why a component is stepped again, in the words of a refusal
AGAIN = ("it reads the output of a component after it in the system's order, or of one stepped again (putting "
         "its sources before it may do without)")

#: re-step passes at most, where they do not settle
MAX_PASSES = 12
#: with a fixed number of passes, a step whose last pass moved no value read
#: by more than this fraction of its peak counts as converged, for the
#: order of the coupling the estimate of its error takes
CONVERGED = 1e-6


class IteratedMidpoint(Predictions, Algorithm):
    name = "iterated-midpoint"
    order = 2
    compiled_twin = True
    #: the points in the step at which an input follows its source (mid-step)
    predicted_points = 1
    #: whether a loop of direct feedthrough at t + h starts from its values
    #: predicted (``point.py``): the values read after the step come from
    #: inputs held at mid-step, half a step's change off
    point_predicted = True

    @classmethod
    def problems(cls, plan):
        found = []
        if plan.settings.extrapolation != "none":
            found.append((f"the {cls.name} algorithm gives every input its mid-step value or its quadratic over "
                          f"the step and takes no input extrapolation ({plan.settings.extrapolation!r}); use "
                          f"extrapolation none with it", ()))
        slow = [p for p in plan.parts if p.every > 1]
        if slow:
            found.append((f"the {cls.name} algorithm steps every component over the same step, rolling some "
                          f"back together, and component {slow[0].name} steps every {slow[0].every} steps: "
                          f"use gauss-seidel or jacobi with components of their own steps", (slow[0].name,)))
        for k in stepped_again(plan):
            part = plan.parts[k]
            if not part.model.capabilities.can_get_and_set_state:
                found.append((f"component {part.name} ({part.path.name}) cannot save and restore its state "
                              f"(canGetAndSetFMUstate is false), which the {cls.name} algorithm needs to step it "
                              f"twice: {AGAIN}; use gauss-seidel for this system (--algorithm gauss-seidel)",
                              (part.name,)))
        return found

    def __init__(self, plan, instances):
        super().__init__(plan, instances)
        self.routes, self.string_routes = plan.routes, plan.string_routes
        n = len(instances)
        iterations = plan.settings.iterations
        again = stepped_again(plan)
        #: the links against the order on one path of direct feedthrough
        self.links = links_against_order(plan)
        #: re-step passes: at most this many; settling, fewer
        self.iterations = (MAX_PASSES if iterations is None else iterations) if again else 0
        #: the passes settle when no value read moves by more than this
        #: fraction of its scale in a pass (None: a fixed count of passes)
        self.settling_bound = SETTLE * plan.settings.accuracy if iterations is None else None
        #: the passes of outputs to inputs at t + h, where the outputs'
        #: dependencies make a loop; else the components read in order
        self.point_passes = self.links + 1
        schedule = point_schedule(plan) if self.settling_bound is not None else None
        #: the reads at t + h along the schedule (None: in passes)
        self.point = PointReads(plan, schedule, self.point_predicted) if schedule is not None else None
        fixed_step = {k for k, p in enumerate(plan.parts) if not p.model.capabilities.can_vary_step}
        #: (pass, component, whether it steps in halves, read at mid-step,
        #: and whether this is its last step of the communication step)
        self.pass_steps = steps_of_passes(plan, again, self.iterations, fixed_step)
        self.again = again
        self.fixed_step = fixed_step
        read, early = read_outputs(plan)
        self.read_at = [np.array(sorted(s), dtype=int) for s in read]
        #: the components read in the first pass before they step, whose
        #: values there are predicted where the passes settle (a fixed
        #: number of passes starts from the values at t, as it always has)
        self.early = sorted(early) if again else []
        #: the components whose read outputs decide whether a pass settled:
        #: settling, those read in a pass before they step in it (when the
        #: values they give agree with those read, every input of the pass
        #: held its source's output); with a fixed number of passes, those
        #: stepped again as well, whose change tells the order the estimate
        #: of the coupling error takes
        self.watched = self.early if self.settling_bound is not None else sorted(set(again) | early) if again else []
        smooth = [np.array(continuous_reals(part.outputs), bool) for part in plan.parts]
        #: per component, its read outputs that are continuous reals: those predicted
        self.predict_at = [a[m[a]] if len(a) else a for a, m in zip(self.read_at, smooth)]
        #: the settled mid-step values of the last two steps at predict_at, and their step
        self.history, self.history_h = [[] for _ in range(n)], None
        #: the quasi-Newton model of the loop over the predicted values (None: plain passes)
        size = sum(len(self.predict_at[j]) for j in self.early) * self.predicted_points
        self.accelerated = QuasiNewton(size) if self.settling_bound is not None and size else None
        for k in again:
            instances[k].may_roll_back = True
        #: the components' mid-step values, one array (``mid_flat``) of which
        #: ``mid[j]`` is component j's part, so that a component's inputs are
        #: one gather from it (``gather_from`` into ``gather_to``), and the
        #: values read early, or watched, one index into it
        self.offsets = start = np.cumsum([0] + [len(inst.y) for inst in instances])
        self.mid_flat = np.concatenate([inst.y for inst in instances]) if n else np.zeros(0)
        self.mid = self._parts(self.mid_flat)
        self.gather_from, self.gather_to = self._flat_routes(plan.routes)
        self.watched_at = np.concatenate([start[j] + self.read_at[j] for j in self.watched]).astype(int) \
            if self.watched else np.zeros(0, int)
        self.predicted_at = np.concatenate([start[j] + self.predict_at[j] for j in self.early]).astype(int) \
            if self.early else np.zeros(0, int)
        #: per component, the largest magnitude of each output so far, and
        #: the least scale of a change (``base.Peaks``)
        self.peaks = Peaks(instances)
        self.scale = self.peaks.scale
        #: the outputs at t + h, laid out as mid_flat
        self.ends = np.zeros_like(self.mid_flat)
        #: the scales of the values the watched components give, this step
        self._scale_now = None
        #: the re-step passes of the last step, whether its last pass
        #: settled, and the largest change in it (relative to the outputs' peaks)
        self.passes, self.settled, self.change = 0, False, 0.0
        #: how many steps took each number of re-step passes
        self.pass_counts = {}
        #: the fewest re-step passes of a step that did not settle (None: all settled)
        self.fewest_unsettled = None
        #: why this algorithm runs rather than its compiled twin
        #: (``runtime/compiled``), as the execution found (``summary.json``)
        self.why_python = None

    def _parts(self, flat: np.ndarray) -> list[np.ndarray]:
        """Each component's part of ``flat`` (laid out as ``mid_flat``), a view."""
        return [flat[a:b] for a, b in zip(self.offsets[:-1], self.offsets[1:])]

    def _flat_routes(self, routes):
        """Per component, where the sources of its ``routes`` sit in
        ``mid_flat`` (or an array laid out as it) and the inputs they fill,
        each in one index array (None: no route)."""
        sources = [np.concatenate([self.offsets[r.src] + r.src_index for r in rts]).astype(int) if rts else None
                   for rts in routes]
        inputs = [np.concatenate([r.dst_index for r in rts]).astype(int) if rts else None for rts in routes]
        return sources, inputs

    # -- the step -------------------------------------------------------------------
    def step(self, k, t, h) -> None:
        instances = self.instances
        for inst, m in zip(instances, self.mid):
            m[:] = inst.y  # a source not yet stepped: its value at t
        if self.history_h != h:
            self.history, self.history_h = [[] for _ in instances], h
        self._predict()
        saved = {j: instances[j].save_state() for j in self.again}
        try:
            self._passes(saved, t, h)
            self.pass_counts[self.passes] = self.pass_counts.get(self.passes, 0) + 1
            self._note_unsettled()
        finally:
            for j, state in saved.items():
                instances[j].free_state(state)
        self._remember()
        if self.point is not None:
            self.point.read(instances, h, MAX_PASSES, self.settling_bound, self.scale)
        else:
            for inst in instances:
                inst.get_outputs()
            pass_on(instances, self.routes, self.string_routes, self.point_passes)
        ends = self.ends
        np.concatenate([inst.y for inst in instances], out=ends)
        # a finite sum has finite terms only; where it is not, the
        # components are checked one by one, so that the first is named
        if not math.isfinite(sum(ends.tolist())):
            for inst in instances:
                check_finite(inst, t + h)
        self.peaks.update(ends)
        self._scale_now = None

    def _note_unsettled(self) -> None:
        """Where the step's passes did not settle, keep the fewest passes of
        such a step (:meth:`coupling_order`)."""
        if not self.settled and self.again and (self.fewest_unsettled is None or self.passes < self.fewest_unsettled):
            self.fewest_unsettled = self.passes

    def _passes(self, saved, t, h) -> None:
        instances, before = self.instances, self.predicted
        at_mid = set()  # components stopped at mid-step in this pass
        current = 0  # the pass now made (passes in which no step is read are left out)
        self.passes, self.settled, self.change = 0, False, 0.0
        for p, k, halves, last in self.pass_steps:
            if p > current:  # a re-step pass begins
                if before is not None and self._settled(before):
                    return self._finish(saved, at_mid, t, h)
                if self.accelerated is not None:
                    self._accelerate()
                before = self._read_now()
                current, at_mid = p, set()
                self.passes += 1
            inst = instances[k]
            if p:
                inst.restore_state(saved[k])
            if not self._held_step(inst, k, halves, last, t, h):
                at_mid.add(k)  # stopped at mid-step: rolled back before it steps again
        if before is not None:
            self._settled(before)

    def _gather_mid(self, inst, k) -> None:
        """Component ``k``'s numeric inputs at their sources' mid-step values."""
        if self.gather_from[k] is not None:
            inst.u[self.gather_to[k]] = self.mid_flat[self.gather_from[k]]

    def _inputs_at_mid(self, inst, k) -> None:
        """Give component ``k`` its inputs at their sources' mid-step values."""
        self._gather_mid(inst, k)
        if self.string_routes[k]:
            gather_strings(inst, self.string_routes[k], self.instances)
        inst.set_inputs()

    def _held_step(self, inst, k, halves, last, t, h) -> bool:
        """Step ``inst`` (component ``k``) from ``t`` with its inputs held at
        their sources' mid-step values: in halves, read at mid-step, if
        ``halves``, and then on to ``t + h`` if ``last``; whether it
        reached ``t + h``."""
        self._inputs_at_mid(inst, k)
        if not halves:
            inst.do_step(t, h)
            return True
        inst.do_step(t, h / 2)
        self.mid[k][:] = inst.get_outputs()
        check_finite(inst, t + h / 2)
        if last:
            inst.do_step(t + h / 2, h / 2)
        return last

    def _read_now(self) -> np.ndarray:
        """The mid-step values now of the outputs read of the watched
        components, in one array."""
        return self.mid_flat[self.watched_at]

    def _watched_scale(self) -> np.ndarray:
        """The scales of the values :meth:`_read_now` gives, as they stand
        this step."""
        if self._scale_now is None:
            which = self.watched
            self._scale_now = (np.concatenate([self.scale[j][self.read_at[j]] for j in which])
                               if which else np.zeros(0))
        return self._scale_now

    def _settled(self, before, now=None) -> bool:
        """Whether the pass just made changed no output read of the watched
        components (``now``, default: :meth:`_read_now`, in the order of
        ``before``) by more than the settling bound of its peak (and notes
        the largest change, and whether the pass settled).  ``now`` may
        hold the values more than once (at mid-step and at ``t + h``)."""
        now = self._read_now() if now is None else now
        scale = self._watched_scale()
        if len(scale) != len(now):
            scale = np.tile(scale, len(now) // max(1, len(scale)))
        change = largest_change(now, before, scale)
        self.change = change
        self.settled = change <= (CONVERGED if self.settling_bound is None else self.settling_bound)
        return self.settling_bound is not None and self.settled

    def _finish(self, saved, at_mid, t, h) -> None:
        """End the step after a pass whose values settled: a component
        stopped at mid-step takes its second half; one whose step in that
        pass no one read (left out of it) steps from t, with its inputs
        at their newest mid-step values (in halves if it cannot vary its
        step)."""
        for k in self.again:
            inst = self.instances[k]
            if k in at_mid:
                inst.do_step(t + h / 2, h / 2)
                continue
            inst.restore_state(saved[k])
            self._inputs_at_mid(inst, k)
            if k in self.fixed_step:
                inst.do_step(t, h / 2)
                inst.do_step(t + h / 2, h / 2)
            else:
                inst.do_step(t, h)

    # -- what the run learns ---------------------------------------------------------
    def coupling_order(self) -> int:
        """The order the passes made guarantee: the algorithm's own where
        every step settled; else one more than the sweeps of ``links``
        passes the fewest passes of a step made (each pass carries a value
        one link of direct feedthrough against the order further, each
        sweep of them gains an order), up to the algorithm's.  Measured on
        three integrators where a value reaches the first through two such
        links: the iterated midpoint first order with one pass, second with
        two; the iterated quadratic first, second, third and fourth with
        1, 2, 4 and 6 passes (``tests/runtime/test_estimate.py``).  Where
        the loop holds no direct feedthrough (integrators only) the passes
        of the iterated quadratic gain more (two integrators in a loop:
        third order with one pass), and the order taken is then lower than
        the error's: the estimate a little high, never low."""
        if self.fewest_unsettled is None:
            return self.order
        return min(self.order, 1 + self.fewest_unsettled // max(1, self.links))

    def summary(self, passes=None, rounds=None, master_step=None) -> dict:
        """What the run learnt: the steps that took each number of re-step
        passes, which step ran (``master_step``), and the rounds of each
        loop read at the points; a compiled twin gives its own ``passes``,
        ``rounds`` and ``master_step``."""
        passes = self.pass_counts if passes is None else passes
        out = {"re_step_passes": {str(p): c for p, c in sorted(passes.items())},
               "master_step": master_step or f"python ({self.why_python})"}
        if self.point is not None and self.point.loops:
            rounds = self.point.rounds if rounds is None else rounds
            # per loop of direct feedthrough at the points, named by its components
            out["point_loop_rounds"] = {
                " ".join(self.plan.parts[k].name for k in self.point.groups[g][0]):
                    {str(n): c for n, c in sorted(counts.items())} for g, counts in rounds.items()}
        return out

