"""The algebraic loop of the flexible crane of Jarzębowska, Urbaś &
Augustynek (2018) on its spring-supported base, with friction in its three
joints, settled at one state in one compiled call: the right-hand side of
the monolithic run of that system (``cosim/monolithic/crane_loop.py``), which
otherwise sweeps the three blocks until their outputs stop changing.

The loop: a joint's friction torque is ``tau_j = -mu_j f_n,j d_j / 2``
(eq. (13)), with the friction level ``mu_j`` of eq. (15) a function of the
bristle state and the joint's rate alone (eq. (14)), both fixed at a state,
and the normal force ``f_n,j`` the modulus of two components of the joint's
reaction, which depends on the torques.  At a fixed state everything else
is affine in the three torques:

* the crane's Kane equations ``M nu' = f + A^T lambda`` with the programmed
  constraints ``A nu' = gamma`` (eqs. (17)-(18), Baumgarte's terms), the
  torques entering ``f`` at the joints' rows: its accelerations ``du``, the
  multipliers ``lambda``, the mount's wrench ``W = I_A t_b' + p_A`` and the
  joints' reactions (the recursive Newton-Euler wrenches, linear in the
  accelerations and the programme's force) are affine in the torques and
  the mount's acceleration ``t_b'``; ``I_A`` depends on the state alone;
* the base's ``(J^T M_O J + J_m^T I_A J_m) du_b = tau_b - J_m^T (I_A b_m +
  p_A)`` (``supported_base_kernels``): its accelerations, and the mount's
  ``t_b'``, affine in ``p_A``.

So the reactions are ``N(tau) = N_0 + (N_c + N_b) tau`` (six components,
two per joint), found once per state: the crane's equations solved for ten
right-hand sides (the state's, six unit mount accelerations, three unit
torques), the base's for six, the Newton-Euler recursion run for the state
and, without velocity terms and gravity, for each unit torque at a fixed
mount acceleration (``N_c``) and through the base's answer (``N_b``).  The loop is
then three numbers, iterated as the sweeps iterate them: the torques act
on the reactions at once through the crane and one sweep late through the
base (which answers the crane's ``p_A`` of the sweep before), ``tau_k+1 =
phi(N_0 + N_c tau_k + N_b tau_k-1)``, from zero, until two changes in a
row are round-off (1e-14 of the largest torque), in at most as many
iterations as the sweeps may take: where the sweeps would not settle (far
off the solution, a trial state of the integrator) neither does this, and
the sweeps decide, saying so.  Every term is formed by the
functions the blocks' kernels use (``flexible_crane_kernels``,
``supported_base_kernels``, ``joint_friction_kernels``: eq. (13)'s torque
and eqs. (14)-(15) by the same expressions).  The result is the sweeps'
fixed point, to their settling tolerance rather than to the bit.

This module imports only math, numpy and the functions of those kernel
modules (``blocks/jit.py`` joins them to its text); it runs (slowly)
without numba.

Arguments of :func:`settle`: ``t`` [s]; ``x_b``, ``x_c``, ``x_f`` the
base's, the crane's and the friction's states; ``tau_drive`` (3) [N m] the
crane's actuator torques (its inputs ``tau_slew``, ``tau_boom``,
``tau_jib``); ``tip_force`` (3) [N] the force on its tip (its input
``F_tip``, Frame 0); ``n_src`` (6) which of the crane's 24 wrench outputs
(``W_mount``, ``W_king``, ``W_boom``, ``W_jib``, six each) feed each
joint's two normal-force inputs of the friction, joint by joint; then the
base's kernel arguments (``M_O, com, mount, sup, S, C, par``), the crane's
(``R0, axis, off0, D, com, stiffness, joints, marker, par``; no ``tip``)
and the friction's (``laws, revolute, first, half_d``: those of
``joint_friction_kernels``, three revolute joints), friction joint i acting
in the crane's joint i (slew, boom, jib); ``max_sweeps`` the most
iterations.
"""
import math

import numpy as np

from .flexible_crane_kernels import _constrained_solve, _crane, _mount_columns, _force_to_parent, joint_wrenches
from .supported_base_kernels import _base
from .joint_friction_kernels import bristle_rate, hypot, level
from .kernel_helpers import _add_congruence, _cross, _lu_solve, _zyx_terms

#: the status of :func:`settle`: settled; the iteration did not settle; a value not finite
SETTLED, UNSETTLED, NOT_FINITE = 0, 1, 2


