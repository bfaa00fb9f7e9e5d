"""``crane-cosim run`` and ``check`` (``cosim/cli/runs.py``): the options
checked before anything is built, and ``check`` saying what it checked."""
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.ssp import write_ssd
from crane_cosim.fmus import build
from crane_cosim.scenarios import crane_on_vessel


@pytest.fixture
def unbuilt_system(tmp_path):
    """The crane on the vessel whose FMUs are not built yet."""
    s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(tmp_path / "fmus"))
    return write_ssd(s, tmp_path / "system.ssd")


@pytest.fixture
def no_building(monkeypatch):
    def started(*a, **k):
        raise AssertionError("an FMU was being built")
    monkeypatch.setattr(build, "build_fmu", started)


@pytest.mark.parametrize("stop,fragment", [
    ("-1", "the stop time -1 s is not after the start time 0 s"),
    ("0", "the stop time 0 s is not after the start time 0 s"),
    ("nan", "--stop-time nan is not a finite number of seconds"),
    ("0.0001", "the step 0.002 s is longer than the run (0.0001 s, from 0 s to 0.0001 s)"),
])
def test_a_wrong_stop_time_is_refused_before_the_fmus_are_built(capsys, tmp_path, unbuilt_system, no_building,
                                                                  stop, fragment):
    code = main(["run", str(unbuilt_system), "--stop-time", stop, "--no-plots"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert fragment in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "fmus").exists()


def test_check_says_the_fmus_are_not_built_yet(capsys, unbuilt_system, no_building):
    """``check`` of a system whose FMUs are not built says which it checked
    against the project's blocks and that ``run`` builds them, not that the
    files "check out"."""
    assert main(["check", str(unbuilt_system)]) == 0
    out = capsys.readouterr().out.strip().splitlines()[-1]
    assert out == ("CraneOnVessel: 3 components, 57 connections: files, connections, types, units, values and "
                   "capabilities check out, those of vessel, crane and controller against the project's blocks "
                   "since their FMUs are not built yet (crane-cosim run builds them)")


def test_check_of_built_fmus_says_they_check_out(capsys, unbuilt_system, fmu_dir):
    system = crane_on_vessel(base_dir=unbuilt_system.parent, fmu_dir=str(fmu_dir))
    assert main(["check", str(write_ssd(system, unbuilt_system.parent / "built.ssd"))]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(
        ": files, connections, types, units, values and capabilities check out")


def test_the_demo_says_each_thing_before_it_does_it(capsys, monkeypatch, tmp_path):
    """The demo's stages in order, each said before its work: building,
    compiling (warm_up, before the vessel's settling, which calls the
    crane's kernels and compiled them without a word on a cold cache),
    settling, running, then the plots and the animation page (18 s of
    silence after the run's 100%).  The work itself is replaced by notes."""
    from types import SimpleNamespace

    from crane_cosim.cli import runs
    from crane_cosim.runtime.compiled import master_warm_up
    from crane_cosim.reports import plots

    done = []

    def doing(what, result=None):
        def work(*a, **k):
            done.append((what, capsys.readouterr().out))  # what was said since the last stage
            return result
        return work
    monkeypatch.setattr(runs, "build_all", doing("build", []))
    monkeypatch.setattr(runs, "warm_up", doing("compile", []))
    monkeypatch.setattr(master_warm_up, "warm_up_master", doing("compile", False))
    monkeypatch.setattr(runs, "settle_vessel", doing("settle", {}))
    monkeypatch.setattr(runs, "run_cosim", doing("run", SimpleNamespace(wall_time=1.0, real_time_factor=1.0)))
    monkeypatch.setattr(plots, "plot_run", doing("plots", []))
    monkeypatch.setattr(runs, "animate", doing("page", tmp_path / "animation.html"))
    assert main(["demo", "--out", str(tmp_path / "demo"), "--stop-time", "0.1"]) == 0
    assert [what for what, _ in done] == ["build", "compile", "compile", "settle", "run", "plots", "page"]
    said = dict(done)
    assert said["build"].startswith("building FMUs in ")
    assert said["run"].startswith("running ")
    assert said["plots"] == f"writing the plots in {tmp_path / 'demo' / 'results' / 'plots'} ...\n"
    assert said["page"] == f"writing the 3-D animation page in {tmp_path / 'demo' / 'results'} ...\n"


def test_a_run_says_it_writes_its_plots(capsys, tmp_path, fmu_dir, monkeypatch):
    from crane_cosim.reports import plots
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), step=0.01)
    ssd = write_ssd(system, tmp_path / "system.ssd")
    said = []
    monkeypatch.setattr(plots, "plot_run", lambda out: said.append(capsys.readouterr().err) or [])
    assert main(["run", str(ssd), "--stop-time", "0.05", "--out", str(tmp_path / "out")]) == 0
    assert said[0].splitlines()[-1] == f"writing the plots in {tmp_path / 'out' / 'plots'} ..."


def test_a_run_says_it_builds_the_fmus_before_it_does(capsys, tmp_path, unbuilt_system, monkeypatch):
    said = []

    def building(model, folder):
        said.append(capsys.readouterr().err)
        raise CraneCosimError("stopped here")
    monkeypatch.setattr(build, "build_fmu", building)
    assert main(["run", str(unbuilt_system), "--no-plots", "--stop-time", "0.1"]) == 2
    assert said[0] == "building the FMUs of vessel, crane, controller ...\n"


def test_check_of_fmus_built_from_other_sources_says_so(capsys, tmp_path, fmu_dir, monkeypatch):
    from crane_cosim.cli import runs as module
    monkeypatch.setattr(module, "needs_building", lambda path, block: True)  # as if built by another version
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir))
    assert main(["check", str(write_ssd(system, tmp_path / "built.ssd"))]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].endswith(
        "since their FMUs are not built yet or built from other sources (crane-cosim run builds them)")
