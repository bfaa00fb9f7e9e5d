"""Friction in a crane's joints, as a block of its own: the Dahl and LuGre
laws of Jarzębowska, Urbaś & Augustynek (2018) (module ``friction``) in
every revolute joint of a crane, and in the seals of its cylinders.

One block holds all of a crane's joints, so that friction costs one FMU
(one ``doStep``) per communication step, whatever the number of joints.
Its ports are fixed when the FMU is built, so there is one model per joint
layout: :class:`JointFriction` for the three revolute joints ``slew``,
``boom``, ``jib`` of either crane (Cibicik & Egeland 2018 and 2019), with
defaults for the crane of Cibicik & Egeland (2018), and
:class:`KnuckleBoomFriction` for the knuckle boom crane of Cibicik &
Egeland (2019) with hydraulic cylinders: its three revolute joints and the
seals of its two cylinders, ``boom_cyl`` and ``jib_cyl``.

Every joint chooses its law with a parameter ``model_<joint>``: ``none``,
``dahl`` or ``lugre``; the other parameters are Table 1 of Jarzębowska et
al. (2018) (the same for either crane: the paper's joints 1-3 are the
column, the first and the second link, our ``slew``, ``boom``, ``jib``).

Ports of a revolute joint ``j`` (sign convention: positive along the joint
coordinate q_j; the friction opposes sliding):

* inputs ``u_j`` [rad/s], the joint rate, and ``f_j_n1``, ``f_j_n2`` [N],
  two orthogonal components of the joint's reaction force normal to its
  axis (any pair of directions normal to the axis: only
  ``f_n = sqrt(f_n1^2 + f_n2^2)`` is used, eq. 13);
* outputs ``tau_f_j`` [N m], the friction torque on the joint's outer body
  along q_j, ``-mu f_n d / 2`` (the paper's ``t_f`` of eq. 13 with the sign
  of the generalized force: it enters the equations of motion as
  ``-f_fr``); ``mu_j``, the friction coefficient of eq. (15), positive
  along the sliding; ``z_j`` [rad], the bristle deflection; ``P_f_j`` [W]
  ``= -tau_f_j u_j``, the power the friction takes out of the joint; and
  ``E_f_j`` [J], its integral since the start.

A prismatic joint (a cylinder's seals) has the rate ``u_j`` [m/s] as its
only input (the seal's own preload sets the friction, not the load), and
outputs ``F_f_j`` [N] (the friction force on the piston, positive
extending), ``z_j`` [m], ``P_f_j`` and ``E_f_j``.  ``P_f`` and ``E_f`` sum
all joints.

Over any closed cycle the bristles return what they stored, so ``E_f`` is
the energy dissipated; within a cycle ``P_f`` may be briefly negative (a
bristle springing back).

The states, bristle deflections and dissipated energies, are stepped
exactly for the rates and forces held over the step (``friction.advance``),
so the block is stable at any communication step.

Assumptions the paper leaves open (written here, where they are chosen):

* pin diameters ``d_j``: not in the paper.  Crane of Cibicik & Egeland
  (2018) (2 m links, 30 kg bodies): a 0.2 m slewing ring, 30 mm boom and
  jib pins.  Knuckle boom crane of Cibicik & Egeland (2019) (36 t): a 1.8 m
  slewing ring, a 160 mm boom pin, a 120 mm jib pin (double-shear pins for
  reactions near 1 MN and 0.3 MN).
* the slewing joint is a pin like the others (eq. 13 with its radial
  force): a real slewing ring's friction depends also on its axial load
  and tilting moment, which this planar joint model (the paper's Fig. 5)
  does not see, so it understates a slewing ring's friction.
* seals (not in the paper): Coulomb force about 2 N per mm of seal
  circumference (piston and rod seals) and a static force 1.5 times it;
  the boom cylinder (320/200 mm) 4 kN Coulomb, 6 kN static, the jib
  cylinder (180/100 mm) 2 kN and 3 kN; Stribeck velocity 10 mm/s; bristle
  stiffness 5e7 and 3e7 N/m (a pre-sliding travel of about 0.1 mm);
  bristle damping 1e4 and 5e3 N s/m; viscous 2e4 and 1e4 N s/m.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .block import ParameterError, Variable
from .compiled_block import CompiledBlock, floats, sum_finite
from .friction import MODELS, Law, advance, bristle_rate, level

_P = Variable

#: Table 1 of Jarzębowska, Urbaś & Augustynek (2018), per joint i = 1, 2, 3
#: (slew, boom, jib): static and kinetic coefficients, bristle stiffness
#: [1/rad], damping [s/rad], viscous coefficient [s/rad], Dahl's exponent,
#: Stribeck velocity [rad/s]
TABLE_1 = {
    "slew": {"mu_s": 0.2, "mu_k": 0.1, "sigma0": 1.0, "sigma1": 0.1, "sigma2": 0.0, "gamma": 1.0, "v_s": 0.0175},
    "boom": {"mu_s": 0.2, "mu_k": 0.1, "sigma0": 5.0, "sigma1": 0.022, "sigma2": 0.0, "gamma": 1.0, "v_s": 0.0175},
    "jib": {"mu_s": 0.2, "mu_k": 0.1, "sigma0": 5.0, "sigma1": 0.022, "sigma2": 0.0, "gamma": 1.0, "v_s": 0.0175},
}


@dataclass(frozen=True)
class Revolute:
    """A revolute joint: its name, what it is, and its pin diameter [m]."""
    name: str
    what: str
    d: float


@dataclass(frozen=True)
class Seal:
    """A cylinder's seals (a prismatic joint): static and Coulomb forces [N],
    bristle stiffness [N/m], bristle damping and viscous coefficients
    [N s/m], Stribeck velocity [m/s]."""
    name: str
    what: str
    F_s: float
    F_c: float
    sigma0: float
    sigma1: float
    sigma2: float
    v_s: float = 0.01


def _revolute_ports(j: Revolute):
    t = TABLE_1[j.name]
    n = j.name
    src = "Table 1 of Jarzębowska et al. 2018"
    params = (
        _P(f"model_{n}", "", "lugre", f"Friction law in the {j.what}: none, dahl or lugre", "String"),
        _P(f"d_{n}", "m", j.d, f"Pin diameter d of the {j.what} (eq. 13; not in the paper, chosen)"),
        _P(f"mu_s_{n}", "1", t["mu_s"], f"Static friction coefficient mu_s of the {j.what} ({src})", tunable=True),
        _P(f"mu_k_{n}", "1", t["mu_k"], f"Kinetic friction coefficient mu_k of the {j.what} ({src})", tunable=True),
        _P(f"sigma0_{n}", "1/rad", t["sigma0"], f"Bristle stiffness sigma0 of the {j.what} ({src})", tunable=True),
        _P(f"sigma1_{n}", "s/rad", t["sigma1"], f"Bristle damping sigma1 of the {j.what}, LuGre ({src})",
           tunable=True),
        _P(f"sigma2_{n}", "s/rad", t["sigma2"], f"Viscous coefficient sigma2 of the {j.what}, LuGre ({src})",
           tunable=True),
        _P(f"gamma_{n}", "1", t["gamma"], f"Shape exponent gamma of Dahl's law in the {j.what}, 1..2 ({src})",
           tunable=True),
        _P(f"v_s_{n}", "rad/s", t["v_s"], f"Stribeck velocity of the {j.what}, LuGre ({src})", tunable=True),
    )
    inputs = (_P(f"u_{n}", "rad/s", 0.0, f"Rate of the {j.what}"),
              _P(f"f_{n}_n1", "N", 0.0, f"Reaction force in the {j.what}, a component normal to its axis"),
              _P(f"f_{n}_n2", "N", 0.0, f"Reaction force in the {j.what}, the other component normal to its axis"))
    outputs = (_P(f"tau_f_{n}", "N.m", 0.0, f"Friction torque in the {j.what} on its outer body, along the "
                                             f"joint coordinate (-mu f_n d/2, eq. 13)"),
               _P(f"mu_{n}", "1", 0.0, f"Friction coefficient of the {j.what}, along the sliding (eq. 15)"),
               _P(f"z_{n}", "rad", 0.0, f"Bristle deflection of the {j.what} (eq. 14)"),
               _P(f"P_f_{n}", "W", 0.0, f"Power the friction takes out of the {j.what}"),
               _P(f"E_f_{n}", "J", 0.0, f"Energy the friction has taken out of the {j.what} since the start"))
    states = (_P(f"z_{n}", "rad", 0.0, f"bristle deflection, {j.what}"),
              _P(f"E_f_{n}", "J", 0.0, f"dissipated energy, {j.what}"))
    feedthrough = ((f"tau_f_{n}", (f"u_{n}", f"f_{n}_n*")), (f"mu_{n}", (f"u_{n}",)),
                   (f"P_f_{n}", (f"u_{n}", f"f_{n}_n*")))
    return params, inputs, outputs, states, feedthrough


def _seal_ports(j: Seal):
    n = j.name
    params = (
        _P(f"model_{n}", "", "lugre", f"Friction law in the {j.what}: none, dahl or lugre", "String"),
        _P(f"F_s_{n}", "N", j.F_s, f"Static (breakaway) friction force of the {j.what}", tunable=True),
        _P(f"F_c_{n}", "N", j.F_c, f"Coulomb (kinetic) friction force of the {j.what}", tunable=True),
        _P(f"sigma0_{n}", "N/m", j.sigma0, f"Bristle stiffness of the {j.what}", tunable=True),
        _P(f"sigma1_{n}", "N.s/m", j.sigma1, f"Bristle damping of the {j.what}, LuGre", tunable=True),
        _P(f"sigma2_{n}", "N.s/m", j.sigma2, f"Viscous friction coefficient of the {j.what}, LuGre", tunable=True),
        _P(f"gamma_{n}", "1", 1.0, f"Shape exponent gamma of Dahl's law in the {j.what}, 1..2", tunable=True),
        _P(f"v_s_{n}", "m/s", j.v_s, f"Stribeck velocity of the {j.what}, LuGre", tunable=True),
    )
    inputs = (_P(f"u_{n}", "m/s", 0.0, f"Extension rate of the {j.what.replace(' seals', '')}"),)
    outputs = (_P(f"F_f_{n}", "N", 0.0, f"Friction force of the {j.what} on the piston, positive extending"),
               _P(f"z_{n}", "m", 0.0, f"Bristle deflection of the {j.what} (eq. 14)"),
               _P(f"P_f_{n}", "W", 0.0, f"Power the friction takes out of the {j.what}"),
               _P(f"E_f_{n}", "J", 0.0, f"Energy the friction has taken out of the {j.what} since the start"))
    states = (_P(f"z_{n}", "m", 0.0, f"bristle deflection, {j.what}"),
              _P(f"E_f_{n}", "J", 0.0, f"dissipated energy, {j.what}"))
    feedthrough = ((f"F_f_{n}", (f"u_{n}",)), (f"P_f_{n}", (f"u_{n}",)))
    return params, inputs, outputs, states, feedthrough


def _declare(cls) -> None:
    """The ports of a friction block from its ``joints``, declared once."""
    parts = [_revolute_ports(j) if isinstance(j, Revolute) else _seal_ports(j) for j in cls.joints]
    cls.parameters = tuple(p for part in parts for p in part[0])
    cls.inputs = tuple(p for part in parts for p in part[1])
    cls.outputs = tuple(p for part in parts for p in part[2]) + (
        _P("P_f", "W", 0.0, "Power the friction takes out of all joints"),
        _P("E_f", "J", 0.0, "Energy the friction has taken out of all joints since the start"))
    cls.states = tuple(p for part in parts for p in part[3])
    cls.feedthrough = tuple(r for part in parts for r in part[4]) + (("z_*", ()), ("E_f*", ()))


class JointFriction(CompiledBlock):
    """Dahl or LuGre friction (Jarzębowska, Urbaś & Augustynek 2018) in the
    slewing, boom and jib joints of a crane; defaults for the crane of
    Cibicik & Egeland (2018)."""
    model_name = "JointFriction"
    description = ("Dahl or LuGre friction (Jarzebowska, Urbas & Augustynek 2018) in a crane's slewing, boom "
                   "and jib joints: joint rates and reaction forces in, friction torques out.")
    reference = ("The Dahl and LuGre laws of Jarzębowska, Urbaś & Augustynek (2018), eqs. (13)-(15) and Table "
                 "1, in the slewing, boom and jib joints: friction torque mu f_n d / 2 from the joint's radial "
                 "reaction; defaults for the crane of Cibicik & Egeland (2018).")
    validation = ("A slewing crane coasting under LuGre friction stops at the hand-calculated time and angle "
                  "(to 4e-4 and 1.5e-5); with the crane's own reactions driving LuGre in all three joints, T + "
                  "V changes by the actuators' work less the dissipated E_f to 1e-11 of the energy scale; the "
                  "exact bristle step equals DOP853 to 1e-10 of the static level.")
    # the joints turning and loaded radially, so that friction acts
    reference_experiment = {"u_slew": 0.05, "u_boom": -0.02, "u_jib": 0.03, "f_slew_n1": 1e4, "f_boom_n1": 2e4,
                            "f_jib_n1": 8e3}
    joints = (Revolute("slew", "slewing joint", 0.2), Revolute("boom", "boom joint", 0.03),
              Revolute("jib", "jib joint", 0.03))
    default_stop_time = 20.0
    # a sliding bristle relaxes in g(v) / (sigma0 |v|), a tenth of a
    # millisecond at Table 1's values; at stick it is a spring of stiffness
    # sigma0 f_n d / 2 on the joint: the monolithic reference integrates such
    # a system with Radau, an implicit method (docs/benchmarks.md compares it
    # with DOP853 on the crane on the vessel)
    stiff = True
    #: the compiled twin of the outputs, rates and exact step, the same bits
    #: as the numpy code below, its reference
    kernel_module = "joint_friction_kernels"
    compile_name = "the joints' friction"
    numpy_slowdown = "its outputs and steps about eight times slower"

    def setup(self):
        v = self.values
        self.laws = []
        self._revolute = []
        for j in self.joints:
            n = j.name
            self.require_one_of(f"model_{n}", MODELS)
            model = v[f"model_{n}"]
            revolute = isinstance(j, Revolute)
            s, k = (f"mu_s_{n}", f"mu_k_{n}") if revolute else (f"F_s_{n}", f"F_c_{n}")
            self.require_positive(s, k, f"sigma0_{n}", f"v_s_{n}")
            self.require_positive(f"sigma1_{n}", f"sigma2_{n}", allow_zero=True)
            if revolute:
                self.require_positive(f"d_{n}")
            if v[k] > v[s]:
                what = "kinetic coefficient" if revolute else "Coulomb force"
                raise ParameterError(f"{self.model_name} parameter {k} = {v[k]:g} is invalid: the {what} must "
                                     f"not exceed the static one, {s} = {v[s]:g}")
            if not 1.0 <= v[f"gamma_{n}"] <= 2.0:
                raise ParameterError(f"{self.model_name} parameter gamma_{n} = {v[f'gamma_{n}']:g} is invalid: "
                                     f"Dahl's shape exponent must be between 1 and 2 (eq. 14)")
            self.laws.append(Law(model, v[s], v[k], v[f"sigma0_{n}"], v[f"sigma1_{n}"], v[f"sigma2_{n}"],
                                 v[f"gamma_{n}"], v[f"v_s_{n}"]))
            self._revolute.append(revolute)
        # per joint: its first input, and the lever d/2 turning a level into
        # a torque (1 for a seal: its level is the force)
        self._first_input = np.cumsum([0] + [3 if r else 1 for r in self._revolute])[:-1]
        self._half_d = [v[f"d_{j.name}"] / 2 if r else 1.0 for j, r in zip(self.joints, self._revolute)]
        #: the arguments after the state and inputs of the kernels: per joint
        #: its law [model, L_s, L_k, sigma0, sigma1, sigma2, gamma, v_S],
        #: whether it is revolute, its first input and its lever
        self._kernel_args = (
            np.array([[MODELS.index(w.model), w.L_s, w.L_k, w.sigma0, w.sigma1, w.sigma2, w.gamma, w.v_S]
                      for w in self.laws], dtype=float),
            np.array(self._revolute, dtype=np.int64), np.array(self._first_input, dtype=np.int64),
            np.array(self._half_d, dtype=float))

    def _kernel_calls(self):
        """The kernels called directly (they take no time argument:
        ``outputs(x, u, *args)``, ``rates(x, u, *args)``), compiled or loaded
        here rather than in the first step of a run; the block's own method
        where the result is not finite."""
        outputs, derivatives, args = self.kernels.outputs, self.kernels.rates, self._kernel_args
        x0, u0 = self.initial_state(), self.default_inputs().astype(float)
        outputs(x0, u0, *args)
        derivatives(x0, u0, *args)

        def output(t, x, u):
            y = outputs(x, u, *args)
            return y if sum_finite(y) else self.output(t, x, u)

        def rates(t, x, u):
            dx = derivatives(x, u, *args)
            return dx if sum_finite(dx) else self.derivatives(t, x, u)

        return output, rates

    def _warm_up(self):
        x0, u0 = floats(self.initial_state()), floats(self.default_inputs())
        self._compiled_call("outputs", x0, u0)
        self._compiled_call("rates", x0, u0)
        self._compiled_call("advance", x0, u0, self.max_step)

    def _load(self, i: int, u: np.ndarray) -> tuple[float, float]:
        """Joint ``i``'s rate and the factor turning its level into a torque or
        force: ``f_n d / 2`` (revolute, eq. 13) or 1 (seal)."""
        k = self._first_input[i]
        if self._revolute[i]:
            return float(u[k]), math.hypot(u[k + 1], u[k + 2]) * self._half_d[i]
        return float(u[k]), 1.0

    def derivatives(self, t, x, u):
        dx = self._compiled_call("rates", floats(x), floats(u))
        return dx if dx is not None else self._derivatives(x, u)

    def advance(self, t, x, u, h):
        """The states after ``h`` [s] at the inputs held: each joint's
        bristle and work exactly (``friction.advance``)."""
        x1 = self._compiled_call("advance", floats(x), floats(u), float(h))
        return x1 if x1 is not None else self._advance(x, u, h)

    def output(self, t, x, u):
        y = self._compiled_call("outputs", floats(x), floats(u))
        return y if y is not None else self._output(x, u)

    # -- the numpy code: the reference of the kernels ---------------------------
    def _derivatives(self, x, u):
        dx = np.zeros_like(x)
        for i, law in enumerate(self.laws):
            v, lever = self._load(i, u)
            dx[2 * i] = bristle_rate(law, v, x[2 * i])
            dx[2 * i + 1] = level(law, v, x[2 * i]) * lever * v
        return dx

    def _advance(self, x, u, h):
        x = x.copy()
        for i, law in enumerate(self.laws):
            v, lever = self._load(i, u)
            x[2 * i], integral = advance(law, v, x[2 * i], h)
            x[2 * i + 1] += integral * lever * v
        return x

    def _output(self, x, u):
        y, P_total = [], 0.0
        for i, law in enumerate(self.laws):
            v, lever = self._load(i, u)
            z, E = x[2 * i], x[2 * i + 1]
            mu = level(law, v, z)
            F = -mu * lever
            P = -F * v
            P_total += P
            y += [F, mu, z, P, E] if self._revolute[i] else [F, z, P, E]
        return np.array(y + [P_total, float(x[1::2].sum())])


_declare(JointFriction)


class KnuckleBoomFriction(JointFriction):
    """:class:`JointFriction` in the three revolute joints of the knuckle boom
    crane of Cibicik & Egeland (2019) and the seals of its two cylinders."""
    model_name = "KnuckleBoomFriction"
    description = ("Dahl or LuGre friction (Jarzebowska, Urbas & Augustynek 2018) in the knuckle boom crane's "
                   "slewing, boom and jib joints and its two cylinders' seals.")
    reference = ("The Dahl and LuGre laws of Jarzębowska, Urbaś & Augustynek (2018), eqs. (13)-(15) and Table "
                 "1, in the revolute joints of the knuckle boom crane of Cibicik & Egeland (2019), and the "
                 "same laws, in forces, in its two cylinders' seals (which neither paper models).")
    validation = ("A sliding seal settles on its Coulomb plus viscous force, 4 kN + 2e4 N s/m x 0.05 m/s = 5 "
                  "kN, with bristle deflection F_c / sigma0 (to 1e-9); the laws' exact step equals DOP853 to "
                  "1e-10 of the static level and dissipates over every closed cycle; its compiled kernels "
                  "equal the numpy code bit for bit.")
    joints = (Revolute("slew", "slewing joint (Joint 1)", 1.8), Revolute("boom", "boom joint (Joint 2)", 0.16),
              Revolute("jib", "jib joint (Joint 3)", 0.12),
              Seal("boom_cyl", "boom cylinder's seals", 6e3, 4e3, 5e7, 1e4, 2e4),
              Seal("jib_cyl", "jib cylinder's seals", 3e3, 2e3, 3e7, 5e3, 1e4))


_declare(KnuckleBoomFriction)
