"""The quasi-Newton acceleration of the iterated algorithms' passes
(IQN-ILS of Degroote, Bathe and Vierendeels 2009), on fixed points whose
answer is known."""
import numpy as np

from crane_cosim.runtime.algorithms.acceleration import GROWTH, QuasiNewton


def _linear_map(n=6, radius=0.6, seed=3):
    """H(x) = A x + b with A's spectral radius ``radius``: a contraction
    whose fixed point solves (I - A) x = b."""
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, n))
    A *= radius / max(abs(np.linalg.eigvals(A)))
    b = rng.standard_normal(n)
    return A, b, np.linalg.solve(np.eye(n) - A, b)


def _passes(qn, A, b, x, tol, most=60):
    """Passes x -> H(x), each next x from the model, until the residual is
    below ``tol``: how many passes, and the x reached."""
    scale = np.ones(len(x))
    for p in range(1, most + 1):
        produced = A @ x + b
        if np.max(np.abs(produced - x)) < tol:
            return p, x
        x = qn.next_input(x, produced, scale)
    return most, x


def test_a_linear_loop_is_solved_in_at_most_one_pass_more_than_its_size():
    """On a linear map the secant columns span its Jacobian after n + 1
    passes, so the residual falls below 1e-12 within n + 2 passes (measured:
    8 on six values), where plain passes contracting by 0.6 take 56; x is
    then within the residual over 1 - 0.6 of the fixed point."""
    A, b, exact = _linear_map()
    qn = QuasiNewton(len(b))
    qn.new_step()
    passes, x = _passes(qn, A, b, np.zeros(len(b)), 1e-12)
    assert passes <= len(b) + 2
    assert np.max(np.abs(x - exact)) < 1e-12 / (1 - 0.6)
    plain, _ = _passes(type("Plain", (), {"next_input": lambda self, x, y, s: y})(), A, b, np.zeros(len(b)), 1e-12)
    assert plain > 40


def test_the_columns_of_past_steps_solve_the_next_step_in_one_correction():
    """Steps of the same loop with other right-hand sides (the next
    communication step): with the columns of the steps before, the first
    correction lands on the fixed point to the round-off of the fit's
    normal equations (measured 2.1e-14 at most over three steps), one pass
    where plain passes take 56."""
    A, b, _ = _linear_map()
    qn = QuasiNewton(len(b))
    qn.new_step()
    _passes(qn, A, b, np.zeros(len(b)), 1e-13)
    rng = np.random.default_rng(7)
    for _ in range(3):
        b2 = b + 0.1 * rng.standard_normal(len(b))
        exact = np.linalg.solve(np.eye(len(b)) - A, b2)
        qn.new_step()
        x = exact + 0.01 * rng.standard_normal(len(b))  # a prediction
        x1 = qn.next_input(x, A @ x + b2, np.ones(len(b)))
        assert np.max(np.abs(x1 - exact)) < 6e-14


def test_a_correction_that_leads_away_drops_the_model():
    """A residual more than GROWTH times the pass before's: the model is
    dropped and the values the pass produced are taken (a plain pass); one
    that grows less keeps it (a converging pass may move the largest
    scaled difference to a value of a smaller scale)."""
    qn = QuasiNewton(2)
    qn.new_step()
    one = np.ones(2)
    qn.next_input(np.zeros(2), 0.1 * one, one)
    x = qn.next_input(0.1 * one, 0.15 * one, one)  # a column now: a correction
    assert qn.columns and not np.allclose(x, 0.15 * one)
    kept = QuasiNewton(2)
    kept.new_step()
    kept.next_input(np.zeros(2), 0.1 * one, one)
    y = kept.next_input(0.1 * one, 0.15 * one, one)
    kept.next_input(y, y + 0.05 * (GROWTH - 1), one)  # grown below GROWTH times
    assert len(kept.columns) == 2
    grown = qn.next_input(x, x + 0.05 * (GROWTH + 1), one)
    assert np.array_equal(grown, x + 0.05 * (GROWTH + 1))
    assert qn.columns == []


def test_a_value_zero_so_far_is_measured_in_its_own_magnitude():
    """A scale of zero (a value that was zero until now) does not divide
    by zero: the fit takes the value's own magnitude."""
    qn = QuasiNewton(2)
    qn.new_step()
    qn.next_input(np.zeros(2), np.array([1.0, 0.0]), np.zeros(2))
    x = qn.next_input(np.array([1.0, 0.0]), np.array([1.5, 0.0]), np.zeros(2))
    assert np.isfinite(x).all()


# -- the least-squares fit: Householder's QR, compiled, against numpy's SVD ---------------------------------

def _fit(A, b):
    """The compiled fit's weights, on copies (it overwrites its arguments)."""
    from crane_cosim.runtime.algorithms.acceleration import _least_squares
    return _least_squares(np.array(A, dtype=float), np.array(b, dtype=float))


