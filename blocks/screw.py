"""Spatial (screw) algebra in the notation of Cibicik & Egeland (2018).

Twists are ``t = [omega; v]`` (angular velocity first, then the velocity of the
reference point), wrenches are in the papers' "flipped" order ``w = [n; f]``
(moment about the reference point first, then force), so that the power is
``w @ t``.  All functions return fresh ``numpy`` arrays; units follow the inputs
(SI throughout the project: m, rad, s, kg, N, N*m).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = [
    "cross", "skew", "unskew", "rot_x", "rot_y", "rot_z", "rot_axis", "rot_zyx", "zyx_rate_terms",
    "U", "Ubar", "Rbar", "V", "Pi", "ad", "twist_transform", "wrench_transform",
]

#: Interchange matrix: ``Pi @ [n; f] = [f; n]``.  It turns the flipped wrench
#: order into the standard one and relates the wrench and twist transforms,
#: ``Ubar(p) = Pi @ U(p) @ Pi`` (remark below eq. (46) of Cibicik & Egeland 2018).
Pi = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])


def cross(a, b) -> np.ndarray:
    """``a x b`` for 3-vectors (``numpy.cross`` is ten times slower on short
    vectors, and this sits in the integration hot path)."""
    a0, a1, a2 = a
    b0, b1, b2 = b
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise ``a x b`` of (n, 3) arrays (``numpy.cross`` spends most of
    its time moving axes on arrays this small)."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def skew(p) -> np.ndarray:
    """Skew-symmetric form ``p^`` with ``skew(p) @ r == cross(p, r)`` (the hat of eq. (2))."""
    x, y, z = p
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def unskew(S) -> np.ndarray:
    """Vector of a skew-symmetric 3x3 matrix (inverse of :func:`skew`)."""
    return np.array([S[2, 1], S[0, 2], S[1, 0]])


def rot_x(a: float) -> np.ndarray:
    """Rotation matrix about x by ``a`` [rad]."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(a: float) -> np.ndarray:
    """Rotation matrix about y by ``a`` [rad]."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(a: float) -> np.ndarray:
    """Rotation matrix about z by ``a`` [rad]."""
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rot_axis(axis, a: float) -> np.ndarray:
    """Rotation by ``a`` [rad] about the unit vector ``axis`` (Rodrigues' formula)."""
    K = skew(axis)
    return np.eye(3) + np.sin(a) * K + (1.0 - np.cos(a)) * (K @ K)


def U(p) -> np.ndarray:
    """Twist reference transform ``U = [[I, 0], [p^, I]]`` of eq. (20).

    ``p`` is the vector *from the new reference point to the old one*, in the
    coordinates of the frame the twist is expressed in: ``U(p_{m_k,k})`` moves
    the reference of ``t_{0k/k}`` from the origin of Frame k to the COG m_k.
    """
    out = np.eye(6)
    out[3:, :3] = skew(p)
    return out


def Ubar(p) -> np.ndarray:
    """Wrench reference transform ``Ubar = [[I, p^], [0, I]]`` of eq. (46).

    ``p`` is the vector from the new reference point to the old one (eq. (46):
    ``p_{m_k,p}`` moves a wrench from the point p to the COG m_k).  It is the
    inverse transpose of :func:`U`, so ``Ubar(p) @ w`` and ``U(p) @ t`` keep
    the power ``w @ t`` unchanged.
    """
    out = np.eye(6)
    out[:3, 3:] = skew(p)
    return out


def Rbar(R) -> np.ndarray:
    """Screw coordinate transform ``blockdiag(R, R)`` (eq. (21))."""
    out = np.zeros((6, 6))
    out[:3, :3] = R
    out[3:, 3:] = R
    return out


def V(R, p_next_prev, p_com_next=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Combined transform ``V_{k,m_{k+1}}^{k,k+1}`` of eq. (26).

    ``R = R_k^{k+1}`` rotates Frame-k coordinates into Frame k+1,
    ``p_next_prev = p_{k+1,k}^{k+1}`` is the vector from the origin of Frame
    k+1 to the origin of Frame k in Frame-(k+1) coordinates (eq. (22)), and
    ``p_com_next = p_{m_{k+1},k+1}^{k+1}`` moves the reference on to the COG
    of body k+1 (zero keeps it at the origin of Frame k+1).
    Equal to ``U(p_com_next) @ U(p_next_prev) @ Rbar(R)``.
    """
    out = Rbar(R)
    out[3:, :3] = (skew(p_com_next) + skew(p_next_prev)) @ R
    return out


def twist_transform(R, p) -> np.ndarray:
    """``[[R, 0], [p^ R, R]]``: re-express a twist in rotated coordinates and move
    its reference point (eq. (6)); ``R`` maps old to new coordinates and ``p``
    is the vector from the new reference point to the old one in *new*
    coordinates."""
    return V(R, p)


def wrench_transform(R, p) -> np.ndarray:
    """``[[R, p^ R], [0, R]]``: the wrench counterpart of :func:`twist_transform`
    (its inverse transpose), same arguments."""
    out = Rbar(R)
    out[:3, 3:] = skew(p) @ R
    return out


def ad(t) -> np.ndarray:
    """Twist cross-product matrix ``[[w^, 0], [v^, w^]]`` of ``t = [w; v]``.

    ``ad(t) @ s`` is the rate of change of a screw ``s`` fixed in a frame that
    moves with twist ``t`` seen from that frame, with a minus sign:
    ``d/dt (X s) = -ad(t_rel) X s`` for the transform ``X`` of a joint whose
    relative twist is ``t_rel`` (used for the time derivative of ``P_k``).
    The 3x3 blocks are the ``W_k`` structure of eq. (35) plus the ``v^`` term.
    """
    out = np.zeros((6, 6))
    w = skew(t[:3])
    out[:3, :3] = w
    out[3:, 3:] = w
    out[3:, :3] = skew(t[3:])
    return out


def rot_zyx(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """``Rz(yaw) Ry(pitch) Rx(roll)``: the orientation of a vessel (eq. (53)
    of Cibicik & Egeland 2018) or of a crane's base (T~(b) of eq. (12) of
    Jarzębowska, Urbaś & Augustynek 2018) from its three angles [rad]."""
    c1, s1, c2, s2 = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
    c3, s3 = math.cos(yaw), math.sin(yaw)
    return np.array([[c3 * c2, c3 * s2 * s1 - s3 * c1, c3 * s2 * c1 + s3 * s1],
                     [s3 * c2, s3 * s2 * s1 + c3 * c1, s3 * s2 * c1 - c3 * s1],
                     [-s2, c2 * s1, c2 * c1]])


def zyx_rate_terms(a, da):
    """For the angles ``a = [roll, pitch, yaw]`` of :func:`rot_zyx` and their
    rates ``da`` [rad/s]: ``E`` with ``w = E da`` (the body's angular
    velocity in its own axes, ``E = [x, Rx^T y, Rx^T Ry^T z]``) and
    ``(dE/dt) da`` [rad/s2], the part of the angular acceleration
    ``E d2a + (dE/dt) da`` that the angular accelerations do not give."""
    c1, s1, c2, s2 = math.cos(a[0]), math.sin(a[0]), math.cos(a[1]), math.sin(a[1])
    u1, u2, u3 = da
    E = np.array([[1.0, 0.0, -s2], [0.0, c1, s1 * c2], [0.0, -s1, c1 * c2]])
    dw_bias = np.array([-u2 * c2 * u3,
                        u1 * (-s1 * u2 + c1 * c2 * u3) - u2 * s1 * s2 * u3,
                        u1 * (-c1 * u2 - s1 * c2 * u3) - u2 * c1 * s2 * u3])
    return E, dw_bias
