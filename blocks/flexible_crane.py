"""The crane of Jarzębowska, Urbaś & Augustynek (2018): a rotary column
(the *king*, their body (c,1)), a flexible first link (the *boom*, (c,2))
discretised by the rigid finite element method (RFEM), and a rigid second
link (the *jib*, (c,3)) carrying a load at its end effector E; three revolute
joints (``slew``, ``boom``, ``jib``) with torque and friction inputs, on the
mount interface of every crane of the project (``docs/interfaces/mount.md``),
so that it stands on a vessel or on a spring-supported base alike.  Its end
effector can be made to follow the paper's programmed path (eqs. 17-23).

Frames (eq. 12; the paper's Fig. 4 with the DH frames is missing, so the
fixed rotations are chosen): the king turns about the mount's z axis by
``q_slew`` (ψ^(c,1)); the boom joint sits at ``[0, 0, l_king]`` in the king
with ``R = Rz(pi/2) Rx(pi/2) Rz(q_boom)`` (as the crane of Cibicik & Egeland
2018), so the boom points along the king's y axis at ``q_boom = 0`` and a
positive ``q_boom`` raises it; every element of the boom and the jib point
along their x axes, the joint axes being their z axes; the jib joint
(ψ^(c,3)) sits at the boom's tip.  With these, the paper's initial pose
(eq. 23: ψ^(c,1) = 3π/2, ψ^(c,2,0) = π/4, ψ^(c,3) = 3π/2) puts the boom at
45° up and the jib at 45° down, both over the ground's +x axis, E about 4 cm
outside the programmed ellipse's end (3.04 m against a = 3 m): the start is
off the path, as in the paper.

RFEM (eqs. 7-8, 12; ``blocks/flexible_boom.py``): the boom is cut into
``n_rfe`` rigid elements (one: a rigid boom; at most 16),
end elements of length ``d/2`` and inner ones of length
``d = l_boom / (n_rfe - 1)`` (eq. 7),
joined at the sections' middles by spring elements ``Rz(ψ) Ry(θ) Rx(φ)``
(eq. 12) of rotational stiffness ``E I_z / d`` (bending in the luffing
plane), ``E I_y / d`` (out of it) and ``G J / d`` (torsion), an
Euler-Bernoulli beam's section (Wittbrodt et al. 2013).  An element of
length l is a uniform bar of mass ``rho A l`` with the section's rotary
inertia.  Damping is omitted, as in the paper, unless ``c_rfe`` is set.

Internal step: classic Runge-Kutta (RK4), at most ``h_max``.  The springs
stiffen as ``1/d`` and the elements lighten as ``d``, so the boom's fastest
mode (the torsion of its elements) rings faster the more elements there
are: 1.1 kHz at n_rfe = 4, 2.7 kHz at 8, 8.4 kHz at 16, and RK4 at the
paper's 2.5e-4 s diverges within milliseconds from n_rfe = 6 on.  With
``h_max = 0`` (the default) the block takes the paper's step or, when the
springs need it, the step that keeps ``h |lambda| <= 0.7 x 2.6`` for the
fastest eigenvalue lambda (2.6: the radius of the half-disc inside RK4's
stability region), lambda from the generalized eigenvalues of the springs'
stiffness and the mass matrix at the initial pose and with the jib folded
along the boom (its fastest), damping included; a longer ``h_max`` is
refused with the step needed.

A hoist wire hangs from E (the crane's tip, outputs ``tip_p``, ``tip_v``
in Frame 0) and pulls with the force ``F_tip`` (Frame 0), an applied force
on the jib at E beside gravity and the load ``m_load`` (the paper's), in
Kane's generalized forces and in the joints' reactions.

Programmed motion (eqs. 17-22): when ``programmed`` is on, E follows the
ellipse ``x^2/a^2 + y^2/b^2 = 1`` in the ground plane (Frame 0, centred on
the ground origin, where the king's axis stands at rest) and the height
``z_E,a(t)`` of eq. (22), from the start height ``z_E,s`` up by ``z_inc`` in
``t_c``.  The constraints are enforced by multipliers (the same motion as
the paper's GPME, which eliminate them): ``M nu' = f + A^T lambda``,
``A nu' = gamma``, with Baumgarte's stabilisation in the form
``Phi'' + alpha Phi' + beta^2 Phi = 0`` (the paper gives alpha = 110,
beta = 20 but not its form; with this one the poles are -3.8 and -106 1/s,
so an offset decays as ``exp(-3.8 t)``, to under 1% in the paper's 1.25 s;
the other usual form ``Phi'' + 2 alpha Phi' + beta^2 Phi = 0`` would leave
10% then).  The reaction ``A^T lambda`` is a force at E, along the
constraints' normals (the ellipse's normal in the ground plane, and the
vertical), as from a frictionless guide fixed in the world: outputs
``F_prog_*`` (Frame 0) and its generalized forces on the three joints,
``tau_prog_*``: those on the boom and jib joints (the paper's dependent
coordinates, eq. 11) are the torques the luffing drives must add to
execute the programme, the paper's constraint forces.

Assumptions the paper leaves open (its Fig. 2 with the geometry is lost):
a small loader crane, a 1.5 m, 200 kg column; a 2.15 m boom of a
120 x 80 x 4 mm steel tube (12 kg/m; its first bending frequency with the
jib and load about 6 Hz, its static tip deflection a few mm); a 2.15 m,
60 kg jib; a 100 kg load at E; the start height ``z_E,s`` is E's height at
the initial pose with the link undeformed and the mount at the ground origin
(the paper takes it from a static analysis; the sag of the supports and the
boom, a few millimetres, is then the start's offset from the path in z,
which the stabilisation removes).  Gravity acts along -z0.
"""
from __future__ import annotations

