"""``crane-cosim bench --hosts``: the same system and FMUs under our master,
OSP libcosim and NTNU Ålesund's ecos, each in a process of its own, its stepping timed.

What is checked is behaviour, never speed: a record per host with positive
figures that fit together, the three runs on the same FMUs and system, and
their interface wrenches in agreement, compared as tests/hosts/test_libcosim.py
and test_ecos.py compare them (their helpers, the same criteria: libcosim to
round-off, ecos within 1% of the peak, its initialization passing the outputs
on once more).  libcosimpy and ecospy are test dependencies: without them
this module fails, it is not skipped.
"""
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "hosts"))  # the hosts' test helpers, when run alone
from test_libcosim import _master, _table  # noqa: E402

from crane_cosim.cli import main  # noqa: E402
from crane_cosim.accuracy.comparison import relative_rms  # noqa: E402
from crane_cosim.scenarios import crane_on_vessel  # noqa: E402
from crane_cosim.bench import bench_hosts  # noqa: E402
from crane_cosim.bench.rates import STEP as BENCH_STEP  # noqa: E402
from crane_cosim.bench.bench_hosts import HOSTS, compare_hosts, wrench_columns  # noqa: E402

STOP = 1.0
WRENCH = wrench_columns()


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("bench_hosts")


@pytest.fixture(scope="module")
def records(work):
    return compare_hosts("crane_on_vessel", stop_time=STOP, work=work, repeat=1)


def test_a_record_per_host_with_positive_figures(records):
    assert [(r["scenario"], r["mode"], r["host"]) for r in records] == [
        ("crane_on_vessel", "host", h) for h in HOSTS]
    ours = records[0]["steps_per_s"]
    for r in records:
        assert "error" not in r, r
        assert r["algorithm"] == "jacobi" and r["step"] == 0.001
        # libcosim initializes the FMUs in its first step, which is left out of its timing
        assert r["steps"] == round(STOP / 0.001) - (r["host"] == "libcosim")
        assert r["stepping_s"] > 0 and r["steps_per_s"] > 0
        assert r["steps_per_s"] == pytest.approx(r["steps"] / r["stepping_s"])
        assert r["rtf"] == pytest.approx(r["steps_per_s"] * r["step"])
        assert r["ours_over_host"] == pytest.approx(ours / r["steps_per_s"])
        assert Path(r["results"]).is_file()
    assert records[0]["ours_over_host"] == 1.0 and records[0]["wrench_rms_vs_ours"] == 0.0


def test_the_hosts_ran_the_same_fmus_and_system(records, work):
    """Our run's FMUs are the ones built once in the bench's folder, and the
    libcosim run agrees with it to round-off: the same FMUs, parameters,
    connections and algorithm (another FMU, value or an extra step of delay
    shows at 1e-4 or more)."""
    fmus = work / "crane_on_vessel" / "fmus"
    summary = json.loads((work / "crane_on_vessel" / "hosts" / "crane-cosim" / "summary.json").read_text())
    assert summary["algorithm"] == "jacobi" and summary["stop_time"] == STOP
    assert {Path(c["source"]).parent for c in summary["components"].values()} == {fmus}
    assert records[1]["wrench_rms_vs_ours"] <= 1e-6


def test_the_three_hosts_interface_wrench_agrees(records, work, tmp_path):
    runs = {r["host"]: pd.read_csv(r["results"]) for r in records}
    ours = runs["crane-cosim"]
    # the components loaded before the slew (the sideways ones are round-off around zero), each compared
    loaded = [c for c in WRENCH if ours[c].abs().max() > 1.0]
    assert loaded == ["crane.W_mount_nx", "crane.W_mount_fy", "crane.W_mount_fz"]
    assert all(r["wrench_compared"] == loaded for r in records)
    # the bench's run of ours against one in this process, as the hosts' tests run it
    # at the bench's step and algorithm (Jacobi at 1 ms, libcosim's and ecos's), not the example's
    # default (the iterated midpoint at 2 ms): the same grid and trajectory as the bench's run
    system = crane_on_vessel(base_dir=work / "crane_on_vessel", stop_time=STOP, step=BENCH_STEP, algorithm="jacobi")
    system.extrapolation = "none"
    here = _master(tmp_path / "here", system)
    err = relative_rms(ours, here, loaded)
    assert max(err.values()) <= 1e-9, _table(err)
    err = relative_rms(runs["libcosim"], ours, loaded)
    print("\nlibcosim vs ours, RMS / peak:", _table(err))
    assert max(err.values()) <= 1e-6, _table(err)
    assert max(err.values()) == pytest.approx(records[1]["wrench_rms_vs_ours"])
    err = relative_rms(runs["ecos"], ours, loaded)
    print("ecos vs ours, RMS / peak:", _table(err))
    assert max(err.values()) <= 0.01, _table(err)
    assert max(err.values()) == pytest.approx(records[2]["wrench_rms_vs_ours"])


