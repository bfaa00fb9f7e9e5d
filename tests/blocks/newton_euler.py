"""Reference joint reaction wrenches by the classical recursive Newton-Euler
algorithm, written independently of ``blocks/screw.py`` and ``blocks/kane.py``.

This is a test helper: it recomputes, with plain 3-vectors in an inertial
frame, what :func:`crane_cosim.blocks.kane.constraint_wrench` computes with
twists, projection matrices and auxiliary generalized speeds.  Only the chain
*data* (:class:`~crane_cosim.blocks.kane.Chain`, ``Joint``, ``Body``) is shared;
no function of the project is called.

Conventions (the project's)
---------------------------
* ``chain.joints[k]`` connects body k-1 (the base for k = 0) to
  ``chain.bodies[k]``.  Frame k is fixed in body k with its origin on joint k;
  its orientation in Frame k-1 is ``joint.rotation @ Rot(joint.axis, q_k)``
  for a revolute joint and ``joint.rotation`` for a prismatic one; its origin
  in Frame k-1 is ``joint.offset`` plus ``joint.rotation @ joint.axis * q_k``
  for a prismatic joint.  ``joint.axis`` is in Frame-k coordinates.
* Body k: ``mass``, ``com`` (Frame k) and ``inertia`` about the COG (Frame k).
* Wrenches are ``[n; f]``, moment first.

The inertial frame
------------------
The computation is done in the inertial frame that, at the instant considered,
coincides with the base frame (same origin, same axes).  In it the base has
angular velocity ``omega_b``, angular acceleration ``dw_b`` (the derivative of
the angular velocity vector; for a frame instantaneously aligned with the base
this equals the derivative of its base-frame components), and its origin has
velocity ``v_b`` and *classical* acceleration ``a_b`` (the second derivative of
the inertial position, not the derivative of body-frame velocity
components).  Gravity ``g_base`` is given in base coordinates, which are the
inertial coordinates at this instant.  No fictitious forces appear: all
accelerations below are inertial.
"""
from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

__all__ = ["joint_rotation", "joint_origin", "world_poses", "joint_wrenches"]


def joint_rotation(joint, qk: float) -> np.ndarray:
    """Orientation of Frame k in Frame k-1 for joint coordinate ``qk``."""
    if joint.kind == "revolute":
        return joint.rotation @ Rotation.from_rotvec(np.asarray(joint.axis) * qk).as_matrix()
    return np.array(joint.rotation, float)


def joint_origin(joint, qk: float) -> np.ndarray:
    """Origin of Frame k in Frame k-1 coordinates for joint coordinate ``qk``."""
    if joint.kind == "prismatic":
        return joint.offset + joint.rotation @ joint.axis * qk
    return np.array(joint.offset, float)


def world_poses(chain, q, R_b=np.eye(3), p_b=np.zeros(3)):
    """Orientations ``R[k]`` and origins ``p[k]`` of every Frame k in the inertial
    frame, for a base at orientation ``R_b`` and position ``p_b`` there."""
    R_prev, p_prev = np.asarray(R_b, float), np.asarray(p_b, float)
    Rs, ps = [], []
    for joint, qk in zip(chain.joints, q):
        p_prev = p_prev + R_prev @ joint_origin(joint, qk)
        R_prev = R_prev @ joint_rotation(joint, qk)
        Rs.append(R_prev)
        ps.append(p_prev)
    return np.array(Rs), np.array(ps)


