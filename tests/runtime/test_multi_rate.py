"""Components of their own steps (``runtime/algorithms/explicit.py``): a
component that steps every k base steps, its inputs held between its
steps and its outputs passed on when its step ends, as OSP libcosim's
fixed-step algorithm runs it; against a hand computation, against
libcosim with the same system file, and the refusals.  An FMU that cannot
vary its step never gets a shorter one."""
import numpy as np
import pytest

from crane_cosim.cli import main
from crane_cosim.ssp import read_ssd, write_ssd
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.files.results import read_results

H, K, STEPS = 0.01, 5, 23   # the run ends inside b's fifth step, which is cut at the stop time


def _oscillator(integrator_fmu, algorithm, every=K):
    """``a' = b``, ``b' = -a`` (``a = cos t``): ``a`` at the base step, ``b``
    every ``every`` base steps."""
    s = System("Oscillator", stop_time=STEPS * H, step=H, algorithm=algorithm, base_dir=integrator_fmu.parent)
    s.add_component("a", integrator_fmu.name, x0=1.0, k=1.0)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=-1.0).step = every * H
    s.connect("b.y", "a.u")
    s.connect("a.y", "b.u")
    return s


def _by_hand(gauss_seidel: bool):
    """The oscillator stepped as the rule says, with the integrators' exact
    step for a held input (x + k u dt).  Jacobi: each step reads the outputs
    passed on at its start; Gauss-Seidel: b, after a in the order, reads a's
    output at the end of the base step in which b's step begins."""
    a, b = 1.0, 0.0
    a_out, b_out = a, b
    rows = [(a_out, b_out)]
    b_next = None
    for n in range(STEPS):
        t, t_next = n * H, min((n + 1) * H, STEPS * H)
        a = a + 1.0 * b_out * (t_next - t)
        if n % K == 0:
            source = a if gauss_seidel else a_out
            b_next = b - source * (min((n + K) * H, STEPS * H) - t)
        a_out = a
        if (n + 1) % K == 0 or n + 1 == STEPS:
            b = b_next
            b_out = b
        rows.append((a_out, b_out))
    return np.array(rows)


@pytest.mark.parametrize("algorithm", ["jacobi", "gauss-seidel"])
def test_a_component_every_five_steps_equals_the_hand_computation(integrator_fmu, tmp_path, algorithm):
    run_cosim(_oscillator(integrator_fmu, algorithm), tmp_path, progress=False)
    df = read_results(tmp_path)
    expected = _by_hand(algorithm == "gauss-seidel")
    np.testing.assert_allclose(df[["a.y", "b.y"]].to_numpy(), expected, rtol=0, atol=1e-12)
    # b's output holds between its steps: it changes only where one ends
    changes = np.flatnonzero(np.diff(df["b.y"].to_numpy())) + 1
    assert set(changes) <= {5, 10, 15, 20, 23}


def test_the_steps_of_a_component_are_its_own(typed_fmus, tmp_path):
    """A component of 0.05 s in a run of 0.01 s steps: it is asked for steps
    of 0.05 s only (an FMU that cannot vary its step, so none is cut)."""
    s = System("Steps", stop_time=0.2, step=0.01, algorithm="gauss-seidel", base_dir=typed_fmus)
    s.add_component("slow", "Stepper2.fmu").step = 0.05
    s.add_component("fast", "Stepper2.fmu")
    s.connect("slow.x", "fast.u")
    run_cosim(s, tmp_path, progress=False)
    last = read_results(tmp_path).iloc[-1]
    assert (last["slow.steps"], last["fast.steps"]) == (4, 20)
    assert last["slow.h_min"] == pytest.approx(0.05, abs=1e-15) and last["slow.h_max"] == pytest.approx(0.05, abs=1e-15)


