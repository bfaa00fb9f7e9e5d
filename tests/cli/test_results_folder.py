"""A results folder holds one run's files: a folder holding an earlier run is
refused in one sentence (exit 2) before anything runs, unless ``--force``,
which removes that run's files first; the system's own default folder holds
its latest run.  Bad folders and files of the other commands are one
sentence and exit 2, never an internal error (exit 3)."""
import json
import subprocess
import sys
import zipfile

import pytest
from folder_holder import holding

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import run_cosim
from crane_cosim.ssp import write_ssd
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.files.results import read_results
from limits import HUNG


@pytest.fixture
def ssd(tmp_path, fmu_dir):
    """The crane on the vessel by Gauss-Seidel at 1 ms (the rows these tests count)."""
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.05, step=1e-3,
                             algorithm="gauss-seidel")
    return write_ssd(system, tmp_path / "s.ssd")


def one_sentence(capsys, *fragments):
    err = capsys.readouterr().err
    lines = [line for line in err.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("crane-cosim: error: "), err
    for f in fragments:
        assert f in lines[0], err
    return lines[0]


def test_a_folder_holding_a_run_is_refused_and_replaced_with_force(capsys, tmp_path, ssd):
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--out", str(out)]) == 0
    assert (out / "plots").is_dir()
    before = (out / "results.arrows").read_bytes()
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()   # the first run's words
    # a second run into it is refused before anything runs: nothing changes
    assert main(["run", str(ssd), "--out", str(out), "--stop-time", "0.03", "--no-plots"]) == 2
    one_sentence(capsys, f"--out {out} holds an earlier run (results.arrows, summary.json, plots)", "--force")
    assert (out / "results.arrows").read_bytes() == before
    # with --force the earlier run's files go first: no plots of the other run beside the new rows
    assert main(["run", str(ssd), "--out", str(out), "--stop-time", "0.03", "--no-plots", "--force"]) == 0
    assert not (out / "plots").exists() and (out / "notes.txt").read_text() == "mine"
    assert len(read_results(out)) == 31
    assert json.loads((out / "summary.json").read_text())["stop_time"] == 0.03


def test_a_failed_run_with_force_leaves_only_its_own_files(capsys, tmp_path, ssd):
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--out", str(out), "--estimate", "--stop-time", "0.02"]) == 0
    assert (out / "coupling_error.csv").is_file() and (out / "plots").is_dir()
    code = main(["run", str(ssd), "--out", str(out), "--stop-time", "1", "--no-plots", "--force",
                 "--coupling", "explicit", "--set", "vessel.m=120"])
    capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text())
    assert code == 1 and summary["status"] == "failed"
    assert sorted(p.name for p in out.iterdir()) == ["results.arrows", "summary.json"]


def test_the_default_folder_holds_the_latest_run(capsys, tmp_path, ssd):
    assert main(["run", str(ssd), "--no-plots"]) == 0
    assert main(["run", str(ssd), "--no-plots", "--stop-time", "0.02"]) == 0
    results = tmp_path / "results" / "CraneOnVessel"
    assert len(read_results(results)) == 21


def test_the_api_refuses_a_folder_holding_a_run(tmp_path, fmu_dir):
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.02)
    run_cosim(system, tmp_path / "r", progress=False)
    # the sentence names what a Python caller passes, not the command line's flag
    with pytest.raises(CraneCosimError, match="holds an earlier run") as refused:
        run_cosim(system, tmp_path / "r", progress=False)
    assert "or replace_run=True to replace that run" in str(refused.value) and "--force" not in str(refused.value)
    assert run_cosim(system, tmp_path / "r", progress=False, replace_run=True).status == "completed"