def test_bench_hosts_command(capsys, monkeypatch):
    """``--hosts`` prints the rows (table or JSON) of the hosts compared,
    the scenario the crane on the vessel unless named; a host that cannot
    run is a row saying why."""
    asked = []

    def fake(scenario, stop_time, work, repeat, on_record=None, on_run=None):
        asked.append((scenario, stop_time, repeat))
        rows = [{"scenario": scenario, "mode": "host", "host": h, "algorithm": "jacobi", "step": 0.001,
                 "steps": 50, "stepping_s": s, "steps_per_s": 50 / s, "rtf": 0.05 / s,
                 "ours_over_host": s / 0.01, "wrench_rms_vs_ours": e, "results": None}
                for h, s, e in (("crane-cosim", 0.01, 0.0), ("libcosim", 0.025, 1e-12))]
        rows.append({"scenario": scenario, "mode": "host", "host": "ecos", "algorithm": "jacobi", "step": 0.001,
                     "error": "running under ecos needs the Python packages ecospy and tbb"})
        on_run("crane-cosim", {"steps": 50, "stepping_s": 0.01})
        for r in rows:
            on_record(r)
        return rows

    monkeypatch.setattr(bench_hosts, "compare_hosts", fake)
    assert main(["bench", "--hosts", "--stop-time", "0.05", "--repeat", "2"]) == 0
    out = capsys.readouterr()
    assert asked == [("crane_on_vessel", 0.05, 2)]
    lines = out.out.splitlines()
    assert lines[2].split() == ["crane_on_vessel", "crane-cosim", "5000", "5.00", "1.00", "0.0e+00"]
    assert lines[3].split() == ["crane_on_vessel", "libcosim", "2000", "2.00", "2.50", "1.0e-12"]
    assert lines[4].startswith("crane_on_vessel") and "ecos" in lines[4] and "needs the Python packages" in lines[4]
    # ecos's wrench is not ours to round-off, and the legend says why, so that no one takes it for an error
    assert "ecos reads the outputs after setting the next inputs" in out.out, out.out
    assert len([l for l in out.err.splitlines() if l.startswith("bench: crane_on_vessel under ")]) == 4
    assert "bench: crane_on_vessel under crane-cosim, a run: 5000 steps/s" in out.err
    assert main(["bench", "--hosts", "--json", "--stop-time", "0.05", "--scenario", "knuckle_boom"]) == 0
    records = json.loads(capsys.readouterr().out)  # stdout holds the JSON only
    assert [(r["scenario"], r["host"]) for r in records] == [("knuckle_boom", h) for h in HOSTS]


def test_the_hosts_bench_takes_any_stop_time_of_a_step_or_more():
    """The hosts' runs are at 1 ms whatever the examples' own steps: a stop
    time of 3 ms is enough, half a millisecond is not."""
    from crane_cosim.errors import CraneCosimError
    from crane_cosim.bench.rates import STEP, check_bench_settings
    check_bench_settings(0.003, 1, STEP)
    with pytest.raises(CraneCosimError, match=r"--stop-time 0.0005 s is shorter than the benchmark's step of 0.001 s"):
        check_bench_settings(0.0005, 1, STEP)
    with pytest.raises(CraneCosimError, match=r"the examples' longest step, 0.005 s"):
        check_bench_settings(0.003, 1)
