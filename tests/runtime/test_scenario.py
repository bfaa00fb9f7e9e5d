"""Scenarios (``runtime/scenario.py``): OSP's scenario files read and
written, their events acted out on a ramp and this project's integrator
against a hand computation and against libcosim's scenario manager acting
out the same file, a ``when`` event, and what cannot be changed named."""
import json

import numpy as np
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.runtime.scenario import Event, Scenario, read_scenario, write_scenario
from crane_cosim.ssp import write_ssd

H, STOP = 0.1, 2.0
TIMED = {
    "description": "the integrator's input held at zero, its output biased, the ramp shifted",
    "defaults": {"model": "sum", "action": "override"},
    "events": [
        {"time": 0.5, "variable": "u", "value": 0.0},
        {"time": 0.8, "variable": "y", "action": "bias", "value": 10.0},
        {"time": 1.0, "variable": "u", "action": "reset"},
        {"time": 1.2, "model": "ramp", "variable": "offset", "value": 5.0},
    ],
    "end": 1.6,
}


def _system(fmu_dir, integrator_fmu, base_dir):
    s = System("Scenario", stop_time=STOP, step=H, algorithm="jacobi", base_dir=base_dir)
    s.add_component("ramp", str(fmu_dir / "Signal.fmu"), table="0 0; 10 10")
    s.add_component("sum", str(integrator_fmu))
    s.connect("ramp.y", "sum.u")
    return s


def _hand() -> tuple:
    """(the integrator's recorded y, the ramp's y) at each point: Jacobi passes
    the ramp's output of a step's start; an event at t acts from the step
    that starts at t (inputs, parameters) or on the outputs read after it;
    at 1.6 s every change is undone."""
    t = np.round(np.arange(round(STOP / H) + 1) * H, 12)
    offset = np.where((t > 1.2 + 1e-9) & (t <= 1.6 + 1e-9), 5.0, 0.0)   # the ramp's output after a step
    ramp = t + offset
    x = np.zeros(len(t))
    for k in range(len(t) - 1):
        u = 0.0 if 0.5 - 1e-9 <= t[k] < 1.0 - 1e-9 else ramp[k]
        x[k + 1] = x[k] + H * u
    biased = (t > 0.8 + 1e-9) & (t <= 1.6 + 1e-9)
    return x + np.where(biased, 10.0, 0.0), ramp


def test_timed_events_follow_the_hand_computation_and_libcosim(fmu_dir, integrator_fmu, tmp_path):
    """Override, bias and reset of an input and an output, a tunable
    parameter of an unconnected variable overridden, everything undone at
    the end: the hand computation's values to round-off (measured 1.8e-15
    of values near 10, bound 5.3e-15), and libcosim's scenario manager on the same file and
    system file gives them too (libcosim's times are whole nanoseconds:
    measured 1.8e-15, bound 5.3e-15); summary.json lists what acted."""
    file = tmp_path / "scenario.json"
    file.write_text(json.dumps(TIMED))
    s = _system(fmu_dir, integrator_fmu, tmp_path)
    run_cosim(s, tmp_path / "ours", RunConfig(progress=False, scenario=str(file)))
    ours = read_results(tmp_path / "ours")
    y, ramp = _hand()
    assert np.abs(ours["sum.y"].to_numpy() - y).max() < 5.3e-15
    assert np.abs(ours["ramp.y"].to_numpy() - ramp).max() < 5.3e-15
    summary = json.loads((tmp_path / "ours" / "summary.json").read_text())["scenario"]
    assert [(a["time"], a["event"]) for a in summary["applied"]] == [
        (pytest.approx(0.5), "sum.u override 0 at t = 0.5 s"), (pytest.approx(0.8), "sum.y bias 10 at t = 0.8 s"),
        (pytest.approx(1.0), "sum.u reset at t = 1 s"), (pytest.approx(1.2), "ramp.offset override 5 at t = 1.2 s"),
        (pytest.approx(1.6), "every change undone: the scenario's end")]
    theirs = run_libcosim(str(write_ssd(s, tmp_path / "Scenario.ssd")), outputs=["sum.y", "ramp.y"], scenario=file)
    for c in ("sum.y", "ramp.y"):
        assert np.abs(theirs[c].to_numpy() - ours[c].to_numpy()).max() < 5.3e-15, c


def test_a_when_event_acts_where_its_condition_first_holds(fmu_dir, integrator_fmu, tmp_path):
    """Once the integral of the ramp, t^2/2 by the steps' sums, is above
    0.3 (h^2 k (k - 1)/2 > 0.3 first at t = 0.9 s), its input is held at
    zero: the integral stays 0.36 from there."""
    file = write_scenario(Scenario((Event("sum", "u", "override", 0.0, when=("sum", "y", "above", 0.3)),)),
                          tmp_path / "when.json")
    run_cosim(_system(fmu_dir, integrator_fmu, tmp_path), tmp_path / "run",
              RunConfig(progress=False, scenario=str(file)))
    df = read_results(tmp_path / "run")
    applied = json.loads((tmp_path / "run" / "summary.json").read_text())["scenario"]["applied"]
    assert applied == [{"time": pytest.approx(0.9), "event": "sum.u override 0 when sum.y is above 0.3"}]
    k = np.arange(len(df))
    expected = np.where(k <= 9, H ** 2 * k * (k - 1) / 2, H ** 2 * 9 * 8 / 2)
    assert np.abs(df["sum.y"].to_numpy() - expected).max() < 1e-15


