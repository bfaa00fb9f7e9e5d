"""Systems of FMUs with every FMI variable type (``tests/typed_fmus``): an
FMI 2.0 source of a switch, a mode selector, a count, a label and a rate
(``Pulse2``) driving a counter as an FMI 2.0 FMU (``Counter2``) and as an
FMI 3.0 FMU (``Counter3``), beside this project's ``Signal`` block; every
type connected, exchanged and recorded, and every refusal named."""
import json

import numpy as np
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.files.results_export import export_results
from crane_cosim.ssp import read_ssd, write_ssd
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.runtime.transformations import Linear, Mapping

H, STEPS = 0.1, 9
FACTOR = {1: 0, 2: 1, 3: 2}


def _system(typed_fmus, fmu_dir, algorithm="gauss-seidel", **values):
    s = System("Typed", stop_time=STEPS * H, step=H, algorithm=algorithm, base_dir=typed_fmus)
    s.add_component("pulse", "Pulse2.fmu", first_mode="slow", rate0=2.0)
    s.add_component("ramp", str(fmu_dir / "Signal.fmu"), table="0 0; 10 10")
    s.add_component("c2", "Counter2.fmu", increment=3)
    s.add_component("c3", "Counter3.fmu", increment=5, prefix="got, \"quoted\" ")
    for c in ("c2", "c3"):
        for v in ("enable", "mode", "label"):
            s.connect(f"pulse.{v}", f"{c}.{v}")
    s.connect("pulse.rate", "c2.rate")
    s.connect("ramp.y", "c3.rate")
    for target, value in values.items():
        s.set_parameter(target.replace("__", "."), value)
    return s


def _pulse(n, first_mode=2):
    """The source's outputs after n steps (``tests/typed_fmus/pulse2.py``)."""
    return n % 3 != 0 or n == 0, (first_mode - 1 + n) % 3 + 1


def _counts(increment, delay):
    """The count after each step: a step reads the source's outputs of the
    same step's end (Gauss-Seidel, ``delay`` 0) or of its start (Jacobi, 1)."""
    count, out = 0, [0]
    for k in range(STEPS):
        enable, mode = _pulse(k + 1 - delay)
        count += increment * FACTOR[mode] if enable else 0
        out.append(count)
    return out


def test_the_fmus_messages_are_shown_with_fmi_logging(typed_fmus, fmu_dir, tmp_path, capsys):
    """``fmi_logging`` (``--fmi-logging``): the source's message of each
    step on stderr, in order, after its component's name; none without."""
    run_cosim(_system(typed_fmus, fmu_dir, "gauss-seidel"), tmp_path / "quiet", progress=False)
    assert "fmu pulse:" not in capsys.readouterr().err
    run_cosim(_system(typed_fmus, fmu_dir, "gauss-seidel"), tmp_path / "told", progress=False, fmi_logging=True)
    shown = [line for line in capsys.readouterr().err.splitlines() if line.startswith("fmu pulse: ")]
    assert shown == [f"fmu pulse: pulse {n}" for n in range(1, STEPS + 1)]


@pytest.mark.parametrize("algorithm, delay", [("gauss-seidel", 0), ("jacobi", 1)])
def test_every_type_is_exchanged_as_the_algorithm_says(typed_fmus, fmu_dir, tmp_path, algorithm, delay):
    run_cosim(_system(typed_fmus, fmu_dir, algorithm), tmp_path, progress=False)
    df = read_results(tmp_path)
    assert list(df["c2.count"]) == _counts(3, delay)
    assert list(df["c3.count"]) == _counts(5, delay)
    assert list(df["c3.total"]) == [10_000_000_000 + c for c in _counts(5, delay)]   # an Int64 beyond 32 bits
    assert list(df["c3.ticks"]) == list(range(STEPS + 1))                              # a UInt64
    n = np.maximum(np.arange(STEPS + 1) - delay, 0)
    assert list(df["c2.mode_out"]) == [_pulse(int(k))[1] for k in n]
    assert list(df["c2.running"]) == [int(_pulse(int(k))[0] and _pulse(int(k))[1] != 1) for k in n]
    assert list(df["c2.echo"]) == [f"got pulse {k}" for k in n]
    assert list(df["c3.echo"]) == [f'got, "quoted" pulse {k}' for k in n]               # CSV-quoted and back
    # reals beside them: the source's constant rate integrated, and our block's ramp
    np.testing.assert_allclose(df["c2.level"], 2.0 * df["time"], rtol=0, atol=1e-12)
    assert df["ramp.y"].iloc[-1] == pytest.approx(STEPS * H)


