"""A signal source: one output ``y``, a function of time given by points
``(time, value)``: steps, ramps, or any recorded signal replayed.

The points come from the parameter ``table``, ``"t0 y0; t1 y1; ..."``
(times in s, values in the unit of ``y``), or from a CSV file (``file``,
with a header row) or a run's ``results.arrows`` (the Arrow IPC stream a
run of this project writes, read through pyarrow; its CSV from
``crane-cosim export-results`` alike: a column ``time``, then one column per
``component.variable``): the time
is the column named ``time`` (else the first), the value the column
``column``.  Times must not decrease; a repeated time is a jump.

Between two points ``y`` is interpolated (``interpolation = linear``: ramps)
or held (``previous``: steps, the value of the last point at or before
``t``); before the first point and after the last it holds the first and
the last value.  ``y = offset + scale * value``.

At a jump ``y`` takes the value after it (``y`` is continuous from the
right), the one that a co-simulation's sample-and-hold needs: a master
reads ``y`` at a communication point and holds it over the step that
starts there, so a step signal whose jumps lie on communication points is
applied exactly (eq. 21 below: -4000 N m over the first 100 steps of
1 ms, an impulse of -400 N m s as in the paper; the value before the jump
would hold -4000 N m one step longer).  A time less than 1e-9 s before a
point's time counts as that time, so a communication point that round-off
puts just before a jump (ten steps of 0.1 s summed make
0.9999999999999999 s) samples the same side as the exact time would.

The monolithic reference (``cosim/monolithic/reference.py``) needs nothing more at a
jump: scipy's adaptive step rejects steps until the one across it is short
enough for the tolerance.  For the crane of Cibicik & Egeland (2018), on a
fixed base, driven by eq. (21) over 0.5 s, DOP853 at its rtol of 1e-9 takes
806 evaluations (266 without the jump) and ends within 8e-9 of a run
integrated in two pieces, stopped at the jump, at 1e-12.

The unit of ``y`` (and of ``offset``) is left undeclared: a port without a
unit is taken to have its partner's unit when connected (N.m driving a
torque, m a position, ...; ``cosim/runtime/checks.py`` notes it), so one FMU serves
every signal.  A unit chosen by a parameter could not change the unit the
FMU declares.

The torque t_dr driving the crane's column in eq. (21) of Jarzębowska,
Urbaś & Augustynek (2018), -4000 N m for 0 <= t <= 0.1 s then 0, is
``table = "0 -4000; 0.1 -4000; 0.1 0"`` (linear) or ``"0 -4000; 0.1 0"``
with ``interpolation = previous``.  At t = 0.1 s itself it gives 0 where the
paper's closed interval gives -4000 N m: one instant, which no integral
sees.
"""
from __future__ import annotations

import bisect
import csv
import math
import os
import re

import numpy as np

from .block import Block, ParameterError, Variable

_P = Variable

#: ``interpolation``: between the points, a straight line or the earlier value
INTERPOLATIONS = ("linear", "previous")
#: [s] a time this close before a point's time counts as that time, so that
#: a jump is sampled on the same side whatever the round-off of the
#: communication points: far above that round-off (about 1e-16 of the time
#: per step summed), far below any step
TIME_TOLERANCE = 1e-9
#: longest text of a parameter that a message quotes whole
_SHOWN = 60


class PointsError(ValueError):
    """What is wrong with a table or a file of points, as the end of a
    sentence; the block adds the parameter it blames: ``parameter`` if
    given (``column``), else the one that gave the points."""

    def __init__(self, message: str, parameter: str | None = None):
        super().__init__(message)
        self.parameter = parameter


def points_of_table(text: str) -> tuple[list[float], list[float]]:
    """Times [s] and values of a table ``"t0 y0; t1 y1; ..."`` (entries
    split by ``;`` or new lines, the two numbers by blanks or a comma; empty
    entries skipped).  Raises :class:`PointsError` naming the bad entry."""
    times, values = [], []
    entries = [e.strip() for e in re.split(r"[;\n]", text)]
    for k, entry in enumerate((e for e in entries if e), start=1):
        fields = [f for f in re.split(r"[\s,]+", entry) if f]
        try:
            t, y = map(float, fields)  # a ValueError too for one or three numbers
        except ValueError:
            raise PointsError(f"entry {k}, {entry!r}, is not a time and a value (write \"t0 y0; t1 y1; ...\")") \
                from None
        if not (math.isfinite(t) and math.isfinite(y)):
            raise PointsError(f"entry {k}, {entry!r}, holds a number that is not finite")
        times.append(t)
        values.append(y)
    check_times(times, "entry")
    return times, values


