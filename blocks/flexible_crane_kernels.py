"""The flexible crane's hot path as plain loops over floats and small
arrays, for numba to compile (``blocks/jit.py``): the accelerations and the
output vector of :class:`blocks.flexible_crane.FlexibleCrane` at one state,
free or with the programmed path of its end effector.

The numpy code of ``flexible_crane.py``, ``kane.py`` and ``interface.py``
is the reference: it forms Kane's equations with projection matrices,
``M = sum_k P_k^T D_k P_k`` and ``f = sum_k P_k^T (W_g,k - W_k D_k t_k -
D_k dP_k/dt nu)`` (eqs. (29)-(38) of Cibicik & Egeland (2018)), and the
joint wrenches by auxiliary generalized speeds (their eqs. (39)-(50)).  The
tests compare this module with it at random states, so here the same
equations are formed another way, with Featherstone's (2008) spatial
vectors in body coordinates referenced to each frame's origin (twists
``[omega; v_O]``, wrenches ``[n_O; f]``, the project's order):

* kinematics, one pass from the mount out: ``v_k = X_k v_(k-1) + s_k u_k``
  and the velocity-product acceleration ``c_k = v_k x s_k u_k``, with
  ``X_k`` the twist transform of joint k (eq. (23) of Cibicik & Egeland
  2018) and ``s_k = [axis_k; 0]``; the mount's twist ``t_b`` is ``v_(-1)``.
  In body coordinates a spatial acceleration is the rate of the twist's
  components, so the mount's is ``t_b' = [dw; a - w x v]`` (mount frame);
* the mass matrix over ``nu = [t_b; u]`` by the composite-rigid-body
  algorithm (Featherstone 2008, sect. 6.2): composite inertias
  ``I^c_(k-1) = I_(k-1) + X_k^T I^c_k X_k`` from the spatial inertias at the
  frames' origins ``I_k = [[I_m + m c^ c^T, m c^], [m c^T, m 1]]`` (``D_k``
  of eq. (35) moved from the COG c by ``U`` of eq. (20)), then column j,
  ``F = I^c_j s_j``, carried down the chain by the force transforms
  ``X_i^T``: ``M_ij = s_i^T F`` and the mount's rows ``X_0^T F``.  This is
  ``sum_k P_k^T D_k P_k`` (eq. (38)) summed body by body from the tip;
* the velocity terms and gravity by the recursive Newton-Euler algorithm
  (Featherstone 2008, sect. 5.3): ``a_k = X_k a_(k-1) + s_k du_k + c_k``,
  the body's wrench ``w_k = I_k (a_k - [0; g_k]) + v_k x* I_k v_k -
  w_ext,k`` (gravity ``g_k = R_k^T g_b`` applied per body), the wrench
  through joint k ``F_k = w_k + X_(k+1)^T F_(k+1)``.  With ``d nu/dt = 0``
  it gives ``tau_g - C nu`` of eq. (37): ``f_j = -s_j^T F_j``,
  ``f_b = -X_0^T F_0``; with the accelerations found, ``F_k`` is the
  wrench of body k-1 on body k at the origin of Frame k, eq. (50) with
  ``E = N = I_6`` (the boom and jib joints' outputs), and ``X_0^T F_0`` the
  mount's wrench on the column;
* the end effector E: its position and velocity from the poses, its
  Jacobian in Frame 0 by the geometric rule ``z_j x (r_E - p_j)`` (joint j's
  axis ``z_j`` through ``p_j``; ``w x r_E`` and ``v`` for the mount's
  speeds), its acceleration at ``d nu/dt = 0`` from the velocity-product
  accelerations of the jib;
* the programmed constraints of Jarzębowska, Urbaś & Augustynek (2018),
  eqs. (17)-(18): the ellipse ``Phi_1 = x^2/a^2 + y^2/b^2 - 1`` and the
  height ``Phi_2 = z - z_E,a(t)`` (eq. (22), :func:`quintic_ramp`), at
  acceleration level ``A d nu/dt = gamma`` with Baumgarte's terms in the
  block's form ``Phi'' + alpha Phi' + beta^2 Phi = 0``, their reaction
  ``A^T lambda`` a force at E;
* the solve by the Schur complement rather than the numpy code's LU of the
  whole system ``[[M_jj, -A_j^T], [A_j, 0]]``: Cholesky ``M_jj = L L^T``
  (positive definite: every joint turns a body with inertia about its
  axis), ``S = A_j M_jj^-1 A_j^T`` (2 x 2), ``lambda = S^-1 (gamma' - A_j
  M_jj^-1 f')`` and ``du = M_jj^-1 (f' + A_j^T lambda)`` with
  ``f' = f_j - M_jb t_b'`` and ``gamma' = gamma - A_b t_b'``.  Both are
  affine in ``t_b'``, and so is the mount's wrench ``W = M_bb t_b' + M_bj
  du - f_b - A_b^T lambda``: its slope is the articulated inertia ``I_A``
  and its value at ``t_b' = 0`` gives the bias wrench ``p_A``
  (``interface.constrained_mount_split``).

All joints are revolute.  This module imports only math and numpy, so that
it runs (slowly) without numba and ``blocks/jit.py`` can load it from a copy
outside the package; it must not import the rest of the package, hence the
copy of ``blocks.trajectory.quintic_ramp`` below.

Arguments shared by the kernels (the chain as
:class:`blocks.kane.Chain` holds it, n joints): ``R0`` (n, 3, 3) fixed
rotation of each joint (Frame k in Frame k-1 at ``q_k = 0``), ``axis``
(n, 3) the joint axes in Frame k, ``off0`` (n, 3) [m] origin of Frame k in
Frame k-1, ``D`` (n, 6, 6) ``blockdiag(I_m, m 1)`` at each COG [kg m^2,
kg], ``com`` (n, 3) [m] the COGs in their frames, ``stiffness`` (n)
[N m/rad], ``joints`` (3) the indices of the slew, boom and jib joints,
``marker`` (3) [m] E in the jib's frame, ``tip`` (3) [m] the boom's tip in
its last element, ``par`` = ``[g, l_boom, programmed, a_E, b_E, z_E_s,
z_inc, t_c, alpha, beta, c_rfe]`` (m/s^2, m, 0 or 1, m, m, m, m, s, 1/s, 1/s,
s): the spring of coordinate k exerts ``-stiffness[k] (q_k + c_rfe u_k)``.
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import _add_congruence, finite, inputs_after_step, inputs_at_middle

# -- eq. (22) of Jarzębowska, Urbaś & Augustynek (2018): a copy of blocks.trajectory.quintic_ramp -------


def quintic_ramp(t, t0, T, q0, q1):
    """Set-point moving from ``q0`` to ``q1`` during ``[t0, t0 + T]`` with the
    quintic 10-15-6 profile, zero velocity and acceleration at both ends.
    Returns ``(q, dq/dt, d2q/dt2)``.  ``T <= 0`` gives a step at ``t0``."""
    if t <= t0:
        return q0, 0.0, 0.0
    if T <= 0.0 or t >= t0 + T:
        return q1, 0.0, 0.0
    s = (t - t0) / T
    dq = q1 - q0
    pos = s**3 * (10.0 - 15.0 * s + 6.0 * s * s)
    vel = 30.0 * s**2 * (1.0 - s) ** 2 / T
    acc = 60.0 * s * (1.0 - s) * (1.0 - 2.0 * s) / T**2
    return q0 + dq * pos, dq * vel, dq * acc


# -- spatial algebra on 6-vectors [angular; linear], written out (no allocation) ------------------


def _motion_to_child(RT, off, m, out):
    """``out = X m``: a twist (or spatial acceleration) of the parent's
    origin, parent coordinates, carried to the origin of a child frame at
    ``off`` [m] whose axes are the rows of ``RT``:
    ``[RT w; RT (v + w x off)]`` (eq. (23) of Cibicik & Egeland 2018).
    ``out`` may be ``m``."""
    w0, w1, w2 = m[0], m[1], m[2]
    v0 = m[3] + w1 * off[2] - w2 * off[1]
    v1 = m[4] + w2 * off[0] - w0 * off[2]
    v2 = m[5] + w0 * off[1] - w1 * off[0]
    for i in range(3):
        out[i] = RT[i, 0] * w0 + RT[i, 1] * w1 + RT[i, 2] * w2
        out[3 + i] = RT[i, 0] * v0 + RT[i, 1] * v1 + RT[i, 2] * v2


def _force_to_parent(RT, off, F, out):
    """``out = X^T F``: a wrench at a child frame's origin, child
    coordinates, moved to the parent's origin in parent coordinates:
    ``[R n + off x (R f); R f]`` with ``R = RT^T`` (the wrench transform,
    the inverse transpose of ``X``).  ``out`` may be ``F``."""
    n0 = RT[0, 0] * F[0] + RT[1, 0] * F[1] + RT[2, 0] * F[2]
    n1 = RT[0, 1] * F[0] + RT[1, 1] * F[1] + RT[2, 1] * F[2]
    n2 = RT[0, 2] * F[0] + RT[1, 2] * F[1] + RT[2, 2] * F[2]
    f0 = RT[0, 0] * F[3] + RT[1, 0] * F[4] + RT[2, 0] * F[5]
    f1 = RT[0, 1] * F[3] + RT[1, 1] * F[4] + RT[2, 1] * F[5]
    f2 = RT[0, 2] * F[3] + RT[1, 2] * F[4] + RT[2, 2] * F[5]
    out[0] = n0 + off[1] * f2 - off[2] * f1
    out[1] = n1 + off[2] * f0 - off[0] * f2
    out[2] = n2 + off[0] * f1 - off[1] * f0
    out[3], out[4], out[5] = f0, f1, f2


def _transform_matrix(RT, off, X):
    """The 6 x 6 twist transform ``X = [[RT, 0], [RT off^T, RT]]`` of
    :func:`_motion_to_child` (``off^T = -off^``)."""
    for i in range(3):
        for j in range(3):
            X[i, j] = RT[i, j]
            X[3 + i, 3 + j] = RT[i, j]
            X[i, 3 + j] = 0.0
        # row i of RT times skew(-off)
        X[3 + i, 0] = RT[i, 2] * off[1] - RT[i, 1] * off[2]
        X[3 + i, 1] = RT[i, 0] * off[2] - RT[i, 2] * off[0]
        X[3 + i, 2] = RT[i, 1] * off[0] - RT[i, 0] * off[1]


def spatial_inertias(D, com):
    """Spatial inertia of each body at its frame's origin, (n, 6, 6)
    [kg m^2, kg m, kg]: ``D_k = blockdiag(I_m, m 1)`` (eq. (35) of Cibicik &
    Egeland 2018) moved from the COG ``c``, ``U^T D_k U`` with ``U = U(-c)``
    of their eq. (20): ``[[I_m + m c^ c^T, m c^], [m c^T, m 1]]``."""
    n = D.shape[0]
    out = np.zeros((n, 6, 6))
    C = np.empty((3, 3))
    for k in range(n):
        m = D[k, 3, 3]
        c0, c1, c2 = com[k, 0], com[k, 1], com[k, 2]
        C[0, 0], C[0, 1], C[0, 2] = 0.0, -c2, c1  # C = c^
        C[1, 0], C[1, 1], C[1, 2] = c2, 0.0, -c0
        C[2, 0], C[2, 1], C[2, 2] = -c1, c0, 0.0
        for i in range(3):
            for j in range(3):
                acc = 0.0
                for r in range(3):
                    acc += C[i, r] * C[j, r]  # (c^ c^T)_ij
                out[k, i, j] = D[k, i, j] + m * acc
                out[k, i, 3 + j] = m * C[i, j]
                out[k, 3 + i, j] = m * C[j, i]
            out[k, 3 + i, 3 + i] = m
    return out


def _body_wrench(I, v, a, out, h):
    """``out = I a + v x* (I v)``: the wrench a body of spatial inertia ``I``
    (at its origin) needs for the spatial acceleration ``a`` at twist ``v``;
    ``v x* h = [w x h_n + v_O x h_f; w x h_f]`` is the rate of the momentum
    ``h`` carried with the body (the force cross product of Featherstone
    2008, ch. 2); ``h``: room for ``I v``."""
    for i in range(6):
        acc_a, acc_h = 0.0, 0.0
        for j in range(6):
            acc_a += I[i, j] * a[j]
            acc_h += I[i, j] * v[j]
        out[i] = acc_a
        h[i] = acc_h
    w0, w1, w2, u0, u1, u2 = v[0], v[1], v[2], v[3], v[4], v[5]
    out[0] += w1 * h[2] - w2 * h[1] + u1 * h[5] - u2 * h[4]
    out[1] += w2 * h[0] - w0 * h[2] + u2 * h[3] - u0 * h[5]
    out[2] += w0 * h[1] - w1 * h[0] + u0 * h[4] - u1 * h[3]
    out[3] += w1 * h[5] - w2 * h[4]
    out[4] += w2 * h[3] - w0 * h[5]
    out[5] += w0 * h[4] - w1 * h[3]


# -- the chain ------------------------------------------------------------------------


def chain_kinematics(q, u, tb, R0, axis, off0):
    """Poses, twists and velocity-product accelerations of the chain at
    joint angles ``q`` [rad] and rates ``u`` [rad/s] on a mount moving with
    the twist ``tb = [w; v]`` (mount frame).  Returns ``RT`` (n, 3, 3), the
    rotation of each joint (Frame k-1 to Frame k coordinates), ``R`` and
    ``p`` (n, 3, 3), (n, 3) [m], the pose of Frame k in the mount frame,
    ``v`` (n, 6) the twist of Frame k at its origin, Frame-k coordinates
    [rad/s, m/s], and ``c`` (n, 6) ``v_k x s_k u_k`` [rad/s^2, m/s^2]."""
    n = q.shape[0]
    RT = np.empty((n, 3, 3))
    R = np.empty((n, 3, 3))
    p = np.empty((n, 3))
    v = np.empty((n, 6))
    c = np.empty((n, 6))
    Rot = np.empty((3, 3))
    Rrel = np.empty((3, 3))
    for k in range(n):
        # Rodrigues: Rot(axis, q) = cos 1 + sin axis^ + (1 - cos) axis axis^T
        a0, a1, a2 = axis[k, 0], axis[k, 1], axis[k, 2]
        sq, cq = math.sin(q[k]), math.cos(q[k])
        vq = 1.0 - cq
        Rot[0, 0], Rot[0, 1], Rot[0, 2] = cq + vq * a0 * a0, vq * a0 * a1 - sq * a2, vq * a0 * a2 + sq * a1
        Rot[1, 0], Rot[1, 1], Rot[1, 2] = vq * a1 * a0 + sq * a2, cq + vq * a1 * a1, vq * a1 * a2 - sq * a0
        Rot[2, 0], Rot[2, 1], Rot[2, 2] = vq * a2 * a0 - sq * a1, vq * a2 * a1 + sq * a0, cq + vq * a2 * a2
        for i in range(3):
            for j in range(3):
                Rrel[i, j] = R0[k, i, 0] * Rot[0, j] + R0[k, i, 1] * Rot[1, j] + R0[k, i, 2] * Rot[2, j]
                RT[k, j, i] = Rrel[i, j]
        if k == 0:
            for i in range(3):
                p[k, i] = off0[k, i]
                for j in range(3):
                    R[k, i, j] = Rrel[i, j]
            _motion_to_child(RT[k], off0[k], tb, v[k])
        else:
            for i in range(3):
                p[k, i] = (p[k - 1, i] + R[k - 1, i, 0] * off0[k, 0] + R[k - 1, i, 1] * off0[k, 1]
                           + R[k - 1, i, 2] * off0[k, 2])
                for j in range(3):
                    R[k, i, j] = (R[k - 1, i, 0] * Rrel[0, j] + R[k - 1, i, 1] * Rrel[1, j]
                                  + R[k - 1, i, 2] * Rrel[2, j])
            _motion_to_child(RT[k], off0[k], v[k - 1], v[k])
        s0, s1, s2 = a0 * u[k], a1 * u[k], a2 * u[k]
        v[k, 0] += s0
        v[k, 1] += s1
        v[k, 2] += s2
        # v_k x [s u; 0] = [w x s u; v_O x s u]
        c[k, 0] = v[k, 1] * s2 - v[k, 2] * s1
        c[k, 1] = v[k, 2] * s0 - v[k, 0] * s2
        c[k, 2] = v[k, 0] * s1 - v[k, 1] * s0
        c[k, 3] = v[k, 4] * s2 - v[k, 5] * s1
        c[k, 4] = v[k, 5] * s0 - v[k, 3] * s2
        c[k, 5] = v[k, 3] * s1 - v[k, 4] * s0
    return RT, R, p, v, c


def mass_matrix(RT, off0, axis, I):
    """``M`` over ``nu = [t_b; u]``, (6+n) square, by the composite-rigid-body
    algorithm (module docstring); ``I``: :func:`spatial_inertias`."""
    n = RT.shape[0]
    N = 6 + n
    Ic = I.copy()
    X = np.empty((6, 6))
    T = np.empty((6, 6))
    for k in range(n - 1, 0, -1):
        # I^c_(k-1) += X_k^T I^c_k X_k
        _transform_matrix(RT[k], off0[k], X)
        _add_congruence(Ic[k], X, T, Ic[k - 1])
    M = np.zeros((N, N))
    F = np.empty(6)
    for j in range(n):
        # F = I^c_j s_j, the wrench through joint j that accelerates it at unit rate
        for i in range(6):
            F[i] = Ic[j, i, 0] * axis[j, 0] + Ic[j, i, 1] * axis[j, 1] + Ic[j, i, 2] * axis[j, 2]
        for i in range(j, -1, -1):
            if i < j:
                _force_to_parent(RT[i + 1], off0[i + 1], F, F)
            Mij = axis[i, 0] * F[0] + axis[i, 1] * F[1] + axis[i, 2] * F[2]
            M[6 + i, 6 + j] = Mij
            M[6 + j, 6 + i] = Mij
        _force_to_parent(RT[0], off0[0], F, F)
        for i in range(6):
            M[i, 6 + j] = F[i]
            M[6 + j, i] = F[i]
    # the mount's block: X_0^T I^c_0 X_0 (M's block is still zero)
    _transform_matrix(RT[0], off0[0], X)
    _add_congruence(Ic[0], X, T, M[:6, :6])
    return M


def _add_force_at(R10, Rk, e, F0, out):
    """``out += [e x f; f]``: the force ``F0`` (Frame 0) at the point ``e`` of
    body k (its frame, orientation ``Rk`` in the mount frame, ``R10`` the
    mount's in Frame 0) as a wrench at the body's origin, its coordinates."""
    Fb = np.empty(3)
    for i in range(3):
        Fb[i] = R10[0, i] * F0[0] + R10[1, i] * F0[1] + R10[2, i] * F0[2]
    f = np.empty(3)
    for i in range(3):
        f[i] = Rk[0, i] * Fb[0] + Rk[1, i] * Fb[1] + Rk[2, i] * Fb[2]
    out[0] += e[1] * f[2] - e[2] * f[1]
    out[1] += e[2] * f[0] - e[0] * f[2]
    out[2] += e[0] * f[1] - e[1] * f[0]
    for i in range(3):
        out[3 + i] += f[i]


def joint_wrenches(RT, off0, axis, R, v, c, I, a_base, du, g_b, ext_body, ext):
    """The recursive Newton-Euler algorithm (module docstring): the wrench
    ``F_k`` of body k-1 (the mount for k = 0) on body k through joint k, at
    the origin of Frame k in its coordinates [N m, N], (n, 6), with the
    mount's spatial acceleration ``a_base`` (mount frame), the joint
    accelerations ``du`` [rad/s^2], gravity ``g_b`` (mount frame) [m/s^2]
    and an external wrench ``ext`` on body ``ext_body`` (its origin, its
    coordinates); and the spatial accelerations ``a`` (n, 6)."""
    n = RT.shape[0]
    a = np.empty((n, 6))
    F = np.empty((n, 6))
    ag = np.empty(6)
    h = np.empty(6)
    child = np.empty(6)
    for k in range(n):
        _motion_to_child(RT[k], off0[k], a_base if k == 0 else a[k - 1], a[k])
        for i in range(3):
            a[k, i] += axis[k, i] * du[k]
        for i in range(6):
            a[k, i] += c[k, i]
    for k in range(n - 1, -1, -1):
        # gravity as the opposite acceleration: I (a - [0; R_k^T g_b])
        for i in range(3):
            ag[i] = a[k, i]
            ag[3 + i] = a[k, 3 + i] - (R[k, 0, i] * g_b[0] + R[k, 1, i] * g_b[1] + R[k, 2, i] * g_b[2])
        _body_wrench(I[k], v[k], ag, F[k], h)
        if k == ext_body:
            for i in range(6):
                F[k, i] -= ext[i]
        if k < n - 1:
            _force_to_parent(RT[k + 1], off0[k + 1], F[k + 1], child)
            for i in range(6):
                F[k, i] += child[i]
    return F, a


def _cholesky(A):
    """Lower ``L`` with ``L L^T = A`` for a symmetric positive definite
    ``A``; NaN where ``A`` is not (a pivot not positive, or NaN)."""
    n = A.shape[0]
    L = np.zeros((n, n))
    for j in range(n):
        s = A[j, j]
        for r in range(j):
            s -= L[j, r] * L[j, r]
        if not s > 0.0:
            L[:, :] = math.nan
            return L
        d = math.sqrt(s)
        L[j, j] = d
        for i in range(j + 1, n):
            s = A[i, j]
            for r in range(j):
                s -= L[i, r] * L[j, r]
            L[i, j] = s / d
    return L


def _cholesky_solve(L, B):
    """``B`` overwritten by ``(L L^T)^-1 B`` (n x r): forward then back substitution."""
    n, r = B.shape
    for col in range(r):
        for i in range(n):
            s = B[i, col]
            for j in range(i):
                s -= L[i, j] * B[j, col]
            B[i, col] = s / L[i, i]
        for i in range(n - 1, -1, -1):
            s = B[i, col]
            for j in range(i + 1, n):
                s -= L[j, i] * B[j, col]
            B[i, col] = s / L[i, i]


# -- the crane ------------------------------------------------------------------------


def _crane(t, x, inp, R0, axis, off0, D, com, stiffness, joints, marker, par):
    """Kane's equations of the crane at ``(t, x, inp)`` (the block's state
    and input vectors), formed as the module docstring says: ``M``, ``f``
    (gravity and the tip load less velocity terms, the springs, the joints'
    torques), the
    kinematics, the mount's motion, E's position and velocity in Frame 0 and,
    when programmed, the constraint rows ``A``, ``gamma``, ``grad Phi`` and
    ``Phi`` (eqs. (17)-(18) of Jarzębowska, Urbaś & Augustynek 2018), and the
    tip load's wrench on the jib at its origin."""
    n = axis.shape[0]
    N = 6 + n
    q, u = x[:n], x[n:]
    R10 = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            R10[i, j] = inp[3 * i + j]
    tb = np.empty(6)
    tb_dot = np.empty(6)
    for i in range(3):
        tb[i], tb[3 + i] = inp[9 + i], inp[15 + i]
        tb_dot[i] = inp[12 + i]
    w, vb = inp[9:12], inp[15:18]
    tb_dot[3] = inp[18] - (w[1] * vb[2] - w[2] * vb[1])
    tb_dot[4] = inp[19] - (w[2] * vb[0] - w[0] * vb[2])
    tb_dot[5] = inp[20] - (w[0] * vb[1] - w[1] * vb[0])
    # gravity in the mount's axes: R_1^0^T [0, 0, -g], the third row of R_1^0
    g_b = -par[0] * R10[2]
    RT, R, p, v, c = chain_kinematics(q, u, tb, R0, axis, off0)
    I = spatial_inertias(D, com)
    M = mass_matrix(RT, off0, axis, I)
    # the tip load F_tip (Frame 0) at E on the jib (the last body), beside gravity
    tip_load = np.zeros(6)
    _add_force_at(R10, R[n - 1], marker, inp[30:33], tip_load)
    F, a = joint_wrenches(RT, off0, axis, R, v, c, I, np.zeros(6), np.zeros(n), g_b, n - 1, tip_load)
    f = np.empty(N)
    _force_to_parent(RT[0], off0[0], F[0], f[:6])
    for i in range(6):
        f[i] = -f[i]
    for k in range(n):
        f[6 + k] = (-(axis[k, 0] * F[k, 0] + axis[k, 1] * F[k, 1] + axis[k, 2] * F[k, 2])
                    - stiffness[k] * (q[k] + par[10] * u[k]))
    for i in range(3):
        f[6 + joints[i]] += inp[24 + i] + inp[27 + i]
    # E: on the jib (the last body) at `marker`
    e = marker
    kE = n - 1
    wE = v[kE, :3]
    vE_loc = np.empty(3)
    vE_loc[0] = v[kE, 3] + wE[1] * e[2] - wE[2] * e[1]
    vE_loc[1] = v[kE, 4] + wE[2] * e[0] - wE[0] * e[2]
    vE_loc[2] = v[kE, 5] + wE[0] * e[1] - wE[1] * e[0]
    R_E0 = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            R_E0[i, j] = R10[i, 0] * R[kE, 0, j] + R10[i, 1] * R[kE, 1, j] + R10[i, 2] * R[kE, 2, j]
    r_b = np.empty(3)  # E in the mount frame
    for i in range(3):
        r_b[i] = p[kE, i] + R[kE, i, 0] * e[0] + R[kE, i, 1] * e[1] + R[kE, i, 2] * e[2]
    r_E = np.empty(3)
    v_E = np.empty(3)
    for i in range(3):
        r_E[i] = inp[21 + i] + R10[i, 0] * r_b[0] + R10[i, 1] * r_b[1] + R10[i, 2] * r_b[2]
        v_E[i] = R_E0[i, 0] * vE_loc[0] + R_E0[i, 1] * vE_loc[1] + R_E0[i, 2] * vE_loc[2]
    m = 2 if par[2] != 0.0 else 0
    A = np.zeros((m, N))
    gamma = np.zeros(m)
    grad = np.zeros((2, 3))
    Phi = np.zeros(2)
    if m:
        a_E, b_E, z_s, z_inc, t_c, alpha, beta = par[3], par[4], par[5], par[6], par[7], par[8], par[9]
        # E's Jacobian in Frame 0, d v_E / d nu: the mount's w and v, then z_j x (r_E - p_j)
        Gb = np.zeros((3, N))
        for i in range(3):
            # e_i x r_b, and e_i
            Gb[(i + 1) % 3, i] = -r_b[(i + 2) % 3]
            Gb[(i + 2) % 3, i] = r_b[(i + 1) % 3]
            Gb[i, 3 + i] = 1.0
        for k in range(n):
            z0 = R[k, 0, 0] * axis[k, 0] + R[k, 0, 1] * axis[k, 1] + R[k, 0, 2] * axis[k, 2]
            z1 = R[k, 1, 0] * axis[k, 0] + R[k, 1, 1] * axis[k, 1] + R[k, 1, 2] * axis[k, 2]
            z2 = R[k, 2, 0] * axis[k, 0] + R[k, 2, 1] * axis[k, 1] + R[k, 2, 2] * axis[k, 2]
            d0, d1, d2 = r_b[0] - p[k, 0], r_b[1] - p[k, 1], r_b[2] - p[k, 2]
            Gb[0, 6 + k] = z1 * d2 - z2 * d1
            Gb[1, 6 + k] = z2 * d0 - z0 * d2
            Gb[2, 6 + k] = z0 * d1 - z1 * d0
        G = np.empty((3, N))
        for i in range(3):
            for j in range(N):
                G[i, j] = R10[i, 0] * Gb[0, j] + R10[i, 1] * Gb[1, j] + R10[i, 2] * Gb[2, j]
        # E's acceleration at d nu/dt = 0: the jib's velocity-product
        # acceleration (a above) carried to E, plus w x v_E (classical)
        al, aw = a[kE, 3:], a[kE, :3]
        acc = np.empty(3)
        acc[0] = al[0] + aw[1] * e[2] - aw[2] * e[1] + wE[1] * vE_loc[2] - wE[2] * vE_loc[1]
        acc[1] = al[1] + aw[2] * e[0] - aw[0] * e[2] + wE[2] * vE_loc[0] - wE[0] * vE_loc[2]
        acc[2] = al[2] + aw[0] * e[1] - aw[1] * e[0] + wE[0] * vE_loc[1] - wE[1] * vE_loc[0]
        bias = np.empty(3)
        for i in range(3):
            bias[i] = R_E0[i, 0] * acc[0] + R_E0[i, 1] * acc[1] + R_E0[i, 2] * acc[2]
        z_a, dz_a, ddz_a = quintic_ramp(t, 0.0, t_c, z_s, z_s + z_inc)
        grad[0, 0], grad[0, 1] = 2.0 * r_E[0] / a_E**2, 2.0 * r_E[1] / b_E**2
        grad[1, 2] = 1.0
        Phi[0] = (r_E[0] / a_E) ** 2 + (r_E[1] / b_E) ** 2 - 1.0
        Phi[1] = r_E[2] - z_a
        dPhi0 = grad[0, 0] * v_E[0] + grad[0, 1] * v_E[1]
        dPhi1 = v_E[2] - dz_a
        hess = 2.0 * (v_E[0] ** 2 / a_E**2 + v_E[1] ** 2 / b_E**2)
        for j in range(N):
            A[0, j] = grad[0, 0] * G[0, j] + grad[0, 1] * G[1, j]
            A[1, j] = G[2, j]
        gamma[0] = -hess - (grad[0, 0] * bias[0] + grad[0, 1] * bias[1]) - alpha * dPhi0 - beta**2 * Phi[0]
        gamma[1] = ddz_a - bias[2] - alpha * dPhi1 - beta**2 * Phi[1]
    return M, f, A, gamma, grad, Phi, RT, R, p, v, c, I, R10, tb, tb_dot, g_b, r_E, v_E, tip_load


