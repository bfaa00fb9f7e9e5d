"""The compiled knuckle boom (blocks/knuckle_boom_kernels.py, numba: a
recursion over the tree, the cylinder loops' closed forms) against the
numpy code of blocks/knuckle_boom.py, cylinder_loop.py and kane.py
(projection matrices, the loops' screws), its reference."""
import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from kernel_source import compiled_pair, kernels_as_python

#: Agreement asked of every output and acceleration, as a fraction of the
#: largest quantity of the same kind (unit) at the same state.  Both sides
#: are double-precision sums of a few hundred terms of the same physics,
#: formed in another order (tree recursion against projection matrices;
#: the loops' closed forms (37), (40) against a solve of the screws'
#: virtual-work equations): measured worst 1.3e-14 over the 40 states of
#: the tests below (W_jib_nx, fixed base), the accelerations 2.9e-15.  The
#: rare state where the slew acceleration is a small remainder of large
#: terms differs by more of its own size (3.5e-13 of it, once in 800
#: random states), not by more of the terms'.  A wrong term shows far above
#: it: a 0.1% change of one term gives 5e-7 to 7e-4
#: (test_a_perturbed_kernel_fails_the_comparison).
RTOL = 4e-14


def _pair(**params):
    return compiled_pair(KnuckleBoomCrane, **params)


def _random_case(c, rng, moving_base):
    from scipy.spatial.transform import Rotation
    x = np.array([rng.uniform(-3, 3), rng.uniform(0.05, 1.75), rng.uniform(0.05, 1.75), *rng.normal(size=3) * 0.4])
    u = c.default_inputs()
    if moving_base:
        u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
        u[9:21] = rng.normal(size=12)
    u[21:27] = [rng.normal() * 1e4, 6e5 + rng.normal() * 2e5, 2e5 + rng.normal() * 1e5, *rng.normal(size=3) * 1e4]
    u[27:30] = rng.normal(size=3) * 5e4  # a payload's pull at the tip
    u[30:33] = rng.normal(size=3) * 20.0  # the mount point, Frame 0
    return x, u


def _agree(a, b, scale):
    """``a`` within RTOL of ``scale`` of ``b``, elementwise."""
    return np.abs(a - b) <= RTOL * scale


def _disagreement(compiled, reference, cases):
    """The largest difference over ``cases`` (``(x, u)``) of the outputs, each
    over the largest output of its unit at that state, and of the
    accelerations over the largest of them, as the tests above ask."""
    units = np.array([v.unit for v in KnuckleBoomCrane.outputs])
    worst = 0.0
    for x, u in cases:
        y, y_ref = compiled.output(0.0, x, u), reference.output(0.0, x, u)
        for unit in set(units):
            sel = units == unit
            worst = max(worst, np.abs(y[sel] - y_ref[sel]).max() / np.abs(y_ref[sel]).max())
        d, d_ref = compiled.derivatives(0.0, x, u), reference.derivatives(0.0, x, u)
        worst = max(worst, np.abs(d - d_ref).max() / np.abs(d_ref[3:]).max())
    return worst


@pytest.mark.parametrize("moving_base", [False, True])
def test_compiled_outputs_equal_the_numpy_reference(moving_base):
    compiled, reference = _pair()
    units = np.array([v.unit for v in KnuckleBoomCrane.outputs])
    rng = np.random.default_rng(3 + moving_base)
    for _ in range(20):
        x, u = _random_case(reference, rng, moving_base)
        y, y_ref = compiled.output(0.0, x, u), reference.output(0.0, x, u)
        for unit in set(units):
            sel = units == unit
            ok = _agree(y[sel], y_ref[sel], np.abs(y_ref[sel]).max())
            bad = [n for n, good in zip(np.array(KnuckleBoomCrane.output_names())[sel], ok) if not good]
            assert not bad, f"{bad} differ at x = {x}"


@pytest.mark.parametrize("moving_base", [False, True])
def test_compiled_accelerations_equal_the_numpy_reference(moving_base):
    compiled, reference = _pair()
    rng = np.random.default_rng(5 + moving_base)
    for _ in range(20):
        x, u = _random_case(reference, rng, moving_base)
        d, d_ref = compiled.derivatives(0.0, x, u), reference.derivatives(0.0, x, u)
        assert np.all(_agree(d, d_ref, np.abs(d_ref[3:]).max()))


