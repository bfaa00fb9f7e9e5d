"""Sweeps (``cosim/studies/sweep.py``): many cases of a system on a real Dask
cluster (a ``LocalCluster`` of worker processes, not a mock), each case a
run of its own; a failed case recorded with its reason, finished cases
skipped when the sweep runs again, nothing lost when a worker or the
sweep itself is killed."""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from crane_cosim.runtime import RunConfig
from crane_cosim.cli import main
from crane_cosim.ssp import write_ssd
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.studies.sampling import cases_of_sample
from crane_cosim.studies.sweep import cases_of_ranges, cases_of_table, sweep
from crane_cosim.files.folders import FolderBusy, refuse_busy
from crane_cosim.files.results import read_results
from limits import HUNG

STOP = "0.2"


@pytest.fixture
def system(fmu_dir, tmp_path):
    return write_ssd(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name), tmp_path / "CraneOnVessel.ssd")


@pytest.fixture(scope="module")
def scheduler():
    """The address of a cluster of two worker processes, shared by the
    tests of sweeps that only use it (each case runs in a process of its
    own, which the workers start: they keep nothing of a case); the
    tests of a cluster the sweep starts itself, of workers killed or
    patched, and of another Python's workers, start their own."""
    from dask.distributed import LocalCluster
    # its dashboard on a free port, leaving Dask's own to the others (None takes it)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def _summary(out):
    return pd.read_csv(out / "summary.csv")


def _cases(summary) -> str:
    """Each case's status and reason, for an assertion's message: a case
    that failed under load says why."""
    reasons = summary["reason"] if "reason" in summary else [""] * len(summary)
    cases = summary["case"] if "case" in summary else summary.index
    return "; ".join(f"{c}: {s} {'' if pd.isna(r) else r}".strip() for c, s, r in zip(cases, summary["status"], reasons))


def test_a_case_of_a_sweep_is_its_run_bit_for_bit(system, scheduler, tmp_path, capsys):
    """Two worker processes, four cases from a table: each case's results
    (Parquet) hold the values of ``crane-cosim run`` with the same
    settings, bit for bit, and the summary lists each case's values, status,
    wall time and the peaks of the wrench at the mount."""
    pd.DataFrame({"case": ["light", "heavy", "soft", "stiff"], "vessel.m": ["900", "1500", "1200", "1200"],
                  "vessel.k_roll": ["8e7", "8e7", "4e7", "1.6e8"]}).to_csv(tmp_path / "cases.csv", index=False)
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), str(tmp_path / "cases.csv"), "--out", str(out), "--scheduler", scheduler,
                 "--stop-time", STOP]) == 0
    summary = _summary(out)
    assert list(summary["case"]) == ["light", "heavy", "soft", "stiff"]
    assert set(summary["status"]) == {"completed"} and (summary["wall_s"] > 0).all(), _cases(summary)
    assert summary["peak_crane.W_mount_fz"].between(900, 1000).all()
    assert main(["run", str(system), "--out", str(tmp_path / "single"), "--no-plots", "--stop-time", STOP,
                 "--set", "vessel.m=1500", "--set", "vessel.k_roll=8e7"]) == 0
    single = read_results(tmp_path / "single")
    case = pd.read_parquet(out / "cases" / "heavy" / "results.parquet")
    assert list(case.columns) == list(single.columns)
    assert np.array_equal(case.to_numpy(), single.to_numpy())
    assert "4 of 4 cases completed" in capsys.readouterr().out


def test_ranges_make_the_product_of_cases():
    cases = cases_of_ranges(["waves.Hs=1,2,3", "waves.seed=1,2"])
    assert len(cases) == 6 and cases[-1] == ("case0006", {"waves.Hs": "3", "waves.seed": "2"})


