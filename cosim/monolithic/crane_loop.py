"""The loop of a flexible crane, its spring-supported base and its joints'
friction settled in one compiled call (``blocks/flexible_crane_loop_kernels.py``),
for the composite ODE of the monolithic run (:mod:`.composite`).

Swept block by block, that loop takes about eight sweeps of the three
blocks per evaluation of the right-hand side, most of the time of the
monolithic run; solved by its structure in machine code, it costs about
one evaluation of the crane.  The composite asks :func:`crane_loop` at its
construction; the loop is taken over where the system has one
:class:`~crane_cosim.blocks.flexible_crane.FlexibleCrane`, one
:class:`~crane_cosim.blocks.supported_base.SupportedBase` and one
:class:`~crane_cosim.blocks.joint_friction.JointFriction`, all compiled,
joined as the example ``examples/flexible_crane`` joins them (the base's
mount motion to the crane and the crane's ``I_A``, ``p_A`` back; the
friction's torques to the crane, each joint's rate and two components of
a reaction wrench of the crane to the friction), the crane's actuator
torques and its tip force from blocks that read none of the three's
outputs, and no other block reading them.  Elsewhere the composite sweeps, as it does where the
compiled call does not settle (far off the solution) or gives a value that
is not finite: there the sweeps decide, with the blocks' own fallbacks.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..blocks import jit
from ..blocks.compile_lock import compiling_alone, dispatchers_of
from ..blocks.compile_word import compile_with_word
from ..blocks.flexible_crane import FlexibleCrane
from ..blocks.interface import TIP_LOAD
from ..blocks.jit import load_kernels
from ..blocks.joint_friction import JointFriction
from ..blocks.supported_base import SupportedBase

#: the crane's wrench outputs the friction's normal forces may come from, in
#: the order of the compiled call's 24 values
WRENCHES = [f"{w}_{c}" for w in ("W_mount", "W_king", "W_boom", "W_jib")
            for c in ("nx", "ny", "nz", "fx", "fy", "fz")]
JOINTS = ("slew", "boom", "jib")
TIP_FORCE = [v.name for v in TIP_LOAD]


def _only(composite, name):
    found = [i for i, b in enumerate(composite.blocks) if type(b).__name__ == name]
    return found[0] if len(found) == 1 else None


def _source(composite, i, name):
    """The output slot of ``y`` that block ``i``'s input ``name`` is
    connected to, or ``None`` (a default)."""
    k = int(composite._take[i][composite.blocks[i].input_names().index(name)])
    return k if k < len(composite.y) else None


def _slot(composite, i, name):
    """The slot of ``y`` of block ``i``'s output ``name``."""
    return composite._out[i].start + composite.blocks[i].output_names().index(name)


def _topological(composite, others, group_slots):
    """``others`` (block indices) ordered so that each comes after the
    blocks it reads, or ``None`` where they read the loop's outputs or form
    a loop among themselves."""
    reads = {}
    for i in others:
        slots = {int(k) for k in composite._take[i] if k < len(composite.y)}
        if slots & group_slots:
            return None
        reads[i] = {j for j in others if j != i and slots & set(range(composite._out[j].start,
                                                                          composite._out[j].stop))}
    order = []
    while reads:
        ready = [i for i in reads if not reads[i] - set(order)]
        if not ready:
            return None
        order.append(ready[0])
        del reads[ready[0]]
    return order


