"""The knuckle boom crane's hot path as plain loops over floats and small
arrays, for numba to compile (``blocks/jit.py``): the equations of motion,
the outputs and the reaction wrenches of
:class:`blocks.knuckle_boom.KnuckleBoomCrane` at one state.

The numpy code of ``knuckle_boom.py`` and ``kane.py`` is the reference: it
follows the papers' matrices (projection matrices ``P_k`` and their
derivatives, eqs. (29)-(38) of Cibicik & Egeland (2018) and (41)-(46), (58)-(65) of Cibicik & Egeland 2019) and the
tests compare this module with it at random states.  Here the same Kane's
equations are formed in another way, one pass over the tree carrying for
each body, referenced to its COG in its own frame,

* the Jacobian in the crane's speeds ``J_k = P_k G~`` (6 x (6+m)),
* the twist ``t_k = J_k nu`` and
* the bias acceleration ``a_k = dP_k/dt nu_theta + P_k dG~/dt nu``, the
  acceleration of body k when ``d nu/dt = 0``,

with the recursions (origin-referenced, ``X_k`` the twist transform of
joint k, ``s_k`` its screw, ``ad`` the twist cross product)
``Jo_k = X_k Jo_parent + s_k G~_k``, ``to_k = X_k to_parent + s_k dtheta_k``,
``ao_k = X_k ao_parent - ad(s_k dtheta_k) X_k to_parent + s_k (dG/dt u)_k``.
Then ``M = sum J_k^T D_k J_k`` and
``f = sum J_k^T (W_g,k - D_k a_k - W_k D_k t_k)`` (eqs. (43)-(46) of Cibicik & Egeland 2019).

The joint map ``theta, G, dG/dt u`` uses the loops' closed forms, eqs.
(29)-(30), (37) and (40) of Cibicik & Egeland (2019), and their time
derivatives; the numpy reference (:mod:`blocks.cylinder_loop`,
:meth:`KnuckleBoomCrane.joint_map`) solves the paper's virtual-work
equations of the loop's screws (eqs. 31-39) instead.

This module imports only math and numpy, so that it runs (slowly) without
numba and ``blocks/jit.py`` can load it from a copy outside the package; it
must not import the rest of the package.
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import finite, inputs_after_step, inputs_at_middle

# -- the cylinder loop of Fig. 2 of Cibicik & Egeland (2019) (the reference: blocks/cylinder_loop.py) -----


def loop_angles(q, l_b, a_b, e_b, a_p, e_p):
    """``(alpha, beta)`` [rad] for the piston extension ``q`` [m], eqs. (29)
    and (30) of Cibicik & Egeland (2019); NaN where the loop cannot close."""
    lc, b1, b2 = l_b + q, math.hypot(a_b, e_b), math.hypot(a_p, e_p)
    c_alpha = (lc * lc - b1 * b1 - b2 * b2) / (-2.0 * b1 * b2)
    c_beta = (b2 * b2 - b1 * b1 - lc * lc) / (-2.0 * b1 * lc)
    if abs(c_alpha) > 1.0 or abs(c_beta) > 1.0:
        return math.nan, math.nan
    alpha = math.acos(c_alpha) + math.atan(a_b / e_b) + math.atan(a_p / e_p) - math.pi
    beta = -math.acos(c_beta) - math.atan(e_b / a_b) + math.pi / 2
    return alpha, beta


def loop_state(q, u, l_b, a_b, e_b, a_p, e_p):
    """``(alpha, beta, A_a, A_b, dA_a/dt, dA_b/dt)``: the angles of eqs.
    (29)-(30), the gains ``A = d(angle)/dq`` of eqs. (37) and (40) [rad/m] and
    their time derivatives along ``dq/dt = u`` [rad/(m s)], by differentiating
    (37) and (40): with ``den = a_p c - e_p s``, ``num = e_p c + a_p s`` and
    ``d(alpha - beta)/dt = (A_a - A_b) u``, ``den' = -num (A_a - A_b) u`` and
    ``num' = den (A_a - A_b) u``."""
    alpha, beta = loop_angles(q, l_b, a_b, e_b, a_p, e_p)
    c, s = math.cos(alpha - beta), math.sin(alpha - beta)
    den = a_p * c - e_p * s
    num = e_p * c + a_p * s
    lc = l_b + q
    A_a = 1.0 / den
    A_b = num / (lc * den)
    w = (A_a - A_b) * u
    den_dot, num_dot = -num * w, den * w
    A_a_dot = -den_dot / den**2
    A_b_dot = num_dot / (lc * den) - num * (u * den + lc * den_dot) / (lc * den) ** 2
    return alpha, beta, A_a, A_b, A_a_dot, A_b_dot


