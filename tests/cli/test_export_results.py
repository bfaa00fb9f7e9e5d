"""A run's results.arrows after a SIGKILL and after a failure, and
``crane-cosim export-results`` on them."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd

from crane_cosim.cli import main
from crane_cosim.files.results import read_results, read_table
from crane_cosim.ssp import write_ssd
from crane_cosim.scenarios import crane_on_vessel
from limits import HUNG


def _system(tmp_path, fmu_dir, stop_time):
    """The crane on the vessel by Gauss-Seidel at 1 ms (not the example's
    default algorithm and step: these tests want its speed and its grid)."""
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=stop_time, step=1e-3,
                             algorithm="gauss-seidel")
    return write_ssd(system, tmp_path / "s.ssd")


def _last_time(out) -> float | None:
    """The last time on disk in ``out``'s results.arrows now, or None."""
    try:
        table, _ = read_table(out)
    except Exception:  # noqa: BLE001 (not there yet, or its first batch not yet whole)
        return None
    return table.column("time")[-1].as_py() if table.num_rows else None


def test_a_run_killed_with_sigkill_leaves_every_row_written_up_to_a_second_before(tmp_path, fmu_dir):
    """The crane on the vessel at full speed (Gauss-Seidel, 1 ms), SIGKILLed 1.2 s after a first
    batch is seen on disk: the file reads without error, its times are the
    run's grid from 0 without a gap or a partial row, and it holds rows
    computed after that first batch (a batch a second: at most the last
    second is lost; tests/files/test_results_stream.py checks that bound at
    every instant).  Then export-results writes its CSV.  The working folder
    it could not remove (its FMUs unpacked) goes at the next run's start."""
    ssd = _system(tmp_path, fmu_dir, 60.0)
    out = tmp_path / "out"
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}   # the runs' temporary folder, this test's alone
    (tmp_path / "tmp").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "run", str(ssd), "--out", str(out),
                             "--no-plots"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + HUNG
        while (seen := _last_time(out)) is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert seen is not None, f"no batch written within {HUNG} s"
        time.sleep(1.2)
        assert proc.poll() is None, "the run ended before it was killed: give it a longer stop time"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "summary.json").exists()   # nothing ran after the kill
    df = read_results(out)
    t = df["time"].to_numpy()
    np.testing.assert_allclose(t, np.arange(len(t)) * 1e-3, rtol=0, atol=1e-9)   # the grid, whole rows
    assert t[-1] > seen   # a batch within the 1.2 s before the kill
    assert np.isfinite(df.drop(columns="time").to_numpy()).all()
    assert main(["export-results", str(out)]) == 0
    csv = pd.read_csv(out / "results.csv")
    assert list(csv.columns) == list(df.columns) and len(csv) == len(df)
    np.testing.assert_allclose(csv.to_numpy(), df.to_numpy(), rtol=1e-11, atol=1e-300)   # 12 digits
    [left] = (tmp_path / "tmp").glob(f"crane_cosim_run_{proc.pid}_*")
    subprocess.run([sys.executable, "-m", "crane_cosim.cli", "run", str(ssd), "--out", str(tmp_path / "next"),
                    "--no-plots", "--stop-time", "0.01"], check=True, capture_output=True, env=env)
    assert not left.exists() and list((tmp_path / "tmp").iterdir()) == []


def test_a_run_that_fails_mid_run_keeps_every_row_before_the_failure(tmp_path, fmu_dir, capsys):
    """The explicit coupling with a light vessel (120 kg), Gauss-Seidel at
    1 ms, diverges within 0.1 s: a component's outputs turn non-finite and the run fails (exit 1);
    its file is whole (closed with its end marker) and holds every point
    recorded up to the last good one, as the summary counts them."""
    ssd = _system(tmp_path, fmu_dir, 1.0)
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--out", str(out), "--no-plots", "--coupling", "explicit",
                 "--set", "vessel.m=120"]) == 1
    assert f"are in {out}" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    table, whole = read_table(out)
    df = read_results(out)
    assert summary["status"] == "failed" and whole
    assert len(df) == summary["rows"] > 5 and df["time"].iloc[-1] == summary["end_time"] < 0.1
    np.testing.assert_allclose(df["time"], np.arange(len(df)) * 1e-3, rtol=0, atol=1e-9)
    assert main(["export-results", str(out), "--parquet", "--out", str(tmp_path / "failed.parquet")]) == 0
    assert read_results(tmp_path / "failed.parquet").equals(df)


def test_animate_and_fatigue_read_a_run_cut_short_from_its_results_file(tmp_path, fmu_dir, capsys):
    """A run killed mid-batch has results.arrows cut short and no
    summary.json (made here from a whole run of two batches, the second
    written at the end: summary.json removed, the file cut in its last
    batch): animate and fatigue read its components, units and roles from
    the file, and say in one line where it was cut."""
    ssd = _system(tmp_path, fmu_dir, 6.0)
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--out", str(out), "--no-plots"]) == 0
    (out / "summary.json").unlink()
    path = out / "results.arrows"
    path.write_bytes(path.read_bytes()[:-200])   # into the last batch, past the end marker
    end = read_results(out)["time"].iloc[-1]
    assert 0 < end < 6.0
    capsys.readouterr()
    note = f"crane-cosim: note: the run in {out} was cut short at t = {end:g} s, its last recorded row"
    assert main(["animate", str(out), "--out", str(tmp_path / "a.html")]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("crane-cosim: ")]
    assert len(said) == 1 and said[0].startswith(note), said
    assert (tmp_path / "a.html").stat().st_size > 0
    assert main(["fatigue", str(out), "--no-plots"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("crane-cosim: ")]
    assert len(said) == 1 and said[0].startswith(note), said
    lifetime = pd.read_csv(out / "fatigue" / "fatigue_lifetime.csv")
    assert set(lifetime["unit"]) == {"N", "N.m"}, lifetime
