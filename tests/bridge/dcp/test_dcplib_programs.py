"""DCPLib against itself: ``test_master`` drives ``pd_slave`` (both written
with DCPLib, ``dcplib_build.py``) with no code of this project between them,
a check of the two programs the tests of the project's DCP code lean on."""
from __future__ import annotations

import select
import subprocess

import pytest
from dcp_helpers import WAIT
from udp_ports import free_port

UUID = "6eebda40-5e03-432b-b0f2-5c32b0522e7d"  # pd_slave.cpp's, PdSlave-Description.xml's
START = (0.1, -0.2, 0.3, 0.01, 0.02, -0.03)  # q_slew, q_boom, q_jib, u_slew, u_boom, u_jib
KP = (2e4, 4e4, 1e4)
KD = (6e3, 6e3, 1e3)


def loop_config(port: int, count: int, init_runs: int) -> str:
    """test_master's configuration: pd_slave on ``port`` with its outputs
    (tau_slew, tau_boom, tau_jib, q_slew_ref, q_boom_ref, q_jib_ref, vr 7 to
    12) sent back to its own inputs (q_slew ... u_jib, vr 1 to 6) as data id
    1, through its control port, in initialization and run alike."""
    lines = ["resolution 1 1000", f"count {count}", "steps 1", f"init_runs {init_runs}",
             f"slave 1 127.0.0.1 {port} {UUID}"]
    lines += [f"output 1 1 {pos} {7 + pos}" for pos in range(6)]
    lines += [f"input 1 1 {pos} {1 + pos} float64" for pos in range(6)]
    lines += [f"target 1 1 127.0.0.1 {port}", f"source 1 1 127.0.0.1 {port}", "scope 1 1 init_run"]
    return "\n".join(lines) + "\n"


def law(q, u):
    """The PD law with zero set-points as the project's controller computes it."""
    qr = ur = 0.0
    return tuple(kP * (qr - qj) + kD * (ur - uj) for kP, kD, qj, uj in zip(KP, KD, q, u))


@pytest.mark.may_skip
def test_test_master_runs_pd_slave_in_a_loop_to_the_end(dcplib_programs, tmp_path):
    """With init_runs 2 and count 20, pd_slave computes 22 times: twice in
    the initialize callback (steps_so_far 0), then in steps 1 to 20; each
    time tau is the law of the inputs it held, bit for bit, and from the
    second on, the inputs are what it sent the time before (q <- tau, u <-
    q_ref = 0).  Both programs end by themselves, with status 0."""
    port = free_port()
    log = tmp_path / "steps.csv"
    config = tmp_path / "loop.cfg"
    config.write_text(loop_config(port, count=20, init_runs=2))
    slave = subprocess.Popen([dcplib_programs["pd_slave"], str(port), "NRT", log, ",".join(map(repr, START))],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = slave.stdout.readline() if select.select([slave.stdout], [], [], WAIT)[0] else ""
        assert ready == f"pd_slave: listening on udp://127.0.0.1:{port}\n", (ready, slave.poll())
        master = subprocess.run([dcplib_programs["test_master"], config], capture_output=True, text=True,
                                timeout=WAIT)
        assert master.returncode == 0, master.stderr
        out, err = slave.communicate(timeout=WAIT)
        assert slave.returncode == 0, err
    finally:
        if slave.poll() is None:
            slave.kill()
            slave.wait()

    rows = [line.split(",") for line in log.read_text().splitlines()]
    assert [int(row[0]) for row in rows] == [0, 0] + list(range(1, 21))
    values = [tuple(map(float, row[1:])) for row in rows]
    held = START
    for q_u_tau in values:
        q, u, tau = q_u_tau[0:3], q_u_tau[3:6], q_u_tau[6:9]
        assert q + u == held
        assert tau == law(q, u)
        held = tau + (0.0, 0.0, 0.0)
    assert out.splitlines()[-1] == "steps=20 last_tau=" + ",".join(rows[-1][7:10])
