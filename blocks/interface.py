"""Port groups of the crane-vessel mount, declared once and shared by every
block on either side of it (see ``docs/interfaces/mount.md``).

Frames: Frame 0 is inertial (z0 up, gravity along -z0); Frame 1 is fixed in
the vessel; the *mount point* is the origin of Frame 2, the king's slewing
joint, fixed in the vessel.  Twists are ``[omega; v]``, wrenches ``[n; f]``.
"""
from __future__ import annotations

import numpy as np

from .block import Variable, WRENCH_COMPONENTS, sym6_names, vector
from .linalg import solve
from .screw import cross

#: Motion of the mount, output by a vessel and input to a crane.
MOUNT_MOTION = (
    tuple(Variable(f"mount_R_{i}{j}", "1", float(i == j),
                   f"Orientation R_1^0 of the vessel frame (Frame 1) in Frame 0, row {i} column {j}")
          for i in (1, 2, 3) for j in (1, 2, 3))
    + vector("mount_w", "rad/s", "Angular velocity of Frame 1, Frame-1 {c} component")
    + vector("mount_dw", "rad/s2", "Angular acceleration of Frame 1, Frame-1 {c} component")
    + vector("mount_v", "m/s", "Velocity of the mount point, Frame-1 {c} component")
    + vector("mount_a", "m/s2", "Acceleration of the mount point (not including gravity), Frame-1 {c} component")
)


#: Position of the mount point in Frame 0, output by a vessel or a base and
#: input to a crane that needs to know where it stands in the world (a
#: programmed path in the ground frame, the end effector's ground position);
#: not part of :data:`MOUNT_MOTION`, which the crane's dynamics need alone.
MOUNT_POSITION = vector("mount_p", "m", "Position of the mount point in Frame 0, {c} component")

#: The load at a crane's tip, input: a hoist wire's pull (a ``Payload``'s
#: ``F_tip``), Frame 0; zero when nothing hangs there.
TIP_LOAD = vector("F_tip", "N", "Force of the hoist wire on the crane's tip, where it leaves the crane, Frame 0, "
                                "{c} component")
#: The tip's motion, output, for the wire: Frame 0 (the mount's position an
#: input for it, :data:`MOUNT_POSITION`).
TIP_MOTION = (vector("tip_p", "m", "Position of the crane's tip in Frame 0, {c} component")
              + vector("tip_v", "m/s", "Velocity of the crane's tip, Frame 0, {c} component"))
#: what the tip's motion reads directly: the mount's pose and velocities (the
#: joints' are the state's)
TIP_FEEDTHROUGH = (("tip_p_*", (("mount_R_*", "mount_p_*"),)),
                   ("tip_v_*", (("mount_R_*", "mount_w_*", "mount_v_*"),)))


def _IA_unit(name: str) -> str:
    i, j = int(name[-2]), int(name[-1])
    rot = (i <= 3) + (j <= 3)
    return {2: "kg.m2", 1: "kg.m", 0: "kg"}[rot]


#: Articulated inertia and bias wrench of the crane at the mount, output by a
#: crane and input to a vessel: the wrench the vessel exerts on the crane is
#: ``W = I_A [dw; a] + p_A`` (Frame 1, referenced to the mount point).
MOUNT_INERTIA = (
    tuple(Variable(n, _IA_unit(n), 0.0,
                   f"Articulated inertia I_A of the crane at the mount, Frame 1, entry {n[-2]},{n[-1]}",
                   role=f"interface.inertia.{n[-2:]}")
          for n in sym6_names("I_A"))
    + tuple(Variable(f"p_A_{c}", "N.m" if c[0] == "n" else "N", 0.0,
                     f"Bias wrench p_A of the crane at the mount, Frame 1, component {c}",
                     role=f"interface.bias.{c}")
            for c in WRENCH_COMPONENTS)
)


#: The third row of R_1^0: the direction of gravity in the mount's axes, the
#: only part of the mount's orientation a crane's dynamics see.
GRAVITY_DIRECTION = "mount_R_3?"


def crane_feedthrough(actuation: tuple, extra: tuple = (), tip_load: bool = False) -> tuple:
    """The direct feedthrough (``Block.feedthrough``) of a crane on the mount
    whose joint and actuator inputs match ``actuation`` (patterns, one group:
    which actuator moves which output depends on the geometry), with the
    crane's own rules ``extra`` first.  ``tip_load``: the crane takes
    :data:`TIP_LOAD`, a force given in Frame 0, which reaches the crane
    through the whole of R_1^0, not through gravity's direction alone.

    The joint coordinates and rates are the state's, and so is ``I_A``
    (the crane's mass matrix).  The slewing joint turns freely about the
    mount's z axis, so the moment about it that the mount passes (and
    ``p_A_nz``, ``I_A``'s slewing row being zero) is the slewing joint's
    torque alone, its actuator's and its friction's.  ``p_A`` holds gravity, the velocity terms of the mount's
    rotation and the actuation, not the mount's accelerations.  The rest
    (accelerations, wrenches, reactions) depend on gravity's direction and
    on the mount's angular velocity and accelerations: never on the mount
    point's velocity (Galilean invariance) nor, without a tip load, on the
    first two rows of R_1^0."""
    if tip_load:
        actuation = (*actuation, "F_tip_*")
    orientation = "mount_R_*" if tip_load else GRAVITY_DIRECTION
    return ((("q_*", ()), ("u_*", ()), ("I_A_*", ()))
            + tuple((n, ("tau_slew", "tau_f_slew")) for n in ("W_mount_nz", "W_king_nz", "p_A_nz"))
            + tuple(extra)
            + (("p_A_*", (orientation, "mount_w_*", tuple(actuation))),
               ("*", (orientation, "mount_w_*", "mount_dw_*", "mount_a_*", tuple(actuation)))))


