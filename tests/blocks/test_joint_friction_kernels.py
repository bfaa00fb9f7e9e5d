"""The compiled friction outputs and rates (blocks/joint_friction_kernels.py,
numba, which the monolithic run calls) against the numpy code of
blocks/joint_friction.py and blocks/friction.py, their reference."""

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.jit import load_kernels
from crane_cosim.blocks.joint_friction import JointFriction, KnuckleBoomFriction
from crane_cosim.hosts.kernel_calls import direct_calls, friction_arguments
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
    args = friction_arguments(block)
    for kernels in (load_kernels("joint_friction_kernels"), kernels_as_python("joint_friction_kernels")):
        cases = _cases(block, rng)
        y = np.array([kernels.outputs(x, u, *args) for x, u in cases])
        y_ref = np.array([block.output(0.0, x, u) for x, u in cases])
        d = np.array([kernels.derivatives(x, u, *args) for x, u in cases])
        d_ref = np.array([block.derivatives(0.0, x, u) for x, u in cases])
        assert np.array_equal(y, y_ref) and np.array_equal(d, d_ref)


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
    """``kernel_calls.direct_calls`` gives the kernel's values, and the
    block's own (which propagate or name a NaN) where they are not finite."""
    block = KnuckleBoomFriction()
    output, derivatives = direct_calls(block)
    assert output is not block.output
    x, u = _cases(block, rng, 1)[0]
    assert np.array_equal(output(0.0, x, u), load_kernels("joint_friction_kernels").outputs(
        x, u, *friction_arguments(block)))
    u[1] = np.nan
    assert np.array_equal(output(0.0, x, u), block.output(0.0, x, u), equal_nan=True)
    assert np.array_equal(derivatives(0.0, x, u), block.derivatives(0.0, x, u), equal_nan=True)
