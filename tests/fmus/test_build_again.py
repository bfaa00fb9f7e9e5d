"""An FMU built again in a process where an FMU of the same sources ran, its
unpacked folder since removed, builds from its own sources (a bridge reads
its spec from its package: the run's copy would be gone)."""
import shutil

import fmpy
from fmpy.fmi2 import FMU2Slave

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.fmus.build import build_bridge_fmu


def test_a_bridge_builds_again_after_its_fmu_ran_and_was_removed(tmp_path):
    first = build_bridge_fmu(BLOCKS["Controller"], tmp_path / "a")
    folder = fmpy.extract(str(first), str(tmp_path / "unpacked"))
    md = fmpy.read_model_description(folder)
    slave = FMU2Slave(guid=md.guid, unzipDirectory=folder, modelIdentifier=md.coSimulation.modelIdentifier,
                      instanceName="ran")
    slave.instantiate()
    slave.freeInstance()
    shutil.rmtree(folder)
    again = build_bridge_fmu(BLOCKS["Controller"], tmp_path / "b")
    assert again.read_bytes() == first.read_bytes()  # the same sources, the same FMU
