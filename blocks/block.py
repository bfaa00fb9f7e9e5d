"""The one place a block declares its ports.

A block is a small dynamical system ``dx/dt = f(t, x, u)``, ``y = g(t, x, u)``
whose inputs ``u``, outputs ``y``, parameters and continuous states are
declared once, as class attributes, with units, start values and
descriptions.  The FMU adapter (``fmus/adapter.py``) and the in-process
monolithic runner (``cosim/monolithic/reference.py``) are both generated from this
declaration; nothing else lists a block's ports.
"""
from __future__ import annotations

import fnmatch
import math
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

__all__ = ["Variable", "Block", "ParameterError", "vector", "sym6_names",
           "sym6_pack", "sym6_unpack"]


class ParameterError(ValueError):
    """A parameter value a block cannot use; the message names the block and
    the parameter."""


#: the FMI types a block's variables may have (String: parameters only)
TYPES = ("Real", "Integer", "Boolean", "String")


@dataclass(frozen=True)
class Variable:
    """A declared port, parameter or state.

    ``name``: FMI variable name; ``unit``: one of :data:`blocks.units.UNITS`;
    ``start``: start value (the default of a parameter); ``description``:
    one line for the modelDescription and the docs; ``type``: ``"Real"``,
    ``"Integer"`` (a 32-bit whole number), ``"Boolean"`` or, for a parameter
    only, ``"String"`` (a choice by name, such as a friction model: a ``str``
    start and the unit ``""``, since an FMI String has no unit).  A block's
    arrays hold an Integer or Boolean port as a float (a whole number, or 0
    and 1), exact in float64; its FMU presents it with its type, of discrete
    variability, as FMI 2.0 requires of every type but Real; ``tunable``: a parameter whose change between two
    communication steps the block honours (gains, set-points, damping);
    the others (geometry, masses, initial values) are fixed once the model
    is initialized; ``role``: what the port is for, where a host looks for
    a port by purpose rather than by name (``interface.wrench.fx``: a
    component of the wrench an interface passes; the FMU carries it in a
    vendor annotation, and the crane-vessel coupling and the studies find
    ports by it)."""

    name: str
    unit: str
    start: float | bool | str
    description: str
    type: str = "Real"
    tunable: bool = False
    role: str | None = None

    def __post_init__(self):
        # a declaration the FMU could not carry is refused where it is written
        if self.type not in TYPES:
            raise ValueError(f"variable {self.name}: type {self.type!r} is not one of {', '.join(TYPES)}")
        if self.type == "String" and (not isinstance(self.start, str) or self.unit):
            raise ValueError(f"String variable {self.name} needs a str start value and the unit \"\" "
                             f"(an FMI String has no unit), not start {self.start!r} and unit {self.unit!r}")
        if self.type == "Integer" and not (isinstance(self.start, (int, float)) and not isinstance(self.start, bool)
                                           and float(self.start).is_integer() and -2**31 <= self.start < 2**31):
            raise ValueError(f"Integer variable {self.name} needs a whole start value from -2**31 to 2**31 - 1, "
                             f"not {self.start!r}")


def vector(prefix: str, unit: str, description: str, components="xyz", start=None):
    """Variables ``prefix_x, prefix_y, ...``; ``description`` may hold ``{c}``
    for the component name."""
    start = [0.0] * len(components) if start is None else list(start)
    return tuple(Variable(f"{prefix}_{c}", unit, s, description.format(c=c))
                 for c, s in zip(components, start))


WRENCH_COMPONENTS = ("nx", "ny", "nz", "fx", "fy", "fz")
_SYM6 = [(i, j) for i in range(6) for j in range(i, 6)]
_TRIU6 = np.triu_indices(6)


def sym6_names(prefix: str) -> list[str]:
    """Names of the 21 upper-triangle entries ``prefix_ij`` (i <= j, 1-based) of a
    symmetric 6x6 matrix, row by row."""
    return [f"{prefix}_{i + 1}{j + 1}" for i, j in _SYM6]


def sym6_pack(A: np.ndarray) -> np.ndarray:
    """Upper triangle of a symmetric 6x6 matrix, in :func:`sym6_names` order."""
    return A[_TRIU6]


def sym6_unpack(v) -> np.ndarray:
    """Inverse of :func:`sym6_pack`."""
    A = np.zeros((6, 6))
    A[_TRIU6] = v
    A.T[_TRIU6] = v
    return A