import math

import numpy as np

from .block import ParameterError, Variable, sym6_pack
from .compiled_block import CompiledBlock
from .flexible_boom import boom_deflections, chosen_step, flexible_chain
from .flexible_crane_drawing import skeleton as _skeleton
from .interface import (MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION, TIP_LOAD, TIP_MOTION, base_twist_rate,
                        constrained_accelerations, constrained_mount_split, mount_motion_from_inputs, wrench_ports)
from .kane import (applied_forces, constraint_wrenches, kinematics, kinetic_energy, mass_matrix, project_wrenches,
                   with_base_twist)
from .programmed_path import check_reach, path_rows
from .screw import Rbar, cross
from .trajectory import quintic_ramp

_P = Variable
#: the crane's revolute joints, and the paper's coordinate of each (eq. 9)
JOINTS = ("slew", "boom", "jib")
#: the most rigid finite elements the boom may have.  An FMU's outputs are
#: fixed when it is built while ``n_rfe`` is a parameter, so the deflection
#: of every spring element is an output up to this many elements (15
#: spring elements); at 16 the boom's static deflections are within 0.11%
#: (a tip load) and 0.22% (its weight) of beam theory, and its fastest mode
#: already asks a 3.4e-5 s step (module docstring).
MAX_RFE = 16
PAPER_COORDINATE = {"slew": "ψ^(c,1)", "boom": "ψ^(c,2,0)", "jib": "ψ^(c,3)"}


