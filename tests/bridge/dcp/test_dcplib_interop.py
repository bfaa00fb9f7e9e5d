"""DCP both ways against DCPLib, the reference implementation (programs
written with it: ``dcplib_build.py``).  A master of DCPLib drives our
slave (``crane-cosim dcp-slave Controller``) through registration,
configuration, two initialization rounds and 40 non-real-time steps: every
output the slave sent is the controller's own for the inputs it held, to
the last bit; in soft real time the same master lets it run on its clock
for 300 ms, its outputs looped back every 10 steps: every step one
resolution, every output the controller's own.  Our DCP bridge, built
from the description of a slave written with DCPLib (the PD law with zero
set-points), takes the controller's place in the crane on the vessel: the
run equals the run of the FMUs alone, to the last bit (no set-point moves
before 1 s)."""
from __future__ import annotations

import select
import subprocess
from pathlib import Path

import numpy as np
import pytest
from crane_cosim.blocks.controller import Controller
from crane_cosim.bridge.dcp.description import read_description
from crane_cosim.cli import main
from crane_cosim.files.results import read_results
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.scenarios import crane_on_vessel
from dcp_helpers import GAUSS_SEIDEL, STOP, WAIT, dcp_slave, reference_run
from udp_ports import free_port

HERE = Path(__file__).resolve().parent


def _looped(dcplib_programs, tmp_path, directives, *options):
    """DCPLib's master (``test_master`` with ``directives``, at a resolution
    of 1 ms) driving ``dcp-slave Controller OPTIONS`` with one stream of its
    outputs back to its inputs (tau_<j> -> q_<j>, q_<j>_ref -> u_<j>), for
    initialization and run: ``(master's process, the slave, the rows of its
    record)``."""
    description, record = tmp_path / "Controller.dcp.xml", tmp_path / "record.csv"
    with dcp_slave("Controller", description, "--record", str(record), *options) as slave:
        d = read_description(description)
        lines = ["resolution 1 1000", *directives, f"slave 1 127.0.0.1 {slave.port} {d.uuid}"]
        lines += [f"output 1 1 {pos} {v.vr}" for pos, v in enumerate(d.of("output"))]
        lines += [f"input 1 1 {pos} {v.vr} float64" for pos, v in enumerate(d.of("input"))]
        lines += [f"target 1 1 127.0.0.1 {slave.port}", f"source 1 1 127.0.0.1 {slave.port}", "scope 1 1 init_run"]
        config = tmp_path / "loop.cfg"
        config.write_text("\n".join(lines) + "\n")
        master = subprocess.run([dcplib_programs["test_master"], config], capture_output=True, text=True,
                                timeout=WAIT)
        assert master.returncode == 0, master.stdout + master.stderr
    assert slave.proc.returncode == 0
    return master, slave, np.array([[float(v) for v in line.split(",")]
                                    for line in record.read_text().splitlines()[2:]])


@pytest.mark.may_skip
def test_dcplibs_master_drives_our_slave(dcplib_programs, tmp_path):
    master, slave, rows = _looped(dcplib_programs, tmp_path, ["count 40", "steps 1", "init_runs 2"])
    assert master.stdout == "test_master: 1 slaves, 40 x STC_do_step(1) after 2 initialization runs: done\n"
    assert len(rows) == 2 + 40  # two initializations, forty steps
    assert list(rows[:, 0]) == [0.0, 0.0] + [k / 1000 for k in range(1, 41)]
    block = Controller()
    held = np.zeros(6)
    for t, *values in rows:
        u, y = np.array(values[:6]), np.array(values[6:])
        assert np.array_equal(u, held), t  # what it sent the time before, through DCPLib's master
        assert np.array_equal(y, block.output(t, np.zeros(0), u)), t
        held = y
    assert " 0 refused; 40 steps" in slave.err and "warning" not in slave.err, slave.err


