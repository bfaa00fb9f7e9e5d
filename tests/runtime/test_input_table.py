"""Inputs from a file (``runtime/input_table.py``, ``run --input``): a CSV
or Parquet table drives inputs no connection drives, interpolated as the
input's variability says and converted from the file's units, against
hand computations; what cannot be read or driven named."""
import json

import numpy as np
import pandas as pd
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.runtime.input_table import read_input_table
from crane_cosim.ssp import write_ssd
from misbehaving_fmus import c_fmu, lag_in_units

H = 0.1
FACTOR = {1: 0, 2: 1, 3: 2}   # the typed counter's count per mode (tests/typed_fmus/typed_fmi2.py)


def _integrator(integrator_fmu, base_dir, stop=1.0):
    s = System("Driven", stop_time=stop, step=H, algorithm="jacobi", base_dir=base_dir)
    s.add_component("sum", str(integrator_fmu))
    return s


@pytest.mark.parametrize("form", ["csv", "csv with units", "parquet"])
def test_a_continuous_input_is_interpolated_linearly(integrator_fmu, tmp_path, form):
    """u = 2t from two points (0, 0) and (1, 2), held over each step from its
    start: x_k = h^2 k (k - 1) to round-off (measured 1.1e-16, bound
    3.3e-16), whether the file is a CSV, a CSV with a units row or Parquet."""
    table = pd.DataFrame({"time": [0.0, 1.0], "sum.u": [0.0, 2.0]})
    if form == "parquet":
        table.to_parquet(tmp_path / "u.parquet")
        path = tmp_path / "u.parquet"
    else:
        path = tmp_path / "u.csv"
        path.write_text("time,sum.u\n" + ("s,1\n" if form == "csv with units" else "") + "0,0\n1,2\n")
    run_cosim(_integrator(integrator_fmu, tmp_path), tmp_path / "run", RunConfig(progress=False,
                                                                                 input_file=str(path)))
    df = read_results(tmp_path / "run")
    k = np.arange(len(df))
    assert np.abs(df["sum.y"].to_numpy() - H ** 2 * k * (k - 1)).max() < 3.3e-16
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["inputs_from_file"] == {"file": str(path), "columns": ["sum.u"]}


def test_discrete_inputs_hold_the_last_point(typed_fmus, tmp_path):
    """A Boolean and an Enumeration of the typed counter, switched between
    points (at 0.35 s off, at 0.55 s on in mode fast): each step takes the
    values of the last point at or before its start, and the count is the
    hand computation's."""
    path = tmp_path / "switches.csv"
    path.write_text("time,c2.enable,c2.mode\n0,1,2\n0.35,0,2\n0.55,1,3\n")
    s = System("Switched", stop_time=1.0, step=H, algorithm="jacobi", base_dir=typed_fmus)
    s.add_component("c2", "Counter2.fmu", increment=3)
    run_cosim(s, tmp_path / "run", RunConfig(progress=False, input_file=str(path)))
    count, expected = 0, [0]
    for k in range(10):
        t = k * H
        enable, mode = (True, 2) if t < 0.35 else (False, 2) if t < 0.55 else (True, 3)
        count += 3 * FACTOR[mode] if enable else 0
        expected.append(count)
    assert list(read_results(tmp_path / "run")["c2.count"]) == expected


def test_a_column_in_another_unit_is_converted(tmp_path):
    """1 ft into a lag's input in metres from the start: x = 0.3048 (1 -
    exp(-t/T)) at the steps' ends, to the solver's tolerance (rtol 1e-10,
    the lag asking for an event after every step: measured 1.6e-9, bound
    4.9e-9)."""
    lag = lag_in_units(c_fmu("lag2", tmp_path), tmp_path, "LagM", "m", "m")
    path = tmp_path / "feet.csv"
    path.write_text("time,lag.u [ft]\n0,1\n10,1\n")
    s = System("Feet", stop_time=1.0, step=H, algorithm="jacobi", base_dir=tmp_path)
    s.add_component("lag", lag.name)
    run_cosim(s, tmp_path / "run", RunConfig(progress=False, input_file=str(path), relative_tolerance=1e-10))
    df = read_results(tmp_path / "run")
    expected = 0.3048 * (1 - np.exp(-df["time"].to_numpy() / 0.5))
    assert np.abs(df["lag.x"].to_numpy() - expected).max() < 4.9e-9


@pytest.mark.parametrize("text, sentence", [
    ("time,sum.u\n0,0\n0.5,x\n", "line 3, column sum.u, holds 'x', not a number"),
    ("t,sum.u\n0,0\n", "has no column named time (its columns: t, sum.u)"),
    ("time,sum.u\n1,0\n0.5,1\n", "the times must not decrease, but line 3 goes back from 1 s to 0.5 s"),
    ("time,sum.u\n0,0,1\n", "line 2 has 3 fields, and the header names 2"),
])
def test_a_file_that_cannot_be_read_is_one_sentence(tmp_path, text, sentence):
    (tmp_path / "bad.csv").write_text(text)
    with pytest.raises(CraneCosimError, match=sentence.replace("(", r"\(").replace(")", r"\)")):
        read_input_table(tmp_path / "bad.csv")


def test_what_a_file_cannot_drive_is_named(integrator_fmu, fmu_dir, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("time,summ.u,sum.y,ramp.y,sum.u [m]\n0,0,0,0,0\n")
    s = _integrator(integrator_fmu, tmp_path)
    s.add_component("ramp", str(fmu_dir / "Signal.fmu"))
    problems, _ = problems_of(s, RunConfig(input_file=str(path)))
    assert [p.split(": ", 1)[1] for p in problems] == [
        "its column 'summ.u' names no component of the system (a column is component.variable (did you mean "
        "'sum'?))",
        "its column 'sum.y' names no input of Integrator.fmu",
        "its column 'ramp.y' names no input of Signal.fmu",
        "its column 'sum.u' is in m, which does not convert into the input's 1"]


def test_the_command_line_takes_an_input_file(integrator_fmu, tmp_path, capsys):
    path = tmp_path / "u.csv"
    path.write_text("time,sum.u\n0,0\n1,2\n")
    ssd = write_ssd(_integrator(integrator_fmu, tmp_path), tmp_path / "Driven.ssd")
    assert main(["run", str(ssd), "--input", str(path), "--out", str(tmp_path / "out"), "--no-plots"]) == 0
    k = np.arange(11)
    assert np.abs(read_results(tmp_path / "out")["sum.y"].to_numpy() - H ** 2 * k * (k - 1)).max() < 3.3e-16
    assert main(["run", str(ssd), "--input", str(path), "--monolithic", "--out", str(tmp_path / "m")]) == 2
    assert "--input drives an FMU's inputs at a co-simulation's communication points" in capsys.readouterr().err