def _one_sentence(err, *fragments):
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("crane-cosim: error: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def _unreadable_results_of(case):
    """Run in each worker: the results.arrows of ``case`` made unreadable (its
    schema overwritten: a file cut short is read up to the cut, not refused)
    just before the worker reads it, and
    the task of case0004 ending in an error of the worker's own."""
    def patch():
        import crane_cosim.studies.case as module
        convert = module._converted

        def converted(part):
            if part.name == f"{case}.part":
                with open(part / "results.arrows", "r+b") as f:
                    f.write(b"not an Arrow stream")
            return convert(part)
        module._converted = converted
        run_case = module.run_case

        def lost(system, name, *args):
            if name == "case0004":
                raise RuntimeError("the worker ran out of something")
            return run_case(system, name, *args)
        module.run_case = lost
    return patch


def test_a_failed_case_is_recorded_and_the_others_complete(system, tmp_path, capsys):
    """On a cluster of two workers, three cases with the explicit coupling
    by Gauss-Seidel (the iterated midpoint's quasi-Newton rounds solve the
    explicit coupling's loop at each point, and its light vessel runs):
    the light vessel (120 kg) diverges within 0.03 s and fails with its
    run's own sentence (from its summary.json, not read off its messages);
    the results of another cannot be read, and it fails with that said; the
    task of a fourth ends in an error on its worker, and it fails with that
    said; the first completes."""
    from dask.distributed import Client, LocalCluster
    out = tmp_path / "sweep"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(_unreadable_results_of("case0003"))
        code = main(["sweep", str(system), "--vary", "vessel.m=1200,120,1300,1400", "--out", str(out), "--stop-time", STOP,
                     "--coupling", "explicit", "--algorithm", "gauss-seidel", "--scheduler",
                     cluster.scheduler_address])
    assert code == 1
    summary = _summary(out).set_index("case")
    assert list(summary["status"]) == ["completed", "failed", "failed", "failed"], _cases(summary)
    reason = summary.loc["case0002", "reason"]
    # the first of the two FMUs that meets the diverged motion names it: in
    # an output read, or in its own state after a step
    assert reason.startswith(("component vessel (Vessel.fmu) failed to ", "component crane (Crane.fmu) failed to "))
    assert ("not a finite number" in reason or "is not finite after the step" in reason) \
        and "results up to" not in reason
    assert json.loads((out / "cases" / "case0002" / "summary.json").read_text())["error"] == reason
    assert summary.loc["case0003", "reason"].startswith("its results cannot be read or converted to Parquet (")
    assert summary.loc["case0004", "reason"] == ("its task on the cluster ended without a result (RuntimeError: the "
                                                 "worker ran out of something)")
    assert (out / "cases" / "case0001" / "results.parquet").exists()
    err = capsys.readouterr().err
    assert f"crane-cosim: case case0002 failed: {reason}" in err
    assert "crane-cosim: case case0003 failed: its results cannot be read" in err


def test_a_sampled_sweep_runs_the_designs_cases(system, scheduler, tmp_path):
    """``--sample lhs 2 --range``: the two cases of the Latin hypercube
    (``studies/sampling.py``) run, their values in the summary."""
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), "--sample", "lhs", "2", "--range", "vessel.m=1000,1400", "--sample-seed", "4",
                 "--out", str(out), "--stop-time", STOP, "--scheduler", scheduler]) == 0
    summary = _summary(out)
    assert list(summary["status"]) == ["completed"] * 2
    expected = [float(values["vessel.m"]) for _, values in cases_of_sample("lhs", 2, ["vessel.m=1000,1400"], 4)]
    assert summary["vessel.m"].tolist() == expected
    assert sorted(int((m - 1000) // 200) for m in expected) == [0, 1]


@pytest.mark.parametrize("args, sentence", [
    (["--range", "vessel.m=1,2", "--vary", "vessel.m=1"], "--range gives the ranges of a --sample design; without "
                                                          "one, use --vary"),
    (["--sample", "lhs", "2", "--vary", "vessel.m=1"], "give the cases as a table (CASES.csv), as --vary ranges or "
                                                       "as a --sample design, one of the three"),
    (["--sample", "lhs", "two", "--range", "vessel.m=1,2"], "--sample lhs two: the number of cases must be a whole "
                                                            "number"),
])
def test_a_sampled_sweep_asked_wrongly_is_one_sentence(system, tmp_path, capsys, args, sentence):
    assert main(["sweep", str(system), *args, "--out", str(tmp_path / "s"), "--stop-time", STOP]) == 2
    assert capsys.readouterr().err.strip() == f"crane-cosim: error: {sentence}"


def test_a_case_the_system_cannot_run_is_named_before_the_cluster_starts(system, tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), "--vary", "vessel.m=1200,-5", "--out", str(out), "--stop-time", STOP]) == 2
    assert capsys.readouterr().err.strip() == ("crane-cosim: error: case case0002: component vessel: Vessel "
                                               "parameter m = -5 kg is invalid: it must be positive")
    assert not out.exists()


