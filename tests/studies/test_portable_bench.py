"""``crane-cosim bench --portable`` (``cosim/studies/portable_bench.py``):
a record per FMU with its sizes and µs a step lean and portable, the
crane on the vessel in the master lean, portable and with --processes,
and the barge example lean and with --processes, its cylinders stepping
at the same time or one after another.
Speed is measured by the command, never asserted here."""
from __future__ import annotations

import json

import pytest

from crane_cosim.cli import main
from crane_cosim.studies.portable_bench import portable_bench


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return portable_bench(["Signal"], stop_time=0.05, repeat=1, work=tmp_path_factory.mktemp("bench"), steps=20)


def test_a_record_per_fmu_with_its_sizes_and_times(record):
    (row,) = record["fmus"]
    assert row["fmu"] == "Signal"
    # the portable FMU carries its Python: tens of MB against the lean FMU's half MB
    assert 0.1 < row["lean_mb"] < 2 and row["portable_mb"] > 20 * row["lean_mb"]
    assert row["lean_us"] > 0 and row["portable_us"] > 0 and row["portable_start_s"] > 0


def test_the_master_runs_the_crane_on_the_vessel_three_ways(record):
    master = record["master"]
    assert master["system"] == "crane_on_vessel" and master["stop_time"] == 0.05
    assert all(master[kind] > 0 for kind in ("lean", "portable", "processes"))


def test_the_master_runs_the_barge_three_ways(record):
    barge = record["barge"]
    assert barge["system"] == "hydro_vessel" and barge["stop_time"] == 0.05
    assert all(barge[kind] > 0 for kind in ("lean", "processes", "processes_one_by_one"))


def test_bench_portable_command(tmp_path, capsys):
    """The command's JSON is the record, on stdout alone."""
    assert main(["bench", "--portable", "--model", "Signal", "--stop-time", "0.02", "--repeat", "1", "--json",
                 "--out", str(tmp_path / "work")]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [r["fmu"] for r in printed["fmus"]] == ["Signal"] and set(printed["master"]) == {
        "system", "stop_time", "lean", "portable", "processes"}
    assert set(printed["barge"]) == {"system", "stop_time", "lean", "processes", "processes_one_by_one"}
