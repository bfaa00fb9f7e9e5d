"""The compiled crane (blocks/crane_kernels.py, numba: Kane's equations of
Cibicik & Egeland (2018) written out for the king - boom - jib chain)
against the numpy code of blocks/crane.py, kane.py and interface.py (the
same equations with projection matrices as numpy arrays), its reference."""
import math

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped
from scipy.spatial.transform import Rotation

from crane_cosim.blocks import jit
from crane_cosim.blocks.crane import Crane
from kernel_source import compiled_pair, kernels_as_python, runs_apart


#: Agreement asked of every output and every derivative, as a fraction of
#: the quantity's largest magnitude over the states compared (:func:`_scales`).
#: Both sides form the same sums of the same products (the projection
#: matrices of eqs. (29)-(38), the mount split, eq. (50)) in another order
#: and solve the 3 x 3 joint rows by the same elimination, so they differ by
#: round-off, most where terms far larger than the result cancel in it (the
#: moment about the boom joint's axis is the joint's torques alone, the
#: inertial and gravity moments of boom and jib about it cancelling): measured
#: worst over 200 seeds of 24 states (Table I, other proportions, COGs at the
#: joints, no gravity), 1.9e-14 (W_boom_nz, other proportions), 1.3e-14 for
#: the accelerations, 5.7e-15 with Table I's crane.
#: A wrong term shows far above it: a 0.1% change of one term gives 2.7e-6
#: to 1e-3 (test_a_perturbed_kernel_fails_the_comparison).
RTOL = 6e-14

#: Quantities the physics makes zero, on both sides round-off of terms as
#: large as the largest quantity of their unit, their scale: the slewing row
#: of I_A (the slew joint turns freely about the mount's z axis) and the
#: moment about the jib's own axis, which the slender jib (no inertia about
#: x4, eq. (73)) cannot pass (measured: at most 4.3e-16 of that scale).
PHYSICS_ZEROS = ("I_A_13", "I_A_23", "I_A_33", "I_A_34", "I_A_35", "I_A_36", "W_jib_nx")


def random_params(rng):
    """A crane of other proportions than Table I's: lengths 1-4 m, COGs
    anywhere along their links (the joint included), masses 5-100 kg."""
    l2, l3, l4 = rng.uniform(1.0, 4.0, 3)
    return dict(l_king=l2, l_boom=l3, l_jib=l4, d_king=rng.uniform(0, l2), d_boom=rng.uniform(0, l3),
                d_jib=rng.uniform(0, l4), m_king=rng.uniform(5, 100), m_boom=rng.uniform(5, 100),
                m_jib=rng.uniform(5, 100))


def _pair(**params):
    return compiled_pair(Crane, **params)


def _random_cases(block, rng, count):
    """``count`` states and inputs ``(t, x, u)``: the joints anywhere, turning
    at up to 1.5 rad/s; the mount turned anyhow (a proper rotation R_1^0),
    turning at up to 1 rad/s and 2 rad/s^2, moving at up to 3 m/s and 5 m/s^2,
    anywhere within 50 m; actuator torques of up to 2 kN m, friction torques
    of up to 500 N m, a tip force of up to 2 kN along each axis."""
    out = []
    for _ in range(count):
        x = np.concatenate([rng.uniform(-math.pi, math.pi, 3), rng.uniform(-1.5, 1.5, 3)])
        R10 = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix()
        assert np.allclose(R10 @ R10.T, np.eye(3), atol=1e-15) and np.linalg.det(R10) > 0
        u = block.default_inputs()
        u[:9] = R10.ravel()
        u[9:12] = rng.uniform(-1.0, 1.0, 3)  # w
        u[12:15] = rng.uniform(-2.0, 2.0, 3)  # dw
        u[15:18] = rng.uniform(-3.0, 3.0, 3)  # v
        u[18:21] = rng.uniform(-5.0, 5.0, 3)  # a
        u[21:24] = rng.uniform(-2000.0, 2000.0, 3)  # actuator torques
        u[24:27] = rng.uniform(-500.0, 500.0, 3)  # friction torques
        u[27:30] = rng.uniform(-2000.0, 2000.0, 3)  # a hoist wire's pull on the tip, Frame 0
        u[30:33] = rng.uniform(-50.0, 50.0, 3)  # the mount's position
        out.append((rng.uniform(0.0, 20.0), x, u))
    return out


def _scales(values, names, units):
    """Scale of each quantity (column of ``values``, one row per state): its
    largest magnitude over the states; for the :data:`PHYSICS_ZEROS`, the
    largest of their unit."""
    scale = np.abs(values).max(axis=0)
    for i, name in enumerate(names):
        if name in PHYSICS_ZEROS:
            scale[i] = np.abs(values[:, units == units[i]]).max()
    return scale


