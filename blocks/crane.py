"""Torque-driven three-link crane of Cibicik & Egeland (2018), Section III:
king (body 2), inner boom (body 3, the *boom*) and outer boom (body 4, the
*jib*) on a mount whose motion is an input, with the wrench the mount exerts
on the king and the crane's articulated inertia at the mount as outputs,
and the reactions in its boom and jib joints (Joints 5 and 6).  Each joint
takes a friction torque (``tau_f_*``, e.g. from a ``JointFriction`` block)
beside its actuator torque, so that the two stay apart in the results.

Names (``docs/names.md``): the paper's joint coordinates q4, q5, q6 are the
ports ``q_slew``, ``q_boom``, ``q_jib``; its Table I symbols l2..l4, d2..d4,
m2..m4 are ``l_king``/``l_boom``/``l_jib``, ``d_*`` and ``m_*``.

Geometry (eqs. (54)-(56), (60), Table I): Frame 2 (king) turns about z2 at the
mount by q4; Frame 3 sits at ``[0, 0, l2]`` in Frame 2 with
``R_3^2 = Rz(pi/2) Rx(pi/2) Rz(q5)``; Frame 4 sits at ``[l3, 0, 0]`` in Frame 3
with ``R_4^3 = Rz(q6)``.  The COGs are at ``[0, 0, d2]``, ``[d3, 0, 0]``,
``[d4, 0, 0]`` in their frames; the booms point along their x axes, so at
``q = 0`` both booms are horizontal along y2 and positive q5, q6 raise them.
Inertias per eq. (73).

Assumption: Table I has no l4; the outer boom is taken as long as the inner
one, ``l4 = 2 m`` (with d4 = 1 m its COG is at mid-length).  l4 enters the
outer boom's inertia and places its tip, ``[l4, 0, 0]`` in Frame 4, where a
hoist wire pulls with the force ``F_tip`` (Frame 0; the paper has no load:
an applied force on body 4 beside gravity, in eq. (32) and in the
reactions' eq. (44)).  Gravity acts along -z0.

The hot path (the accelerations and the outputs at one state) is also
compiled by numba: the same Kane's equations written out for this chain,
beside the general numpy code, its reference, which runs without numba or
with ``prepare(numba=False)``.
"""
from __future__ import annotations

import numpy as np

from .block import ParameterError, Variable, sym6_pack
from .compiled_block import CompiledBlock
from .crane_drawing import skeleton as _skeleton
from .interface import (MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION, TIP_FEEDTHROUGH, TIP_LOAD, TIP_MOTION,
                        base_twist_rate, crane_feedthrough, mount_motion_from_inputs, mount_split, wrench_ports)
from .kane import (Body, Chain, Joint, applied_forces, constraint_wrenches, kinematics, mass_matrix, project_wrenches,
                   with_base_twist)
from .linalg import solve
from .screw import Rbar, rot_x, rot_z

_P = Variable
#: the crane's joints, and the paper's number of each coordinate (q4, q5, q6)
JOINTS = ("slew", "boom", "jib")
PAPER_INDEX = {"slew": 4, "boom": 5, "jib": 6}


