"""The blocks of a system joined by their connections into one ODE
``dx/dt = f(t, x)`` with outputs ``y(t, x)``: the right-hand side the
monolithic reference integrates (:mod:`.monolithic`).

The right-hand side is evaluated thousands of times a simulated second, so
what is fixed is worked out once: every block's state as a slice of the
state vector, every output as a slot of one output vector, every block's
connected inputs as one gather from it, and the outputs of each unit as a
group for the settling test.  A block is evaluated again in a sweep only
when its inputs changed since it last was at the same time and state (its
outputs are a function of these: the same values, without the call), and a
compiled block's kernels are called directly (``Block.direct_calls``).  A
flexible crane's loop with its base and its joints' friction is settled in
one compiled call (:mod:`.crane_loop`), and the sweeps start from it.
"""
from __future__ import annotations

import numpy as np

from ..blocks.block import ParameterError
from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError
from ..fmus.build import bridge_spec_of
from .crane_loop import crane_loop


class _Unsettled(CraneCosimError):
    """The outputs of an algebraic loop do not settle."""


def block_models(plan) -> list[str]:
    """The block behind each component of ``plan``, in order; a component
    that is not one of this project's FMUs is an error naming it."""
    models = []
    for comp in plan.parts:
        path = comp.path
        model = comp.model.ours
        # a bridge's outputs come from another process, at the times it is
        # asked: an integrator's trial states would be sent there as steps
        networked = BLOCKS[model].networked if model is not None else (
            path.exists() and bridge_spec_of(path) is not None)
        if networked:
            raise CraneCosimError(f"component {comp.name} ({path.name}) is a bridge to a block run by "
                                  f"another process, which the monolithic run cannot integrate; run the system "
                                  f"as a co-simulation")
        if model is None:
            raise CraneCosimError(f"the monolithic run needs this project's own FMUs; component "
                                  f"{comp.name} ({path.name}) is not one")
        models.append(model)
    return models