#: gains under 1 (the outputs fed back to the inputs then shrink, where the default gains of 10**4 would
#: overflow in a few exchanges) and set-points that move from t = 0 over 0.2 s: outputs that change
SOFT = {"kP_slew": 0.5, "kD_slew": 0.1, "kP_boom": 0.4, "kD_boom": 0.2, "kP_jib": 0.3, "kD_jib": 0.05,
        "q_slew_move1_start": 0.0, "q_slew_move1_duration": 0.2, "q_boom_move1_start": 0.0,
        "q_boom_move1_duration": 0.2, "q_jib_move1_start": 0.0, "q_jib_move1_duration": 0.2}


@pytest.mark.may_skip
def test_dcplibs_master_runs_our_slave_in_soft_real_time(dcplib_programs, tmp_path):
    """DCPLib's master registers the slave in SRT, configures one stream of
    its outputs, every 10 steps, back to its inputs, initializes it, runs it
    for 300 ms of wall time and stops it.  The slave stepped one resolution
    at a time (t = k ms, none skipped, none twice); every output it
    evaluated is the controller's own for the inputs it held; every input
    it held came from the initialization's outputs or from a step whose
    number is a multiple of 10, so each stream was sent every CFG_steps
    steps and nothing else reached the inputs."""
    sets = [a for name, value in SOFT.items() for a in ("--set", f"{name}={value!r}")]
    master, slave, rows = _looped(dcplib_programs, tmp_path, ["mode srt", "run_ms 300", "steps 10", "init_runs 1"],
                                  *sets)
    assert master.stdout == "test_master: 1 slaves, 300 ms in soft real time after 1 initialization runs: done\n"
    n = len(rows) - 1
    assert n >= 30, n  # (how many the clock gave is timing; a few tens of steps at least, in 300 ms)
    assert list(rows[:, 0]) == [0.0] + [k / 1000 for k in range(1, n + 1)]
    block = Controller(**SOFT)
    sent = {tuple(rows[0, 7:])} | {tuple(row[7:]) for k, row in enumerate(rows) if k % 10 == 0}
    for k, (t, *values) in enumerate(rows):
        u, y = np.array(values[:6]), np.array(values[6:])
        assert np.array_equal(y, block.output(t, np.zeros(0), u)), t
        assert tuple(u) in sent | {(0.0,) * 6}, t
    assert len({tuple(r[1:7]) for r in rows}) > 3  # the inputs did change: the loop went round
    assert " 0 refused; " in slave.err and "warning" not in slave.err, slave.err


@pytest.fixture(scope="module")
def reference(fmu_dir, tmp_path_factory):
    return reference_run(tmp_path_factory.mktemp("reference"), fmu_dir)


@pytest.mark.may_skip
def test_our_bridge_drives_a_dcplib_slave_in_the_controllers_place(dcplib_programs, tmp_path, fmu_dir, reference):
    port = free_port()
    description = tmp_path / "PdSlave-Description.xml"
    description.write_text((HERE / "PdSlave-Description.xml").read_text().replace('port="8090"', f'port="{port}"'))
    slave = subprocess.Popen([dcplib_programs["pd_slave"], str(port), "NRT"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        ready = slave.stdout.readline() if select.select([slave.stdout], [], [], WAIT)[0] else ""
        assert ready == f"pd_slave: listening on udp://127.0.0.1:{port}\n", (ready, slave.poll())
        assert main(["build-dcp-bridge", str(description), "--name", "PdDcp", "--out", str(tmp_path)]) == 0
        system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=STOP, **GAUSS_SEIDEL)
        replace_component(system, "controller", tmp_path / "PdDcp.fmu")
        run_cosim(system, tmp_path / "out", progress=False)
        out, err = slave.communicate(timeout=WAIT)  # it ends when deregistered, at the end of the run
        assert slave.returncode == 0, err
    finally:
        if slave.poll() is None:
            slave.kill()
            slave.wait()
    df = read_results(tmp_path / "out")
    assert (df[reference.columns] == reference).all().all()
    assert df["controller.dcp_steps"].iloc[-1] == round(STOP / 1e-3)
    assert out.splitlines()[-1].startswith(f"steps={round(STOP / 1e-3)} ")