class Crane(CompiledBlock):
    model_name = "Crane"
    symbols_of = "Cibicik & Egeland 2018"
    kernel_module = "crane_kernels"
    draws = "crane"
    #: :meth:`Block.skeleton`, drawn by ``crane_drawing.py``
    skeleton = _skeleton
    plain_kernels = True
    compile_name = "the torque-driven crane"
    compile_time = "10 to 30 s"
    numpy_slowdown = "about 17 times slower"
    method = "rk4"
    description = ("Torque-driven king + inner boom + outer boom crane on a moving mount "
                   "(Cibicik & Egeland 2018); outputs the mount wrench and the "
                   "articulated inertia I_A and bias wrench p_A at the mount.")
    reference = ("The torque-driven king, inner boom and outer boom of Cibicik & Egeland (2018), Section III: "
                 "Kane's equations with projection matrices (eqs. (29)-(38)), geometry of eqs. (54)-(56) and "
                 "(60), inertias of eq. (73), Table I; the mount and joint wrenches by auxiliary generalized "
                 "speeds (eqs. (39)-(50)).")
    validation = ("Its mount and joint reaction wrenches, with a force at the tip, equal an independent recursive "
                  "Newton-Euler computation to 1e-9 of their scale, with W_mount = I_A [dw; a] + p_A. Free on a "
                  "fixed mount it keeps T + V to 1e-8 of m g l over 3 s; at rest with level booms the mount "
                  "carries 882.9 N and 1177.2 N m, the paper's rho_1..rho_5 of eqs. (64)-(72), to 1e-9, and with "
                  "a payload at the tip the weights and moments of a hand computation to round-off; the tip's "
                  "velocity is its position's rate, and the tip force's generalized forces deliver its power.")
    parameters = (
        _P("l_king", "m", 2.0, "King height l2: mount to the boom joint (Table I)"),
        _P("l_boom", "m", 2.0, "Boom (inner boom) length l3: boom joint to jib joint (Table I)"),
        _P("l_jib", "m", 2.0, "Jib (outer boom) length l4, for its inertia only (not in Table I: taken = l3)"),
        _P("d_king", "m", 1.0, "King COG height d2 above the mount (Table I)"),
        _P("d_boom", "m", 1.0, "Boom COG distance d3 from the boom joint (Table I)"),
        _P("d_jib", "m", 1.0, "Jib COG distance d4 from the jib joint (Table I)"),
        _P("m_king", "kg", 30.0, "King mass m2 (Table I)"),
        _P("m_boom", "kg", 30.0, "Boom (inner boom) mass m3 (Table I)"),
        _P("m_jib", "kg", 30.0, "Jib (outer boom) mass m4 (Table I)"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (classic Runge-Kutta, fourth order; default 1e-3 s)"),
        _P("q_slew_0", "rad", 0.0, "Initial slew angle"),
        _P("q_boom_0", "rad", 0.0, "Initial boom angle"),
        _P("q_jib_0", "rad", 0.0, "Initial jib angle"),
        _P("u_slew_0", "rad/s", 0.0, "Initial slew rate"),
        _P("u_boom_0", "rad/s", 0.0, "Initial boom rate"),
        _P("u_jib_0", "rad/s", 0.0, "Initial jib rate"),
    )
    inputs = (MOUNT_MOTION
              + tuple(_P(f"tau_{j}", "N.m", 0.0, f"Actuator torque of the {j} joint (on q{PAPER_INDEX[j]})")
                      for j in JOINTS)
              + tuple(_P(f"tau_f_{j}", "N.m", 0.0, f"Friction torque in the {j} joint (on q{PAPER_INDEX[j]}), "
                                                   f"e.g. from a JointFriction block") for j in JOINTS)
              + TIP_LOAD + MOUNT_POSITION)
    outputs = (
        tuple(_P(f"q_{j}", "rad", 0.0, f"{j.capitalize()} angle (q{PAPER_INDEX[j]} of Cibicik & Egeland 2018)")
              for j in JOINTS)
        + tuple(_P(f"u_{j}", "rad/s", 0.0, f"{j.capitalize()} rate (u{PAPER_INDEX[j]})") for j in JOINTS)
        + tuple(_P(f"du_{j}", "rad/s2", 0.0, f"{j.capitalize()} acceleration") for j in JOINTS)
        + wrench_ports("W_mount", "Wrench of the vessel on the king at the mount (origin of Frame 2), "
                                  "mount (vessel, Frame-1) axes", role="interface.wrench")
        + wrench_ports("W_king", "Wrench of the vessel on the king at the mount (origin of Frame 2), "
                                 "king (Frame-2) axes")
        + MOUNT_INERTIA
        + wrench_ports("W_boom", "Wrench of the king on the boom through the boom joint (Joint 5, origin of "
                                 "Frame 3), Frame-3 axes: pin reaction, and the actuator and friction torques "
                                 "about z3")
        + wrench_ports("W_jib", "Wrench of the boom on the jib through the jib joint (Joint 6, origin of "
                                "Frame 4), Frame-4 axes: pin reaction, and the actuator and friction torques "
                                "about z4")
        + TIP_MOTION
    )
    # The moment a joint passes about its axis is its actuator's and its
    # friction's torque; the jib, slender along its x axis (eq. 73), passes
    # none about that axis.
    feedthrough = crane_feedthrough(("tau_*",), tip_load=True, extra=TIP_FEEDTHROUGH + (
        ("W_boom_nz", ("tau_boom", "tau_f_boom")), ("W_jib_nz", ("tau_jib", "tau_f_jib")), ("W_jib_nx", ())))
    states = (tuple(_P(f"q_{j}", "rad", 0.0, f"{j} angle") for j in JOINTS)
              + tuple(_P(f"u_{j}", "rad/s", 0.0, f"{j} rate") for j in JOINTS))

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("l_king", "l_boom", "l_jib", "m_king", "m_boom", "m_jib")
        self.require_positive("d_king", "d_boom", "d_jib", allow_zero=True)
        if p.g < 0:
            raise ParameterError(f"Crane parameter g = {p.g:g} m/s2 is invalid: it must be zero or positive")
        self.chain = crane_chain(p)
        self._g0 = np.array([0.0, 0.0, -p.g])
        self._tip = np.array([p.l_jib, 0.0, 0.0])
        self._cache_key = None
        # the arguments of the compiled twin of derivatives() and output()
        ch = self.chain
        self._kernel_args = (ch._R0, ch._off0, np.array([b.com for b in ch.bodies]),
                             np.array([b.inertia for b in ch.bodies]), ch._mass, float(p.g), self._tip)

    def initial_state(self):
        p = self.p
        return np.array([p.q_slew_0, p.q_boom_0, p.q_jib_0, p.u_slew_0, p.u_boom_0, p.u_jib_0])

    def _dynamics(self, x, inp):
        """Kane's equations split into base rows (b) and joint rows (j):
        ``M_bb tb' + M_bj u' + h_b - G_b = W`` and ``M_jb tb' + M_jj u' + h_j - G_j = tau``."""
        R10, w, dw, v, a = mount_motion_from_inputs(inp)
        tau = inp[21:24] + inp[24:27]
        kin, M = self._state_terms(x)
        kin = with_base_twist(kin, np.concatenate([w, v]))
        f = applied_forces(self.chain, kin, R10.T @ self._g0)
        ext = self._tip_wrenches(kin, R10, inp[27:30])
        f += project_wrenches(kin.P, ext)
        f[6:] += tau
        return kin, M, f, ext, base_twist_rate(w, dw, v, a), w, v

    def _tip_wrenches(self, kin, R10, F0):
        """The tip force ``F0`` (Frame 0) as the applied wrench of each body
        at its COG in its frame: on the jib ``[(tip - c) x f; f]``, ``f`` in
        Frame 4; none on the others."""
        ext = np.zeros((3, 6))
        f = kin.R[2].T @ (R10.T @ F0)
        ext[2] = np.concatenate([np.cross(self._tip - self.chain.bodies[2].com, f), f])
        return ext

    def _state_terms(self, x):
        """Kinematics and mass matrix at state ``x``, cached: the outputs at the
        end of a step and the first derivative of the next share them."""
        key = x.tobytes()
        if self._cache_key != key:
            kin = kinematics(self.chain, x[:3], x[3:])
            self._cache = (kin, mass_matrix(self.chain, kin))
            self._cache_key = key
        return self._cache

    def derivatives(self, t, x, u):
        dx = self._compiled("derivatives", t, x, u)
        if dx is not None:
            return dx
        _, M, f, _, tb_dot, _, _ = self._dynamics(x, u)
        du = solve(M[6:, 6:], f[6:] - M[6:, :6] @ tb_dot)
        return np.concatenate([x[3:], du])

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        if y is not None:
            return y
        kin, M, f, ext, tb_dot, w, v = self._dynamics(x, u)
        du, W1, I_A, p_A = mount_split(M, f, tb_dot, w, v)
        W2 = Rbar(kin.R[0].T) @ W1
        # Joints 5 and 6 by auxiliary generalized speeds, eqs. (39)-(50), as
        # the mount wrench; the joint torques inside each subtree cancel
        nudot = np.concatenate([tb_dot, du])
        R10 = u[:9].reshape(3, 3)
        W_joints = constraint_wrenches(self.chain, kin, nudot, R10.T @ self._g0, (1, 2), external=ext)
        # the tip: the jib's origin twist [w; v] (Frame 4) carried to it, then Frame 1, then Frame 0
        w4, v4 = np.split(kin.Po[2] @ kin.nu, 2)
        tip_p = u[30:33] + R10 @ (kin.p[2] + kin.R[2] @ self._tip)
        tip_v = R10 @ (kin.R[2] @ (v4 + np.cross(w4, self._tip)))
        return np.concatenate([x, du, W1, W2, sym6_pack(I_A), p_A, W_joints.ravel(), tip_p, tip_v])


def crane_chain(p) -> Chain:
    """The king/boom/jib chain of eqs. (54)-(56) and (73) from a parameter
    namespace with the lengths ``l_*`` [m], COG distances ``d_*`` [m] and
    masses ``m_*`` [kg] of king, boom and jib."""
    return Chain(
        joints=[Joint(),
                Joint(offset=[0.0, 0.0, p.l_king], rotation=rot_z(np.pi / 2) @ rot_x(np.pi / 2)),
                Joint(offset=[p.l_boom, 0.0, 0.0])],
        bodies=[Body(p.m_king, [0.0, 0.0, p.d_king], np.diag([1.0, 1.0, 0.1]) * p.m_king * p.l_king**2 / 12),
                Body(p.m_boom, [p.d_boom, 0.0, 0.0], np.diag([0.0, 1.0, 1.0]) * p.m_boom * p.l_boom**2 / 12),
                Body(p.m_jib, [p.d_jib, 0.0, 0.0], np.diag([0.0, 1.0, 1.0]) * p.m_jib * p.l_jib**2 / 12)],
    )