def test_the_kernels_joint_map_equals_the_screws_of_the_reference():
    """The kernel's joint map (the closed forms (37), (40) of Cibicik &
    Egeland 2019 and their time derivatives) and the reference's (the
    virtual-work equations (35), (39) of the loop's screws, solved, and
    their time derivative) give the same theta, G and dG/dt u over the
    strokes, each to round-off of its largest entry (measured: theta equal,
    G 2.2e-16, dG/dt u 1.2e-15)."""
    kernels = kernels_as_python("knuckle_boom_kernels")
    c = KnuckleBoomCrane()
    rng = np.random.default_rng(29)
    for _ in range(50):
        x = np.array([rng.uniform(-3, 3), rng.uniform(0.0, 1.8), rng.uniform(0.0, 1.8), *rng.normal(size=3) * 0.4])
        for mine, theirs in zip(c.joint_map(x), kernels.joint_map(x, c._loop_geometry)):
            assert np.abs(mine - theirs).max() <= 4e-15 * np.abs(theirs).max()


#: 0.1% changes of single terms of the kernel module, one per part of it
#: (source text, its replacement): the cosine rule of eq. (29), the time
#: derivative of the gain of eq. (40), the velocity-product acceleration and
#: the gyroscopic moment of the tree's recursion, a cylinder's support load
#: (eqs. 51-55), the velocity term of the bias wrench p_A
PERTURBATIONS = {
    "cosine rule": ("math.atan(a_p / e_p)", "1.001 * math.atan(a_p / e_p)"),
    "gain rate": ("num_dot / (lc * den)", "1.001 * num_dot / (lc * den)"),
    "velocity product": ("ao[k, :3] -= _cross_of(rel[:3], Xtp[:3])",
                         "ao[k, :3] -= 1.001 * _cross_of(rel[:3], Xtp[:3])"),
    "gyroscopic moment": ("_cross_of(t[:3], Iw)", "1.001 * _cross_of(t[:3], Iw)"),
    "support load": ("d_b[c] * fb[0]", "1.001 * d_b[c] * fb[0]"),
    "p_A velocity term": ("_mv(I_A[:, 3:], _cross_of(tb[:3], tb[3:]))",
                          "1.001 * _mv(I_A[:, 3:], _cross_of(tb[:3], tb[3:]))"),
}


@pytest.mark.parametrize("term", sorted(PERTURBATIONS))
def test_a_perturbed_kernel_fails_the_comparison(term):
    """The comparison above would see a wrong term: the kernel module with one
    term changed by 0.1%, run as plain Python, differs from the numpy code
    by far more than RTOL; the cylinder loop's too, now that the reference
    has its own."""
    compiled, reference = _pair()
    rng = np.random.default_rng(11)
    cases = [_random_case(reference, rng, moving_base=True) for _ in range(4)]
    compiled.kernels = kernels_as_python("knuckle_boom_kernels", *PERTURBATIONS[term])
    worst = _disagreement(compiled, reference, cases)
    assert worst > 100 * RTOL, f"a 0.1% change of the {term} shows only as {worst:.2g}"
    # and the same module unperturbed, run as Python, agrees
    compiled.kernels = kernels_as_python("knuckle_boom_kernels")
    assert _disagreement(compiled, reference, cases) <= RTOL


def test_a_loop_that_cannot_close_is_named_on_the_compiled_path():
    compiled, _ = _pair()
    x = np.array([0.0, 4.0, 0.6, 0.0, 0.0, 0.0])
    with pytest.raises(ParameterError, match="boom cylinder"):
        compiled.output(0.0, x, compiled.default_inputs())
    with pytest.raises(ParameterError, match="boom cylinder"):
        compiled.derivatives(0.0, x, compiled.default_inputs())


def test_nan_inputs_give_nan_outputs_not_an_error():
    """A NaN input (a failed upstream component) propagates, so that the
    master names the component that failed first, as with the numpy code."""
    compiled, _ = _pair()
    u = compiled.default_inputs()
    u[22] = np.nan
    assert np.isnan(compiled.output(0.0, compiled.initial_state(), u)).any()


def test_without_numba_the_block_runs_its_numpy_code(monkeypatch):
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    assert jit.load_kernels("knuckle_boom_kernels") is None
    c = KnuckleBoomCrane()
    y = c.output(0.0, c.initial_state(), c.default_inputs())
    assert c.kernels is None
    assert np.isfinite(y).all()


def test_a_numba_that_cannot_compile_leaves_the_numpy_code(monkeypatch):
    """numba's compile errors (typing, LLVM) surface at the first call, made
    at initialization: the block warns and runs its numpy code."""
    monkeypatch.delenv("CI", raising=False)  # outside CI; under CI the same failure is an error (test_compiled_block.py)

    import types

    def fails(*args):
        raise RuntimeError("no LLVM here")

    broken = types.SimpleNamespace(outputs=fails, accelerations=fails)
    monkeypatch.setattr(jit, "load_kernels", lambda name: broken)
    c = KnuckleBoomCrane()
    with pytest.warns(UserWarning, match="no LLVM here"):
        c.prepare()
    assert c.kernels is None
    assert np.isfinite(c.output(0.0, c.initial_state(), c.default_inputs())).all()
