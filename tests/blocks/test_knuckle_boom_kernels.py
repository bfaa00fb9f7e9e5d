"""The compiled knuckle boom (blocks/knuckle_boom_kernels.py, numba) against
the numpy code of blocks/knuckle_boom.py and kane.py, its reference."""
import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from kernel_source import compiled_pair


def _pair(**params):
    return compiled_pair(KnuckleBoomCrane, **params)


def _random_case(c, rng, moving_base):
    from scipy.spatial.transform import Rotation
    x = np.array([rng.uniform(-3, 3), rng.uniform(0.05, 1.75), rng.uniform(0.05, 1.75), *rng.normal(size=3) * 0.4])
    u = c.default_inputs()
    if moving_base:
        u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
        u[9:21] = rng.normal(size=12)
    u[21:27] = [rng.normal() * 1e4, 6e5 + rng.normal() * 2e5, 2e5 + rng.normal() * 1e5, *rng.normal(size=3) * 1e4]
    return x, u


def _agree(a, b, scale):
    """Both are double-precision sums of a few hundred terms of the same
    physics, formed in another order (tree recursion against projection
    matrices): they agree to round-off, ~1e-13 of the largest quantity of
    the same kind; 1e-9 of it leaves a wide margin and still catches a wrong
    term (a missing Coriolis or gyroscopic part is 1e-3 of it or more)."""
    return np.abs(a - b) <= 1e-9 * scale


@pytest.mark.parametrize("moving_base", [False, True])
def test_compiled_outputs_equal_the_numpy_reference(moving_base):
    compiled, reference = _pair()
    units = np.array([v.unit for v in KnuckleBoomCrane.outputs])
    rng = np.random.default_rng(3 + moving_base)
    for _ in range(20):
        x, u = _random_case(reference, rng, moving_base)
        y, y_ref = compiled.output(0.0, x, u), reference.output(0.0, x, u)
        for unit in set(units):
            sel = units == unit
            ok = _agree(y[sel], y_ref[sel], np.abs(y_ref[sel]).max())
            bad = [n for n, good in zip(np.array(KnuckleBoomCrane.output_names())[sel], ok) if not good]
            assert not bad, f"{bad} differ at x = {x}"


@pytest.mark.parametrize("moving_base", [False, True])
def test_compiled_accelerations_equal_the_numpy_reference(moving_base):
    compiled, reference = _pair()
    rng = np.random.default_rng(5 + moving_base)
    for _ in range(20):
        x, u = _random_case(reference, rng, moving_base)
        d, d_ref = compiled.derivatives(0.0, x, u), reference.derivatives(0.0, x, u)
        assert np.all(_agree(d, d_ref, np.abs(d_ref[3:]).max()))


def test_a_loop_that_cannot_close_is_named_on_the_compiled_path():
    compiled, _ = _pair()
    x = np.array([0.0, 4.0, 0.6, 0.0, 0.0, 0.0])
    with pytest.raises(ParameterError, match="boom cylinder"):
        compiled.output(0.0, x, compiled.default_inputs())
    with pytest.raises(ParameterError, match="boom cylinder"):
        compiled.derivatives(0.0, x, compiled.default_inputs())


def test_nan_inputs_give_nan_outputs_not_an_error():
    """A NaN input (a failed upstream component) propagates, so that the
    master names the component that failed first, as with the numpy code."""
    compiled, _ = _pair()
    u = compiled.default_inputs()
    u[22] = np.nan
    assert np.isnan(compiled.output(0.0, compiled.initial_state(), u)).any()


def test_without_numba_the_block_runs_its_numpy_code(monkeypatch):
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    assert jit.load_kernels("knuckle_boom_kernels") is None
    c = KnuckleBoomCrane()
    y = c.output(0.0, c.initial_state(), c.default_inputs())
    assert c.kernels is None
    assert np.isfinite(y).all()


def test_a_numba_that_cannot_compile_leaves_the_numpy_code(monkeypatch):
    """numba's compile errors (typing, LLVM) surface at the first call, made
    at initialization: the block warns and runs its numpy code."""
    import types

    def fails(*args):
        raise RuntimeError("no LLVM here")

    broken = types.SimpleNamespace(outputs=fails, accelerations=fails)
    monkeypatch.setattr(jit, "load_kernels", lambda name: broken)
    c = KnuckleBoomCrane()
    with pytest.warns(UserWarning, match="no LLVM here"):
        c.prepare()
    assert c.kernels is None
    assert np.isfinite(c.output(0.0, c.initial_state(), c.default_inputs())).all()
