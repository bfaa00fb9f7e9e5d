"""``crane-cosim sweep``, ``fatigue`` and ``bench`` (``cosim/cli/studies.py``)
as a user meets them: Ctrl-C in a sweep."""
import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.ssp import write_ssd
from crane_cosim.fmus import build
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.studies import sweep as module
from limits import HUNG


@pytest.fixture
def system(fmu_dir, tmp_path):
    return write_ssd(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name), tmp_path / "CraneOnVessel.ssd")


def _done_on_disk(out) -> set:
    """The cases whose folder says they completed."""
    done = set()
    for row in (out / "cases").glob("*/case.json") if (out / "cases").is_dir() else ():
        if json.loads(row.read_text()).get("status") == "completed":
            done.add(row.parent.name)
    return done


def test_ctrl_c_in_a_sweep_is_one_line_and_the_summary_holds_what_completed(system, tmp_path):
    """Ctrl-C (SIGINT to the sweep's process group, as a terminal sends it)
    once a case has completed: exit 130, one line on stderr (it was some 60
    lines and 4 tracebacks of Dask's), and summary.csv says completed for
    every case whose folder completed (it said pending for some), the
    others pending."""
    out = tmp_path / "sweep"
    command = [sys.executable, "-m", "crane_cosim.cli", "sweep", str(system), "--vary",
               "vessel.m=1000,1100,1200,1300,1400,1500", "--out", str(out), "--workers", "1", "--stop-time", "1.0"]
    # started as a terminal starts its foreground job, SIGINT at its default:
    # a process started with it ignored (a background job of a shell
    # without job control, as a CI runner may start the suite) keeps it
    # ignored, and no Ctrl-C reaches its Python
    interrupt = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, interrupt)
    try:
        deadline = time.time() + HUNG
        while not _done_on_disk(out) and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert _done_on_disk(out), "no case completed"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=HUNG)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    err = err.decode()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "crane-cosim: interrupted; the results computed so far are on disk", err
    lines = [line for line in err.split("\n") if line.strip()]
    assert "Traceback" not in err and len(lines) == 2 and "case/s" in lines[0], err  # the bar, and the line
    summary = pd.read_csv(out / "summary.csv")
    done = _done_on_disk(out)
    assert done and done != set(summary["case"])
    assert {c: s for c, s in zip(summary["case"], summary["status"])} == {
        c: "completed" if c in done else "pending" for c in summary["case"]}


def test_a_sweeps_wrong_stop_time_is_refused_before_the_fmus_are_built(tmp_path, monkeypatch, capsys):
    def started(*a, **k):
        raise AssertionError("an FMU was being built")
    monkeypatch.setattr(build, "build_fmu", started)
    system = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(tmp_path / "fmus")), tmp_path / "system.ssd")
    assert main(["sweep", str(system), "--vary", "vessel.m=1000,1100", "--stop-time", "-1",
                 "--out", str(tmp_path / "sweep")]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == ["crane-cosim: error: the stop time -1 s is not after the start time 0 s"]
    assert not (tmp_path / "fmus").exists()


def test_a_local_sweep_compiles_the_kernels_with_a_word_before_its_workers_start(system, tmp_path, monkeypatch):
    """The kernels compiled (warm_up: a line and a bar a block) before the
    local cluster starts, not by the first cases, whose messages go to
    their case.log: a cold cache's minutes of a sweep were silent."""
    done = []
    monkeypatch.setattr(module, "warm_up", lambda models: done.append(("compile", sorted(models))))
    monkeypatch.setattr("crane_cosim.runtime.compiled.master_warm_up.warm_up_master",
                        lambda for_algorithm: done.append(("master", for_algorithm)))

    def connect(*a):
        done.append(("cluster",))
        raise CraneCosimError("no cluster in this test")
    monkeypatch.setattr(module, "_connect", connect)
    with pytest.raises(CraneCosimError, match="no cluster in this test"):
        module.sweep(system, module.cases_of_ranges(["vessel.m=1000,1100"]), tmp_path / "sweep")
    assert done == [("compile", ["Controller", "Crane", "Vessel"]), ("master", "iterated-midpoint"), ("cluster",)]
