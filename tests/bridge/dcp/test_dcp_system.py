"""A DCP slave in a system: ``crane-cosim build-dcp-bridge`` makes an FMU
from the slave description ``crane-cosim dcp-slave`` writes, and the crane
on the vessel with that FMU in the controller's place, the controller
served by another process over DCP, gives the run of the FMUs alone; the
slave's record holds what it computed, its statistics what it did, and the
run's summary the bridge's steps and round trips."""
import json

import numpy as np
import pytest
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.dcp.description import description_of, description_xml, read_description
from crane_cosim.cli import main
from crane_cosim.files.results import read_results
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.runtime.observers.bridges import describe
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
    bridge = json.loads((tmp_path / "out" / "summary.json").read_text())["bridges"]["controller"]
    assert {k: bridge[k] for k in ("peer", "protocol", "mode", "status", "steps", "missed")} == {
        "peer": f"udp://127.0.0.1:{slave.port}", "protocol": "DCP 1.0", "mode": "non-real-time lock-step",
        "status": "stepped", "steps": round(STOP / 1e-3), "missed": 0}
    assert bridge["round_trip_us"]["answers_timed"] == round(STOP / 1e-3)
    assert describe({"controller": bridge})[0].startswith(
        f"bridge controller (udp://127.0.0.1:{slave.port}, non-real-time lock-step): stepped; 500 steps, 0 data "
        f"PDUs missed; round trip ")
    lines = record.read_text().splitlines()
    assert lines[0].startswith("time,q_slew,") and lines[1].startswith("s,rad,")
    recorded = np.array([[float(v) for v in line.split(",")] for line in lines[2:]])
    assert np.array_equal(recorded[-1, 7:10], df[["controller.tau_slew", "controller.tau_boom",
                                                  "controller.tau_jib"]].iloc[-1].to_numpy())
    done = json.loads(stats.read_text())
    assert (done["steps"], done["refused"], done["missed"]) == (round(STOP / 1e-3), 0, 0)
    assert slave.err.strip().startswith("crane-cosim: DCP slave Controller on udp://127.0.0.1:")


def test_a_slave_description_reads_back_as_written(tmp_path):
    d = description_of(Controller, "127.0.0.1", 5000)
    path = tmp_path / "c.xml"
    path.write_text(description_xml(d))
    back = read_description(path)
    assert back.variables == d.variables and (back.uuid, back.host, back.port) == (d.uuid, "127.0.0.1", 5000)
    assert back.resolution == d.resolution and back.steps_allowed(7)


@pytest.mark.parametrize("args,text,fragment", [
    (["dcp-slave", "Nope", "--port", "0"], None, "no block named 'Nope' to serve; known: Vessel"),
    (["dcp-slave", "Controller", "--port", "0", "--set", "kP_slew=-1"], None,
     "Controller parameter kP_slew = -1 N.m/rad is invalid"),
    (["build-dcp-bridge", "missing.xml"], None, "slave description missing.xml cannot be read"),
    (["build-dcp-bridge", "d.xml"], "<fmiModelDescription/>", "is not a DCP slave description: its root is "
                                                              "<fmiModelDescription>"),
    (["build-dcp-bridge", "d.xml"], description_xml(description_of(Controller, "127.0.0.1", 5000)).replace(
        '<Float64 start="0" unit="N.m" />', '<String start="" />', 1), "variable tau_slew is of String; this "
                                                                       "project exchanges numbers only"),
])
def test_the_dcp_commands_refuse_bad_input_in_one_sentence(capsys, tmp_path, monkeypatch, args, text, fragment):
    monkeypatch.chdir(tmp_path)
    if text is not None:
        (tmp_path / "d.xml").write_text(text)
    assert main([*args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("crane-cosim: error: ") and fragment in err and "\n" not in err, err