def check_times(times: list[float], what: str, numbers: list[int] | None = None) -> None:
    """Raise :class:`PointsError` for no points or a time smaller than the
    one before it, naming it as ``what`` (entry or line) and its number,
    ``numbers[k]`` for point k (default: 1-based counting)."""
    if not times:
        raise PointsError("it holds no points")
    for k in range(1, len(times)):
        if times[k] < times[k - 1]:
            number = numbers[k] if numbers else k + 1
            raise PointsError(f"the times must not decrease, but {what} {number} goes back from "
                              f"{times[k - 1]:g} s to {times[k]:g} s")


def _arrow_rows(path: str) -> list[tuple[int, list[str]]]:
    """The rows of the Arrow IPC stream ``path`` (a run's results.arrows) as
    :func:`read_rows` gives a CSV's: the header, then each row's values as
    text (``repr``: exact), numbered from 1; a batch cut short (a run killed
    while writing it) ends them."""
    try:  # pyarrow only for a run's .arrows file: an FMU's Python may lack it
        import pyarrow as pa
    except ImportError:
        raise PointsError("reading a .arrows file needs pyarrow, which this Python lacks: write the results "
                          "as CSV (crane-cosim export-results RESULTS --csv) and give that") from None
    try:
        with pa.OSFile(path, "rb") as f:
            reader = pa.ipc.open_stream(f)
            rows = [(1, list(reader.schema.names))]
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    break
                except (pa.ArrowInvalid, OSError):
                    break
                columns = [c.to_pylist() for c in batch.columns]
                rows += [(len(rows) + 1, ["" if v is None else repr(v) if isinstance(v, float) else str(v)
                                          for v in row]) for row in zip(*columns)]
    except (pa.ArrowInvalid, OSError) as exc:
        raise PointsError(f"the file cannot be read as an Arrow IPC stream: {exc}") from None
    return rows


def read_rows(path: str) -> list[tuple[int, list[str]]]:
    """The rows of the CSV file ``path`` (or of a run's ``.arrows``, which
    :func:`_arrow_rows` reads) with their line numbers (1-based), header
    first, blank lines left out.  Raises :class:`PointsError` for a file
    that is missing or cannot be read."""
    # an FMU runs in its host's working folder, which the user may not know
    where = "" if os.path.isabs(path) else f" (a relative path, taken from the working folder {os.getcwd()})"
    if path.endswith(".arrows"):
        if not os.path.isfile(path):
            raise PointsError(f"there is no such file{where}")
        return _arrow_rows(path)
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f)
            rows = [(reader.line_num, row) for row in reader if row]
    except FileNotFoundError:
        raise PointsError(f"there is no such file{where}") from None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PointsError(f"the file cannot be read: {reason}") from None
    if not rows:
        raise PointsError("the file is empty (it needs a header row naming its columns)")
    return rows


def time_column(header: list[str]) -> int:
    """Index of the time: the column named ``time``, else the first."""
    return header.index("time") if "time" in header else 0


def value_column(header: list[str], column: str) -> int:
    """Index of the column named ``column``; ``""`` names the only column
    besides the time.  Raises :class:`PointsError` listing the columns."""
    t = time_column(header)
    others = [name for k, name in enumerate(header) if k != t]
    listed = ", ".join(repr(n) for n in others)
    if not others:
        raise PointsError(f"the file has no column besides the time {header[t]!r}")
    if column == "" and len(others) > 1:
        raise PointsError(f"the file has {len(others)} columns besides the time {header[t]!r}, so column "
                          f"must name one of them: {listed}", "column")
    if column == "":
        return header.index(others[0])
    if column == header[t]:
        raise PointsError(f"that is the file's time; its other columns are {listed}", "column")
    if column not in others:
        raise PointsError(f"the file has no such column; its columns are {header[t]!r} (the time), {listed}",
                          "column")
    return header.index(column)


def points_of_file(path: str, column: str) -> tuple[list[float], list[float]]:
    """Times [s] and values in the CSV file ``path`` (column ``column``, see
    :func:`value_column`).  Raises :class:`PointsError` naming the bad line."""
    return points_of_rows(read_rows(path), column)


