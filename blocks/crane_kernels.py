"""The three-link crane's hot path as plain loops over floats and small
arrays, for numba to compile (``blocks/jit.py``): the accelerations and the
output vector of :class:`blocks.crane.Crane` at one state.

The numpy code of ``crane.py``, ``kane.py`` and ``interface.py`` is the
reference; the tests compare this module with it at random states.  The
equations are the same, Kane's equations of the chain king - boom - jib
over the speeds ``nu = [t_b; u]`` (the mount's twist, then the joint rates)
with the projection matrices of Cibicik & Egeland (2018), eqs. (17)-(38),
formed as the knuckle boom's kernels do (``tree_terms``), in one pass from
the mount out; the chain is serial and every joint turns about its own z
axis (eqs. (54)-(56)), so the joint screws ``s_k = [0, 0, 1, 0, 0, 0]`` are
written into the products.  For each body k, with ``X_k`` the twist
transform of joint k (eq. (23)) and ``U_k`` the move of a twist's reference
from the origin of Frame k to the COG (eq. (20)):

* the projection matrix of the origin's twist, ``Po_k = X_k Po_(k-1) + s_k
  e_k^T`` with ``Po_(-1) = [1_6, 0]`` (eqs. (19)-(28)), its twist ``to_k =
  Po_k nu`` and the velocity-dependent part of its acceleration ``ao_k =
  dPo_k/dt nu = X_k ao_(k-1) - ad(s_k u_k) X_k to_(k-1)``, ``ao_(-1) = 0``
  (the derivative of the recursion: the transform of joint k turns with the
  relative twist ``s_k u_k``);
* at the COG, ``P_k = U_k Po_k`` (eq. (30)), ``t_k = P_k nu`` (eq. (29)) and
  ``a_k = dP_k/dt nu = U_k ao_k``;
* ``M = sum P_k^T D_k P_k`` (eq. (38), ``D_k = blockdiag(M_(m_k), m_k 1)`` of
  eq. (35)) and ``f = sum P_k^T (W_g,k - D_k a_k - W_k D_k t_k)`` (eqs.
  (32), (34), (37): gravity ``W_g,k = [0; m_k R_k^T g_b]`` at the COG less
  the velocity terms; on the jib, the last body, also the tip force's
  wrench at its COG, ``[(tip - c) x f; f]``), the joints' actuator and
  friction torques added to their rows.

From ``M`` and ``f``, as ``interface.mount_split``: the joint rows ``M_jj
du = f_j - M_jb dt_b/dt`` give the accelerations; the mount's rows the
wrench of the mount on the king ``W = M_bb dt_b/dt + M_bj du - f_b``, and
eliminating ``du`` the articulated inertia ``I_A = M_bb - M_bj M_jj^-1
M_jb`` and the bias wrench ``p_A``, with ``W = I_A [dw; a] + p_A``.  ``M_jj``
(3 x 3) is solved by Gaussian elimination with partial pivoting, as the
numpy code's LAPACK ``dgesv``.

The reactions in the boom and jib joints are eq. (50) with the full
auxiliary twist (``E = N = 1_6``): the auxiliary speeds of joint j carry
body k of its subtree with ``P_ck = U_k X_(k<-j)`` (eq. (42)), so ``rho_c =
[sum P_ck^T Ubar N]^-1 sum P_ck^T (D_k dt_k/dt + W_k D_k t_k - W_g,k)``
(eqs. (43)-(49)).  The wrench is sought at the origin of Frame j, so the
bracket is ``U_j^T Ubar(p_(m_j,j)) = 1_6`` (eq. (46)): ``rho_c`` is the sum,
formed from the tip inwards, ``F_k = U_k^T w_k + X_(k+1)^T F_(k+1)``
(``U_k^T`` moves body k's wrench from its COG to its origin, ``X_(k+1)^T``
a wrench from the origin of Frame k+1 to that of Frame k).

This module imports only math and numpy, so that it runs (slowly) without
numba and ``blocks/jit.py`` can load it from a copy outside the package; it
must not import the rest of the package.

Arguments shared by the kernels: ``t`` [s] (unused: the crane is
autonomous), ``x`` (6) the state ``[q4, q5, q6, u4, u5, u6]`` [rad, rad/s],
``inp`` (33) the block's inputs: ``R_1^0`` row by row, the mount's ``w``
[rad/s], ``dw`` [rad/s^2] (Frame 1), the mount point's ``v`` [m/s] and
``a`` [m/s^2] (Frame 1, ``a`` without gravity), the actuator torques and
the friction torques of the slew, boom and jib joints [N m], the tip force
[N] and the mount point's position [m] (Frame 0); the chain as
:class:`blocks.kane.Chain` holds it, ``R0`` (3, 3, 3) the orientation of
Frame k in Frame k-1 at ``q_k = 0``, ``off0`` (3, 3) [m] the origin of
Frame k in Frame k-1, ``com`` (3, 3) [m] the COG in Frame k, ``inertia``
(3, 3, 3) [kg m^2] about the COG in Frame k (eq. (73)), ``mass`` (3) [kg];
``g`` [m/s^2] gravity, along -z0; ``tip`` (3) [m] the tip in the last
body's frame.
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import _lu_solve, finite, inputs_after_step, inputs_at_middle


def _motion_to_child(Rrel, off, m, out):
    """``out = X m``: a twist (or an acceleration) of the parent's origin,
    parent coordinates, carried to the origin of a child frame at ``off``
    [m] turned by ``Rrel`` (the child's axes in the parent's):
    ``[Rrel^T w; Rrel^T (v + w x off)]`` (eq. (23) of Cibicik & Egeland
    2018).  ``out`` may be ``m``."""
    w0, w1, w2 = m[0], m[1], m[2]
    v0 = m[3] + w1 * off[2] - w2 * off[1]
    v1 = m[4] + w2 * off[0] - w0 * off[2]
    v2 = m[5] + w0 * off[1] - w1 * off[0]
    for i in range(3):
        out[i] = Rrel[0, i] * w0 + Rrel[1, i] * w1 + Rrel[2, i] * w2
        out[3 + i] = Rrel[0, i] * v0 + Rrel[1, i] * v1 + Rrel[2, i] * v2


def _force_to_parent(Rrel, off, F, out):
    """``out += X^T F``: a wrench ``[n; f]`` at a child frame's origin, child
    coordinates, moved to the parent's origin in parent coordinates,
    ``[Rrel n + off x (Rrel f); Rrel f]`` (the transpose of eq. (23))."""
    n0 = Rrel[0, 0] * F[0] + Rrel[0, 1] * F[1] + Rrel[0, 2] * F[2]
    n1 = Rrel[1, 0] * F[0] + Rrel[1, 1] * F[1] + Rrel[1, 2] * F[2]
    n2 = Rrel[2, 0] * F[0] + Rrel[2, 1] * F[1] + Rrel[2, 2] * F[2]
    f0 = Rrel[0, 0] * F[3] + Rrel[0, 1] * F[4] + Rrel[0, 2] * F[5]
    f1 = Rrel[1, 0] * F[3] + Rrel[1, 1] * F[4] + Rrel[1, 2] * F[5]
    f2 = Rrel[2, 0] * F[3] + Rrel[2, 1] * F[4] + Rrel[2, 2] * F[5]
    out[0] += n0 + off[1] * f2 - off[2] * f1
    out[1] += n1 + off[2] * f0 - off[0] * f2
    out[2] += n2 + off[0] * f1 - off[1] * f0
    out[3] += f0
    out[4] += f1
    out[5] += f2


def _to_cog(c, t, out):
    """``out = U t``: the reference of twist ``t`` (Frame k) moved from the
    origin of Frame k to the COG at ``c`` [m], ``[w; v + w x c]`` (eq. (20)
    of Cibicik & Egeland 2018)."""
    out[0], out[1], out[2] = t[0], t[1], t[2]
    out[3] = t[3] + t[1] * c[2] - t[2] * c[1]
    out[4] = t[4] + t[2] * c[0] - t[0] * c[2]
    out[5] = t[5] + t[0] * c[1] - t[1] * c[0]


def _kane(x, inp, R0, off0, com, inertia, mass, g, tip):
    """Kane's equations of the crane at ``(x, inp)`` over ``nu = [t_b; u]``
    (module docstring).  Returns ``M`` (9 x 9) [kg m^2, kg m, kg]; ``f`` (9),
    gravity less the velocity terms plus the joints' torques [N m, N]; the
    mount's twist ``t_b = [w; v]`` and its rate ``dt_b/dt = [dw; a - w x
    v]`` (Frame 1); per body, ``Rrel`` (n, 3, 3) the orientation of Frame k
    in Frame k-1, ``R`` (n, 3, 3) in Frame 1, ``P`` (n, 9, 6) the projection
    matrix of eq. (30) by columns (``P[k, j]`` is column j of ``P_k``),
    ``Wv`` (n, 6) ``W_g,k - D_k a_k - W_k D_k t_k`` at the COG, Frame k (on
    the last body with the tip force's wrench), and ``to`` (6) the twist of
    the last body's origin, Frame n-1."""
    n = mass.shape[0]
    N = 6 + n
    tb = np.empty(6)
    tb_dot = np.empty(6)
    g_b = np.empty(3)  # R_1^0^T [0, 0, -g]: the third row of R_1^0
    for i in range(3):
        tb[i], tb[3 + i] = inp[9 + i], inp[15 + i]
        tb_dot[i] = inp[12 + i]
        g_b[i] = -g * inp[6 + i]
    tb_dot[3] = inp[18] - (tb[1] * tb[5] - tb[2] * tb[4])
    tb_dot[4] = inp[19] - (tb[2] * tb[3] - tb[0] * tb[5])
    tb_dot[5] = inp[20] - (tb[0] * tb[4] - tb[1] * tb[3])

    Rrel = np.empty((n, 3, 3))
    R = np.empty((n, 3, 3))
    P = np.zeros((n, N, 6))
    Wv = np.empty((n, 6))
    M = np.zeros((N, N))
    f = np.zeros(N)
    Po = np.zeros((N, 6))  # Po_k by columns, carried from body to body
    for i in range(6):
        Po[i, i] = 1.0
    to = tb.copy()
    ao = np.zeros(6)
    t = np.empty(6)
    a = np.empty(6)
    DP = np.empty((N, 6))
    for k in range(n):
        # R_(k-1)^k (q_k) = R0_k Rz(q_k), eqs. (54)-(56)
        cq, sq = math.cos(x[k]), math.sin(x[k])
        for i in range(3):
            Rrel[k, i, 0] = R0[k, i, 0] * cq + R0[k, i, 1] * sq
            Rrel[k, i, 1] = R0[k, i, 1] * cq - R0[k, i, 0] * sq
            Rrel[k, i, 2] = R0[k, i, 2]
        for i in range(3):
            for j in range(3):
                if k == 0:
                    R[k, i, j] = Rrel[k, i, j]
                else:
                    R[k, i, j] = (R[k - 1, i, 0] * Rrel[k, 0, j] + R[k - 1, i, 1] * Rrel[k, 1, j]
                                  + R[k - 1, i, 2] * Rrel[k, 2, j])
        # the speeds of the later joints do not move body k: its columns stay zero
        ncol = 6 + k + 1
        for j in range(ncol - 1):
            _motion_to_child(Rrel[k], off0[k], Po[j], Po[j])
        Po[6 + k, 2] = 1.0
        uk = x[n + k]
        _motion_to_child(Rrel[k], off0[k], to, to)
        _motion_to_child(Rrel[k], off0[k], ao, ao)
        # ao -= ad(s_k u_k) X to_(k-1), with ad(s u) y = u [z x y_w; z x y_v]
        ao[0] += uk * to[1]
        ao[1] -= uk * to[0]
        ao[3] += uk * to[4]
        ao[4] -= uk * to[3]
        to[2] += uk
        c = com[k]
        for j in range(ncol):
            _to_cog(c, Po[j], P[k, j])
        _to_cog(c, to, t)
        _to_cog(c, ao, a)
        I_k, m_k = inertia[k], mass[k]
        # M += P_k^T D_k P_k
        for j in range(ncol):
            for r in range(3):
                DP[j, r] = I_k[r, 0] * P[k, j, 0] + I_k[r, 1] * P[k, j, 1] + I_k[r, 2] * P[k, j, 2]
                DP[j, 3 + r] = m_k * P[k, j, 3 + r]
        for i in range(ncol):
            for j in range(i, ncol):
                acc = 0.0
                for r in range(6):
                    acc += P[k, i, r] * DP[j, r]
                M[i, j] += acc
                if j > i:
                    M[j, i] += acc
        # W_g,k - D_k a_k - [w x M w; w x m v] (eqs. (32), (34))
        Iw0 = I_k[0, 0] * t[0] + I_k[0, 1] * t[1] + I_k[0, 2] * t[2]
        Iw1 = I_k[1, 0] * t[0] + I_k[1, 1] * t[1] + I_k[1, 2] * t[2]
        Iw2 = I_k[2, 0] * t[0] + I_k[2, 1] * t[1] + I_k[2, 2] * t[2]
        Wv[k, 0] = -(I_k[0, 0] * a[0] + I_k[0, 1] * a[1] + I_k[0, 2] * a[2] + t[1] * Iw2 - t[2] * Iw1)
        Wv[k, 1] = -(I_k[1, 0] * a[0] + I_k[1, 1] * a[1] + I_k[1, 2] * a[2] + t[2] * Iw0 - t[0] * Iw2)
        Wv[k, 2] = -(I_k[2, 0] * a[0] + I_k[2, 1] * a[1] + I_k[2, 2] * a[2] + t[0] * Iw1 - t[1] * Iw0)
        for i in range(3):
            g_k = R[k, 0, i] * g_b[0] + R[k, 1, i] * g_b[1] + R[k, 2, i] * g_b[2]
            Wv[k, 3 + i] = m_k * g_k - m_k * a[3 + i]
        Wv[k, 3] -= m_k * (t[1] * t[5] - t[2] * t[4])
        Wv[k, 4] -= m_k * (t[2] * t[3] - t[0] * t[5])
        Wv[k, 5] -= m_k * (t[0] * t[4] - t[1] * t[3])
        if k == n - 1:
            # the tip force, Frame 0 -> Frame 1 (R_1^0^T) -> Frame k (R_k^T), and its moment about the COG
            f1 = np.empty(3)
            for i in range(3):
                f1[i] = inp[i] * inp[27] + inp[3 + i] * inp[28] + inp[6 + i] * inp[29]
            fk = np.empty(3)
            for i in range(3):
                fk[i] = R[k, 0, i] * f1[0] + R[k, 1, i] * f1[1] + R[k, 2, i] * f1[2]
            l0, l1, l2 = tip[0] - c[0], tip[1] - c[1], tip[2] - c[2]
            Wv[k, 0] += l1 * fk[2] - l2 * fk[1]
            Wv[k, 1] += l2 * fk[0] - l0 * fk[2]
            Wv[k, 2] += l0 * fk[1] - l1 * fk[0]
            for i in range(3):
                Wv[k, 3 + i] += fk[i]
        for j in range(ncol):
            acc = 0.0
            for r in range(6):
                acc += P[k, j, r] * Wv[k, r]
            f[j] += acc
    for j in range(n):
        f[6 + j] += inp[21 + j] + inp[24 + j]
    return M, f, tb, tb_dot, Rrel, R, P, Wv, to


def derivatives(t, x, inp, R0, off0, com, inertia, mass, g, tip):
    """``dx/dt = [u; du/dt]`` of the crane at ``(t, x, inp)``
    (``Crane.derivatives``) [rad/s, rad/s^2]: the joint rows of Kane's
    equations, ``M_jj du = f_j - M_jb dt_b/dt``."""
    n = mass.shape[0]
    M, f, tb, tb_dot, Rrel, R, P, Wv, to = _kane(x, inp, R0, off0, com, inertia, mass, g, tip)
    A = np.empty((n, n))
    b = np.empty((n, 1))
    for i in range(n):
        acc = f[6 + i]
        for r in range(6):
            acc -= M[6 + i, r] * tb_dot[r]
        b[i, 0] = acc
        for j in range(n):
            A[i, j] = M[6 + i, 6 + j]
    _lu_solve(A, b)
    out = np.empty(2 * n)
    for i in range(n):
        out[i] = x[n + i]
        out[n + i] = b[i, 0]
    return out


def outputs(t, x, inp, R0, off0, com, inertia, mass, g, tip):
    """The block's output vector (``Crane.outputs`` order): the state; the
    joint accelerations [rad/s^2]; the wrench of the mount on the king at the
    mount point, ``W_mount`` in Frame 1 and ``W_king`` in Frame 2 [N m, N];
    the 21 upper-triangle entries of ``I_A`` row by row [kg m^2, kg m, kg]
    and ``p_A`` [N m, N] (Frame 1, at the mount); the wrenches of the king on
    the boom at the origin of Frame 3 and of the boom on the jib at the
    origin of Frame 4, each in its own frame [N m, N]; the tip's position
    [m] and velocity [m/s] in Frame 0."""
    n = mass.shape[0]
    N = 6 + n
    M, f, tb, tb_dot, Rrel, R, P, Wv, to = _kane(x, inp, R0, off0, com, inertia, mass, g, tip)
    # mount split: sol = M_jj^-1 [M_jb, f_j]
    A = np.empty((n, n))
    sol = np.empty((n, 7))
    for i in range(n):
        for j in range(n):
            A[i, j] = M[6 + i, 6 + j]
        for r in range(6):
            sol[i, r] = M[6 + i, r]
        sol[i, 6] = f[6 + i]
    _lu_solve(A, sol)
    nudot = np.empty(N)
    for r in range(6):
        nudot[r] = tb_dot[r]
    for i in range(n):
        acc = sol[i, 6]
        for r in range(6):
            acc -= sol[i, r] * tb_dot[r]
        nudot[6 + i] = acc
    # the state, du, W_mount, W_king, I_A, p_A, the reactions of joints 1..n-1, the tip's motion
    y = np.empty(3 * n + 12 + 27 + 6 * (n - 1) + 6)
    for i in range(2 * n):
        y[i] = x[i]
    for i in range(n):
        y[2 * n + i] = nudot[6 + i]
    # W = M_bb dt_b/dt + M_bj du - f_b, Frame 1, then Frame 2
    o = 3 * n
    for i in range(6):
        acc = -f[i]
        for j in range(N):
            acc += M[i, j] * nudot[j]
        y[o + i] = acc
    for i in range(3):
        y[o + 6 + i] = R[0, 0, i] * y[o] + R[0, 1, i] * y[o + 1] + R[0, 2, i] * y[o + 2]
        y[o + 9 + i] = R[0, 0, i] * y[o + 3] + R[0, 1, i] * y[o + 4] + R[0, 2, i] * y[o + 5]
    # I_A = M_bb - M_bj M_jj^-1 M_jb, made symmetric, and p_A = M_bj M_jj^-1 f_j - f_b - I_A [0; w x v]
    I_A = np.empty((6, 6))
    for i in range(6):
        for j in range(6):
            acc = M[i, j]
            for r in range(n):
                acc -= M[i, 6 + r] * sol[r, j]
            I_A[i, j] = acc
    o += 12
    for i in range(6):
        for j in range(i, 6):
            y[o] = 0.5 * (I_A[i, j] + I_A[j, i])
            o += 1
    wxv0 = tb[1] * tb[5] - tb[2] * tb[4]
    wxv1 = tb[2] * tb[3] - tb[0] * tb[5]
    wxv2 = tb[0] * tb[4] - tb[1] * tb[3]
    for i in range(6):
        acc = -f[i]
        for r in range(n):
            acc += M[i, 6 + r] * sol[r, 6]
        y[o + i] = acc - (0.5 * (I_A[i, 3] + I_A[3, i]) * wxv0 + 0.5 * (I_A[i, 4] + I_A[4, i]) * wxv1
                          + 0.5 * (I_A[i, 5] + I_A[5, i]) * wxv2)
    o += 6
    # joint reactions, eq. (50), from the jib inwards: F_k = U_k^T w_k + X_(k+1)^T F_(k+1), with
    # w_k = D_k dt_k/dt + W_k D_k t_k - W_g,k = D_k P_k nudot - Wv_k
    F = np.zeros(6)
    prev = np.empty(6)
    acc6 = np.empty(6)
    for k in range(n - 1, 0, -1):
        if k < n - 1:
            for r in range(6):
                prev[r] = F[r]
                F[r] = 0.0
            _force_to_parent(Rrel[k + 1], off0[k + 1], prev, F)
        for r in range(6):
            s = 0.0
            for j in range(6 + k + 1):
                s += P[k, j, r] * nudot[j]
            acc6[r] = s
        I_k, m_k, c = inertia[k], mass[k], com[k]
        w0 = I_k[0, 0] * acc6[0] + I_k[0, 1] * acc6[1] + I_k[0, 2] * acc6[2] - Wv[k, 0]
        w1 = I_k[1, 0] * acc6[0] + I_k[1, 1] * acc6[1] + I_k[1, 2] * acc6[2] - Wv[k, 1]
        w2 = I_k[2, 0] * acc6[0] + I_k[2, 1] * acc6[1] + I_k[2, 2] * acc6[2] - Wv[k, 2]
        f0 = m_k * acc6[3] - Wv[k, 3]
        f1 = m_k * acc6[4] - Wv[k, 4]
        f2 = m_k * acc6[5] - Wv[k, 5]
        # U_k^T [n; f] = [n + c x f; f]: from the COG to the origin of Frame k
        F[0] += w0 + c[1] * f2 - c[2] * f1
        F[1] += w1 + c[2] * f0 - c[0] * f2
        F[2] += w2 + c[0] * f1 - c[1] * f0
        F[3] += f0
        F[4] += f1
        F[5] += f2
        for r in range(6):
            y[o + 6 * (k - 1) + r] = F[r]
    o += 6 * (n - 1)
    # the tip: in Frame 1 the last origin (o_k = o_(k-1) + R_(k-1) off_k) plus R_(n-1) tip; its velocity
    # in Frame n-1 v + w x tip, the origin's twist carried; both then in Frame 0 (R_1^0 = inp[0:9])
    p1 = np.zeros(3)
    for k in range(n):
        for i in range(3):
            if k == 0:
                p1[i] += off0[0, i]
            else:
                p1[i] += R[k - 1, i, 0] * off0[k, 0] + R[k - 1, i, 1] * off0[k, 1] + R[k - 1, i, 2] * off0[k, 2]
    vk = np.empty(3)
    vk[0] = to[3] + to[1] * tip[2] - to[2] * tip[1]
    vk[1] = to[4] + to[2] * tip[0] - to[0] * tip[2]
    vk[2] = to[5] + to[0] * tip[1] - to[1] * tip[0]
    v1 = np.empty(3)
    for i in range(3):
        p1[i] += R[n - 1, i, 0] * tip[0] + R[n - 1, i, 1] * tip[1] + R[n - 1, i, 2] * tip[2]
        v1[i] = R[n - 1, i, 0] * vk[0] + R[n - 1, i, 1] * vk[1] + R[n - 1, i, 2] * vk[2]
    for i in range(3):
        y[o + i] = inp[30 + i] + inp[3 * i] * p1[0] + inp[3 * i + 1] * p1[1] + inp[3 * i + 2] * p1[2]
        y[o + 3 + i] = inp[3 * i] * v1[0] + inp[3 * i + 1] * v1[1] + inp[3 * i + 2] * v1[2]
    return y
