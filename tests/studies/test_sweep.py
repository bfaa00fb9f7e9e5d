"""Sweeps (``cosim/studies/sweep.py``): many cases of a system on a real Dask
cluster (a ``LocalCluster`` of worker processes, not a mock), each case a
run of its own; a failed case recorded with its reason, finished cases
skipped when the sweep runs again, nothing lost when a worker or the
sweep itself is killed."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest

from crane_cosim.runtime import RunConfig
from crane_cosim.cli import main
from crane_cosim.files.ssp import write_ssd
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.studies.sweep import cases_of_ranges, cases_of_table, sweep

STOP = "0.2"


@pytest.fixture
def system(fmu_dir, tmp_path):
    return write_ssd(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name), tmp_path / "CraneOnVessel.ssd")


def _summary(out):
    return pd.read_csv(out / "summary.csv")


def test_a_case_of_a_sweep_is_its_run_bit_for_bit(system, tmp_path, capsys):
    """Two worker processes, four cases from a table: each case's results
    (Parquet) hold the values of ``crane-cosim run`` with the same
    settings, bit for bit, and the summary lists each case's values, status,
    wall time and the peaks of the wrench at the mount."""
    pd.DataFrame({"case": ["light", "heavy", "soft", "stiff"], "vessel.m": ["900", "1500", "1200", "1200"],
                  "vessel.k_roll": ["8e7", "8e7", "4e7", "1.6e8"]}).to_csv(tmp_path / "cases.csv", index=False)
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), str(tmp_path / "cases.csv"), "--out", str(out), "--workers", "2",
                 "--stop-time", STOP]) == 0
    summary = _summary(out)
    assert list(summary["case"]) == ["light", "heavy", "soft", "stiff"]
    assert set(summary["status"]) == {"completed"} and (summary["wall_s"] > 0).all()
    assert summary["peak_crane.W_mount_fz"].between(900, 1000).all()
    assert main(["run", str(system), "--out", str(tmp_path / "single"), "--no-plots", "--stop-time", STOP,
                 "--set", "vessel.m=1500", "--set", "vessel.k_roll=8e7"]) == 0
    single = pd.read_csv(tmp_path / "single" / "results.csv")
    case = pd.read_parquet(out / "cases" / "heavy" / "results.parquet")
    assert list(case.columns) == list(single.columns)
    assert np.array_equal(case.to_numpy(), single.to_numpy())
    assert "4 of 4 cases completed" in capsys.readouterr().out


def test_ranges_make_the_product_of_cases():
    cases = cases_of_ranges(["waves.Hs=1,2,3", "waves.seed=1,2"])
    assert len(cases) == 6 and cases[-1] == ("case0006", {"waves.Hs": "3", "waves.seed": "2"})


def test_a_failed_case_is_recorded_and_the_others_complete(system, tmp_path, capsys):
    """With the explicit coupling the light vessel (120 kg) diverges within
    0.02 s: that case fails, its reason is the run's own sentence (written
    by the case's process, not read off its messages), the other completes."""
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), "--vary", "vessel.m=1200,120", "--out", str(out), "--workers", "2",
                 "--stop-time", STOP, "--coupling", "explicit"]) == 1
    summary = _summary(out).set_index("case")
    assert summary.loc["case0001", "status"] == "completed"
    assert summary.loc["case0002", "status"] == "failed"
    assert summary.loc["case0002", "reason"].startswith("component vessel (Vessel.fmu) failed to step from t = ")
    assert "crane-cosim: case case0002 failed: " in capsys.readouterr().err


def test_a_case_the_system_cannot_run_is_named_before_the_cluster_starts(system, tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), "--vary", "vessel.m=1200,-5", "--out", str(out), "--stop-time", STOP]) == 2
    assert capsys.readouterr().err.strip() == ("crane-cosim: error: case case0002: component vessel: Vessel "
                                               "parameter m = -5 kg is invalid: it must be positive")
    assert not out.exists()


