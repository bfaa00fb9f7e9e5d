"""The iterated midpoint's step compiled (``runtime/compiled``) against the
Python algorithm it stands in for: the same run to the bit, the same
errors, the same counts; and the runs it leaves to the Python algorithm."""
import json

import numba
import numpy as np
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.runtime.compiled.engine import CompiledMidpoint
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import System


def _run(system, folder, monkeypatch, master):
    monkeypatch.setenv("CRANE_COSIM_MASTER", master)
    run_cosim(system, folder, progress=False)
    return read_results(folder), json.loads((folder / "summary.json").read_text())


def _same_run_both_ways(system, tmp_path, monkeypatch) -> dict:
    """``system`` run compiled and in Python: the same results and counts
    of passes and rounds; the compiled run's summary."""
    compiled, c = _run(system, tmp_path / "compiled", monkeypatch, "compiled")
    python, p = _run(system, tmp_path / "python", monkeypatch, "python")
    assert c["master_step"] == "compiled" and p["master_step"] == "python (CRANE_COSIM_MASTER=python)"
    assert compiled.equals(python)
    assert c["re_step_passes"] == p["re_step_passes"] and c.get("point_loop_rounds") == p.get("point_loop_rounds")
    # the same steps asked of each component, counted by the compiled step and by the Python calls
    assert c["fmi_steps_by_component"] == p["fmi_steps_by_component"]
    return c


def test_the_crane_with_friction_runs_the_same_bits_compiled(fmu_dir, tmp_path, monkeypatch):
    """0.3 s of the crane on the vessel with friction, whose steps take up to
    seven re-step passes (quasi-Newton steps of the passes' model) and
    whose loop of direct feedthrough at the points up to four rounds (its
    own model): every recorded value and every count of passes and rounds
    the same, compiled and in Python."""
    from crane_cosim import scenarios

    s = scenarios.crane_on_vessel_friction(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.3)
    c = _same_run_both_ways(s, tmp_path, monkeypatch)
    assert max(int(n) for n in c["re_step_passes"]) >= 3  # measured: 7
    assert max(int(n) for counts in c["point_loop_rounds"].values() for n in counts) >= 3  # measured: 4
    # the time in each component's FMI calls is counted, and is part of the run's
    assert all(v > 0 for v in c["fmi_call_time_by_component_s"].values())
    assert c["fmi_call_time_s"] < c["wall_time_s"]


@pytest.mark.parametrize("example", ["crane_on_vessel_friction", "flexible_crane"])
def test_the_arguments_are_of_the_types_compiled_before_a_run(fmu_dir, tmp_path, example):
    """The warm-up compiles the step for ``SIGNATURE``: the arguments the
    engine makes, for the iterated midpoint and the iterated quadratic, are
    of those types, so no run compiles another."""
    from crane_cosim import scenarios
    from crane_cosim.runtime import plan_of
    from crane_cosim.runtime.compiled import step
    from crane_cosim.runtime.execution import Execution

    s = getattr(scenarios, example)(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.1)
    execution = Execution(plan_of(s), tmp_path)
    try:
        execution.instantiate()
        execution.start()
        compiled = execution.algorithm
        assert isinstance(compiled, CompiledMidpoint)
        args = (compiled.spans[:1], compiled.rows, *compiled.args)
        assert tuple(numba.typeof(a) for a in args) == step.SIGNATURE
    finally:
        execution.close()


def _oscillator(integrator_fmu, k=1.0, **settings):
    s = System("Oscillator", stop_time=0.3, step=0.1, algorithm="iterated-midpoint", base_dir=integrator_fmu.parent,
               **settings)
    s.add_component("a", integrator_fmu.name, x0=1.0, k=k)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=-k)
    s.connect("b.y", "a.u")
    s.connect("a.y", "b.u")
    return s


def test_a_failed_step_is_told_as_the_python_algorithm_tells_it(integrator_fmu, tmp_path, monkeypatch):
    """The oscillator at a gain of 1e200 overflows in its first step: the
    compiled step stops the run with the Python algorithm's sentence."""
    said = {}
    for master in ("compiled", "python"):
        monkeypatch.setenv("CRANE_COSIM_MASTER", master)
        with pytest.raises(CraneCosimError) as failed:
            run_cosim(_oscillator(integrator_fmu, k=1e200), tmp_path / master, progress=False)
        said[master] = str(failed.value).replace(str(tmp_path / master), "OUT")
    assert said["compiled"] == said["python"]
    assert said["compiled"].startswith("component a (Integrator.fmu) failed to step from t = 0 s"), said


def test_a_discarded_step_ends_the_run_as_the_python_algorithm_ends_it(typed_fmus, tmp_path, monkeypatch):
    """A pythonfmu FMU (all Real, so the compiled step runs it) that
    discards every step from 0.2 s on (fmi2Discard), read by a second one:
    the compiled step notes the discard and asks the component afterwards,
    as the Python algorithm asks it at once, and both end the run there
    alike, with the same rows."""
    s = System("Quits", stop_time=0.5, step=0.01, algorithm="iterated-midpoint", base_dir=typed_fmus)
    s.add_component("q1", "Quitter2.fmu", t_end=0.2)
    s.add_component("q2", "Quitter2.fmu")
    s.connect("q1.y", "q2.u")
    ended = {}
    for master in ("compiled", "python"):
        monkeypatch.setenv("CRANE_COSIM_MASTER", master)
        result = run_cosim(s, tmp_path / master, progress=False)
        ended[master] = (result.status, result.end_time, result.reason)
    assert ended["compiled"] == ended["python"]
    assert ended["compiled"][:2] == ("ended", pytest.approx(0.2))
    c = _same_run_both_ways(s, tmp_path / "again", monkeypatch)
    assert read_results(tmp_path / "again" / "compiled")["time"].iloc[-1] == pytest.approx(0.2)
    assert c["status"] == "ended"


