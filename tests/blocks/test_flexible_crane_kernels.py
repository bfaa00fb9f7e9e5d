"""The compiled flexible crane (blocks/flexible_crane_kernels.py, numba:
composite-rigid-body and Newton-Euler recursions, a Cholesky and Schur
solve) against the numpy code of blocks/flexible_crane.py, kane.py and
interface.py (projection matrices, an LU solve of the whole system), its
reference."""
import math

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.flexible_crane import FlexibleCrane
from kernel_source import compiled_pair, kernels_as_python, runs_apart


#: Agreement asked of every output and every derivative, as a fraction of
#: the quantity's scale (:func:`_scales`), per million of the condition
#: number of the joints' mass matrix M_jj (:func:`_tolerance`).  Both sides
#: are double-precision sums of the same physics formed in another order,
#: then solved another way (Cholesky and Schur against LU), so they differ
#: by round-off amplified by cond(M_jj): the torsion of the short boom
#: elements is light (0.03 kg m^2 at n_rfe = 4) beside the luffing inertia
#: (~3000 kg m^2), so cond(M_jj) reaches 5e2 at n_rfe = 1, 1e5 at 2, 9e5
#: at 4 and 4.4e6 at 8, and the two agree to within eps cond(M_jj) (eps =
#: 2.2e-16; the tolerance is 4.5 times that).  Measured worst over 12 seeds
#: of 24 states: 5.1e-10 at n_rfe = 8 (tolerance 4.4e-9 there), 3.1e-11 at
#: n_rfe = 4, 2e-11 at n_rfe <= 2 (the zeros of I_A's slewing row, FLOOR
#: below); the derivatives alone 1e-10 at n_rfe = 8.
#: A wrong term shows far above it: a 0.1% change of one term gives 6e-7 to
#: 5e-4 (test_a_perturbed_kernel_fails_the_comparison).
RTOL = 1e-9

#: A quantity that the physics makes zero (the jib has no inertia about its
#: own axis, so the wrench through the jib joint has no moment about it; the
#: slewing row of I_A; a rigid boom's deflection) is round-off of terms as
#: large as the largest quantity of its unit: its scale is at least this
#: fraction of that (measured: such zeros are 5e-15 of it).
FLOOR = 1e-4


def _pair(**params):
    return compiled_pair(FlexibleCrane, **params)


def _random_cases(c, rng, count):
    """``count`` states and inputs ``(t, x, u)``: the three joints anywhere,
    the springs' rotations a few milliradians, rates of all coordinates
    (0.3 rad/s is a 3 mrad vibration at 16 Hz), a mount turned anyhow and
    moving, anywhere near the ground origin, random torques and friction;
    half the times inside the programme's rise (0 < t < t_c), half after."""
    from scipy.spatial.transform import Rotation
    n = c.chain.n
    out = []
    for i in range(count):
        x = np.empty(2 * n)
        x[:n] = rng.normal(size=n) * 3e-3
        x[c.joint_index] = rng.uniform(-math.pi, math.pi, 3)
        x[n:] = rng.normal(size=n) * 0.3
        u = c.default_inputs()
        u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
        u[9:21] = rng.normal(size=12)  # w, dw, v, a of the mount
        u[21:24] = rng.normal(size=3)  # its position in Frame 0
        u[24:27] = rng.normal(size=3) * 2e3  # the joints' actuator torques
        u[27:30] = rng.normal(size=3) * 2e2  # and their friction torques
        u[30:33] = rng.normal(size=3) * 2e3  # a hoist wire's pull at E
        t = c.p.t_c * (rng.uniform(0.0, 1.0) if i % 2 == 0 else rng.uniform(1.0, 2.0))
        out.append((t, x, u))
    return out


def _scales(values, units):
    """Scale of each quantity (column of ``values``, one row per state): its
    largest magnitude over the states, at least FLOOR of the largest of its
    unit."""
    own = np.abs(values).max(axis=0)
    scale = own.copy()
    for unit in set(units):
        sel = units == unit
        scale[sel] = np.maximum(own[sel], FLOOR * own[sel].max())
    return scale