def test_a_scenario_file_reads_and_writes_back(tmp_path):
    """OSP's form with its defaults, and YAML as libcosim reads it; written
    back in the same form and read again the same."""
    (tmp_path / "s.yml").write_text("defaults:\n  model: sum\n  action: override\nevents:\n"
                                    "  - time: 0.5\n    variable: u\n    value: 0.0\n"
                                    "  - time: 1.0\n    variable: u\n    action: reset\nend: 2.0\n")
    read = read_scenario(tmp_path / "s.yml")
    assert read.events == (Event("sum", "u", "override", 0.0, time=0.5), Event("sum", "u", "reset", time=1.0))
    assert read.end == 2.0
    again = read_scenario(write_scenario(read, tmp_path / "s.json"))
    assert (again.events, again.end) == (read.events, read.end)


@pytest.mark.parametrize("text, sentence", [
    ("{", "is not valid JSON"),
    ('{"events": [{"time": 1, "model": "sum", "variable": "u", "action": "scale", "value": 2}]}',
     "event 1 has the action 'scale'; OSP's are override, bias, reset"),
    ('{"events": [{"time": 1, "model": "sum", "variable": "u", "action": "override"}]}',
     "event 1 (override of sum.u) gives no value"),
    ('{"events": [{"model": "sum", "variable": "u", "action": "reset"}]}',
     "event 1 must give either a time or a when"),
    ('{"events": [{"time": 1, "variable": "u", "action": "reset"}]}', "event 1 gives no model"),
])
def test_a_file_that_cannot_be_read_is_one_sentence(tmp_path, text, sentence):
    (tmp_path / "bad.json").write_text(text)
    with pytest.raises(CraneCosimError, match=sentence.replace("(", r"\(").replace(")", r"\)")):
        read_scenario(tmp_path / "bad.json")


def test_what_cannot_change_during_a_run_is_named(fmu_dir, integrator_fmu, tmp_path):
    file = write_scenario(Scenario((Event("summ", "u", "override", 1.0, time=0.1),
                                    Event("sum", "k", "override", 2.0, time=0.1),
                                    Event("ramp", "interpolation", "override", "previous", time=0.1),
                                    Event("sum", "y", "bias", "a lot", time=0.1)), path="s.json"),
                          tmp_path / "s.json")
    problems, _ = problems_of(_system(fmu_dir, integrator_fmu, tmp_path), RunConfig(scenario=str(file)))
    assert [p.split(") ", 1)[1] for p in problems] == [
        "names the component 'summ', which the system does not have (did you mean 'sum'?)",
        "changes sum.k, fixed parameter, which may not change during a run (inputs, outputs and the tunable "
        "parameters of FMUs of FMI 2.0 and 3.0 may)",
        "changes ramp.interpolation, String variable: a scenario changes numbers, booleans and enumerations",
        "sum.y is a Real output; set it to a number, not 'a lot'"]


def test_the_command_line_takes_a_scenario(fmu_dir, integrator_fmu, tmp_path, capsys):
    file = tmp_path / "scenario.json"
    file.write_text(json.dumps(TIMED))
    ssd = write_ssd(_system(fmu_dir, integrator_fmu, tmp_path), tmp_path / "Scenario.ssd")
    assert main(["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots", "--scenario", str(file)]) == 0
    y, _ = _hand()
    assert np.abs(read_results(tmp_path / "out")["sum.y"].to_numpy() - y).max() < 5.3e-15
    assert main(["run", str(ssd), "--monolithic", "--scenario", str(file), "--out", str(tmp_path / "m")]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "crane-cosim: error: --scenario changes values between a co-simulation's communication points; a monolithic "
        "run has none (leave out --monolithic)")


def test_the_examples_scenario_runs_on_its_system(tmp_path):
    """The scenario docs/master.md shows, on the crane on the vessel: an
    output biased, a gain overridden when the slew passes 1 rad, a drive's
    torque overridden, each acting where it says."""
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel"
    scenario = example / "drive_failure.json"
    assert (example / "drive_failure.json").read_text() in (Path(__file__).resolve().parents[2] / "docs" /
                                                             "master.md").read_text()
    assert main(["--log-level", "error", "run", str(example / "CraneOnVessel.ssd"), "--scenario", str(scenario),
                 "--stop-time", "13", "--out", str(tmp_path / "run"), "--no-plots"]) == 0
    df = read_results(tmp_path / "run")
    applied = json.loads((tmp_path / "run" / "summary.json").read_text())["scenario"]["applied"]
    assert [a["event"] for a in applied] == ["crane.q_boom bias 0.01 at t = 5 s",
                                             "controller.kP_jib override 0 when crane.q_slew is above 1",
                                             "controller.tau_boom override 0 at t = 12 s"]
    slewed = applied[1]["time"]
    q_slew, t = df["crane.q_slew"], df["time"]
    assert q_slew[t < slewed - 1e-9].max() <= 1.0 < q_slew[t <= slewed + 1e-9].max()
    after = df["time"] > 12.0 + 1e-9
    assert (df["controller.tau_boom"][after] == 0).all() and (df["controller.tau_boom"][df["time"] < 12] != 0).any()
