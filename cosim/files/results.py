"""Results on disk, written as the run goes: ``results.arrows`` (an Arrow IPC
stream, ``files/results_stream.py``: first column ``time``, then one column
per recorded variable, ``component.variable``, each with its unit, FMI type
and role in its metadata) and ``summary.json`` (settings, versions, wall
time, real-time factor, status).  Rows are written at least every second, so
a failure, Ctrl-C or SIGKILL keeps what was computed up to a second before.
``crane-cosim export-results`` writes them as CSV or Parquet
(``files/results_export.py``)."""
from __future__ import annotations

import json
import os
import platform
import time
from importlib import metadata
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..errors import CraneCosimError
from .results_stream import HEADER_KEY, read_stream

RESULTS_FILE = "results.arrows"
#: the results as CSV: what ``crane-cosim export-results --csv`` writes, and what runs wrote before results.arrows
CSV_FILE = "results.csv"
#: the results as Parquet: what ``crane-cosim export-results --parquet`` writes, and a sweep's case keeps
PARQUET_FILE = "results.parquet"
SUMMARY_FILE = "summary.json"
#: the estimate of the coupling error at the recorded points (``cosim/runtime/observers/estimate.py``)
ESTIMATE_FILE = "coupling_error.csv"
#: the pacing's timing of every step (``cosim/runtime/observers/pacing.py``)
TIMING_FILE = "timing.csv"
#: the folder of a run's figures (``cosim/reports/plots.py``)
PLOTS_FOLDER = "plots"
#: the run's 3-D animation (``cosim/views``: ``run --animate``, ``crane-cosim animate``)
ANIMATION_FILE = "animation.html"
#: everything a run writes in its folder, or is exported beside it: a folder holding one of them holds a run
RUN_FILES = (RESULTS_FILE, CSV_FILE, PARQUET_FILE, SUMMARY_FILE, ESTIMATE_FILE, TIMING_FILE, PLOTS_FOLDER,
             ANIMATION_FILE)


def run_files_in(folder) -> list[str]:
    """The names of :data:`RUN_FILES` present in ``folder`` (an earlier run's)."""
    folder = Path(folder)
    return [name for name in RUN_FILES if (folder / name).exists()]


class CsvWriter:
    """Streaming CSV writer with a row buffer (``coupling_error.csv``, a
    signal table for a test): ``name`` in ``out_dir``, the
    columns ``time``, then ``columns``, each in its printf ``formats``
    entry (default ``%.12g``: 12 significant digits; ``%d`` for a whole
    number; ``%s`` for a text already quoted as CSV needs)."""

    def __init__(self, out_dir, columns: list[str], flush_seconds: float = 1.0, name: str = CSV_FILE,
                 formats: list[str] | None = None):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.out_dir / name
        self.columns = ["time"] + list(columns)
        self._file = open(self.path, "w", newline="")
        self._file.write(",".join(self.columns) + "\n")
        self._rows: list = []
        self._flush_seconds = flush_seconds
        self._last_flush = time.monotonic()
        formats = list(formats) if formats is not None else ["%.12g"] * len(columns)
        # a row of texts is kept as a tuple, a row of numbers as an array
        self._texts = "%s" in formats
        # 12 significant digits; a row's cost taken as 20 µs until one is timed
        self._row_format = ",".join(["%.12g"] + formats) + "\n"
        self._row_ns = 20_000

    def append(self, t: float, values) -> None:
        if self._texts:
            row = (t, *values)
        else:
            row = np.empty(len(self.columns))
            row[0] = t
            row[1:] = values
        self._rows.append(row)
        if len(self._rows) >= 256 and time.monotonic() - self._last_flush > self._flush_seconds:
            self.flush()

    def _text(self, row) -> str:
        return self._row_format % (row if self._texts else tuple(row.tolist()))

    def write_until(self, until_ns: int) -> None:
        """Write buffered rows, oldest first, while each can be done before
        ``until_ns`` (``time.perf_counter_ns``): a run paced to the wall clock
        writes in the time it waits, rather than a second's rows at once
        (about 20 µs a row of 100 values, 20 ms a second at 1 ms)."""
        if not self._rows:
            return
        write, text, rows = self._file.write, self._text, self._rows
        start = now = time.perf_counter_ns()
        done = 0
        # a row costs about what the last ones did; twice that is kept spare
        while done < len(rows) and now + 2 * self._row_ns < until_ns:
            write(text(rows[done]))
            done += 1
            now = time.perf_counter_ns()
        if done:
            del rows[:done]
            self._row_ns = (now - start) // done
            self._last_flush = time.monotonic()

    def flush(self) -> None:
        if self._rows:
            self._file.write("".join(map(self._text, self._rows)))
            self._rows.clear()
        self._file.flush()
        self._last_flush = time.monotonic()

    def close(self) -> None:
        if not self._file.closed:
            self.flush()
            self._file.close()