def crane_loop(composite) -> CraneLoop | None:
    """The compiled loop for ``composite``, or ``None`` where it does not
    apply (module docstring)."""
    b, c, f = (_only(composite, n) for n in ("SupportedBase", "FlexibleCrane", "JointFriction"))
    if b is None or c is None or f is None:
        return None
    base, crane = composite.blocks[b], composite.blocks[c]
    if base.kernels is None or crane.kernels is None:
        return None
    # the base reads the crane's I_A, p_A; the crane the base's mount motion
    if any(_source(composite, b, name) != _slot(composite, c, name) for name in base.input_names()):
        return None
    if any(_source(composite, c, name) != _slot(composite, b, name) for name in crane.input_names()[:24]):
        return None
    n_src = []
    for j in JOINTS:
        if (_source(composite, c, f"tau_f_{j}") != _slot(composite, f, f"tau_f_{j}")
                or _source(composite, f, f"u_{j}") != _slot(composite, c, f"u_{j}")):
            return None
        for k in ("n1", "n2"):
            src = _source(composite, f, f"f_{j}_{k}")
            names = [composite._out[c].start + crane.output_names().index(w) for w in WRENCHES]
            if src not in names:
                return None
            n_src.append(names.index(src))
    group = {b, c, f}
    group_slots = {k for i in group for k in range(composite._out[i].start, composite._out[i].stop)}
    # the actuator torques and the tip force come from outside the loop
    if any(_source(composite, c, name) in group_slots for name in [f"tau_{j}" for j in JOINTS] + TIP_FORCE):
        return None
    others = _topological(composite, [i for i in range(len(composite.blocks)) if i not in group], group_slots)
    if others is None:
        return None
    kernels = load_kernels("flexible_crane_loop_kernels")
    if kernels is None:
        return None
    try:
        return CraneLoop(composite, (b, c, f), others, np.array(n_src, dtype=np.int64), kernels)
    except Exception as exc:  # numba's own errors have no common base
        _not_compiled(exc)
        return None


def _compiling_alone(kernels):
    """The loop's kernels compiled by one process at a time (``blocks/compile_lock.py``)."""
    return compiling_alone(dispatchers_of(kernels))


def _not_compiled(exc) -> None:
    """A loop numba cannot compile: an error under continuous integration,
    elsewhere a warning (the composite sweeps the blocks, as before)."""
    if jit.under_ci():
        raise exc
    warnings.warn(f"the flexible crane's loop with its base and friction: numba could not compile it ({exc}); "
                  f"the monolithic run sweeps the three blocks, several times slower")


def compile_loop() -> None:
    """Compile the loop's kernels (or load them from the cache): one call
    with the default blocks, with the types of a run's."""
    base, crane, friction = SupportedBase(), FlexibleCrane(), JointFriction()
    base.prepare()
    crane.prepare()
    kernels = load_kernels("flexible_crane_loop_kernels")
    if kernels is None or base.kernels is None or crane.kernels is None:
        return
    x = np.concatenate([base.initial_state(), crane.initial_state(), friction.initial_state()])
    nb, nc = len(base.states), len(crane.states)
    n_src = np.array([WRENCHES.index(w) for w in ("W_king_fx", "W_king_fy", "W_boom_fx", "W_boom_fy", "W_jib_fx",
                                                  "W_jib_fy")], dtype=np.int64)
    try:
        with _compiling_alone(kernels):
            kernels.settle(0.0, x[:nb], x[nb:nb + nc], x[nb + nc:], np.zeros(3), np.zeros(3), n_src, *base._kernel_args,
                           *crane._kernel_args[:8], crane._kernel_args[9], *friction._kernel_args, 38)
    except Exception as exc:  # numba's own errors have no common base
        _not_compiled(exc)