def test_the_oscillator_runs_the_same_bits_compiled(integrator_fmu, tmp_path, monkeypatch):
    """Two integrators in a loop, each stepped again (their own states
    saved and restored by the compiled step): the same run."""
    _same_run_both_ways(_oscillator(integrator_fmu), tmp_path, monkeypatch)
    assert np.isfinite(read_results(tmp_path / "compiled").to_numpy()).all()


def test_the_flexible_crane_runs_the_same_bits_compiled(fmu_dir, tmp_path, monkeypatch):
    """0.1 s of the flexible crane on its spring supports by the iterated
    quadratic (inputs on quadratics through their input derivatives, two
    to five re-step passes a step, a loop of direct feedthrough at the
    points): the same run compiled and in Python."""
    from crane_cosim import scenarios

    s = scenarios.flexible_crane(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.1)
    c = _same_run_both_ways(s, tmp_path, monkeypatch)
    assert c["algorithm"] == "iterated-quadratic"
    assert max(int(n) for n in c["re_step_passes"]) >= 3  # measured: 4


@pytest.mark.parametrize("settings, why", [
    ({"iterations": 2}, "a fixed number of passes"),
    ({"algorithm": "gauss-seidel"}, None),
])
def test_the_runs_the_compiled_step_leaves_to_python(integrator_fmu, tmp_path, monkeypatch, settings, why):
    """A fixed number of passes runs in Python, and the summary says why;
    the explicit algorithms are not compiled (nor named there)."""
    monkeypatch.delenv("CRANE_COSIM_MASTER", raising=False)
    s = _oscillator(integrator_fmu)
    for name, value in settings.items():
        setattr(s, name, value)
    run_cosim(s, tmp_path, progress=False)
    assert json.loads((tmp_path / "summary.json").read_text()).get("master_step") == (why and f"python ({why})")


def test_the_machine_code_is_kept_per_content_of_every_module_it_is_made_of():
    """numba stamps a cached function by its own file; the step's machine
    code holds the functions of every module of the package but the engine
    and the warm-up (Python) and the cache's own: their content names the cache folder of
    each compiled function, so that a change to any of them compiles anew."""
    from pathlib import Path

    from crane_cosim.runtime.compiled import cache, qn, quadratic_kernels as quadratic, step

    folder = Path(step.__file__).parent
    assert set(cache.MODULES) == {p.stem for p in folder.glob("*.py")} - {"__init__", "cache", "engine", "master_warm_up"}
    for function in (step.midpoint_steps, quadratic.quadratic_passes, qn.qn_next_input):
        assert Path(function._cache._cache_path).name == f"master-{cache.sources_digest()}"


def test_a_step_numba_cannot_compile_stops_the_run_in_one_sentence(integrator_fmu, tmp_path, monkeypatch):
    """Never the Python algorithm in its place, silently: the run stops,
    saying what failed and how to run without the compiled step."""
    from crane_cosim.runtime.compiled import step

    def cannot(signature):
        raise RuntimeError("Failed in nopython mode pipeline (step: nopython frontend)\nmore")

    monkeypatch.delenv("CRANE_COSIM_MASTER", raising=False)
    monkeypatch.setattr(step.midpoint_steps, "compile", cannot)
    with pytest.raises(CraneCosimError, match=r"^numba could not compile the master's step \(Failed in nopython "
                                              r"mode pipeline \(step: nopython frontend\)\); CRANE_COSIM_MASTER="
                                              r"python runs the Python algorithm instead; no point was recorded"):
        run_cosim(_oscillator(integrator_fmu), tmp_path, progress=False)


def _lift(fmu_dir, stop_time):
    """The Table I crane on its vessel holding a payload whose wire goes
    slack now and then: the payload's Boolean output ``slack`` beside its
    Real ones."""
    from crane_cosim import scenarios

    return scenarios.crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=stop_time, sea={},
                                     payload={"m_payload": 10.0, "l_wire_0": 2.0, "EA": 2e4})


def test_a_boolean_output_nothing_reads_runs_the_same_bits_compiled(fmu_dir, tmp_path, monkeypatch):
    """0.6 s of the crane holding a payload, its wire slack then taut
    again: the compiled step reads the payload's ``slack`` after each step,
    for the record, and the run is the Python algorithm's to the bit."""
    _same_run_both_ways(_lift(fmu_dir, 0.6), tmp_path, monkeypatch)
    slack = read_results(tmp_path / "compiled")["payload.slack"]
    assert slack.any() and not slack.all()


def test_a_boolean_output_a_connection_reads_runs_in_python(fmu_dir, typed_fmus, tmp_path, monkeypatch):
    """The payload's ``slack`` driving another FMU's Boolean input: the
    Python algorithm converts it, and the summary says why."""
    monkeypatch.delenv("CRANE_COSIM_MASTER", raising=False)
    s = _lift(fmu_dir, 0.01)
    s.add_component("counter", str(typed_fmus / "Counter2.fmu"))
    s.connect("payload.slack", "counter.enable")
    run_cosim(s, tmp_path, progress=False)
    assert json.loads((tmp_path / "summary.json").read_text())["master_step"] == (
        "python (component payload's outputs other than Real are connected)")