def test_an_fmu_that_cannot_vary_its_step_is_never_given_a_shorter_one(typed_fmus, tmp_path):
    s = System("Fixed", stop_time=1.0, step=0.3, algorithm="gauss-seidel", base_dir=typed_fmus)
    s.add_component("x", "Stepper2.fmu")
    problems, _ = problems_of(s)
    assert problems == ["the run of 1 s is not a whole number of component x's steps of 0.3 s, which it cannot vary "
                        "(Stepper2.fmu declares canHandleVariableCommunicationStepSize false), so its last step would "
                        "be shorter; choose a stop time of 0.9 s or 1.2 s"]
    s.stop_time = 0.9
    run_cosim(s, tmp_path, progress=False)
    last = read_results(tmp_path).iloc[-1]
    assert last["x.steps"] == 3 and last["x.h_min"] == pytest.approx(last["x.h_max"], abs=1e-15)


def test_the_iterated_midpoint_steps_such_an_fmu_in_halves_only(typed_fmus, integrator_fmu, tmp_path):
    """In a loop the iterated midpoint steps again, an FMU that cannot vary
    its step takes halves of the step every time (never a whole one)."""
    import shutil
    shutil.copy(integrator_fmu, typed_fmus / "Integrator.fmu")
    s = System("Loop", stop_time=0.5, step=0.1, algorithm="iterated-midpoint", base_dir=typed_fmus)
    s.add_component("x", "Stepper2.fmu", x0=1.0)
    s.add_component("v", "Integrator.fmu", k=-1.0)
    s.connect("v.y", "x.u")
    s.connect("x.x", "v.u")
    run_cosim(s, tmp_path, progress=False)
    last = read_results(tmp_path).iloc[-1]
    assert last["x.h_min"] == pytest.approx(0.05, abs=1e-15) and last["x.h_max"] == pytest.approx(0.05, abs=1e-15)


@pytest.mark.parametrize("change, sentence", [
    ({"algorithm": "iterated-midpoint"}, "the iterated-midpoint algorithm steps every component over the same step, "
                                         "rolling some back together, and component b steps every 5 steps"),
    ({"extrapolation": "midpoint"}, "input extrapolation (midpoint) is defined over one step for every component, "
                                    "and component b steps every 5 steps"),
    ({"component_steps": {"b": 0.025}}, "component b's step of 0.025 s is not a whole number of the system's steps "
                                        "of 0.01 s"),
])
def test_what_an_algorithm_cannot_do_with_it_is_refused_by_name(integrator_fmu, change, sentence):
    problems, _ = problems_of(_oscillator(integrator_fmu, "jacobi"), RunConfig(**change))
    assert len(problems) == 1 and sentence in problems[0], problems


def test_the_system_file_holds_a_components_step_as_libcosim_reads_it(integrator_fmu, tmp_path):
    ssd = write_ssd(_oscillator(integrator_fmu, "jacobi"), integrator_fmu.parent / f"{tmp_path.name}.ssd")
    text = ssd.read_text()
    assert '<ssc:Annotation type="com.opensimulationplatform"><osp:StepSizeHint value="0.05" />' in \
        text.replace("\n", "").replace("  ", "").replace("\t", "")
    back = read_ssd(ssd)
    assert back.component("b").step == 0.05 and back.component("a").step is None


def test_the_command_line_sets_a_components_step(integrator_fmu, tmp_path, capsys):
    ssd = write_ssd(_oscillator(integrator_fmu, "jacobi", every=1), integrator_fmu.parent / f"{tmp_path.name}.ssd")
    assert main(["run", str(ssd), "--component-step", "b=0.05", "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    df = read_results(tmp_path / "out")
    np.testing.assert_allclose(df[["a.y", "b.y"]].to_numpy(), _by_hand(False), rtol=0, atol=1e-12)
    assert main(["check", str(ssd), "--component-step", "b=fast"]) == 2
    assert "--component-step b='fast': 'fast' is not a number of seconds" in capsys.readouterr().err
