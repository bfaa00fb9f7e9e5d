"""Bad input and failed runs: one clear sentence, a non-zero exit, no
traceback, and the results computed so far kept on disk."""
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile

import numpy as np
import pandas as pd
import pytest
import scipy.io

from crane_cosim.cli import main
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.ssp import write_ssd
from crane_cosim.files.results import read_results, read_table
from limits import HUNG


@pytest.fixture
def system_file(tmp_path, fmu_dir):
    """The crane on the vessel, FMUs referenced by absolute path, by
    Gauss-Seidel at 1 ms (the grid and speed these tests count on; the
    example's own default is the iterated midpoint at 2 ms)."""
    def make(edit=None, **kwargs):
        kwargs = {"step": 1e-3, "algorithm": "gauss-seidel", **kwargs}
        s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), **kwargs)
        if edit:
            edit(s)
        return write_ssd(s, tmp_path / "system.ssd")
    return make


def run_cli(capsys, *args):
    code = main(["run", *map(str, args), "--no-plots"])
    err = capsys.readouterr().err
    return code, err


def rows_on_disk(out) -> int:
    """Rows in ``out``'s results.arrows now (0 before it holds its first
    batch of rows: its schema alone is some 20 kB at 100 columns)."""
    try:
        return read_table(out)[0].num_rows
    except Exception:  # noqa: BLE001 (not created yet)
        return 0


#: the lines a kernel's compilation writes, whichever test first needs it on a cold cache
COMPILING = re.compile(r"^(compiling .* with numba \(|  compiled \w+ \(\d+/\d+, |compiled .* in \d+ s$)")


def assert_one_sentence(err, *fragments):
    lines = [l for l in err.strip().splitlines() if l.strip() and not COMPILING.match(l)]
    assert len(lines) == 1, err
    assert lines[0].startswith("crane-cosim: error: ")
    assert "Traceback" not in err
    for f in fragments:
        assert f in lines[0], lines[0]


def test_missing_system_file(capsys, tmp_path):
    code, err = run_cli(capsys, tmp_path / "nope.ssd")
    assert code == 2
    assert_one_sentence(err, f"system file {tmp_path / 'nope.ssd'} does not exist")


def test_corrupt_system_file(capsys, tmp_path):
    (tmp_path / "bad.ssd").write_text("<ssd:Sys")
    code, err = run_cli(capsys, tmp_path / "bad.ssd")
    assert code == 2
    assert_one_sentence(err, "bad.ssd is not valid XML")


def _replace_source(name, source):
    def edit(s):
        s.component(name).source = str(source)
    return edit


def test_missing_fmu(capsys, system_file, tmp_path):
    code, err = run_cli(capsys, system_file(_replace_source("crane", tmp_path / "nowhere" / "Thing.fmu")))
    assert code == 2
    assert_one_sentence(err, "FMU file", "Thing.fmu does not exist")


def test_file_that_is_not_an_fmu(capsys, system_file, tmp_path):
    fake = tmp_path / "Fake.fmu"
    fake.write_text("just text")
    code, err = run_cli(capsys, system_file(_replace_source("crane", fake)))
    assert code == 2
    assert_one_sentence(err, "Fake.fmu is not an FMU (it is not a zip archive)")


@pytest.mark.parametrize("entries,message", [
    ({"modelDescription.xml": "<fmiModelDescription fmiVersion='2.0'><Model"}, "Broken.fmu is not valid XML"),
    ({"readme.txt": "hello"}, "Broken.fmu is not an FMU (it has no modelDescription.xml)"),
])
def test_corrupt_fmu(capsys, system_file, tmp_path, entries, message):
    bad = tmp_path / "Broken.fmu"
    with zipfile.ZipFile(bad, "w") as z:
        for name, text in entries.items():
            z.writestr(name, text)
    code, err = run_cli(capsys, system_file(_replace_source("crane", bad)))
    assert code == 2
    assert_one_sentence(err, message)


@pytest.mark.parametrize("start,end,fragment", [
    ("nobody.q_roll", "crane.tau_slew", "the system has no component named 'nobody'"),
    ("vessel.q9", "crane.tau_slew", "component vessel has no variable 'q9'"),
    ("vessel.q_roll", "crane.q_slew", "crane.q_slew is an output, not an input (two outputs are connected)"),
    ("vessel.q_roll", "crane.tau_slew", "joins mismatched units: rad to N.m"),
])
def test_bad_connections(capsys, system_file, start, end, fragment):
    def edit(s):
        s.connections = [c for c in s.connections if c.end_connector != "tau_slew"]
        s.connect(start, end)
    code, err = run_cli(capsys, system_file(edit))
    assert code == 2
    assert_one_sentence(err, f"connection {start} -> {end}", fragment)


def test_input_driven_twice(capsys, system_file):
    code, err = run_cli(capsys, system_file(lambda s: s.connect("controller.tau_boom", "crane.tau_slew")))
    assert code == 2
    assert_one_sentence(err, "input crane.tau_slew is driven by two connections")


@pytest.mark.parametrize("setting,fragment", [
    ("crane.m_king=-1", "Crane parameter m_king = -1 kg is invalid: it must be positive"),
    ("crane.l_boom=-2", "Crane parameter l_boom = -2 m is invalid: it must be positive"),
    ("vessel.m=0", "Vessel parameter m = 0 kg is invalid: it must be positive"),
])
@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_negative_mass_or_length(capsys, system_file, setting, fragment, mode):
    code, err = run_cli(capsys, system_file(), "--set", setting, *mode)
    assert code == 2
    assert_one_sentence(err, setting.split(".")[0], fragment)