def test_a_connector_declared_in_another_unit_is_a_problem(capsys, tmp_path, ssd):
    text = ssd.read_text()
    needle = '<ssd:Connector name="mount_v_x" kind="input">\n            <ssc:Real unit="m/s" />'
    assert text.count(needle) == 1
    ssd.write_text(text.replace(needle, needle.replace("m/s", "rad/s")))
    assert main(["check", str(ssd)]) == 2
    err = capsys.readouterr().err
    assert "the system file declares crane.mount_v_x in rad/s; Crane.fmu says m/s" in err
    ssd.write_text(text.replace(needle, needle.replace('kind="input"', 'kind="output"')))
    assert main(["check", str(ssd)]) == 2
    assert "the system file declares crane.mount_v_x as an output; Crane.fmu says an input" in capsys.readouterr().err


@pytest.mark.parametrize("content,fragment", [
    (b"", "is not a zip archive (it is empty)"),
    (b"a system, I promise\n", "is not a zip archive (it holds text)"),
    (b"<?xml version='1.0'?><ssd:SystemStructureDescription/>", "(it holds XML: an .ssd file named .ssp?)"),
    (None, "(it begins as one but its end is missing: the file is truncated)"),
])
def test_an_ssp_that_is_not_an_archive_is_named(capsys, tmp_path, ssd, content, fragment):
    bad = tmp_path / "bad.ssp"
    if content is None:  # a real archive cut short
        with zipfile.ZipFile(tmp_path / "whole.ssp", "w") as z:
            z.write(ssd, "SystemStructure.ssd")
        content = (tmp_path / "whole.ssp").read_bytes()[:200]
    bad.write_bytes(content)
    assert main(["check", str(bad)]) == 2
    one_sentence(capsys, f"SSP archive {bad} ", fragment)


def test_bad_folders_and_files_of_every_command(capsys, tmp_path, ssd):
    a_file = tmp_path / "a_file"
    a_file.write_text("x")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    run = tmp_path / "run"
    assert main(["run", str(ssd), "--out", str(run), "--no-plots"]) == 0
    capsys.readouterr()  # that run's own words (on a cold cache, the compiled step's compilation) not the cases'
    (tmp_path / "blank").mkdir()
    (tmp_path / "blank" / "results.csv").write_text("")   # an earlier version's
    (tmp_path / "cut").mkdir()
    (tmp_path / "cut" / "results.arrows").write_bytes(b"")   # a run killed before its first write
    cases = [
        (["run", str(ssd), "--stop-time", "inf"], "--stop-time inf is not a finite number of seconds"),
        (["run", str(ssd), "--step", "nan"], "--step nan is not a finite number of seconds"),
        (["run", str(ssd), "--replace", f"vessel={tmp_path}"], "is a folder; give the .fmu file"),
        (["fatigue", str(empty)], f"the scatter table {empty} is empty"),
        (["fatigue", str(tmp_path / "blank")], "is empty"),
        (["fatigue", str(tmp_path / "cut")], f"the results {tmp_path / 'cut' / 'results.arrows'} is empty"),
        (["export-results", str(tmp_path / "cut")], f"the results {tmp_path / 'cut' / 'results.arrows'} is empty"),
        (["export-results", str(a_file)], f"the results {a_file} is not an Arrow IPC stream"),
        (["export-results", str(tmp_path / "empty_folder")], f"{tmp_path / 'empty_folder'} does not exist"),
        (["export-results", str(run), "--out", str(tmp_path)], f"the export {tmp_path} is an existing folder"),
        (["export-results", str(run), "--out", "/proc/crane-cosim/x.csv"], "/proc/crane-cosim is not a folder"),
        (["fatigue", str(run), "--out", str(a_file)], f"{a_file} is an existing file, not a folder"),
        (["fatigue", str(run), "--out", "/proc/crane-cosim"], "/proc/crane-cosim cannot be written"),
        (["build-fmus", "--out", "/proc/crane-cosim"], "--out /proc/crane-cosim cannot be written"),
        (["build-fmus", "--out", str(a_file)], "is an existing file, not a folder"),
    ]
    for argv, fragment in cases:
        assert main(argv + (["--no-plots"] if argv[0] == "run" else [])) == 2, argv
        one_sentence(capsys, fragment)