def test_the_fit_of_full_rank_columns_is_numpys_least_squares():
    """The sizes of the examples' models (the flagship 56 values and up to
    15 columns, the flexible crane 80 and 19): the weights numpy's lstsq
    (an SVD) gives, to round-off.  Measured: at most 2.4e-15 of the largest
    weight over these; bound 7e-15."""
    rng = np.random.default_rng(11)
    worst = 0.0
    for n, k in ((56, 1), (56, 9), (56, 15), (80, 19), (3, 3)):
        for _ in range(5):
            A, b = rng.standard_normal((n, k)), rng.standard_normal(n)
            reference = np.linalg.lstsq(A, b, rcond=None)[0]
            worst = max(worst, np.abs(_fit(A, b) - reference).max() / np.abs(reference).max())
    assert worst < 7e-15


def test_a_column_the_newer_ones_make_is_left_out():
    """Columns are taken newest first: one that the columns before it
    make (here the sum of two of them, as the columns of like steps nearly
    are) gets the weight 0, and the residual is the least there is."""
    rng = np.random.default_rng(12)
    A = rng.standard_normal((40, 4))
    A = np.column_stack([A[:, 0], A[:, 1], A[:, 0] + A[:, 1] * (1 + 1e-12), A[:, 2], A[:, 3]])
    b = rng.standard_normal(40)
    w = _fit(A, b)
    assert w[2] == 0.0 and np.all(w[[0, 1, 3, 4]] != 0.0)
    best = np.linalg.lstsq(A, b, rcond=None)[0]
    assert abs(np.linalg.norm(A @ w - b) - np.linalg.norm(A @ best - b)) < 1e-12 * np.linalg.norm(b)


def test_columns_of_nothing_give_no_correction():
    assert np.array_equal(_fit(np.zeros((10, 3)), np.ones(10)), np.zeros(3))


# -- the fit's rows in powers of two, and its factorisation kept by the compiled step ------------------------

def test_the_rows_are_divided_by_their_scales_rounded_up_to_powers_of_two():
    """A power of two is its own; anything else the next one up; the
    compiled rounding gives the same bits."""
    from crane_cosim.runtime.algorithms.acceleration import powers_of_two_above
    from crane_cosim.runtime.compiled.qn import powers_of_two_above as compiled

    x = np.array([1.0, 0.75, 1.0 + 2.0 ** -52, 3.0, 2.0 ** -1000, 1e300, 5e-324, 6.0e5])
    expected = np.array([1.0, 1.0, 2.0, 4.0, 2.0 ** -1000, 2.0 ** 997, 2.0 ** -1022, 2.0 ** 20])
    assert np.array_equal(powers_of_two_above(x), expected)
    out = np.empty_like(x)
    compiled(x, out)
    assert np.array_equal(out, expected)


def test_the_compiled_model_keeps_its_factorisation_and_gives_the_python_models_bits():
    """The compiled model (``compiled.qn``) and the Python one, fed the same
    passes of a linear loop over twelve steps whose scales grow within a
    power of two and then past it: the same values to the bit, the fit
    factorised anew only where a column came or a scale crossed a power of
    two; the other fits (the first correction of each step) solve with
    the factorisation kept."""
    from crane_cosim.runtime.compiled import qn as compiled

    n = 6
    A, b, _ = _linear_map(n)
    python = QuasiNewton(n)
    off = np.array([[0, 0, n]], np.int64)
    fbuf, ibuf = np.zeros(compiled.model_floats(n)), np.zeros(compiled.model_ints(n), np.int64)
    state, size, scratch = np.zeros((1, compiled.STATE_COLUMNS), np.int64), np.zeros(1), np.zeros(5 * n)
    rng = np.random.default_rng(5)
    fits = factorised = 0
    scale = np.full(n, 5.0)
    for step in range(12):
        b_step = b + 0.05 * rng.standard_normal(n)
        scale = scale * (1.2 if step == 4 else 2.0 if step == 8 else 1.0)  # 5 -> 6 -> 12: past 8 at the ninth step
        python.new_step()
        compiled.qn_new_step(0, off, ibuf, state, 8)
        x = np.linalg.solve(np.eye(n) - A, b_step) + 1e-3 * rng.standard_normal(n)
        for _ in range(3):
            produced = A @ x + b_step
            factors = fbuf[2 * n * n + 2 * n:].copy()  # the factorisation kept, and the scales of its rows
            out = np.empty(n)
            compiled.qn_next_input(0, x, produced, scale, out, off, fbuf, ibuf, state, size, scratch, GROWTH)
            assert np.array_equal(out, python.next_input(x, produced, scale.copy()))
            if state[0, compiled.COUNT]:
                fits += 1
                factorised += not np.array_equal(factors, fbuf[2 * n * n + 2 * n:])
            x = out
    # a fit in each pass but the first of the first step (no column yet): 2 + 11 x 3; factorised
    # anew in the passes that add a column (two a step), and at the ninth step's first, its scales past 8
    assert (fits, factorised) == (35, 2 + 11 * 2 + 1)