def test_the_results_say_each_columns_type_and_unit(typed_fmus, fmu_dir, tmp_path):
    run_cosim(_system(typed_fmus, fmu_dir), tmp_path, progress=False)
    summary = json.loads((tmp_path / "summary.json").read_text())
    types = summary["types"]
    assert (types["pulse.n"], types["pulse.enable"], types["pulse.mode"], types["pulse.label"]) == \
        ("Integer", "Boolean", "Enumeration", "String")
    assert (types["c3.count"], types["c3.total"], types["c3.ticks"], types["c3.level"]) == \
        ("Int32", "Int64", "UInt64", "Float64")
    assert summary["units"]["ramp.y"] == "" and "c3.history" not in types   # an array is not recorded
    df = read_results(tmp_path)
    assert df.attrs["types"] == {c: t for c, t in types.items() if c in df.columns}   # the file's own metadata
    assert df.attrs["units"] == {c: u for c, u in summary["units"].items() if c in df.columns}
    assert (df["pulse.enable"].dtype, df["c2.count"].dtype, df["c3.total"].dtype, df["pulse.mode"].dtype) == \
        (bool, np.int64, np.int64, np.int64)   # each FMI type's Arrow type, not a float
    assert df["c3.total"].iloc[0] == 10_000_000_000
    lines = export_results(tmp_path, out=tmp_path / "results.csv")[0].read_text().splitlines()
    header = lines[0].split(",")
    row = dict(zip(header, lines[1].split(",", len(header) - 1)))
    assert row["pulse.enable"] in ("0", "1") and row["c2.count"].isdigit()   # whole numbers, not 1.0 or 1e+10
    assert row["c3.total"] == "10000000000"


def test_notes_name_an_array_left_out(typed_fmus, fmu_dir):
    problems, notes = problems_of(_system(typed_fmus, fmu_dir))
    assert problems == []
    assert ("component c3: 1 output(s) of a type crane-cosim does not record (Binary, Clock or array), left out of "
            "the results: history") in notes


@pytest.mark.parametrize("values, sentence", [
    ({"pulse.first_mode": "medium"}, "pulse.first_mode is an Enumeration parameter of off=1, slow=2, fast=3; "
                                     "'medium' is none of its items"),
    ({"c2.increment": "200"}, "c2.increment = 200 is above its declared maximum 100"),
    ({"c3.increment": -1}, "c3.increment = -1 is below its declared minimum 0"),
    ({"c2.running": "true"}, "c2.running is an output computed by the FMU (initial = calculated), which a host "
                             "may not set"),
    ({"c2.enable": "true"}, "c2.enable is an input driven by the connection pulse.enable -> c2.enable"),
    ({"c3.time": 1.0}, "c3.time is the independent variable (time), which the master sets"),
    ({"c3.history": 1.0}, "c3.history is an output computed by the FMU"),
    ({"c2.count": "1.5"}, "c2.count is an Integer output; '1.5' is not a whole number"),
])
def test_values_a_host_may_not_set_are_named(typed_fmus, fmu_dir, values, sentence):
    problems, _ = problems_of(_system(typed_fmus, fmu_dir), RunConfig(values=values))
    assert len(problems) == 1 and sentence in problems[0], problems