def test_a_sweep_run_again_skips_the_finished_cases(system, tmp_path):
    out = tmp_path / "sweep"
    cases = cases_of_ranges(["vessel.m=1000,1100,1200"])
    sweep(system, cases[:2], out, RunConfig(stop_time=float(STOP)), workers=2, progress=False)
    before = {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in ("case0001", "case0002")}
    summary = sweep(system, cases, out, RunConfig(stop_time=float(STOP)), workers=2, progress=False)
    assert list(summary["status"]) == ["completed"] * 3
    assert before == {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in before}


def test_a_killed_worker_loses_no_case(system, tmp_path):
    """Two workers of a real scheduler; one is killed (SIGKILL) while it runs
    a case: Dask runs that case again on a worker, and every case completes
    with its results; no case folder is left half-written."""
    from dask.distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    out = tmp_path / "sweep"
    cases = cases_of_ranges(["vessel.m=1000,1100,1200,1300"])
    result = {}
    runner = threading.Thread(target=lambda: result.update(summary=sweep(
        system, cases, out, RunConfig(stop_time=1.0), scheduler=cluster.scheduler_address, progress=False)))
    runner.start()
    try:
        deadline = time.time() + 120
        while not list((out / "cases").glob("*.part")) and time.time() < deadline:
            time.sleep(0.05)
        pids = client.run(os.getpid)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        runner.join(timeout=300)
    finally:
        client.close()
        cluster.close()
    summary = result["summary"]
    assert list(summary["status"]) == ["completed"] * 4
    assert all((out / "cases" / n / "results.parquet").exists() for n, _ in cases)
    assert not list((out / "cases").glob("*.part"))


def test_an_interrupted_sweep_resumes_to_a_complete_table(system, tmp_path):
    """The sweep command stopped (SIGTERM) once its first case has ended:
    the summary lists the finished cases and the others as pending; the
    same command again completes the rest, and the summary and every case
    folder are complete."""
    out = tmp_path / "sweep"
    command = [sys.executable, "-m", "crane_cosim.cli", "sweep", str(system), "--vary", "vessel.m=1000,1100,1200,1300",
               "--out", str(out), "--workers", "1", "--stop-time", "1.0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline:
        if (out / "summary.csv").exists() and "completed" in set(_summary(out)["status"]):
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=120)
    first = _summary(out)
    assert "completed" in set(first["status"]) and "completed" != set(first["status"])
    done = set(first[first["status"] == "completed"]["case"])
    assert subprocess.run(command, capture_output=True, timeout=300).returncode == 0
    summary = _summary(out)
    assert list(summary["status"]) == ["completed"] * 4
    for name in summary["case"]:
        row = json.loads((out / "cases" / name / "case.json").read_text())
        assert row["status"] == "completed" and (out / "cases" / name / "results.parquet").exists()
    assert done <= set(summary["case"])
    assert not list((out / "cases").glob("*.part"))


@pytest.mark.parametrize("text, message", [
    ("case,Hs\n1,2\n", "needs columns named component.variable"),
    ("case,waves.Hs\na b,2\n", "the case name 'a b' cannot name a folder"),
    ("case,waves.Hs\na,2\na,3\n", "the case name 'a' is given twice"),
])
def test_a_bad_cases_table_is_named(tmp_path, text, message):
    from crane_cosim.errors import CraneCosimError
    (tmp_path / "cases.csv").write_text(text)
    with pytest.raises(CraneCosimError, match=message):
        cases_of_table(tmp_path / "cases.csv")


def test_the_fatigue_study_example_is_consistent():
    """examples/fatigue_study: its scatter table points at every case of its
    cases table, once, with probabilities summing to 1, and its README's
    command names both tables."""
    from pathlib import Path
    folder = Path(__file__).resolve().parents[2] / "examples" / "fatigue_study"
    cases = cases_of_table(folder / "cases.csv")
    scatter = pd.read_csv(folder / "scatter.csv")
    assert [Path(c).name for c in scatter["case"]] == [name for name, _ in cases]
    assert all(c.startswith("results/sweep/cases/") for c in scatter["case"])
    assert scatter["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    readme = (folder / "README.md").read_text()
    assert ("crane-cosim sweep examples/fatigue_study examples/fatigue_study/cases.csv && crane-cosim fatigue "
            "examples/fatigue_study/scatter.csv") in readme
