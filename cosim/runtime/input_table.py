"""Inputs from a file (``run --input FILE``, as ``fmpy simulate
--input-file``): a CSV or Parquet table of a ``time`` column and one
column per input, ``component.variable``, that drives inputs no
connection drives.

Units: a CSV's second row may give each column's unit (the form
``export-results --units`` writes), a column's name may end in one
(``crane.tau_slew [kN.m]``), and a Parquet file written by
``export-results --parquet`` carries them in its schema; a value in another
unit than its input's is converted where the two convert (the FMU's unit
definitions, this project's units), else refused.  Times are seconds, in
order; a time given twice is a jump (the later value holds from it on).
Between two points a continuous Real input is interpolated linearly, any
other (discrete, Integer, Boolean, Enumeration) holds the value of the last
point at or before the time, as the FMU's variability says; before the
first point the first value holds, after the last the last.
"""
from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from ..blocks.signal import TIME_TOLERANCE, PointsError, check_times, read_rows
from ..errors import CraneCosimError, did_you_mean
from ..files.results import metadata_of
from .transformations import definition_of, unit_conversion
from .types import FAMILY

__all__ = ["InputTable", "InputTarget", "read_input_table", "sampled", "input_targets"]

_UNIT_IN_NAME = re.compile(r"^(.*?)\s*\[([^\]]*)\]\s*$")


@dataclass
class InputTable:
    """``times`` [s]; ``columns``: ``component.variable`` -> its values;
    ``units``: ``component.variable`` -> the unit the file gives, or ''."""
    path: str
    times: list
    columns: dict
    units: dict


def sampled(times: list, values: list, t: float, linear: bool) -> float:
    """The table's value at ``t`` [s]: linear between two points, or the last
    point's at or before ``t``; continuous from the right at a jump."""
    i = bisect.bisect_right(times, t + TIME_TOLERANCE)
    if i == 0:
        return values[0]
    if i == len(times) or not linear:
        return values[i - 1]
    t0, t1 = times[i - 1], times[i]
    w = min(max((t - t0) / (t1 - t0), 0.0), 1.0)
    return values[i - 1] + w * (values[i] - values[i - 1])


def _named(header: list, units: list) -> tuple[list, list]:
    names, found = [], []
    for name, unit in zip(header, units):
        match = _UNIT_IN_NAME.match(name)
        names.append(match.group(1) if match else name)
        found.append(match.group(2) if match else unit)
    return names, found


def _number(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CraneCosimError(f"{where} holds {text!r}, not a number") from None
    if not math.isfinite(value):
        raise CraneCosimError(f"{where} holds {text!r}, not a finite number")
    return value


def read_input_table(path) -> InputTable:
    """The table in the CSV or Parquet file ``path``; each fault one sentence
    naming the file and, for a CSV, the line."""
    path = Path(path)
    what = f"input file {path}"
    if path.suffix.lower() == ".parquet":
        try:
            table = pq.read_table(path)
        except (OSError, ValueError) as exc:
            raise CraneCosimError(f"{what} cannot be read as Parquet: {str(exc).splitlines()[0]}") from None
        known = metadata_of(table.schema)["units"]
        header = list(table.column_names)
        rows = list(zip(*[table.column(n).to_pylist() for n in header]))
        units = [known.get(n, "") for n in header]
        lines = list(range(1, len(rows) + 1))
        rows = [[str(v) for v in r] for r in rows]
    else:
        try:
            read = read_rows(str(path))
        except PointsError as exc:
            raise CraneCosimError(f"{what}: {exc}") from None
        header = [c.strip() for c in read[0][1]]
        body = read[1:]
        units = [""] * len(header)
        if body and not re.fullmatch(r"\s*[-+0-9.eE]+\s*", body[0][1][0] if body[0][1] else ""):
            units = [c.strip() for c in body[0][1]] + [""] * (len(header) - len(body[0][1]))
            body = body[1:]
        lines = [line for line, _ in body]
        rows = [row for _, row in body]
    names, units = _named(header, units)
    if "time" not in names:
        raise CraneCosimError(f"{what} has no column named time (its columns: {', '.join(names)})")
    if not rows:
        raise CraneCosimError(f"{what} holds a header and no rows")
    k = names.index("time")
    columns = {n: [] for i, n in enumerate(names) if i != k}
    times = []
    for line, row in zip(lines, rows):
        if len(row) != len(names):
            raise CraneCosimError(f"{what}: line {line} has {len(row)} fields, and the header names {len(names)}")
        times.append(_number(row[k], f"{what}: line {line}, column time,"))
        for i, n in enumerate(names):
            if i != k:
                columns[n].append(_number(row[i], f"{what}: line {line}, column {n},"))
    try:
        check_times(times, "line", lines)
    except PointsError as exc:
        raise CraneCosimError(f"{what}: {exc}") from None
    return InputTable(str(path), times, columns, {n: u for n, u in zip(names, units) if n != "time"})


@dataclass(frozen=True)
class InputTarget:
    """A column of the table and the input it drives: component ``part``
    (its index), the variable ``var``, ``linear`` interpolation or not,
    and ``factor``, ``offset`` from the file's unit to the input's."""
    column: str
    part: int
    var: object
    linear: bool
    factor: float = 1.0
    offset: float = 0.0


def input_targets(table: InputTable, plan) -> tuple[list, list[str]]:
    """The :class:`InputTarget` of each column of ``table`` in ``plan``, and
    the problems, one sentence each: a column that names no input, or one a
    connection drives, or in a unit that does not convert."""
    names = [p.name for p in plan.parts]
    driven = {(c.end_element, c.end_connector) for c in plan.connections}
    targets, problems = [], []
    what = f"input file {table.path}"
    for column in table.columns:
        comp, dot, name = column.partition(".")
        if not dot or comp not in names:
            problems.append(f"{what}: its column {column!r} names no component of the system (a column is "
                            f"component.variable{did_you_mean(comp, names) if dot else ''})")
            continue
        part = plan.parts[names.index(comp)]
        var = part.model.variables.get(name)
        if var is None or var.causality != "input":
            problems.append(f"{what}: its column {column!r} names no input of {part.path.name}"
                            f"{did_you_mean(name, [v.name for v in part.model.inputs()])}")
            continue
        if (comp, name) in driven:
            problems.append(f"{what}: its column {column!r} names an input a connection drives")
            continue
        if FAMILY.get(var.type) not in ("real", "integer", "boolean", "enumeration"):
            problems.append(f"{what}: its column {column!r} names a {var.type} input; a file drives numbers and "
                            f"booleans")
            continue
        factor, offset = 1.0, 0.0
        unit = table.units.get(column, "")
        if unit and var.unit and unit != var.unit:
            a, b = definition_of(unit, part.model.units), definition_of(var.unit, part.model.units)
            conversion = unit_conversion(a, b) if a is not None and b is not None else None
            if conversion is None:
                problems.append(f"{what}: its column {column!r} is in {unit}, which does not convert into the "
                                f"input's {var.unit}")
                continue
            factor, offset = conversion.factor, conversion.offset
        linear = FAMILY.get(var.type) == "real" and var.variability == "continuous"
        targets.append(InputTarget(column, part.index, var, linear, factor, offset))
    return targets, problems
