"""The quasi-Newton step of the iterated algorithms (IQN-ILS, Degroote,
Bathe and Vierendeels 2009) compiled by numba, for the compiled master step
(``step.py``): the same operations, in the same order, as
``algorithms/acceleration.py``'s :class:`QuasiNewton`, so the same bits;
and the least-squares fit both use, :func:`least_squares`.

A model's state lives in arrays shared by every model of a run, each model
at its own offsets (``off[m]``: its values' offset in ``fbuf``, its
columns' tags' offset in ``ibuf``, its size ``n``):

* ``fbuf``: the changes of the residual ``V`` (``n`` columns of ``n``,
  slot after slot), of the values produced ``W`` (the same), the values
  produced by the pass before and its residual; the last fit's
  factorisation (the reflectors and R, ``n`` x ``n``, then ``tau`` and
  R's diagonal) and the powers of two its rows were divided by;
* ``ibuf``: the step each column came from; the columns the last fit kept;
* ``state[m]``: the slot of the newest column, how many columns are kept,
  the step counter (counting the steps that gave columns), whether a
  pass before in this step was seen, how many columns the last fit kept
  and whether its factorisation still holds (no column came or went
  since); ``size[m]``: that pass's residual's largest scaled magnitude.

Only the newest ``n`` columns are kept, in a ring of ``n`` slots, newest
first: the fit uses no more (``columns[:n]``), and columns leave oldest
first, so the ones it uses are the same.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, types

__all__ = ["qn_new_step", "qn_next_input", "least_squares", "factorise", "solve", "powers_of_two_above", "RCOND",
           "STATE_COLUMNS", "model_floats", "model_ints", "LEAST_SQUARES_SIGNATURE"]

# columns of a model's ``off`` row and ``state`` row
F_OFFSET, I_OFFSET, SIZE = 0, 1, 2
HEAD, COUNT, STEP, HAS_LAST, KEPT, FACTORED = range(6)
STATE_COLUMNS = 6
#: the bits of a double's mantissa and of its exponent (``acceleration.powers_of_two_above``'s)
MANTISSA, EXPONENT = 0x000FFFFFFFFFFFFF, 0x7FF0000000000000


def model_floats(n: int) -> int:
    """The floats of ``fbuf`` a model of ``n`` values holds (the module's
    docstring says which)."""
    return 3 * n * n + 5 * n


def model_ints(n: int) -> int:
    """The integers of ``ibuf`` a model of ``n`` values holds."""
    return 2 * n


#: a column whose part that the columns before it (the newer ones) do not
#: make is under this fraction of the largest column is left out of the
#: fit: the columns of like steps nearly repeat one another
RCOND = 1e-8


@njit(cache=True, inline="always")
def _dot(x, y):
    """``sum(x * y)`` summed in four interleaved parts, then those in order:
    four chains of additions where one would wait on each addition's
    latency (a fixed order, so the same bits every time)."""
    m = x.size
    s0 = s1 = s2 = s3 = 0.0
    q = 0
    while q + 4 <= m:
        s0 += x[q] * y[q]
        s1 += x[q + 1] * y[q + 1]
        s2 += x[q + 2] * y[q + 2]
        s3 += x[q + 3] * y[q + 3]
        q += 4
    while q < m:
        s0 += x[q] * y[q]
        q += 1
    return (s0 + s1) + (s2 + s3)


@njit(cache=True, inline="always")
def _reflect(x, v, tau):
    """``x`` reflected, in place, by ``I - tau v v^T``."""
    s = tau * _dot(v, x)
    for i in range(x.size):
        x[i] -= s * v[i]


@njit(cache=True)
def factorise(a, n, k, tau, rdiag, kept_cols):
    """Householder's QR factorisation of the ``n`` x ``k`` matrix ``A``
    (``k <= n``) whose column ``j`` is ``a[j n:(j + 1) n]``, column by
    column in their order (the newest first), a column left out where its
    part orthogonal to the columns kept before it is at most ``RCOND`` of
    the largest column's length (Golub & Van Loan 2013, sections 5.2 and
    5.4): ``a`` overwritten by the reflectors and R, ``tau``, ``rdiag`` and
    ``kept_cols`` (the columns kept, in order) filled; the columns kept."""
    largest = 0.0
    for j in range(k):
        col = a[j * n:(j + 1) * n]
        largest = max(largest, _dot(col, col))
    bound = RCOND * math.sqrt(largest)
    kept = 0
    for j in range(k):
        x = a[j * n:(j + 1) * n]
        for p in range(kept):  # the reflectors so far, on this column
            _reflect(x[p:], a[p * n + p:(p + 1) * n], tau[p])
        sigma = math.sqrt(_dot(x[kept:], x[kept:]))
        if not sigma > bound:
            continue
        if kept != j:
            a[kept * n:(kept + 1) * n] = x
            x = a[kept * n:(kept + 1) * n]
        head = x[kept]
        alpha = -sigma if head >= 0.0 else sigma
        v0 = head - alpha
        x[kept] = v0
        tau[kept] = -1.0 / (alpha * v0)
        rdiag[kept] = alpha
        kept_cols[kept] = j
        kept += 1
    return kept


@njit(cache=True)
def solve(a, b, n, k, kept, tau, rdiag, kept_cols, weights):
    """The ``weights`` (``k``) that minimise ``|A w - b|`` for the matrix
    :func:`factorise` left in ``a`` (with ``kept``, ``tau``, ``rdiag``,
    ``kept_cols``), 0 for the columns left out; ``b`` overwritten (Q^T b,
    then the kept weights).  False where a weight is not finite."""
    for j in range(k):
        weights[j] = 0.0
    for p in range(kept):  # Q^T b
        _reflect(b[p:], a[p * n + p:(p + 1) * n], tau[p])
    for r in range(kept - 1, -1, -1):  # R w = Q^T b, R above the diagonal in the columns kept
        s = b[r]
        for q in range(r + 1, kept):
            s -= a[q * n + r] * b[q]
        b[r] = s / rdiag[r]
    finite = True
    for r in range(kept):
        weights[kept_cols[r]] = b[r]
        finite = finite and math.isfinite(b[r])
    return finite


@njit(cache=True)
def least_squares(a, b, n, k, weights, tau, rdiag, kept_cols):
    """The ``weights`` (``k``) that minimise ``|A w - b|`` for the ``n`` x
    ``k`` matrix ``A`` (``k <= n``) whose column ``j`` is ``a[j n:(j + 1) n]``:
    :func:`factorise`, then :func:`solve`.  ``a`` and ``b`` are overwritten;
    ``tau``, ``rdiag`` and ``kept_cols`` hold ``k`` values each.  About
    2 n k^2 operations, with no calls into a library: at the flagship's 56
    values and 8-15 columns 1-3 us, where LAPACK's dgelsy took about 12 in
    a run.  False where a weight is not finite."""
    kept = factorise(a, n, k, tau, rdiag, kept_cols)
    return solve(a, b, n, k, kept, tau, rdiag, kept_cols, weights)


#: the types of :func:`least_squares`'s arguments, as ``acceleration._least_squares`` gives them
LEAST_SQUARES_SIGNATURE = (types.float64[::1], types.float64[::1], types.int64, types.int64, types.float64[::1],
                           types.float64[::1], types.float64[::1], types.int64[::1])


@njit(cache=True)
def powers_of_two_above(x, out):
    """Each of the positive finite ``x``, rounded up to a power of two, into
    ``out`` (``acceleration.powers_of_two_above``: the exponent's bits, one
    up where the mantissa has any)."""
    bits, into = x.view(np.int64), out.view(np.int64)
    for i in range(x.size):
        into[i] = (bits[i] + MANTISSA) & EXPONENT


@njit(cache=True)
def qn_new_step(m, off, ibuf, state, reuse):
    """Start a step of model ``m`` (``QuasiNewton.new_step``)."""
    n, head, count = off[m, SIZE], state[m, HEAD], state[m, COUNT]
    tags = off[m, I_OFFSET]
    if count > 0 and ibuf[tags + head] == state[m, STEP]:
        state[m, STEP] += 1
        oldest = state[m, STEP] - reuse
        while count > 0 and ibuf[tags + (head + count - 1) % n] < oldest:
            count -= 1
        if count != state[m, COUNT]:
            state[m, FACTORED] = 0
        state[m, COUNT] = count
    state[m, HAS_LAST] = 0


@njit(cache=True)
def qn_next_input(m, x, produced, scale, out, off, fbuf, ibuf, state, size, scratch, growth):
    """The values the next pass reads into ``out`` (``QuasiNewton.next_input``),
    given those the pass read (``x``) and ``produced``, and the values'
    ``scale``.  The fit's factorisation is kept while the model's columns
    and the powers of two its rows are divided by stay: then only the new
    residual is solved for (the same bits as a fit anew).

    ``scratch`` holds at least ``5 n`` floats."""
    n = off[m, SIZE]
    f0, i0 = off[m, F_OFFSET], off[m, I_OFFSET]
    V, W = f0, f0 + n * n
    last_produced, last_r = f0 + 2 * n * n, f0 + 2 * n * n + n
    a = fbuf[f0 + 2 * n * n + 2 * n:f0 + 3 * n * n + 2 * n]
    tau = fbuf[f0 + 3 * n * n + 2 * n:f0 + 3 * n * n + 3 * n]
    rdiag = fbuf[f0 + 3 * n * n + 3 * n:f0 + 3 * n * n + 4 * n]
    fit_scale = fbuf[f0 + 3 * n * n + 4 * n:f0 + 3 * n * n + 5 * n]
    kept_cols = ibuf[i0 + n:i0 + 2 * n]
    r = scratch[:n]
    sc = scratch[n:2 * n]
    b = scratch[2 * n:3 * n]
    weights = scratch[3 * n:4 * n]
    rounded = scratch[4 * n:5 * n]
    biggest = 0.0
    for i in range(n):
        r[i] = produced[i] - x[i]
        s = max(scale[i], abs(x[i]))
        s = max(s, abs(produced[i]))
        if s == 0.0:
            s = 1.0
        sc[i] = s
        biggest = max(biggest, abs(r[i] / s))
    had_last = state[m, HAS_LAST] == 1
    led_away = had_last and biggest > growth * size[m]
    if led_away:  # the model led away from the fixed point: start it afresh
        state[m, COUNT] = 0
        state[m, FACTORED] = 0
    elif had_last:
        head = (state[m, HEAD] - 1) % n
        state[m, HEAD] = head
        state[m, COUNT] = min(state[m, COUNT] + 1, n)
        state[m, FACTORED] = 0
        ibuf[i0 + head] = state[m, STEP]
        for i in range(n):
            fbuf[V + head * n + i] = r[i] - fbuf[last_r + i]
            fbuf[W + head * n + i] = produced[i] - fbuf[last_produced + i]
    for i in range(n):
        fbuf[last_produced + i] = produced[i]
        fbuf[last_r + i] = r[i]
    size[m] = biggest
    state[m, HAS_LAST] = 1
    for i in range(n):
        out[i] = produced[i]
    count = state[m, COUNT]
    if led_away or count == 0:
        return
    head = state[m, HEAD]
    powers_of_two_above(sc, rounded)
    same = state[m, FACTORED] == 1
    for i in range(n):
        same = same and rounded[i] == fit_scale[i]
    if not same:
        for i in range(n):
            fit_scale[i] = rounded[i]
        for j in range(count):
            col = V + ((head + j) % n) * n
            for i in range(n):
                a[i + j * n] = fbuf[col + i] / fit_scale[i]
        state[m, KEPT] = factorise(a, n, count, tau, rdiag, kept_cols)
        state[m, FACTORED] = 1
    for i in range(n):
        b[i] = -r[i] / fit_scale[i]
    if not solve(a, b, n, count, state[m, KEPT], tau, rdiag, kept_cols, weights):
        state[m, COUNT] = 0  # a fit of no finite weights: a plain pass, the model afresh
        state[m, FACTORED] = 0
        return
    for j in range(count):
        w = weights[j]
        col = W + ((head + j) % n) * n
        for i in range(n):
            out[i] += fbuf[col + i] * w