def _constrained_solve(M, A, B, G):
    """``du`` (n x r) and ``lambda`` (m x r) of ``M_jj du - A_j^T lambda =
    B``, ``A_j du = G``, column by column, by the Schur complement (module
    docstring; ``m`` is 0 or 2, the two constraints of eq. (17): the 2 x 2
    complement by Cramer's rule); NaN when ``M_jj`` is not positive
    definite."""
    n = M.shape[0] - 6
    m = A.shape[0]
    r = B.shape[1]
    L = _cholesky(M[6:, 6:])
    Y = B.copy()
    _cholesky_solve(L, Y)
    lam = np.zeros((m, r))
    if m == 0:
        return Y, lam
    Z = np.empty((n, m))
    for i in range(n):
        for k in range(m):
            Z[i, k] = A[k, 6 + i]
    _cholesky_solve(L, Z)
    S = np.zeros((m, m))
    rhs = np.empty((m, r))
    for k in range(m):
        for s in range(m):
            for i in range(n):
                S[k, s] += A[k, 6 + i] * Z[i, s]
        for c in range(r):
            acc = G[k, c]
            for i in range(n):
                acc -= A[k, 6 + i] * Y[i, c]
            rhs[k, c] = acc
    det = S[0, 0] * S[1, 1] - S[0, 1] * S[1, 0]
    for c in range(r):
        lam[0, c] = (S[1, 1] * rhs[0, c] - S[0, 1] * rhs[1, c]) / det
        lam[1, c] = (S[0, 0] * rhs[1, c] - S[1, 0] * rhs[0, c]) / det
        for i in range(n):
            Y[i, c] += Z[i, 0] * lam[0, c] + Z[i, 1] * lam[1, c]
    return Y, lam