# -- small vector algebra ---------------------------------------------------------


def _cross_of(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _matvec3(A, v):
    return np.array([A[0, 0] * v[0] + A[0, 1] * v[1] + A[0, 2] * v[2],
                     A[1, 0] * v[0] + A[1, 1] * v[1] + A[1, 2] * v[2],
                     A[2, 0] * v[0] + A[2, 1] * v[1] + A[2, 2] * v[2]])


def _transpose_matvec3(A, v):
    return np.array([A[0, 0] * v[0] + A[1, 0] * v[1] + A[2, 0] * v[2],
                     A[0, 1] * v[0] + A[1, 1] * v[1] + A[2, 1] * v[2],
                     A[0, 2] * v[0] + A[1, 2] * v[1] + A[2, 2] * v[2]])


def _mv(A, v):
    """``A @ v`` for any layout of ``A`` (numba's ``@`` wants contiguous arrays)."""
    out = np.zeros(A.shape[0])
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            out[i] += A[i, j] * v[j]
    return out


def _matmul3(A, B):
    out = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            out[i, j] = A[i, 0] * B[0, j] + A[i, 1] * B[1, j] + A[i, 2] * B[2, j]
    return out


def _transform(RT, off, t, out):
    """``out = X t``: twist ``t`` of the parent's origin (parent coordinates)
    carried to the origin of a frame at ``off`` turned by ``RT^T``,
    ``X t = [RT w; RT (v + w x off)]`` (eq. (23) of Cibicik & Egeland 2018)."""
    w0, w1, w2 = t[0], t[1], t[2]
    v0 = t[3] + w1 * off[2] - w2 * off[1]
    v1 = t[4] + w2 * off[0] - w0 * off[2]
    v2 = t[5] + w0 * off[1] - w1 * off[0]
    for i in range(3):
        out[i] = RT[i, 0] * w0 + RT[i, 1] * w1 + RT[i, 2] * w2
        out[3 + i] = RT[i, 0] * v0 + RT[i, 1] * v1 + RT[i, 2] * v2


def _to_cog(com, t, out):
    """``out = U t``: the reference of twist ``t`` moved from a body's origin
    to its COG (eq. (20) of Cibicik & Egeland 2018)."""
    out[0], out[1], out[2] = t[0], t[1], t[2]
    out[3] = t[3] + t[1] * com[2] - t[2] * com[1]
    out[4] = t[4] + t[2] * com[0] - t[0] * com[2]
    out[5] = t[5] + t[0] * com[1] - t[1] * com[0]


# -- the tree's Kane's equations in the crane's speeds ----------------------------


def joint_map(x, loops):
    """``theta`` (7), ``G`` (7 x 3) and ``dG/dt u`` (7) of the knuckle boom
    at state ``x = [q; u]``; ``loops`` rows ``(l_b, a_b, e_b, a_p, e_p)`` of
    the inner and outer cylinder.  Joint order ``(q1, alpha2, alpha3, beta2,
    q2, beta3, q3)``."""
    theta = np.zeros(7)
    G = np.zeros((7, 3))
    Gdot_u = np.zeros(7)
    theta[0] = x[0]
    G[0, 0] = 1.0
    for c in range(2):
        q, u = x[1 + c], x[4 + c]
        L = loops[c]
        alpha, beta, A_a, A_b, dA_a, dA_b = loop_state(q, u, L[0], L[1], L[2], L[3], L[4])
        i_alpha, i_beta, i_piston = 1 + c, 3 + 2 * c, 4 + 2 * c
        theta[i_alpha], theta[i_beta], theta[i_piston] = alpha, beta, q
        G[i_alpha, 1 + c], G[i_beta, 1 + c], G[i_piston, 1 + c] = A_a, A_b, 1.0
        Gdot_u[i_alpha], Gdot_u[i_beta] = dA_a * u, dA_b * u
    return theta, G, Gdot_u


def tree_terms(theta, G, Gdot_u, u, tb, g_base, parents, R0, Kb, K2b, off0, slide, revolute, screws,
               com, mass, inertia):
    """Kane's equations of a tree of rigid bodies on a moving base, in the
    speeds ``nu = [t_b; u]`` with joint rates ``dtheta/dt = G u``.

    ``tb``: base twist ``[w; v]`` (base frame); ``g_base``: gravity in base
    coordinates [m/s^2]; the rest is the tree as :class:`blocks.kane.Chain`
    stores it (``Chain._R0``, ``_Kb``, ...).  Returns ``M`` ((6+m) square),
    ``f`` (gravity less velocity terms), ``tau_g`` (gravity only), and per
    body ``R``, ``p`` (pose in the base frame), ``J`` (by rows: ``J[k, j]``
    is column j of ``J_k``) and ``W`` (the gravity wrench less the velocity
    part of the inertial wrench, ``[n; f]`` at the COG, body coordinates)."""
    n, m = theta.shape[0], G.shape[1]
    N = 6 + m
    theta_dot = np.zeros(n)
    for k in range(n):
        for j in range(m):
            theta_dot[k] += G[k, j] * u[j]
    R = np.empty((n, 3, 3))
    p = np.empty((n, 3))
    # Jacobians stored by rows, Jo[k, j] = column j of Jo_k: contiguous
    Jo = np.empty((n, N, 6))
    J = np.empty((n, N, 6))
    to = np.empty((n, 6))
    ao = np.empty((n, 6))
    W = np.empty((n, 6))
    M = np.zeros((N, N))
    f = np.zeros(N)
    tau_g = np.zeros(N)
    base_Jo = np.zeros((N, 6))
    for i in range(6):
        base_Jo[i, i] = 1.0
    zero6 = np.zeros(6)
    E = np.empty((3, 3))
    Xtp = np.empty(6)
    t = np.empty(6)
    a = np.empty(6)
    DJ = np.empty((N, 6))
    for k in range(n):
        parent = parents[k]
        ang = theta[k] * revolute[k]
        sa, ca = math.sin(ang), 1.0 - math.cos(ang)
        for i in range(3):
            for j in range(3):
                E[i, j] = (1.0 if i == j else 0.0) + sa * Kb[k, i, j] + ca * K2b[k, i, j]
        Rrel = _matmul3(R0[k], E)
        RT = Rrel.T.copy()
        off = off0[k] + slide[k] * theta[k]
        if parent < 0:
            R[k] = Rrel
            p[k] = off
            Jp, tp, ap = base_Jo, tb, zero6
        else:
            R[k] = _matmul3(R[parent], Rrel)
            p[k] = p[parent] + _matvec3(R[parent], off)
            Jp, tp, ap = Jo[parent], to[parent], ao[parent]
        s = screws[k]
        for j in range(N):
            _transform(RT, off, Jp[j], Jo[k, j])
        for j in range(m):
            for r in range(6):
                Jo[k, 6 + j, r] += s[r] * G[k, j]
        _transform(RT, off, tp, Xtp)
        _transform(RT, off, ap, ao[k])
        # to_k = X tp + rel;  ao_k = X ap + s (dG/dt u)_k - ad(rel) X tp, with
        # ad(rel) y = [w_r x y_w; v_r x y_w + w_r x y_v] and rel = s dtheta_k
        rel = s * theta_dot[k]
        for r in range(6):
            to[k, r] = Xtp[r] + rel[r]
            ao[k, r] += s[r] * Gdot_u[k]
        ao[k, :3] -= _cross_of(rel[:3], Xtp[:3])
        ao[k, 3:] -= _cross_of(rel[3:], Xtp[:3]) + _cross_of(rel[:3], Xtp[3:])
        # at the COG
        c = com[k]
        for j in range(N):
            _to_cog(c, Jo[k, j], J[k, j])
        _to_cog(c, to[k], t)
        _to_cog(c, ao[k], a)
        I_k, m_k = inertia[k], mass[k]
        # M += J_k^T D_k J_k
        for j in range(N):
            for r in range(3):
                DJ[j, r] = I_k[r, 0] * J[k, j, 0] + I_k[r, 1] * J[k, j, 1] + I_k[r, 2] * J[k, j, 2]
                DJ[j, 3 + r] = m_k * J[k, j, 3 + r]
        for i in range(N):
            for j in range(i, N):
                acc = 0.0
                for r in range(6):
                    acc += J[k, i, r] * DJ[j, r]
                M[i, j] += acc
                if j > i:
                    M[j, i] += acc
        # gravity [0; m R^T g] less D a + [w x I w; w x m v]
        Iw = _matvec3(I_k, t[:3])
        g_k = _transpose_matvec3(R[k], g_base)
        W[k, :3] = -(_matvec3(I_k, a[:3]) + _cross_of(t[:3], Iw))
        W[k, 3:] = m_k * (g_k - a[3:] - _cross_of(t[:3], t[3:]))
        for i in range(N):
            fi, gi = 0.0, 0.0
            for r in range(3):
                fi += J[k, i, r] * W[k, r] + J[k, i, 3 + r] * W[k, 3 + r]
                gi += J[k, i, 3 + r] * m_k * g_k[r]
            f[i] += fi
            tau_g[i] += gi
    return M, f, tau_g, R, p, J, W


# -- the crane -------------------------------------------------------------------


def _tip_wrench(inp, R, c, tip):
    """The tip load ``F_tip`` (``inp[27:30]``, Frame 0) on the outer boom as
    a wrench ``[(tip - c) x f; f]`` at its COG ``c``, ``f`` in its frame
    (``R`` its orientation in Frame 1, ``R_1^0`` in ``inp[0:9]``)."""
    f1 = np.empty(3)
    for i in range(3):
        f1[i] = inp[i] * inp[27] + inp[3 + i] * inp[28] + inp[6 + i] * inp[29]
    f = _transpose_matvec3(R, f1)
    out = np.empty(6)
    out[:3] = _cross_of(tip - c, f)
    out[3:] = f
    return out


def _crane(x, inp, loops, g, parents, R0, Kb, K2b, off0, slide, revolute, screws, com, mass, inertia, tip):
    """Kane's equations of the knuckle boom at state ``x`` with inputs ``inp``
    (the block's input vector): ``M``, ``f`` (with the actuator forces and
    the tip load), ``hold``, the base twist and its rate, and the per-body
    terms of :func:`tree_terms` (the outer boom's ``W`` with the tip load)."""
    theta, G, Gdot_u = joint_map(x, loops)
    tb = np.empty(6)
    tb[:3], tb[3:] = inp[9:12], inp[15:18]
    tb_dot = np.empty(6)
    tb_dot[:3] = inp[12:15]
    tb_dot[3:] = inp[18:21] - _cross_of(inp[9:12], inp[15:18])
    # g_base = R_1^0^T [0, 0, -g]: the last row of R_1^0
    g_base = -g * inp[6:9]
    M, f, tau_g, R, p, J, W = tree_terms(theta, G, Gdot_u, x[3:], tb, g_base, parents, R0, Kb, K2b, off0,
                                         slide, revolute, screws, com, mass, inertia)
    # the tip load on the outer boom (body 2), beside gravity: in its total wrench, in f and in the holding
    # actuation's tau_g
    wt = _tip_wrench(inp, R[2], com[2], tip)
    for r in range(6):
        W[2, r] += wt[r]
    for i in range(6 + G.shape[1]):
        acc = 0.0
        for r in range(6):
            acc += J[2, i, r] * wt[r]
        f[i] += acc
        tau_g[i] += acc
    # the joints' applied forces (slewing torque, friction torques, piston
    # forces) through the joint map: f += G^T tau_theta
    tau_theta = np.zeros(7)
    tau_theta[0] = inp[21] + inp[24]
    tau_theta[1], tau_theta[2] = inp[25], inp[26]
    tau_theta[4], tau_theta[6] = inp[22], inp[23]
    for j in range(3):
        for k in range(7):
            f[6 + j] += G[k, j] * tau_theta[k]
    return M, f, -tau_g[6:], tb, tb_dot, R, p, J, W, theta, G


def accelerations(x, inp, loops, g, parents, R0, Kb, K2b, off0, slide, revolute, screws, com, mass, inertia,
                  tip):
    """``du/dt`` of the crane's joint rows of Kane's equations with the base
    motion given: ``M_jj du = f_j - M_jb dt_b/dt``."""
    M, f, hold, tb, tb_dot, R, p, J, W, theta, G = _crane(x, inp, loops, g, parents, R0, Kb, K2b, off0, slide,
                                                          revolute, screws, com, mass, inertia, tip)
    return np.linalg.solve(np.ascontiguousarray(M[6:, 6:]), f[6:] - _mv(M[6:, :6], tb_dot))


def outputs(x, inp, loops, g, parents, R0, Kb, K2b, off0, slide, revolute, screws, com, mass, inertia, tip,
            rows, row_points, carried_by, d_b, d_p):
    """The block's output vector (``KnuckleBoomCrane.outputs`` order): state,
    accelerations, holding actuation, mount wrench in mount and king
    coordinates, articulated inertia and bias wrench (``interface.mount_split``),
    reactions in Joints 2 and 3 and the cylinders' support loads
    (``KnuckleBoomCrane.reactions``: eqs. (51)-(56) of Cibicik & Egeland 2019),
    the luffing joints' angles and rates, the tip's position [m] and velocity
    [m/s] in Frame 0."""
    M, f, hold, tb, tb_dot, R, p, J, W, theta, G = _crane(x, inp, loops, g, parents, R0, Kb, K2b, off0, slide,
                                                          revolute, screws, com, mass, inertia, tip)
    # mount split: W1 = I_A [dw; a] + p_A
    rhs = np.empty((3, 7))
    rhs[:, :6] = M[6:, :6]
    rhs[:, 6] = f[6:]
    sol = np.linalg.solve(np.ascontiguousarray(M[6:, 6:]), rhs)
    du = sol[:, 6] - _mv(sol[:, :6], tb_dot)
    W1 = _mv(M[:6, :6], tb_dot) + _mv(M[:6, 6:], du) - f[:6]
    I_A = M[:6, :6].copy()
    for i in range(6):
        for j in range(6):
            for r in range(3):
                I_A[i, j] -= M[i, 6 + r] * sol[r, j]
    I_A = 0.5 * (I_A + I_A.T)
    p_A = _mv(M[:6, 6:], sol[:, 6]) - f[:6] - _mv(I_A[:, 3:], _cross_of(tb[:3], tb[3:]))
    # total wrenches of the bodies (eq. 49), the actuators on them (eqs. 67-68)
    nudot = np.empty(9)
    nudot[:6], nudot[6:] = tb_dot, du
    Wt = W.copy()
    for k in range(7):
        acc = np.zeros(6)
        for j in range(9):
            acc += J[k, j] * nudot[j]
        Wt[k, :3] -= _matvec3(inertia[k], acc[:3])
        Wt[k, 3:] -= mass[k] * acc[3:]
    T1, F2, F3, tf1, tf2, tf3 = inp[21], inp[22], inp[23], inp[24], inp[25], inp[26]
    # friction couples about the joint axes (z of the king, x of the booms)
    Wt[0, 2] += T1 + tf1
    Wt[1, 0] += tf2 - tf3
    Wt[0, 0] -= tf2
    Wt[2, 0] += tf3
    Wt[3, 5] -= F2
    Wt[4, 5] += F2
    Wt[5, 5] -= F3
    Wt[6, 5] += F3
    # support loads of each cylinder (eqs. 51-55), cylinder frame
    f_B = np.empty((2, 3))
    f_P = np.empty((2, 3))
    n_Bz = np.empty(2)
    lc = np.empty(2)
    for c in range(2):
        b, pi = 3 + 2 * c, 4 + 2 * c
        lc[c] = loops[c, 0] + x[1 + c]
        r_p = lc[c] + d_p[c]
        nb, fb, npi, fp = Wt[b, :3], Wt[b, 3:], Wt[pi, :3], Wt[pi, 3:]
        f_P[c, 0] = (nb[1] + npi[1] + d_b[c] * fb[0] + r_p * fp[0]) / lc[c]
        f_P[c, 1] = -(nb[0] + npi[0] - d_b[c] * fb[1] - r_p * fp[1]) / lc[c]
        f_P[c, 2] = fp[2]
        f_B[c] = fb + fp - f_P[c]
        n_Bz[c] = nb[2] + npi[2]
    # reactions in Joints 1-3: minus the wrench sums beyond each joint (eq. 56)
    F = np.zeros((3, 3))
    N_O = np.zeros((3, 3))
    for i in range(7):
        body = rows[i]
        n_loc, f_loc, point = np.zeros(3), np.zeros(3), row_points[i].copy()
        if i < 3:
            n_loc[:], f_loc[:] = Wt[i, :3], Wt[i, 3:]
        else:
            c = (i - 3) // 2
            if (i - 3) % 2 == 0:
                n_loc[2], f_loc[:] = n_Bz[c], f_B[c]
            else:
                f_loc[:] = f_P[c]
                point[2] = lc[c]
        f_base = _matvec3(R[body], f_loc)
        at = p[body] + _matvec3(R[body], point)
        n_base = _matvec3(R[body], n_loc) + _cross_of(at, f_base)
        for k in range(3):
            if carried_by[k, i] != 0.0:
                F[k] += f_base
                N_O[k] += n_base
    y = np.empty(87)
    y[:6] = x
    y[6:9] = du
    y[9:12] = hold
    y[12:18] = W1
    y[18:21] = _transpose_matvec3(R[0], W1[:3])
    y[21:24] = _transpose_matvec3(R[0], W1[3:])
    i = 24
    for r in range(6):
        for c in range(r, 6):
            y[i] = I_A[r, c]
            i += 1
    y[45:51] = p_A
    for k in range(1, 3):
        o = 51 + 6 * (k - 1)
        y[o:o + 3] = -_transpose_matvec3(R[k], N_O[k] - _cross_of(p[k], F[k]))
        y[o + 3:o + 6] = -_transpose_matvec3(R[k], F[k])
    # the wrench through Joints 2 and 3: the pin's reaction and the friction couple
    y[51] += tf2
    y[57] += tf3
    for c in range(2):
        o = 63 + 7 * c
        y[o:o + 3] = f_B[c]
        y[o + 3] = n_Bz[c]
        y[o + 4:o + 7] = f_P[c]
    # the luffing joints' angles and rates
    y[77], y[78] = theta[1], theta[2]
    for k in range(2):
        y[79 + k] = G[1 + k, 1] * x[4] + G[1 + k, 2] * x[5] + G[1 + k, 0] * x[3]
    # the tip: the outer boom's COG twist J_2 nu carried to it, in Frame 1 then Frame 0 (R_1^0 = inp[0:9])
    t = np.zeros(6)
    for j in range(6):
        t += J[2, j] * tb[j]
    for j in range(3):
        t += J[2, 6 + j] * x[3 + j]
    v2 = t[3:] + _cross_of(t[:3], tip - com[2])
    p1, v1 = p[2] + _matvec3(R[2], tip), _matvec3(R[2], v2)
    for i in range(3):
        y[81 + i] = inp[30 + i] + inp[3 * i] * p1[0] + inp[3 * i + 1] * p1[1] + inp[3 * i + 2] * p1[2]
        y[84 + i] = inp[3 * i] * v1[0] + inp[3 * i + 1] * v1[1] + inp[3 * i + 2] * v1[2]
    return y