class FlexibleCrane(CompiledBlock):
    model_name = "FlexibleCrane"
    symbols_of = "Jarzębowska et al. 2018"
    kernel_module = "flexible_crane_kernels"
    draws = "crane"
    #: :meth:`Block.skeleton`, drawn by ``flexible_crane_drawing.py``
    skeleton = _skeleton
    plain_kernels = True
    compile_name = "the flexible crane"
    compile_time = "20 s to 1 min"
    numpy_slowdown = "several times slower"
    method = "rk4"
    description = ("Crane with a rotary column, a flexible boom (rigid finite elements) and a rigid jib "
                   "(Jarzebowska, Urbas & Augustynek 2018) on a moving mount; joint torques and friction in; "
                   "an optional programmed path of the end effector (Baumgarte); outputs the mount wrench, "
                   "I_A and p_A, the joint reactions and the programme's constraint forces.")
    reference = ("The crane of Jarzębowska, Urbaś & Augustynek (2018): a rotary column, a boom of rigid finite "
                 "elements (RFEM, eqs. (7)-(12)) with an Euler-Bernoulli section's stiffness, a rigid jib, and "
                 "the programmed end-effector path of eqs. (17)-(23) with Baumgarte stabilisation (alpha = "
                 "110, beta = 20).")
    validation = ("With one element it equals the rigid crane of Cibicik & Egeland (2018), a force at its tip E "
                  "included, to 1e-12; the boom tip "
                  "deflection converges to P L^3 / (3 EI) with the midpoint rule's error 1/(4 (n-1)^2) (to "
                  "6e-5 of it) and the twist is T L / (G J) to 1e-14; undamped, its energy stays within 1e-8 "
                  "of the swing; the path is met within 1 mm after 1.25 s.")
    parameters = (
        _P("l_king", "m", 1.5, "Column height l^(c,1): mount to the boom joint (chosen)"),
        _P("m_king", "kg", 200.0, "Column mass (chosen)"),
        _P("d_king", "m", 0.75, "Column COG height above the mount (chosen: mid-height)"),
        _P("r_king", "m", 0.15, "Column radius of gyration about its axis (chosen)"),
        _P("l_boom", "m", 2.15, "Boom (flexible link (c,2)) length l^(c,2) (chosen)"),
        _P("n_rfe", "1", 4.0, f"Number of rigid finite elements of the boom, a whole number from 1 to {MAX_RFE} "
                              f"(1: a rigid boom; the paper's study uses 4)"),
        _P("c_rfe", "s", 0.0, "Stiffness-proportional damping of the boom's spring elements: each spring's "
                              "damping coefficient is c_rfe times its stiffness, a damping ratio c_rfe w / 2 at "
                              "the angular frequency w (0: undamped, as in the paper; 3e-5 s: 1% at 106 Hz)"),
        _P("rho_boom", "kg/m3", 7850.0, "Density of the boom's material (steel)"),
        _P("E_boom", "Pa", 2.1e11, "Young's modulus of the boom's material (steel)"),
        _P("G_boom", "Pa", 8.1e10, "Shear modulus of the boom's material (steel)"),
        _P("A_boom", "m2", 1.536e-3, "Cross-section area of the boom (chosen: 120 x 80 x 4 mm tube)"),
        _P("I_z_boom", "m4", 3.09e-6, "Second moment of area of the boom about its z axis (the boom joint's "
                                      "axis): bending in the luffing plane (120 x 80 x 4 mm tube)"),
        _P("I_y_boom", "m4", 1.64e-6, "Second moment of area of the boom about its y axis: bending out of "
                                      "the luffing plane (120 x 80 x 4 mm tube)"),
        _P("J_boom", "m4", 3.2e-6, "Torsion constant of the boom's section (120 x 80 x 4 mm tube, "
                                   "Bredt: 4 A_m^2 t / perimeter)"),
        _P("l_jib", "m", 2.15, "Jib (rigid link (c,3)) length: jib joint to the end effector E (chosen)"),
        _P("m_jib", "kg", 60.0, "Jib mass (chosen)"),
        _P("d_jib", "m", 1.075, "Jib COG distance from the jib joint (chosen: mid-length)"),
        _P("m_load", "kg", 100.0, "Load carried at the end effector E, a point mass (chosen)"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0"),
        _P("h_max", "s", 0.0, "Longest internal integration step (classic Runge-Kutta), or 0 (default) to have it "
                              "chosen from the boom's stiffness: the paper's 2.5e-4 s or shorter, so that the "
                              "boom's fastest mode stays stable (n_rfe = 4: 2.5e-4 s, 8: 1.1e-4 s, 16: 3.4e-5 s); "
                              "a step longer than that is refused"),
        _P("programmed", "1", False, "Whether E follows the programmed path of eqs. 17-22 (the boom and "
                                     "jib joints being the dependent coordinates, eq. 11)", "Boolean"),
        _P("a_E", "m", 3.0, "Semi-axis of the programmed ellipse along x0, a_E,a (eq. 17.1; paper: 3 m)"),
        _P("b_E", "m", 2.0, "Semi-axis of the programmed ellipse along y0, b_E,a (eq. 17.1; paper: 2 m)"),
        _P("z_inc", "m", 0.2, "Rise of E from its start height, z_inc of eq. 22 (paper: 0.2 m)"),
        _P("t_c", "s", 1.0, "Time of the rise, t_c of eq. 22 (paper: 1 s)"),
        _P("alpha", "1/s", 110.0, "Baumgarte damping alpha in Phi'' + alpha Phi' + beta^2 Phi = 0 (paper: 110)"),
        _P("beta", "1/s", 20.0, "Baumgarte stiffness beta in Phi'' + alpha Phi' + beta^2 Phi = 0 (paper: 20)"),
        _P("q_slew_0", "rad", 1.5 * math.pi, "Initial slew angle ψ^(c,1) (eq. 23: 3π/2)"),
        _P("q_boom_0", "rad", 0.25 * math.pi, "Initial boom angle ψ^(c,2,0) (eq. 23: π/4)"),
        _P("q_jib_0", "rad", 1.5 * math.pi, "Initial jib angle ψ^(c,3) (eq. 23: 3π/2)"),
        _P("u_slew_0", "rad/s", 0.0, "Initial slew rate"),
        _P("u_boom_0", "rad/s", 0.0, "Initial boom rate"),
        _P("u_jib_0", "rad/s", 0.0, "Initial jib rate"),
    )
    inputs = (MOUNT_MOTION + MOUNT_POSITION
              + tuple(_P(f"tau_{j}", "N.m", 0.0, f"Actuator torque of the {j} joint (on {PAPER_COORDINATE[j]})")
                      for j in JOINTS)
              + tuple(_P(f"tau_f_{j}", "N.m", 0.0, f"Friction torque in the {j} joint (on {PAPER_COORDINATE[j]}), "
                                                   f"e.g. from a JointFriction block") for j in JOINTS)
              + TIP_LOAD)
    outputs = (
        tuple(_P(f"q_{j}", "rad", 0.0, f"{j.capitalize()} angle {PAPER_COORDINATE[j]}") for j in JOINTS)
        + tuple(_P(f"u_{j}", "rad/s", 0.0, f"{j.capitalize()} rate") for j in JOINTS)
        + tuple(_P(f"du_{j}", "rad/s2", 0.0, f"{j.capitalize()} acceleration") for j in JOINTS)
        + tuple(_P(f"defl_{c}", "m", 0.0, f"Deflection of the boom's tip: its displacement from where a rigid "
                                          f"boom at the same boom angle has it, boom-root (c,2,0) {c} axis "
                                          f"(x along the boom, z along the boom joint's axis)") for c in "xyz")
        + TIP_MOTION
        + wrench_ports("W_mount", "Wrench of the mount on the column at the mount point, mount (Frame-1) axes",
                       role="interface.wrench")
        + wrench_ports("W_king", "Wrench of the mount on the column at the mount point, column axes")
        + MOUNT_INERTIA
        + wrench_ports("W_boom", "Wrench of the column on the boom through the boom joint, boom-root (c,2,0) "
                                 "axes: pin reaction, and the actuator and friction torques about z")
        + wrench_ports("W_jib", "Wrench of the boom on the jib through the jib joint, jib (c,3) axes: pin "
                                "reaction, and the actuator and friction torques about z")
        + (_P("path_error", "m", 0.0, "Distance of E from the programmed ellipse in the ground plane, "
                                      "positive outside (eq. 17.1 to first order: Phi_1 / |grad Phi_1|)"),
           _P("height_error", "m", 0.0, "Height of E above the programmed height (eq. 17.2: Phi_2)"),
           _P("z_E_ref", "m", 0.0, "Programmed height of E, z_E,a of eq. 22 (Frame 0)"))
        + tuple(_P(f"F_prog_{c}", "N", 0.0, f"Force of the programme on E (the constraint reaction of eqs. "
                                            f"17-18), Frame 0, {c}") for c in "xyz")
        + tuple(_P(f"tau_prog_{j}", "N.m", 0.0, f"Generalized force of the programme on the {j} joint: the "
                                                f"torque a drive there adds to execute it") for j in JOINTS)
        + tuple(_P(f"defl_{r}_{c}", "m", 0.0, f"Deflection of the boom at its spring element {r}, the joint of "
                                              f"its elements (c,2,{r - 1}) and (c,2,{r}), {r - 0.5:g} d from the "
                                              f"boom joint (d = l_boom / (n_rfe - 1), eq. 7): its displacement "
                                              f"from where a rigid boom at the same boom angle has it, boom-root "
                                              f"(c,2,0) {c} axis; 0 when the boom has fewer than {r + 1} elements")
                for r in range(1, MAX_RFE) for c in "xyz")
    )
    # The programme's guide is fixed in the world, so with it on nearly every
    # output sees the mount's position, orientation and velocity too (no
    # Galilean invariance): most rules name the mount's and the joints'
    # inputs as one group.  What holds in both modes: the moment a joint
    # passes about its axis is its actuator's and its friction's torque; the
    # slewing joint turns freely about the mount's z axis (I_A's third row
    # is zero); the slender jib passes no moment about its own axis.
    feedthrough = (
        ("q_*", ()), ("u_*", ()), ("defl_*", ()), ("z_E_ref", ()), ("W_jib_nx", ()),
        ("I_A_[12]3", ()), ("I_A_3?", ()),
        ("W_mount_nz", ("tau_slew", "tau_f_slew")), ("W_king_nz", ("tau_slew", "tau_f_slew")),
        ("p_A_nz", ("tau_slew", "tau_f_slew")),
        ("W_boom_nz", ("tau_boom", "tau_f_boom")), ("W_jib_nz", ("tau_jib", "tau_f_jib")),
        ("I_A_*", (("mount_R_*", "mount_p_*"),)), ("tip_p_*", (("mount_R_*", "mount_p_*"),)),
        ("path_error", (("mount_R_*", "mount_p_*"),)), ("height_error", (("mount_R_*", "mount_p_*"),)),
        ("tip_v_*", (("mount_R_*", "mount_w_*", "mount_v_*"),)),
        ("*", (("mount_*", "tau_*", "F_tip_*"),)),
    )
    default_stop_time = 5.0

    def setup(self):
        p = self.p
        self.require_positive("h_max", allow_zero=True)
        self.require_positive("l_king", "m_king", "l_boom", "rho_boom", "E_boom", "G_boom", "A_boom", "I_z_boom",
                              "I_y_boom", "J_boom", "l_jib", "m_jib")
        self.require_positive("d_king", "r_king", "d_jib", "m_load", "c_rfe", allow_zero=True)
        if p.g < 0:
            raise ParameterError(f"FlexibleCrane parameter g = {p.g:g} m/s2 is invalid: it must be zero or positive")
        if p.n_rfe < 1 or p.n_rfe != int(p.n_rfe) or p.n_rfe > MAX_RFE:
            raise ParameterError(f"FlexibleCrane parameter n_rfe = {p.n_rfe:g} is invalid: it must be a whole "
                                 f"number of rigid finite elements from 1 to {MAX_RFE}")
        self.n_rfe = int(p.n_rfe)
        # the undamped springs of a flexible boom ring at up to 1 kHz (four elements), 8 kHz (sixteen)
        self.oscillatory = self.n_rfe > 1
        self.chain, self.stiffness = flexible_chain(p, self.n_rfe)
        n = self.chain.n
        #: indices of the three revolute joints in q; the rest are the springs' rotations
        self.joint_index = np.array([0, 1, n - 1])
        q0 = self.initial_state()[:n]
        #: the internal step [s], the longest the springs allow [s] and their highest angular frequency [rad/s]
        self.max_step, self.stable_step, self.omega_max = chosen_step(self.chain, self.stiffness, q0, n - 1, p.c_rfe,
                                                                      p.h_max)
        self.states = (tuple(_P(f"q{i}", "rad", 0.0, f"coordinate {i}: {w}") for i, w in enumerate(self.coordinates()))
                       + tuple(_P(f"u{i}", "rad/s", 0.0, f"rate of coordinate {i}") for i in range(n)))
        self._g0 = np.array([0.0, 0.0, -p.g])
        self._tip = self.chain.joints[-1].offset  # the boom's tip in its last element
        self._cache_key = None
        if p.programmed:
            self.require_positive("a_E", "b_E", "t_c", "alpha", "beta")
            self.z_E_s = float(self.end_effector_rest(self.initial_state())[2])
            check_reach(p, self.z_E_s)
        # the arguments of the compiled twin of derivatives() and output() (the same
        # equations by the composite-rigid-body and Newton-Euler recursions)
        ch = self.chain
        self._kernel_args = (ch._R0, np.array([j.axis for j in ch.joints]), ch._off0, ch._D,
                             np.array([b.com for b in ch.bodies]), self.stiffness,
                             self.joint_index.astype(np.int64), ch.markers[0].offset, self._tip,
                             np.array([p.g, p.l_boom, float(bool(p.programmed)), p.a_E, p.b_E,
                                       self.z_E_s if p.programmed else 0.0, p.z_inc, p.t_c, p.alpha, p.beta,
                                       p.c_rfe]))

    def coordinates(self) -> list[str]:
        """What each coordinate of the state is, in order."""
        names = ["q_slew", "q_boom"]
        for r in range(1, self.n_rfe):
            names += [f"psi^(c,2,{r})", f"theta^(c,2,{r})", f"phi^(c,2,{r})"]
        return names + ["q_jib"]

    def initial_state(self):
        p = self.p
        n = self.chain.n
        x = np.zeros(2 * n)
        x[self.joint_index] = [p.q_slew_0, p.q_boom_0, p.q_jib_0]
        x[n + self.joint_index] = [p.u_slew_0, p.u_boom_0, p.u_jib_0]
        return x

    # -- kinematics ---------------------------------------------------------------
    def _state_terms(self, x):
        """Kinematics and mass matrix at state ``x`` (fixed base), cached: the
        outputs at the end of a step and the first derivative of the next
        share them."""
        key = x.tobytes()
        if self._cache_key != key:
            n = self.chain.n
            kin = kinematics(self.chain, x[:n], x[n:])
            self._cache = (kin, mass_matrix(self.chain, kin))
            self._cache_key = key
        return self._cache

    def end_effector_rest(self, x) -> np.ndarray:
        """E in the mount frame for the coordinates of ``x`` [m]."""
        n = self.chain.n
        return kinematics(self.chain, x[:n], np.zeros(n)).marker_p[0]

    def programme(self, t):
        """``(z, dz/dt, d2z/dt2)`` of eq. (22) at ``t`` [m, m/s, m/s2]."""
        p = self.p
        return quintic_ramp(t, 0.0, p.t_c, self.z_E_s, self.z_E_s + p.z_inc)

    def _dynamics(self, t, x, inp):
        """Everything the derivatives and the outputs need at ``(t, x, inp)``:
        Kane's equations of the crane over ``[t_b; u]``, the end effector's
        motion in Frame 0 and, when programmed, the constraint rows
        ``A nu' = gamma`` of eqs. (17)-(18) with Baumgarte's terms."""
        n = self.chain.n
        R10, w, dw, v, a = mount_motion_from_inputs(inp)
        p_m = inp[21:24]
        kin, M = self._state_terms(x)
        kin = with_base_twist(kin, np.concatenate([w, v]))
        f = applied_forces(self.chain, kin, R10.T @ self._g0)
        f[6 + self.joint_index] += inp[24:27] + inp[27:30]
        ext = self._tip_wrenches(kin, R10, inp[30:33])
        f += project_wrenches(kin.P, ext)
        f[6:] -= self.stiffness * (x[:n] + self.p.c_rfe * x[n:])
        # E: its twist in its own frame, then Frame 0 (eqs. (29)-(30) for a marker)
        R_E0 = R10 @ kin.marker_R[0]
        Po, Pdo = kin.marker_Po[0], kin.marker_Pdo[0]
        tE = Po @ kin.nu
        r_E = p_m + R10 @ kin.marker_p[0]
        v_E = R_E0 @ tE[3:]
        G = R_E0 @ Po[3:]  # d(v_E)/d(nu), Frame 0
        d = _Dyn(kin=kin, M=M, f=f, tb_dot=base_twist_rate(w, dw, v, a), w=w, v=v, R10=R10, r_E=r_E, v_E=v_E, G=G,
                 ext=ext)
        if self.p.programmed:
            bias = R_E0 @ (Pdo[3:] @ kin.nu + cross(tE[:3], tE[3:]))  # E's acceleration when nu' = 0
            d.grad, d.Phi, d.A, d.gamma = path_rows(self.p, self.programme(t), r_E, v_E, G, bias)
        return d

    def _tip_wrenches(self, kin, R10, F0) -> np.ndarray:
        """The force ``F0`` (Frame 0) at E as the applied wrench of each body
        at its COG in its frame: on the jib ``[(E - c) x f; f]``, ``f`` in
        its frame; none on the others."""
        n = self.chain.n
        ext = np.zeros((n, 6))
        f = kin.R[n - 1].T @ (R10.T @ F0)
        ext[n - 1] = np.concatenate([cross(self.chain.markers[0].offset - self.chain.bodies[n - 1].com, f), f])
        return ext

    def derivatives(self, t, x, u):
        dx = self._compiled("derivatives", t, x, u)
        if dx is not None:
            return dx
        d = self._dynamics(t, x, u)
        du = constrained_accelerations(d.M, d.f, d.tb_dot, d.A, d.gamma)[0]
        return np.concatenate([x[self.chain.n:], du])

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        if y is not None:
            return y
        d = self._dynamics(t, x, u)
        n = self.chain.n
        kin = d.kin
        du, lam, W1, I_A, p_A = constrained_mount_split(d.M, d.f, d.tb_dot, d.w, d.v, d.A, d.gamma)
        W2 = Rbar(kin.R[0].T) @ W1
        nudot = np.concatenate([d.tb_dot, du])
        g_base = d.R10.T @ self._g0
        external = d.ext
        F_E = np.zeros(3)
        tau_prog = np.zeros(3)
        path = np.zeros(3)
        if d.A is not None:
            F_E = d.grad.T @ lam
            tau_prog = (d.A[:, 6:].T @ lam)[self.joint_index]
            # the guide's force on the jib at E, beside the tip load
            external = external + self._tip_wrenches(kin, d.R10, F_E)
            path = np.array([d.Phi[0] / math.hypot(*d.grad[0, :2]), d.Phi[1], self.programme(t)[0]])
        W_joints = constraint_wrenches(self.chain, kin, nudot, g_base, (1, n - 1), external)
        j = self.joint_index
        tip, springs = self.deflections(kin)
        return np.concatenate([x[j], x[n + j], du[j], tip, d.r_E, d.v_E, W1, W2, sym6_pack(I_A), p_A,
                               W_joints.ravel(), path, F_E, tau_prog, springs.ravel()])

    def deflections(self, kin) -> tuple[np.ndarray, np.ndarray]:
        """``(tip, springs)`` [m]: the boom tip's displacement from a rigid
        boom's (3) and each spring element's joint's (``MAX_RFE - 1``, 3;
        zero rows past the boom's ``n_rfe - 1``), boom-root axes."""
        d = boom_deflections(kin, self.chain, self.p.l_boom, self.n_rfe)
        springs = np.zeros((MAX_RFE - 1, 3))
        springs[:self.n_rfe - 1] = d[:-1]
        return d[-1], springs

    # -- energy, for the checks ---------------------------------------------------------
    def energy(self, x, inp) -> tuple[float, float, float]:
        """``(kinetic, gravity, spring)`` energy of the crane [J] at state ``x``
        with the mount's motion and position ``inp`` (the first 24 inputs):
        kinetic from the bodies' twists, gravity ``m g z`` in Frame 0, the
        boom's springs ``1/2 s q^2`` (eq. 16, E_p,fl)."""
        n = self.chain.n
        R10, w, _, v, _ = mount_motion_from_inputs(inp)
        kin = with_base_twist(self._state_terms(x)[0], np.concatenate([w, v]))
        cog = kin.p + np.einsum("kab,kb->ka", kin.R, np.array([b.com for b in self.chain.bodies]))
        z0 = inp[23] + cog @ R10[2]
        gravity = float(self.p.g * self.chain._mass @ z0)
        return kinetic_energy(self.chain, kin), gravity, 0.5 * float(self.stiffness @ x[:n] ** 2)

    def holding_wrench(self, x, R10=np.eye(3)) -> np.ndarray:
        """The wrench ``[n; f]`` [N m, N] the mount must exert on the column
        to hold the crane still at the coordinates of ``x`` against gravity
        (its weight, and the weight's moment about the mount), Frame 1 with
        orientation ``R10`` in Frame 0: what a base carries at rest."""
        n = self.chain.n
        kin = kinematics(self.chain, x[:n], np.zeros(n))
        return -applied_forces(self.chain, kin, R10.T @ self._g0)[:6]


class _Dyn:
    """The quantities of :meth:`FlexibleCrane._dynamics`."""
    __slots__ = ("kin", "M", "f", "tb_dot", "w", "v", "R10", "r_E", "v_E", "G", "ext", "grad", "Phi", "A", "gamma")

    def __init__(self, **kw):
        self.grad = self.Phi = self.A = self.gamma = None
        for k, v in kw.items():
            setattr(self, k, v)