def _mount_columns(M, f, A, duc, lamc):
    """The mount's wrench per column of the solve ``(duc, lamc)``: ``Wc =
    M_bb [0 | 1 | 0] + M_bj du - A_b^T lambda - [f_b | 0 | 0]`` (column 0
    the state's, 1-6 per unit mount acceleration ``t_b'``, any further
    ones per unit of another right-hand side), and the articulated inertia
    ``I_A``, columns 1-6 made symmetric."""
    n = M.shape[0] - 6
    m = A.shape[0]
    ncol = duc.shape[1]
    Wc = np.empty((6, ncol))
    for i in range(6):
        for col in range(ncol):
            acc = -f[i] if col == 0 else (M[i, col - 1] if col < 7 else 0.0)
            for j in range(n):
                acc += M[i, 6 + j] * duc[j, col]
            for k in range(m):
                acc -= A[k, i] * lamc[k, col]
            Wc[i, col] = acc
    I_A = np.empty((6, 6))
    for i in range(6):
        for j in range(6):
            I_A[i, j] = 0.5 * (Wc[i, 1 + j] + Wc[j, 1 + i])
    return Wc, I_A


def _solve(M, f, A, gamma, n_rhs):
    """The joint and constraint rows ``M_jj du - A_j^T lambda = f_j - M_jb
    t_b'`` and ``A_j du = gamma - A_b t_b'`` solved by the Schur complement
    (:func:`_constrained_solve`) for ``n_rhs`` right-hand sides: column 0 at
    ``t_b' = 0``, columns 1-6 the change per unit ``t_b'`` (when
    ``n_rhs = 7``).  Returns ``du`` (n x n_rhs) and ``lambda`` (m x n_rhs)."""
    n = M.shape[0] - 6
    m = A.shape[0]
    B = np.empty((n, n_rhs))
    for i in range(n):
        B[i, 0] = f[6 + i]
        for c in range(1, n_rhs):
            B[i, c] = -M[6 + i, c - 1]
    G = np.empty((m, n_rhs))
    for k in range(m):
        G[k, 0] = gamma[k]
        for c in range(1, n_rhs):
            G[k, c] = -A[k, c - 1]
    return _constrained_solve(M, A, B, G)


