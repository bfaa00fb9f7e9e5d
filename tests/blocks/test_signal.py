"""The Signal block: steps, ramps and jumps from a table or a CSV file, the
drive torque of eq. (21) of Jarzębowska, Urbaś & Augustynek (2018), and one
sentence for each kind of bad input."""
import os

import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.signal import TIME_TOLERANCE, Signal
from crane_cosim.files.results import CsvWriter
from crane_cosim.files.results_stream import ResultWriter

#: eq. (21): -4000 N m for 0 <= t <= 0.1 s, then 0, in its two writings
EQ21 = [{"table": "0 -4000; 0.1 -4000; 0.1 0"}, {"table": "0 -4000; 0.1 0", "interpolation": "previous"}]


def y(block, t):
    return float(block.output(t, None, np.zeros(0))[0])


def ys(block, times):
    return [y(block, t) for t in times]


def test_the_ports_of_a_source_of_time_alone():
    assert Signal.input_names() == [] and Signal.states == () and Signal.output_names() == ["y"]
    assert Signal.output_dependencies() == {"y": []}
    # no unit: it takes the unit of the input it drives
    assert Signal.outputs[0].unit == "" and Signal.outputs[0].type == "Real"
    assert y(Signal(), 3.0) == 0.0  # the default table, "0 0"


def test_steps_hold_the_last_point_at_or_before_t():
    s = Signal(table="0 1; 1 2; 3 -5", interpolation="previous")
    assert ys(s, [0.0, 0.5, 1.0, 2.999, 3.0, 4.0]) == [1.0, 1.0, 2.0, 2.0, -5.0, -5.0]


def test_ramps_interpolate_between_points():
    s = Signal(table="0 0; 2 4; 3 1")  # linear by default
    np.testing.assert_allclose(ys(s, [0.0, 0.5, 2.0, 2.5, 3.0]), [0.0, 1.0, 4.0, 2.5, 1.0], rtol=1e-15)


def test_before_the_first_point_and_after_the_last_the_output_holds():
    for interpolation in ("linear", "previous"):
        s = Signal(table="1 7; 2 9", interpolation=interpolation)
        assert ys(s, [-5.0, 0.0, 0.999]) == [7.0, 7.0, 7.0]
        assert ys(s, [2.0, 2.5, 1e6]) == [9.0, 9.0, 9.0]
    assert ys(Signal(table="0.5 3"), [0.0, 0.5, 9.0]) == [3.0, 3.0, 3.0]  # one point: a constant


def test_a_repeated_time_is_a_jump_to_the_later_value():
    """Continuous from the right: at the jump the value after it, and after
    the last of several points at one time."""
    s = Signal(table="0 0; 1 1; 1 5; 2 5; 2 -1; 2 3")
    assert ys(s, [1.0 - 1e-6, 1.0, 1.5, 2.0 - 1e-6, 2.0, 2.5]) == pytest.approx([1.0 - 1e-6, 5.0, 5.0, 5.0, 3.0, 3.0])
    steps = Signal(table="0 0; 1 1; 1 5", interpolation="previous")
    assert ys(steps, [1.0 - 1e-6, 1.0]) == [0.0, 5.0]


def test_a_time_just_before_a_jump_by_round_off_samples_after_it():
    """Ten steps of 0.1 s summed make 0.9999999999999999 s: a host that
    sums its steps samples the jump at 1 s as one at exactly 1 s does."""
    t = 0.0
    for _ in range(10):
        t += 0.1
    assert t < 1.0
    for interpolation in ("linear", "previous"):
        s = Signal(table="0 0; 1 0; 1 1", interpolation=interpolation)
        assert ys(s, [t, 1.0, 1.0 - 10 * TIME_TOLERANCE]) == [1.0, 1.0, 0.0]


def test_scale_and_offset():
    s = Signal(table="0 1; 1 3", scale=-2.0, offset=0.5)
    assert ys(s, [-1.0, 0.5, 2.0]) == [0.5 - 2.0, 0.5 - 4.0, 0.5 - 6.0]


@pytest.mark.parametrize("params", EQ21)
def test_eq_21_the_drive_torque_of_the_column(params):
    """-4000 N m up to 0.1 s, 0 after; at 0.1 s itself the value after the
    jump (the module docstring says why)."""
    s = Signal(**params)
    assert ys(s, [0.0, 0.05, 0.1, 0.1 + 1e-9, 5.0]) == [-4000.0, -4000.0, 0.0, 0.0, 0.0]
    assert y(s, 0.1 - 1e-6) == -4000.0