def wrench_ports(prefix: str, what: str, role: str | None = None):
    """Six wrench components ``prefix_nx ... prefix_fz`` (N.m, then N), each
    with the role ``<role>.<component>`` if a ``role`` is given."""
    return tuple(Variable(f"{prefix}_{c}", "N.m" if c[0] == "n" else "N", 0.0,
                          f"{what}, component {c}", role=f"{role}.{c}" if role else None)
                 for c in WRENCH_COMPONENTS)


def mount_motion_from_inputs(u: np.ndarray, offset: int = 0):
    """Split the :data:`MOUNT_MOTION` slice of an input vector into
    ``(R_1^0, w, dw, v, a)``."""
    s = u[offset:offset + 21]
    return s[:9].reshape(3, 3), s[9:12], s[12:15], s[15:18], s[18:21]


def base_twist_rate(w, dw, v, a) -> np.ndarray:
    """Time derivative of the base twist components ``[w; v]`` (mount frame)
    from the mount's angular acceleration and the classical acceleration of
    its origin: ``[dw; a - w x v]``."""
    return np.concatenate([dw, a - cross(w, v)])


def mount_split(M, f, tb_dot, w, v):
    """Kane's equations of a crane over ``[t_b; u]`` split at the mount.

    Joint rows ``M_jb tb' + M_jj du = f_j`` give the accelerations; base rows
    give the wrench of the mount on the crane ``W = M_bb tb' + M_bj du - f_b``.
    Eliminating ``du``: ``W = I_A [dw; a] + p_A`` with the articulated inertia
    ``I_A = M_bb - M_bj M_jj^-1 M_jb`` and the bias wrench ``p_A``
    (``docs/interfaces/mount.md``).  ``f`` holds all applied generalized
    forces less the velocity terms.  Returns ``(du, W, I_A, p_A)``."""
    du, _, W, I_A, p_A = constrained_mount_split(M, f, tb_dot, w, v)
    return du, W, I_A, p_A


def constrained_mount_split(M, f, tb_dot, w, v, A=None, gamma=None):
    """:func:`mount_split` for a crane held also by ``m`` constraints fixed
    in the world (a programmed path of its end effector), given at
    acceleration level as ``A d[t_b; u]/dt = gamma`` (``A``: m x (6+n)),
    whose reactions ``A^T lambda`` act beside ``f``.

    Joint and constraint rows ``M_jb tb' + M_jj du - A_j^T lambda = f_j``,
    ``A_b tb' + A_j du = gamma`` give ``du`` and ``lambda``; the base rows
    the wrench of the mount on the crane, ``W = M_bb tb' + M_bj du - f_b -
    A_b^T lambda`` (the constraint's reaction comes from the world, not
    through the mount).  Both are affine in ``tb'``: ``I_A = M_bb - C K^-1 B``
    with ``K = [[M_jj, -A_j^T], [A_j, 0]]``, ``B = [M_jb; A_b]``,
    ``C = [M_bj, -A_b^T]``; ``I_A`` is symmetric (``K`` is, with the sign of
    ``lambda`` flipped) and positive semi-definite (Gauss's principle: the
    least kinetic energy over the joint rates the constraints allow).
    Without constraints this is the articulated inertia of
    :func:`mount_split`.  Returns ``(du, lambda, W, I_A, p_A)``."""
    n = M.shape[0] - 6
    m = 0 if A is None else A.shape[0]
    rhs = np.empty((n + m, 7))
    rhs[:n, :6] = M[6:, :6]
    rhs[:n, 6] = f[6:]
    C = np.empty((6, n + m))
    C[:, :n] = M[:6, 6:]
    if m:
        rhs[n:, :6] = A[:, :6]
        rhs[n:, 6] = gamma
        C[:, n:] = -A[:, :6].T
    sol = solve(_joint_rows(M, A), rhs)
    z = sol[:, 6] - sol[:, :6] @ tb_dot
    W = M[:6, :6] @ tb_dot + C @ z - f[:6]
    I_A = M[:6, :6] - C @ sol[:, :6]
    I_A = 0.5 * (I_A + I_A.T)
    p_A = C @ sol[:, 6] - f[:6] - I_A[:, 3:] @ cross(w, v)
    return z[:n], z[n:], W, I_A, p_A


def constrained_accelerations(M, f, tb_dot, A=None, gamma=None):
    """The joint accelerations ``du`` and the constraints' multipliers
    ``lambda`` of :func:`constrained_mount_split` for a given ``tb'`` alone
    (one right-hand side: the derivatives need no ``I_A``)."""
    n = M.shape[0] - 6
    rhs = f[6:] - M[6:, :6] @ tb_dot
    if A is not None:
        rhs = np.concatenate([rhs, gamma - A[:, :6] @ tb_dot])
    z = solve(_joint_rows(M, A), rhs)
    return z[:n], z[n:]


def _joint_rows(M, A):
    """``K = [[M_jj, -A_j^T], [A_j, 0]]``, the joint and constraint rows of
    :func:`constrained_mount_split` (``M_jj`` without constraints)."""
    n = M.shape[0] - 6
    if A is None:
        return M[6:, 6:]
    m = A.shape[0]
    K = np.zeros((n + m, n + m))
    K[:n, :n] = M[6:, 6:]
    K[:n, n:] = -A[:, 6:].T
    K[n:, :n] = A[:, 6:]
    return K


#: The role of a Boolean output that is true while its block's model holds
#: (the master warns where one turns false: ``runtime/observers/model_range.py``)
MODEL_RANGE = "model.range"