def test_start_values_of_any_type_a_host_may_set(typed_fmus, fmu_dir, tmp_path):
    """An Enumeration by name and by value, an output whose ``initial`` is
    exact (a count that starts at 100: FMI 2.0 lets a host set it before
    initialization, as fmpy does), a String, an Int64 beyond 32 bits."""
    config = RunConfig(values={"pulse.first_mode": "fast", "c2.mode": "3", "c2.count": "100", "c3.count": 7,
                               "c3.offset": str(2 ** 40), "c2.prefix": "n="}, progress=False)
    s = _system(typed_fmus, fmu_dir)
    s.connections = [c for c in s.connections if str(c) != "pulse.mode -> c2.mode"]
    run_cosim(s, tmp_path, config)
    df = read_results(tmp_path)
    assert df["pulse.mode"].iloc[0] == 3 and df["c2.mode_out"].iloc[-1] == 3
    assert df["c2.count"].iloc[0] == 100 and df["c3.count"].iloc[0] == 7
    assert df["c3.total"].iloc[0] == 2 ** 40 + 7 and df["c2.echo"].iloc[0] == "n=pulse 0"


@pytest.mark.parametrize("start, end, words", [
    ("pulse.n", "c2.rate", "joins an Integer output to a Real input"),
    ("pulse.rate", "c2.enable", "joins a Real output to a Boolean input"),
    ("pulse.enable", "c3.mode", "joins a Boolean output to an Enumeration input"),
    ("pulse.label", "c3.rate", "joins a String output to a Float64 input"),
    ("c3.total", "c2.count", "c2.count is an output, not an input"),
])
def test_check_names_every_connection_of_types_that_do_not_join(typed_fmus, fmu_dir, capsys, tmp_path, start, end,
                                                                 words):
    s = _system(typed_fmus, fmu_dir)
    s.connections = [c for c in s.connections if f"{c.end_element}.{c.end_connector}" != end]
    s.connect(start, end)
    ssd = write_ssd(s, typed_fmus / f"{tmp_path.name}.ssd")  # beside the FMUs it names
    assert main(["check", str(ssd)]) == 2
    err = capsys.readouterr().err
    assert f"crane-cosim: error: connection {start} -> {end}" in err and words in err, err


def test_set_on_the_command_line_takes_an_items_name(typed_fmus, fmu_dir, capsys, tmp_path):
    ssd = write_ssd(_system(typed_fmus, fmu_dir), typed_fmus / f"{tmp_path.name}.ssd")
    assert main(["run", str(ssd), "--set", "pulse.first_mode=off", "--out", str(tmp_path / "out"),
                 "--no-plots"]) == 0
    assert read_results(tmp_path / "out")["pulse.mode"].iloc[0] == 1
    assert main(["run", str(ssd), "--set", "c2.increment=101", "--out", str(tmp_path / "bad"), "--no-plots"]) == 2
    assert capsys.readouterr().err.strip() == \
        "crane-cosim: error: c2.increment = 101 is above its declared maximum 100"


def test_an_enumeration_value_in_the_system_file_is_its_items_name(typed_fmus, fmu_dir, tmp_path):
    ssd = write_ssd(_system(typed_fmus, fmu_dir), typed_fmus / f"{tmp_path.name}.ssd")
    assert '<ssv:Enumeration value="slow"' in ssd.read_text()
    assert read_ssd(ssd).component("pulse").parameters["first_mode"] == "slow"


def test_an_fmi3_fmu_in_a_loop_of_the_iterated_quadratic_is_refused_by_name(typed_fmus, fmu_dir):
    """FMI 3.0 has no input derivatives: in a loop that the iterated quadratic
    steps again (the counter before its source), the FMU is named."""
    s = _system(typed_fmus, fmu_dir, "iterated-quadratic")
    s.components = [s.component("c3"), *[c for c in s.components if c.name != "c3"]]
    problems, _ = problems_of(s)
    assert any(p.startswith("component c3 (Counter3.fmu) does not take input derivatives (it is an FMI 3.0 FMU, "
                            "and FMI 3.0 has no input derivatives)") for p in problems), problems
    assert problems_of(s, RunConfig(algorithm="iterated-midpoint"))[0] == []


def test_the_iterated_algorithms_pass_every_type(typed_fmus, fmu_dir, tmp_path):
    """The source is read at mid-step (it steps in halves, its count of
    steps two a communication step); the counters take its values there."""
    run_cosim(_system(typed_fmus, fmu_dir, "iterated-midpoint"), tmp_path, progress=False)
    df = read_results(tmp_path)
    assert list(df["pulse.n"]) == [2 * k for k in range(STEPS + 1)]
    count, expected = 0, [0]
    for k in range(STEPS):
        enable, mode = _pulse(2 * k + 1)   # the mid-step value
        count += 3 * FACTOR[mode] if enable else 0
        expected.append(count)
    assert list(df["c2.count"]) == expected


