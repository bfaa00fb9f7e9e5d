"""The compiled supported base (blocks/supported_base_kernels.py, numba:
the equations written out entry by entry, Gaussian elimination) against
the numpy code of blocks/supported_base.py (matrix products, LAPACK's LU),
its reference."""

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.block import sym6_pack
from crane_cosim.blocks.supported_base import SupportedBase
from kernel_source import compiled_pair, disagreement, kernels_as_python, runs_apart


#: Agreement asked of every output and every derivative, as a fraction of
#: the quantity's largest magnitude over the states compared (none is zero
#: throughout at random states).  Both sides are double-precision sums of
#: the same terms in another order, solved another way (elimination against
#: LAPACK's LU), so they differ by round-off: measured worst over 200 seeds
#: of 24 states, 7.1e-15 (exact, damped; du_y), 4.7e-15 to 6.2e-15 in the
#: other three cases, 4e-15 with the default, symmetric geometry.
#: A wrong term shows far above it: a 0.1% change of one term gives 1.3e-7
#: to 5e-4 (test_a_perturbed_kernel_fails_the_comparison).
RTOL = 2e-14

#: an off-centre base and mount, so that no term vanishes by symmetry
OFF_CENTRE = dict(cog_x=0.25, cog_y=-0.15, cog_z=-0.35, mount_x=0.4, mount_y=-0.3, mount_z=0.2, r_z=1.1)
#: damping of every support, about 10% of critical for heave
DAMPED = dict(c_x=2e3, c_y=3e3, c_z=1e4)


def _pair(**params):
    return compiled_pair(SupportedBase, **params)


def _random_cases(block, rng, count):
    """``count`` states and inputs ``(t, x, u)``: the base within 1 cm and
    0.05 rad of its rest pose, moving at up to 0.1 m/s and 0.5 rad/s; a
    crane's ``I_A`` positive definite, of a few thousand kg and kg m^2, and
    ``p_A`` of a few kN and 10 kN m."""
    out = []
    scale = np.array([50.0, 50.0, 50.0, 20.0, 20.0, 20.0])  # sqrt of kg m^2, kg
    for _ in range(count):
        x = np.concatenate([rng.uniform(-0.01, 0.01, 3), rng.uniform(-0.05, 0.05, 3),
                            rng.uniform(-0.1, 0.1, 3), rng.uniform(-0.5, 0.5, 3)])
        L = rng.normal(size=(6, 6))
        I_A = scale[:, None] * (L @ L.T + 0.1 * np.eye(6)) * scale
        u = block.default_inputs()
        u[:21] = sym6_pack(I_A)
        u[21:27] = rng.normal(size=6) * [1e4, 1e4, 1e4, 4e3, 4e3, 4e3]
        out.append((rng.uniform(0.0, 5.0), x, u))
    return out


CASES = {"exact": {}, "small_angle": {"small_angle": True}, "exact, damped": DAMPED,
         "small_angle, damped": dict(small_angle=True, **DAMPED)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_outputs_and_derivatives_equal_the_numpy_reference(case):
    compiled, reference = _pair(**OFF_CENTRE, **CASES[case])
    cases = _random_cases(reference, np.random.default_rng(2018 + sorted(CASES).index(case)), 24)
    worst, output, derivative = disagreement(compiled, reference, cases)
    assert worst <= RTOL, f"differ by {worst:.2g} of their scale, more than {RTOL:.2g} ({output}, {derivative})"


def test_the_compiled_state_runs_as_the_numpy_one():
    """50 ms from a displaced, spinning base under a crane's load (every mode
    ringing at up to 290 rad/s) end where the numpy code's do (measured:
    to 7.5e-16 of the largest coordinate and rate)."""
    compiled, reference = _pair(**OFF_CENTRE, **DAMPED)
    t, x, u = _random_cases(reference, np.random.default_rng(5), 1)[0]
    assert max(runs_apart(compiled, reference, x, u, 50)) <= 1e-13


#: 0.1% changes of single terms of the kernel module (source text, its
#: replacement): the base's gyroscopic moment, the versine of the exact
#: deflection, the supports' damping, the mount's centripetal acceleration
#: in the crane's wrench
PERTURBATIONS = {
    "gyroscopic moment": ("y[i] = cxf[i] - gyro[i]", "y[i] = cxf[i] - 1.001 * gyro[i]"),
    "versine": ("vers = math.sin(angles[k]), -2.0 *", "vers = math.sin(angles[k]), -2.002 *"),
    "support damping": ("- dd[i] * C[i]", "- 1.001 * dd[i] * C[i]"),
    "mount's centripetal acceleration": ("b_m[3 + i] = tmp[i] + wxwxr[i]", "b_m[3 + i] = tmp[i] + 1.001 * wxwxr[i]"),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL."""
    perturbed = kernels_as_python("supported_base_kernels", *PERTURBATIONS[term])
    compiled, reference = _pair(**OFF_CENTRE, **DAMPED)
    compiled.kernels = perturbed
    cases = _random_cases(reference, np.random.default_rng(7), 6)
    worst, output, derivative = disagreement(compiled, reference, cases)
    assert worst > 100 * RTOL, f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # and the same module unperturbed, run as Python, agrees
    compiled.kernels = kernels_as_python("supported_base_kernels")
    assert disagreement(compiled, reference, cases)[0] <= RTOL
