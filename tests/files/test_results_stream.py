"""results.arrows: every column type and its metadata round trip, the rows
written as the run goes (at most ``flush_seconds`` of them held), and a file
cut short read up to its last whole batch."""
from __future__ import annotations

import errno
import math
import threading
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results, read_table
from crane_cosim.files.results_stream import ResultWriter, read_stream

COLUMNS = ["a.x", "a.n", "a.on", "a.mode", "a.label", "a.big"]
UNITS = ["N.m", "", "", "", "", "1"]
TYPES = ["Real", "Integer", "Boolean", "Enumeration", "String", "Int64"]
ROLES = ["interface.wrench.nx", None, None, None, None, None]


def _typed(folder, flush_seconds=1.0) -> ResultWriter:
    return ResultWriter(folder, COLUMNS, UNITS, TYPES, ROLES, system="Typed", flush_seconds=flush_seconds)


def test_every_column_type_and_its_metadata_round_trip(tmp_path):
    """A real as float64 (NaN and infinities kept), an Integer, Enumeration
    or Int64 as int64 (2**53 exact), a Boolean as bool, a String as text
    (commas, quotes, newlines, empty); units, FMI types, roles and the
    system's name in the file's own metadata."""
    w = _typed(tmp_path)
    rows = [(0.0, [1.5, -3, 1, 2, 4.0], ["plain"]),
            (0.001, [math.nan, 7, 0, 1, 2.0 ** 53], ['with, comma and "quotes"']),
            (0.002, [math.inf, 2 ** 31 - 1, 1, 3, -(2.0 ** 53)], ["two\nlines"]),
            (0.003, [-math.inf, -2 ** 31, 0, 0, 0.0], [""])]
    for t, values, texts in rows:
        w.append(t, values, texts)
    w.close()
    df = read_results(tmp_path)
    assert list(df.columns) == ["time"] + COLUMNS
    assert [str(df[c].dtype) for c in ("time", "a.x", "a.n", "a.on", "a.mode", "a.big")] == \
        ["float64", "float64", "int64", "bool", "int64", "int64"]
    assert df["time"].tolist() == [0.0, 0.001, 0.002, 0.003]
    np.testing.assert_array_equal(df["a.x"], [1.5, math.nan, math.inf, -math.inf])
    assert df["a.n"].tolist() == [-3, 7, 2 ** 31 - 1, -2 ** 31]
    assert df["a.on"].tolist() == [True, False, True, False]
    assert df["a.mode"].tolist() == [2, 1, 3, 0]
    assert df["a.big"].tolist() == [4, 2 ** 53, -2 ** 53, 0]
    assert df["a.label"].tolist() == ["plain", 'with, comma and "quotes"', "two\nlines", ""]
    assert df.attrs["units"] == {"time": "s", **dict(zip(COLUMNS, UNITS))}
    assert df.attrs["types"] == {"time": "Real", **dict(zip(COLUMNS, TYPES))}
    assert df.attrs["roles"] == {"a.x": "interface.wrench.nx"}
    assert df.attrs["system"] == "Typed"
    # what another tool reads with pyarrow alone (docs/results.md's one-liner): the same frame
    other = pa.ipc.open_stream(tmp_path / "results.arrows").read_pandas()
    pd.testing.assert_frame_equal(other, df, check_exact=True)
    field = pa.ipc.open_stream(tmp_path / "results.arrows").schema.field("a.x")
    assert field.metadata == {b"unit": b"N.m", b"fmi_type": b"Real", b"role": b"interface.wrench.nx"}


def test_a_failed_integer_or_boolean_value_is_null_and_the_column_then_float(tmp_path):
    """NaN (a value that failed, in the master's float) has no int64 or bool:
    it is null, which pandas shows as NaN in a float or object column."""
    w = _typed(tmp_path)
    w.append(0.0, [0.0, 1, 1, 1, 1], ["x"])
    w.append(0.1, [0.0, math.nan, math.nan, math.nan, 1], ["y"])
    w.close()
    table, whole = read_table(tmp_path)
    assert whole and table.column("a.n").to_pylist() == [1, None]
    assert table.column("a.on").to_pylist() == [True, None] and table.column("a.mode").null_count == 1


def _batches(folder, n_batches=4, rows=50):
    """A results file of ``n_batches`` batches of ``rows`` rows, written by
    flush(): the file's size after the schema and after each batch."""
    w = ResultWriter(folder, ["c.y"], ["m"], ["Real"])
    ends = [w.path.stat().st_size]
    for b in range(n_batches):
        for k in range(rows):
            i = b * rows + k
            w.append(i * 0.01, [float(i)])
        w.flush()
        ends.append(w.path.stat().st_size)
    return w, ends


