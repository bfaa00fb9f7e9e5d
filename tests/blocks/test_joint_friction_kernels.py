"""The compiled friction outputs, rates and exact step
(blocks/joint_friction_kernels.py, numba, which the block's own methods and
the monolithic run call) against the numpy code of blocks/joint_friction.py
and blocks/friction.py, their reference."""

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.jit import load_kernels
from crane_cosim.blocks.joint_friction import JointFriction, KnuckleBoomFriction
from kernel_source import kernels_as_python

#: both sides evaluate the same expressions in the same order, the joint's
#: load by CPython's own hypot: the same bits

#: every law: LuGre, Dahl with a shape exponent, Dahl linear, none
LAWS = [dict(), dict(model_slew="dahl", gamma_slew=1.5, model_boom="dahl", model_jib="none"),
        dict(model_boom="none", model_jib="dahl", gamma_jib=2.0)]


def _cases(block, rng, n=40):
    """States and inputs: rates sliding and stuck (exactly zero), bristles
    near and beyond saturation, reactions of the crane's size."""
    cases = []
    for k in range(n):
        x = rng.normal(size=len(block.states)) * np.tile([1e-4, 1e3], len(block.states) // 2)
        u = rng.normal(size=len(block.inputs)) * 1e5
        for i, first in enumerate(block._first_input):
            u[first] = 0.0 if k % 5 == 0 else rng.normal() * 10.0 ** rng.uniform(-5, 0)
        cases.append((x, u))
    return cases


@pytest.mark.parametrize("block_type", [JointFriction, KnuckleBoomFriction])
@pytest.mark.parametrize("laws", LAWS)
def test_kernels_equal_the_numpy_code(rng, block_type, laws):
    block = block_type(**laws)
    args = block._kernel_args
    for kernels in (load_kernels("joint_friction_kernels"), kernels_as_python("joint_friction_kernels")):
        cases = _cases(block, rng)
        y = np.array([kernels.outputs(x, u, *args) for x, u in cases])
        y_ref = np.array([block._output(x, u) for x, u in cases])
        d = np.array([kernels.rates(x, u, *args) for x, u in cases])
        d_ref = np.array([block._derivatives(x, u) for x, u in cases])
        assert np.array_equal(y, y_ref) and np.array_equal(d, d_ref)
        # the exact step, over a step of the iterated algorithms and one
        # long against the bristles' relaxation (a sliding bristle's
        # exponential underflows), and with no time at all
        for h in (2.5e-3, 0.4, 0.0):
            a = np.array([kernels.advance(x, u, h, *args) for x, u in cases])
            a_ref = np.array([block._advance(x, u, h) for x, u in cases])
            assert np.array_equal(a, a_ref), h


@pytest.mark.parametrize("laws", LAWS)
def test_the_block_answers_by_its_kernels(rng, laws):
    """The block's own output, derivatives and advance are the kernels'
    (so the same bits as its numpy code), and its numpy code's where a
    kernel's result is not finite, which propagates the NaN."""
    block = KnuckleBoomFriction(**laws)
    block.prepare()
    assert block.kernels is not None
    for x, u in _cases(block, rng, 10):
        assert np.array_equal(block.output(0.0, x, u), block._output(x, u))
        assert np.array_equal(block.derivatives(0.0, x, u), block._derivatives(x, u))
        assert np.array_equal(block.advance(0.0, x, u, 5e-3), block._advance(x, u, 5e-3))
    x, u = _cases(block, rng, 1)[0]
    u[0] = np.nan
    assert np.isnan(block.output(0.0, x, u)).any()
    assert np.array_equal(block.advance(0.0, x, u, 5e-3), block._advance(x, u, 5e-3), equal_nan=True)


def test_hypot_is_pythons_to_the_bit(rng):
    """The kernel's hypot is math.hypot's, bit for bit, over magnitudes from
    subnormal to near overflow (the C library's, which numba would call,
    differs in the last bit in about one case in 200)."""
    import math
    kernels = load_kernels("joint_friction_kernels")
    pairs = rng.normal(size=(20000, 2)) * 10.0 ** rng.uniform(-300, 300, size=(20000, 2))
    pairs[::3, 1] = pairs[::3, 0] * rng.uniform(0.5, 2.0, size=len(pairs[::3]))
    pairs[:4] = [[0.0, 0.0], [5e-324, 1e-320], [3.0, -4.0], [1e308, 1e308]]
    assert all(kernels.hypot(a, b) == math.hypot(a, b) for a, b in pairs)
    assert kernels.hypot(math.inf, math.nan) == math.inf and math.isnan(kernels.hypot(1.0, math.nan))


def test_the_monolithic_run_calls_the_compiled_friction_and_falls_back_on_nan(rng):
    """``direct_calls`` gives the kernel's values, and the
    block's own (which propagate or name a NaN) where they are not finite."""
    block = KnuckleBoomFriction()
    output, derivatives = block.direct_calls()
    assert output is not block.output
    x, u = _cases(block, rng, 1)[0]
    assert np.array_equal(output(0.0, x, u), load_kernels("joint_friction_kernels").outputs(
        x, u, *block._kernel_args))
    u[1] = np.nan
    assert np.array_equal(output(0.0, x, u), block.output(0.0, x, u), equal_nan=True)
    assert np.array_equal(derivatives(0.0, x, u), block.derivatives(0.0, x, u), equal_nan=True)
