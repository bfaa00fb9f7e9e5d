"""A run's results as an Arrow IPC stream, ``results.arrows``, written as the
run goes.

The file is the Arrow IPC *stream* format (not the Arrow *file* format, not
Parquet): a schema, then one record batch per write, then an end-of-stream
marker.  Nothing is written at the end that the rest depends on (the Arrow
file format and Parquet put their index in a footer written last), so the
file of a run killed at any instant (SIGKILL, a power cut) holds every batch
written before, and :func:`read_stream` reads them up to the one the kill
cut short.

Columns: ``time`` [s] first, then one per recorded variable,
``component.variable``, typed after its FMI type: a real as float64, an
Integer or Enumeration as int64, a Boolean as bool, a String as string (a
value that failed, NaN in the master, is null in an integer or Boolean
column).  Each field's metadata holds ``unit`` (SI, FMI notation: ``N``,
``N.m``), ``fmi_type`` (``Real``, ``Int32`` ...) and ``role`` where the
variable has one (``runtime/coupling.py``); the schema's metadata holds the
system's name (``crane_cosim.system``) and the layout's version
(``crane_cosim.format``).

Writing: a row is copied into a preallocated float64 buffer (the numeric
columns; a String column's values go to a list) and nothing else happens;
the buffer becomes one record batch when a second has passed since the last
write (at the first row recorded after it), when it is full, at
:meth:`ResultWriter.flush`, at the end, or in the time a run paced to the
wall clock waits (:meth:`ResultWriter.write_until`), or, written behind (a
paced run, docs/in_the_loop.md), by a thread of the writer's own.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..errors import CraneCosimError
from ..fmi_families import FAMILY

#: the version of the layout above, in the schema's metadata
FORMAT = "crane-cosim results 1"
#: the schema's metadata key of the run's summary as it starts (a run killed before its summary.json has it)
HEADER_KEY = "crane_cosim.summary"
#: the Arrow type of each FMI family's column
ARROW_TYPE = {"real": pa.float64(), "integer": pa.int64(), "enumeration": pa.int64(), "boolean": pa.bool_(),
              "string": pa.string()}
#: bytes of the numeric row buffer at most (its rows: this over 8 bytes a column, 64 to 8192)
BUFFER_BYTES = 4 << 20
#: writing behind: the buffers filled while others wait to be written, the one in use included
BEHIND_BUFFERS = 3


def family_of(fmi_type: str | None) -> str:
    """The family (``fmi_families.py``) of a column of FMI type
    ``fmi_type``; a column without one (a monolithic run's) is real."""
    family = FAMILY.get(fmi_type or "Real", "real")
    return family if family in ARROW_TYPE else "real"


def results_schema(columns, units=None, types=None, roles=None, system: str = "", header: dict | None = None
                   ) -> pa.Schema:
    """The schema of a results file: ``time`` then ``columns``, each with its
    ``units``, FMI ``types`` and ``roles`` (lists parallel to ``columns``;
    None: none given) in its field's metadata; ``header``, the run's summary
    as it starts (settings, components), as JSON under
    :data:`HEADER_KEY`."""
    n = len(columns)
    units, types, roles = (list(x) if x is not None else [None] * n for x in (units, types, roles))
    fields = [pa.field("time", pa.float64(), nullable=False, metadata={"unit": "s", "fmi_type": "Real"})]
    for name, unit, fmi_type, role in zip(columns, units, types, roles):
        meta = {"unit": unit or "", "fmi_type": fmi_type or "Real"}
        if role:
            meta["role"] = role
        fields.append(pa.field(name, ARROW_TYPE[family_of(fmi_type)], metadata=meta))
    meta = {"crane_cosim.format": FORMAT, "crane_cosim.system": system or ""}
    if header is not None:
        meta[HEADER_KEY] = json.dumps(header, default=str)
    return pa.schema(fields, metadata=meta)


class ResultWriter:
    """Writes rows of ``time`` and ``columns`` to ``name`` in ``out_dir`` as
    an Arrow IPC stream (:func:`results_schema` gives the columns' types and
    metadata from ``units``, ``types``, ``roles`` and ``system``).  Rows
    are held in memory at most ``flush_seconds`` [s] of wall time before
    they are written, measured at each :meth:`append`; ``behind``: each
    batch handed to a thread of the writer's own, which writes it while the
    run goes on (pyarrow writes without the interpreter's lock), the rows
    going on into a spare buffer, waited for when none is spare (nothing
    lost); a write that failed is raised at the next hand-over or flush."""

    def __init__(self, out_dir, columns, units=None, types=None, roles=None, system: str = "",
                 name: str = "results.arrows", flush_seconds: float = 1.0, header: dict | None = None,
                 behind: bool = False):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.out_dir / name
        self.schema = results_schema(list(columns), units, types, roles, system, header)
        #: the time of the last row written to the file [s] (None: none yet)
        self.written_t = None
        self.columns = self.schema.names
        families = [family_of(t) for t in (types if types is not None else [None] * len(columns))]
        #: per column after time: ("n", index into the numeric buffer) or ("s", index of the text list)
        self._where = []
        numeric = strings = 0
        for family in families:
            self._where.append(("s", strings) if family == "string" else ("n", 1 + numeric))
            strings += family == "string"
            numeric += family != "string"
        self._families = families
        self.capacity = max(64, min(8192, BUFFER_BYTES // (8 * (1 + numeric))))
        # a column of the file per row of the buffer: each written as it lies, with no transpose
        self._buf = np.empty((1 + numeric, self.capacity))
        self._texts: list[list] = [[] for _ in range(strings)]
        self._n = 0
        self._flush_seconds = flush_seconds
        self._last_write = time.monotonic()
        self._row_ns = 20 * (1 + numeric) + 200 * strings + 20_000 // self.capacity  # until measured
        self._sink = pa.OSFile(str(self.path), "wb")  # unbuffered: a written batch is the kernel's
        self._stream = pa.ipc.new_stream(self._sink, self.schema)
        # the schema goes out with the first batch: an empty one now, so that a
        # run killed before its first write leaves a file of its columns and no rows
        self._stream.write_batch(self._batch(self._buf, 0, self._texts))
        self._closed = False
        self._thread = None
        if behind:
            self._free = queue.SimpleQueue()  # the spare buffers
            for _ in range(BEHIND_BUFFERS - 1):
                self._free.put(np.empty_like(self._buf))
            self._queue = queue.Queue()  # (buffer, rows, texts) to write, None to stop
            self._error = None
            self._thread = threading.Thread(target=self._writing, daemon=True, name="results writer")
            self._thread.start()

    def append(self, t: float, values, texts=()) -> None:
        """One row: ``t`` [s], ``values`` the numeric columns' values in
        their order (a float array; an integer or Boolean as a float), and
        ``texts`` the String columns' values in theirs."""
        n = self._n
        buf = self._buf
        buf[0, n] = t
        buf[1:, n] = values
        if texts:
            for column, text in zip(self._texts, texts):
                column.append(text)
        self._held(n + 1)

    def append_parts(self, t: float, parts) -> None:
        """:meth:`append` of a row of numeric columns only, given as
        ``parts`` (float arrays whose values, one after another, are the
        columns' in their order), joined straight into the row held: one
        copy of the values a step, not two."""
        n = self._n
        self._buf[0, n] = t
        np.concatenate(parts, out=self._buf[1:, n])
        self._held(n + 1)

    def append_rows(self, rows: np.ndarray) -> None:
        """:meth:`append` of several rows of numeric columns only, given as
        ``rows`` (a float array, a row each: the time, then the columns'
        values in their order)."""
        done = 0
        while done < len(rows):
            n = self._n
            take = min(len(rows) - done, self.capacity - n)
            self._buf[:, n:n + take] = rows[done:done + take].T
            done += take
            self._held(n + take)

    def _held(self, n: int) -> None:
        """``n`` rows held now: written when the buffer is full or the
        oldest has waited ``flush_seconds``."""
        self._n = n
        if n == self.capacity or time.monotonic() - self._last_write >= self._flush_seconds:
            self._write(n)

    def _batch(self, buf: np.ndarray, k: int, texts) -> pa.RecordBatch:
        """The first ``k`` rows of the buffer ``buf`` and the String
        columns' ``texts`` as a record batch."""
        block = buf[:, :k]
        arrays = [pa.array(block[0])]
        for family, (kind, at) in zip(self._families, self._where):
            if kind == "s":
                arrays.append(pa.array(texts[at][:k], pa.string()))
                continue
            x = block[at]
            if family == "real":
                arrays.append(pa.array(x))
                continue
            bad = ~np.isfinite(x)
            mask = bad if bad.any() else None
            if mask is not None:
                x = np.where(bad, 0.0, x)
            x = x != 0 if family == "boolean" else x.astype(np.int64)
            arrays.append(pa.array(x, mask=mask))
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def _write(self, k: int) -> None:
        """Write the oldest ``k`` rows held as one record batch (or hand them
        to the thread writing behind) and keep the rest."""
        if self._thread is not None:
            self._hand_over(k)
            return
        start = time.perf_counter_ns()
        self._write_batch(self._buf, k, self._texts)
        self._keep(self._buf, k)
        self._row_ns = max(1, (time.perf_counter_ns() - start) // k)

    def _write_batch(self, buf: np.ndarray, k: int, texts) -> None:
        """The first ``k`` rows of ``buf`` and ``texts`` written as a batch."""
        self._stream.write_batch(self._batch(buf, k, texts))
        self.written_t = float(buf[0, k - 1])

    def _keep(self, rest: np.ndarray, k: int) -> None:
        """The rows held after the oldest ``k`` go on in the buffer ``rest``
        (the one in use, or a spare one)."""
        n = self._n
        if k < n:
            rest[:, :n - k] = self._buf[:, k:n]
        for column in self._texts:
            del column[:k]
        self._buf, self._n = rest, n - k
        self._last_write = time.monotonic()

    def _hand_over(self, k: int) -> None:
        """Writing behind: the buffer, its oldest ``k`` rows to be written,
        to the writing thread; the rest into a spare buffer, waited for if
        none is spare."""
        self._raise_failed()
        buf, texts = self._buf, [column[:k] for column in self._texts]
        self._keep(self._free.get(), k)
        self._queue.put((buf, k, texts))

    @property
    def thread_id(self) -> int | None:
        """The native id of the thread writing behind, or None."""
        return None if self._thread is None else self._thread.native_id

    def _writing(self) -> None:
        """The thread writing behind: each buffer handed over, as a batch."""
        while (item := self._queue.get()) is not None:
            buf, k, texts = item
            try:
                if self._error is None:
                    start = time.perf_counter_ns()
                    self._write_batch(buf, k, texts)
                    self._row_ns = max(1, (time.perf_counter_ns() - start) // k)
            except BaseException as exc:  # (raised in the run's thread, at its next hand-over)
                self._error = exc
            finally:
                self._free.put(buf)
                self._queue.task_done()
        self._queue.task_done()

    def _raise_failed(self) -> None:
        if self._thread is not None and self._error is not None:
            error, self._error = self._error, None
            raise error

    def write_until(self, until_ns: int) -> None:
        """Write rows held, oldest first, if that can be done before
        ``until_ns`` (``time.perf_counter_ns``), so that a run paced to the
        wall clock writes in the time it waits rather than in a step.  Rows
        are written once due (held half of ``flush_seconds``, or the buffer
        half full: a batch a step would make the file mostly metadata), all
        of them or at least 256 of them, at the cost per row measured at the
        last write, twice that kept spare; writing behind, all of them,
        handed to the writing thread."""
        n = self._n
        if not n or (n < self.capacity // 2 and time.monotonic() - self._last_write < self._flush_seconds / 2):
            return
        if self._thread is not None:  # handed over whole: the thread writes it
            self._write(n)
            return
        k = min(n, (until_ns - time.perf_counter_ns()) // (2 * self._row_ns))
        if k == n or k >= 256:
            self._write(k)

    def release(self) -> None:
        """Write every row held; writing behind, hand them to the writing
        thread without waiting for it."""
        if self._n:
            self._write(self._n)

    def flush(self) -> None:
        """Write every row held (writing behind: and wait until written)."""
        if self._n:
            self._write(self._n)
        if self._thread is not None:
            self._queue.join()
            self._raise_failed()

    def close(self) -> None:
        """Write every row held and the end-of-stream marker."""
        if not self._closed:
            self._closed = True
            try:
                self.flush()
                self._stream.close()
            finally:
                if self._thread is not None:
                    self._queue.put(None)
                    self._thread.join()
                self._sink.close()


def read_stream(path) -> tuple[pa.Table, bool]:
    """The record batches of the results file ``path`` as a table, and
    whether the file is whole (ends with its end-of-stream marker, or at a
    batch's end).  A file cut short in a batch (a run killed while writing
    it) gives the batches before; one without a whole schema, or not an
    Arrow stream, is :class:`CraneCosimError`."""
    path = Path(path)
    try:
        source = pa.OSFile(str(path), "rb")
    except (OSError, pa.ArrowException) as exc:
        raise CraneCosimError(f"the results {path} cannot be read: {getattr(exc, 'strerror', None) or exc}") from None
    with source:
        try:
            reader = pa.ipc.open_stream(source)
        except (pa.ArrowInvalid, OSError) as exc:
            what = "is empty" if path.stat().st_size == 0 else f"is not an Arrow IPC stream ({exc})"
            raise CraneCosimError(f"the results {path} {what}: give the results.arrows of a run") from None
        batches, whole = [], True
        while True:
            try:
                batches.append(reader.read_next_batch())
            except StopIteration:
                break
            except (pa.ArrowInvalid, OSError):  # a batch cut short: the run was killed writing it
                whole = False
                break
        return pa.Table.from_batches(batches, schema=reader.schema), whole
