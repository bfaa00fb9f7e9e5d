"""The quasi-Newton step of the iterated algorithms (IQN-ILS, Degroote,
Bathe and Vierendeels 2009) compiled by numba, for the compiled master step
(``step.py``): the same operations, in the same order, as
``algorithms/acceleration.py``'s :class:`QuasiNewton`, so the same bits.

A model's state lives in arrays shared by every model of a run, each model
at its own offsets (``off[m]``: its values' offset in ``fbuf``, its
columns' tags' offset in ``ibuf``, its size ``n``, LAPACK's workspace size
``lwork``):

* ``fbuf``: the changes of the residual ``V`` (``n`` columns of ``n``,
  slot after slot), of the values produced ``W`` (the same), the values
  produced by the pass before and its residual;
* ``ibuf``: the step each column came from;
* ``state[m]``: the slot of the newest column, how many columns are kept,
  the step counter (counting the steps that gave columns) and whether a
  pass before in this step was seen; ``size[m]``: that pass's residual's
  largest scaled magnitude.

Only the newest ``n`` columns are kept, in a ring of ``n`` slots, newest
first: the fit uses no more (``columns[:n]``), and columns leave oldest
first, so the ones it uses are the same.
"""
from __future__ import annotations

from numba import njit

from .calls import address_of, dgelsy

__all__ = ["qn_new_step", "qn_next_input"]

# columns of a model's ``off`` row and ``state`` row
F_OFFSET, I_OFFSET, SIZE, LWORK = 0, 1, 2, 3
HEAD, COUNT, STEP, HAS_LAST = 0, 1, 2, 3


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
        state[m, COUNT] = count
    state[m, HAS_LAST] = 0


@njit(cache=True)
def qn_next_input(m, x, produced, scale, out, off, fbuf, ibuf, state, size, scratch, lapack_i, lapack_f,
                  jpvt, dgelsy_fn, growth):
    """The values the next pass reads into ``out`` (``QuasiNewton.next_input``),
    given those the pass read (``x``) and ``produced``, and the values'
    ``scale``; 0, or LAPACK's ``info`` where the fit failed.

    ``scratch`` holds at least ``n * (n + 3) + lwork`` floats; ``lapack_i``
    eight int32 and ``lapack_f`` one float (the fit's ``rcond``, set by the
    caller); ``jpvt`` ``n`` int32."""
    n = off[m, SIZE]
    f0 = off[m, F_OFFSET]
    V, W = f0, f0 + n * n
    last_produced, last_r = f0 + 2 * n * n, f0 + 2 * n * n + n
    r = scratch[:n]
    sc = scratch[n:2 * n]
    b = scratch[2 * n:3 * n]
    a = scratch[3 * n:3 * n + n * n]
    work = scratch[3 * n + n * n:]
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
    last_size = size[m]
    if had_last and biggest > growth * last_size:
        # the model led away from the fixed point: start it afresh
        state[m, COUNT] = 0
    elif had_last:
        head = (state[m, HEAD] - 1) % n
        state[m, HEAD] = head
        state[m, COUNT] = min(state[m, COUNT] + 1, n)
        ibuf[off[m, I_OFFSET] + head] = state[m, STEP]
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
    if (had_last and biggest > growth * last_size) or count == 0:
        return 0
    head = state[m, HEAD]
    for j in range(count):
        col = V + ((head + j) % n) * n
        for i in range(n):
            a[i + j * n] = fbuf[col + i] / sc[i]
    for i in range(n):
        b[i] = -r[i] / sc[i]
    for j in range(count):
        jpvt[j] = 0
    # m, n, nrhs, lda, ldb, rank, lwork, info
    lapack_i[0], lapack_i[1], lapack_i[2], lapack_i[3], lapack_i[4] = n, count, 1, n, n
    lapack_i[6] = off[m, LWORK]
    base = address_of(lapack_i)
    dgelsy(dgelsy_fn, base, base + 4, base + 8, address_of(a), base + 12, address_of(b), base + 16,
           address_of(jpvt), address_of(lapack_f), base + 20, address_of(work), base + 24, base + 28)
    if lapack_i[7] != 0:
        return lapack_i[7]
    for j in range(count):
        w = b[j]
        col = W + ((head + j) % n) * n
        for i in range(n):
            out[i] += fbuf[col + i] * w
    return 0
