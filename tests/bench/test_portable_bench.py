"""``crane-cosim bench --portable`` (``cosim/bench/portable_bench.py``):
a record per FMU with its sizes and µs a step lean and portable, the
crane on the vessel in the master lean, portable and with --processes,
and the barge example lean and with --processes, its cylinders stepping
at the same time or one after another.
Speed is measured by the command, never asserted here."""
from __future__ import annotations

import json

from crane_cosim.cli import main


def test_bench_portable_command_records_each_fmu_and_the_master(tmp_path, capsys):
    """``bench --portable --json`` for the Signal block: its JSON record,
    on stdout alone, holds a row per FMU with its sizes and times, the crane
    on the vessel in the master lean, portable and with --processes, and the
    barge lean, with --processes and one component after another."""
    assert main(["bench", "--portable", "--model", "Signal", "--stop-time", "0.05", "--repeat", "1", "--json",
                 "--out", str(tmp_path / "work")]) == 0
    record = json.loads(capsys.readouterr().out)
    (row,) = record["fmus"]
    assert row["fmu"] == "Signal"
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