def points_of_rows(rows, column: str) -> tuple[list[float], list[float]]:
    """:func:`points_of_file` of the rows :func:`read_rows` read."""
    header = [name.strip() for name in rows[0][1]]
    t_col, y_col = time_column(header), value_column(header, column)
    times, lines, values = [], [], []
    for line, row in rows[1:]:
        pair = []
        for col in (t_col, y_col):
            text = row[col].strip() if col < len(row) else ""
            try:
                number = float(text)
            except ValueError:
                shown = repr(text) if text else "nothing"
                raise PointsError(f"line {line} holds {shown} in column {header[col]!r}, not a number") from None
            if not math.isfinite(number):
                raise PointsError(f"line {line} holds {text!r} in column {header[col]!r}, not a finite number")
            pair.append(number)
        times.append(pair[0])
        values.append(pair[1])
        lines.append(line)
    if not times:
        raise PointsError("the file holds a header and no points")
    check_times(times, "line", lines)
    return times, values


def _shown(name: str, text: str) -> str:
    """A text parameter as a message quotes it: a table cut short if long
    (the message names the bad entry), a file name or a column whole."""
    return repr(text) if name != "table" or len(text) <= _SHOWN else repr(text[:_SHOWN - 3] + "...")


class Signal(Block):
    # no docstring of its own: the module's is the model's notes (docs/fmus.md)
    model_name = "Signal"
    description = ("Signal source: y(t) from points (time, value), a table or a column of a CSV file, "
                   "interpolated linearly or held (steps); y takes its partner's unit.")
    reference = ("Follows no publication: points (time, value) from a table, a CSV file or a run's results, "
                 "interpolated linearly or held, continuous from the right at a jump, as a co-simulation's "
                 "sample-and-hold needs.")
    validation = ("Steps, ramps (to 1e-15) and jumps give the table's values, a time within 1e-9 s before a "
                  "jump (round-off) sampling after it; the drive torque of eq. (21) of Jarzębowska, Urbaś & "
                  "Augustynek (2018), sampled and held at 1 ms communication points, gives the paper's impulse "
                  "of -400 N m s to 1e-12.")
    reference_experiment = {"offset": 1.5}  # the default table is zero throughout
    parameters = (
        _P("table", "", "0 0", "Points \"t0 y0; t1 y1; ...\" of y: times in s, not decreasing (a repeated time "
                               "is a jump, y takes the later value), values in the unit of y; unused if file "
                               "is set", "String"),
        _P("file", "", "", "CSV file to take the points from instead of table (a header row naming the "
                           "columns; a relative path is from the working folder of the process)", "String"),
        _P("column", "", "", "Column of file holding the values (the time is the column 'time', else the "
                             "first); empty: the only other column", "String"),
        _P("interpolation", "", "linear", "Between points: linear (ramps) or previous (steps: the value of the "
                                          "last point at or before t)", "String"),
        _P("scale", "1", 1.0, "Factor on the points' values: y = offset + scale * value", tunable=True),
        _P("offset", "", 0.0, "Added to the scaled value, in the unit of y", tunable=True),
    )
    outputs = (_P("y", "", 0.0, "The signal at t (no unit declared: it takes the unit of the input it drives)"),)
    # a function of time alone
    feedthrough = (("y", ()),)
    states = ()

    def setup(self):
        self.require_one_of("interpolation", INTERPOLATIONS)
        source = "file" if self.p.file else "table"
        try:
            if source == "file":
                self._times, self._values = points_of_file(self.p.file, self.p.column)
            else:
                self._times, self._values = points_of_table(self.p.table)
        except PointsError as exc:
            name = exc.parameter or source
            of_file = f" for file {self.p.file!r}" if name == "column" else ""
            raise ParameterError(f"{self.model_name} parameter {name} = {_shown(name, self.values[name])} is "
                                 f"invalid{of_file}: {exc}") from None
        self._steps = self.p.interpolation == "previous"

    def value(self, t: float) -> float:
        """The points' value at ``t`` [s], before ``scale`` and ``offset``;
        continuous from the right at a jump."""
        times, values = self._times, self._values
        # the points at or before t (or just after it, within the tolerance)
        i = bisect.bisect_right(times, t + TIME_TOLERANCE)
        if i == 0:
            return values[0]
        if i == len(times) or self._steps:
            return values[i - 1]
        t0, t1 = times[i - 1], times[i]  # t1 > t0: i - 1 is the last point at t0
        w = min(max((t - t0) / (t1 - t0), 0.0), 1.0)
        return values[i - 1] + w * (values[i] - values[i - 1])

    def output(self, t, x, u):
        return np.array([self.p.offset + self.p.scale * self.value(t)])