class Composite:
    """Blocks joined by connections into ``dx/dt = f(t, x)``, outputs ``y(t, x)``."""

    def __init__(self, plan):
        self.names = [p.name for p in plan.parts]
        self.blocks = []
        for part, model in zip(plan.parts, block_models(plan)):
            # the values set are parameters, and the start values of inputs no connection drives
            inputs = set(BLOCKS[model].input_names())
            try:
                self.blocks.append(BLOCKS[model](**{k: v for k, v in part.values.items() if k not in inputs}))
            except ParameterError as exc:
                raise CraneCosimError(f"component {part.name}: {exc}") from None
        n_out = [len(b.outputs) for b in self.blocks]
        out_start = np.concatenate([[0], np.cumsum(n_out)]).astype(int)
        self._out = [slice(int(a), int(b)) for a, b in zip(out_start[:-1], out_start[1:])]
        #: every block's outputs, in block order, as one vector (the plan's columns)
        self.y = np.concatenate([np.array([v.start for v in b.outputs], float) for b in self.blocks])
        # the plan's inputs are the connected ones in connection order, mapped
        # here to each block's own order, and gathered from ``y`` at once
        self._u, self._dst, self._src = [], [], []
        for part, routes, b in zip(plan.parts, plan.routes, self.blocks):
            names = b.input_names()
            order = np.array([names.index(v.name) for v in part.inputs], dtype=int)
            dst = [order[r.dst_index] for r in routes]
            src = [out_start[r.src] + r.src_index for r in routes]
            u = b.default_inputs().astype(float)
            for name, value in part.values.items():
                if name in names:
                    u[names.index(name)] = float(value)
            self._u.append(u)
            self._dst.append(np.concatenate(dst).astype(int) if dst else np.zeros(0, int))
            self._src.append(np.concatenate(src).astype(int) if src else np.zeros(0, int))
        # the outputs and, behind them, every block's default inputs, in one
        # vector: a block's inputs are one gather from it
        n_y = len(self.y)
        self._z = np.concatenate([self.y] + self._u)
        self.y = self._z[:n_y]
        self._take = []
        at = n_y
        for u, dst, src in zip(self._u, self._dst, self._src):
            take = np.arange(at, at + len(u))
            take[dst] = src
            self._take.append(take)
            at += len(u)
        sizes = [len(b.states) for b in self.blocks]
        self.n_states = int(sum(sizes))
        x_start = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
        #: each block's states: indices into the state vector, and the same as slices (views)
        self.slices = [np.arange(a, b) for a, b in zip(x_start[:-1], x_start[1:])]
        self._x = [slice(int(a), int(b)) for a, b in zip(x_start[:-1], x_start[1:])]
        self._calls = [b.direct_calls() for b in self.blocks]
        self._output_calls = [c[0] for c in self._calls]
        self.columns = [f"{n}.{v}" for n, b in zip(self.names, self.blocks) for v in b.output_names()]
        self.units = [v.unit for b in self.blocks for v in b.outputs]
        # a chain of direct feedthrough through every block, twice, and the
        # sweeps of a contracting algebraic loop (friction through a crane on
        # its base: about ten, down to round-off, from a poor start)
        self.max_passes = 2 * len(self.blocks) + 30
        # the outputs of each unit together, for their largest by one reduceat
        keys = list(dict.fromkeys(self.units))
        self._group_of = np.array([keys.index(u) for u in self.units], dtype=int)
        self._perm = np.argsort(self._group_of, kind="stable")
        self._group_start = np.flatnonzero(np.r_[True, np.diff(self._group_of[self._perm]) != 0])
        #: a flexible crane's loop with its base and friction, settled in one compiled call (or None)
        self._loop = crane_loop(self)

    @property
    def ys(self) -> list[np.ndarray]:
        """Each block's outputs (copies), in block order."""
        return [self.y[s].copy() for s in self._out]

    def initial_state(self) -> np.ndarray:
        return np.concatenate([b.initial_state() for b in self.blocks])

    def _inputs(self, i) -> np.ndarray:
        """Block ``i``'s inputs from the outputs now in ``y`` (a new array)."""
        return self._z.take(self._take[i])

    def outputs(self, t, x):
        """All outputs.  Direct feedthrough is resolved by sweeping the blocks
        in system order until the outputs stop changing, exactly or, in an
        algebraic loop (a joint's friction torque depends on its reaction,
        which depends on the friction), to round-off: a probe for the number
        of sweeps at one state can under-count, since a value that happens
        to equal its start value looks settled.  A block whose inputs are
        those it was last evaluated with in this call is not evaluated again."""
        t = float(t)
        x = np.ascontiguousarray(x, dtype=float)
        if self._loop is not None:  # the sweeps start from the loop settled
            self._loop.seed(t, x)
        y = self.y
        start = y.copy()
        # the inputs each block was evaluated with in this call, as bytes: the
        # same bytes, the same outputs (a comparison of values would take
        # 0.0 for -0.0, which a block may tell apart)
        last = [None] * len(self.blocks)
        earlier = None  # the outputs two sweeps back
        z, takes, outs = self._z, self._take, self._out
        blocks = list(zip(range(len(self.blocks)), self._output_calls, [x[s] for s in self._x]))
        for _ in range(self.max_passes):
            before = y.copy()
            for i, output, x_i in blocks:
                u = z.take(takes[i])
                key = u.tobytes()
                if key == last[i]:
                    continue
                try:
                    y[outs[i]] = output(t, x_i, u)
                except ValueError as exc:  # a block names what it cannot take
                    raise CraneCosimError(f"component {self.names[i]}: outputs at t = {t:g} s failed: "
                                          f"{exc}") from None
                last[i] = key
            # settled, or cycling between two values in the last bits (an
            # ill-conditioned solve, such as a flexible crane's, rounds so)
            if (np.array_equal(before, y) or self._settled(y - before, y)
                    or (earlier is not None and np.array_equal(earlier, y))):
                return y.copy()
            earlier = before
        # the next evaluation starts from the last settled outputs, not from
        # what diverged here
        self.y[:] = start
        raise _Unsettled(f"the outputs do not settle at t = {t:g} s: the connections form an algebraic loop")

    def _settled(self, change, y) -> bool:
        """Every output changed by round-off only: within 1e-10 of the
        largest output of its unit (a loop can cycle in the last bits; a
        flexible crane's ill-conditioned equations round to about 1e-12 of
        its outputs, and the integrator's own tolerance is 1e-9)."""
        change = np.abs(change)
        # no unit's largest output exceeds the largest of all: a change above
        # 1e-10 of that is unsettled without the reduction per unit
        if change.size and change.max() > 1e-10 * np.abs(y).max():
            return False
        scale = np.maximum.reduceat(np.abs(y[self._perm]), self._group_start)[self._group_of]
        return bool(np.all(change <= 1e-10 * scale))

    def derivatives(self, t, x):
        t = float(t)
        x = np.ascontiguousarray(x, dtype=float)
        if self._loop is not None:
            dx = self._loop.derivatives(t, x)
            if dx is not None:
                return dx
        try:
            self.outputs(t, x)
        except _Unsettled:
            # a trial state of the integrator far off the solution (a rate
            # of hundreds of rad/s in a stage of a step too long) can make
            # a loop diverge: not-a-number makes the integrator reject the
            # step and try a shorter one; at a state it keeps, recording
            # its outputs names the loop
            return np.full(len(x), np.nan)
        dx = np.empty(self.n_states)
        for i, (_, derivatives) in enumerate(self._calls):
            dx[self._x[i]] = derivatives(t, x[self._x[i]], self._inputs(i))
        return dx
