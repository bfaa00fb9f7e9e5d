"""A payload that is a rigid body, hanging from its lift point on the
elastic hoist wire of ``Payload`` (``blocks/payload.py``): the same wire,
tag lines and air, the same ports, and the body's rotation besides.

The body's centre of gravity moves as the point mass of ``Payload`` does
(state ``r = p - p_tip``, its position relative to the tip in Frame-0 axes,
and ``v`` its velocity in Frame 0); its orientation is the unit quaternion
``q = (q_w, q_x, q_y, q_z)`` of ``R_b^0`` (the body's axes in Frame 0; at
the start the body hangs level, ``R = I``), its angular velocity ``w`` in
the body's axes.  The wire ends at the lift point (the hook, where the
slings meet), ``h_hook`` [m] above the centre of gravity along the body's
z axis: ``d = r + R c``, ``c = (0, 0, h_hook)``; with ``e = d / |d|`` and the
stretch ``s = |d| - L`` the tension is ``Payload``'s,

    T = max(0, EA / L (s + beta ds/dt)) where s > 0, else 0,
    ds/dt = e . (v + R (w x c) - v_tip) - dL/dt,

and the body's equations (Newton-Euler about the centre of gravity):

    m dv/dt = m g - T e + F_tag + F_air,
    I dw/dt = c x (-T R^T e) - w x I w,
    dq/dt = q (x) (0, w) / 2 + k (1 - |q|^2) q,

``I = diag(I_xx, I_yy, I_zz)`` the principal inertia about the centre of
gravity (the body's axes its principal axes; an assumption written here:
a lifted module's rigging is arranged so), the tag lines and the air at
the centre of gravity (``Payload``'s; they take no rotation), and ``k = 0.2 /
max_step`` pulling the quaternion back to unit length as the
integrator's error lets it wander (Baumgarte 1972).  The wire
pulls the tip with ``F_tip = T e``.  The run starts with the body hanging
level at rest below the tip, the lift point ``l_wire_0 + m g / k`` below it.
With ``h_hook = 0`` the rotation is free and the centre of gravity moves
as ``Payload``'s point mass, to round-off (tested).
"""
from __future__ import annotations

import math

import numpy as np

from .block import Variable, vector
from .payload import Payload

_P = Variable

__all__ = ["RigidPayload"]


def rotation(q) -> np.ndarray:
    """The rotation matrix of the quaternion ``q = (w, x, y, z)``, normalised."""
    w, x, y, z = np.asarray(q) / math.sqrt(float(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2))
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _turned(R, a) -> np.ndarray:
    """``R a`` summed in a fixed order (not a BLAS product, whose order its
    build picks: the same bits on every platform)."""
    return np.array([R[i, 0] * a[0] + R[i, 1] * a[1] + R[i, 2] * a[2] for i in range(3)])


def _quaternion_rate(q, w) -> np.ndarray:
    """``q (x) (0, w) / 2``: the rate of ``q`` for the angular velocity ``w``
    in the body's axes."""
    qw, qx, qy, qz = q
    return 0.5 * np.array([-qx * w[0] - qy * w[1] - qz * w[2],
                           qw * w[0] + qy * w[2] - qz * w[1],
                           qw * w[1] + qz * w[0] - qx * w[2],
                           qw * w[2] + qx * w[1] - qy * w[0]])


