"""What every master algorithm shares: the interface an execution steps
(:class:`Algorithm`) and the moves of values between components that the
algorithms are made of."""
from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from ...errors import CraneCosimError

__all__ = ["Algorithm", "gather", "gather_strings", "gather_all", "pass_on", "check_finite", "exchange_initial", "FLOOR",
           "floored_scale", "UnitGroups", "Peaks", "ACCURACY", "SETTLE", "largest_change"]

#: the accuracy a run keeps unless asked for another (``--tolerance``): every
#: recorded force within this fraction of its peak (RMS) of the monolithic
#: run, the examples' promise
ACCURACY = 1e-3
#: the iterated algorithms' passes settle when no value read from them moves,
#: in a pass, by more than this fraction of the accuracy asked, relative to
#: its peak.  What is left of the fixed point accumulates over a run where
#: the motion is undamped: a hundredth keeps it below the midpoint rule's
#: own error (docs/master.md, the iterated midpoint's passes)
SETTLE = 0.01

#: the least scale of a change of an output: this fraction of the largest
#: output of its component in the same unit (the iterated algorithms'
#: passes, and the estimate of the coupling error)
FLOOR = 1e-6


def floored_scale(peak: np.ndarray, groups: "UnitGroups") -> np.ndarray:
    """The scale of each output's change: its ``peak``, or ``FLOOR`` of the
    largest peak of its group in ``groups`` (the outputs of one component
    in one unit) for one that is zero but for round-off."""
    if not len(peak):
        return peak.copy()
    largest = np.maximum.reduceat(peak[groups.order], groups.starts)
    return np.maximum(peak, FLOOR * largest[groups.index])


class UnitGroups:
    """Outputs grouped by a label each (their unit, or their component and
    unit), sorted once so that a group's largest value is one ``reduceat``
    a step, not the ``ufunc.at`` that costs three times as much: ``index``
    numbers each output's group (as ``reduceat`` gives the groups),
    ``order`` sorts the outputs by it, ``starts`` where each group begins
    in that order."""

    __slots__ = ("index", "order", "starts")

    def __init__(self, labels):
        labels = np.asarray(labels)
        groups, self.index = np.unique(labels, return_inverse=True) if len(labels) else ([], np.zeros(0, int))
        self.order = np.argsort(self.index, kind="stable")
        self.starts = np.searchsorted(self.index[self.order], np.arange(len(groups)))


class Peaks:
    """Per component, the largest magnitude of each output so far and the
    scale of its change (:func:`floored_scale`), against which the iterated
    algorithms settle: ``peak[j]``, component ``j``'s part of one array
    laid out as the components' outputs one after another."""

    def __init__(self, instances):
        self.spans = np.cumsum([0] + [len(inst.y) for inst in instances])
        self.peak_flat = np.abs(np.concatenate([inst.y for inst in instances])) if instances else np.zeros(0)
        self.peak = [self.peak_flat[a:b] for a, b in zip(self.spans[:-1], self.spans[1:])]
        self.groups = [UnitGroups(inst.output_units) for inst in instances]
        self.scale = [floored_scale(p, g) for p, g in zip(self.peak, self.groups)]

    def update(self, y: np.ndarray) -> None:
        """Take the outputs ``y`` of every component (laid out as
        ``peak_flat``) into the peaks, the scales made again only of the
        components whose peak grew: rarely, once the motion is under way."""
        a = np.abs(y)
        grew = np.greater(a, self.peak_flat)
        if np.logical_or.reduce(grew):  # ndarray.any without its Python wrapper
            np.maximum(self.peak_flat, a, out=self.peak_flat)
            for j, (lo, hi) in enumerate(zip(self.spans[:-1], self.spans[1:])):
                if np.logical_or.reduce(grew[lo:hi]):
                    self.scale[j] = floored_scale(self.peak[j], self.groups[j])


class Algorithm:
    """A master algorithm: how the components step over one base step and
    what their inputs hold meanwhile.

    A subclass sets ``name`` and ``order`` (the order in the step of its
    coupling error where it converges, for the estimate of that error),
    says in :meth:`problems` what of a plan it cannot run (a missing
    capability, components of their own steps), and implements
    :meth:`step`.  It is built once the components are initialized and their
    outputs exchanged (``runtime/execution.py``)."""

    name: ClassVar[str]
    order: ClassVar[int] = 1
    #: whether a twin of its step compiled by numba exists
    #: (``runtime/compiled``), which numba compiles once per machine
    compiled_twin: ClassVar[bool] = False
    #: where the algorithm can make several base steps in one call (its
    #: step compiled): ``steps(times)``, the steps from ``times[0]`` to each
    #: of ``times[1:]`` [s] in turn, returning the rows of those made (the
    #: time at the end of each, then every component's outputs there; a
    #: view the next call overwrites) and
    #: the error that stopped them (None: all made), which the execution
    #: raises once the rows are recorded; None: one :meth:`step` a call
    steps = None

    @classmethod
    def problems(cls, plan) -> list[tuple[str, tuple]]:
        """What of ``plan`` this algorithm cannot run: ``(sentence,
        components)`` pairs, checked before anything runs."""
        return []

    def __init__(self, plan, instances):
        self.plan = plan
        self.instances = instances
        start, stop, step = plan.settings.start_time, plan.settings.stop_time, plan.settings.step
        #: the time of base point k [s] (the last one at the stop time)
        self.time_of = lambda k: min(start + k * step, stop)

    def step(self, k: int, t: float, h: float) -> None:
        """Base step ``k`` (from 0) from ``t`` over ``h`` [s]: every component
        due steps, and the outputs at ``t + h`` are read."""
        raise NotImplementedError

    def coupling_order(self) -> int:
        """The order of the coupling error of the steps made so far."""
        return self.order

    def summary(self) -> dict:
        """What ``summary.json`` records of the algorithm's own work."""
        return {}