def test_a_bad_enumeration_in_the_results_of_a_wrong_run_is_never_silent(typed_fmus, fmu_dir, tmp_path):
    with pytest.raises(CraneCosimError, match="c2.increment = 101 is above its declared maximum 100"):
        run_cosim(_system(typed_fmus, fmu_dir, c2__increment=101), tmp_path, progress=False)
    assert not (tmp_path / "results.arrows").exists()


@pytest.mark.parametrize("algorithm, delay", [("gauss-seidel", 0), ("jacobi", 1)])
def test_a_component_that_ends_the_simulation_ends_the_run_where_its_step_ends(typed_fmus, fmu_dir, tmp_path,
                                                                                algorithm, delay):
    """The FMI 3.0 counter asks to end the simulation at the end of its
    fourth step (``terminateSimulation``): the run ends there, at 0.4 s,
    status ``ended``, the point written with every component at it (as
    fmpy ends such a run), whatever points ``record_every`` keeps."""
    s = _system(typed_fmus, fmu_dir, algorithm, c3__end_after=4)
    result = run_cosim(s, tmp_path, RunConfig(record_every=3, progress=False))
    assert (result.status, result.end_time) == ("ended", pytest.approx(0.4))
    assert result.reason == "component c3 asked to end the simulation at t = 0.4 s"
    df = read_results(tmp_path)
    assert list(df["time"]) == pytest.approx([0.0, 0.3, 0.4])
    assert df["c3.ticks"].iloc[-1] == 4 and df["c2.count"].iloc[-1] == _counts(3, delay)[4]
    assert json.loads((tmp_path / "summary.json").read_text())["status"] == "ended"