def _pack_upper(I_A, out):
    """``out[:21]``: the upper triangle of the 6 x 6 ``I_A`` row by row, as
    the blocks' ports carry it (``I_A_11``, ``I_A_12``, ...)."""
    o = 0
    for i in range(6):
        for j in range(i, 6):
            out[o] = I_A[i, j]
            o += 1


def _unit_response(X, j, through_base, a_base, out):
    """``out``: the rows of a solve's columns ``X`` (state, six unit mount
    accelerations, three unit torques) for unit torque ``j``: at a fixed
    mount its own column ``7 + j``, or, ``through_base``, the mount's
    columns taken along the base's acceleration ``a_base``."""
    for i in range(X.shape[0]):
        acc = X[i, 7 + j]
        if through_base:
            acc = 0.0
            for r in range(6):
                acc += X[i, 1 + r] * a_base[r]
        out[i] = acc


def _wrenches(RT, off0, axis, R, v, c, I, a_base, du, g_b, R10, grad, lam, marker, tip_load, out):
    """``out`` (24): the crane's outputs ``W_mount``, ``W_king``, ``W_boom``,
    ``W_jib`` (``flexible_crane_kernels.outputs``) for the mount's
    acceleration ``a_base``, the joints' ``du``, the multipliers ``lam``
    (the programme's force ``grad^T lam`` at E) and the tip load's wrench
    ``tip_load`` on the jib (at its origin, its axes)."""
    n = RT.shape[0]
    ext = tip_load.copy()
    if lam.shape[0]:
        F_E = np.empty(3)
        for i in range(3):
            F_E[i] = grad[0, i] * lam[0] + grad[1, i] * lam[1]
        Fb = np.empty(3)
        for i in range(3):
            Fb[i] = R10[0, i] * F_E[0] + R10[1, i] * F_E[1] + R10[2, i] * F_E[2]
        f = np.empty(3)
        for i in range(3):
            f[i] = R[n - 1, 0, i] * Fb[0] + R[n - 1, 1, i] * Fb[1] + R[n - 1, 2, i] * Fb[2]
        moment = np.empty(3)
        _cross(marker, f, moment)
        for i in range(3):
            ext[i] += moment[i]
            ext[3 + i] += f[i]
    F, a = joint_wrenches(RT, off0, axis, R, v, c, I, a_base, du, g_b, n - 1, ext)
    W1 = np.empty(6)
    _force_to_parent(RT[0], off0[0], F[0], W1)
    for i in range(6):
        out[i] = W1[i]
        out[12 + i] = F[1, i]
        out[18 + i] = F[n - 1, i]
    for i in range(3):
        out[6 + i] = R[0, 0, i] * W1[0] + R[0, 1, i] * W1[1] + R[0, 2, i] * W1[2]
        out[9 + i] = R[0, 0, i] * W1[3] + R[0, 1, i] * W1[4] + R[0, 2, i] * W1[5]


