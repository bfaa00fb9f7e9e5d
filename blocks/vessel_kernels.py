"""The vessel's hot path as plain loops over floats and small arrays, for
numba to compile (``blocks/jit.py``): the accelerations and the output
vector of :class:`blocks.vessel.Vessel` at one state.

The numpy code of ``vessel.py`` is the reference; the tests compare this
module with it at random states.  The equations are those of Cibicik &
Egeland (2018), Section III, for the one body turning about the fixed point
O, written out entry by entry:

* the orientation ``R_1^0 = Rz(q3) Ry(q2) Rx(q1)`` (eq. (53)), ``E`` with
  the body's angular velocity ``w = E u`` (Frame 1) and the angular
  acceleration's bias ``(dE/dt) u`` as ``blocks.screw.rot_zyx`` and
  ``zyx_rate_terms``;
* about O, ``E^T (I_O dw/dt + w x I_O w - n_O) = T`` with ``I_O`` the
  inertia about O (about the COG by the radii of gyration, eq. (73), moved
  to O) and ``n_O = c x R^T m g0`` the moment of the weight: the mass matrix
  ``M = E^T I_O E`` and the generalized forces less the velocity terms
  ``tau = E^T (n_O - w x I_O w - I_O (dE/dt) u) - k q^3 - c u + M_wave``,
  the cubic springs of Section III-D, the linear damping and the waves'
  moments (inputs 27-29);
* the mount at ``r_m = [0, 0, l1]`` in Frame 1 (the paper's
  ``p_21^1 = [0, 0, -l1]``, eq. (60)): its twist ``[w; w x r_m]``, its
  Jacobian ``[dw; a] = J du/dt + b`` with ``J = [E; (E e_j) x r_m]`` and
  bias ``b = [(dE/dt) u; ((dE/dt) u) x r_m + w x (w x r_m)]``;
* the crane's wrench on the vessel ``-(I_A [dw; a] + p_A)`` taken
  implicitly, ``(M + J^T I_A J) du/dt = tau - J^T (I_A b + p_A)``, solved
  by Gaussian elimination with partial pivoting as the numpy code's LAPACK
  ``dgesv``: any regular matrix, so that an ``I_A`` from a foreign crane
  model that is not quite positive semidefinite changes nothing.

This module imports only math and numpy, so that it runs (slowly) without
numba and ``blocks/jit.py`` can load it from a copy outside the package; it
must not import the rest of the package.

Arguments shared by the kernels: ``t`` [s] (unused: the vessel is
autonomous), ``x`` (6) the state ``[q1, q2, q3, u1, u2, u3]``, roll, pitch
and yaw and their rates [rad, rad/s], ``inp`` (27) the 21 entries of
``I_A`` in ``blocks.block.sym6_pack`` order (row by row, upper triangle)
[kg m^2, kg m, kg] and ``p_A`` [N m, N] (Frame 1, at the mount), ``I_O``
(3, 3) [kg m^2] the vessel's inertia about O, Frame 1, ``com`` (3) [m] its
COG in Frame 1, ``m_g`` (3) [N] its weight ``m g0`` in Frame 0 (zero with
the weight off), ``k`` (3) [N m/rad^3] the cubic springs ``k_i``, ``c`` (3)
[N m s/rad] the damping, ``l1`` [m] the mount's height above O.
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import (_add_congruence, _cross, _lu_solve_vector, _subtract_projected_wrench, _sym6_unpack,
                             _zyx_terms, finite, inputs_after_step, inputs_at_middle)


def _vessel(x, inp, I_O, com, m_g, k, c, l1):
    """The equations of motion at ``(x, inp)``, as ``Vessel._state_terms``
    and ``_solve`` form them: ``(R, J, t_m, b, du)``, the orientation
    ``R_1^0``, the mount's Jacobian (6, 3), twist ``[w; v]`` and
    acceleration bias ``b`` (Frame 1, at the mount) and the accelerations
    ``du/dt`` [rad/s^2]."""
    R, E, dw_bias, w = _zyx_terms(x[0], x[1], x[2], x[3], x[4], x[5])

    # n_O less the velocity terms: the weight's moment about O (R^T m g0 is
    # the weight in Frame 1) - w x I_O w - I_O (dE/dt) u
    f_g = np.empty(3)
    Iw = np.empty(3)
    for i in range(3):
        f_g[i] = R[0, i] * m_g[0] + R[1, i] * m_g[1] + R[2, i] * m_g[2]
        Iw[i] = I_O[i, 0] * w[0] + I_O[i, 1] * w[1] + I_O[i, 2] * w[2]
    n_O = np.empty(3)
    _cross(com, f_g, n_O)
    gyro = np.empty(3)
    _cross(w, Iw, gyro)
    for i in range(3):
        n_O[i] = n_O[i] - gyro[i] - (I_O[i, 0] * dw_bias[0] + I_O[i, 1] * dw_bias[1] + I_O[i, 2] * dw_bias[2])
    b = np.empty(3)  # tau, then the right-hand side of the solve
    for i in range(3):
        b[i] = (E[0, i] * n_O[0] + E[1, i] * n_O[1] + E[2, i] * n_O[2]
                - k[i] * x[i] ** 3 - c[i] * x[3 + i] + inp[27 + i])

    # the mount on the vertical through O: (E e_j) x [0, 0, l1] = l1 [E_1j, -E_0j, 0]
    J = np.empty((6, 3))
    for j in range(3):
        J[0, j] = E[0, j]
        J[1, j] = E[1, j]
        J[2, j] = E[2, j]
        J[3, j] = l1 * E[1, j]
        J[4, j] = -l1 * E[0, j]
        J[5, j] = 0.0
    t_m = np.empty(6)
    for i in range(3):
        t_m[i] = w[i]
    t_m[3], t_m[4], t_m[5] = l1 * w[1], -l1 * w[0], 0.0
    b_m = np.empty(6)
    wxv = np.empty(3)
    _cross(w, t_m[3:], wxv)
    for i in range(3):
        b_m[i] = dw_bias[i]
    b_m[3] = l1 * dw_bias[1] + wxv[0]
    b_m[4] = -l1 * dw_bias[0] + wxv[1]
    b_m[5] = wxv[2]

    # (M + J^T I_A J) du/dt = tau - J^T (I_A b_m + p_A)
    I_A = _sym6_unpack(inp, np.empty((6, 6)))
    A = np.empty((3, 3))  # M = E^T I_O E, then + J^T I_A J
    IE = np.empty(3)
    for j in range(3):
        for r in range(3):
            IE[r] = I_O[r, 0] * E[0, j] + I_O[r, 1] * E[1, j] + I_O[r, 2] * E[2, j]
        for i in range(3):
            A[i, j] = E[0, i] * IE[0] + E[1, i] * IE[1] + E[2, i] * IE[2]
    IJ = np.empty((6, 3))
    _add_congruence(I_A, J, IJ, A)
    _subtract_projected_wrench(b, J, I_A, b_m, inp[21:27])
    du = _lu_solve_vector(A, b)
    return R, J, t_m, b_m, du


def derivatives(t, x, inp, I_O, com, m_g, k, c, l1):
    """``dx/dt = [u; du/dt]`` of the vessel at ``(t, x, inp)``
    (``Vessel.derivatives``) [rad/s, rad/s^2]."""
    du = _vessel(x, inp, I_O, com, m_g, k, c, l1)[4]
    out = np.empty(6)
    for i in range(3):
        out[i] = x[3 + i]
        out[3 + i] = du[i]
    return out


def outputs(t, x, inp, I_O, com, m_g, k, c, l1):
    """The block's output vector (``Vessel.outputs`` order): the state [rad,
    rad/s], the accelerations [rad/s^2], ``R_1^0`` row by row, the mount's
    ``w, dw, v, a`` (Frame 1) [rad/s, rad/s^2, m/s, m/s^2] and its position
    ``R_1^0 [0, 0, l1]`` (Frame 0) [m]."""
    R, J, t_m, b_m, du = _vessel(x, inp, I_O, com, m_g, k, c, l1)
    y = np.empty(33)
    for i in range(6):
        y[i] = x[i]
    for i in range(3):
        y[6 + i] = du[i]
        for j in range(3):
            y[9 + 3 * i + j] = R[i, j]
    acc = np.empty(6)  # [dw; a] of the mount, Frame 1
    for i in range(6):
        acc[i] = b_m[i] + J[i, 0] * du[0] + J[i, 1] * du[1] + J[i, 2] * du[2]
    for i in range(3):
        y[18 + i] = t_m[i]
        y[21 + i] = acc[i]
        y[24 + i] = t_m[3 + i]
        y[27 + i] = acc[3 + i]
        y[30 + i] = R[i, 2] * l1
    return y