class Block:
    """Base class of every block.

    Subclasses set ``model_name``, ``description``, ``reference``,
    ``validation``, ``parameters``, ``inputs``, ``outputs`` and ``states``
    (tuples of :class:`Variable`), implement
    :meth:`setup` (parameter checks and derived constants), :meth:`initial_state`,
    :meth:`derivatives` and :meth:`output`.  ``max_step`` [s] bounds the
    internal integration step of :meth:`advance`; ``stiff`` says the
    block's own dynamics are stiff (the monolithic reference then integrates
    with an implicit method), ``oscillatory`` that they ring, undamped, far
    faster than the system moves (the springs of a flexible link): an
    explicit method must follow such modes anyway, and an implicit one's
    Jacobians then cost more than they save, so the reference integrates
    explicitly even with a stiff block beside it.

    ``feedthrough`` declares which inputs each output depends on directly
    (at the same instant, without going through the state): pairs
    ``(output pattern, input groups)``, shell-style patterns, the first
    pair whose output pattern matches an output wins; an output no pair
    matches depends on every input.  An input group is a pattern or a tuple
    of patterns (say, all of a crane's actuators: which of them moves an
    output may depend on the geometry, that one of them does not).  Hosts read it from the FMU's
    ``ModelStructure`` (:meth:`output_dependencies`); a test holds every
    block's declaration to finite differences of :meth:`output`.

    ``default_stop_time`` and ``default_step`` [s] are the FMU's
    ``DefaultExperiment``: the run the block is checked at.

    ``can_get_and_set_state`` says that the block's whole state is the one
    the FMU saves and restores (``canGetAndSetFMUstate``), so that a master
    may roll it back and step it again; ``networked`` that the block's
    outputs come from another process (a UDP bridge), which neither rolls
    back nor runs inside the monolithic reference's integrator.  Such a
    block releases what :meth:`prepare` took in :meth:`close`.
    """

    model_name: ClassVar[str]
    description: ClassVar[str]
    #: the publication the model follows, by author(s) and year with the
    #: equations or sections it implements (or what it follows instead)
    reference: ClassVar[str]
    #: how the tests validate the model: physical and numerical facts,
    #: each with the tolerance it is held to
    validation: ClassVar[str]
    #: the values, other than their starts, that the reference experiment a
    #: portable FMU carries sets (inputs held constant, parameters): what
    #: makes its outputs move over the DefaultExperiment where every start
    #: value would leave them at rest; each a Real, in the variable's unit
    reference_experiment: ClassVar[dict] = {}
    parameters: ClassVar[tuple] = ()
    inputs: ClassVar[tuple] = ()
    outputs: ClassVar[tuple] = ()
    states: ClassVar[tuple] = ()
    max_step: ClassVar[float] = 1e-3
    method: ClassVar[str] = "rk4"
    stiff: ClassVar[bool] = False
    oscillatory: ClassVar[bool] = False
    feedthrough: ClassVar[tuple] = ()
    default_stop_time: ClassVar[float] = 20.0
    default_step: ClassVar[float] = 1e-3
    can_get_and_set_state: ClassVar[bool] = True
    networked: ClassVar[bool] = False
    #: what the 3-D view draws of it: ``"crane"`` (:meth:`skeleton`, in the
    #: mount frame), ``"hull"`` or ``"supports"`` (:meth:`outline`, in its
    #: own coordinates, the word its legend takes), ``"load"`` (its recorded
    #: ``payload_p_*`` in Frame 0, on a wire from the crane's recorded tip),
    #: or None (nothing: a controller, a friction, a cylinder's hydraulics,
    #: a winch); ``calm_water``: the
    #: view draws the water plane z = 0 of its outline beside it
    draws: ClassVar[str | None] = None
    calm_water: ClassVar[bool] = False
    #: the paper whose symbols name its variables in plots' legends
    #: (``cosim/reports/legends.py``): "Cibicik & Egeland 2018", "Cibicik &
    #: Egeland 2019" or "Jarzębowska et al. 2018"; None: none
    symbols_of: ClassVar[str | None] = None

    def __init__(self, **params):
        known = {p.name: p for p in self.parameters}
        values = {name: p.start for name, p in known.items()}
        for name, value in params.items():
            if name not in known:
                raise ParameterError(f"{self.model_name} has no parameter {name!r}")
            values[name] = self._value_of(known[name], value)
        for name, value in values.items():
            if known[name].type == "Real" and not math.isfinite(value):
                raise ParameterError(f"{self.model_name} parameter {name} = {value} is not a finite number")
        self.values = values
        self.p = SimpleNamespace(**values)
        self.setup()

    def _value_of(self, p: Variable, value):
        """``value`` as the parameter ``p`` holds it: a str stays a str (a
        String parameter takes nothing else, a Real no str), a Boolean is a
        bool, an Integer an int (a whole number), a Real a float."""
        if p.type == "String":
            if not isinstance(value, str):
                raise ParameterError(f"{self.model_name} parameter {p.name} = {value!r} is invalid: it is a "
                                     f"String parameter and takes a text")
            return value
        if isinstance(value, str):
            need = {"Boolean": "true or false", "Integer": "a whole number"}.get(p.type, "a number")
            raise ParameterError(f"{self.model_name} parameter {p.name} = {value!r} is invalid: it must be {need}")
        if p.type == "Integer":
            if not (math.isfinite(value) and float(value).is_integer() and -2**31 <= value < 2**31):
                raise ParameterError(f"{self.model_name} parameter {p.name} = {value!r} is invalid: it must be a "
                                     f"whole number from -2**31 to 2**31 - 1")
            return int(value)
        return bool(value) if p.type == "Boolean" else float(value)

    # -- declaration helpers -------------------------------------------------
    @classmethod
    def input_names(cls) -> list[str]:
        return [v.name for v in cls.inputs]

    @classmethod
    def output_names(cls) -> list[str]:
        return [v.name for v in cls.outputs]

    @classmethod
    def default_inputs(cls) -> np.ndarray:
        return np.array([v.start for v in cls.inputs], dtype=float)

    @classmethod
    def output_dependencies(cls) -> dict[str, list[str]]:
        """For every output, the inputs it depends on directly, in input
        order (from :attr:`feedthrough`).  Raises ``ValueError`` for a
        pattern that matches no port, a declaration that cannot be meant."""
        inputs = cls.input_names()
        rules = []
        for out_pattern, groups in cls.feedthrough:
            if not any(fnmatch.fnmatchcase(o, out_pattern) for o in cls.output_names()):
                raise ValueError(f"{cls.model_name}: feedthrough pattern {out_pattern!r} matches no output")
            patterns = [p for g in groups for p in ((g,) if isinstance(g, str) else g)]
            for p in patterns:
                if not any(fnmatch.fnmatchcase(i, p) for i in inputs):
                    raise ValueError(f"{cls.model_name}: feedthrough pattern {p!r} matches no input")
            rules.append((out_pattern, patterns))
        deps = {}
        for name in cls.output_names():
            rule = next((ps for pat, ps in rules if fnmatch.fnmatchcase(name, pat)), None)
            deps[name] = list(inputs) if rule is None else [
                i for i in inputs if any(fnmatch.fnmatchcase(i, p) for p in rule)]
        return deps

    def require_positive(self, *names: str, allow_zero: bool = False) -> None:
        """Raise :class:`ParameterError` unless each parameter is > 0 (>= 0)."""
        units = {p.name: p.unit for p in self.parameters}
        for name in names:
            value = self.values[name]
            if value < 0 or (value == 0 and not allow_zero):
                need = "zero or positive" if allow_zero else "positive"
                raise ParameterError(
                    f"{self.model_name} parameter {name} = {value:g} {units[name]} "
                    f"is invalid: it must be {need}")

    def require_one_of(self, name: str, allowed) -> None:
        """Raise :class:`ParameterError` unless the parameter (a String
        parameter choosing a model by name) is one of ``allowed``."""
        value = self.values[name]
        if value not in allowed:
            raise ParameterError(f"{self.model_name} parameter {name} = {value!r} is invalid: it must be one "
                                 f"of {', '.join(repr(a) for a in allowed)}")

    @classmethod
    def check_parameters(cls, **params) -> None:
        """Raise :class:`ParameterError` for parameters the block cannot take
        (the checks of :meth:`setup`, without running anything)."""
        cls(**params)

    # -- the model -------------------------------------------------------------
    def setup(self) -> None:
        """Check parameters and precompute constants (called by ``__init__``)."""

    def prepare(self) -> None:
        """Make ready what running needs and costs time, such as compiled
        code: the FMU calls it at initialization (default: nothing)."""

    def close(self) -> None:
        """Release what :meth:`prepare` took, such as a socket: the FMU calls
        it at ``fmi2Terminate`` and when its instance is freed, and before
        remaking the block (default: nothing).  Called more than once, it
        does nothing more."""

    def initial_state(self) -> np.ndarray:
        return np.zeros(len(self.states))

    def derivatives(self, t: float, x: np.ndarray, u: np.ndarray) -> np.ndarray:
        return np.zeros(0)

    def skeleton(self, values, pose) -> list[tuple]:
        """A crane's parts at the frames of a run, each ``(name, kind,
        points, ground)`` (points ``(frames, k, 3)`` [m] in the mount frame,
        or in Frame 0 where ``ground``), from ``values(name)``, its
        recorded variable at the frames; ``pose``: the mount's ``(R_1^0,
        position in Frame 0)`` at the frames.  Only where ``draws`` is
        ``"crane"``."""
        raise NotImplementedError(f"{self.model_name} draws no skeleton")

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """``(outline, mount)``: a hull's or a base's outline (k, 3) [m] in
        its own coordinates, NaN rows between pieces, and the mount point
        there.  Only where ``draws`` is ``"hull"`` or ``"supports"``."""
        raise NotImplementedError(f"{self.model_name} draws no outline")

    def direct_calls(self):
        """``(output, derivatives)``, each ``f(t, x, u)`` with ``t`` a float
        and ``x``, ``u`` contiguous float arrays: the fastest calls that give
        :meth:`output` and :meth:`derivatives` to the bit, which the
        monolithic run makes thousands of times a simulated second; here
        those methods themselves."""
        return self.output, self.derivatives

    def output(self, t: float, x: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Output vector, in the order of ``outputs``."""
        raise NotImplementedError

    def advance(self, t: float, x: np.ndarray, u: np.ndarray, h: float) -> np.ndarray:
        """State at ``t + h`` with the inputs held at ``u`` over the step, in
        sub-steps no longer than ``max_step``, by ``method``:

        * ``"rk4"``: classic Runge-Kutta, four evaluations a sub-step;
        * ``"heun"``: explicit trapezoidal rule, second order, two evaluations;
        * ``"symplectic-euler"``: for states ``x = [q; v]`` with ``dq/dt = v``,
          ``v += h dv/dt(q, v)`` then ``q += h v``; first order, one evaluation,
          and symplectic, so an undamped oscillator keeps its energy (no drift).

        The multibody blocks use ``"rk4"``: over the 20 s of an example at
        a 1 ms macro step their outputs change by less than 1e-7 of their
        peaks when the internal step is halved (8.5e-8 with the light
        vessel, 8e-12 for the knuckle boom crane), so that in a
        co-simulation the error left is the coupling's
        (``docs/coupling-error.md``).  Symplectic Euler costs half as much
        but its phase error over the undamped roll of a light vessel grew
        to several percent of the interface wrench's peak over 20 s."""
        return self._integrate(t, x, u, None, h)

    def advance_along(self, t: float, x: np.ndarray, u: np.ndarray, du: np.ndarray, h: float) -> np.ndarray:
        """State at ``t + h`` with the inputs following, over the step, the
        polynomial ``u + s du[0] + s**2/2 du[1]`` in the time ``s`` [s] since
        ``t``: ``du[0]`` and ``du[1]`` are the inputs' first and second time
        derivatives at ``t``, in the inputs' units per s and per s**2 (what
        a master sets through ``fmi2SetRealInputDerivatives``, FMI 2.0
        section 4.2.1).

        :meth:`advance`'s integration evaluates the polynomial at each
        stage's time.  A block that steps its own way (its own
        :meth:`advance`: the exact friction step, a cylinder's stiff
        integration) gets the inputs' value at the middle of the step, held:
        the midpoint rule, second order in ``h``."""
        if type(self).advance is not Block.advance:
            return self.advance(t, x, self.inputs_at_middle(u, du, h), h)
        return self._integrate(t, x, u, du, h)

    def inputs_at_middle(self, u: np.ndarray, du: np.ndarray, h: float) -> np.ndarray:
        """The inputs at ``t + h/2`` on the polynomial of :meth:`advance_along`."""
        return u + h / 2 * du[0] + h * h / 8 * du[1]

    def inputs_after_step(self, u: np.ndarray, du: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray]:
        """The inputs and their derivatives at ``t + h`` on the polynomial of
        :meth:`advance_along` (the same units; new arrays here, ``u`` and
        ``du`` themselves changed in place by a compiled block)."""
        return u + h * du[0] + (h * h / 2) * du[1], np.array([du[0] + h * du[1], du[1]])

    def _integrate(self, t, x, u, du, h):
        """:meth:`advance` (``du`` None: inputs held) and :meth:`advance_along`."""
        if x.size == 0:
            return x
        n = max(1, math.ceil(h / self.max_step - 1e-9))
        dt = h / n
        f = self.derivatives
        # the inputs at the sub-step's start, middle and end
        u0 = um = u1 = u
        for i in range(n):
            ti = t + i * dt
            if du is not None:
                s = i * dt
                u0, um, u1 = (u + r * du[0] + (r * r / 2) * du[1] for r in (s, s + dt / 2, s + dt))
            k1 = f(ti, x, u0)
            if self.method == "symplectic-euler":
                # positions with the new velocities: x = [q; v], dq/dt = v
                m = x.size // 2
                v = x[m:] + dt * k1[m:]
                x = np.concatenate([x[:m] + dt * v, v])
                continue
            if self.method == "heun":
                k2 = f(ti + dt, x + dt * k1, u1)
                x = x + dt / 2 * (k1 + k2)
                continue
            k2 = f(ti + dt / 2, x + dt / 2 * k1, um)
            k3 = f(ti + dt / 2, x + dt / 2 * k2, um)
            k4 = f(ti + dt, x + dt * k3, u1)
            x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return x