class CraneLoop:
    """The compiled loop of one composite: its derivatives at ``(t, x)``,
    and the loop's outputs for the sweeps to start from."""

    def __init__(self, composite, group, others, n_src, kernels):
        self.composite = composite
        b, c, f = group
        base, crane, friction = (composite.blocks[i] for i in group)
        self._settle = kernels.settle
        self._x = [composite._x[i] for i in group]
        # the crane's actuator torques, gathered from the outputs and defaults
        self._drive = np.array([composite._take[c][crane.input_names().index(f"tau_{j}")] for j in JOINTS])
        self._tip = np.array([composite._take[c][crane.input_names().index(name)] for name in TIP_FORCE])
        self._args = ((n_src,) + tuple(base._kernel_args) + tuple(crane._kernel_args[:8])
                      + (crane._kernel_args[9],) + tuple(friction._kernel_args) + (composite.max_passes,))
        self._others = [(i, composite._output_calls[i], composite._x[i]) for i in others]
        # the derivatives of the other blocks that have states
        self._others_dx = [(i, composite._calls[i][1], composite._x[i]) for i in others
                           if composite._x[i].stop > composite._x[i].start]
        # where the compiled call's derivatives go: one slice where the three
        # blocks' states lie one after the other, in this order
        sb, sc, sf = self._x
        self._dx_at = (slice(sb.start, sf.stop) if sb.stop == sc.start and sc.stop == sf.start
                       else np.r_[np.arange(sb.start, sb.stop), np.arange(sc.start, sc.stop),
                                  np.arange(sf.start, sf.stop)])
        # the crane's I_A and p_A (in the packed order of its outputs), the friction torques
        seeded = [n for n in crane.output_names() if n[:4] in ("I_A_", "p_A_")]
        self._seed_slots = (np.array([_slot(composite, c, n) for n in seeded]),
                            np.array([_slot(composite, f, f"tau_f_{j}") for j in JOINTS]))
        # numba compiles (or loads from its cache) at the first call: here,
        # not in the first step of the timed run
        with _compiling_alone(kernels):
            self.derivatives(0.0, composite.initial_state())

    def _solve(self, t, x):
        """The compiled call at ``(t, x)``, the other blocks' outputs first."""
        c = self.composite
        y = c.y
        for i, output, s in self._others:
            y[c._out[i]] = output(t, x[s], c._inputs(i))
        sb, sc, sf = self._x
        return self._settle(t, x[sb], x[sc], x[sf], c._z.take(self._drive), c._z.take(self._tip), *self._args)

    def derivatives(self, t, x) -> np.ndarray | None:
        """``dx/dt`` at ``(t, x)``, or ``None`` where the compiled loop does
        not settle or gives a value that is not finite."""
        try:
            dx_loop, _, _, _, status = self._solve(t, x)
        except ValueError:  # numba refuses a value: the sweeps decide
            return None
        if status:
            return None
        c = self.composite
        dx = np.empty(c.n_states)
        dx[self._dx_at] = dx_loop
        for i, derivatives, s in self._others_dx:
            dx[s] = derivatives(t, x[s], c._inputs(i))
        return dx

    def seed(self, t, x) -> None:
        """The loop's outputs at ``(t, x)`` (the crane's ``I_A``, ``p_A``, the
        friction torques) written to the composite's outputs, for its sweeps
        to start from; nothing where the compiled loop does not settle."""
        try:
            _, I_A, p_A, tau, status = self._solve(t, x)
        except ValueError:
            return
        if not status:
            y = self.composite.y
            y[self._seed_slots[0]] = np.concatenate([I_A, p_A])
            y[self._seed_slots[1]] = tau


#: the loop's kernel module: what the word before its compile calls it,
#: how long it takes from a cold cache beyond its blocks' own kernels (idle
#: to busy), and the models all of which a system needs for the loop
LOOP_KERNELS = ("flexible_crane_loop_kernels", "the flexible crane's loop with its base and friction",
                "25 s to 1 min", {"FlexibleCrane", "SupportedBase", "JointFriction"})


def loop_to_compile(models) -> list[str]:
    """The loop's kernel module, where the monolithic run of ``models``
    (block model names) needs it and the cache does not hold it yet."""
    name, _, _, all_of = LOOP_KERNELS
    return [name] if all_of <= set(models) and not jit.kernels_compiled(name) else []


def warm_up_loop(models, stream=None) -> list[str]:
    """Compile the loop's kernels where the monolithic run of ``models``
    needs them and the cache does not hold them, telling ``stream``
    (default: stderr); the kernel modules compiled."""
    todo = loop_to_compile(models)
    for name in todo:
        compile_with_word(LOOP_KERNELS[1], LOOP_KERNELS[2], name, compile_loop, stream)
    return todo