@pytest.mark.parametrize("params", EQ21)
def test_sample_and_hold_on_the_communication_points_applies_the_papers_impulse(params):
    """A master reads y at t_k = k h and holds it over [t_k, t_k + h]: the
    impulse is -4000 N m x 0.1 s, not one step more."""
    s = Signal(**params)
    h = 1e-3
    impulse = sum(y(s, k * h) * h for k in range(1000))
    assert impulse == pytest.approx(-400.0, rel=1e-12)


def test_the_separators_of_a_table():
    """Entries split by ';' or new lines, numbers by blanks or a comma,
    empty entries skipped."""
    s = Signal(table=" 0, 1 ;\n 1\t2;;\n2 1e1; ")
    assert ys(s, [0.0, 1.0, 2.0]) == [1.0, 2.0, 10.0]


def _write(path, text):
    path.write_text(text)
    return str(path)


def test_a_table_from_a_two_column_file(tmp_path):
    """The column beside the time needs no name; blank lines are skipped."""
    f = _write(tmp_path / "drive.csv", "t,torque\n0,-4000\n\n0.1,-4000\n0.1,0\n")
    s = Signal(file=f)
    assert ys(s, [0.0, 0.05, 0.1, 5.0]) == [-4000.0, -4000.0, 0.0, 0.0]
    assert ys(Signal(file=f, column="torque", interpolation="previous", scale=0.5), [0.05, 0.1]) == [-2000.0, 0.0]


def test_the_file_replaces_the_table(tmp_path):
    f = _write(tmp_path / "points.csv", "time,y\n0,1\n1,3\n")
    assert y(Signal(file=f, table="0 100"), 0.5) == 2.0


@pytest.mark.parametrize("writer,name,rtol", [(CsvWriter, "results.csv", 1e-11),   # 12 digits
                                               (ResultWriter, "results.arrows", 0)])   # every bit
def test_a_column_of_a_run_s_results_as_csv_or_arrow_stream(tmp_path, writer, name, rtol):
    """The layouts of a run's results, results.arrows as a run writes it and
    its CSV: time first, then component.variable; the time is the column
    named time wherever it is."""
    w = writer(tmp_path, ["crane.q_slew", "drive.y", "crane.u_slew"], name=name)
    for t in np.arange(0.0, 1.0 + 1e-12, 0.25):
        w.append(t, [np.sin(t), -4000.0 * (t < 0.5), np.cos(t)])
    w.close()
    f = str(tmp_path / name)
    s = Signal(file=f, column="crane.q_slew")
    np.testing.assert_allclose(ys(s, [0.0, 0.25, 0.375, 1.0]),
                               [0.0, np.sin(0.25), (np.sin(0.25) + np.sin(0.5)) / 2, np.sin(1.0)], rtol=rtol)
    steps = Signal(file=f, column="drive.y", interpolation="previous")
    assert ys(steps, [0.0, 0.49, 0.5, 2.0]) == [-4000.0, -4000.0, 0.0, 0.0]
    moved = _write(tmp_path / "moved.csv", "a,time,b\n5,0,7\n6,1,8\n")
    assert y(Signal(file=moved, column="b"), 0.5) == 7.5


def test_a_relative_file_is_taken_from_the_working_folder(tmp_path, monkeypatch):
    _write(tmp_path / "points.csv", "time,y\n0,2\n")
    monkeypatch.chdir(tmp_path)
    assert y(Signal(file="points.csv"), 1.0) == 2.0


