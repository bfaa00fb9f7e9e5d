"""``crane-cosim bench`` (``cosim/bench/rates.py``) says what it will run
and about how long it takes before it starts (the benchmark itself:
tests/cli/test_cli.py)."""
import argparse

from crane_cosim.bench import rates as bench
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import crane_on_vessel


def test_the_benchmark_says_what_it_runs_and_how_long_before_it_starts(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(bench, "warm_up", lambda *a, **k: [])  # where the benchmark holds them
    monkeypatch.setattr(bench, "warm_up_loop", lambda *a, **k: [])
    monkeypatch.setattr("crane_cosim.runtime.compiled.master_warm_up.warm_up_master", lambda *a, **k: False)

    def run_bench(*args, **kwargs):
        started.append(capsys.readouterr().err)  # what was said before the first run
        return [{"mode": "floor", "pythonfmu_us_per_step": 1.0, "adapter_us_per_step": 1.0}]
    monkeypatch.setattr(bench, "run_bench", run_bench)
    args = argparse.Namespace(hosts=False, stop_time=2.0, repeat=3, out=None, scenario=["knuckle_boom",
                              "flexible_crane"], json=True)
    assert bench.main(args) == 0
    said = started[0].splitlines()
    assert len(said) == 1 and said[0].startswith(
        "bench: 2 scenario(s), monolithic once and co-simulation 3 time(s) each, 2 s simulated per run: "
        "knuckle_boom, flexible_crane; about ")
    assert " s in all by the rates of a 2-core machine" in said[0]


def test_the_estimate_grows_with_the_runs():
    """More simulated time, more repetitions or more scenarios, longer."""
    one = bench.estimated_seconds(["crane_on_vessel"], 2.0, 3)
    assert bench.estimated_seconds(["crane_on_vessel"], 20.0, 3) > one
    assert bench.estimated_seconds(["crane_on_vessel"], 2.0, 5) > one
    assert bench.estimated_seconds(["crane_on_vessel", "not_measured"], 2.0, 3) > one


def test_the_table_puts_a_dash_where_a_figure_does_not_apply():
    """A monolithic run has no master, FMI calls nor FMUs: its row shows a
    dash in those four columns, not nan, and a line under the table says
    why; a co-simulation row shows its figures."""
    runs = [{"scenario": "crane_on_vessel", "mode": "monolithic", "step": 0.002, "rtf": 12.5,
             "master_overhead_us": None},
            {"scenario": "crane_on_vessel", "mode": "cosim", "algorithm": "iterated-midpoint", "step": 0.002,
             "rtf": 1.25, "master_us_per_step": 800.0, "fmi_calls_us_per_step": 700.0, "master_overhead_us": 100.0,
             "bare_fmpy_us_per_step": 650.0}]
    lines = bench.table_lines(runs)
    assert "nan" not in "\n".join(lines)
    assert lines[1].split() == ["crane_on_vessel", "monolithic", "0.002", "12.50", "-", "-", "-", "-"]
    assert lines[2].split() == ["crane_on_vessel", "cosim", "iterated-midpoint", "0.002", "1.25", "800.0", "700.0",
                                "100.0", "650.0"]
    assert lines[-1].startswith("-: does not apply (a monolithic run is one ODE in this process")


def test_the_bare_replay_reads_each_port_by_its_type(fmu_dir, tmp_path):
    """The bare fmpy loop of a system with a Boolean output (the payload's
    ``slack``) reads it with fmi2GetBoolean, as FMI asks, and times it."""
    system = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.02,
                             payload={"m_payload": 20.0, "EA": 2e4, "l_wire_0": 1.5})
    assert run_cosim(system, tmp_path / "run", progress=False).status == "completed"
    assert bench.bare_fmpy_us_per_step(system, tmp_path / "run", tmp_path) > 0.0
