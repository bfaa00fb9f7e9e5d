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
[N/m, N.m/m], ``T`` (n_waves, 2) their drift coefficients [N/m2] and
``slow`` 1.0 where the drift varies slowly (Newman's), 0.0 where it is its
mean, ``cache`` (times, 10) the waves' forces, elevation and drift at the
last times asked, ``anchors`` (2, 1 + 2 n_waves) the waves' phasors at the
last anchor times and ``spacing`` [s] the anchors' (``_waves``), and
``t_ramp`` [s] the sea's start (``waves.ramp``).
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import (_add_congruence, _body_and_mount_outputs, _cross, _lu_solve_vector,
                             _subtract_projected_wrench, _sym6_unpack, _zyx_terms, finite, inputs_after_step,
                             inputs_at_middle)


#: Taylor coefficients of sin and cos, enough for ``|x| <= 0.1`` to round-off
#: (the first term left out, ``x**11 / 11!``, is 2.5e-19)
_SIN = (-1 / 6, 1 / 120, -1 / 5040, 1 / 362880)
_COS = (-1 / 2, 1 / 24, -1 / 720, 1 / 40320, -1 / 3628800)


def _waves(t, w, a, phi, X_re, X_im, T, slow, cache, anchors, spacing, t_ramp):
    """``HydroVessel.wave_force``, ``elevation`` and ``drift_force`` at
    ``t``: a row of ``cache`` (times, 10), ``[t, F, eta, F_drift]``, the
    first-order excitation on the six degrees of freedom [N, N.m], the
    elevation [m] and the drift on surge and sway [N], computed
    where no row holds ``t`` already, into the row of the earliest time.
    The sum over hundreds of waves is most of a step's cost, and the times
    come back: a Runge-Kutta step asks its middle twice and its end as the
    next step's start and as the outputs' time, and a master that iterates
    restores the vessel and steps the same interval again, two to four
    times.  Each wave's ``a e^(i (w t + phi))`` is that at the anchor
    ``A``, the multiple of ``spacing`` (a power of two [s], at most 0.1 /
    max(w)) at or before ``t`` (:func:`_anchor`), turned by ``e^(i w (t -
    A))``, whose angle of at most 0.1 rad a Taylor polynomial gives to
    round-off: three times faster than a sine and a cosine per wave.  The
    values are a function of ``t`` alone, the same bits whether kept or
    computed (and ``t - A`` exact from ``t = 0`` on: ``A`` and ``t`` are
    within a factor of two, or ``A`` is 0)."""
    r, kept = _row_of(cache, t)
    if kept:
        return cache[r]
    n = w.size
    A = math.floor(t / spacing) * spacing
    turned = _anchor(A, w, a, phi, anchors)
    tau = t - A
    c, s = np.empty(n), np.empty(n)
    for i in range(n):
        x = w[i] * tau
        x2 = x * x
        sin_x = x * (1 + x2 * (_SIN[0] + x2 * (_SIN[1] + x2 * (_SIN[2] + x2 * _SIN[3]))))
        cos_x = 1 + x2 * (_COS[0] + x2 * (_COS[1] + x2 * (_COS[2] + x2 * (_COS[3] + x2 * _COS[4]))))
        c[i] = turned[1 + i] * cos_x - turned[1 + n + i] * sin_x
        s[i] = turned[1 + n + i] * cos_x + turned[1 + i] * sin_x
    F = np.zeros(6)
    eta = 0.0
    sine = 0.0
    Yc, Ys, mean = np.zeros(2), np.zeros(2), np.zeros(2)
    for i in range(n):
        eta += c[i]
        sine += s[i]
        for k in range(6):
            F[k] += c[i] * X_re[i, k] + s[i] * X_im[i, k]
        for k in range(2):
            Yc[k] += c[i] * T[i, k]
            Ys[k] += s[i] * T[i, k]
    if not slow:  # the mean alone: a constant, summed only where asked
        for i in range(n):
            for k in range(2):
                mean[k] += a[i] * a[i] * T[i, k]
    height = _ramp(t, t_ramp)
    row = cache[r]
    row[0] = t
    for k in range(6):
        row[1 + k] = height * F[k]
    row[7] = height * eta
    for k in range(2):
        row[8 + k] = height * height * (Yc[k] * eta + Ys[k] * sine if slow else mean[k])
    return row


def _ramp(t, t_ramp):
    """``waves.ramp``."""
    if t >= t_ramp:
        return 1.0
    return 0.5 * (1.0 - math.cos(math.pi * max(t, 0.0) / t_ramp))


def _row_of(table, key):
    """``(r, True)``: the row of ``table`` whose first entry is ``key``, or
    ``(r, False)``: the row to compute it into, an empty one (NaN) first,
    else the one of the earliest key."""
    oldest = 0
    for r in range(table.shape[0]):
        if table[r, 0] == key:
            return r, True
        if not math.isnan(table[oldest, 0]) and not table[r, 0] >= table[oldest, 0]:
            oldest = r
    return oldest, False


def _anchor(A, w, a, phi, anchors):
    """The row of ``anchors`` (rows, 1 + 2 n_waves) for the anchor time ``A``
    [s]: ``[A, a cos(w A + phi), a sin(w A + phi)]``, computed into the row
    of the earliest anchor where no row holds it (a master's step may
    straddle two anchors, and steps again)."""
    r, kept = _row_of(anchors, A)
    row = anchors[r]
    if kept:
        return row
    n = w.size
    for i in range(n):
        phase = w[i] * A + phi[i]
        row[1 + i] = a[i] * math.cos(phase)
        row[1 + n + i] = a[i] * math.sin(phase)
    row[0] = A
    return row


def _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, T, slow, cache, anchors, spacing,
            t_ramp):
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
    waves = _waves(t, w, a, phi, X_re, X_im, T, slow, cache, anchors, spacing, t_ramp)
    rhs = waves[1:7].copy()
    rhs[0] += waves[8]
    rhs[1] += waves[9]
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


def derivatives(t, x, inp, m, I_G, A_inf, K, D, r_m, cog, Ar, Br, Cr, blocks, w, a, phi, X_re, X_im, T, slow, cache,
                anchors, spacing, t_ramp):
    """``dx/dt = [u; du/dt; Ar x_rad + Br u]`` (``HydroVessel.derivatives``)."""
    du = _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, T, slow, cache, anchors, spacing,
                 t_ramp)[4]
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


def outputs(t, x, inp, m, I_G, A_inf, K, D, r_m, cog, Ar, Br, Cr, blocks, w, a, phi, X_re, X_im, T, slow, cache,
            anchors, spacing, t_ramp):
    """The block's output vector (``HydroVessel.output`` order)."""
    R, J, t_m, b, du = _vessel(t, x, inp, m, I_G, A_inf, K, D, r_m, Cr, w, a, phi, X_re, X_im, T, slow, cache, anchors,
                               spacing, t_ramp)
    y = np.empty(57)
    _body_and_mount_outputs(y, x, du, R, J, t_m, b)
    for i in range(3):
        y[39 + i] = cog[i] + x[i] + R[i, 0] * r_m[0] + R[i, 1] * r_m[1] + R[i, 2] * r_m[2]
    waves = _waves(t, w, a, phi, X_re, X_im, T, slow, cache, anchors, spacing, t_ramp)
    y[42] = waves[7]
    y[55] = waves[8]
    y[56] = waves[9]
    n_r = Cr.shape[1]
    for i in range(6):
        y[43 + i] = waves[1 + i]
        acc_r = 0.0
        for j in range(n_r):
            acc_r += Cr[i, j] * x[12 + j]
        y[49 + i] = -acc_r
    return y
