"""The compiled whole step of a block (``blocks/stepping.py``) against the
readable reference, ``Block._integrate``: the same arithmetic in the same
order, so the same bits (measured: no difference at all, on every block,
method and input mode below; the tolerance is therefore zero), the
fallback to the reference where a stage is not finite, numba's cache of
the step, and under CI a step that cannot compile is an error."""
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit, stepping
from crane_cosim.blocks.block import Block
from crane_cosim.blocks.crane import Crane
from crane_cosim.blocks.flexible_crane import FlexibleCrane
from crane_cosim.blocks.hydraulics import HydraulicCylinder
from crane_cosim.blocks.joint_friction import JointFriction
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.supported_base import SupportedBase
from crane_cosim.blocks.vessel import Vessel
from tiny_block import BROKEN, TINY, tiny_block

BLOCKS = [Crane, FlexibleCrane, KnuckleBoomCrane, SupportedBase, Vessel]


def _cases(block, rng, n=3):
    """``n`` states near the block's initial one, inputs near its defaults
    and input derivatives, at random."""
    x0, u0 = block.initial_state(), block.default_inputs()
    return [(0.1 * k, x0 + 0.05 * rng.standard_normal(x0.size), u0 + 0.05 * rng.standard_normal(u0.size),
             rng.standard_normal((2, u0.size))) for k in range(n)]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_the_compiled_step_is_the_reference_to_the_bit(block):
    b = block()
    b.prepare()
    assert b._step is not None
    for method in ("rk4", "heun", "symplectic-euler"):
        b.method = method
        for t, x, u, du in _cases(b, np.random.default_rng(5)):
            # two sub-steps and a half-size one, inputs held and moving
            h = 2.5 * b.max_step
            for d in (None, du):
                compiled = stepping.compiled_step(b, t, x, u, d, h)
                assert compiled is not None
                assert np.array_equal(compiled, Block._integrate(b, t, x, u, d, h)), (method, d is not None)
                assert np.array_equal(b._integrate(t, x, u, d, h), compiled)


@pytest.mark.parametrize("block", [*BLOCKS, HydraulicCylinder, JointFriction], ids=lambda b: b.model_name)
def test_the_compiled_input_polynomial_is_the_reference_to_the_bit(block):
    """The inputs at a step's middle (for the blocks that step their own
    way) and the inputs and their derivatives carried to its end, as an FMU
    does after each step with input derivatives: the kernel module's
    compiled twins give the numpy reference's bits, the latter in place."""
    b = block()
    b.prepare()
    assert b.kernels.inputs_after_step is not None
    for t, x, u, du in _cases(b, np.random.default_rng(7)):
        for h in (1e-3, 0.37 * b.max_step, 5e-3):
            middle = b.inputs_at_middle(u, du, h)
            assert np.array_equal(middle, Block.inputs_at_middle(b, u, du, h))
            u_ref, du_ref = Block.inputs_after_step(b, u, du, h)
            u1, du1 = u.copy(), du.copy()
            u2, du2 = b.inputs_after_step(u1, du1, h)
            assert u2 is u1 and du2 is du1
            assert np.array_equal(u1, u_ref) and np.array_equal(du1, du_ref)


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.model_name)
def test_a_stage_that_is_not_finite_leaves_the_step_to_the_reference(block):
    """NaN inputs: the compiled step gives up, and the step is the
    reference's, whose stages the numpy code answers: the NaN propagates, or
    the numpy code names what failed."""
    b = block()
    b.prepare()
    x, u = b.initial_state(), np.full(len(b.inputs), np.nan)
    assert stepping.compiled_step(b, 0.0, x, u, None, b.max_step) is None
    try:
        reference = Block._integrate(b, 0.0, x, u, None, b.max_step)
    except ValueError as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            b.advance(0.0, x, u, b.max_step)
    else:
        assert np.array_equal(b.advance(0.0, x, u, b.max_step), reference, equal_nan=True)


def test_without_numba_there_is_no_compiled_step(monkeypatch):
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    b = Vessel()
    b.prepare()
    assert b._step is None and stepping.compiled_step(b, 0.0, b.initial_state(), b.default_inputs(), None, 1e-3) \
        is None


# -- a tiny kernel module: numba's cache and the CI rule, fast ------------------------------------------

@pytest.fixture
def tiny(monkeypatch, tmp_path):
    monkeypatch.setitem(jit._SOURCES, "tiny_kernels", TINY)
    monkeypatch.setitem(jit._SOURCES, "broken_kernels", BROKEN)
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "cache"))
    yield tmp_path / "cache"
    for name in [n for n in sys.modules if n.startswith(("crane_cosim_tiny_kernels_", "crane_cosim_broken_kernels_"))]:
        del sys.modules[name]
    for name in [n for n in stepping._STEPS if n.startswith(("crane_cosim_tiny_kernels_",
                                                             "crane_cosim_broken_kernels_"))]:
        del stepping._STEPS[name]


def test_the_step_is_kept_in_numbas_cache_beside_its_kernels(tiny):
    """Written next to the kernel module's copy, compiled once: a new
    process loads its machine code from the cache, compiling nothing."""
    b = tiny_block("tiny_kernels")()
    b.prepare()
    assert np.array_equal(b.advance(0.0, b.initial_state(), np.ones(1), 0.01),
                          Block._integrate(b, 0.0, b.initial_state(), np.ones(1), None, 0.01))
    folder = jit._stable_path("tiny_kernels", jit._digest("tiny_kernels")).parent
    assert [p.name for p in folder.glob("tiny_kernels_step_*.py")]
    assert list((folder / "__pycache__").glob("tiny_kernels_step_*.step-*.nbi"))
    script = textwrap.dedent(f"""
        import numpy as np
        from crane_cosim.blocks import jit, stepping
        jit._SOURCES["tiny_kernels"] = {TINY!r}
        kernels = jit.load_kernels("tiny_kernels")
        step = stepping.load_stepping("tiny_kernels", kernels).step
        x, ok = step(0.0, np.array([1.0, 0.0]), np.ones(1), np.zeros((2, 1)), False, 0.01, 10, 0, (4.0,))
        print(ok, len(step.stats.cache_hits), len(step.stats.cache_misses))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "CRANE_COSIM_CACHE_DIR": str(tiny)})
    assert out.stdout.split() == ["True", "1", "0"]


def test_a_step_numba_cannot_compile_leaves_the_numpy_code_outside_ci(tiny, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    b = tiny_block("broken_kernels")()
    with pytest.warns(UserWarning, match="Tiny: numba could not compile its kernels"):
        b.prepare()
    assert b.kernels is None and b._step is None
    x = b.advance(0.0, b.initial_state(), np.zeros(1), 0.01)
    assert np.array_equal(x, Block._integrate(b, 0.0, b.initial_state(), np.zeros(1), None, 0.01))


def test_under_ci_a_step_numba_cannot_compile_is_an_error(tiny, monkeypatch):
    monkeypatch.setenv("CI", "1")
    with pytest.raises(Exception, match="(?i)typing|derivatives|float64"):
        tiny_block("broken_kernels")().prepare()
