"""Small numba kernels that several kernel modules use: plain Python over
floats and arrays, as the kernel modules are, using only ``math`` and
``numpy`` (imported as ``np``), which every kernel module imports.

A kernel module names those it uses in one line,
``from .kernel_helpers import _cross, _lu_solve``, and ``jit.py`` joins
their definitions (and those of the helpers they call) to the module's
text when it loads it: each compiled module stays one file, with a hash
that covers the helpers it holds.
"""
import math

import numpy as np


def _cross(a, b, out):
    """``out = a x b`` for 3-vectors."""
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


def _add_congruence(A, X, T, out):
    """``out += X^T A X`` for a 6 x 6 ``A`` and a 6 x m ``X`` (an inertia
    carried through a joint's transform, or projected on m generalized
    speeds), ``T`` a 6 x m scratch array."""
    m = X.shape[1]
    for i in range(6):
        for j in range(m):
            acc = 0.0
            for r in range(6):
                acc += A[i, r] * X[r, j]
            T[i, j] = acc
    for i in range(m):
        for j in range(m):
            acc = 0.0
            for r in range(6):
                acc += X[r, i] * T[r, j]
            out[i, j] += acc


def _lu_solve(A, B):
    """``B`` (n x r) overwritten by ``A^-1 B`` (``A`` overwritten too) by
    Gaussian elimination with partial pivoting; NaN where a pivot is zero or
    NaN (numba would raise on the division; the numpy code names the
    singular matrix)."""
    n, r = B.shape
    for k in range(n):
        p = k
        for i in range(k + 1, n):
            if abs(A[i, k]) > abs(A[p, k]):
                p = i
        if not abs(A[p, k]) > 0.0:
            B[:, :] = math.nan
            return
        if p != k:
            for j in range(k, n):
                A[k, j], A[p, j] = A[p, j], A[k, j]
            for c in range(r):
                B[k, c], B[p, c] = B[p, c], B[k, c]
        for i in range(k + 1, n):
            m = A[i, k] / A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= m * A[k, j]
            for c in range(r):
                B[i, c] -= m * B[k, c]
    for c in range(r):
        for i in range(n - 1, -1, -1):
            acc = B[i, c]
            for j in range(i + 1, n):
                acc -= A[i, j] * B[j, c]
            B[i, c] = acc / A[i, i]


def _lu_solve_vector(A, b):
    """``b`` overwritten by ``A^-1 b`` (``A`` overwritten too), as
    :func:`_lu_solve` with one column; returns ``b``."""
    _lu_solve(A, b.reshape((b.shape[0], 1)))
    return b


def _sym6_unpack(v, out):
    """``out`` (6 x 6) the symmetric matrix whose upper triangle, row by
    row, is ``v[:21]`` (how an articulated inertia ``I_A`` crosses the
    interface)."""
    k = 0
    for i in range(6):
        for j in range(i, 6):
            out[i, j] = v[k]
            out[j, i] = v[k]
            k += 1
    return out


def _subtract_projected_wrench(rhs, J, I_A, b_m, p_A):
    """``rhs -= J^T (I_A b_m + p_A)``: the crane's wrench at the mount,
    ``W = I_A a + p_A`` with the acceleration's velocity part ``b_m``,
    projected on the generalized speeds of the body carrying it (``J``,
    6 x m)."""
    W = np.empty(6)
    for r in range(6):
        acc = p_A[r]
        for s in range(6):
            acc += I_A[r, s] * b_m[s]
        W[r] = acc
    for i in range(J.shape[1]):
        acc = rhs[i]
        for r in range(6):
            acc -= J[r, i] * W[r]
        rhs[i] = acc


