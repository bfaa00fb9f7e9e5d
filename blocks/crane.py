"""Torque-driven three-link crane of 000_4c348684ef4bc307.txt, Section III:
king (body 2), inner boom (body 3) and outer boom (body 4) on a mount whose
motion is an input, with the wrench the mount exerts on the king and the
crane's articulated inertia at the mount as outputs.

Geometry (eqs. (54)-(56), (60), Table I): Frame 2 (king) turns about z2 at the
mount by q4; Frame 3 sits at ``[0, 0, l2]`` in Frame 2 with
``R_3^2 = Rz(pi/2) Rx(pi/2) Rz(q5)``; Frame 4 sits at ``[l3, 0, 0]`` in Frame 3
with ``R_4^3 = Rz(q6)``.  The COGs are at ``[0, 0, d2]``, ``[d3, 0, 0]``,
``[d4, 0, 0]`` in their frames; the booms point along their x axes, so at
``q = 0`` both booms are horizontal along y2 and positive q5, q6 raise them.
Inertias per eq. (73).

Assumption: Table I has no l4; the outer boom is taken as long as the inner
one, ``l4 = 2 m`` (with d4 = 1 m its COG is at mid-length).  l4 enters only
the outer boom's inertia.  Gravity acts along -z0.
"""
from __future__ import annotations

import numpy as np

from .block import Block, ParameterError, Variable, sym6_pack
from .interface import (MOUNT_INERTIA, MOUNT_MOTION, base_twist_rate, mount_motion_from_inputs, mount_split,
                        wrench_ports)
from .kane import Body, Chain, Joint, applied_forces, kinematics, mass_matrix, with_base_twist
from .linalg import solve
from .screw import Rbar, rot_x, rot_z

_P = Variable
JOINTS = (4, 5, 6)


class Crane(Block):
    model_name = "Crane"
    method = "symplectic-euler"
    description = ("Torque-driven king + inner boom + outer boom crane on a moving mount "
                   "(Cibicik & Egeland 2018); outputs the mount wrench and the "
                   "articulated inertia I_A and bias wrench p_A at the mount.")
    parameters = (
        _P("l2", "m", 2.0, "King height: mount to inner-boom joint (Table I)"),
        _P("l3", "m", 2.0, "Inner boom length: joint 5 to joint 6 (Table I)"),
        _P("l4", "m", 2.0, "Outer boom length, for its inertia only (not in Table I: taken = l3)"),
        _P("d2", "m", 1.0, "King COG height above the mount (Table I)"),
        _P("d3", "m", 1.0, "Inner boom COG distance from joint 5 (Table I)"),
        _P("d4", "m", 1.0, "Outer boom COG distance from joint 6 (Table I)"),
        _P("m2", "kg", 30.0, "King mass (Table I)"),
        _P("m3", "kg", 30.0, "Inner boom mass (Table I)"),
        _P("m4", "kg", 30.0, "Outer boom mass (Table I)"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (symplectic Euler; smaller is more accurate and slower)"),
        _P("q4_0", "rad", 0.0, "Initial slew angle"),
        _P("q5_0", "rad", 0.0, "Initial inner boom angle"),
        _P("q6_0", "rad", 0.0, "Initial outer boom angle"),
        _P("u4_0", "rad/s", 0.0, "Initial slew rate"),
        _P("u5_0", "rad/s", 0.0, "Initial inner boom rate"),
        _P("u6_0", "rad/s", 0.0, "Initial outer boom rate"),
    )
    inputs = MOUNT_MOTION + tuple(
        _P(f"tau{j}", "N.m", 0.0, f"Actuator torque of joint {j}") for j in JOINTS)
    outputs = (
        tuple(_P(f"q{j}", "rad", 0.0, f"Joint angle q{j}") for j in JOINTS)
        + tuple(_P(f"u{j}", "rad/s", 0.0, f"Joint rate u{j}") for j in JOINTS)
        + tuple(_P(f"du{j}", "rad/s2", 0.0, f"Joint acceleration du{j}/dt") for j in JOINTS)
        + wrench_ports("W1", "Wrench of the vessel on the king at the mount (origin of Frame 2), Frame-1 coordinates")
        + wrench_ports("W2", "Wrench of the vessel on the king at the mount (origin of Frame 2), Frame-2 coordinates")
        + MOUNT_INERTIA
    )
    states = (tuple(_P(f"q{j}", "rad", 0.0, f"angle q{j}") for j in JOINTS)
              + tuple(_P(f"u{j}", "rad/s", 0.0, f"rate u{j}") for j in JOINTS))

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("l2", "l3", "l4", "m2", "m3", "m4")
        self.require_positive("d2", "d3", "d4", allow_zero=True)
        if p.g < 0:
            raise ParameterError(f"Crane parameter g = {p.g:g} m/s2 is invalid: it must be zero or positive")
        self.chain = crane_chain(p)
        self._g0 = np.array([0.0, 0.0, -p.g])
        self._cache_key = None

    def initial_state(self):
        p = self.p
        return np.array([p.q4_0, p.q5_0, p.q6_0, p.u4_0, p.u5_0, p.u6_0])

    def _dynamics(self, x, inp):
        """Kane's equations split into base rows (b) and joint rows (j):
        ``M_bb tb' + M_bj u' + h_b - G_b = W`` and ``M_jb tb' + M_jj u' + h_j - G_j = tau``."""
        R10, w, dw, v, a = mount_motion_from_inputs(inp)
        tau = inp[21:24]
        kin, M = self._state_terms(x)
        kin = with_base_twist(kin, np.concatenate([w, v]))
        f = applied_forces(self.chain, kin, R10.T @ self._g0)
        f[6:] += tau
        return kin, M, f, tau, base_twist_rate(w, dw, v, a), w, v

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
        _, M, f, tau, tb_dot, _, _ = self._dynamics(x, u)
        du = solve(M[6:, 6:], f[6:] - M[6:, :6] @ tb_dot)
        return np.concatenate([x[3:], du])

    def output(self, t, x, u):
        kin, M, f, tau, tb_dot, w, v = self._dynamics(x, u)
        du, W1, I_A, p_A = mount_split(M, f, tb_dot, w, v)
        W2 = Rbar(kin.R[0].T) @ W1
        return np.concatenate([x, du, W1, W2, sym6_pack(I_A), p_A])


def crane_chain(p) -> Chain:
    """The king/inner boom/outer boom chain of eqs. (54)-(56) and (73) from a
    parameter namespace with l2..l4, d2..d4, m2..m4 [m, kg]."""
    return Chain(
        joints=[Joint(),
                Joint(offset=[0.0, 0.0, p.l2], rotation=rot_z(np.pi / 2) @ rot_x(np.pi / 2)),
                Joint(offset=[p.l3, 0.0, 0.0])],
        bodies=[Body(p.m2, [0.0, 0.0, p.d2], np.diag([1.0, 1.0, 0.1]) * p.m2 * p.l2**2 / 12),
                Body(p.m3, [p.d3, 0.0, 0.0], np.diag([0.0, 1.0, 1.0]) * p.m3 * p.l3**2 / 12),
                Body(p.m4, [p.d4, 0.0, 0.0], np.diag([0.0, 1.0, 1.0]) * p.m4 * p.l4**2 / 12)],
    )