@pytest.mark.parametrize("params,sentence", [
    ({"table": "0 1; x 2"},
     "Signal parameter table = '0 1; x 2' is invalid: entry 2, 'x 2', is not a time and a value "
     "(write \"t0 y0; t1 y1; ...\")"),
    ({"table": "0 1; 1"},
     "Signal parameter table = '0 1; 1' is invalid: entry 2, '1', is not a time and a value "
     "(write \"t0 y0; t1 y1; ...\")"),
    ({"table": "0 1 2"},
     "Signal parameter table = '0 1 2' is invalid: entry 1, '0 1 2', is not a time and a value "
     "(write \"t0 y0; t1 y1; ...\")"),
    ({"table": "0 1; 2 3; 1 0"},
     "Signal parameter table = '0 1; 2 3; 1 0' is invalid: the times must not decrease, but entry 3 goes "
     "back from 2 s to 1 s"),
    ({"table": ""}, "Signal parameter table = '' is invalid: it holds no points"),
    ({"table": " ; \n"}, "Signal parameter table = ' ; \\n' is invalid: it holds no points"),
    ({"table": "0 1; 1 inf"},
     "Signal parameter table = '0 1; 1 inf' is invalid: entry 2, '1 inf', holds a number that is not finite"),
    ({"table": "nan 1"},
     "Signal parameter table = 'nan 1' is invalid: entry 1, 'nan 1', holds a number that is not finite"),
    ({"table": "0 0;" * 30 + "x"},
     "Signal parameter table = '0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0 0;0...' is invalid: "
     "entry 31, 'x', is not a time and a value (write \"t0 y0; t1 y1; ...\")"),
    ({"interpolation": "cubic"},
     "Signal parameter interpolation = 'cubic' is invalid: it must be one of 'linear', 'previous'"),
    ({"scale": float("nan")}, "Signal parameter scale = nan is not a finite number"),
])
def test_a_bad_table_or_choice_is_one_sentence(params, sentence):
    with pytest.raises(ParameterError) as exc:
        Signal(**params)
    assert str(exc.value) == sentence


FILES = {
    "results.csv": "time,crane.q_slew,drive.y\n0,0.1,5\n1,0.2,6\n",
    "one.csv": "time\n0\n1\n",
    "header.csv": "time,y\n",
    "empty.csv": "",
    "word.csv": "time,y\n0,1\n1,two\n",
    "short.csv": "time,a,y\n0,1,2\n1,1\n",
    "nan.csv": "time,y\n0,1\n1,nan\n",
    "back.csv": "time,y\n0,1\n2,1\n\n1,1\n",  # line 4 blank: line 5 is named
}


@pytest.mark.parametrize("name,params,sentence", [
    ("results.csv", {"column": "drive.u"},
     "Signal parameter column = 'drive.u' is invalid for file '{f}': the file has no such column; its columns "
     "are 'time' (the time), 'crane.q_slew', 'drive.y'"),
    ("results.csv", {},
     "Signal parameter column = '' is invalid for file '{f}': the file has 2 columns besides the time 'time', "
     "so column must name one of them: 'crane.q_slew', 'drive.y'"),
    ("results.csv", {"column": "time"},
     "Signal parameter column = 'time' is invalid for file '{f}': that is the file's time; its other columns "
     "are 'crane.q_slew', 'drive.y'"),
    ("one.csv", {}, "Signal parameter file = '{f}' is invalid: the file has no column besides the time 'time'"),
    ("header.csv", {}, "Signal parameter file = '{f}' is invalid: the file holds a header and no points"),
    ("empty.csv", {},
     "Signal parameter file = '{f}' is invalid: the file is empty (it needs a header row naming its columns)"),
    ("word.csv", {}, "Signal parameter file = '{f}' is invalid: line 3 holds 'two' in column 'y', not a number"),
    ("short.csv", {"column": "y"},
     "Signal parameter file = '{f}' is invalid: line 3 holds nothing in column 'y', not a number"),
    ("nan.csv", {}, "Signal parameter file = '{f}' is invalid: line 3 holds 'nan' in column 'y', not a finite number"),
    ("back.csv", {},
     "Signal parameter file = '{f}' is invalid: the times must not decrease, but line 5 goes back from 2 s to 1 s"),
])
def test_a_bad_file_is_one_sentence(tmp_path, name, params, sentence):
    f = _write(tmp_path / name, FILES[name])
    with pytest.raises(ParameterError) as exc:
        Signal(file=f, **params)
    assert str(exc.value) == sentence.format(f=f)


def test_a_missing_or_unreadable_file_is_one_sentence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError) as exc:
        Signal(file="drive.csv")
    assert str(exc.value) == (f"Signal parameter file = 'drive.csv' is invalid: there is no such file (a relative "
                              f"path, taken from the working folder {os.getcwd()})")
    with pytest.raises(ParameterError) as exc:
        Signal(file=str(tmp_path))
    assert str(exc.value) == f"Signal parameter file = '{tmp_path}' is invalid: the file cannot be read: Is a directory"
    (tmp_path / "latin1.csv").write_bytes(b"time,y\n0,\xe9\n")
    with pytest.raises(ParameterError, match=r"^Signal parameter file = 'latin1.csv' is invalid: the file cannot be "
                                             r"read: 'utf-8' codec can't decode byte 0xe9"):
        Signal(file="latin1.csv")
