"""What every block with a compiled twin (``compiled_block.CompiledBlock``) shares:
numba's failures leave the numpy code with a warning, and once a block ran,
its whole kernel module is in numba's cache (the comparisons of each kernel
with its numpy reference are in the block's own kernel tests)."""
import types

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit
from crane_cosim.blocks.crane import Crane
from crane_cosim.blocks.flexible_crane import FlexibleCrane
from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.blocks.supported_base import SupportedBase
from crane_cosim.blocks.vessel import Vessel


BLOCKS = [Crane, FlexibleCrane, HydroVessel, SupportedBase, Vessel]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_a_numba_that_cannot_compile_leaves_the_numpy_code(monkeypatch, block):
    """numba's compile errors (typing, LLVM) surface at the first call, made
    at initialization: the block warns and runs its numpy code."""
    monkeypatch.delenv("CI", raising=False)  # outside CI; under CI the same failure is an error (below)

    def fails(*args):
        raise RuntimeError("no LLVM here")

    broken = types.SimpleNamespace(outputs=fails, derivatives=fails)
    monkeypatch.setattr(jit, "load_kernels", lambda name: broken)
    b = block()
    with pytest.warns(UserWarning, match=rf"{block.model_name}: numba could not compile its kernels \(no LLVM "
                                         rf"here\); running the numpy code"):
        b.prepare()
    assert b.kernels is None
    assert np.isfinite(b.output(0.0, b.initial_state(), b.default_inputs())).all()


def test_under_ci_a_numba_that_cannot_compile_is_an_error(monkeypatch):
    """Under continuous integration the kernels must be the ones tested: a
    compile failure raises instead of leaving the numpy code."""
    monkeypatch.setenv("CI", "true")

    def fails(*args):
        raise RuntimeError("no LLVM here")
    monkeypatch.setattr(jit, "load_kernels", lambda name: types.SimpleNamespace(outputs=fails, derivatives=fails))
    with pytest.raises(RuntimeError, match="no LLVM here"):
        BLOCKS[0]().prepare()


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_the_kernels_are_compiled_once_the_block_ran(block):
    """Every function of the module is in numba's cache after the block ran:
    warm_up (fmus/warmup.py) has nothing left to compile."""
    block().prepare()
    assert jit.kernels_compiled(block.kernel_module)
    module = jit.load_kernels(block.kernel_module)
    compiled = sorted(n for n, v in vars(module).items() if hasattr(v, "py_func"))
    assert compiled == sorted(jit.kernel_functions(block.kernel_module))


def _cases(block, rng, n=3):
    """``n`` states near the block's initial one and inputs near its
    defaults, at random (the numpy and the compiled code alike must take
    any of them)."""
    x0, u0 = block.initial_state(), block.default_inputs()
    return [(0.1 * k, x0 + 0.05 * rng.standard_normal(x0.size), u0 + 0.05 * rng.standard_normal(u0.size))
            for k in range(n)]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_nan_inputs_give_nan_outputs_not_an_error(block):
    """A NaN input (a failed upstream component) propagates, so that the
    master names the component that failed first, as with the numpy code
    (the compiled result is not finite: the numpy code answers)."""
    b = block()
    b.prepare()
    assert b.kernels is not None
    u = np.full(len(b.inputs), np.nan)
    assert np.isnan(b.output(0.0, b.initial_state(), u)).any()
    assert np.isnan(b.derivatives(0.0, b.initial_state(), u)).any()


@pytest.mark.parametrize("how", ["CRANE_COSIM_NUMBA=0", "no numba"])
@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_without_numba_the_block_runs_its_numpy_code(monkeypatch, block, how):
    if how == "no numba":
        monkeypatch.setattr(jit, "load_kernels", lambda name: None)
    else:
        monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
        assert jit.load_kernels(block.kernel_module) is None
    b, reference = block(), block()
    reference.prepare(numba=False)
    for t, x, u in _cases(b, np.random.default_rng(11)):
        # the very same code: equal to the last bit
        assert np.array_equal(b.output(t, x, u), reference.output(t, x, u))
        assert np.array_equal(b.derivatives(t, x, u), reference.derivatives(t, x, u))
    assert b.kernels is None
