"""A run's results (``results.arrows``) written as CSV, Parquet or MATLAB's
MAT for those who want them: ``crane-cosim export-results RESULTS [--csv]
[--parquet] [--units] [--out FILE]``, and ``run --output-file FILE``.

The CSV is the one runs wrote before results.arrows: first row the column
names, first column ``time``; a real to 12 significant digits (``%.12g``:
``nan``, ``inf`` as such), an Integer or Enumeration as a whole number, a
Boolean as 1 or 0, a String quoted as RFC 4180 quotes it where it must be,
a failed value (null) as an empty field; with ``units``, a second row
holds each column's unit (``s`` for time).  The Parquet file (zstd) keeps
the columns' types and the units, FMI types and roles in its schema's
metadata, as results.arrows does.  The MAT file (version 5, compressed,
``scipy.io.savemat``) holds ``time`` and a struct per component with a
column vector per variable (``crane.W_mount_fx`` in MATLAB as in the
results), and ``units``, a struct of the same shape holding the units; a
Boolean as 1 or 0, a failed value as NaN, a String as a cell of text; a
name MATLAB cannot take has its other characters as ``_``.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import scipy.io

from ..errors import CraneCosimError
from .results import CSV_FILE, PARQUET_FILE, metadata_of, read_table, replaced, results_path

__all__ = ["SUFFIXES", "csv_lines", "write_csv", "write_parquet", "write_mat", "export_format", "check_writable",
           "export_results"]

#: the files export-results writes, by the suffix of their name
SUFFIXES = {".csv": "CSV", ".parquet": "Parquet", ".mat": "MAT"}


def _quoted(text: str) -> str:
    """A String value as CSV quotes it (RFC 4180)."""
    if any(c in text for c in ',"\n\r') or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def _texts(column: pa.ChunkedArray | pa.Array) -> list[str]:
    """The values of one column as the CSV writes them."""
    kind = column.type
    values = column.to_pylist()
    if pa.types.is_floating(kind):
        return ["" if v is None else "%.12g" % v for v in values]
    if pa.types.is_boolean(kind):
        return ["" if v is None else ("1" if v else "0") for v in values]
    if pa.types.is_integer(kind):
        return ["" if v is None else "%d" % v for v in values]
    return ["" if v is None else _quoted(str(v)) for v in values]


def csv_lines(table: pa.Table, rows: int = 4096, units: bool = False):
    """The lines of the CSV of ``table`` (the header first, then, with
    ``units``, the units), ``rows`` rows formatted at a time, each ending
    with a newline."""
    yield ",".join(table.column_names) + "\n"
    if units:
        known = metadata_of(table.schema)["units"]
        yield ",".join(_quoted(known.get(name, "")) for name in table.column_names) + "\n"
    for start in range(0, table.num_rows, rows):
        part = table.slice(start, rows)
        columns = [_texts(part.column(i)) for i in range(part.num_columns)]
        yield "".join(",".join(row) + "\n" for row in zip(*columns))


def write_csv(table: pa.Table, path, units: bool = False) -> Path:
    """``table`` as the CSV file ``path`` (see the module's docstring)."""
    path = Path(path)
    with open(path, "w", newline="") as f:
        f.writelines(csv_lines(table, units=units))
    return path


def _matlab_name(name: str, taken: set) -> str:
    """``name`` as MATLAB takes a field's name (a letter first, then
    letters, digits and ``_``), made unique among ``taken``."""
    field = re.sub(r"\W", "_", name, flags=re.ASCII)
    field = field if field[:1].isalpha() else "x" + field
    unique, k = field, 1
    while unique in taken:
        k += 1
        unique = f"{field}_{k}"
    taken.add(unique)
    return unique


def _matlab_values(column: pa.ChunkedArray) -> np.ndarray:
    """One column as a MAT file holds it: numbers as doubles (a failed value
    NaN, a Boolean 1 or 0), text as a cell array."""
    kind = column.type
    if pa.types.is_floating(kind) or pa.types.is_integer(kind) or pa.types.is_boolean(kind):
        return np.array([np.nan if v is None else float(v) for v in column.to_pylist()], dtype=float)
    return np.array(["" if v is None else str(v) for v in column.to_pylist()], dtype=object)


def write_mat(table: pa.Table, path) -> Path:
    """``table`` as the MAT file ``path`` (see the module's docstring)."""
    path = Path(path)
    known = metadata_of(table.schema)["units"]
    data, units, fields = {"time": table.column("time").to_numpy()}, {"time": "s"}, {}
    taken = {"time", "units"}
    for name in table.column_names[1:]:
        comp, _, var = name.partition(".") if "." in name else ("results", "", name)
        if comp not in fields:
            fields[comp] = (_matlab_name(comp, taken), set())
        struct, inside = fields[comp]
        field = _matlab_name(var, inside)
        data.setdefault(struct, {})[field] = _matlab_values(table.column(name))
        units.setdefault(struct, {})[field] = known.get(name, "")
    data["units"] = units
    with open(path, "wb") as f:
        scipy.io.savemat(f, data, do_compression=True, oned_as="column", long_field_names=True)
    return path


def write_parquet(table: pa.Table, path) -> Path:
    """``table`` as the Parquet file ``path`` (zstd), its metadata kept."""
    # Parquet's writer only where a Parquet file is written
    import pyarrow.parquet as pq
    path = Path(path)
    pq.write_table(table, path, compression="zstd")
    return path


def export_format(path, label: str = "--out") -> str:
    """The suffix of the file ``path``, one of :data:`SUFFIXES`: the format
    it is written in; another refused in one sentence naming ``label``,
    the option that gave it."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise CraneCosimError(f"{label} {path}: the results are written as {', '.join(SUFFIXES)} files, not "
                              f"{suffix or 'a file without a suffix'}: name the file {path.stem}.csv or the like")
    return suffix


def check_writable(target, label: str = "--out") -> None:
    """Refuse in one sentence an export ``target`` that is a folder, or
    whose folder is not one (``label``: the option that named it)."""
    target = Path(target)
    if target.is_dir():
        raise CraneCosimError(f"the export {target} is an existing folder: give {label} a file name")
    if not target.parent.is_dir():
        raise CraneCosimError(f"the export {target} cannot be written: {target.parent} is not a folder")


def export_results(results, csv: bool = False, parquet: bool = False, out=None, units: bool = False,
                   label: str = "--out") -> list[Path]:
    """Write the results of ``results`` (a run's folder or its results file)
    as CSV and/or Parquet, or as the format ``out``'s suffix names
    (:data:`SUFFIXES`, one format only; another suffix is refused, for a
    file whose name says another format than its bytes), else
    ``results.csv`` and ``results.parquet`` beside the results (CSV where
    neither is asked for); ``units``: the CSV's second row the units;
    ``label``: the option that named ``out``, in sentences.
    Returns the paths written.  Bad input is :class:`CraneCosimError` in
    one sentence."""

    source = results_path(results)
    if csv and parquet and out is not None:
        raise CraneCosimError("--out names one file: give --csv or --parquet with it, not both")
    mat = False
    if out is not None and not Path(out).is_dir() and Path(out).resolve() != source.resolve():
        suffix = export_format(out, label)
        if csv and suffix != ".csv" or parquet and suffix != ".parquet":
            raise CraneCosimError(f"--out {out} names a {SUFFIXES[suffix]} file, and --{'csv' if csv else 'parquet'} "
                                  f"asks for {'CSV' if csv else 'Parquet'}: give one of the two")
        csv, parquet, mat = suffix == ".csv", suffix == ".parquet", suffix == ".mat"
    if not csv and not parquet and not mat:
        csv = True
    targets = []
    if csv:
        targets.append((lambda table, part: write_csv(table, part, units),
                        Path(out) if out is not None else source.parent / CSV_FILE))
    if parquet:
        targets.append((write_parquet, Path(out) if out is not None else source.parent / PARQUET_FILE))
    if mat:
        targets.append((write_mat, Path(out)))
    for _, target in targets:
        if target.resolve() == source.resolve():
            raise CraneCosimError(f"the export {target} would overwrite the results it is made from: give {label} "
                                  f"another file")
        check_writable(target, label)
    table, _ = read_table(results)
    written = []
    for write, target in targets:
        try:
            # under a temporary name first: a full disk leaves no export cut short
            written.append(replaced(target, lambda part: write(table, part)))
        except OSError as exc:
            raise CraneCosimError(f"the export {target} cannot be written: {exc.strerror or exc}") from None
    return written
