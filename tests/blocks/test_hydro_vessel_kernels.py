"""The compiled hydrodynamic vessel (blocks/hydro_vessel_kernels.py, numba:
Cummins' equation written out entry by entry, Gaussian elimination) against
the numpy code of blocks/hydro_vessel.py, its reference."""

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks.block import sym6_pack
from crane_cosim.blocks.hydro_vessel import HydroVessel
from kernel_source import compiled_pair, disagreement, kernels_as_python, runs_apart
from test_vessel_kernels import crane_inertia

#: Agreement asked of every output and derivative, as a fraction of the
#: quantity's largest magnitude over the states compared: both sides are
#: double-precision sums of the same terms in another order, solved another
#: way, and the waves' phases, ``w t + phi`` of up to 320 rad at the times
#: compared (up to 100 s), round to an ulp of 5.7e-14 rad, the kernel's as
#: an anchor's phase turned by a Taylor polynomial; measured 1.35e-14 at
#: worst (the wave excitation in yaw; the calm water's 5.5e-16).
RTOL = 4e-14
#: a sea (beam-quartering, 100 waves, growing to full height over the first
#: 60 s of the 100 s compared) and the mount off the centre line, so that no
#: term vanishes by symmetry
CASES = {"calm": {"mount_y": 4.0},
         "waves": {"mount_y": 4.0, "Hs": 3.0, "heading": 2.0, "n_waves": 100.0, "t_ramp": 60.0}}
CASES["mean drift"] = {**CASES["waves"], "drift": "mean"}


def _random_cases(block, rng, count):
    """``count`` states and inputs ``(t, x, u)``: the barge displaced by up
    to a metre and 0.1 rad, moving at up to 1 m/s and 0.1 rad/s, its memory
    excited to the forces of such motions; a crane's ``I_A`` of up to 3 t
    and ``p_A`` of a few hundred kN."""
    out = []
    n_r = block.fit.A.shape[0]
    for i in range(count):
        x = np.concatenate([rng.uniform(-1, 1, 3), rng.uniform(-0.1, 0.1, 3), rng.uniform(-1, 1, 3),
                            rng.uniform(-0.1, 0.1, 3), rng.normal(size=n_r) * 0.3])
        u = block.default_inputs()
        u[:21] = sym6_pack(crane_inertia(rng, slewing=i % 2 == 0) * 10)
        u[21:27] = rng.normal(size=6) * [3e5, 3e5, 3e5, 1e5, 1e5, 1e5]
        out.append((rng.uniform(0.0, 100.0), x, u))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_compiled_outputs_and_derivatives_equal_the_numpy_reference(case):
    compiled, reference = compiled_pair(HydroVessel, **CASES[case])
    cases = _random_cases(reference, np.random.default_rng(27 + sorted(CASES).index(case)), 36)
    worst, output, derivative = disagreement(compiled, reference, cases)
    assert worst <= RTOL, f"differ by {worst:.2g} of their scale, more than {RTOL:.2g} ({output}, {derivative})"


def test_the_compiled_state_runs_as_the_numpy_one():
    """One second of the block's Runge-Kutta steps in waves under a crane's
    load ends where the numpy code's does (measured: 8.7e-17 of the largest)."""
    compiled, reference = compiled_pair(HydroVessel, **CASES["waves"])
    t, x, u = _random_cases(reference, np.random.default_rng(5), 1)[0]
    assert max(runs_apart(compiled, reference, x, u, 200, 5e-3)) <= 1e-13


#: 0.1% changes of single terms of the kernel module: the wave excitation,
#: its waves' phases at the anchor and their turning from it, the
#: restoring, the memory's force and its states' rates, the damping, the
#: gyroscopic moment, the added mass, the crane's bias wrench and the sea's
#: growth over its start, the drift's slow variation and its mean (the
#: latter in the sea of a mean drift)
PERTURBATIONS = {
    "slow drift": ("Yc[k] += c[i] * T[i, k]", "Yc[k] += 1.001 * c[i] * T[i, k]"),
    "mean drift": ("mean[k] += a[i] * a[i] * T[i, k]", "mean[k] += 1.001 * a[i] * a[i] * T[i, k]"),
    "wave excitation": ("F[k] += c[i] * X_re[i, k] + s[i] * X_im[i, k]",
                        "F[k] += 1.001 * c[i] * X_re[i, k] + s[i] * X_im[i, k]"),
    "waves' anchor": ("phase = w[i] * A + phi[i]", "phase = w[i] * A + 1.001 * phi[i]"),
    "waves' turning": ("_SIN = (-1 / 6,", "_SIN = (-1.001 / 6,"),
    "restoring": ("acc += K[i, j] * x[j] + D[i, j] * u[j]", "acc += 1.001 * K[i, j] * x[j] + D[i, j] * u[j]"),
    "damping": ("acc += K[i, j] * x[j] + D[i, j] * u[j]", "acc += K[i, j] * x[j] + 1.001 * D[i, j] * u[j]"),
    "memory force": ("acc += Cr[i, j] * x[12 + j]\n        rhs", "acc += 1.001 * Cr[i, j] * x[12 + j]\n        rhs"),
    "memory rates": ("acc += Br[i, j] * x[6 + j]", "acc += 1.001 * Br[i, j] * x[6 + j]"),
    "gyroscopic moment": ("_cross(wb, Iw, gyro)", "_cross(wb, Iw, gyro)\n    gyro *= 1.001"),
    "added mass": ("A[i, j] = A_inf[i, j]", "A[i, j] = 1.001 * A_inf[i, j]"),
    "crane's bias wrench": ("acc = p_A[r]", "acc = 1.001 * p_A[r]"),
    "sea's start": ("return 0.5 * (1.0 - math.cos(", "return 0.5005 * (1.0 - math.cos("),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL; unperturbed, run as Python, it agrees."""
    sea = CASES["mean drift" if term == "mean drift" else "waves"]
    compiled, reference = compiled_pair(HydroVessel, **sea)
    cases = _random_cases(reference, np.random.default_rng(7), 4)
    compiled.kernels = kernels_as_python("hydro_vessel_kernels", *PERTURBATIONS[term])
    worst = disagreement(compiled, reference, cases)[0]
    assert worst > 100 * RTOL, f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # a block of its own: the other kept the perturbed wave forces of these times
    compiled = compiled_pair(HydroVessel, **sea)[0]
    compiled.kernels = kernels_as_python("hydro_vessel_kernels")
    assert disagreement(compiled, reference, cases)[0] <= RTOL


def test_the_kept_wave_forces_are_those_computed_afresh():
    """The kernel keeps the wave forces of the last times asked (a step's
    stages, a master's repeated steps): asked in any order, more times than
    it keeps, again and again, every output is bit for bit that of a block
    asked at that time alone."""
    compiled = compiled_pair(HydroVessel, **CASES["waves"])[0]
    x, u = compiled.initial_state(), compiled.default_inputs()
    times = np.random.default_rng(3).uniform(0, 50, 12)
    asked = np.concatenate([times, times[::-1], times[:5], times[:5], times[7:3:-1]])
    alone = {}
    for t in times:
        fresh = compiled_pair(HydroVessel, **CASES["waves"])[0]
        alone[t] = fresh.output(t, x, u)
    for t in asked:
        assert np.array_equal(compiled.output(t, x, u), alone[t]), f"the outputs at t = {t} differ"