def test_a_sweep_run_again_skips_the_finished_cases(system, scheduler, tmp_path):
    out = tmp_path / "sweep"
    cases = cases_of_ranges(["vessel.m=1000,1100,1200"])
    sweep(system, cases[:2], out, RunConfig(stop_time=float(STOP)), scheduler=scheduler, progress=False)
    before = {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in ("case0001", "case0002")}
    summary = sweep(system, cases, out, RunConfig(stop_time=float(STOP)), scheduler=scheduler, progress=False)
    assert list(summary["status"]) == ["completed"] * 3, _cases(summary)
    assert before == {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in before}


def test_a_sweep_run_again_is_the_same_sweep_or_refused(system, scheduler, tmp_path, capsys, monkeypatch):
    """Into the folder of a sweep: other values or other options are refused
    in one sentence (exit 2) and nothing in it changes; the same sweep skips
    its cases (no cluster, no run); --force clears the cases and runs anew,
    with the new values and options."""
    out = tmp_path / "sweep"

    def sweep_cli(system, out, *args):
        return main(["sweep", str(system), "--out", str(out), "--scheduler", scheduler, *args])

    assert sweep_cli(system, out, "--vary", "vessel.m=1200,2400", "--stop-time", "0.2") == 0
    mtimes = {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in ("case0001", "case0002")}
    capsys.readouterr()
    for args, fragment in [
            (("--vary", "vessel.m=1200,3600", "--stop-time", "0.2"),
             f"--out {out} holds case case0002 with other values (vessel.m = 2400 there, 3600 here); give another "
             f"folder, or --force to clear its cases and run anew"),
            (("--vary", "vessel.m=1200,2400", "--stop-time", "0.3"),
             f"--out {out} holds a sweep of other options (--stop-time 0.2 there, 0.3 here)"),
            (("--vary", "vessel.m=1200,2400", "--stop-time", "0.2", "--coupling", "explicit"),
             "holds a sweep of other options (--coupling not given there, explicit here)"),
            (("--vary", "vessel.m=1200", "--stop-time", "0.2"),
             f"--out {out} holds case case0002, which this sweep does not have")]:
        assert sweep_cli(system, out, *args) == 2
        _one_sentence(capsys.readouterr().err, fragment)
    from crane_cosim.studies import sweep as sweep_module
    with monkeypatch.context() as m:
        def connect(*a, **k):
            raise AssertionError("a cluster was started")
        m.setattr(sweep_module, "_connect", connect)  # no cluster started, no case run
        assert sweep_cli(system, out, "--vary", "vessel.m=1200,2400", "--stop-time", "0.2") == 0
    assert mtimes == {n: (out / "cases" / n / "case.json").stat().st_mtime_ns for n in mtimes}
    assert "2 of 2 cases completed" in capsys.readouterr().out
    assert sweep_cli(system, out, "--vary", "vessel.m=1200,3600", "--stop-time", "0.3", "--force") == 0
    summary = _summary(out)
    assert list(summary["vessel.m"]) == [1200, 3600] and set(summary["status"]) == {"completed"}, _cases(summary)
    case = pd.read_parquet(out / "cases" / "case0002" / "results.parquet")
    assert case["time"].iloc[-1] == pytest.approx(0.3)
    assert json.loads((out / "cases" / "case0002" / "config.json").read_text())["values"] == {"vessel.m": "3600"}


def test_a_sweep_with_a_scenario_knows_its_contents(system, scheduler, tmp_path, capsys):
    """A sweep's cases act out its scenario (their summaries say so), and a
    sweep run again after the scenario file's contents changed is refused,
    not taken for the same sweep."""
    scenario = tmp_path / "scenario.json"
    scenario.write_text('{"events": [{"time": 0.1, "model": "vessel", "variable": "m", "action": "override", '
                        '"value": 1300.0}]}')
    out = tmp_path / "sweep"
    args = ["sweep", str(system), "--out", str(out), "--scheduler", scheduler, "--vary", "controller.kP_boom=3e4,4e4",
            "--stop-time", "0.2", "--scenario", str(scenario)]
    assert main(args) == 2   # vessel.m is a fixed parameter: named before anything runs
    assert "changes vessel.m, fixed parameter, which may not change during a run" in capsys.readouterr().err
    scenario.write_text('{"events": [{"time": 0.1, "model": "controller", "variable": "kD_boom", '
                        '"action": "override", "value": 7000.0}]}')
    assert main(args) == 0
    applied = json.loads((out / "cases" / "case0002" / "summary.json").read_text())["scenario"]["applied"]
    assert applied == [{"time": pytest.approx(0.1), "event": "controller.kD_boom override 7000 at t = 0.1 s"}]
    scenario.write_text(scenario.read_text().replace("7000.0", "8000.0"))
    capsys.readouterr()
    assert main(args) == 2
    _one_sentence(capsys.readouterr().err, "holds a sweep of other options (the contents of the --scenario file "
                                           "changed)")


