"""The compiled vessel (blocks/vessel_kernels.py, numba: the equations
written out entry by entry, Gaussian elimination) against the numpy code of
blocks/vessel.py (matrix products, LAPACK's LU), its reference."""

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.block import sym6_pack
from crane_cosim.blocks.screw import skew
from crane_cosim.blocks.vessel import Vessel
from kernel_source import compiled_pair, disagreement, kernels_as_python, runs_apart


#: Agreement asked of every output and every derivative, as a fraction of
#: the quantity's largest magnitude over the states compared (mount_v_z,
#: zero throughout, must be zero on both sides).  Both sides are
#: double-precision sums of the same terms in another order, solved another
#: way (elimination against LAPACK's LU), so they differ by round-off:
#: measured worst over 1000 seeds of 24 states, 3.1e-15 (weightless,
#: undamped; mount_dw_x), 2.8e-15 to 3.0e-15 in the other three cases,
#: 5e-16 the median; 3.3e-15 with the default, centred vessel (200 seeds).
#: A wrong term shows far above it: a 0.1% change of one term gives
#: 1.2e-5 to 9.6e-4 (test_a_perturbed_kernel_fails_the_comparison).
RTOL = 1e-14

#: a vessel whose COG is off every axis and whose inertia is not round, so
#: that no term vanishes by symmetry
OFF_CENTRE = dict(cog_x=0.4, cog_y=-0.3, cog_z=2.0, r_x=1.1, r_y=1.9, r_z=2.3)
#: damping whose moment at the rates below, up to 2.5 kN m, is of the order
#: of the gyroscopic moment and the crane's
DAMPED = dict(c_roll=3e3, c_pitch=4e3, c_yaw=5e3)


def _pair(**params):
    return compiled_pair(Vessel, **params)


def crane_inertia(rng, slewing):
    """A crane's ``I_A`` at the mount (Frame 1, ``[w; v]`` order): the
    spatial inertia of one rigid body of 0.2 to 3 t, its COG up to 4 m out
    and 1 to 5 m up, radii of gyration 0.5 to 3 m, turned at random;
    ``slewing``, articulated through a slewing joint about z1 at the mount,
    ``I - I s s^T I / (s^T I s)``, which is positive semidefinite of rank 5,
    as a crane free to slew gives; else positive definite (a locked slew)."""
    m = rng.uniform(200.0, 3000.0)
    c = np.array([*rng.uniform(-4.0, 4.0, 2), rng.uniform(1.0, 5.0)])
    Q = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    I_c = m * Q @ np.diag(rng.uniform(0.5, 3.0, 3) ** 2) @ Q.T
    C = skew(c)
    I = np.block([[I_c - m * C @ C, m * C], [-m * C, m * np.eye(3)]])
    if slewing:
        Is = I[:, 2]
        I = I - np.outer(Is, Is) / Is[2]
    return I


def _random_cases(block, rng, count):
    """``count`` states and inputs ``(t, x, u)``: the vessel within 0.1 rad
    of upright, where the springs' k q^3 (up to 8e4 N m) do not drown the
    other moments of a few kN m (a wrong term among those must show),
    turning at up to 0.5 rad/s; a crane's ``I_A``
    (:func:`crane_inertia`, slewing or not) and ``p_A`` of about 10 kN and
    3 kN m, and waves' moments of a few kN m."""
    out = []
    for i in range(count):
        x = np.concatenate([rng.uniform(-0.1, 0.1, 3), rng.uniform(-0.5, 0.5, 3)])
        u = block.default_inputs()
        u[:21] = sym6_pack(crane_inertia(rng, slewing=i % 2 == 0))
        u[21:27] = rng.normal(size=6) * [3e3, 3e3, 3e3, 1e4, 1e4, 1e4]
        u[27:30] = rng.normal(size=3) * 3e3
        out.append((rng.uniform(0.0, 20.0), x, u))
    return out


