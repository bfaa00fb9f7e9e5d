"""The supported base's hot path as plain loops over floats and small
arrays, for numba to compile (``blocks/jit.py``): the accelerations and the
output vector of :class:`blocks.supported_base.SupportedBase` at one state.

The numpy code of ``supported_base.py`` is the reference; the tests compare
this module with it at random states.  The equations are the same, written
out entry by entry:

* the orientation ``R = Rz(ψ) Ry(θ) Rx(φ)``, ``E`` with ``w = E dα/dt``
  and the angular acceleration's bias ``(dE/dt) dα/dt`` as
  ``blocks.screw.rot_zyx`` and ``zyx_rate_terms`` (``α = [φ, θ, ψ]``);
* the supports' deflections, exactly ``d_s = p + (R - I) r_s`` with
  ``R - I`` in the cancellation-free form of
  ``supported_base.rotation_minus_identity``, rates ``dp/dt + R (w x r_s)``;
  or, small-angle, ``p + α x r_s`` and ``dp/dt + dα/dt x r_s``; forces
  ``F_s = -S d_s - C dd_s/dt`` and their generalized forces
  ``[sum F_s; E^T sum r_s x R^T F_s]`` (exact) or ``[sum F_s; sum r_s x
  F_s]`` (small-angle);
* ``[w; v_O] = J u`` with ``J = [[0, E], [R^T, 0]]``, the mass matrix
  ``J^T M_O J``, and ``J^T`` of gravity's wrench at O less the velocity
  terms ``[w x I_O w; m w x (w x c)]`` and ``M_O [(dE/dt) dα/dt; 0]``;
* the mount's Jacobian ``J_m = X_m J``, twist ``t_m`` and acceleration bias
  ``b_m``, and the implicit solve ``(J^T M_O J + J_m^T I_A J_m) du/dt = tau
  - J_m^T (I_A b_m + p_A)`` by Gaussian elimination with partial pivoting,
  as the numpy code's LAPACK ``dgesv``: any regular matrix, so that an
  ``I_A`` from a foreign crane model that is not quite positive
  semidefinite changes nothing.

This module imports only math and numpy, so that it runs (slowly) without
numba and ``blocks/jit.py`` can load it from a copy outside the package; it
must not import the rest of the package.

Arguments shared by the kernels: ``t`` [s] (unused: the base is
autonomous), ``x`` (12) the state ``[x, y, z, φ, θ, ψ]`` and their rates
[m, rad, m/s, rad/s], ``inp`` (27) the 21 entries of ``I_A`` in
``blocks.block.sym6_pack`` order (row by row, upper triangle) [kg m^2,
kg m, kg] and ``p_A`` [N m, N] (Frame 1, at the mount), ``M_O`` (6, 6) the
base's spatial inertia at O, Frame 1, ``[[I_O, m c^], [-m c^, m 1]]``
[kg m^2, kg m, kg], ``com`` (3) [m] the COG c and ``mount`` (3) [m] the
mount point r_m in Frame 1, ``sup`` (8, 3) [m] the support points r_s in
Frame 1, ``S`` (3) [N/m] and ``C`` (3) [N s/m] the supports' stiffnesses
and damping along x0, y0, z0, ``par = [m, g, small_angle]`` (kg, m/s^2,
0 or 1).
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import (_add_congruence, _body_and_mount_outputs, _cross, _lu_solve_vector,
                             _subtract_projected_wrench, _sym6_unpack, _zyx_terms, finite, inputs_after_step,
                             inputs_at_middle)


def _rotation_minus_identity(phi, theta, psi):
    """``R - I = Rz (Ry Dx + Dy) + Dz`` with ``Da = R_a - I``, whose diagonal
    is ``-2 sin^2(a/2)`` rather than ``cos a - 1``."""
    angles = (phi, theta, psi)
    D = np.zeros((3, 3, 3))  # Dx, Dy, Dz
    for k in range(3):
        # the rotation about axis k turns axis i towards axis j
        i, j = (k + 1) % 3, (k + 2) % 3
        s, vers = math.sin(angles[k]), -2.0 * math.sin(0.5 * angles[k]) ** 2
        D[k, i, i] = vers
        D[k, j, j] = vers
        D[k, j, i] = s
        D[k, i, j] = -s
    inner = np.empty((3, 3))  # Ry Dx + Dy
    for r in range(3):
        for c in range(3):
            acc = D[1, r, c] + D[0, r, c]
            for k in range(3):
                acc += D[1, r, k] * D[0, k, c]
            inner[r, c] = acc
    out = np.empty((3, 3))
    for r in range(3):
        for c in range(3):
            acc = inner[r, c] + D[2, r, c]
            for k in range(3):
                acc += D[2, r, k] * inner[k, c]
            out[r, c] = acc
    return out


def _base(x, inp, M_O, com, mount, sup, S, C, par):
    """The equations of motion at ``(x, inp)``, as ``SupportedBase._state_terms``
    and ``_solve`` form them: ``(R, J_m, t_m, b_m, F, du)``, the orientation,
    the mount's Jacobian, twist and acceleration bias (Frame 1), the support
    forces (8, 3) (Frame 0) and the accelerations."""
    m, g, small = par[0], par[1], par[2] != 0.0
    R, E, dw_bias, w = _zyx_terms(x[3], x[4], x[5], x[9], x[10], x[11])

    # [w; v_O] = J u and the mount's [w; v_m] = J_m u, v_m = v_O + w x r_m
    J = np.zeros((6, 6))
    J_m = np.zeros((6, 6))
    e = np.empty(3)
    exr = np.empty(3)
    for j in range(3):
        for i in range(3):
            J[i, 3 + j] = E[i, j]
            J_m[i, 3 + j] = E[i, j]
            J[3 + i, j] = R[j, i]
            J_m[3 + i, j] = R[j, i]
            e[i] = E[i, j]
        _cross(e, mount, exr)
        for i in range(3):
            J_m[3 + i, 3 + j] = exr[i]
    t_m = np.empty(6)
    wxr = np.empty(3)
    _cross(w, mount, wxr)
    for i in range(3):
        t_m[i] = w[i]
        t_m[3 + i] = R[0, i] * x[6] + R[1, i] * x[7] + R[2, i] * x[8] + wxr[i]
    b_m = np.empty(6)
    tmp = np.empty(3)
    _cross(dw_bias, mount, tmp)
    wxwxr = np.empty(3)
    _cross(w, wxr, wxwxr)
    for i in range(3):
        b_m[i] = dw_bias[i]
        b_m[3 + i] = tmp[i] + wxwxr[i]

    # the wrench at O, Frame 1, applied less the velocity terms: gravity at the COG
    # less [w x I_O w; m w x (w x c)] + M_O [dw_bias; 0]
    y = np.empty(6)
    Iw = np.empty(3)
    for i in range(3):
        Iw[i] = M_O[i, 0] * w[0] + M_O[i, 1] * w[1] + M_O[i, 2] * w[2]
    gyro = np.empty(3)
    _cross(w, Iw, gyro)
    wxc = np.empty(3)
    _cross(w, com, wxc)
    wxwxc = np.empty(3)
    _cross(w, wxc, wxwxc)
    f_g = np.empty(3)
    for i in range(3):
        f_g[i] = -m * g * R[2, i]
    cxf = np.empty(3)
    _cross(com, f_g, cxf)
    for i in range(3):
        y[i] = cxf[i] - gyro[i]
        y[3 + i] = f_g[i] - m * wxwxc[i]
    for i in range(6):
        y[i] -= M_O[i, 0] * dw_bias[0] + M_O[i, 1] * dw_bias[1] + M_O[i, 2] * dw_bias[2]
    tau = np.empty(6)
    for i in range(3):
        tau[i] = R[i, 0] * y[3] + R[i, 1] * y[4] + R[i, 2] * y[5]
        tau[3 + i] = E[0, i] * y[0] + E[1, i] * y[1] + E[2, i] * y[2]

    # the supports
    n_s = sup.shape[0]
    F = np.empty((n_s, 3))
    D = _rotation_minus_identity(x[3], x[4], x[5]) if not small else np.zeros((3, 3))
    r = np.empty(3)
    d = np.empty(3)
    dd = np.empty(3)
    F1 = np.empty(3)
    n_O = np.zeros(3)
    rxF = np.empty(3)
    for s in range(n_s):
        for i in range(3):
            r[i] = sup[s, i]
        if small:
            _cross(x[3:6], r, d)
            _cross(x[9:12], r, dd)
            for i in range(3):
                d[i] += x[i]
                dd[i] += x[6 + i]
        else:
            _cross(w, r, tmp)
            for i in range(3):
                d[i] = x[i] + D[i, 0] * r[0] + D[i, 1] * r[1] + D[i, 2] * r[2]
                dd[i] = x[6 + i] + R[i, 0] * tmp[0] + R[i, 1] * tmp[1] + R[i, 2] * tmp[2]
        for i in range(3):
            F[s, i] = -d[i] * S[i] - dd[i] * C[i]
            tau[i] += F[s, i]
        if small:
            _cross(r, F[s], rxF)
        else:
            for i in range(3):
                F1[i] = R[0, i] * F[s, 0] + R[1, i] * F[s, 1] + R[2, i] * F[s, 2]  # R^T F_s: Frame 1
            _cross(r, F1, rxF)
        for i in range(3):
            n_O[i] += rxF[i]
    for i in range(3):
        tau[3 + i] += n_O[i] if small else E[0, i] * n_O[0] + E[1, i] * n_O[1] + E[2, i] * n_O[2]

    # (J^T M_O J + J_m^T I_A J_m) du = tau - J_m^T (I_A b_m + p_A)
    I_A = _sym6_unpack(inp, np.empty((6, 6)))
    A = np.zeros((6, 6))
    T = np.empty((6, 6))
    _add_congruence(M_O, J, T, A)
    _add_congruence(I_A, J_m, T, A)
    _subtract_projected_wrench(tau, J_m, I_A, b_m, inp[21:27])
    du = _lu_solve_vector(A, tau)
    return R, J_m, t_m, b_m, F, du


def derivatives(t, x, inp, M_O, com, mount, sup, S, C, par):
    """``dx/dt = [u; du/dt]`` of the base at ``(t, x, inp)``
    (``SupportedBase.derivatives``) [m/s, rad/s, m/s^2, rad/s^2]."""
    du = _base(x, inp, M_O, com, mount, sup, S, C, par)[5]
    out = np.empty(12)
    for i in range(6):
        out[i] = x[6 + i]
        out[6 + i] = du[i]
    return out


def outputs(t, x, inp, M_O, com, mount, sup, S, C, par):
    """The block's output vector (``SupportedBase.outputs`` order): the state,
    the accelerations, ``R`` row by row, the mount's ``w, dw, v, a`` (Frame 1)
    and position (Frame 0), the support forces (Frame 0)."""
    R, J_m, t_m, b_m, F, du = _base(x, inp, M_O, com, mount, sup, S, C, par)
    n_s = F.shape[0]
    y = np.empty(42 + 3 * n_s)
    _body_and_mount_outputs(y, x, du, R, J_m, t_m, b_m)
    for i in range(3):
        y[39 + i] = x[i] + R[i, 0] * mount[0] + R[i, 1] * mount[1] + R[i, 2] * mount[2]
    for s in range(n_s):
        for i in range(3):
            y[42 + 3 * s + i] = F[s, i]
    return y