@pytest.mark.parametrize("text, fragment", [
    ("case,vessel.mm\na,3\n", "case a: component vessel (Vessel.fmu) has no variable 'mm'"),
    ("case,ship.m\na,3\n", "case a: system 'CraneOnVessel' has no component named 'ship'"),
    ("case,vessel.m\na,heavy\n", "case a: vessel.m is a Real parameter; set it to a number, not 'heavy'"),
    ("case,mass\na,3\n", "needs columns named component.variable (and optionally 'case'); 'mass' is not"),
    ("case,vessel.m,vessel.m\na,3,4\n", "has the column 'vessel.m' twice"),
    ("case\na\n", "has no column named component.variable"),
])
def test_a_bad_case_is_named_before_the_cluster_starts(system, tmp_path, capsys, text, fragment):
    (tmp_path / "cases.csv").write_text(text)
    out = tmp_path / "sweep"
    assert main(["sweep", str(system), str(tmp_path / "cases.csv"), "--out", str(out), "--stop-time", STOP]) == 2
    _one_sentence(capsys.readouterr().err, fragment)
    assert not out.exists()


def test_a_folder_or_a_cluster_that_cannot_be_is_one_sentence(system, tmp_path, capsys):
    """--out a file, --out where nothing can be created (/proc), a scheduler
    nobody answers at: one sentence each, exit 2, nothing run."""
    import dask
    # distributed's defaults registered before the setting below: a first
    # import inside it would put them under a key that the setting, ending,
    # deletes whole (a later cluster in this process then fails on
    # KeyError: 'distributed')
    import distributed  # noqa: F401
    afile = tmp_path / "afile"
    afile.write_text("last week's notes")
    for out, fragment in [(afile, f"--out {afile} is an existing file, not a folder"),
                          (afile / "sub", f"--out {afile / 'sub'} cannot be created: {afile} is a file"),
                          ("/proc/crane-cosim-sweep", "--out /proc/crane-cosim-sweep cannot be created")]:
        assert main(["sweep", str(system), "--vary", "vessel.m=1200", "--out", str(out), "--stop-time", STOP]) == 2
        _one_sentence(capsys.readouterr().err, fragment)
    assert afile.read_text() == "last week's notes"
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        for address in ("tcp://127.0.0.1:1", "nowhere"):
            assert main(["sweep", str(system), "--vary", "vessel.m=1200", "--out", str(tmp_path / "s"),
                         "--stop-time", STOP, "--scheduler", address]) == 2
            _one_sentence(capsys.readouterr().err, f"the Dask scheduler {address} cannot be reached: ")
    assert not (tmp_path / "s").exists()  # a refused sweep leaves no folder behind


def test_the_sweep_page_s_commands_name_what_their_systems_have(fmu_dir, tmp_path):
    """Every ``crane-cosim sweep`` command of docs/sweeps.md, read by the
    command's own parser: its system exists, and each case it makes sets
    variables its system has, to values they take (the check a sweep makes
    before its cluster starts; the system's FMUs built for the test)."""
    import re
    import shlex
    import shutil
    from crane_cosim.cli.options import run_config
    from crane_cosim.cli.parser import parser
    from crane_cosim.ssp import find_ssd, read_ssd
    from crane_cosim.studies.sweep import check_cases
    root = Path(__file__).resolve().parents[2]
    commands = re.findall(r"^ {4}(crane-cosim sweep .*)$", (root / "docs" / "sweeps.md").read_text(), re.M)
    assert len(commands) >= 2
    for command in commands:
        args = parser("").parse_args(shlex.split(command)[1:])
        ssd = find_ssd(root / args.system)
        copy = tmp_path / args.system.name
        copy.mkdir(exist_ok=True)
        shutil.copy(ssd, copy / ssd.name)
        if not (copy / "fmus").exists():
            (copy / "fmus").symlink_to(fmu_dir)
        cases = cases_of_table(root / args.cases) if args.cases else cases_of_ranges(args.vary)
        check_cases(read_ssd(copy / ssd.name), cases, run_config(args))