def _zyx_terms(q1, q2, q3, u1, u2, u3):
    """For ``R_1^0 = Rz(q3) Ry(q2) Rx(q1)`` (Cibicik & Egeland 2018, eq. (53))
    and the angles' rates ``u``: ``(R, E, dw_bias, w)``, the rotation, the
    map ``w = E u`` from the rates to the angular velocity in Frame 1, the
    angular acceleration's velocity term ``(dE/dt) u`` and ``w`` [rad/s]."""
    c1, s1, c2, s2 = math.cos(q1), math.sin(q1), math.cos(q2), math.sin(q2)
    c3, s3 = math.cos(q3), math.sin(q3)
    R = np.empty((3, 3))
    R[0, 0], R[0, 1], R[0, 2] = c3 * c2, c3 * s2 * s1 - s3 * c1, c3 * s2 * c1 + s3 * s1
    R[1, 0], R[1, 1], R[1, 2] = s3 * c2, s3 * s2 * s1 + c3 * c1, s3 * s2 * c1 - c3 * s1
    R[2, 0], R[2, 1], R[2, 2] = -s2, c2 * s1, c2 * c1
    E = np.zeros((3, 3))
    E[0, 0], E[0, 2] = 1.0, -s2
    E[1, 1], E[1, 2] = c1, s1 * c2
    E[2, 1], E[2, 2] = -s1, c1 * c2
    dw_bias = np.empty(3)
    dw_bias[0] = -u2 * c2 * u3
    dw_bias[1] = u1 * (-s1 * u2 + c1 * c2 * u3) - u2 * s1 * s2 * u3
    dw_bias[2] = u1 * (-c1 * u2 - s1 * c2 * u3) - u2 * c1 * s2 * u3
    w = np.empty(3)
    for i in range(3):
        w[i] = E[i, 0] * u1 + E[i, 1] * u2 + E[i, 2] * u3
    return R, E, dw_bias, w


def _body_and_mount_outputs(y, x, du, R, J, t_m, b):
    """``y[:39]``, the outputs a body of six degrees of freedom carrying the
    mount begins with (the spring-supported base, the hydrodynamic vessel):
    its state ``x[:12]`` (coordinates and rates), the accelerations ``du``,
    ``R`` row by row and the mount's ``w, dw, v, a`` (Frame 1) from its twist
    ``t_m`` and its acceleration ``J du + b``."""
    for i in range(12):
        y[i] = x[i]
    for i in range(6):
        y[12 + i] = du[i]
    for i in range(3):
        for j in range(3):
            y[18 + 3 * i + j] = R[i, j]
    acc = np.empty(6)  # [dw; a] of the mount, Frame 1
    for i in range(6):
        a = b[i]
        for j in range(6):
            a += J[i, j] * du[j]
        acc[i] = a
    for i in range(3):
        y[27 + i] = t_m[i]
        y[30 + i] = acc[i]
        y[33 + i] = t_m[3 + i]
        y[36 + i] = acc[3 + i]


def inputs_at_middle(u, du, h):
    """The inputs at the middle of a step of ``h`` [s] on their polynomial
    ``u + s du[0] + s**2/2 du[1]`` (``du``: their first and second time
    derivatives, a row each): ``Block.inputs_at_middle``'s arithmetic,
    element by element, so the same bits."""
    out = np.empty(u.size)
    for i in range(u.size):
        out[i] = u[i] + h / 2 * du[0, i] + h * h / 8 * du[1, i]
    return out


def inputs_after_step(u, du, h):
    """The inputs ``u`` and their derivatives ``du`` carried, in place, to
    the end of a step of ``h`` [s] on their polynomial:
    ``Block.inputs_after_step``'s arithmetic, element by element."""
    for i in range(u.size):
        u[i] = u[i] + h * du[0, i] + (h * h / 2) * du[1, i]
        du[0, i] = du[0, i] + h * du[1, i]


def finite(a):
    """Whether every entry of ``a`` (1-d) is a finite number: a kernel's
    result is used only then (``CompiledBlock._compiled_call``, the
    compiled step's stages)."""
    for v in a:
        if not np.isfinite(v):
            return False
    return True