def _tolerance(reference, cases):
    """RTOL per million of the largest cond(M_jj) over ``cases``, at least RTOL."""
    cond = max(np.linalg.cond(reference._state_terms(x)[1][6:, 6:]) for _, x, _ in cases)
    return RTOL * max(1.0, cond / 1e6)


def _disagreement(compiled, reference, cases):
    """The largest ``|compiled - reference| / scale`` over ``cases`` of the
    outputs and the derivatives, with the names of the worst of each."""
    y = np.array([compiled.output(t, x, u) for t, x, u in cases])
    y_ref = np.array([reference.output(t, x, u) for t, x, u in cases])
    d = np.array([compiled.derivatives(t, x, u) for t, x, u in cases])
    d_ref = np.array([reference.derivatives(t, x, u) for t, x, u in cases])
    out_units = np.array([v.unit for v in FlexibleCrane.outputs])
    state_units = np.array([v.unit for v in reference.states])
    ry = (np.abs(y - y_ref) / _scales(y_ref, out_units)).max(axis=0)
    # the derivatives' units are the states' per second: the rates, then the accelerations
    rd = (np.abs(d - d_ref) / _scales(d_ref, state_units)).max(axis=0)
    names = FlexibleCrane.output_names()
    return max(ry.max(), rd.max()), names[int(ry.argmax())], f"d{reference.states[int(rd.argmax())].name}/dt"


@pytest.mark.parametrize("programmed", [False, True])
@pytest.mark.parametrize("n_rfe", [1, 2, 4, 8])
def test_compiled_outputs_and_derivatives_equal_the_numpy_reference(programmed, n_rfe):
    compiled, reference = _pair(programmed=programmed, n_rfe=n_rfe)
    rng = np.random.default_rng(2018 + 10 * n_rfe + programmed)
    cases = _random_cases(reference, rng, 24)
    worst, output, derivative = _disagreement(compiled, reference, cases)
    tol = _tolerance(reference, cases)
    assert worst <= tol, f"differ by {worst:.2g} of their scale, more than {tol:.2g} ({output}, {derivative})"


def test_the_compiled_state_runs_as_the_numpy_one():
    """A programmed run of 50 ms (the rise under way, the flexible modes
    ringing from the start off the path) ends where the numpy code's does:
    RK4 is smooth in the derivatives, so round-off stays round-off."""
    compiled, reference = _pair(programmed=True)
    u = compiled.default_inputs()
    assert max(runs_apart(compiled, reference, reference.initial_state(), u, 50)) <= 1e-9


#: 0.1% changes of single terms of the kernel module, one per part of it
#: (source text, its replacement): the body's gyroscopic force in Newton-Euler,
#: Baumgarte's damping of the ellipse, the programme's acceleration (eq. (22)),
#: the velocity term of the bias wrench p_A
PERTURBATIONS = {
    "gyroscopic force": ("out[3] += w1 * h[5] - w2 * h[4]", "out[3] += 1.001 * (w1 * h[5] - w2 * h[4])"),
    "Baumgarte damping": ("- alpha * dPhi0 -", "- 1.001 * alpha * dPhi0 -"),
    "programmed acceleration": ("acc = 60.0 * s", "acc = 60.06 * s"),
    "p_A velocity term": ("(I_A[i, 3] * wxv[0]", "(1.001 * I_A[i, 3] * wxv[0]"),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL."""
    perturbed = kernels_as_python("flexible_crane_kernels", *PERTURBATIONS[term])
    compiled, reference = _pair(programmed=True, n_rfe=2)
    compiled.kernels = perturbed
    cases = _random_cases(reference, np.random.default_rng(7), 6)
    worst, output, derivative = _disagreement(compiled, reference, cases)
    assert worst > 100 * _tolerance(reference, cases), f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # and the same module unperturbed, run as Python, agrees
    compiled.kernels = kernels_as_python("flexible_crane_kernels")
    assert _disagreement(compiled, reference, cases)[0] <= _tolerance(reference, cases)