def derivatives(t, x, inp, R0, axis, off0, D, com, stiffness, joints, marker, tip, par):
    """``dx/dt = [u; du/dt]`` of the crane at ``(t, x, inp)``
    (``FlexibleCrane.derivatives``) [rad/s, rad/s^2]."""
    n = axis.shape[0]
    M, f, A, gamma, grad, Phi, RT, R, p, v, c, I, R10, tb, tb_dot, g_b, r_E, v_E, tip_load = _crane(
        t, x, inp, R0, axis, off0, D, com, stiffness, joints, marker, par)
    # the mount's motion moved to the right-hand sides: f' = f_j - M_jb t_b', gamma' = gamma - A_b t_b'
    for i in range(n):
        for r in range(6):
            f[6 + i] -= M[6 + i, r] * tb_dot[r]
    for k in range(A.shape[0]):
        for r in range(6):
            gamma[k] -= A[k, r] * tb_dot[r]
    du, lam = _solve(M, f, A, gamma, 1)
    out = np.empty(2 * n)
    for i in range(n):
        out[i] = x[n + i]
        out[n + i] = du[i, 0]
    return out


def outputs(t, x, inp, R0, axis, off0, D, com, stiffness, joints, marker, tip, par):
    """The block's output vector (``FlexibleCrane.outputs`` order): the three
    joints' angles, rates and accelerations, the boom tip's deflection, E's
    position and velocity, the mount's wrench in mount and king axes, ``I_A``
    and ``p_A`` at the mount, the wrenches through the boom and jib joints,
    the path and height errors with the programmed height, the programme's
    force on E and its generalized forces on the three joints, and the
    deflection of each of the 15 spring elements a boom may have (its
    ``n_rfe = n / 3`` has ``n_rfe - 1``; zeros past them)."""
    n = axis.shape[0]
    M, f, A, gamma, grad, Phi, RT, R, p, v, c, I, R10, tb, tb_dot, g_b, r_E, v_E, tip_load = _crane(
        t, x, inp, R0, axis, off0, D, com, stiffness, joints, marker, par)
    m = A.shape[0]
    duc, lamc = _solve(M, f, A, gamma, 7)
    du = np.empty(n)
    for i in range(n):
        acc = duc[i, 0]
        for r in range(6):
            acc += duc[i, 1 + r] * tb_dot[r]
        du[i] = acc
    lam = np.zeros(2)
    for k in range(m):
        acc = lamc[k, 0]
        for r in range(6):
            acc += lamc[k, 1 + r] * tb_dot[r]
        lam[k] = acc
    # the mount's wrench is affine in t_b': W = Wc_0 + I_A t_b'
    Wc, I_A = _mount_columns(M, f, A, duc, lamc)
    wxv = np.empty(3)
    wxv[0] = tb[1] * tb[5] - tb[2] * tb[4]
    wxv[1] = tb[2] * tb[3] - tb[0] * tb[5]
    wxv[2] = tb[0] * tb[4] - tb[1] * tb[3]
    p_A = np.empty(6)
    for i in range(6):
        p_A[i] = Wc[i, 0] - (I_A[i, 3] * wxv[0] + I_A[i, 4] * wxv[1] + I_A[i, 5] * wxv[2])
    # the programme's force on E (Frame 0) and on the joints
    F_E = np.zeros(3)
    tau_prog = np.zeros(3)
    path = np.zeros(3)
    ext = tip_load.copy()
    if m:
        for i in range(3):
            F_E[i] = grad[0, i] * lam[0] + grad[1, i] * lam[1]
        for i in range(3):
            tau_prog[i] = A[0, 6 + joints[i]] * lam[0] + A[1, 6 + joints[i]] * lam[1]
        # on the jib at E beside the tip load
        _add_force_at(R10, R[n - 1], marker, F_E, ext)
        z_a = quintic_ramp(t, 0.0, par[7], par[5], par[5] + par[6])[0]
        path[0] = Phi[0] / math.hypot(grad[0, 0], grad[0, 1])
        path[1] = Phi[1]
        path[2] = z_a
    # the wrenches through the joints with the accelerations found
    F, a = joint_wrenches(RT, off0, axis, R, v, c, I, tb_dot, du, g_b, n - 1, ext)
    W1 = np.empty(6)
    _force_to_parent(RT[0], off0[0], F[0], W1)
    # the boom's tip: its displacement from a rigid boom's, boom-root axes
    last = n - 2
    tip_b = np.empty(3)
    for i in range(3):
        tip_b[i] = (p[last, i] + R[last, i, 0] * tip[0] + R[last, i, 1] * tip[1] + R[last, i, 2] * tip[2]
                    - p[1, i])
    y = np.zeros(123)
    for i in range(3):
        j = joints[i]
        y[i] = x[j]
        y[3 + i] = x[n + j]
        y[6 + i] = du[j]
        y[9 + i] = R[1, 0, i] * tip_b[0] + R[1, 1, i] * tip_b[1] + R[1, 2, i] * tip_b[2]
        y[12 + i] = r_E[i]
        y[15 + i] = v_E[i]
        # the mount's wrench in the king's axes: R_0^T on both parts
        y[24 + i] = R[0, 0, i] * W1[0] + R[0, 1, i] * W1[1] + R[0, 2, i] * W1[2]
        y[27 + i] = R[0, 0, i] * W1[3] + R[0, 1, i] * W1[4] + R[0, 2, i] * W1[5]
        y[69 + i] = path[i]
        y[72 + i] = F_E[i]
        y[75 + i] = tau_prog[i]
    y[9] -= par[1]
    y[18:24] = W1
    o = 30
    for r in range(6):
        for col in range(r, 6):
            y[o] = I_A[r, col]
            o += 1
    y[51:57] = p_A
    y[57:63] = F[1]
    y[63:69] = F[n - 1]
    # each spring element's joint (the origin of its psi joint, 3 r - 1): its
    # displacement from a rigid boom's, boom-root axes; zeros past the boom's
    along = 0.0
    for r in range(1, n // 3):
        k = 3 * r - 1
        along += off0[k, 0]
        for i in range(3):
            y[78 + 3 * (r - 1) + i] = (R[1, 0, i] * (p[k, 0] - p[1, 0]) + R[1, 1, i] * (p[k, 1] - p[1, 1])
                                       + R[1, 2, i] * (p[k, 2] - p[1, 2]))
        y[78 + 3 * (r - 1)] -= along
    return y