class RigidPayload(Payload):
    model_name = "RigidPayload"
    description = ("A payload that is a rigid body on the elastic hoist wire of Payload, hanging from its lift "
                   "point above its centre of gravity: it swings and rocks, tag lines damp its swing.")
    reference = ("The payload Cibicik & Egeland (2019) leave out, as a rigid body: Payload's wire, tag lines and "
                 "air; its rotation by the Newton-Euler equations about its centre of gravity, the orientation a "
                 "unit quaternion kept unit by Baumgarte's (1972) stabilisation.")
    validation = ("At rest the hook load is m g; small swings in a plane have the two frequencies of the "
                  "compound double pendulum (wire and body) to 1e-6; undamped its energy is kept, slack and "
                  "taut; with the lift point at the centre of gravity it moves as Payload's point mass, to "
                  "round-off.")
    parameters = Payload.parameters + (
        _P("I_xx", "kg.m2", 2.0e4, "Principal moment of inertia about the body's x axis, through the centre of "
                                   "gravity (default: 10 t, a box 4 m x 4 m x 2 m: m (b^2 + h^2) / 12)"),
        _P("I_yy", "kg.m2", 2.0e4, "Principal moment of inertia about the body's y axis"),
        _P("I_zz", "kg.m2", 2.67e4, "Principal moment of inertia about the body's z axis (vertical at rest)"),
        _P("h_hook", "m", 3.0, "Height of the lift point (the hook, where the slings meet) above the centre of "
                               "gravity, along the body's z axis (default 3 m: slings of 3.6 m to the corners of "
                               "the 4 m box's top, 1 m above its centre of gravity, at 60 degrees)"),
    )
    # the Boolean ``slack`` last, after every Real (the compiled master step exchanges them so)
    outputs = Payload.outputs[:-1] + tuple(
        Variable(f"payload_R_{i}{j}", "1", float(i == j),
                 f"Orientation of the payload's axes in Frame 0, row {i} column {j}")
        for i in (1, 2, 3) for j in (1, 2, 3)) + vector("payload_w", "rad/s",
                                                        "Angular velocity of the payload, its own axes, {c}") \
        + Payload.outputs[-1:]
    states = (Payload.states + vector("q", "1", "Orientation quaternion of the payload, {c}", "wxyz",
                                      (1.0, 0.0, 0.0, 0.0))
              + vector("w", "rad/s", "Angular velocity of the payload, its own axes, {c}"))
    feedthrough = Payload.feedthrough[:-1] + (("payload_R_*", ()), ("payload_w_*", ())) + Payload.feedthrough[-1:]
    reference_experiment = {"tip_v_x": 0.5}

    def setup(self):
        super().setup()
        self.require_positive("I_xx", "I_yy", "I_zz")
        self.require_positive("h_hook", allow_zero=True)
        p = self.p
        self.inertia = np.array([p.I_xx, p.I_yy, p.I_zz])
        self.hook = np.array([0.0, 0.0, p.h_hook])

    def initial_state(self):
        p = self.p
        hang = p.l_wire_0 + p.m_payload * p.g / self.stiffness(p.l_wire_0)
        return np.array([0.0, 0.0, -hang - p.h_hook, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def _wire(self, x, u):
        """``(T, e, R, arm)``: the tension [N], its direction from the tip to
        the lift point (Frame 0), the orientation and the lift point from
        the centre of gravity (Frame 0)."""
        R = rotation(x[6:10])
        arm = self.p.h_hook * R[:, 2]
        T, e = self._pull(x[:3] + arm, x[3:6] + _turned(R, np.cross(x[10:13], self.hook)), u)
        return T, e, R, arm

    def tension(self, x, u) -> tuple[float, np.ndarray]:
        T, e, _, _ = self._wire(x, u)
        return T, e

    def derivatives(self, t, x, u):
        T, e, R, _ = self._wire(x, u)
        m, q, w = self.p.m_payload, x[6:10], x[10:13]
        dv = self.gravity + (self.damping(x, u) - T * e) / m
        moment = np.cross(self.hook, _turned(R.T, -T * e))
        dw = (moment - np.cross(w, self.inertia * w)) / self.inertia
        dq = _quaternion_rate(q, w) + 0.2 * (1.0 - self._dot4(q)) / self.max_step * q
        return np.concatenate([x[3:6] - u[3:6], dv, dq, dw])

    @staticmethod
    def _dot4(q) -> float:
        return float(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])

    def output(self, t, x, u):
        T, e, R, arm = self._wire(x, u)
        slack = float(math.sqrt(self._dot(x[:3] + arm, x[:3] + arm)) <= u[6])
        return np.concatenate([T * e, [T], u[:3] + x[:3], x[3:6], [math.hypot(x[0], x[1])], R.ravel(), x[10:13],
                               [slack]])

    def energy(self, x, u) -> tuple[float, float, float]:
        """``(kinetic, gravity, elastic)`` energy [J] at state ``x``: the
        body's translation and rotation, ``m g z`` of its centre of gravity
        about the tip's height, and the wire's ``k s^2 / 2`` while taut."""
        m, r, v, w = self.p.m_payload, x[:3], x[3:6], x[10:13]
        d = r + self.p.h_hook * rotation(x[6:10])[:, 2]
        s = math.sqrt(self._dot(d, d)) - u[6]
        kinetic = 0.5 * m * float(v @ v) + 0.5 * float(w @ (self.inertia * w))
        return kinetic, m * self.p.g * float(r[2]), 0.5 * self.stiffness(u[6]) * max(s, 0.0) ** 2