def test_a_folder_another_run_is_writing_is_refused_untouched(capsys, tmp_path, ssd, fmu_dir):
    """A second process holds the claim of the folder (as a run does while
    it writes): a run into it, even with --force, is one sentence naming the
    folder and the process, exit 2, and leaves the first's files as they
    are; so is a run from Python with replace_run=True."""
    out = tmp_path / "out"
    first = holding(out)
    try:
        assert main(["run", str(ssd), "--out", str(out), "--force", "--no-plots"]) == 2
        one_sentence(capsys, f"--out {out} is being written by another run (pid {first.pid})")
        system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.02)
        with pytest.raises(CraneCosimError, match=f"another run \\(pid {first.pid}\\)"):
            run_cosim(system, out, progress=False, replace_run=True)
        assert (out / "results.arrows").read_text() == "the first run's"
        assert sorted(p.name for p in out.iterdir()) == [".crane_cosim.lock", "results.arrows"]
    finally:
        first.stdin.close()
        first.wait()


def _private_mounts() -> bool:
    """Whether this process may mount a file system in a mount namespace of
    its own (root, unshare)."""
    try:
        return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0
    except OSError:
        return False


@pytest.mark.skipif(not _private_mounts(), reason="mounting a small file system needs root and unshare -m")
def test_a_disk_that_fills_during_a_run_is_one_sentence_and_keeps_what_was_written(tmp_path, ssd):
    """The results folder on a 6 MB file system of its own (tmpfs, in a
    mount namespace of the test's run only): its first batch (about 4 MB at
    1 ms) fits, the second does not.  Exit 1, one sentence naming the
    folder and the full disk; the rows of the first batch readable,
    summary.json written (status failed), no plot begun."""
    disk, kept = tmp_path / "disk", tmp_path / "kept"
    disk.mkdir()
    out = disk / "out"
    script = (f'mount -t tmpfs -o size=6m tmpfs "{disk}" || exit 99; '
              f'"{sys.executable}" -m crane_cosim.cli run "{ssd}" --out "{out}" --stop-time 30; code=$?; '
              f'cp -a "{out}" "{kept}"; exit $code')
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 1, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("crane-cosim: ")]   # not what goes on
    assert lines == [f"crane-cosim: error: the results folder {out} has no space left on device; the results up "
                     f"to t = {lines[0].split('t = ')[-1].split(' s ')[0]} s are kept in it"], proc.stderr
    summary = json.loads((kept / "summary.json").read_text())
    assert summary["status"] == "failed" and "no space left on device" in summary["error"], summary
    df = read_results(kept)
    assert len(df) > 1000 and df["time"].iloc[-1] == pytest.approx(float(lines[0].split("t = ")[-1].split(" s ")[0]))
    assert sorted(p.name for p in kept.iterdir()) == ["results.arrows", "summary.json"]


def test_a_refused_command_creates_no_folder(capsys, tmp_path, ssd):
    """Each command refused for bad input found after its folder would be
    made (a --record or --vary naming nothing, a folder of no run) leaves
    no folder behind."""
    empty = tmp_path / "emptydir"
    empty.mkdir()
    cases = [
        ["run", str(ssd), "--out", str(tmp_path / "new" / "run"), "--record", "crane.nothing", "--no-plots"],
        ["run", str(ssd), "--record", "crane.nothing", "--no-plots"],   # into the system's own results folder
        ["fatigue", str(empty)],
        ["fatigue", str(empty), "--out", str(tmp_path / "new" / "fatigue")],
        ["animate", str(empty)],
        ["export", str(ssd), str(tmp_path / "new" / "x.ssp"), "--set", "crane.nothing=1"],
        ["export-results", str(empty), "--out", str(tmp_path / "new" / "x.csv")],
        ["sweep", str(ssd), "--vary", "crane.nothing=1,2", "--out", str(tmp_path / "new" / "sweep")],
    ]
    for argv in cases:
        assert main(argv) == 2, argv
        capsys.readouterr()
        assert list(empty.iterdir()) == [] and not (tmp_path / "new").exists(), argv
        assert not (tmp_path / "results").exists(), argv


