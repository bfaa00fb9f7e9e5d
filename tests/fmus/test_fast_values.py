"""The FMUs' binary reads outputs and writes inputs of a stepping instance
through the buffer protocol (``fmus/native/fmi2_fast.h``), every other call
the general way through pythonfmu's binary: the two give the same values,
and the fast one follows the Python slave that ``fmi2Reset`` makes anew.
(Values the fast path cannot take, such as a NaN input or an output that is
not finite, are in the status tables of ``test_statuses.py``: refused by
name, with the same status in a Python and a C host.)"""
import numpy as np

from crane_cosim import scenarios
from crane_cosim.files.results import read_results
from crane_cosim.runtime import run_cosim
from crane_cosim.runtime.loading import open_instance
from crane_cosim.runtime.model import read_model

GENERAL = "CRANE_COSIM_FMU_GENERAL_PATH"


def test_a_run_through_the_fast_path_is_the_general_paths_bit_for_bit(fmu_dir, tmp_path, monkeypatch):
    """The crane on the vessel with friction (four FMUs, 0.2 s at the
    example's iterated midpoint): every recorded value the same to the
    bit with and without the fast path."""
    def run(out):
        s = scenarios.crane_on_vessel_friction(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name)
        s.stop_time = 0.2
        run_cosim(s, out, progress=False)
        return read_results(out)

    fast = run(tmp_path / "fast")
    monkeypatch.setenv(GENERAL, "1")
    general = run(tmp_path / "general")
    assert len(fast) == 41
    assert fast.equals(general)


def _crane(fmu_dir, tmp_path, name):
    path = fmu_dir / "Crane.fmu"
    model = read_model(path)
    inputs = [v.name for v in model.variables.values() if v.causality == "input"]
    outputs = [v.name for v in model.variables.values() if v.causality == "output"]
    return open_instance(path, tmp_path / name, name=name, inputs=inputs, outputs=outputs)


def _steps(inst, n, h=1e-3):
    """n steps from 0 with the inputs moved before each; the outputs after."""
    for k in range(n):
        inst.u[:] = 0.01 * (k + 1)
        inst.set_inputs()
        inst.do_step(k * h, h)
    return inst.get_outputs().copy()


def test_after_a_reset_the_fast_path_reads_the_new_slave(fmu_dir, tmp_path):
    """pythonfmu makes another Python slave at fmi2Reset: a crane reset
    after one step, initialized again and stepped twice, reads what a new
    instance stepped twice reads (the slave before the reset, one step in,
    would give other values)."""
    fresh = _crane(fmu_dir, tmp_path, "fresh")
    fresh.initialize(0.0)
    expected = _steps(fresh, 2)
    reset = _crane(fmu_dir, tmp_path, "reset")
    reset.initialize(0.0)
    once = _steps(reset, 1)
    reset._slave.reset()
    reset.initialize(0.0)
    twice = _steps(reset, 2)
    assert not np.array_equal(once, expected)
    assert np.array_equal(twice, expected)
    for inst in (fresh, reset):
        inst.free()


def test_the_binary_takes_the_fast_access_unless_told_not_to(fmu_dir, tmp_path, monkeypatch):
    """The slave offers its fast access on the instantiating thread; the
    binary takes it (the general-path run above would otherwise compare the
    general path with itself), and leaves it with
    CRANE_COSIM_FMU_GENERAL_PATH set."""
    import sys
    import threading

    from crane_cosim.fmus.values import HUB

    taken = _crane(fmu_dir, tmp_path, "taken")
    offers = sys.modules[HUB].offers
    assert threading.get_ident() not in offers
    monkeypatch.setenv(GENERAL, "1")
    left = _crane(fmu_dir, tmp_path, "left")
    assert threading.get_ident() in offers
    offers.clear()
    for inst in (taken, left):
        inst.free()


def _steps_along(inst, n, h=1e-3):
    """n steps from 0 with the inputs and their first and second time
    derivatives moved before each (every input, as a host that interpolates
    them all sets them); the outputs after."""
    for k in range(n):
        inst.u[:] = 0.01 * (k + 1)
        inst.du[0] = 0.3 * (k + 1)
        inst.du[1] = -2.0
        inst.set_inputs()
        inst.set_input_derivatives()
        inst.do_step(k * h, h)
    return inst.get_outputs().copy()


def test_input_derivatives_through_the_fast_path_are_the_general_paths(fmu_dir, tmp_path, monkeypatch):
    """The crane's 27 inputs with their derivatives written into the
    slave's array by the binary give, after five steps, the outputs the
    general path gives (pythonfmu's lists, each value decoded in Python),
    to the bit; and the inputs followed a polynomial (held inputs give
    other outputs)."""
    fast = _crane(fmu_dir, tmp_path, "fast")
    fast.initialize(0.0)
    along = _steps_along(fast, 5)
    monkeypatch.setenv(GENERAL, "1")
    general = _crane(fmu_dir, tmp_path, "general")
    general.initialize(0.0)
    held = _crane(fmu_dir, tmp_path, "held")
    held.initialize(0.0)
    assert np.array_equal(along, _steps_along(general, 5))
    assert not np.array_equal(along, _steps(held, 5))
    for inst in (fast, general, held):
        inst.free()
