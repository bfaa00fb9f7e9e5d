"""Connections that transform their values (``runtime/transformations.py``,
SSP 1.0's linear transformation and the unit conversion between
convertible units) against hand computations; the mappings are tested
with the typed FMUs (``test_typed_systems.py``)."""
import json

import numpy as np
import pytest

from crane_cosim.files.results import read_results
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.runtime.transformations import Linear
from misbehaving_fmus import c_fmu, lag_in_units

H, T_LAG, FT = 0.01, 0.5, 0.3048   # step [s], the lag's time constant [s], a foot [m]


def test_a_linear_transformation_is_applied(fmu_dir, integrator_fmu, tmp_path):
    """A ramp y = t into this project's integrator through u = 2 y + 1
    (Jacobi: the input held at its value of the step's start, which the
    integrator's RK4 integrates exactly): x_k = h^2 k (k - 1) + h k, to
    round-off (measured 4.4e-16, bound 1.3e-15); check says it."""
    s = System("Linear", stop_time=1.0, step=H, algorithm="jacobi", base_dir=tmp_path)
    s.add_component("ramp", str(fmu_dir / "Signal.fmu"), table="0 0; 10 10")
    s.add_component("sum", str(integrator_fmu))
    s.connect("ramp.y", "sum.u", Linear(2.0, 1.0))
    problems, notes = problems_of(s)
    assert problems == [] and "connection ramp.y -> sum.u: sum.u = 2 * ramp.y + 1" in notes
    run_cosim(s, tmp_path / "run", RunConfig(progress=False))
    df = read_results(tmp_path / "run")
    k = np.arange(len(df))
    assert np.abs(df["sum.y"].to_numpy() - (H ** 2 * k * (k - 1) + H * k)).max() < 1.3e-15
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["algorithm"] == "jacobi"


@pytest.fixture(scope="module")
def lags(tmp_path_factory):
    out = tmp_path_factory.mktemp("lags")
    lag = c_fmu("lag2", out)
    return {"ft": lag_in_units(lag, out, "LagFt", "ft", "m"), "m": lag_in_units(lag, out, "LagM", "m", "m"),
            "s": lag_in_units(lag, out, "LagS", "m", "s")}


def _chain(lags, transformation=None, suppress=False, target="m"):
    s = System("Chain", stop_time=1.0, step=H, algorithm="jacobi", base_dir=lags["ft"].parent)
    s.add_component("a", lags["ft"].name, x=1.0)
    s.add_component("b", lags[target].name)
    s.connect("a.x", "b.u", transformation, suppress)
    return s


@pytest.mark.parametrize("transformation, suppress, gain", [
    (None, False, FT), (Linear(2.0, 0.0), False, 2 * FT), (None, True, 1.0)])
def test_units_are_converted_before_the_transformation(lags, tmp_path, transformation, suppress, gain):
    """A lag's state in feet, x_a = exp(-t/T), into another's input in
    metres: converted by the units' definitions (0.3048 m a foot) before
    the connection's own linear transformation, or passed as it is where
    the connection suppresses the conversion.  The second lag, its input
    held over each step (Jacobi), follows x_{k+1} = u_k + (x_k - u_k)
    exp(-h/T), u_k = gain * x_a(t_k), to the solver's tolerance (the lags
    ask for an event after every step, and the solver starts afresh after
    each): measured 7.8e-9, 1.2e-8 and 7.7e-9 at rtol 1e-10, bound 3.6e-8."""
    s = _chain(lags, transformation, suppress)
    assert problems_of(s)[0] == []
    run_cosim(s, tmp_path, RunConfig(progress=False, relative_tolerance=1e-10))
    df = read_results(tmp_path)
    u = gain * df["a.x"].to_numpy()
    expected = np.zeros(len(df))
    decay = np.exp(-H / T_LAG)
    for k in range(len(df) - 1):
        expected[k + 1] = u[k] + (expected[k] - u[k]) * decay
    assert np.abs(df["b.x"].to_numpy() - expected).max() < 3.6e-8


def test_units_of_different_dimensions_are_refused(lags):
    problems, _ = problems_of(_chain(lags, target="s"))
    assert problems == ["connection a.x -> b.u joins mismatched units: ft to s"]
    notes = problems_of(_chain(lags))[1]
    assert "connection a.x -> b.u: b.u = 0.3048 * a.x (converted from ft to m)" in notes