CASES = {"weightless": {}, "weight": {"gravity_on": True}, "weightless, damped": DAMPED,
         "weight, damped": dict(gravity_on=True, **DAMPED)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_outputs_and_derivatives_equal_the_numpy_reference(case):
    compiled, reference = _pair(**OFF_CENTRE, **CASES[case])
    cases = _random_cases(reference, np.random.default_rng(2018 + sorted(CASES).index(case)), 24)
    worst, output, derivative = disagreement(compiled, reference, cases)
    assert worst <= RTOL, f"differ by {worst:.2g} of their scale, more than {RTOL:.2g} ({output}, {derivative})"


def test_the_compiled_state_runs_as_the_numpy_one():
    """50 ms of the block's Runge-Kutta steps from a tilted, turning vessel
    under a crane's load end where the numpy code's do (measured: the same
    angles, rates to 1.8e-16 of the largest)."""
    compiled, reference = _pair(**OFF_CENTRE, **DAMPED, gravity_on=True)
    t, x, u = _random_cases(reference, np.random.default_rng(5), 1)[0]
    assert max(runs_apart(compiled, reference, x, u, 50)) <= 1e-13


#: 0.1% changes of single terms of the kernel module (source text, its
#: replacement): the cubic springs (Section III-D), the damping, the
#: gyroscopic moment, the weight's moment, the angular acceleration's bias
#: (dE/dt) u, the mount's centripetal acceleration and the crane's bias
#: wrench in the implicit solve
PERTURBATIONS = {
    "cubic spring": ("- k[i] * x[i] ** 3", "- 1.001 * k[i] * x[i] ** 3"),
    "damping": ("- c[i] * x[3 + i] +", "- 1.001 * c[i] * x[3 + i] +"),
    "wave moment": ("+ inp[27 + i])", "+ 1.001 * inp[27 + i])"),
    "gyroscopic moment": ("n_O[i] = n_O[i] - gyro[i]", "n_O[i] = n_O[i] - 1.001 * gyro[i]"),
    "weight's moment": ("+ R[2, i] * m_g[2]", "+ 1.001 * R[2, i] * m_g[2]"),
    "angular acceleration's bias": ("dw_bias[0] = -u2 * c2 * u3", "dw_bias[0] = -1.001 * u2 * c2 * u3"),
    "mount's centripetal acceleration": ("b_m[3] = l1 * dw_bias[1] + wxv[0]",
                                         "b_m[3] = l1 * dw_bias[1] + 1.001 * wxv[0]"),
    "crane's bias wrench": ("acc = p_A[r]", "acc = 1.001 * p_A[r]"),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL."""
    perturbed = kernels_as_python("vessel_kernels", *PERTURBATIONS[term])
    compiled, reference = _pair(**OFF_CENTRE, **DAMPED, gravity_on=True)
    compiled.kernels = perturbed
    cases = _random_cases(reference, np.random.default_rng(7), 6)
    worst, output, derivative = disagreement(compiled, reference, cases)
    assert worst > 100 * RTOL, f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # and the same module unperturbed, run as Python, agrees
    compiled.kernels = kernels_as_python("vessel_kernels")
    assert disagreement(compiled, reference, cases)[0] <= RTOL


def test_a_singular_system_is_named_by_the_numpy_code():
    """An ``I_A`` that cancels the vessel's own inertia (no crane gives it; a
    foreign model might) makes ``M + J^T I_A J`` exactly zero upright: the
    kernel gives NaN rather than raising, and the numpy code, answering in
    its place, names the singular matrix."""
    compiled, _ = _pair()
    I_A = np.zeros((6, 6))
    I_A[:3, :3] = -compiled._I_O
    u = compiled.default_inputs()
    u[:21] = sym6_pack(I_A)
    x = compiled.initial_state()
    assert not np.isfinite(compiled.kernels.outputs(0.0, x, u, *compiled._kernel_args)).all()
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        compiled.output(0.0, x, u)
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        compiled.derivatives(0.0, x, u)
