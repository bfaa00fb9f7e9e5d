"""The monolithic run's composite settles a flexible crane's loop with its
base and friction in one compiled call (cosim/monolithic/crane_loop.py): where it
applies, and that it gives the values of the sweeps through the blocks' own
code, compiled or not."""
import io

import numpy as np
import pytest

from crane_cosim.blocks import jit
from crane_cosim.monolithic import crane_loop
from crane_cosim.monolithic.composite import Composite
from crane_cosim.runtime import plan_of
from crane_cosim.scenarios import SCENARIOS, flexible_crane

#: Agreement of the derivatives with the sweeps of the blocks' numpy code
#: (numba off), as a fraction of each one's largest over the states: the
#: crane's kernel and its numpy code differ by round-off amplified by the
#: condition of its mass matrix (tests/blocks/test_flexible_crane_kernels.py:
#: 3.1e-11 of a quantity's scale at four elements).  Measured worst over 8
#: states, 6 seeds: 2.0e-11.
RTOL_NUMPY = 6e-11

#: Agreement of the outputs, the sweeps started from the compiled loop and
#: from the last outputs, as a fraction of the largest output of the same
#: unit over the states: both settle to 1e-10 of it (measured 4.3e-12 over
#: 8 states, 5 seeds; of each output's own largest, 4.8e-9: a joint's
#: friction torque beside the mount's moments).
RTOL_OUTPUTS = 1.5e-11


def _states(model, rng, n=8):
    x0 = model.initial_state()
    crane = model.slices[model.names.index("crane")]
    states = []
    for _ in range(n):
        x = x0 + rng.normal(scale=1e-3, size=len(x0)) * (1 + np.abs(x0))
        x[crane[len(crane) // 2:]] = rng.normal(scale=0.3, size=len(crane) // 2)
        states.append((rng.uniform(0.0, 0.2), x))
    return states


def _relative(a, ref):
    scale = np.abs(ref).max(axis=0)
    return np.abs(a - ref).max(axis=0) / np.where(scale > 0, scale, 1.0)


def test_the_loop_is_compiled_for_the_flexible_crane_only():
    """The flexible crane on its base with friction; not the other
    scenarios (another crane, another friction block, no base)."""
    assert Composite(plan_of(flexible_crane()))._loop is not None
    for name in ("crane_on_vessel_friction", "offshore_knuckle_boom"):
        assert Composite(plan_of(SCENARIOS[name]()))._loop is None


def test_without_numba_the_sweeps_of_the_numpy_code_give_the_same_derivatives(rng, monkeypatch):
    """Without numba (``CRANE_COSIM_NUMBA=0``) there is no compiled loop:
    the composite sweeps the blocks' numpy code, to the same values."""
    compiled = Composite(plan_of(flexible_crane()))
    cases = _states(compiled, rng)
    new = np.array([compiled.derivatives(t, x) for t, x in cases])
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    numpy_code = Composite(plan_of(flexible_crane()))
    assert numpy_code._loop is None and numpy_code.blocks[1].kernels is None
    ref = np.array([numpy_code.derivatives(t, x) for t, x in cases])
    assert _relative(new, ref).max() <= RTOL_NUMPY


def test_the_sweeps_start_from_the_compiled_loop_and_settle_where_they_did(rng):
    """The outputs: the sweeps of the blocks' kernels started from the
    loop's outputs the compiled call settled (its I_A, p_A and torques)
    give what they give started from the outputs before."""
    model = Composite(plan_of(flexible_crane()))
    cold = Composite(plan_of(flexible_crane()))
    cold._loop = None
    cases = _states(model, rng)
    new = np.array([model.outputs(t, x) for t, x in cases])
    ref = np.array([cold.outputs(t, x) for t, x in cases])
    units = np.array(model.units)
    scale = np.array([np.abs(ref[:, units == u]).max() for u in units])
    assert (np.abs(new - ref).max(axis=0) / scale).max() <= RTOL_OUTPUTS


@pytest.mark.parametrize("t", [0.05, 0.5])
def test_the_drive_reaches_the_crane_through_the_loop(t):
    """The crane's actuator torque comes from the drive outside the loop,
    evaluated first: on (-4000 N m for 0.1 s) and off."""
    model = Composite(plan_of(flexible_crane()))
    x = model.initial_state()
    d = model.derivatives(t, x)
    model._loop = None
    assert np.allclose(d, model.derivatives(t, x), rtol=0, atol=1e-11 * np.abs(d).max())
    slew = model.slices[model.names.index("crane")][len(model.slices[1]) // 2]
    assert (d[slew] < 0) == (t < 0.1)


def test_a_loop_numba_cannot_compile_is_an_error_under_ci_and_a_warning_elsewhere(monkeypatch):
    """As for the blocks' kernels: under CI the failure is an error; on a
    user's machine the composite sweeps the blocks, with a warning."""
    from types import SimpleNamespace

    from crane_cosim.monolithic import crane_loop

    def settle(*args):
        raise TypeError("numba cannot type this")

    monkeypatch.setattr(crane_loop, "load_kernels", lambda name: SimpleNamespace(settle=settle))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(TypeError, match="numba cannot type this"):
        Composite(plan_of(flexible_crane()))
    monkeypatch.delenv("CI")
    with pytest.warns(UserWarning, match="numba could not compile it"):
        model = Composite(plan_of(flexible_crane()))
    assert model._loop is None and np.isfinite(model.derivatives(0.0, model.initial_state())).all()


def test_the_monolithic_run_compiles_its_own_kernels_with_a_word(monkeypatch, tmp_path):
    """The monolithic run compiles the flexible crane's loop where the
    crane, its base and its friction are all there; a warm cache says
    nothing."""
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    loop = {"FlexibleCrane", "SupportedBase", "JointFriction", "Signal"}
    assert crane_loop.loop_to_compile(loop) == ["flexible_crane_loop_kernels"]
    assert crane_loop.loop_to_compile({"KnuckleBoomCrane", "KnuckleBoomFriction"}) == []
    assert crane_loop.loop_to_compile({"FlexibleCrane", "JointFriction", "Vessel"}) == []
    compiled = []
    monkeypatch.setattr(crane_loop, "compile_loop", lambda: compiled.append("loop"))
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    err = io.StringIO()
    assert crane_loop.warm_up_loop(loop, err) == ["flexible_crane_loop_kernels"]
    assert compiled == ["loop"]
    lines = err.getvalue().splitlines()
    assert lines[0] == (f"compiling the flexible crane's loop with its base and friction with numba (25 s to 1 min, "
                        f"once per machine; kept in {tmp_path}) ...")
    assert lines[-1].startswith("compiled the flexible crane's loop with its base and friction in ")
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: True)
    assert crane_loop.warm_up_loop(loop, err) == []
