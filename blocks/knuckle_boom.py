"""Knuckle boom crane of Cibicik & Egeland (2019), Section 5: king (Body 1),
inner boom (2), outer boom (3), and the barrel and piston of each of the
two cylinders (b2, p2, b3, p3), seven bodies with three generalized
coordinates: the slew angle q1 and the piston extensions q2, q3 (eq. 57).

The closed loops are cut at the piston pins (Section 3.2): the bodies form
a tree on the mount (king -> inner boom -> outer boom; king -> barrel 2 ->
piston 2; inner boom -> barrel 3 -> piston 3) whose joint coordinates
``theta = (q1, alpha2, alpha3, beta2, q2, beta3, q3)`` follow from q by the
loop kinematics of eqs. (29)-(30) (``blocks/cylinder_loop.py``), and their
rates ``dtheta/dt = G(q) u`` by eqs. (37), (40).  With the projection
matrices of the tree ``P_theta`` (eqs. 58-65), those of the crane are
``P_k = P_theta,k G~`` (``G~ = blockdiag(I_6, G)``, the six base speeds
first, as for the crane of Cibicik & Egeland (2018)), and Kane's equations (43)-(46)
become ``G~^T M_theta G~ du/dt = G~^T (tau_theta - C_theta nu_theta -
M_theta dG~/dt nu) + [T1, F2, F3]``.  The piston forces act along the
prismatic joints between barrel and piston (eq. 68), the slewing torque on
the king (eq. 67).  Inertias per eq. (66); gravity along -z0; geometry of
the lost Figs. 2 and 5 in ``docs/knuckle_boom.md``; Tables 1 and 2 and the
tree of bodies in ``blocks/knuckle_boom_geometry.py``.

The hot path, :meth:`KnuckleBoomCrane.derivatives` and
:meth:`KnuckleBoomCrane.output`, runs compiled by numba when it is
installed (``blocks/knuckle_boom_kernels.py``: the same equations by a
recursion over the tree and the loops' closed forms (37), (40), tested
against the numpy code here and in ``cylinder_loop.py``, which is the
reference and the fallback).

The base is the mount, as for the crane of Cibicik & Egeland (2018): fixed (default
inputs) or moving with the mount motion as input, with the wrench of the
mount on the king and the articulated inertia and bias wrench at the mount
as outputs (``docs/interfaces/mount.md``).  In Cibicik & Egeland's (2019) numbering the
king is Frame 1; the port names follow the mount interface, where Frame 1
is the vessel's: ``W1_*`` is in mount (base) coordinates, ``W2_*`` in king
coordinates.

The load: a hoist wire leaves the outer boom's end, ``[0, 0, l3]`` in its
frame, and pulls with the force ``F_tip`` (Frame 0; the paper has no load,
its Section 7 leaves it for future work): an applied force on the outer
boom beside gravity, in Kane's generalized forces (eq. 46), in the holding
actuation and in the total wrenches of the reactions (eq. 49); the tip's
position and velocity (Frame 0, the mount's position an input) are outputs
for the wire.

The FMU's ``DefaultExperiment``, the FMU run alone with its default inputs
(no actuation, a fixed base), is the crane folding under its own weight
from rest for 0.5 s: the boom cylinder closes completely after 0.59 s, and
the model has no end stops (``KnuckleBoomCrane.default_stop_time``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .block import ParameterError, Variable, sym6_pack
from .compiled_block import CompiledBlock, sum_finite
from .interface import (MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION, TIP_FEEDTHROUGH, TIP_LOAD, TIP_MOTION,
                        base_twist_rate, crane_feedthrough, mount_motion_from_inputs, mount_split, wrench_ports)
from .kane import gravity_wrenches, inertial_wrenches, kinematics, mass_matrix, project_wrenches, with_base_twist
from .knuckle_boom_drawing import skeleton as _skeleton
from .knuckle_boom_geometry import _TABLE, _parameter, cylinder_loops, knuckle_boom_tree, paper_symbols
from .knuckle_boom_reactions import KnuckleBoomReactions
from .linalg import solve
from .screw import Rbar

_P = Variable

#: The crane's coordinates (the paper's q1, q2, q3: slew angle [rad], boom and
#: jib cylinder extensions [m]) and the actuation on each
COORDINATES = ("slew", "boom_cyl", "jib_cyl")
PAPER_INDEX = {"slew": 1, "boom_cyl": 2, "jib_cyl": 3}
ACTUATION = ("tau_slew", "F_boom_cyl", "F_jib_cyl")

def _support_ports(cyl):
    """Loads of a cylinder on its two supports (eqs. 51-55), cylinder frame."""
    k = {"boom_cyl": 2, "jib_cyl": 3}[cyl]
    where = {2: ("king", "boom"), 3: ("boom", "jib")}[k]
    name = cyl.replace("_cyl", " cylinder")
    out = tuple(_P(f"{cyl}_B_f{c}", "N", 0.0, f"Force of the {name} on its barrel support B ({where[0]}), "
                                                f"cylinder frame b{k}, {c}") for c in "xyz")
    out += (_P(f"{cyl}_B_nz", "N.m", 0.0, f"Torsion of the {name} on its barrel support B, about its axis"),)
    out += tuple(_P(f"{cyl}_P_f{c}", "N", 0.0, f"Force of the {name} on its piston support P{k} ({where[1]}), "
                                                 f"cylinder frame b{k}, {c}") for c in "xyz")
    return out


class KnuckleBoomCrane(KnuckleBoomReactions, CompiledBlock):
    model_name = "KnuckleBoomCrane"
    symbols_of = "Cibicik & Egeland 2019"
    kernel_module = "knuckle_boom_kernels"
    draws = "crane"
    #: :meth:`Block.skeleton`, drawn by ``knuckle_boom_drawing.py``
    skeleton = _skeleton
    compile_name = "the knuckle boom crane"
    compile_time = "30 s to 1.5 min"
    numpy_slowdown = "several times slower"
    method = "rk4"
    #: The FMU's DefaultExperiment, the run of the FMU alone: with its
    #: default inputs (no cylinder force, no slewing torque, a fixed base)
    #: the crane folds under its own weight from rest at its initial pose;
    #: the boom cylinder closes completely after 0.59 s (its stroke's end,
    #: where a real cylinder bottoms out; the model has no end stops, and at
    #: 1.12 s the jib cylinder leaves the extensions its loop can close at).
    #: 0.5 s stays inside both strokes.  A run with the crane held up sets
    #: F_boom_cyl and F_jib_cyl to the outputs F_boom_cyl_hold and
    #: F_jib_cyl_hold (the controller feeds them back).
    default_stop_time = 0.5
    description = ("Knuckle boom crane with two cylinders (Cibicik & Egeland 2019): slew torque and "
                   "piston forces in; mount wrench, articulated inertia and bias wrench out.")
    reference = ("The knuckle boom crane of Cibicik & Egeland (2019), Section 5: seven bodies, the cylinder "
                 "loops closed by eqs. (29)-(40), Kane's equations (43)-(46) with the slewing torque of eq. "
                 "(67) and the piston forces of eq. (68), inertias of eq. (66), Tables 1-2; reactions in the "
                 "joints and cylinder supports by eqs. (47)-(56).")
    validation = ("At rest the mount carries 36 t g = 353.16 kN (to 1e-12) and the holding cylinder forces are "
                  "the virtual-work derivatives of the potential energy (to 1e-6); unactuated, T + V stays "
                  "within 1e-8 of 36 t g x 10 m over 0.4 s; the boom and jib joint wrenches equal a second "
                  "computation by auxiliary speeds (eqs. (39)-(50)) to 3e-14 of their scale. "
                  "With a payload at the tip, the mount's load and the holding forces are those of a hand "
                  "computation and the virtual work of the weights; the tip force passes each joint as its "
                  "moment about it; the tip's velocity is its position's rate and the force's generalized "
                  "forces deliver its power.")
    parameters = tuple(_parameter(n) for n in _TABLE) + (
        _P("stroke_boom_cyl", "m", 1.8, "Stroke of the boom cylinder: q_boom_cyl runs from 0 to it "
                                        "(at most l_boom_cyl_piston)"),
        _P("stroke_jib_cyl", "m", 1.8, "Stroke of the jib cylinder: q_jib_cyl runs from 0 to it "
                                       "(at most l_jib_cyl_piston)"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (classic Runge-Kutta, fourth order; default 1e-3 s)"),
        _P("q_slew_0", "rad", 0.0, "Initial slew angle"),
        _P("q_boom_cyl_0", "m", 0.6, "Initial extension of the boom cylinder"),
        _P("q_jib_cyl_0", "m", 0.6, "Initial extension of the jib cylinder"),
        _P("u_slew_0", "rad/s", 0.0, "Initial slew rate"),
        _P("u_boom_cyl_0", "m/s", 0.0, "Initial extension rate of the boom cylinder"),
        _P("u_jib_cyl_0", "m/s", 0.0, "Initial extension rate of the jib cylinder"),
    )
    inputs = MOUNT_MOTION + (
        _P("tau_slew", "N.m", 0.0, "Slewing torque on the king (T1 of eq. 67)"),
        _P("F_boom_cyl", "N", 0.0, "Force of the boom cylinder, positive extending (F2 of eq. 68)"),
        _P("F_jib_cyl", "N", 0.0, "Force of the jib cylinder, positive extending (F3 of eq. 68)"),
        _P("tau_f_slew", "N.m", 0.0, "Friction torque in the slewing joint (Joint 1) on the king, along q1"),
        _P("tau_f_boom", "N.m", 0.0, "Friction torque in the boom joint (Joint 2) on the inner boom, about its "
                                     "pin (x2), along alpha2"),
        _P("tau_f_jib", "N.m", 0.0, "Friction torque in the jib joint (Joint 3) on the outer boom, about its "
                                    "pin (x3), along alpha3"),
    ) + TIP_LOAD + MOUNT_POSITION
    outputs = (
        (_P("q_slew", "rad", 0.0, "Slew angle (q1 of Cibicik & Egeland 2019)"),
         _P("q_boom_cyl", "m", 0.0, "Boom cylinder extension (q2)"),
         _P("q_jib_cyl", "m", 0.0, "Jib cylinder extension (q3)"),
         _P("u_slew", "rad/s", 0.0, "Slew rate"), _P("u_boom_cyl", "m/s", 0.0, "Boom cylinder extension rate"),
         _P("u_jib_cyl", "m/s", 0.0, "Jib cylinder extension rate"),
         _P("du_slew", "rad/s2", 0.0, "Slew acceleration"),
         _P("du_boom_cyl", "m/s2", 0.0, "Boom cylinder extension acceleration"),
         _P("du_jib_cyl", "m/s2", 0.0, "Jib cylinder extension acceleration"),
         _P("tau_slew_hold", "N.m", 0.0, "Slewing torque that holds the crane still against gravity and the tip "
                                         "load at this pose"),
         _P("F_boom_cyl_hold", "N", 0.0, "Boom cylinder force that holds the crane still against gravity and "
                                         "the tip load at this pose"),
         _P("F_jib_cyl_hold", "N", 0.0, "Jib cylinder force that holds the crane still against gravity and the "
                                        "tip load at this pose"))
        + wrench_ports("W_mount", "Wrench of the mount on the king at the slew joint (Joint 1), mount axes",
                       role="interface.wrench")
        + wrench_ports("W_king", "Wrench of the mount on the king at the slew joint (Joint 1), king axes")
        + MOUNT_INERTIA
        + wrench_ports("W_boom", "Wrench of the king on the boom through the boom joint (Joint 2): pin "
                                 "reaction (eq. 71) and friction torque, boom frame (Frame 2)")
        + wrench_ports("W_jib", "Wrench of the boom on the jib through the jib joint (Joint 3): pin reaction "
                                "(eq. 73) and friction torque, jib frame (Frame 3)")
        + _support_ports("boom_cyl") + _support_ports("jib_cyl")
        + (_P("q_boom", "rad", 0.0, "Boom angle in the boom joint (alpha2 of eq. 29)"),
           _P("q_jib", "rad", 0.0, "Jib angle in the jib joint (alpha3 of eq. 29)"),
           _P("u_boom", "rad/s", 0.0, "Boom angle rate (eq. 37)"),
           _P("u_jib", "rad/s", 0.0, "Jib angle rate (eq. 37)"))
        + TIP_MOTION
    )
    # The holding actuation sees gravity's direction and the tip load (given
    # in Frame 0, turned by the whole of R_1^0).  The moment about
    # the pin axis of the boom and jib joints is the joint's friction torque
    # (the pin passes none); the torsion on the barrel supports is always
    # zero, the cylinders being slender bodies with no inertia about their
    # own axis (eq. 66).
    feedthrough = crane_feedthrough(("tau_slew", "F_boom_cyl", "F_jib_cyl", "tau_f_*"), tip_load=True,
                                    extra=TIP_FEEDTHROUGH + (
        ("*_hold", (("mount_R_*", "F_tip_*"),)), ("W_boom_nx", ("tau_f_boom",)), ("W_jib_nx", ("tau_f_jib",)),
        ("*_cyl_B_nz", ())))
    states = tuple(_P(f"{q}_{c}", u, 0.0, f"{q}_{c}") for q in ("q", "u")
                   for c, u in zip(COORDINATES, ("rad", "m", "m") if q == "q" else ("rad/s", "m/s", "m/s")))

    def setup(self):
        p = self.p
        self.require_positive(*_TABLE, "h_max")
        self.max_step = p.h_max
        #: the geometry and masses under the paper's symbols, for the formulas
        self.sym = s = paper_symbols(self.values)
        self.loops = cylinder_loops(s)
        for c, loop in zip(("boom_cyl", "jib_cyl"), self.loops):
            stroke, l_p, q0 = (self.values[n] for n in (f"stroke_{c}", f"l_{c}_piston", f"q_{c}_0"))
            if not 0 < stroke <= l_p:
                raise ParameterError(f"KnuckleBoomCrane parameter stroke_{c} = {stroke:g} m is invalid: the piston "
                                     f"would leave its cylinder; it must be positive and at most "
                                     f"l_{c}_piston = {l_p:g} m")
            lo, hi = loop.extension_range()
            if lo >= 0 or hi <= stroke:
                raise ParameterError(f"KnuckleBoomCrane: the {loop.name} cannot close its loop over the whole "
                                     f"stroke 0..{stroke:g} m (it closes for extensions in ({lo:g}, {hi:g}) m)")
            if not 0 <= q0 <= stroke:
                raise ParameterError(f"KnuckleBoomCrane parameter q_{c}_0 = {q0:g} m is outside the stroke "
                                     f"0..{stroke:g} m")
        self.chain = knuckle_boom_tree(s)
        bodies = self.chain.bodies
        self._prepare_reactions(bodies)
        self._Gt = np.zeros((13, 9))
        self._Gt[:6, :6] = np.eye(6)
        self._g0 = np.array([0.0, 0.0, -p.g])
        self._tip = np.array([0.0, 0.0, s.l3])
        self._cache_key = None
        self._loop_geometry = np.array([loop.geometry for loop in self.loops])
        ch = self.chain
        self._kernel_args = (self._loop_geometry, p.g,
                             np.array(ch.parents, dtype=np.int64), ch._R0, ch._Kb, ch._K2b, ch._off0, ch._slide,
                             ch._revolute, ch._s, np.array([b.com for b in bodies]), ch._mass,
                             np.ascontiguousarray(ch._D[:, :3, :3]), self._tip)

    def _kernel_calls(self):
        """The kernels called directly: the outputs with the reactions'
        arguments, and the accelerations (no time) made the derivatives of
        ``x = [q; u]``; the block's own method where numba's solver refuses
        the inputs (NaN, a singular matrix) or the result is not finite."""
        outputs, accelerations = self.kernels.outputs, self.kernels.accelerations
        args = self._kernel_args
        out_args = args + self._reaction_args
        n = len(self.states) // 2

        def output(t, x, u):
            try:
                y = outputs(x, u, *out_args)
            except ValueError:
                return self.output(t, x, u)
            return y if sum_finite(y) else self.output(t, x, u)

        def rates(t, x, u):
            try:
                du = accelerations(x, u, *args)
            except ValueError:
                return self.derivatives(t, x, u)
            if not sum_finite(du):
                return self.derivatives(t, x, u)
            dx = np.empty(2 * n)
            dx[:n] = x[n:]
            dx[n:] = du
            return dx

        return output, rates

    def _warm_up(self):
        """Call the crane's kernels once (their arguments are not
        ``CompiledBlock``'s: no time, and the reactions' own): about 35 s on
        a new machine, then from numba's cache."""
        x0, u0 = self.initial_state(), self.default_inputs()
        self._compiled("outputs", x0, u0, *self._reaction_args)
        self._compiled("accelerations", x0, u0)

    def initial_state(self):
        p = self.p
        return np.array([p.q_slew_0, p.q_boom_cyl_0, p.q_jib_cyl_0, p.u_slew_0, p.u_boom_cyl_0, p.u_jib_cyl_0])

    def joint_map(self, x):
        """The tree's joint coordinates ``theta = (q1, alpha2, alpha3, beta2,
        q2, beta3, q3)`` at state ``x = [q; u]``, their Jacobian ``G`` (7 x 3,
        ``dtheta/dt = G u``) and ``dG/dt u`` (7): the slew angle is q1 itself;
        each cylinder's loop gives its joint's alpha and its barrel's beta
        (eqs. 29-30) and their gains per unit piston speed (eqs. 35, 39) and
        the gains' rates (:meth:`CylinderLoop.loop_state`); the piston slides
        by its extension.  A piston extension where a loop cannot close is
        named."""
        theta, G, Gdot_u = np.zeros(7), np.zeros((7, 3)), np.zeros(7)
        theta[0], G[0, 0] = x[0], 1.0
        for c, loop in enumerate(self.loops):  # c = 0: boom cylinder (Joint 2), 1: jib cylinder (Joint 3)
            q, u = x[1 + c], x[4 + c]
            alpha, beta, A_a, A_b, dA_a, dA_b = loop.loop_state(q, u)
            i_alpha, i_beta, i_piston = 1 + c, 3 + 2 * c, 4 + 2 * c
            theta[[i_alpha, i_beta, i_piston]] = alpha, beta, q
            G[[i_alpha, i_beta, i_piston], 1 + c] = A_a, A_b, 1.0
            Gdot_u[[i_alpha, i_beta]] = dA_a * u, dA_b * u
        return theta, G, Gdot_u

    def _state_terms(self, x):
        """Kinematics of the tree and the crane's mass matrix at ``x``, cached."""
        key = x.tobytes()
        if self._cache_key != key:
            theta, G, Gdot_u = self.joint_map(x)
            kin = kinematics(self.chain, theta, G @ x[3:])
            Gt = self._Gt.copy()
            Gt[6:, 6:] = G
            M_theta = mass_matrix(self.chain, kin)
            self._cache = (kin, Gt, Gdot_u, M_theta, Gt.T @ M_theta @ Gt)
            self._cache_key = key
        return self._cache

    def _dynamics(self, x, inp) -> "_Dynamics":
        """Kane's equations in the crane's speeds, base rows first: ``M``
        (9 x 9) and ``f``, the applied generalized forces less the velocity
        terms, with the body wrenches they are made of."""
        R10, w, dw, v, a = mount_motion_from_inputs(inp)
        kin, Gt, Gdot_u, M_theta, M = self._state_terms(x)
        kin = with_base_twist(kin, np.concatenate([w, v]))
        W_g = self._applied_wrenches(kin, R10, inp)
        W_v = inertial_wrenches(self.chain, kin)
        tau_g = project_wrenches(kin.P, W_g)
        extra = np.zeros(13)
        extra[6:] = Gdot_u
        f = Gt.T @ (tau_g - project_wrenches(kin.P, W_v) - M_theta @ extra)
        f[6:] += Gt[6:, 6:].T @ joint_forces(inp)
        hold = -(Gt.T @ tau_g)[6:]
        return _Dynamics(kin, M, f, base_twist_rate(w, dw, v, a), w, v, W_g, W_v, hold)

    def _applied_wrenches(self, kin, R10, inp) -> np.ndarray:
        """The applied wrenches of the bodies but the joints' (7 x 6, ``[n;
        f]`` at each COG, body coordinates): gravity, and on the outer boom
        the tip load ``F_tip`` (Frame 0) at its end, ``[(tip - c) x f; f]``."""
        W = gravity_wrenches(self.chain, kin, R10.T @ self._g0)
        f = kin.R[2].T @ (R10.T @ inp[27:30])
        W[2] += np.concatenate([np.cross(self._tip - self.chain.bodies[2].com, f), f])
        return W

    def tip_motion(self, kin, inp) -> np.ndarray:
        """The tip's position [m] and velocity [m/s] in Frame 0 (6): the outer
        boom's origin twist ``[w; v]`` (its frame) carried to the tip, then
        Frame 1 (``kin`` with the mount's twist), then Frame 0."""
        R10 = inp[:9].reshape(3, 3)
        w, v = np.split(kin.Po[2] @ kin.nu, 2)
        tip_p = inp[30:33] + R10 @ (kin.p[2] + kin.R[2] @ self._tip)
        tip_v = R10 @ (kin.R[2] @ (v + np.cross(w, self._tip)))
        return np.concatenate([tip_p, tip_v])

    def _compiled(self, kernel, x, u, *extra):
        """The result of ``knuckle_boom_kernels.<kernel>``, or ``None`` without
        numba and where the numpy code must answer instead: a result that is
        not finite (a loop that cannot close, which the numpy code names) or
        inputs numba's solver refuses (NaN, a singular mass matrix)."""
        if not self._prepared:
            self.prepare()
        if self.kernels is None:
            return None
        try:
            out = getattr(self.kernels, kernel)(x, u, *self._kernel_args, *extra)
        except ValueError:
            return None
        return out if np.isfinite(out).all() else None

    def derivatives(self, t, x, u):
        du = self._compiled("accelerations", x, u)
        if du is not None:
            return np.concatenate([x[3:], du])
        d = self._dynamics(x, u)
        du = solve(d.M[6:, 6:], d.f[6:] - d.M[6:, :6] @ d.tb_dot)
        return np.concatenate([x[3:], du])

    def output(self, t, x, u):
        y = self._compiled("outputs", x, u, *self._reaction_args)
        if y is not None:
            return y
        d = self._dynamics(x, u)
        du, W1, I_A, p_A = mount_split(d.M, d.f, d.tb_dot, d.w, d.v)
        W2 = Rbar(d.kin.R[0].T) @ W1
        r = self.reactions(x, u, du, d)
        # the wrench through Joints 2 and 3: the pin's reaction and the friction couple
        J2, J3 = r["J2"].copy(), r["J3"].copy()
        J2[0] += u[25]
        J3[0] += u[26]
        # alpha2, alpha3 and their rates: the tree's joint coordinates and
        # speeds the kinematics were made with (the joint map's theta, G u)
        luffing = np.concatenate([d.kin.q[1:3], d.kin.nu[7:9]])
        return np.concatenate([x, du, d.hold, W1, W2, sym6_pack(I_A), p_A, J2, J3, r["supports"], luffing,
                               self.tip_motion(d.kin, u)])

    def holding(self, x, inp):
        """Actuation that balances gravity and the tip load at the pose of
        ``x`` with the mount's present orientation: ``-G~^T tau_g`` (eq. 46
        with these loads only), the gravity compensation of the controller of
        Section 6."""
        kin, Gt, _, _, _ = self._state_terms(x)
        W = self._applied_wrenches(kin, inp[:9].reshape(3, 3), inp)
        return -(Gt.T @ project_wrenches(kin.P, W))[6:]


def joint_forces(inp) -> np.ndarray:
    """The applied forces along the tree's joints ``theta = (q1, alpha2,
    alpha3, beta2, q2, beta3, q3)`` from the crane's inputs: the slewing
    torque and the slewing joint's friction on q1, the boom and jib joints'
    friction on alpha2 and alpha3, the piston forces on q2 and q3 (eqs.
    67-68).  Their generalized forces are ``G^T`` times them."""
    T1, F2, F3, tf1, tf2, tf3 = inp[21:27]
    return np.array([T1 + tf1, tf2, tf3, 0.0, F2, 0.0, F3])


class _Dynamics(NamedTuple):
    kin: object       #: Kinematics with the mount's twist
    M: np.ndarray     #: mass matrix over [t_b; u]
    f: np.ndarray     #: applied generalized forces less velocity terms
    tb_dot: np.ndarray  #: rate of the base twist
    w: np.ndarray     #: mount angular velocity, mount frame [rad/s]
    v: np.ndarray     #: mount velocity, mount frame [m/s]
    W_g: np.ndarray   #: applied wrenches of the bodies: gravity, the tip load
    W_v: np.ndarray   #: velocity part of the inertial wrenches
    hold: np.ndarray  #: T1, F2, F3 that balance gravity and the tip load