def versions() -> dict:
    """Versions of Python and the packages a run depends on."""
    out = {"python": platform.python_version(), "platform": platform.platform()}
    for dist in ("crane-cosim", "numpy", "numba", "scipy", "fmpy", "pythonfmu", "pandas", "matplotlib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def write_summary(out_dir, summary: dict) -> Path:
    """``summary`` as ``summary.json`` in ``out_dir``, whole or not at all:
    written under a temporary name and renamed (a full disk leaves no
    summary cut short)."""
    path = Path(out_dir) / SUMMARY_FILE
    replaced(path, lambda part: part.write_text(json.dumps(summary, indent=2, default=str) + "\n"))
    return path


def replaced(path, write) -> Path:
    """The file ``path`` written by ``write(part)`` to a temporary name
    beside it, then renamed to ``path``: a write that fails (a full disk)
    leaves neither a part nor a file cut short under its name."""
    path = Path(path)
    part = path.with_name(f".{path.name}.part")
    try:
        write(part)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return path


def read_summary(out_dir) -> dict:
    """The run's ``summary.json`` in ``out_dir``, or, where it has none (a
    run killed before it wrote it), :func:`summary_of_stream` of its
    results.arrows; an empty dict where neither can be read."""
    try:
        summary = json.loads((Path(out_dir) / SUMMARY_FILE).read_text())
    except FileNotFoundError:
        return summary_of_stream(Path(out_dir) / RESULTS_FILE) if Path(out_dir).is_dir() else {}
    except (OSError, ValueError):
        return {}
    return summary if isinstance(summary, dict) else {}


def summary_of_stream(path) -> dict:
    """What the results.arrows ``path`` of a run holds of its summary: its
    settings and components as the run started, the columns' units, types
    and roles, ``status`` "cut short" and ``end_time`` its last recorded
    time [s] (None: no row); an empty dict where the file has none or cannot
    be read."""
    try:
        table, _ = read_stream(path)
    except CraneCosimError:
        return {}
    meta = table.schema.metadata or {}
    try:
        summary = json.loads(meta[HEADER_KEY.encode()])
    except (KeyError, ValueError):
        return {}
    if not isinstance(summary, dict):
        return {}
    columns = metadata_of(table.schema)
    summary.update(units=columns["units"], types=columns["types"], roles=columns["roles"], status="cut short",
                   end_time=table.column("time")[-1].as_py() if table.num_rows else None)
    return summary


def cut_short(results) -> str | None:
    """The sentence saying that the run in the folder ``results`` was cut
    short (killed: it has results.arrows, holding what a run starts it
    with, and no summary.json), or None."""
    folder = Path(results)
    if not folder.is_dir() or (folder / SUMMARY_FILE).exists() or not (folder / RESULTS_FILE).is_file():
        return None
    summary = summary_of_stream(folder / RESULTS_FILE)
    if not summary:  # not a file a run wrote, or not even its schema: what reads it says so
        return None
    end = summary.get("end_time")
    at = f"at t = {end:g} s, its last recorded row" if end is not None else "before it recorded a row"
    return f"the run in {folder} was cut short {at} (it wrote no {SUMMARY_FILE}); what it recorded is used"


def model_of(component: dict) -> str:
    """The model behind a component as a summary records it (``{"source":
    its FMU, ...}``): its FMU's file name without ``.fmu``."""
    return Path(str(component.get("source", ""))).stem


def component_models(summary: dict) -> dict:
    """component -> the model behind it (:func:`model_of`), from a run's summary."""
    components = summary.get("components")
    if not isinstance(components, dict):
        return {}
    return {name: model_of(c) for name, c in components.items() if isinstance(c, dict)}


def results_path(results) -> Path:
    """The results file of ``results``: a run's folder (its results.arrows,
    or the results.csv of a run from before it), or a file itself."""
    results = Path(results)
    if results.is_dir():
        for name in (RESULTS_FILE, PARQUET_FILE, CSV_FILE):
            if (results / name).is_file():
                return results / name
        return results / RESULTS_FILE
    return results


def read_table(results):
    """The results of ``results`` (:func:`results_path`) as a pyarrow Table
    with their metadata, and whether the file is whole (False: a run killed
    while writing its last batch, which is left out).  A missing or
    unreadable file is :class:`~crane_cosim.errors.CraneCosimError` in one
    sentence naming it."""
    path = results_path(results)
    if not path.is_file():
        where = f"{path.parent} holds no {RESULTS_FILE}" if Path(results).is_dir() else f"{path} does not exist"
        raise CraneCosimError(f"{where}: give the folder of a run or its {RESULTS_FILE}")
    try:
        if path.suffix == ".csv":
            return pa.Table.from_pandas(pd.read_csv(path), preserve_index=False), True
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq  # here: Parquet's reader loads only for a Parquet file
            return pq.read_table(path), True
    except (OSError, ValueError, pa.ArrowException, pd.errors.ParserError) as exc:
        raise CraneCosimError(f"the results {path} cannot be read: {str(exc).splitlines()[0]}") from None
    return read_stream(path)


def metadata_of(schema) -> dict:
    """``{"units": {column: unit}, "types": {column: FMI type}, "roles":
    {column: role}, "system": name}`` from a results file's ``schema``
    (empty where a file has none: a CSV)."""
    out = {"units": {}, "types": {}, "roles": {}, "system": ""}
    meta = schema.metadata or {}
    out["system"] = meta.get(b"crane_cosim.system", b"").decode()
    for field in schema:
        m = field.metadata or {}
        for key, into in ((b"unit", "units"), (b"fmi_type", "types"), (b"role", "roles")):
            if key in m:
                out[into][field.name] = m[key].decode()
    return out


def read_results(results) -> pd.DataFrame:
    """The results of a run (its folder, or a results file:
    :func:`results_path`) as a pandas DataFrame, one column each, typed
    (float64; int64, or float64 where a value failed; bool; str), with
    ``attrs["units"]``, ``attrs["types"]``, ``attrs["roles"]`` and
    ``attrs["system"]`` from the file's metadata.  A run killed while
    writing gives every row of the batches it wrote (at most its last
    second is lost)."""
    table, _ = read_table(results)
    df = table.to_pandas()
    df.attrs.update(metadata_of(table.schema))
    return df
