"""The blocks' own time a step (``cosim/bench/kernel_time.py``), which
``crane-cosim bench`` prints beside each FMU's time in its FMI calls."""
import math
from pathlib import Path

from crane_cosim.blocks.controller import Controller
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.scenarios import SCENARIOS
from crane_cosim.bench.kernel_time import kernel_us_by_component, kernel_us_per_step


def test_a_compiled_block_is_timed_by_its_kernels_another_by_its_own_code():
    vessel, controller = Vessel(), Controller()
    for block in (vessel, controller):
        us = kernel_us_per_step(block, 1e-3, repeat=1, budget=1e-3)
        assert math.isfinite(us) and 0 < us < 1e4
    assert vessel._step is not None  # the compiled step was what ran


def test_every_block_of_a_system_is_timed_by_its_component(tmp_path: Path):
    system = SCENARIOS["crane_on_vessel"](base_dir=tmp_path)  # FMUs not built: the blocks by their files' names
    times = kernel_us_by_component(system)
    assert sorted(times) == sorted(c.name for c in system.components)
    assert all(0 < t < 1e4 for t in times.values())