def _other_python(folder):
    """A Python environment of its own at ``folder`` (its own executable
    path, the test's packages): FMUs built by the test's Python are stale
    for it."""
    env = Path(folder)
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").symlink_to(os.path.realpath(sys.executable))
    (env / "pyvenv.cfg").write_text((Path(sys.prefix) / "pyvenv.cfg").read_text())
    (env / "lib").symlink_to(Path(sys.prefix) / "lib")
    return env / "bin" / "python"


def test_workers_of_another_python_build_the_fmus_once_for_it(system, fmu_dir, tmp_path):
    """Two workers (dask's own worker command) run by another Python than
    the sweep's: the FMUs are built once for that Python, beside the cases,
    never into the system's folder, and every case runs with them."""
    from dask.distributed import Client, LocalCluster
    python = _other_python(tmp_path / "env")
    before = {f.name: f.read_bytes() for f in fmu_dir.glob("*.fmu")}
    out = tmp_path / "sweep"
    with LocalCluster(n_workers=0, dashboard_address=None) as cluster, Client(cluster) as client:
        workers = subprocess.Popen([str(python), "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                    "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            client.wait_for_workers(2, timeout=HUNG)
            assert set(client.run(lambda: sys.executable).values()) == {str(python)}
            summary = sweep(system, cases_of_ranges(["vessel.m=1000,1100"]), out,
                            RunConfig(stop_time=float(STOP)), scheduler=cluster.scheduler_address, progress=False)
        finally:
            workers.terminate()
            workers.wait(timeout=HUNG)
    assert list(summary["status"]) == ["completed"] * 2, list(summary["reason"])
    assert {f.name: f.read_bytes() for f in fmu_dir.glob("*.fmu")} == before
    [own] = list((out / "fmus").glob("*/built.txt"))
    built = [line.split()[1] for line in own.read_text().splitlines()]
    assert sorted(built) == ["Controller.fmu", "Crane.fmu", "Vessel.fmu"]
    for case in ("case0001", "case0002"):  # both run at once, by either worker: one build between them
        sources = json.loads((out / "cases" / case / "summary.json").read_text())["components"]
        assert {Path(c["source"]).parent for c in sources.values()} == {own.parent}


def test_a_killed_worker_loses_no_case(system, tmp_path):
    """Two workers of a real scheduler; one is killed (SIGKILL) while it runs
    a case: Dask runs that case again on a worker, and every case completes
    with its results; no case folder is left half-written."""
    from dask.distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    out = tmp_path / "sweep"
    cases = cases_of_ranges(["vessel.m=1000,1100,1200"])
    result = {}
    runner = threading.Thread(target=lambda: result.update(summary=sweep(
        system, cases, out, RunConfig(stop_time=1.0), scheduler=cluster.scheduler_address, progress=False)))
    runner.start()
    try:
        deadline = time.time() + HUNG
        while not list((out / "cases").glob("*.part")) and time.time() < deadline:
            time.sleep(0.05)
        pids = client.run(os.getpid)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        runner.join(timeout=HUNG)
    finally:
        client.close()
        cluster.close()
    summary = result["summary"]
    assert list(summary["status"]) == ["completed"] * 3, _cases(summary)
    assert all((out / "cases" / n / "results.parquet").exists() for n, _ in cases)
    assert not list((out / "cases").glob("*.part"))


def test_an_interrupted_sweep_resumes_to_a_complete_table(system, tmp_path):
    """The sweep command stopped (SIGTERM) once its first case has ended:
    the summary lists the finished cases and the others as pending (while
    it ran, its folder was claimed: another sweep is refused there); the
    same command again completes the rest, and the summary and every case
    folder are complete."""
    out = tmp_path / "sweep"
    command = [sys.executable, "-m", "crane_cosim.cli", "sweep", str(system), "--vary", "vessel.m=1000,1100,1200",
               "--out", str(out), "--workers", "1", "--stop-time", "1.0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + HUNG
    while time.time() < deadline:
        if (out / "summary.csv").exists() and "completed" in set(_summary(out)["status"]):
            break
        time.sleep(0.1)
    # the folder is the running sweep's: another sweep into it is refused
    with pytest.raises(FolderBusy, match=f"is being written by another run \\(pid {proc.pid}\\)"):
        refuse_busy(out, "--out")
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=HUNG)
    first = _summary(out)
    assert "completed" in set(first["status"]) and {"completed"} != set(first["status"]), _cases(first)
    done = set(first[first["status"] == "completed"]["case"])
    assert subprocess.run(command, capture_output=True, timeout=HUNG).returncode == 0
    summary = _summary(out)
    assert list(summary["status"]) == ["completed"] * 3, _cases(summary)
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


@pytest.mark.parametrize("example", ["fatigue_study", "hydro_vessel"])
def test_the_fatigue_study_examples_are_consistent(example):
    """examples/fatigue_study and the same study on the barge: the scatter
    table points at every case of the cases table, once, with probabilities
    summing to 1, and the README's command names both tables."""
    from pathlib import Path
    folder = Path(__file__).resolve().parents[2] / "examples" / example
    cases = cases_of_table(folder / "cases.csv")
    scatter = pd.read_csv(folder / "scatter.csv")
    assert [Path(c).name for c in scatter["case"]] == [name for name, _ in cases]
    assert all(c.startswith("results/sweep/cases/") for c in scatter["case"])
    assert scatter["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    readme = (folder / "README.md").read_text()
    assert (f"crane-cosim sweep examples/{example} examples/{example}/cases.csv && crane-cosim fatigue "
            f"examples/{example}/scatter.csv") in readme


def test_the_barge_study_is_the_spring_vessels_study():
    """The DELs of the barge and of the spring vessel compared in
    examples/hydro_vessel come from the same sea states, seeds and scatter
    diagram: the barge's cases set on the vessel what the spring vessel's
    set on its Waves component, case by case."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "examples"
    spring, barge = (cases_of_table(root / f / "cases.csv") for f in ("fatigue_study", "hydro_vessel"))
    assert barge == [(name, {k.replace("waves.", "vessel."): v for k, v in values.items()}) for name, values in spring]
    assert pd.read_csv(root / "hydro_vessel" / "scatter.csv").equals(pd.read_csv(root / "fatigue_study" / "scatter.csv"))


@pytest.mark.parametrize("text", ["case;waves.Hs;waves.seed\na;1.5;3\nb;2;4\n",
                                  "case\twaves.Hs\twaves.seed\na\t1.5\t3\nb\t2\t4\n",
                                  "case,waves.Hs,waves.seed\na,1.5,3\nb,2,4\n"])
def test_a_cases_table_separated_by_semicolons_or_tabs_is_read_as_such(tmp_path, text):
    """A table separated by ';' (as a spreadsheet in a decimal-comma locale
    writes it) or by tabs has its columns, not one column named
    'case;waves.Hs;waves.seed'."""
    (tmp_path / "cases.csv").write_text(text)
    assert cases_of_table(tmp_path / "cases.csv") == [("a", {"waves.Hs": "1.5", "waves.seed": "3"}),
                                                      ("b", {"waves.Hs": "2", "waves.seed": "4"})]


@pytest.mark.parametrize("text, message", [
    ("case;waves.Hs\na;1,5\n", "the cases table {}, separated by ';', gives waves.Hs of a as '1,5': write numbers "
                               "with a decimal point (e.g. 1.5)"),
    ("waves.Hs;waves.Tp\n2;8,25\n", "the cases table {}, separated by ';', gives waves.Tp of row 2 as '8,25': "
                                    "write numbers with a decimal point (e.g. 8.25)"),
    ("case;waves.Hs,waves.Tp\na;1\n", "the header of the cases table {} holds both ',' and ';': separate its "
                                      "columns by one of them only"),
])
def test_a_decimal_comma_or_two_separators_is_refused_by_name(tmp_path, text, message):
    """A decimal comma in a table separated by ';' is refused, naming the
    case and column, rather than read as text or guessed at."""
    from crane_cosim.errors import CraneCosimError
    path = tmp_path / "cases.csv"
    path.write_text(text)
    with pytest.raises(CraneCosimError) as refused:
        cases_of_table(path)
    assert str(refused.value) == message.format(path)


def test_a_sweep_beside_another_clusters_dashboard_says_nothing_of_it(system, tmp_path, capsys):
    """Another Dask cluster holding port 8787 (Dask's dashboard's): the
    local sweep's scheduler takes a free port, without a word of it."""
    with socket.socket() as held:
        try:
            held.bind(("", 8787))
            held.listen()
        except OSError:
            pass  # another cluster holds it already
        assert main(["sweep", str(system), "--vary", "vessel.m=1200", "--out", str(tmp_path / "s"),
                     "--workers", "1", "--stop-time", STOP]) == 0
    assert "8787" not in capsys.readouterr().err