def _affine(t, x_b, x_c, tau_drive, tip_force, n_src, M_O, com_b, mount, sup, S, C, par_b,
            R0, axis, off0, D, com, stiffness, joints, marker, par):
    """The loop at a fixed state as affine maps of the friction torques
    ``tau`` (module docstring): the reactions ``N_0 + N_tau tau`` (6, the
    friction's normal-force inputs), the crane's accelerations, the base's
    and ``p_A`` likewise (value, then 3 columns), and ``I_A`` (6 x 6)."""
    n = axis.shape[0]
    # the mount's pose and twist, from the base's state alone (its outputs'
    # expressions): the crane's inputs but the mount's acceleration
    R, E, dw_bias, w = _zyx_terms(x_b[3], x_b[4], x_b[5], x_b[9], x_b[10], x_b[11])
    wxr = np.empty(3)
    _cross(w, mount, wxr)
    inp = np.zeros(33)
    for i in range(3):
        for j in range(3):
            inp[3 * i + j] = R[i, j]
        inp[9 + i] = w[i]
        inp[15 + i] = R[0, i] * x_b[6] + R[1, i] * x_b[7] + R[2, i] * x_b[8] + wxr[i]
        inp[21 + i] = x_b[i] + R[i, 0] * mount[0] + R[i, 1] * mount[1] + R[i, 2] * mount[2]
        inp[24 + i] = tau_drive[i]
        inp[30 + i] = tip_force[i]
    M, f, A, gamma, grad, Phi, RT, Rk, p, v, c, I, R10, tb, tb_dot, g_b, r_E, v_E, tip_load = _crane(
        t, x_c, inp, R0, axis, off0, D, com, stiffness, joints, marker, par)
    m = A.shape[0]
    # ten right-hand sides: the state's, per unit t_b', per unit torque
    B = np.zeros((n, 10))
    G = np.zeros((m, 10))
    for i in range(n):
        B[i, 0] = f[6 + i]
        for r in range(6):
            B[i, 1 + r] = -M[6 + i, r]
    for k in range(3):
        B[joints[k], 7 + k] = 1.0
    for k in range(m):
        G[k, 0] = gamma[k]
        for r in range(6):
            G[k, 1 + r] = -A[k, r]
    duc, lamc = _constrained_solve(M, A, B, G)
    # the mount's wrench W = M_bb t_b' + M_bj du - A_b^T lambda - f_b, per column
    Wc, I_A = _mount_columns(M, f, A, duc, lamc)
    wxv = np.empty(3)
    _cross(tb[:3], tb[3:], wxv)
    pA = np.empty((6, 4))
    for i in range(6):
        pA[i, 0] = Wc[i, 0] - (I_A[i, 3] * wxv[0] + I_A[i, 4] * wxv[1] + I_A[i, 5] * wxv[2])
        for k in range(3):
            pA[i, 1 + k] = Wc[i, 7 + k]
    # the base at p_A(0), and its accelerations per unit p_A: -K, K = (J^T M_O J + J_m^T I_A J_m)^-1 J_m^T
    inp_b = np.empty(27)
    _pack_upper(I_A, inp_b)
    for i in range(6):
        inp_b[21 + i] = pA[i, 0]
    R_b, J_m, t_m, b_m, F_sup, du_b0 = _base(x_b, inp_b, M_O, com_b, mount, sup, S, C, par_b)
    J = J_m.copy()
    Ab = np.zeros((6, 6))
    K = np.empty((6, 6))
    for i in range(6):
        for j in range(6):
            K[i, j] = J_m[j, i]
    for i in range(3, 6):
        for j in range(3, 6):
            J[i, j] = 0.0
    T = np.empty((6, 6))
    _add_congruence(M_O, J, T, Ab)
    _add_congruence(I_A, J_m, T, Ab)
    _lu_solve(Ab, K)
    dub = np.zeros((6, 4))
    for i in range(6):
        dub[i, 0] = du_b0[i]
        for k in range(3):
            acc = 0.0
            for j in range(6):
                acc -= K[i, j] * pA[j, 1 + k]
            dub[i, 1 + k] = acc
    # t_b' = [dw; a - w x v] of the mount's acceleration b_m + J_m du_b
    tbd = np.empty((6, 4))
    for i in range(6):
        for col in range(4):
            acc = b_m[i] if col == 0 else 0.0
            for j in range(6):
                acc += J_m[i, j] * dub[j, col]
            tbd[i, col] = acc
    for i in range(3):
        tbd[3 + i, 0] -= wxv[i]
    # the crane's accelerations and multipliers, then its reactions
    du = np.empty((n, 4))
    lam = np.empty((m, 4))
    for col in range(4):
        for i in range(n):
            acc = duc[i, 0] if col == 0 else duc[i, 6 + col]
            for r in range(6):
                acc += duc[i, 1 + r] * tbd[r, col]
            du[i, col] = acc
        for k in range(m):
            acc = lamc[k, 0] if col == 0 else lamc[k, 6 + col]
            for r in range(6):
                acc += lamc[k, 1 + r] * tbd[r, col]
            lam[k, col] = acc
    # the reactions: at the state, then per unit torque at a fixed mount
    # acceleration (columns 1-3) and through the base's response (4-6),
    # linear: no velocity terms, no gravity, no tip load
    N = np.empty((6, 7))
    W = np.empty(24)
    zero_v = np.zeros((n, 6))
    zero3 = np.zeros(3)
    zero6 = np.zeros(6)
    _wrenches(RT, off0, axis, Rk, v, c, I, tbd[:, 0].copy(), du[:, 0].copy(), g_b, R10, grad, lam[:, 0].copy(),
              marker, tip_load, W)
    for k in range(6):
        N[k, 0] = W[n_src[k]]
    a_base = np.empty(6)
    du_col = np.empty(n)
    lam_col = np.empty(m)
    for col in range(1, 7):
        j = col - 1 if col < 4 else col - 4  # the torque
        for r in range(6):
            a_base[r] = 0.0 if col < 4 else tbd[r, 1 + j]
        _unit_response(duc, j, col >= 4, a_base, du_col)
        _unit_response(lamc, j, col >= 4, a_base, lam_col)
        _wrenches(RT, off0, axis, Rk, zero_v, zero_v, I, a_base, du_col, zero3, R10, grad, lam_col, marker, zero6,
                  W)
        for k in range(6):
            N[k, col] = W[n_src[k]]
    return N, du, dub, pA, I_A


