"""A DCP slave in a system: ``crane-cosim build-dcp-bridge`` makes an FMU
from the slave description ``crane-cosim dcp-slave`` writes, and the crane
on the vessel with that FMU in the controller's place, the controller
served by another process over DCP, gives the run of the FMUs alone; the
slave's record holds what it computed, and its statistics what it did."""
import json

import numpy as np
import pytest
from crane_cosim.cli import main
from crane_cosim.files.results import read_results
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.scenarios import crane_on_vessel
from dcp_helpers import GAUSS_SEIDEL, STOP, dcp_slave, reference_run


@pytest.fixture(scope="module")
def reference(fmu_dir, tmp_path_factory):
    return reference_run(tmp_path_factory.mktemp("reference"), fmu_dir)


def test_a_dcp_slave_takes_the_controllers_place(tmp_path, fmu_dir, reference, capsys):
    description, record, stats = tmp_path / "Controller.dcp.xml", tmp_path / "record.csv", tmp_path / "stats.json"
    with dcp_slave("Controller", description, "--record", str(record), "--stats", str(stats)) as slave:
        assert main(["build-dcp-bridge", str(description), "--name", "ControllerDcp", "--out", str(tmp_path)]) == 0
        fmu = tmp_path / "ControllerDcp.fmu"
        assert capsys.readouterr().out.strip() == str(fmu)
        system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL)
        replace_component(system, "controller", fmu)
        run_cosim(system, tmp_path / "out", progress=False)
    assert slave.proc.returncode == 0
    df = read_results(tmp_path / "out")
    assert set(reference.columns) < set(df.columns)
    # to the last bit: the slave steps the controller as the FMU does, and the values cross as float64
    assert (df[reference.columns] == reference).all().all()
    assert df["controller.dcp_steps"].iloc[-1] == round(STOP / 1e-3) and df["controller.dcp_missed"].max() == 0
    lines = record.read_text().splitlines()
    assert lines[0].startswith("time,q_slew,") and lines[1].startswith("s,rad,")
    recorded = np.array([[float(v) for v in line.split(",")] for line in lines[2:]])
    assert np.array_equal(recorded[-1, 7:10], df[["controller.tau_slew", "controller.tau_boom",
                                                  "controller.tau_jib"]].iloc[-1].to_numpy())
    done = json.loads(stats.read_text())
    assert (done["steps"], done["refused"], done["missed"]) == (round(STOP / 1e-3), 0, 0)
    assert slave.err.strip().startswith("crane-cosim: DCP slave Controller on udp://127.0.0.1:")
