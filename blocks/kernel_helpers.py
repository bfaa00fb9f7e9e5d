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
    """``out += X^T A X`` for 6 x 6 matrices (an inertia carried through a
    joint's transform), ``T`` a 6 x 6 scratch array."""
    for i in range(6):
        for j in range(6):
            acc = 0.0
            for r in range(6):
                acc += A[i, r] * X[r, j]
            T[i, j] = acc
    for i in range(6):
        for j in range(6):
            acc = 0.0
            for r in range(6):
                acc += X[r, i] * T[r, j]
            out[i, j] += acc


def _lu_solve(A, b):
    """``b`` overwritten by ``A^-1 b`` (``A`` overwritten too) by Gaussian
    elimination with partial pivoting; NaN where a pivot is zero or NaN
    (numba would raise on the division, the numpy code names the singular
    matrix)."""
    n = b.shape[0]
    for k in range(n):
        p = k
        for i in range(k + 1, n):
            if abs(A[i, k]) > abs(A[p, k]):
                p = i
        if not abs(A[p, k]) > 0.0:
            b[:] = math.nan
            return b
        if p != k:
            for j in range(k, n):
                A[k, j], A[p, j] = A[p, j], A[k, j]
            b[k], b[p] = b[p], b[k]
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            for j in range(k + 1, n):
                A[i, j] -= f * A[k, j]
            b[i] -= f * b[k]
    for i in range(n - 1, -1, -1):
        acc = b[i]
        for j in range(i + 1, n):
            acc -= A[i, j] * b[j]
        b[i] = acc / A[i, i]
    return b