@pytest.mark.parametrize("setting,fragment", [
    ("crane.nothing=1", "component crane (Crane.fmu) has no variable 'nothing'"),
    ("vessel.mass=1", "component vessel (Vessel.fmu) has no variable 'mass' (did you mean 'm'?)"),
    ("vesel.m=1", "has no component named 'vesel' (did you mean 'vessel'?)"),
    ("nobody.m=1", "has no component named 'nobody' (components: vessel, crane, controller)"),
    ("crane.m_king=heavy", "crane.m_king is a Real parameter; set it to a number, not 'heavy'"),
    ("crane.m_king", "is not of the form component.variable=value"),
])
def test_bad_set_options(capsys, system_file, setting, fragment):
    code, err = run_cli(capsys, system_file(), "--set", setting)
    assert code == 2
    assert_one_sentence(err, fragment)


@pytest.mark.parametrize("args,fragment", [
    (["--step", "0"], "the step size must be positive, got 0 s"),
    (["--step", "-0.001"], "the step size must be positive, got -0.001 s"),
    (["--stop-time", "-1"], "the stop time -1 s is not after the start time 0 s"),
    (["--stop-time", "0"], "the stop time 0 s is not after the start time 0 s"),
    (["--start-time", "2", "--stop-time", "1"], "the stop time 1 s is not after the start time 2 s"),
    (["--timeout", "0"], "--timeout 0.0 is not a positive number of seconds"),
])
def test_bad_step_or_stop_time(capsys, system_file, args, fragment):
    for mode in ([], ["--monolithic"]):
        code, err = run_cli(capsys, system_file(), *args, *mode)
        assert code == 2
        assert_one_sentence(err, fragment)


def test_a_run_past_its_timeout_stops_with_its_results_on_disk(capsys, system_file, tmp_path):
    """``--timeout 1`` on a run of 1000 s (some minutes of wall-clock
    time): it stops within the next look (at the start, then every 200
    steps, or every point of the monolithic run), exit 1, one sentence; the
    summary says it failed and where, the results up to there (the start
    at least: a loaded machine may take the second to instantiate) are on
    disk."""
    for mode in ([], ["--monolithic"]):
        out = tmp_path / f"timed_out{len(mode)}"
        start = time.monotonic()
        code, err = run_cli(capsys, system_file(), "--timeout", "1", "--stop-time", "1000", "--record-every", "100",
                            "--out", out, *mode)
        assert code == 1 and time.monotonic() - start < HUNG
        assert_one_sentence(err, "its --timeout of 1 s of wall-clock time ran out")
        summary = json.loads((out / "summary.json").read_text())
        t = read_results(out)["time"].to_numpy()
        assert summary["status"] == "failed" and len(t) >= 1 and t[-1] < 1000
        assert f"the run stopped at t = {t[-1]:g} s" in summary["error"]


def test_a_run_writes_its_results_also_where_the_user_says(capsys, system_file, tmp_path):
    """``--output-file``: a CSV with a units row, a MAT file with a struct
    per component, each the run's results.arrows to the digits it keeps;
    a suffix of no format refused before anything runs."""
    for name in ("r.csv", "r.mat"):
        out = tmp_path / name.replace(".", "_")
        code, err = run_cli(capsys, system_file(), "--stop-time", "0.05", "--out", out, "--output-file",
                            tmp_path / name)
        assert code == 0, err
        df = read_results(out)
        if name.endswith(".csv"):
            back = pd.read_csv(tmp_path / name, header=[0, 1])
            assert back.columns[0] == ("time", "s") and ("vessel.q_roll", "rad") in back.columns
            assert np.allclose(back[("vessel.q_roll", "rad")], df["vessel.q_roll"], rtol=1e-11, atol=0)
        else:
            mat = scipy.io.loadmat(tmp_path / name, simplify_cells=True)
            assert np.array_equal(mat["vessel"]["q_roll"], df["vessel.q_roll"].to_numpy())
            assert mat["units"]["vessel"]["q_roll"] == "rad"
    code, err = run_cli(capsys, system_file(), "--stop-time", "0.05", "--out", tmp_path / "x", "--output-file",
                        tmp_path / "r.xlsx")
    assert code == 2 and not (tmp_path / "x").exists()
    assert_one_sentence(err, f"--output-file {tmp_path / 'r.xlsx'}: the results are written as .csv, .parquet, "
                             f".mat files, not .xlsx")