def joint_wrenches(chain, q, u, du, omega_b, dw_b, v_b, a_b, g_base, frame="joint", point_force=None):
    """Wrench ``[n; f]`` that body k-1 (the base for k = 0) exerts on body k, for
    every joint k, by recursive Newton-Euler; an ``(n, 6)`` array.

    ``q``, ``u``, ``du``: joint coordinates, rates and accelerations (rad or m);
    ``omega_b``, ``dw_b``: angular velocity and acceleration of the base;
    ``v_b``, ``a_b``: velocity and classical acceleration of the base origin;
    ``g_base``: gravitational acceleration; all in base coordinates (SI).

    The moment ``n`` is about the origin of Frame k (on joint k).  It includes
    joint k's actuator torque/force: its component along the joint axis is
    the generalized force the actuator must apply (for a revolute joint; for
    a prismatic one it is the component of ``f`` along the axis).
    ``frame="joint"`` (default) gives Frame-k coordinates, ``frame="base"``
    base coordinates (reference point unchanged).

    ``v_b`` does not enter: the base velocity has no effect on inertial
    accelerations once ``a_b`` is the classical acceleration.  It is accepted
    (and checked for shape) so the call mirrors the full base state.

    ``point_force``: ``(k, point, force)``, a force ``force`` (base
    coordinates) applied to body ``k`` at ``point`` (Frame-k coordinates),
    such as a hoist wire's pull at a crane's tip.
    """
    n = len(chain.joints)
    q, u, du = (np.asarray(x, float).reshape(n) for x in (q, u, du))
    w = np.asarray(omega_b, float).reshape(3)
    dw = np.asarray(dw_b, float).reshape(3)
    np.asarray(v_b, float).reshape(3)
    a = np.asarray(a_b, float).reshape(3)  # acceleration of the current frame origin
    g = np.asarray(g_base, float).reshape(3)

    # Forward pass: orientation, origin, angular velocity/acceleration, origin
    # acceleration and COG acceleration of every body, inertial coordinates.
    R = np.eye(3)
    p = np.zeros(3)
    Rs, ps, ws, dws, acs = [], [], [], [], []
    for k, (joint, body) in enumerate(zip(chain.joints, chain.bodies)):
        r = R @ joint_origin(joint, q[k])  # parent origin -> this origin
        R = R @ joint_rotation(joint, q[k])
        z = R @ joint.axis  # joint axis, inertial coordinates
        # Origin of Frame k as a point of the parent (rigid transport) ...
        a = a + np.cross(dw, r) + np.cross(w, np.cross(w, r))
        if joint.kind == "revolute":
            dw = dw + z * du[k] + np.cross(w, z * u[k])
            w = w + z * u[k]
        else:
            # ... plus relative sliding and the Coriolis term of the sliding.
            a = a + z * du[k] + 2.0 * np.cross(w, z * u[k])
        p = p + r
        c = R @ body.com
        acs.append(a + np.cross(dw, c) + np.cross(w, np.cross(w, c)))
        Rs.append(R)
        ps.append(p)
        ws.append(w)
        dws.append(dw)

    # Backward pass: Newton and Euler for body k with the reaction of body k+1.
    out = np.zeros((n, 6))
    f_next = np.zeros(3)
    n_next = np.zeros(3)  # about the origin of Frame k+1
    for k in range(n - 1, -1, -1):
        body = chain.bodies[k]
        R, w, dw = Rs[k], ws[k], dws[k]
        c = R @ body.com
        I = R @ body.inertia @ R.T
        F = body.mass * (acs[k] - g)  # net force needed beyond gravity
        f = F + f_next
        nk = I @ dw + np.cross(w, I @ w) + np.cross(c, F) + n_next
        if point_force is not None and point_force[0] == k:  # the applied force does its share
            applied = np.asarray(point_force[2], float)
            f = f - applied
            nk = nk - np.cross(R @ np.asarray(point_force[1], float), applied)
        if k + 1 < n:
            nk = nk + np.cross(ps[k + 1] - ps[k], f_next)
        out[k, :3], out[k, 3:] = nk, f
        f_next, n_next = f, nk
    if frame == "base":
        return out
    if frame != "joint":
        raise ValueError(f"frame must be 'joint' or 'base', not {frame!r}")
    return np.array([np.concatenate([Rk.T @ wr[:3], Rk.T @ wr[3:]]) for Rk, wr in zip(Rs, out)])