def test_the_command_says_where_a_component_ended_the_run(typed_fmus, fmu_dir, tmp_path, capsys):
    ssd = write_ssd(_system(typed_fmus, fmu_dir, c3__end_after=2), typed_fmus / f"{tmp_path.name}.ssd")
    assert main(["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    assert ("crane-cosim: note: the run ended before its stop time: component c3 asked to end the simulation at "
            "t = 0.2 s") in capsys.readouterr().out


def test_an_fmi3_fmu_is_rolled_back_in_the_iterated_midpoints_loop(typed_fmus, fmu_dir, tmp_path):
    """The FMI 3.0 counter placed before the source it reads: the iterated
    midpoint saves its state, steps it, restores it and steps it again
    (``fmi3GetFMUState``, ``fmi3SetFMUState``), and its count is the one the
    source's mid-step values give, once a step (its ticks one a step, the
    passes rolled back)."""
    s = _system(typed_fmus, fmu_dir, "iterated-midpoint")
    s.components = [s.component("c3"), *[c for c in s.components if c.name != "c3"]]
    result = run_cosim(s, tmp_path, progress=False)
    df = read_results(tmp_path)
    assert list(df["c3.ticks"]) == list(range(STEPS + 1))
    count, expected = 0, [0]
    for k in range(STEPS):
        enable, mode = _pulse(2 * k + 1)
        count += 5 * FACTOR[mode] if enable else 0
        expected.append(count)
    assert list(df["c3.count"]) == expected
    assert json.loads((tmp_path / "summary.json").read_text())["re_step_passes"]
    assert result.status == "completed"


def test_processes_refuses_an_fmi3_component_before_anything_runs(typed_fmus, fmu_dir, tmp_path, capsys):
    """``--processes`` runs FMI 2.0 FMUs out of process: an FMI 3.0
    component is named in one sentence when the run is planned, exit 2,
    nothing instantiated and no results folder made."""
    ssd = write_ssd(_system(typed_fmus, fmu_dir), typed_fmus / f"{tmp_path.name}.ssd")
    assert main(["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots", "--processes"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == ("crane-cosim: error: component c3: --processes runs FMI 2.0 co-simulation FMUs in processes of "
                       "their own; Counter3.fmu is an FMI 3.0 co-simulation FMU")
    assert not (tmp_path / "out" / "results.arrows").exists()


@pytest.mark.parametrize("algorithm", ["gauss-seidel", "jacobi", "iterated-midpoint"])
def test_other_tools_fmi2_fmus_run_out_of_process_as_in_process(typed_fmus, fmu_dir, tmp_path, algorithm):
    """FMUs of another tool (pythonfmu's, with Integer, Boolean, String and
    Real ports) beside ours, each in a process of its own
    (``--processes``): every recorded value, of every type, equals the run
    in one process, under every algorithm that steps them (the iterated
    midpoint rolling them back through the proxy's saved states)."""
    def typed2():
        s = _system(typed_fmus, fmu_dir, algorithm)
        s.components = [c for c in s.components if c.name != "c3"]
        s.connections = [c for c in s.connections if "c3" not in (c.start_element, c.end_element)]
        return s
    results = {}
    for name, processes in (("in", False), ("out", True)):
        result = run_cosim(typed2(), tmp_path / name, RunConfig(progress=False, processes=processes))
        assert result.status == "completed"
        results[name] = read_results(tmp_path / name)
    assert list(results["out"].columns) == list(results["in"].columns)
    assert results["out"].equals(results["in"])
    assert list(results["out"]["c2.count"]) == _counts(3, 0 if algorithm != "jacobi" else 1)


def test_mapping_transformations_are_applied(typed_fmus, fmu_dir, tmp_path):
    """A boolean mapping that inverts the switch into c2 and an enumeration
    mapping that swaps slow and fast into c3, as SSP 1.0's
    ssc:BooleanMappingTransformation and ssc:EnumerationMappingTransformation
    say: the counts are the hand computation's with those values (Gauss-
    Seidel: each step takes the source's outputs of its end), and check
    shows each."""
    s = _system(typed_fmus, fmu_dir)
    s.connections = [c for c in s.connections if str(c) not in ("pulse.enable -> c2.enable", "pulse.mode -> c3.mode")]
    s.connect("pulse.enable", "c2.enable", Mapping("Boolean", ((True, False), (False, True))))
    s.connect("pulse.mode", "c3.mode", Mapping("Enumeration", (("off", "off"), ("slow", "fast"), ("fast", "slow"))))
    problems, notes = problems_of(s)
    assert problems == []
    assert {n for n in notes if "mapped" in n} == {
        "connection pulse.enable -> c2.enable: c2.enable = pulse.enable mapped true -> false, false -> true",
        "connection pulse.mode -> c3.mode: c3.mode = pulse.mode mapped off -> off, slow -> fast, fast -> slow"}
    run_cosim(s, tmp_path, progress=False)
    df = read_results(tmp_path)
    count2 = count3 = 0
    expected2, expected3 = [0], [0]
    for k in range(STEPS):
        enable, mode = _pulse(k + 1)
        count2 += 3 * FACTOR[mode] if not enable else 0
        count3 += 5 * FACTOR[{1: 1, 2: 3, 3: 2}[mode]] if enable else 0
        expected2.append(count2)
        expected3.append(count3)
    assert list(df["c2.count"]) == expected2
    assert list(df["c3.count"]) == expected3


def test_a_mapping_that_does_not_fit_its_ends_is_named(typed_fmus, fmu_dir):
    s = _system(typed_fmus, fmu_dir)
    s.connections = [c for c in s.connections if str(c) not in ("pulse.mode -> c2.mode", "pulse.enable -> c3.enable")]
    s.connect("pulse.mode", "c2.mode", Mapping("Enumeration", (("slow", "medium"),)))
    s.connect("pulse.enable", "c3.enable", Linear(2.0, 0.0))
    problems, _ = problems_of(s)
    assert sorted(problems) == sorted([
        "connection pulse.mode -> c2.mode: its ssc:EnumerationMappingTransformation names 'medium', which mode has "
        "no item of (its items: off, slow, fast)",
        "connection pulse.enable -> c3.enable: an ssc:LinearTransformation applies to Real values, and it joins "
        "Boolean enable to Boolean enable"])