def _at(a, tau, i):
    """Row ``i`` of an affine map ``a`` (value, 3 columns) at ``tau``."""
    return a[i, 0] + a[i, 1] * tau[0] + a[i, 2] * tau[1] + a[i, 3] * tau[2]


def _reaction(N, tau, earlier, i):
    """Component ``i`` of the reactions with the torques ``tau`` at the
    crane and ``earlier`` through the base (``N``: :func:`_affine`)."""
    return (N[i, 0] + N[i, 1] * tau[0] + N[i, 2] * tau[1] + N[i, 3] * tau[2]
            + N[i, 4] * earlier[0] + N[i, 5] * earlier[1] + N[i, 6] * earlier[2])


def settle(t, x_b, x_c, x_f, tau_drive, tip_force, n_src, M_O, com_b, mount, sup, S, C, par_b,
           R0, axis, off0, D, com, stiffness, joints, marker, par, laws, revolute, first, half_d, max_sweeps):
    """The loop settled at ``(t, x)``: ``(dx, I_A, p_A, tau, status)``, the
    derivatives of the base, the crane and the friction (their states'
    order, one after the other), the crane's ``I_A`` (21, packed) and
    ``p_A`` (6) and the friction torques ``tau`` (3) [N m] (the loop's
    outputs, for the sweeps to start from) and :data:`SETTLED`,
    :data:`UNSETTLED` or :data:`NOT_FINITE` (then the rest is not to be
    used)."""
    n = axis.shape[0]
    N, du, dub, pA, I_A = _affine(t, x_b, x_c, tau_drive, tip_force, n_src, M_O, com_b, mount, sup, S, C, par_b,
                                  R0, axis, off0, D, com, stiffness, joints, marker, par)
    # eqs. (13)-(15): mu_j at the joint's rate and bristle state, tau_j = -mu_j |N_j| d_j / 2
    rate = np.empty(3)
    mu = np.empty(3)
    for i in range(3):
        rate[i] = x_c[n + joints[i]]
        mu[i] = level(laws[i], rate[i], x_f[2 * i])
    # the sweeps' iteration: the base answers the crane's p_A of the sweep
    # before, so the torques act through it one sweep late
    tau = np.zeros(3)
    earlier = np.zeros(3)
    new = np.empty(3)
    status = UNSETTLED
    for k in range(max_sweeps):
        big = 0.0
        total = 0.0
        for i in range(3):
            new[i] = -mu[i] * (hypot(_reaction(N, tau, earlier, 2 * i), _reaction(N, tau, earlier, 2 * i + 1))
                               * half_d[i])
            big = max(big, abs(new[i]))
            total += new[i]
        if not math.isfinite(total):
            status = NOT_FINITE
            break
        done = k > 0
        for i in range(3):
            done = done and abs(new[i] - tau[i]) <= 1e-14 * big and abs(tau[i] - earlier[i]) <= 1e-14 * big
        for i in range(3):
            earlier[i] = tau[i]
            tau[i] = new[i]
        if done:
            status = SETTLED
            break
    dx = np.empty(12 + 2 * n + 2 * laws.shape[0])
    for i in range(6):
        dx[i] = x_b[6 + i]
        dx[6 + i] = _at(dub, tau, i)
    for i in range(n):
        dx[12 + i] = x_c[n + i]
        dx[12 + n + i] = _at(du, tau, i)
    o = 12 + 2 * n
    for i in range(3):
        lever = hypot(_reaction(N, tau, tau, 2 * i), _reaction(N, tau, tau, 2 * i + 1)) * half_d[i]
        dx[o + 2 * i] = bristle_rate(laws[i], rate[i], x_f[2 * i])
        dx[o + 2 * i + 1] = level(laws[i], rate[i], x_f[2 * i]) * lever * rate[i]
    I_packed = np.empty(21)
    _pack_upper(I_A, I_packed)
    p_A = np.empty(6)
    for i in range(6):
        p_A[i] = _at(pA, tau, i)
    if status == SETTLED and not math.isfinite(np.sum(dx) + np.sum(p_A) + np.sum(I_packed)):
        status = NOT_FINITE
    return dx, I_packed, p_A, tau, status
