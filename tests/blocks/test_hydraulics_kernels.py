"""The hydraulic cylinder's compiled outputs, rates and stiff step
(blocks/hydraulics_kernels.py, numba), which its own methods call, against
its numpy code (blocks/hydraulics.py), their reference: the same
expressions in the same order, so the same bits (measured: no difference
at all over the cases below; the tolerance is therefore zero)."""
import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.hydraulics import HydraulicCylinder
from crane_cosim.blocks.jit import load_kernels
from kernel_source import kernels_as_python


def _cases(block, rng, n=60):
    """Chamber pressures from vapour to above supply; the spool closed,
    either way and beyond full (clipped); the piston inside its stroke,
    against either end stop, moving either way or still."""
    p = block.p
    cases = []
    for k in range(n):
        x = rng.uniform(p.p_vap, 1.2 * p.p_S, size=2)
        if k % 7 == 0:
            x[k % 2] = p.p_vap
        valve = (0.0, 1.3, -1.3)[k % 3] if k % 4 == 0 else rng.uniform(-1.0, 1.0)
        piston = rng.choice([rng.uniform(0.0, p.stroke), -rng.uniform(0.0, 1e-3), p.stroke + rng.uniform(0.0, 1e-3)])
        speed = 0.0 if k % 5 == 0 else rng.normal() * 0.2
        cases.append((x, np.array([valve, rng.normal() * 1e6, piston, speed, rng.normal() * 1e4])))
    return cases


@pytest.mark.parametrize("hydraulic", [True, False])
def test_kernels_equal_the_numpy_code(rng, hydraulic):
    block = HydraulicCylinder(hydraulic=hydraulic)
    for kernels in (load_kernels("hydraulics_kernels"), kernels_as_python("hydraulics_kernels")):
        for x, u in _cases(block, rng):
            assert np.array_equal(kernels.outputs(0.0, x, u, *block._kernel_args), block._output(x, u))
            assert np.array_equal(kernels.rates(0.0, x, u, *block._kernel_args), block._derivatives(x, u))
            # a half step of the flagship (three sub-steps), a whole one
            # beyond h_max, and one sub-step
            for h in (2.5e-3, 5e-3, 1e-3):
                n = int(np.ceil(h / block.max_step - 1e-9))
                assert np.array_equal(kernels.advance(x, u, h, n, *block._kernel_args), block._advance(x, u, h))


def test_a_wrong_term_is_seen(rng):
    """The comparison above would see the leakage's sign turned in the
    kernel's chamber rates."""
    block = HydraulicCylinder(C_L=1e-11)
    wrong = kernels_as_python("hydraulics_kernels", "QL = par[C_L] * (pA - pB)\n    kA", "QL = par[C_L] * (pB - pA)\n    kA")
    x, u = _cases(block, rng, 1)[0]
    assert not np.array_equal(wrong.rates(0.0, x, u, *block._kernel_args), block._derivatives(x, u))


def test_the_block_answers_by_its_kernels_and_names_a_stroke_that_does_not_fit(rng):
    block = HydraulicCylinder()
    block.prepare()
    assert block.kernels is not None
    for x, u in _cases(block, rng, 10):
        assert np.array_equal(block.output(0.0, x, u), block._output(x, u))
        assert np.array_equal(block.derivatives(0.0, x, u), block._derivatives(x, u))
        assert np.array_equal(block.advance(0.0, x, u, 2.5e-3), block._advance(x, u, 2.5e-3))
    u = block.default_inputs().astype(float)
    u[2] = 2.0 * block.p.stroke  # the kernel gives NaN, the numpy code says why
    with pytest.raises(ValueError, match="beyond the stroke"):
        block.output(0.0, block.initial_state(), u)