def _disagreement(compiled, reference, cases):
    """The largest ``|compiled - reference| / scale`` over ``cases`` of the
    outputs and the derivatives, with the names of the worst of each."""
    y = np.array([compiled.output(t, x, u) for t, x, u in cases])
    y_ref = np.array([reference.output(t, x, u) for t, x, u in cases])
    d = np.array([compiled.derivatives(t, x, u) for t, x, u in cases])
    d_ref = np.array([reference.derivatives(t, x, u) for t, x, u in cases])
    names = Crane.output_names()
    units = np.array([v.unit for v in Crane.outputs])
    ry = (np.abs(y - y_ref) / _scales(y_ref, names, units)).max(axis=0)
    rd = (np.abs(d - d_ref) / np.abs(d_ref).max(axis=0)).max(axis=0)
    return max(ry.max(), rd.max()), names[int(ry.argmax())], f"d{Crane.states[int(rd.argmax())].name}/dt"


#: the cranes compared: each one's parameters from a random generator
CRANES = {"Table I": lambda rng: {}, "other proportions": random_params,
          "COGs at the joints": lambda rng: dict(d_king=0.0, d_boom=0.0, d_jib=0.0),
          "no gravity": lambda rng: dict(g=0.0)}


@pytest.mark.parametrize("crane", sorted(CRANES))
def test_compiled_outputs_and_derivatives_equal_the_numpy_reference(crane):
    rng = np.random.default_rng(2018 + sorted(CRANES).index(crane))
    compiled, reference = _pair(**CRANES[crane](rng))
    cases = _random_cases(reference, rng, 48)
    worst, output, derivative = _disagreement(compiled, reference, cases)
    assert worst <= RTOL, f"differ by {worst:.2g} of their scale, more than {RTOL:.2g} ({output}, {derivative})"


def test_the_physics_zeros_are_zero_on_both_sides():
    """The quantities compared on their unit's scale are zero to round-off
    in both codes, not merely equally wrong."""
    compiled, reference = _pair()
    cases = _random_cases(reference, np.random.default_rng(3), 12)
    names = Crane.output_names()
    units = np.array([v.unit for v in Crane.outputs])
    for block in (compiled, reference):
        y = np.array([block.output(t, x, u) for t, x, u in cases])
        for name in PHYSICS_ZEROS:
            i = names.index(name)
            assert np.abs(y[:, i]).max() <= 1.5e-15 * np.abs(y[:, units == units[i]]).max(), name


def test_the_compiled_state_runs_as_the_numpy_one():
    """100 ms of a crane swinging on a turning, heaving mount under random
    torques, by the block's Runge-Kutta steps, end where the numpy code's
    do (measured: to 2.9e-17 of the largest angle, 1.2e-16 of the largest
    rate)."""
    compiled, reference = _pair()
    t, x, u = _random_cases(reference, np.random.default_rng(5), 1)[0]
    assert max(runs_apart(compiled, reference, x, u, 100)) <= 1e-14


#: 0.1% changes of single terms of the kernel module, one per part of it
#: (source text, its replacement): the mount's centripetal term in its twist
#: rate, the velocity-product acceleration of a joint, the bodies'
#: gyroscopic moment, gravity, the velocity term of the bias wrench p_A, the
#: moment of a body's force about its joint in the reactions
PERTURBATIONS = {
    "mount's centripetal term": ("tb_dot[3] = inp[18] - (tb[1] * tb[5]",
                                 "tb_dot[3] = inp[18] - (1.001 * tb[1] * tb[5]"),
    "velocity-product acceleration": ("ao[0] += uk * to[1]", "ao[0] += 1.001 * uk * to[1]"),
    "gyroscopic moment": ("+ t[1] * Iw2 - t[2] * Iw1)", "+ 1.001 * (t[1] * Iw2 - t[2] * Iw1))"),
    "gravity": ("Wv[k, 3 + i] = m_k * g_k", "Wv[k, 3 + i] = 1.001 * m_k * g_k"),
    "p_A velocity term": ("y[o + i] = acc - (0.5", "y[o + i] = acc - 1.001 * (0.5"),
    "reaction's moment arm": ("- c[0] * f2\n", "- 1.001 * c[0] * f2\n"),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL."""
    perturbed = kernels_as_python("crane_kernels", *PERTURBATIONS[term])
    compiled, reference = _pair()
    compiled.kernels = perturbed
    cases = _random_cases(reference, np.random.default_rng(7), 6)
    worst, output, derivative = _disagreement(compiled, reference, cases)
    assert worst > 100 * RTOL, f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # and the same module unperturbed, run as Python, agrees
    compiled.kernels = kernels_as_python("crane_kernels")
    assert _disagreement(compiled, reference, cases)[0] <= RTOL


def test_the_kernels_are_compiled_once_and_for_one_signature():
    """Once the block ran, every function of the kernel module is compiled
    and in numba's cache; an integer time or a strided state (a row of an
    integrator's solution array) compiles nothing more."""
    compiled, _ = _pair()
    assert jit.kernels_compiled("crane_kernels")
    module = jit.load_kernels("crane_kernels")
    functions = jit.kernel_functions("crane_kernels")
    assert sorted(n for n, v in vars(module).items() if hasattr(v, "py_func")) == sorted(functions)
    states = np.stack([compiled.initial_state()] * 2, axis=1)  # columns: strided rows
    compiled.output(0, states[:, 0], compiled.default_inputs())
    compiled.derivatives(1, states[:, 1], compiled.default_inputs())
    for name in ("outputs", "derivatives"):  # the helpers run inside these, loaded with them from the cache
        assert len(getattr(module, name).signatures) == 1, name