def gather(inst, routes, instances) -> None:
    """Fill ``inst``'s inputs from its sources' outputs; with input weights
    (input extrapolation, ``algorithms/explicit.py``) hold the estimate at
    mid-step."""
    raw = inst.u_raw
    for r in routes:
        raw[r.dst_index] = instances[r.src].y[r.src_index]
    if inst.weights is None:
        inst.u[:] = raw
    else:
        np.multiply(inst.weights, raw - inst.u_prev, out=inst.u)
        inst.u += raw
        inst.u_prev[:] = raw


def gather_strings(inst, routes, instances) -> None:
    """Fill ``inst``'s String inputs from its sources' newest outputs."""
    for r in routes:
        src = instances[r.src].sy
        for o, j in zip(r.src_index, r.dst_index):
            inst.su[j] = src[o]


def gather_all(inst, routes, string_routes, instances) -> None:
    """:func:`gather` and, where there are any, the String inputs too."""
    gather(inst, routes, instances)
    if string_routes:
        gather_strings(inst, string_routes, instances)


def check_finite(inst, t: float) -> None:
    """Raise, naming the component and the output, if an output of
    ``inst`` is not a finite number."""
    y = inst.y
    # the sum of Python floats is finite where every value is (half the
    # time of isfinite and all), and where it is not, the values say
    if not math.isfinite(sum(y.tolist())) and not np.isfinite(y).all():
        if inst.errors:  # the FMU said why (ours return NaN and log the cause)
            raise inst.explain(f"compute its outputs at t = {t:g} s")
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise CraneCosimError(f"component {inst.name} returned {y[i]} for its output "
                              f"{inst.output_names[i]} at t = {t:g} s")


def pass_on(instances, routes, string_routes, passes: int = 1) -> None:
    """``passes`` passes, in order: each component's inputs from the outputs
    now, then its outputs read again (direct feedthrough at a communication
    point).  After the first pass a component whose inputs are those it
    was given in the pass before is left alone: nothing has stepped since,
    so its outputs are those read then."""
    given = [None] * len(instances)
    for _ in range(passes):
        for k, (inst, rts, srts) in enumerate(zip(instances, routes, string_routes)):
            gather(inst, rts, instances)  # gather_all, unrolled: passes run at every communication point
            if srts:
                gather_strings(inst, srts, instances)
            elif given[k] is not None and np.array_equal(inst.u, given[k]):
                continue
            inst.set_inputs()
            inst.get_outputs()
            given[k] = inst.u.copy()


def largest_change(now: np.ndarray, before: np.ndarray, scale: np.ndarray) -> float:
    """The largest change of a value from ``before`` to ``now`` over its
    ``scale`` (or over its own magnitude, before or now, where larger): the
    measure the iterated algorithms settle by."""
    s = np.maximum(scale, np.abs(now))
    np.maximum(s, np.abs(before), out=s)
    # a value that moved has a scale (it or the value before is not zero);
    # one that did not is 0 over the least positive number
    np.maximum(s, _TINY, out=s)
    d = np.subtract(now, before)
    np.abs(d, out=d)
    np.divide(d, s, out=d)
    return float(np.maximum.reduce(d, initial=0.0))  # ndarray.max without its Python wrapper


_TINY = np.finfo(float).tiny


def exchange_initial(instances, plan, t0: float) -> None:
    """Before the first step, the outputs passed on until they stop changing
    (at most one pass more than there are components), which settles
    direct feedthrough at the start time."""
    for inst in instances:
        inst.get_outputs()
    for _ in range(len(instances) + 1):
        before = np.concatenate([c.y for c in instances])
        strings = [list(c.sy) for c in instances]
        pass_on(instances, plan.routes, plan.string_routes)
        if np.array_equal(before, np.concatenate([c.y for c in instances])) \
                and strings == [c.sy for c in instances]:
            break
    # NaN spreads through the loop in the exchange: name first a component
    # that logged the cause
    for inst in sorted(instances, key=lambda c: not c.errors):
        check_finite(inst, t0)
