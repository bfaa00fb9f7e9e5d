"""Vessel of 000_4c348684ef4bc307.txt, Section III: a rigid body turning about
a fixed point (the origin of Frame 0) in roll q1, pitch q2 and yaw q3 with
``R_1^0 = Rz(q3) Ry(q2) Rx(q1)`` (eq. (53)), held by cubic rotational springs
``T_i = -k_i q_i^3`` (Section III-D), optional linear damping, and loaded at
the mount by the crane standing on it.

Assumptions the paper leaves open, fixed here:

* The springs' torques ``T_i`` are generalized forces on the angles q_i (the
  paper calls them torques "in roll, pitch and yaw directions").
* The vessel's own weight does not act by default (``gravity_on = false``):
  buoyancy balances it and the springs are the net restoring model.  With a
  COG above the rotation point the weight alone would capsize the vessel.
* Table I gives the vessel mass m1 = 1.2 t and eq. (73) the inertia
  ``m1 l1^2 / 12`` about each axis; the block takes radii of gyration
  (default ``l1 / sqrt(12)``) so the inertia scales with the mass.
* d1 = 2.5 m of Table I is taken as the height of the vessel COG above the
  rotation point (the figure with the geometry is lost); l1 = 5 m is the
  height of the mount above it (``p_21^1 = [0, 0, -l1]``, eq. (60)).

Coupling at the mount (``docs/interfaces/mount.md``): the wrench the vessel
exerts on the crane is ``W = I_A [dw; a] + p_A`` (Frame 1, at the mount),
``I_A`` and ``p_A`` being inputs.  The vessel receives ``-W`` and solves its
acceleration with ``I_A`` implicitly: ``(M + J^T I_A J) du/dt = ...``, the
way the articulated-body algorithm joins a subtree.  With ``I_A = 0`` and
``p_A = W`` this is the plain explicit exchange of wrench and motion.
"""
from __future__ import annotations

import math

import numpy as np

from .block import Block, ParameterError, Variable, sym6_unpack
from .interface import MOUNT_INERTIA, MOUNT_MOTION
from .kane import Body, Chain, Joint, Marker
from .linalg import solve
from .screw import cross

_P = Variable
_R = np.sqrt(12.0)


