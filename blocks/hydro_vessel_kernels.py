"""The hydrodynamic vessel's hot path as plain loops over floats and small
arrays, for numba to compile (``blocks/jit.py``): the rates and the output
vector of :class:`blocks.hydro_vessel.HydroVessel` at one state, Cummins'
equation as its docstring writes it.

The numpy code of ``hydro_vessel.py`` is the reference; the tests compare
this module with it at random states.  This module imports only math and
numpy (and the shared helpers), so that it runs (slowly) without numba and
``blocks/jit.py`` can load it from a copy outside the package.

Arguments shared by the kernels: ``t`` [s]; ``x`` the state ``[eta, u,
x_rad]`` (eta: surge, sway, heave [m], roll, pitch, yaw [rad]; u their
rates; x_rad the radiation memory's states); ``inp`` (27) the crane's
``I_A`` (21, ``sym6_pack`` order) and ``p_A`` (6) at the mount, Frame 1;
``m`` [kg] the mass, ``I_G`` (3, 3) [kg m^2] the inertia about the centre
of gravity, ``A_inf`` (6, 6) the added mass at infinite frequency, ``K``
(6, 6) the restoring (hydrostatic and mooring) on eta, ``D`` (6, 6) the
linear damping on u, ``r_m`` (3) [m] the mount from the centre of gravity
and ``cog`` (3) [m] the centre of gravity in hull coordinates, ``Ar``,
``Br``, ``Cr`` the memory's model (``Ar`` block-diagonal: a block from
``blocks[k]`` to ``blocks[k + 1]``, per pair), and the waves: ``w``, ``a``, ``phi``
(n_waves) their angular frequencies [rad/s], amplitudes [m] and phases
[rad], ``X_re``, ``X_im`` (n_waves, 6) the excitation per unit amplitude
[N/m, N.m/m], and ``cache`` (8) the waves' forces and elevation at the
last time asked (``_waves``).
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import (_add_congruence, _body_and_mount_outputs, _cross, _lu_solve_vector,
                             _subtract_projected_wrench, _sym6_unpack, _zyx_terms, finite, inputs_after_step,
                             inputs_at_middle)


def _waves(t, w, a, phi, X_re, X_im, cache):
    """``HydroVessel.wave_force`` and ``elevation``: ``cache[1:7]``, the
    first-order excitation at ``t`` on the six degrees of freedom [N, N.m],
    and ``cache[7]`` the elevation [m], computed where ``cache[0]`` is not
    ``t`` already.  A step's stages ask for the same times again (a
    Runge-Kutta step's middle twice, its end as the next step's start and
    as the outputs' time), and the sum over hundreds of waves' sines and
    cosines is most of a step's cost; the values are a function of ``t``
    alone, the same bits whether kept or computed."""
    if cache[0] == t:
        return cache
    F = np.zeros(6)
    eta = 0.0
    for i in range(w.size):
        phase = w[i] * t + phi[i]
        c, s = a[i] * math.cos(phase), a[i] * math.sin(phase)
        eta += c
        for k in range(6):
            F[k] += c * X_re[i, k] + s * X_im[i, k]
    cache[0] = t
    for k in range(6):
        cache[1 + k] = F[k]
    cache[7] = eta
    return cache


def _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, cache):
    """``HydroVessel._solve``: ``(R, J, t_m, b, du)``, the orientation, the
    mount's Jacobian (6, 6) and twist and acceleration bias (Frame 1), and
    the accelerations ``du/dt``."""
    R, E, dw_bias, wb = _zyx_terms(x[3], x[4], x[5], x[9], x[10], x[11])
    u = x[6:12]
    # J: [w; v] of the mount = [0, E; R^T, -[r]x E] u
    J = np.zeros((6, 6))
    rx = np.empty(3)
    for j in range(3):
        for i in range(3):
            J[i, 3 + j] = E[i, j]
            J[3 + i, j] = R[j, i]
        e = E[:, j].copy()
        _cross(e, r_m, rx)  # (E e_j) x r = -[r]x E e_j
        for i in range(3):
            J[3 + i, 3 + j] = rx[i]
    t_m = np.zeros(6)
    for i in range(6):
        acc = 0.0
        for j in range(6):
            acc += J[i, j] * u[j]
        t_m[i] = acc
    b = np.empty(6)
    c1, wr, c2 = np.empty(3), np.empty(3), np.empty(3)
    _cross(dw_bias, r_m, c1)
    _cross(wb, r_m, wr)
    _cross(wb, wr, c2)
    for i in range(3):
        b[i] = dw_bias[i]
        b[3 + i] = c1[i] + c2[i]
    # the mass matrix M_rb + A_inf + J^T I_A J
    A = np.empty((6, 6))
    for i in range(6):
        for j in range(6):
            A[i, j] = A_inf[i, j]
    for i in range(3):
        A[i, i] += m
    IE = np.empty(3)
    for j in range(3):
        for r in range(3):
            IE[r] = I_G[r, 0] * E[0, j] + I_G[r, 1] * E[1, j] + I_G[r, 2] * E[2, j]
        for i in range(3):
            A[3 + i, 3 + j] += E[0, i] * IE[0] + E[1, i] * IE[1] + E[2, i] * IE[2]
    I_A = _sym6_unpack(inp, np.empty((6, 6)))
    _add_congruence(I_A, J, np.empty((6, 6)), A)
    # the forces: gyroscopic, restoring, memory, damping, waves, the crane's
    rhs = _waves(t, w, a, phi, X_re, X_im, cache)[1:7].copy()
    gyro, Iw = np.empty(3), np.empty(3)
    for i in range(3):
        Iw[i] = I_G[i, 0] * wb[0] + I_G[i, 1] * wb[1] + I_G[i, 2] * wb[2]
    _cross(wb, Iw, gyro)
    for i in range(3):
        gyro[i] += I_G[i, 0] * dw_bias[0] + I_G[i, 1] * dw_bias[1] + I_G[i, 2] * dw_bias[2]
    for i in range(3):
        rhs[3 + i] -= E[0, i] * gyro[0] + E[1, i] * gyro[1] + E[2, i] * gyro[2]
    n_r = Cr.shape[1]
    for i in range(6):
        acc = 0.0
        for j in range(6):
            acc += K[i, j] * x[j] + D[i, j] * u[j]
        for j in range(n_r):
            acc += Cr[i, j] * x[12 + j]
        rhs[i] -= acc
    _subtract_projected_wrench(rhs, J, I_A, b, inp[21:27])
    du = _lu_solve_vector(A, rhs)
    return R, J, t_m, b, du


def derivatives(t, x, inp, m, I_G, A_inf, K, D, r_m, cog, Ar, Br, Cr, blocks, w, a, phi, X_re, X_im, cache):
    """``dx/dt = [u; du/dt; Ar x_rad + Br u]`` (``HydroVessel.derivatives``)."""
    du = _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, cache)[4]
    n_r = Ar.shape[0]
    out = np.empty(12 + n_r)
    for i in range(6):
        out[i] = x[6 + i]
        out[6 + i] = du[i]
    # Ar is block-diagonal, a block per pair of degrees of freedom
    for k in range(blocks.size - 1):
        for i in range(blocks[k], blocks[k + 1]):
            acc = 0.0
            for j in range(blocks[k], blocks[k + 1]):
                acc += Ar[i, j] * x[12 + j]
            for j in range(6):
                acc += Br[i, j] * x[6 + j]
            out[12 + i] = acc
    return out


def outputs(t, x, inp, m, I_G, A_inf, K, D, r_m, cog, Ar, Br, Cr, blocks, w, a, phi, X_re, X_im, cache):
    """The block's output vector (``HydroVessel.output`` order)."""
    R, J, t_m, b, du = _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, cache)
    y = np.empty(55)
    _body_and_mount_outputs(y, x, du, R, J, t_m, b)
    for i in range(3):
        y[39 + i] = cog[i] + x[i] + R[i, 0] * r_m[0] + R[i, 1] * r_m[1] + R[i, 2] * r_m[2]
    waves = _waves(t, w, a, phi, X_re, X_im, cache)
    y[42] = waves[7]
    n_r = Cr.shape[1]
    for i in range(6):
        y[43 + i] = waves[1 + i]
        acc_r = 0.0
        for j in range(n_r):
            acc_r += Cr[i, j] * x[12 + j]
        y[49 + i] = -acc_r
    return y
