"""The FMI 3.0 calls of an instance (``runtime/fmi3.py``) with an FMU
written to misbehave (``tests/typed_fmus/early3.c``): a step that returns
early, which the master does not allow, ends the run."""
import json

import pytest

from crane_cosim.cli import main
from crane_cosim.errors import SimulationError
from crane_cosim.files.results import read_results
from crane_cosim.ssp import write_ssd
from crane_cosim.runtime import System, run_cosim
from misbehaving_fmus import c_fmu


@pytest.fixture(scope="module")
def early3(tmp_path_factory):
    return c_fmu("early3", tmp_path_factory.mktemp("early3"))


def _integrated(n, h=0.1):
    """The FMU's ``x`` after ``n`` whole steps of ``h`` from 0 (gain 1),
    with its own operations and the master's: the master steps from k h
    over (k + 1) h - k h, and each step adds its end less its start."""
    x = 0.0
    for k in range(n):
        t = k * h
        x += (t + ((k + 1) * h - t)) - t
    return x


def _system(fmu, **values):
    s = System("Early", stop_time=1.0, step=0.1, base_dir=fmu.parent)
    s.add_component("e", fmu.name, **values)
    return s


def test_a_step_that_returns_early_ends_the_run_with_the_time_it_reached(early3, tmp_path):
    """The FMU's step from 0.4 s stops at 0.453 s and says so (earlyReturn,
    lastSuccessfulTime), though instantiated with earlyReturnAllowed false:
    the run fails naming the component, the step and the time reached, the
    rows up to 0.4 s on disk; none holds the state at 0.453 s as 0.5 s's."""
    with pytest.raises(SimulationError) as failure:
        run_cosim(_system(early3), tmp_path / "out", progress=False)
    assert str(failure.value).startswith(
        "component e (Early3.fmu) returned early from its step from t = 0.4 s to 0.5 s, at lastSuccessfulTime = "
        "0.453 s, which it may not (crane-cosim instantiates FMI 3.0 FMUs with earlyReturnAllowed false, FMI 3.0 "
        "section 4.2.1); the results up to t = 0.4 s are in"), str(failure.value)
    df = read_results(tmp_path / "out")
    assert list(df["time"]) == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert df["e.x"].iloc[-1] == _integrated(4)   # its state where its last whole step ended
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["status"] == "failed"


def test_the_command_fails_with_exit_1_on_an_early_return(early3, tmp_path, capsys):
    ssd = write_ssd(_system(early3), early3.parent / f"{tmp_path.name}.ssd")
    assert main(["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots"]) == 1
    err = capsys.readouterr().err
    assert "component e (Early3.fmu) returned early from its step from t = 0.4 s to 0.5 s" in err, err
    assert (tmp_path / "out" / "results.arrows").exists()


def test_steps_that_do_not_return_early_run_to_the_stop_time(early3, tmp_path):
    """The same FMU whose early time lies beyond the run: completed, its
    state at each row the row's time (a step of 0.1 s, gain 1)."""
    result = run_cosim(_system(early3, early_at=2.0), tmp_path / "out", progress=False)
    assert result.status == "completed"
    assert list(read_results(tmp_path / "out")["e.x"]) == [_integrated(n) for n in range(11)]
