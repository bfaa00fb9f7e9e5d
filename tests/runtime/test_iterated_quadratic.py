"""The master's iterated-quadratic algorithm (``runtime/algorithms/quadratic.py``) on two
integrators in a loop, the harmonic oscillator ``a' = b``, ``b' = -a``
(``a = cos t``, ``b = -sin t``).  The integrators' RK4 is Simpson's rule
for an input on a quadratic, exact, so these errors are the master's
alone."""
import fake_plans as fake
import numpy as np
import pytest
from test_iterated_midpoint import _oscillator, _oscillator_error

from crane_cosim.files.results import read_results
from crane_cosim.runtime import run_cosim
from crane_cosim.runtime.algorithms import IteratedQuadratic


@pytest.fixture(scope="module")
def errors(integrator_fmu, tmp_path_factory):
    out = tmp_path_factory.mktemp("oscillator")
    found = {}
    for alg, passes in (("iterated-quadratic", None), ("iterated-quadratic", 1), ("iterated-midpoint", None)):
        for n in (50, 100):
            s = _oscillator(integrator_fmu, alg, 2 * np.pi / n)
            s.iterations = passes
            # settled to 1e-10 of the peaks: the collocation's own error, not the remainder of its fixed point
            run_cosim(s, out / f"{alg}_{passes}_{n}", progress=False, accuracy=1e-9)
            found[alg, passes, n] = _oscillator_error(read_results(out / f"{alg}_{passes}_{n}"))
    return found


def test_settled_the_coupling_is_fourth_order(errors):
    """One period: with the passes until the values settle, halving the
    step divides the error by 16 (measured 15.99; 2.17e-6 at 50 steps a
    period), the collocation at the step's three points (Lobatto IIIA);
    the iterated midpoint's falls fourfold from 8.25e-3."""
    e = errors
    assert 15.5 < e["iterated-quadratic", None, 50] / e["iterated-quadratic", None, 100] < 16.5
    assert e["iterated-quadratic", None, 50] < 6.5e-6
    assert e["iterated-quadratic", None, 50] < e["iterated-midpoint", None, 100] / 500


def test_one_pass_leaves_it_third_order(errors):
    """One re-step pass is one fixed-point iteration short of the
    collocation: the error falls eightfold (measured 7.98; 2.59e-4)."""
    e = errors
    assert 7.6 < e["iterated-quadratic", 1, 50] / e["iterated-quadratic", 1, 100] < 8.4
    assert e["iterated-quadratic", 1, 50] < 7.8e-4


def test_a_component_without_input_derivatives_is_named():
    p = fake.plan([fake.model("vessel", interpolates=False), fake.model("crane"),
                   fake.model("tool", fmi_version="3.0")], {"vessel": [1], "crane": [0, 2], "tool": [1]},
                  algorithm="iterated-quadratic")
    again = ("which the iterated-quadratic algorithm gives it when it steps it again: it reads the output of a "
             "component after it in the system's order, or of one stepped again (putting its sources before it may "
             "do without); use iterated-midpoint for this system")
    assert [s for s, _ in IteratedQuadratic.problems(p)] == [
        f"component vessel (vessel.fmu) does not take input derivatives (canInterpolateInputs is false), {again}",
        f"component tool (tool.fmu) does not take input derivatives (it is an FMI 3.0 FMU, and FMI 3.0 has no input "
        f"derivatives), {again}"]


def test_a_source_outside_the_loop_is_held_at_mid_step():
    """The drive before the loop is not stepped again: its value is held, as
    the iterated midpoint holds it, so a step in it stays a step; the
    vessel's input from the crane after it follows the quadratic."""
    p = fake.plan([fake.model(n) for n in ("drive", "vessel", "crane")], {"vessel": [2], "crane": [0, 1]},
                  algorithm="iterated-quadratic")
    step = IteratedQuadratic(p, fake.instances(p))
    assert step.again == [1, 2]
    assert [[r.src for r in f] for f in step.follows] == [[], [2], [1]]


def test_the_algorithm_is_kept_in_the_system_file(tmp_path, integrator_fmu):
    from crane_cosim.ssp import read_ssd, write_ssd
    s = _oscillator(integrator_fmu, "iterated-quadratic", 0.1)
    s.iterations = 2
    back = read_ssd(write_ssd(s, tmp_path / "oscillator.ssd"))
    assert (back.algorithm, back.iterations) == ("iterated-quadratic", 2)


def test_no_extrapolation_with_it():
    from crane_cosim.runtime import problems_of
    from crane_cosim.runtime.system import System
    problems, _ = problems_of(System("S", algorithm="iterated-quadratic", extrapolation="midpoint"))
    assert len(problems) == 1 and "the iterated-quadratic algorithm gives every input its mid-step value or its " \
        "quadratic over the step and takes no input extrapolation ('midpoint')" in problems[0]