@pytest.mark.skipif(not _private_mounts(), reason="mounting a read-only folder needs root and unshare -m")
def test_a_read_only_folder_under_an_export_or_beside_fmus_to_build_is_one_sentence(tmp_path, ssd):
    """Bound read-only in a mount namespace of the test's commands only: the
    folder of a system whose FMUs are not built yet (a run and an export
    build them beside it) and the folder an archive is exported to.  Each
    command: exit 2, one sentence naming the folder, nothing left behind."""
    system, ro, rw = tmp_path / "system", tmp_path / "ro", tmp_path / "rw"
    write_ssd(crane_on_vessel(base_dir=system, fmu_dir="fmus", stop_time=0.05), system / "s.ssd")
    ro.mkdir()
    rw.mkdir()
    commands = [["run", str(system / "s.ssd"), "--out", str(rw / "out"), "--no-plots"],
                ["export", str(system / "s.ssd"), str(rw / "x.ssp")],
                ["export", str(ssd), str(ro / "x.ssp")]]
    script = "".join(f'mount --bind "{d}" "{d}" && mount -o remount,bind,ro "{d}" || exit 99; ' for d in (system, ro))
    script += "".join(f'"{sys.executable}" -m crane_cosim.cli {" ".join(map(repr, argv))} 2> "{rw}/{k}.err"; '
                      f'echo $? > "{rw}/{k}.code"; ' for k, argv in enumerate(commands))
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 0, proc.stderr
    expected = [f"cannot build the FMUs of CraneOnVessel: the folder {system} cannot be written",
                f"cannot write the archive {rw / 'x.ssp'}: the folder {system} cannot be written",
                f"cannot write the archive {ro / 'x.ssp'}: the folder {ro} cannot be written"]
    for k, fragment in enumerate(expected):
        err = (rw / f"{k}.err").read_text()
        assert (rw / f"{k}.code").read_text().strip() == "2", err
        said = [line for line in err.splitlines() if line.startswith("crane-cosim: ")]   # not what goes on
        assert said == [f"crane-cosim: error: {fragment} (Read-only file system)"], err
    assert sorted(p.name for p in rw.iterdir() if p.suffix not in (".err", ".code")) == []
    assert sorted(p.name for p in system.iterdir()) == ["s.ssd"] and list(ro.iterdir()) == []


def test_two_runs_started_together_into_one_folder_one_runs_the_other_is_refused(tmp_path, ssd):
    """Two processes run into one --out at once (stop times 3 s and 2.5 s,
    to tell their runs apart): one completes (exit 0), the other is refused
    in one sentence (exit 2; another run writing the folder, or, had the
    first ended before it looked, the earlier run it holds), and the folder
    holds the completed run whole."""
    out = tmp_path / "out"
    stops = (3.0, 2.5)
    procs = [subprocess.Popen([sys.executable, "-m", "crane_cosim.cli", "run", str(ssd), "--out", str(out),
                               "--no-plots", "--stop-time", str(stop)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for stop in stops]
    ended = [(p.pid, p.returncode, err) for p in procs for _, err in [p.communicate(timeout=HUNG)]]
    codes = sorted(code for _, code, _ in ended)
    assert codes == [0, 2], ended
    winner = next(k for k, (_, code, _) in enumerate(ended) if code == 0)
    _, _, err = ended[1 - winner]
    lines = [line for line in err.splitlines() if line.startswith("crane-cosim: ")]   # not what goes on
    assert len(lines) == 1 and (f"--out {out} is being written by another run (pid {ended[winner][0]})" in lines[0]
                                or f"--out {out} holds an earlier run" in lines[0]), err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["status"] == "completed" and summary["stop_time"] == stops[winner]
    assert len(read_results(out)) == round(stops[winner] / 1e-3) + 1