class Vessel(Block):
    model_name = "Vessel"
    method = "symplectic-euler"
    description = ("Vessel rotating about a fixed point with cubic restoring springs "
                   "(Cibicik & Egeland 2018, Section III); crane load at the mount via "
                   "articulated inertia I_A and bias wrench p_A.")
    parameters = (
        _P("m1", "kg", 1200.0, "Vessel mass (Table I: 1.2 t)"),
        _P("l1", "m", 5.0, "Height of the mount (crane slewing joint) above the rotation point (Table I)"),
        _P("cog_x", "m", 0.0, "Vessel COG in Frame 1, x"),
        _P("cog_y", "m", 0.0, "Vessel COG in Frame 1, y"),
        _P("cog_z", "m", 2.5, "Vessel COG in Frame 1, z (Table I d1)"),
        _P("r_x", "m", 5.0 / _R, "Radius of gyration about the COG, x1 axis (eq. (73): l1/sqrt(12))"),
        _P("r_y", "m", 5.0 / _R, "Radius of gyration about the COG, y1 axis (eq. (73): l1/sqrt(12))"),
        _P("r_z", "m", 5.0 / _R, "Radius of gyration about the COG, z1 axis (eq. (73): l1/sqrt(12))"),
        _P("k1", "N.m/rad3", 8e7, "Cubic roll spring, T1 = -k1 q1^3"),
        _P("k2", "N.m/rad3", 8e7, "Cubic pitch spring, T2 = -k2 q2^3"),
        _P("k3", "N.m/rad3", 8e7, "Cubic yaw spring, T3 = -k3 q3^3"),
        _P("c1", "N.m.s/rad", 0.0, "Linear roll damping, -c1 u1"),
        _P("c2", "N.m.s/rad", 0.0, "Linear pitch damping, -c2 u2"),
        _P("c3", "N.m.s/rad", 0.0, "Linear yaw damping, -c3 u3"),
        _P("gravity_on", "1", False, "Whether the vessel's own weight acts (default no: buoyancy balances it)", "Boolean"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (symplectic Euler; smaller is more accurate and slower)"),
        _P("q1_0", "rad", 0.0, "Initial roll"),
        _P("q2_0", "rad", 0.0, "Initial pitch"),
        _P("q3_0", "rad", 0.0, "Initial yaw"),
        _P("u1_0", "rad/s", 0.0, "Initial roll rate"),
        _P("u2_0", "rad/s", 0.0, "Initial pitch rate"),
        _P("u3_0", "rad/s", 0.0, "Initial yaw rate"),
    )
    inputs = MOUNT_INERTIA
    outputs = (
        tuple(_P(f"q{i}", "rad", 0.0, f"Vessel {n} angle q{i}") for i, n in ((1, "roll"), (2, "pitch"), (3, "yaw")))
        + tuple(_P(f"u{i}", "rad/s", 0.0, f"Vessel {n} rate u{i} = dq{i}/dt") for i, n in ((1, "roll"), (2, "pitch"), (3, "yaw")))
        + tuple(_P(f"du{i}", "rad/s2", 0.0, f"Vessel {n} acceleration du{i}/dt") for i, n in ((1, "roll"), (2, "pitch"), (3, "yaw")))
        + MOUNT_MOTION
    )
    states = (
        tuple(_P(f"q{i}", "rad", 0.0, f"angle q{i}") for i in (1, 2, 3))
        + tuple(_P(f"u{i}", "rad/s", 0.0, f"rate u{i}") for i in (1, 2, 3))
    )

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("m1", "l1", "r_x", "r_y", "r_z")
        self.require_positive("k1", "k2", "k3", "c1", "c2", "c3", allow_zero=True)
        if p.g < 0:
            raise ParameterError(f"Vessel parameter g = {p.g:g} m/s2 is invalid: it must be zero or positive")
        inertia = p.m1 * np.diag([p.r_x**2, p.r_y**2, p.r_z**2])
        # R_1^0 = Rz(q3) Ry(q2) Rx(q1): a gimbal of yaw, pitch and roll joints
        # with two massless bodies; the chain coordinates are (q3, q2, q1).
        # The block steps in closed form (_state_terms); the chain is the
        # same vessel in the multibody machinery, its reference in the tests.
        self.chain = Chain(
            joints=[Joint(axis=[0, 0, 1]), Joint(axis=[0, 1, 0]), Joint(axis=[1, 0, 0])],
            bodies=[Body(0.0), Body(0.0), Body(p.m1, [p.cog_x, p.cog_y, p.cog_z], inertia)],
            markers=[Marker(2, [0.0, 0.0, p.l1])],
        )
        self.k = np.array([p.k1, p.k2, p.k3])
        self.c = np.array([p.c1, p.c2, p.c3])
        self.g0 = np.array([0.0, 0.0, -p.g if p.gravity_on else 0.0])
        self._com = np.array([p.cog_x, p.cog_y, p.cog_z])
        self._r_m = np.array([0.0, 0.0, p.l1])
        self._m_g = p.m1 * self.g0  # weight in Frame 0; @ R gives it in Frame 1
        self._I_O = inertia + p.m1 * (self._com @ self._com * np.eye(3) - np.outer(self._com, self._com))
        self._cache_key = None

    def initial_state(self):
        p = self.p
        return np.array([p.q1_0, p.q2_0, p.q3_0, p.u1_0, p.u2_0, p.u3_0])

    def _state_terms(self, x):
        """Everything that depends on the state only, cached: the outputs at the
        end of a step and the first derivative of the next share it.

        Closed form for the one body turning about O (the hot path of every
        step; ``tests/blocks/test_vessel.py`` checks it against Kane's
        equations of :attr:`chain`): body angular velocity ``w = E(q) u``,
        ``E = [x, Rx^T y, Rx^T Ry^T z]``, angular acceleration
        ``E du + (dE/dt) u``; ``E^T (I_O dw/dt + w x I_O w - n_O) = T``
        with ``I_O`` the inertia about O and ``n_O`` the moment of gravity
        about O.  Returns ``(R, M, tau, J, t_m, bias_acc)``: orientation,
        mass matrix and applied generalized forces less velocity terms over
        ``u``, the mount's Jacobian, twist and acceleration bias (Frame 1)."""
        key = x.tobytes()
        if self._cache_key != key:
            q1, q2, q3, u1, u2, u3 = x.tolist()
            c1, s1, c2, s2, c3, s3 = (math.cos(q1), math.sin(q1), math.cos(q2), math.sin(q2),
                                      math.cos(q3), math.sin(q3))
            R = np.array([[c3 * c2, c3 * s2 * s1 - s3 * c1, c3 * s2 * c1 + s3 * s1],
                          [s3 * c2, s3 * s2 * s1 + c3 * c1, s3 * s2 * c1 - c3 * s1],
                          [-s2, c2 * s1, c2 * c1]])
            E = np.array([[1.0, 0.0, -s2], [0.0, c1, s1 * c2], [0.0, -s1, c1 * c2]])
            w = E @ x[3:]
            # (dE/dt) u = u1 (dE/dq1) u + u2 (dE/dq2) u
            dw_bias = np.array([-u2 * c2 * u3,
                                u1 * (-s1 * u2 + c1 * c2 * u3) - u2 * s1 * s2 * u3,
                                u1 * (-c1 * u2 - s1 * c2 * u3) - u2 * c1 * s2 * u3])
            I_O = self._I_O
            n_O = cross(self._com, self._m_g @ R) - cross(w, I_O @ w) - I_O @ dw_bias
            M = E.T @ I_O @ E
            tau = E.T @ n_O - self.k * x[:3] ** 3 - self.c * x[3:]
            l1 = self.p.l1
            J = np.empty((6, 3))  # [dw; a] = J du + bias_acc, a = dw x r_m + ...
            J[:3] = E
            J[3] = l1 * E[1]
            J[4] = -l1 * E[0]
            J[5] = 0.0
            v = cross(w, self._r_m)
            t_m = np.concatenate([w, v])
            bias_acc = np.concatenate([dw_bias, cross(dw_bias, self._r_m) + cross(w, v)])
            self._cache = (R, M, tau, J, t_m, bias_acc)
            self._cache_key = key
        return self._cache

    def _solve(self, x, inp):
        """State terms and the accelerations ``du/dt`` for state ``x`` and
        inputs ``inp``: ``(M + J^T I_A J) du = tau - J^T (I_A bias + p_A)``."""
        R, M, tau, J, t_m, bias_acc = self._state_terms(x)
        I_A = sym6_unpack(inp[:21])
        p_A = inp[21:27]
        A = M + J.T @ I_A @ J
        b = tau - J.T @ (I_A @ bias_acc + p_A)
        return R, J, t_m, bias_acc, solve(A, b)

    def derivatives(self, t, x, u):
        return np.concatenate([x[3:], self._solve(x, u)[4]])

    def output(self, t, x, u):
        R, J, t_m, bias_acc, du = self._solve(x, u)
        acc = J @ du + bias_acc  # [dw; a] of the mount
        return np.concatenate([x, du, R.ravel(), t_m[:3], acc[:3], t_m[3:], acc[3:]])
