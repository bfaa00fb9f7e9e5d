"""``crane-cosim bench --portable`` (``cosim/bench/portable_bench.py``):
a record per FMU with its sizes and µs a step lean and portable, the
crane on the vessel in the master lean, portable and with --processes,
and the barge example lean and with --processes, its cylinders stepping
at the same time or one after another.
Speed is measured by the command, never asserted here."""
from __future__ import annotations

import json
import shutil

from crane_cosim.bench import portable_bench
from crane_cosim.cli import main


def test_bench_portable_command_records_each_fmu_and_the_master(tmp_path, capsys, monkeypatch, fmu_dir,
                                                                portable_fmu):
    """``bench --portable --json`` for the controller: its JSON record, on
    stdout alone, holds a row per FMU with its sizes and times, the crane
    on the vessel in the master lean, portable and with --processes, and the
    barge lean, with --processes and one component after another.  The
    session's FMUs, lean and portable, stand in for the command's own
    builds of the same (building them is tested with the FMUs, in
    tests/fmus/)."""
    def copied(fmu, out):
        out.mkdir(parents=True, exist_ok=True)
        return shutil.copy2(fmu, out / fmu.name)

    monkeypatch.setattr(portable_bench, "build_fmu", lambda model, out: copied(fmu_dir / f"{model}.fmu", out))
    monkeypatch.setattr(portable_bench, "build_portable_fmu",
                        lambda model, out, stream=None, lean=None: copied(portable_fmu(model), out))
    for fmu in fmu_dir.glob("*.fmu"):  # the barge's, which its runs would otherwise build
        copied(fmu, tmp_path / "work" / "lean")
    assert main(["bench", "--portable", "--model", "Controller", "--stop-time", "0.05", "--repeat", "1", "--json",
                 "--out", str(tmp_path / "work")]) == 0
    record = json.loads(capsys.readouterr().out)
    (row,) = record["fmus"]
    assert row["fmu"] == "Controller"
    # the portable FMU carries its Python: tens of MB against the lean FMU's half MB
    assert 0.1 < row["lean_mb"] < 2 and row["portable_mb"] > 20 * row["lean_mb"]
    assert row["lean_us"] > 0 and row["portable_us"] > 0 and row["portable_start_s"] > 0
    master = record["master"]
    assert set(master) == {"system", "stop_time", "lean", "portable", "processes"}
    assert master["system"] == "crane_on_vessel" and master["stop_time"] == 0.05
    assert all(master[kind] > 0 for kind in ("lean", "portable", "processes"))
    barge = record["barge"]
    assert set(barge) == {"system", "stop_time", "lean", "processes", "processes_one_by_one"}
    assert barge["system"] == "hydro_vessel" and barge["stop_time"] == 0.05
    assert all(barge[kind] > 0 for kind in ("lean", "processes", "processes_one_by_one"))