def test_a_file_cut_anywhere_in_a_batch_gives_the_batches_before(tmp_path):
    """What a SIGKILL leaves: the file cut at any byte inside a batch (every
    7th tried inside the third of four) reads as the batches before it,
    every row whole; cut between batches, as all the batches written."""
    w, ends = _batches(tmp_path / "run")
    data = w.path.read_bytes()   # the writer still open: no end-of-stream marker yet
    cut = tmp_path / "cut" / "results.arrows"
    cut.parent.mkdir()
    for size in range(ends[2] + 1, ends[3], 7):
        cut.write_bytes(data[:size])
        table, whole = read_stream(cut)
        assert not whole and table.num_rows == 100, size
        assert table.column("c.y").to_pylist() == [float(i) for i in range(100)]
    for b, size in enumerate(ends):   # b = 0: killed before its first write, its columns and no rows
        cut.write_bytes(data[:size])
        table, whole = read_stream(cut)
        assert whole and table.num_rows == 50 * b and table.column_names == ["time", "c.y"]
    w.close()


def test_a_file_cut_in_its_schema_or_not_a_stream_is_refused_in_one_sentence(tmp_path):
    w, ends = _batches(tmp_path / "run", n_batches=1)
    w.close()
    cut = tmp_path / "results.arrows"
    for size, fragment in ((0, "is empty"), (ends[0] // 2, "is not an Arrow IPC stream")):
        cut.write_bytes(w.path.read_bytes()[:size])
        with pytest.raises(CraneCosimError, match=fragment) as info:
            read_results(cut)
        assert str(info.value).startswith(f"the results {cut} ") and "\n" not in str(info.value)
    with pytest.raises(CraneCosimError, match=f"{tmp_path / 'nothing'} holds no results.arrows"):
        read_results((tmp_path / "nothing").mkdir() or tmp_path / "nothing")


def test_rows_held_longer_than_flush_seconds_are_on_disk_at_every_instant(tmp_path):
    """At any instant, the file on disk (what a SIGKILL then would leave; the
    sink is unbuffered) holds every row appended more than ``flush_seconds``
    before, here 0.2 s (1 s in a run), checked after every 50 rows over 1 s
    of appending at about 2 kHz.  The margin, 0.05 s, is the write of a
    batch and the scheduler of a loaded machine."""
    flush = 0.2
    w = ResultWriter(tmp_path, ["c.y"], ["m"], ["Real"], flush_seconds=flush)
    appended = []
    start = time.monotonic()
    checks = 0
    while time.monotonic() - start < 1.0:
        k = len(appended)
        w.append(k * 1e-3, [float(k)])
        appended.append(time.monotonic())
        time.sleep(0.0005)
        if k % 50 == 49:
            now = time.monotonic()
            table, _ = read_stream(w.path)
            due = sum(1 for at in appended if at < now - flush - 0.05)
            assert table.num_rows >= due, (table.num_rows, due)
            assert table.column("time").to_pylist() == [i * 1e-3 for i in range(table.num_rows)]
            checks += 1
    assert checks >= 5
    w.close()
    assert read_stream(w.path)[0].num_rows == len(appended)


def test_write_until_writes_due_rows_only_when_they_fit_before_the_deadline(tmp_path):
    """The pacer's hook: rows not yet due (held less than half of
    flush_seconds, the buffer under half full) stay held; due rows are
    written when the deadline leaves time for them, not when it has passed."""
    w = ResultWriter(tmp_path, ["c.y"], ["m"], ["Real"], flush_seconds=0.2)
    for k in range(10):
        w.append(k * 1e-3, [float(k)])
    w.write_until(time.perf_counter_ns() + 10**9)   # a second to spare, but not due
    assert read_stream(w.path)[0].num_rows == 0
    time.sleep(0.11)
    w.write_until(time.perf_counter_ns())   # due, but no time left
    assert read_stream(w.path)[0].num_rows == 0
    w.write_until(time.perf_counter_ns() + 10**8)   # due, with 0.1 s to spare
    assert read_stream(w.path)[0].num_rows == 10
    w.close()


def test_a_full_buffer_is_written_at_once(tmp_path):
    w = ResultWriter(tmp_path, ["c.y"], ["m"], ["Real"], flush_seconds=3600)
    for k in range(w.capacity + 3):
        w.append(k * 1e-3, [float(k)])
    assert read_stream(w.path)[0].num_rows == w.capacity   # the 3 rows after it held
    w.close()
    table, whole = read_stream(w.path)
    assert whole and table.column("c.y").to_pylist() == [float(k) for k in range(w.capacity + 3)]


def test_a_row_given_in_parts_is_the_row_given_whole(tmp_path):
    """``append_parts`` (the recorder's path where every column is
    numeric: the components' output arrays joined straight into the row)
    writes what ``append`` of the joined values writes, to the bit."""
    columns = ["a.x", "a.y", "b.z", "c.u", "c.v"]
    rng = np.random.default_rng(3)
    rows = [[rng.standard_normal(2), rng.standard_normal(1), rng.standard_normal(2)] for _ in range(300)]
    read = {}
    for how in ("whole", "parts"):
        w = ResultWriter(tmp_path / how, columns, ["m"] * 5, ["Real"] * 5, flush_seconds=0.0)
        for k, parts in enumerate(rows):  # a batch written at every row: the rows on disk as they go
            if how == "whole":
                w.append(0.01 * k, np.concatenate(parts))
            else:
                w.append_parts(0.01 * k, parts)
        w.close()
        read[how] = read_results(tmp_path / how)
    assert len(read["whole"]) == 300 and read["parts"].equals(read["whole"])


def _rows_typed(w, n, rng):
    for k in range(n):
        w.append(k * 1e-3, [rng.standard_normal(), k % 7, k % 2, k % 3, float(k) * 2 ** 20], [f"row {k}"])


def test_written_behind_the_file_is_the_one_written_in_place(tmp_path):
    """Writing behind (a paced run): a batch at every row (flush_seconds 0),
    so that the run often finds every spare buffer waiting and waits for
    one, then rows in blocks (``append_rows``): the file holds every row,
    to the bit, as the writer that writes in place writes it; every batch
    is written by the writer's own thread, none by the appending one."""
    written_by = set()
    read = {}
    for behind in (False, True):
        rng = np.random.default_rng(5)
        w = ResultWriter(tmp_path / str(behind), COLUMNS, UNITS, TYPES, ROLES, system="Typed", flush_seconds=0.0,
                         behind=behind)
        if behind:
            write = w._stream.write_batch
            w._stream.write_batch = lambda batch: (written_by.add(threading.current_thread().name), write(batch))
        _rows_typed(w, 500, rng)
        w.close()
        read[behind] = read_stream(w.path)
    assert read[True][1] and read[True][0].equals(read[False][0]) and read[True][0].num_rows == 500
    assert written_by == {"results writer"}
    for behind in (False, True):
        w = ResultWriter(tmp_path / f"rows{behind}", ["c.y", "c.z"], ["m", "m"], ["Real", "Real"], behind=behind)
        for start in range(0, 3 * w.capacity, 97):
            rows = np.arange(start, start + 97, dtype=float)[:, None] * [1e-3, 1.0, -1.0]
            w.append_rows(rows)
        w.close()
        read[f"rows{behind}"] = read_stream(w.path)[0]
    assert read["rowsTrue"].equals(read["rowsFalse"])


def test_written_behind_a_full_buffer_is_handed_over_and_on_disk_after_flush(tmp_path):
    w = ResultWriter(tmp_path, ["c.y"], ["m"], ["Real"], flush_seconds=3600, behind=True)
    for k in range(w.capacity + 3):
        w.append(k * 1e-3, [float(k)])
    w.flush()  # waits until the thread has written what was handed over
    assert read_stream(w.path)[0].num_rows == w.capacity + 3 and w.written_t == (w.capacity + 2) * 1e-3
    w.close()


def test_written_behind_a_failed_write_is_raised_in_the_runs_thread(tmp_path):
    """A write that fails in the writing thread (a full disk) is raised at
    the run's next hand-over or flush, not lost in the thread; the rows
    written before it stay in the file."""
    w = ResultWriter(tmp_path, ["c.y"], ["m"], ["Real"], flush_seconds=3600, behind=True)
    w.append(0.0, [1.0])
    w.flush()
    write = w._stream.write_batch

    def full(batch):
        raise OSError(errno.ENOSPC, "No space left on device")
    w._stream.write_batch = full
    w.append(1e-3, [2.0])
    with pytest.raises(OSError, match="No space left on device"):
        w.flush()
    w._stream.write_batch = write
    w.close()
    assert read_stream(w.path)[0].column("c.y").to_pylist() == [1.0]