def test_a_run_draws_the_variables_asked_for(capsys, system_file, tmp_path):
    """``--plot`` (with ``--no-plots``: only what is asked): the columns
    named or matched, an axes per unit, in plots/chosen.png; a name no
    column answers is one sentence and exit 2 after the run, its results
    kept."""
    out = tmp_path / "plotted"
    code, err = run_cli(capsys, system_file(), "--stop-time", "0.05", "--out", out, "--plot", "vessel.q_roll",
                        "crane.W_mount_f*")
    assert code == 0, err
    assert [p.name for p in (out / "plots").iterdir()] == ["chosen.png"]
    assert (out / "plots" / "chosen.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = tmp_path / "misnamed"
    code, err = run_cli(capsys, system_file(), "--stop-time", "0.05", "--out", out, "--plot", "vessel.roll")
    assert code == 2 and (out / "results.arrows").exists()
    assert "crane-cosim: error: --plot vessel.roll: the run recorded no such column (did you mean " \
           "'vessel.u_roll' or 'vessel.q_roll' or 'vessel.du_roll'?)" in err


def test_a_run_starts_at_the_start_time_given(capsys, system_file, tmp_path):
    """``--start-time 1 --stop-time 1.05`` at the 1 ms step: 51 rows from
    1 s to 1.05 s, co-simulated and monolithic, and summary.json says so."""
    for mode in ([], ["--monolithic"]):
        out = tmp_path / f"from_1s{len(mode)}"
        code, err = run_cli(capsys, system_file(), "--start-time", "1", "--stop-time", "1.05", "--out", out, *mode)
        assert code == 0, err
        t = read_results(out)["time"].to_numpy()
        assert len(t) == 51 and t[0] == 1.0 and t[-1] == pytest.approx(1.05, abs=1e-12)
        assert json.loads((out / "summary.json").read_text())["start_time"] == 1.0


NON_FINITE = (r"component (vessel|crane) (returned (nan|inf|-inf) for its output \w+|\(\w+\.fmu\) failed to step "
              r"from t = [\d.]+ s: \w+ \(\w+\): state [\w, ]+ is not finite after the step) ")


def test_non_finite_output_stops_and_keeps_results(capsys, system_file, tmp_path):
    """The explicit coupling on the light vessel blows up: the run stops at the
    first non-finite value, naming time, component and the variables (an
    output, or the states the step left non-finite); the rows up to then and
    a summary saying why are on disk."""
    out = tmp_path / "out"
    code = main(["run", str(system_file(vessel_mass=120.0)), "--coupling", "explicit", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert (out / "plots" / "interface_mount.png").exists()  # plots of what was computed
    said = [line for line in err.splitlines() if not line.startswith("writing the plots in ")]  # what goes on
    assert_one_sentence("\n".join(said), "t = 0.0", f"are in {out}")
    assert re.search(NON_FINITE, err), err
    df = read_results(out)
    assert len(df) > 5 and df["time"].iloc[-1] < 0.1
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "failed" and re.search(NON_FINITE, summary["error"])


def test_interrupt_keeps_results(system_file, tmp_path):
    """Ctrl-C: exit 130, results so far on disk, summary says interrupted."""
    out = tmp_path / "out"
    # long enough that the signal comes before the end (20 s run in about a second)
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "run", str(system_file(stop_time=200.0)),
                             "--out", str(out), "--no-plots"], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + HUNG
    while time.time() < deadline and rows_on_disk(out) < 100:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=HUNG)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    df = read_results(out)
    assert len(df) > 100
    assert json.loads((out / "summary.json").read_text())["status"] == "interrupted"


@pytest.mark.parametrize("setting,fragment", [
    ("boom_cylinder.beta=-1", "component boom_cylinder: HydraulicCylinder parameter beta = -1 Pa is invalid: "
                              "it must be positive"),
    ("jib_cylinder.bore=0", "HydraulicCylinder parameter bore = 0 m is invalid: it must be positive"),
    ("boom_cylinder.rod=0.4", "HydraulicCylinder parameter rod = 0.4 m is invalid: it must be smaller than the bore"),
    ("crane.stroke_boom_cyl=5", "KnuckleBoomCrane parameter stroke_boom_cyl = 5 m is invalid: the piston would leave its cylinder"),
    ("crane.q_jib_cyl_0=2", "KnuckleBoomCrane parameter q_jib_cyl_0 = 2 m is outside the stroke 0..1.8 m"),
    ("crane.l_boom_cyl_barrel=10", "the boom cylinder (joint 2) cannot close its loop over the whole stroke 0..1.8 m"),
    ("boom_cylinder.stroke=0.5", "component boom_cylinder (HydraulicCylinder.fmu) failed to return its outputs: HydraulicCylinder "
                               "(boom_cylinder): outputs at t = 0 s failed"),
])
@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_bad_hydraulic_crane_input(capsys, tmp_path, fmu_dir, setting, fragment, mode):
    """The knuckle boom crane with hydraulic cylinders on the vessel, given a
    geometry or hydraulics it cannot take."""
    from crane_cosim.scenarios import offshore_knuckle_boom
    ssd = write_ssd(offshore_knuckle_boom(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.01),
                    tmp_path / "system.ssd")
    code, err = run_cli(capsys, ssd, "--set", setting, *mode)
    # parameters are checked before the run, in either mode (2); a piston the
    # cylinder cannot hold is found at the first output, once the run has
    # started (1)
    assert code == (1 if "outputs" in fragment else 2)
    if mode:  # the monolithic run names the component without the FMU's wording
        fragment = "component boom_cylinder: outputs at t = 0 s failed" if "outputs" in fragment else fragment
    assert_one_sentence(err, setting.split(".")[0], fragment)


def test_demo_runs_the_offshore_knuckle_boom(capsys, tmp_path):
    """``crane-cosim demo`` builds the FMUs and runs the hydraulic knuckle boom
    crane on the vessel, writing its system file, results, plots and
    animation: 0.05 s
    at the example's default step, 5 ms (the iterated midpoint), is 11 rows
    (51 when it was Gauss-Seidel at 1 ms)."""
    assert main(["demo", "--out", str(tmp_path), "--stop-time", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "OffshoreKnuckleBoom.ssd" in out and (tmp_path / "OffshoreKnuckleBoom.ssd").is_file()
    df = read_results(tmp_path / "results")
    assert len(df) == 11 and "crane.W_mount_fz" in df.columns and "boom_cylinder.p_A" in df.columns
    assert "cylinders.png" in {p.name for p in (tmp_path / "results" / "plots").iterdir()}
    assert f"animation:   {tmp_path / 'results' / 'animation.html'}" in out
    assert (tmp_path / "results" / "animation.html").stat().st_size > 4e6  # plotly's JavaScript inside


def test_console_script_runs_and_reports_without_traceback(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "crane-cosim")
    proc = subprocess.run([exe, "run", str(tmp_path / "missing.ssd")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("crane-cosim: error: system file") and "Traceback" not in proc.stderr


def test_run_writes_results_summary_and_plots(capsys, system_file, tmp_path):
    out = tmp_path / "res"
    code = main(["run", str(system_file(stop_time=0.5)), "--out", str(out)])
    assert code == 0
    assert f"results in {out}" in capsys.readouterr().out
    df = read_results(out)
    assert df.columns[0] == "time" and "crane.W_mount_fz" in df.columns and "vessel.q_roll" in df.columns
    assert len(df) == 501
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "completed" and summary["real_time_factor"] > 0, summary
    assert {"numpy", "fmpy", "pythonfmu", "python"} <= set(summary["versions"])
    assert sorted(p.name for p in (out / "plots").iterdir()) == [
        "actuation.png", "boom_joint.png", "crane_joints.png", "interface_king.png", "interface_mount.png",
        "jib_joint.png", "vessel_motion.png"]


def test_run_animate_writes_the_page_and_animate_names_what_it_refuses(capsys, system_file, tmp_path):
    """``run --animate`` writes animation.html beside the plots, the crane of
    Cibicik & Egeland (2018) on its vessel drawn at 25 frames a second;
    ``animate`` refuses a format it does not write, in one sentence."""
    out = tmp_path / "res"
    assert main(["run", str(system_file(stop_time=0.2)), "--out", str(out), "--no-plots", "--animate"]) == 0
    page = (out / "animation.html").read_text()
    assert sorted(set(re.findall(r'"name":"(\d\.\d{3})"', page))) == ["0.000", "0.040", "0.080", "0.120", "0.160",
                                                                    "0.200"]
    for part in ("vessel hull", "king", "boom", "jib", "force on the crane"):
        assert f'"name":"{part}"' in page
    capsys.readouterr()
    assert main(["animate", str(out), "--out", str(tmp_path / "crane.avi")]) == 2
    assert capsys.readouterr().err.strip() == (f"crane-cosim: error: --out {tmp_path / 'crane.avi'}: an animation is "
                                               f"written as .html, .mp4, .gif, not .avi")
    assert main(["animate", str(out), "--out", str(tmp_path / "none" / "crane.mp4")]) == 2
    assert capsys.readouterr().err.strip() == (f"crane-cosim: error: --out {tmp_path / 'none' / 'crane.mp4'}: its "
                                               f"folder {tmp_path / 'none'} does not exist")
    (tmp_path / "crane.gif").mkdir()
    assert main(["animate", str(out), "--out", str(tmp_path / "crane.gif")]) == 2
    assert capsys.readouterr().err.strip() == (f"crane-cosim: error: --out {tmp_path / 'crane.gif'} is a folder; "
                                               f"name the animation's file")


def test_bench_json_records(capsys):
    """The benchmark command's records (speed itself is not tested here),
    for every scenario or those asked for."""
    from crane_cosim.scenarios import SCENARIOS
    assert main(["bench", "--json", "--stop-time", "0.05", "--repeat", "1"]) == 0
    captured = capsys.readouterr()
    records = json.loads(captured.out)  # stdout holds the JSON only
    assert [(r["scenario"], r["mode"]) for r in records] == [
        (s, m) for s in SCENARIOS for m in ("monolithic", "cosim")] + [(None, "floor")]
    # progress on stderr: what will run, then a line per scenario and mode
    progress = [l for l in captured.err.splitlines() if l.startswith("bench: ")]
    assert progress[0].startswith(f"bench: {len(SCENARIOS)} scenario(s), monolithic once and co-simulation 1 "
                                  f"time(s) each, 0.05 s simulated per run")
    assert [re.match(rf"bench: \[(\d+)/{2 * len(SCENARIOS) + 1}\] (\w+) (\w+): real-time factor [\d.]+ "
                     r"\(\d+ s so far\)$", l).groups()
            for l in progress[1:-1]] == [(str(i + 1), s, m) for i, (s, m) in enumerate(
                (s, m) for s in SCENARIOS for m in ("monolithic", "cosim"))]
    assert re.match(rf"bench: \[{2 * len(SCENARIOS) + 1}/{2 * len(SCENARIOS) + 1}\] floor of a Python FMU: "
                    r"[\d.]+ µs a step \(\d+ s so far\)$", progress[-1])
    # repeated: each repetition unpacks the FMUs anew (their binaries stay
    # loaded; unpacked over the loaded ones, the process crashed)
    assert main(["bench", "--json", "--stop-time", "0.05", "--repeat", "2", "--scenario", "knuckle_boom",
                 "--scenario", "crane_on_vessel"]) == 0
    records = json.loads(capsys.readouterr().out)
    floor = records.pop()
    assert [(r["scenario"], r["mode"]) for r in records] == [
        (s, m) for s in ("knuckle_boom", "crane_on_vessel") for m in ("monolithic", "cosim")]
    # both floors measured (which is the larger is the benchmark's to say, not a test's: under the
    # suite's load the two, 1 us apart on a quiet machine, have come out either way)
    assert floor["mode"] == "floor"
    assert all(0 < floor[f"{k}_us_per_step"] < 1e4 for k in ("pythonfmu", "adapter"))
    # each example at its own settings, as shipped (DEFAULTS in cosim/scenarios.py; the bench ran
    # every one by Gauss-Seidel at 1 ms before they became the iterated midpoint at 2-5 ms)
    own = {"knuckle_boom": ("iterated-midpoint", 0.005), "crane_on_vessel": ("iterated-midpoint", 0.002)}
    for r in records:
        assert {"scenario", "mode", "step", "rtf", "master_overhead_us"} <= set(r)
        assert r["step"] == own[r["scenario"]][1] and r["rtf"] > 0
        assert r["mode"] == "monolithic" or r["algorithm"] == own[r["scenario"]][0]
    for mono, cosim in (records[0:2], records[2:4]):
        assert mono["master_overhead_us"] is None
        assert 0 < cosim["master_overhead_us"] < cosim["master_us_per_step"]
        assert cosim["fmi_calls_us_per_step"] + cosim["master_overhead_us"] == pytest.approx(
            cosim["master_us_per_step"])
        # each component's share, and above the floor of a call into Python
        assert sum(cosim["fmu_us_per_step"].values()) == pytest.approx(cosim["fmi_calls_us_per_step"])
        assert min(cosim["fmu_us_per_step"].values()) > floor["pythonfmu_us_per_step"]
        # every component steps at least once a step (in halves and again where iterated)
        assert set(cosim["fmu_steps_per_step"]) == set(cosim["fmu_us_per_step"])
        assert min(cosim["fmu_steps_per_step"].values()) >= 1



# -- bad input a new user met in a trial -----------------------------------------------------------

def _demo(capsys, *args):
    code = main(["demo", *map(str, args)])
    return code, capsys.readouterr().err


def _build(capsys, *args):
    code = main(["build-fmus", *map(str, args)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("command", ["run", "run --monolithic", "build-fmus", "demo"])
def test_out_is_an_existing_file(capsys, system_file, tmp_path, command):
    afile = tmp_path / "afile"
    afile.write_text("results of last week")
    args = {"run": ["run", system_file(), "--no-plots"], "run --monolithic": ["run", system_file(), "--monolithic"],
            "build-fmus": ["build-fmus"], "demo": ["demo"]}[command]
    code = main([*map(str, args), "--out", str(afile)])
    assert code == 2
    assert_one_sentence(capsys.readouterr().err, f"--out {afile} is an existing file, not a folder")
    assert afile.read_text() == "results of last week"


@pytest.mark.parametrize("command", ["run", "run --monolithic", "build-fmus", "demo"])
def test_out_cannot_be_created(capsys, system_file, tmp_path, command):
    """A folder under a regular file (permissions would not stop root)."""
    (tmp_path / "afile").write_text("")
    out = tmp_path / "afile" / "sub"
    args = {"run": ["run", system_file(), "--no-plots"], "run --monolithic": ["run", system_file(), "--monolithic"],
            "build-fmus": ["build-fmus"], "demo": ["demo"]}[command]
    code = main([*map(str, args), "--out", str(out)])
    assert code == 2
    assert_one_sentence(capsys.readouterr().err, f"--out {out} cannot be created: {tmp_path / 'afile'} is a file, "
                                                 f"not a folder")


def test_results_folder_lost_after_the_check_is_one_sentence(capsys, monkeypatch, system_file, tmp_path):
    """The folder passes the check and is then blocked (another program, a
    full disk ...): still one sentence, naming the folder."""
    from crane_cosim.cli import runs
    out = tmp_path / "out"
    passed = []  # the command's check, where the command holds it, passes it
    monkeypatch.setattr(runs, "clear_folder", lambda *a, **k: passed.append(a[0]))
    (tmp_path / "out").write_text("")
    code, err = run_cli(capsys, system_file(stop_time=0.01), "--out", out)
    assert code == 2
    assert passed == [out]
    assert_one_sentence(err, f"--out {out} cannot be created: {out} is a file, not a folder")


@pytest.mark.parametrize("args,fragment", [
    (["--repeat", "0"], "--repeat must be a whole number of at least 1, got 0"),
    (["--repeat", "-2"], "--repeat must be a whole number of at least 1, got -2"),
    (["--stop-time", "0"], "--stop-time must be positive, got 0 s"),
    (["--stop-time", "-1"], "--stop-time must be positive, got -1 s"),
    # the examples run at their own steps, the longest 5 ms (the iterated midpoint's)
    (["--stop-time", "0.004"], "--stop-time 0.004 s is shorter than the examples' longest step, 0.005 s"),
])
def test_bad_bench_settings(capsys, monkeypatch, args, fragment):
    from crane_cosim.bench import rates as bench

    def started(*a, **k):
        raise AssertionError("a benchmark started")
    monkeypatch.setattr(bench, "prepare_fmus", started)  # refused before any benchmark runs
    assert main(["bench", "--json", *args]) == 2
    captured = capsys.readouterr()
    assert_one_sentence(captured.err, fragment)
    assert captured.out == ""


@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_step_longer_than_the_run(capsys, system_file, tmp_path, mode):
    """``--stop-time 1 --step 5`` once ran one 1 s step and recorded "step 5"."""
    code, err = run_cli(capsys, system_file(), "--stop-time", "1", "--step", "5", "--out", tmp_path / "out", *mode)
    assert code == 2
    assert_one_sentence(err, "the step 5 s is longer than the run (1 s, from 0 s to 1 s); choose a step of at "
                             "most 1 s or a later stop time")
    assert not (tmp_path / "out").exists()
    # a step of exactly the run's length is a run of one step
    code, err = run_cli(capsys, system_file(), "--stop-time", "0.01", "--step", "0.01", "--out", tmp_path / "one",
                        *mode)
    assert code == 0, err
    assert list(read_results(tmp_path / "one")["time"]) == [0.0, 0.01]


@pytest.mark.parametrize("stop,fragment", [
    ("-1", "the stop time -1 s is not after the start time 0 s"),
    ("0", "the stop time 0 s is not after the start time 0 s"),
    # the demo's example, the offshore knuckle boom, steps 5 ms by default (the iterated midpoint)
    ("0.0005", "--stop-time 0.0005 s is shorter than the example's step of 0.005 s"),
])
def test_demo_checks_stop_time_before_building(capsys, monkeypatch, tmp_path, stop, fragment):
    from crane_cosim.cli import runs

    def started(*a, **k):
        raise AssertionError("the demo started building")
    monkeypatch.setattr(runs, "build_all", started)  # where the demo holds it
    code, err = _demo(capsys, "--out", tmp_path / "demo", "--stop-time", stop)
    assert code == 2
    assert_one_sentence(err, fragment)
    assert not (tmp_path / "demo").exists()  # nothing built


@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_results_too_large_refused_unless_forced(capsys, monkeypatch, system_file, tmp_path, mode):
    """At a step so small results.arrows would grow to gigabytes, the run is
    refused before it starts, with the estimate and the options that help."""
    code, err = run_cli(capsys, system_file(stop_time=1.0), "--step", "1e-6", "--out", tmp_path / "huge", *mode)
    assert code == 2
    assert_one_sentence(err, "results.arrows would take about 848 MB (1000001 rows of 106 columns), more than the "
                             "limit of 200 MB: record every N-th point (--record-every N) or fewer variables "
                             "(--record 'component.variable'), take a longer --step, or write it all with --force")
    assert not (tmp_path / "huge").exists()
    # the options that shrink it: 1000001 rows / 1000 x 106 columns
    code, err = run_cli(capsys, system_file(stop_time=0.001), "--step", "1e-6", "--record-every", "100",
                        "--out", tmp_path / "thin", *mode)
    assert code == 0, err
    assert len(read_results(tmp_path / "thin")) == 11
    # --force: with a limit lowered to the size of a short run
    from crane_cosim.runtime import recording
    monkeypatch.setattr(recording, "SIZE_LIMIT", 1e4)
    code, err = run_cli(capsys, system_file(stop_time=0.05), "--out", tmp_path / "small", *mode)
    assert code == 2 and "more than the limit of 10 kB" in err
    code, err = run_cli(capsys, system_file(stop_time=0.05), "--out", tmp_path / "small", "--force", *mode)
    assert code == 0, err
    assert len(read_results(tmp_path / "small")) == 51


def test_large_results_warn(capsys, monkeypatch, system_file, tmp_path):
    from crane_cosim.runtime import recording
    monkeypatch.setattr(recording, "SIZE_WARNING", 1e4)
    code, err = run_cli(capsys, system_file(stop_time=0.05), "--out", tmp_path)
    assert code == 0
    lines = [l for l in err.splitlines() if l.strip()]
    assert lines == ["crane-cosim: warning: results.arrows will take about 75 kB (51 rows of 106 columns); "
                     "--record-every N and --record 'component.variable' write less"]


@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_record_options(capsys, system_file, tmp_path, mode):
    """``--record`` and ``--record-every``: the columns and rows asked for; a
    figure whose columns are not recorded is not drawn."""
    out = tmp_path / "out"
    code = main(["run", str(system_file(stop_time=0.1)), "--out", str(out), "--record", "crane.W_mount_*",
                 "--record", "*.q_roll", "--record-every", "30", *mode])
    assert code == 0, capsys.readouterr().err
    df = read_results(out)
    assert list(df.columns) == ["time", "vessel.q_roll"] + [f"crane.W_mount_{c}" for c in
                                                           ("nx", "ny", "nz", "fx", "fy", "fz")]
    assert np.allclose(df["time"], [0.0, 0.03, 0.06, 0.09, 0.1])
    assert sorted(p.name for p in (out / "plots").iterdir()) == ["interface_mount.png", "vessel_motion.png"]


@pytest.mark.parametrize("args,fragment", [
    (["--record", "crane.nothing*"], "the --record pattern 'crane.nothing*' matches no output of the system"),
    (["--record", "boat.q_roll"], "the --record pattern 'boat.q_roll' names no component of the system"),
    (["--record-every", "0"], "--record-every must be a whole number of at least 1, got 0"),
])
@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_bad_record_options(capsys, system_file, tmp_path, args, fragment, mode):
    code, err = run_cli(capsys, system_file(), "--out", tmp_path / "out", *args, *mode)
    assert code == 2
    assert_one_sentence(err, fragment)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_terminate_keeps_results(system_file, tmp_path, mode):
    """SIGTERM (kill, a batch system's time limit): exit 143, results so far
    on disk, down to the point the run stopped at even when recording every
    7th, their plots, and a summary saying terminated and when."""
    out = tmp_path / "out"
    # long enough that the signal comes before the end (20 s run in about a second)
    proc = subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "run", str(system_file(stop_time=200.0)),
                             "--out", str(out), "--record-every", "7", *mode], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + HUNG
    while time.time() < deadline and rows_on_disk(out) < 10:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=HUNG)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "crane-cosim: terminated (SIGTERM); the results computed so far are on disk"
    assert "Traceback" not in err
    df = read_results(out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "terminated", summary
    assert summary["error"] == f"terminated by SIGTERM at t = {summary['end_time']:g} s"
    assert 0 < summary["end_time"] < 200 and df["time"].iloc[-1] == pytest.approx(summary["end_time"], abs=1e-12)
    assert len(df) == summary["rows"] > 10
    assert (out / "plots" / "interface_mount.png").is_file()


# -- what a new user meets first: compiling the crane ----------------------------------------------

COMPILE_MESSAGE = "compiling the knuckle boom crane with numba (30 s to 1.5 min, once per machine; kept in "


def test_first_demo_says_it_compiles(capsys, monkeypatch, tmp_path):
    """A cold cache (the check answers "not compiled"): the demo says so
    between building and running, on stderr."""
    from crane_cosim.blocks import jit
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    assert main(["demo", "--out", str(tmp_path), "--stop-time", "0.01"]) == 0
    err = capsys.readouterr().err
    assert err.count(COMPILE_MESSAGE) == 2  # by the demo, then (the check still says cold) by the run


@pytest.mark.parametrize("args,told", [([], True), (["--no-compile"], False)])
def test_build_fmus_compiles_unless_asked_not_to(capsys, monkeypatch, tmp_path, args, told):
    from crane_cosim.blocks import jit
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    code, err = _build(capsys, "--out", tmp_path, *args)
    assert code == 0
    assert (COMPILE_MESSAGE in err) == told


def test_no_windows_without_portable_is_refused(capsys, tmp_path):
    """--no-windows is a choice about the portable FMUs' Windows binary: on
    its own it is refused in one sentence, and nothing is built."""
    code, err = _build(capsys, "--out", tmp_path, "--no-windows")
    assert code == 2
    assert err.strip().splitlines()[-1] == ("crane-cosim: error: --no-windows goes with --portable (the lean FMUs "
                                            "carry pythonfmu's Windows binary)")
    assert not list(tmp_path.glob("*.fmu"))


def test_a_warm_cache_says_nothing(capsys, tmp_path):
    import io
    from crane_cosim.blocks.warm_up import COMPILED_BLOCKS, warm_up
    warm_up(set(COMPILED_BLOCKS), stream=io.StringIO())  # every kernel is in the cache now, whatever it was
    code, err = _build(capsys, "--out", tmp_path)
    assert code == 0 and "compil" not in err


# -- files from strangers: one sentence, exit 2, nothing expanded, fetched or written outside ----------

def _hostile_crane(fmu_dir, tmp_path, name, data, fmu_name="Evil.fmu"):
    from hostile_files import replace_member
    return replace_member(fmu_dir / "Crane.fmu", tmp_path / fmu_name, name, data)


def _model_description(fmu_dir):
    return zipfile.ZipFile(fmu_dir / "Crane.fmu").read("modelDescription.xml").decode()


@pytest.mark.parametrize("attack", ["billion_laughs", "external_entity", "external_dtd", "passwd"])
def test_hostile_model_description(capsys, system_file, tmp_path, fmu_dir, attack):
    import hostile_files as h
    md = _model_description(fmu_dir)
    with h.listening_server() as (url, connections):
        text = {"billion_laughs": lambda: h.billion_laughs(md),
                "external_entity": lambda: h.external_entity(md, url),
                "external_dtd": lambda: h.external_dtd(md, url),
                "passwd": lambda: h.external_entity(md, "file:///etc/passwd")}[attack]()
        evil = _hostile_crane(fmu_dir, tmp_path, "modelDescription.xml", text)
        code, err = run_cli(capsys, system_file(_replace_source("crane", evil)))
        assert connections() == 0
    assert code == 2
    assert_one_sentence(err, f"the modelDescription.xml of FMU {evil} holds a document type declaration",
                        "refused so that no entity is expanded and nothing is fetched")


@pytest.mark.parametrize("entry,fragment", [
    ("../../evil.txt", "whose path climbs out of its folder with '..'"),
    ("/tmp/crane_cosim_evil.txt", "whose path is absolute"),
])
def test_fmu_that_writes_outside_its_folder(capsys, system_file, tmp_path, fmu_dir, entry, fragment):
    from hostile_files import tree
    evil = _hostile_crane(fmu_dir, tmp_path, entry, "owned")
    ssd = system_file(_replace_source("crane", evil))
    before = tree(tmp_path)
    code, err = run_cli(capsys, ssd)
    assert code == 2
    assert_one_sentence(err, f"FMU {evil} holds the entry {entry!r}, {fragment}")
    assert tree(tmp_path) == before
    assert not (tmp_path.parent / "evil.txt").exists() and not os.path.exists("/tmp/crane_cosim_evil.txt")


def test_fmu_zip_bomb(capsys, system_file, tmp_path, fmu_dir):
    evil = _hostile_crane(fmu_dir, tmp_path, "resources/zeros.bin", bytes(8 << 20))
    code, err = run_cli(capsys, system_file(_replace_source("crane", evil)))
    assert code == 2
    assert_one_sentence(err, f"FMU {evil} holds the entry 'resources/zeros.bin' compressed",
                        "beyond the limit of 1000:1 that guards against zip bombs")


def test_fmu_beyond_a_limit_raised_or_lowered_by_the_environment(capsys, system_file, tmp_path, fmu_dir,
                                                                 monkeypatch):
    ssd = system_file()
    monkeypatch.setenv("CRANE_COSIM_MAX_UNPACKED", "100KiB")
    code, err = run_cli(capsys, ssd, "--stop-time", "0.01")
    assert code == 2
    # every FMU of the system is over the limit: each named, one line each
    lines = err.strip().splitlines()
    assert lines[0].startswith("crane-cosim: error: system 'CraneOnVessel' does not fit together, 3 problems:")
    assert "Traceback" not in err and len(lines) == 4
    for fmu, line in zip(("Vessel", "Crane", "Controller"), lines[1:]):
        assert f"{fmu}.fmu unpacks to" in line and "more than the limit of 100 KiB" in line
        assert "CRANE_COSIM_MAX_UNPACKED" in line
    monkeypatch.setenv("CRANE_COSIM_MAX_UNPACKED", "1GiB")
    code, err = run_cli(capsys, ssd, "--stop-time", "0.01", "--out", str(tmp_path / "out"))
    assert code == 0, err


def test_fmu_with_a_model_identifier_that_is_a_path(capsys, system_file, tmp_path, fmu_dir):
    md = _model_description(fmu_dir)
    evil = _hostile_crane(fmu_dir, tmp_path, "modelDescription.xml",
                          md.replace('modelIdentifier="Crane"', 'modelIdentifier="../../../tmp/evil"'))
    code, err = run_cli(capsys, system_file(_replace_source("crane", evil)))
    assert code == 2
    assert_one_sentence(err, f"FMU {evil} declares the model identifier '../../../tmp/evil', which is not a C name")


# -- export and .ssp archives ---------------------------------------------------------------------

def test_export_then_run_the_archive_gives_the_same_numbers(capsys, system_file, tmp_path):
    """``run`` of the exported .ssp equals ``run`` of the .ssd: same FMUs,
    parameters, connections and experiment; results go next to the archive."""
    ssd = system_file(stop_time=0.2, edit=lambda s: [s.set_parameter(k, v) for k, v in
                                                     {"vessel.q_roll_0": 0.02, "crane.m_jib": 60.0}.items()])
    ssp = tmp_path / "shared" / "CraneOnVessel.ssp"
    assert main(["export", str(ssd), str(ssp)]) == 0
    assert f"CraneOnVessel: wrote {ssp}" in capsys.readouterr().out
    assert main(["run", str(ssd), "--no-plots", "--out", str(tmp_path / "from_ssd")]) == 0
    assert main(["run", str(ssp), "--no-plots"]) == 0
    assert f"results in {ssp.parent / 'results' / 'CraneOnVessel'}" in capsys.readouterr().out
    a = read_results(tmp_path / "from_ssd")
    b = read_results(ssp.parent / "results" / "CraneOnVessel")
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a["vessel.q_roll"].iloc[0] == 0.02


def test_export_accepts_an_archive_and_refuses_to_overwrite(capsys, system_file, tmp_path):
    ssp = tmp_path / "a.ssp"
    assert main(["export", str(system_file()), str(ssp)]) == 0
    again = tmp_path / "b.ssp"
    assert main(["export", str(ssp), str(again)]) == 0  # an archive in, the same archive out
    assert again.read_bytes() == ssp.read_bytes()
    capsys.readouterr()
    assert main(["export", str(ssp), str(again)]) == 2
    assert_one_sentence(capsys.readouterr().err, f"{again} already exists; pass --force to replace it")
    assert main(["export", str(ssp), str(again), "--force", "--set", "crane.m_jib=60"]) == 0
    from crane_cosim.ssp import open_system
    with open_system(again) as opened:
        assert opened.system.component("crane").parameters == {"m_jib": 60.0}
    assert main(["export", str(ssp), str(again), "--force", "--set", "crane.nothing=1"]) == 2
    assert_one_sentence(capsys.readouterr().err, "component crane (Crane.fmu) has no variable 'nothing'")


@pytest.mark.parametrize("out,fragment", [
    ("blocker/sub/x.ssp", "the folder {tmp}/blocker/sub for x.ssp cannot be created"),
    (".", "{out} is a folder; name the .ssp file to write"),
])
def test_export_to_a_place_that_cannot_hold_it(capsys, system_file, tmp_path, out, fragment):
    (tmp_path / "blocker").write_text("a file where a folder should be")
    out = tmp_path / out
    code = main(["export", str(system_file()), str(out)])
    assert code == 2
    assert_one_sentence(capsys.readouterr().err, fragment.format(tmp=tmp_path, out=out))


def test_hostile_archive_is_refused_before_anything_is_written(capsys, system_file, tmp_path):
    from hostile_files import replace_member, tree
    good = tmp_path / "good.ssp"
    assert main(["export", str(system_file()), str(good)]) == 0
    capsys.readouterr()
    for entry in ("../../evil.txt", "/tmp/crane_cosim_evil.txt"):
        evil = replace_member(good, tmp_path / "evil.ssp", entry, "owned")
        before = tree(tmp_path)
        code, err = run_cli(capsys, evil)
        assert code == 2
        assert_one_sentence(err, f"SSP archive {evil} holds the entry {entry!r}")
        assert tree(tmp_path) == before and not os.path.exists("/tmp/crane_cosim_evil.txt")


@pytest.mark.parametrize("where", ["ssd", "ssv"])
def test_hostile_xml_in_an_archive(capsys, system_file, tmp_path, where):
    import hostile_files as h
    good = tmp_path / "good.ssp"
    assert main(["export", str(system_file(edit=lambda s: s.set_parameter("vessel.q_roll_0", 0.01))), str(good)]) == 0
    name = "SystemStructure.ssd" if where == "ssd" else "resources/vessel.ssv"
    with h.listening_server() as (url, connections):
        text = h.external_entity(zipfile.ZipFile(good).read(name).decode(), url)
        evil = h.replace_member(good, tmp_path / "evil.ssp", name, text)
        code, err = run_cli(capsys, evil)
        assert connections() == 0
    assert code == 2
    what = f"system file {evil}/{name}" if where == "ssd" else f"parameter file {evil}/{name} of component vessel"
    assert_one_sentence(err, f"{what} holds a document type declaration", "nothing is fetched")


def test_hostile_xml_in_a_plain_ssd(capsys, system_file, tmp_path):
    import hostile_files as h
    ssd = system_file()
    ssd.write_text(h.billion_laughs(ssd.read_text()))
    code, err = run_cli(capsys, ssd)
    assert code == 2
    assert_one_sentence(err, f"system file {ssd} holds a document type declaration")


@pytest.mark.parametrize("setting,fragment", [
    ("friction.model_boom=coulomb", "JointFriction parameter model_boom = 'coulomb' is invalid: it must be one of "
                                    "'none', 'dahl', 'lugre'"),
    ("friction.mu_k_jib=0.3", "JointFriction parameter mu_k_jib = 0.3 is invalid: the kinetic coefficient must "
                              "not exceed the static one, mu_s_jib = 0.2"),
    ("friction.sigma0_slew=0", "JointFriction parameter sigma0_slew = 0 1/rad is invalid: it must be positive"),
    ("friction.d_boom=-0.03", "JointFriction parameter d_boom = -0.03 m is invalid: it must be positive"),
    ("friction.model_boom=2", "JointFriction parameter model_boom = '2' is invalid: it must be one of 'none', "
                              "'dahl', 'lugre'"),
])
@pytest.mark.parametrize("mode", [[], ["--monolithic"]])
def test_bad_friction_parameters(capsys, tmp_path, fmu_dir, setting, fragment, mode):
    """Friction laws and coefficients the block cannot take: one sentence
    naming the component and the parameter, exit status 2, nothing run."""
    from crane_cosim.scenarios import crane_on_vessel_friction
    ssd = write_ssd(crane_on_vessel_friction(base_dir=tmp_path, fmu_dir=str(fmu_dir)), tmp_path / "f.ssd")
    code, err = run_cli(capsys, ssd, "--set", setting, "--out", tmp_path / "out", *mode)
    assert code == 2
    assert_one_sentence(err, "friction", fragment)
