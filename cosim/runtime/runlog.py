"""Bookkeeping shared by the co-simulation and the monolithic runner: the
results file, the progress bar, the status, wall time and ``summary.json``,
and the translation of a failure into an error that says where the results
so far are."""
from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import CraneCosimError, SimulationError, Terminated
from ..files.folders import NoSpaceLeft, no_space, refuse_busy
from ..files.results import RESULTS_FILE, run_files_in, versions, write_summary
from ..files.results_stream import ResultWriter

#: space kept in the results folder from the start of a run for its
#: summary.json, given back to write it: a disk that fills during the run
#: still takes the summary (a summary is a few kB, 20 kB with 100 columns)
SUMMARY_RESERVE = ".crane_cosim_summary_reserve"
#: bytes kept at least, or four times the summary as it starts, the larger
SUMMARY_RESERVE_BYTES = 64 << 10


@dataclass
class RunResult:
    out_dir: Path
    status: str
    end_time: float
    wall_time: float
    real_time_factor: float
    steps: int
    columns: list
    fmi_call_time: float | None = None  # wall time inside FMI calls [s] (co-simulation)
    real_time: dict | None = None  # the pacing's figures (co-simulation paced to the wall clock)
    fmi_call_time_by_component: dict | None = None  # the same per component [s]
    coupling_error: dict | None = None  # the estimate of the coupling error (``observers/estimate.py``)
    reason: str | None = None  # why the run stopped before its stop time (status ended, failed, ...)
    bridges: dict | None = None  # the counters and status of each UDP bridge (``observers/bridges.py``)
    warnings: list | None = None  # what went wrong without failing the run, a sentence each
    fmi_steps_by_component: dict | None = None  # the steps each component was asked to make


#: the fields of :class:`RunResult` read from the summary's keys
_FROM_SUMMARY = {"fmi_call_time": "fmi_call_time_s", "real_time": "real_time",
                 "fmi_call_time_by_component": "fmi_call_time_by_component_s", "coupling_error": "coupling_error",
                 "bridges": "bridges", "warnings": "warnings", "fmi_steps_by_component": "fmi_steps_by_component"}


def check_folder(path, label: str = "the results folder") -> None:
    """Raise :class:`CraneCosimError` when ``path`` cannot be a folder to
    write in: it is a file, one of its parents is a file, or its nearest
    existing parent cannot be written, or another run is writing it
    (:class:`~files.folders.FolderBusy`).  Creates nothing, so that it can run
    before anything else; ``label`` names it in the sentence (``--out``)."""
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise CraneCosimError(f"{label} {path} is an existing file, not a folder")
        refuse_busy(path, label)
        return
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise CraneCosimError(f"{label} {path} cannot be created: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise CraneCosimError(f"{label} {path} cannot be created: {parent} is not writable")
            return


def make_folder(path, label: str = "the results folder") -> Path:
    """Create the folder ``path`` (and its parents) to write in, or raise
    :class:`CraneCosimError` in one sentence naming ``label`` when it
    cannot be (:func:`check_folder`, then what the disk says: a read-only
    or virtual file system such as ``/proc``)."""
    path = Path(path)
    check_folder(path, label)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".crane_cosim_probe_{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise CraneCosimError(f"{label} {path} cannot be written: {exc.strerror or exc}") from None
    return path


def clear_folder(path, replace: bool, label: str = "the results folder",
                 remedy: str = "replace_run=True") -> list[str]:
    """Make ``path`` ready for one run's files: :func:`check_folder`, then,
    where it holds an earlier run's files (``files/results.py``'s
    ``RUN_FILES``), remove them when ``replace`` and otherwise raise
    :class:`CraneCosimError`, so that a folder never holds the files of two
    runs; its sentence names ``remedy``, what the caller passes to replace
    that run (the keyword from Python, ``--force`` from the command line).
    Other files in the folder are left alone.  Returns the names removed."""
    check_folder(path, label)
    earlier = run_files_in(path)
    if not earlier:
        return []
    if not replace:
        raise CraneCosimError(f"{label} {path} holds an earlier run ({', '.join(earlier)}); give another "
                              f"folder, or {remedy} to replace that run")
    for name in earlier:
        target = Path(path) / name
        try:
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        except OSError as exc:
            raise CraneCosimError(f"the earlier run's {target} cannot be removed: {exc.strerror or exc}") from None
    return earlier


class RunLog:
    """Context manager around one run.

    ``open(columns, units)`` creates ``results.arrows``; ``record(t, values)`` appends a
    row and sets the time reached (``t``, which a run that records every
    N-th point also sets between rows); ``started()`` starts the wall clock
    (after set-up); ``advanced(dt)`` moves the progress bar.  On leaving: a
    ``KeyboardInterrupt`` marks the run interrupted (:class:`Terminated`:
    terminated) and propagates; a
    :class:`CraneCosimError` after results exist becomes a
    :class:`SimulationError` naming where they are; the summary is written in
    every case once results exist.  ``result`` holds the :class:`RunResult`.
    """

    def __init__(self, name: str, start_time: float, stop_time: float, components: dict, out_dir, settings: dict,
                 progress: bool = True):
        self.start_time, self.stop_time = start_time, stop_time
        self.out_dir = Path(out_dir)
        self.summary = {"system": name, **settings, "start_time": start_time, "stop_time": stop_time,
                        "components": components, "versions": versions()}
        self.progress = progress
        self.writer = None
        #: whether results.arrows is written by a thread of its own (a run paced to the wall clock)
        self.writes_behind = False
        self.bar = None
        self.t = start_time
        self.recorded_t = None
        self.rows = 0
        self.steps = 0
        self.columns: list = []
        self.result = None
        self._ended = None
        self._degraded: list[str] = []
        self._wall0 = time.perf_counter()

    @classmethod
    def of_plan(cls, plan, out_dir, settings: dict, progress: bool = True) -> "RunLog":
        """The log of a co-simulation of ``plan`` (``runtime/plan.py``)."""
        components = {p.name: {"source": str(p.path), "parameters": p.values,
                               **({"step": plan.settings.step * p.every} if p.every > 1 else {})}
                      for p in plan.parts}
        s = plan.settings
        return cls(plan.name, s.start_time, s.stop_time, components, out_dir, settings, progress)

    @classmethod
    def of_system(cls, system, out_dir, settings: dict, progress: bool = True) -> "RunLog":
        """The log of a run of ``system`` as the system file gives it."""
        components = {c.name: {"source": str(system.source_path(c)), "parameters": c.parameters}
                      for c in system.components}
        return cls(system.name, system.start_time, system.stop_time, components, out_dir, settings, progress)

    def open(self, columns, units, types=None, roles=None) -> None:
        """Create ``results.arrows`` with ``columns``, each with its unit
        (``units``: SI, FMI notation), FMI type (``types``; None: all Real)
        and role (``roles``: ``runtime/coupling.py``; None where a column has
        none) in the file's metadata (``files/results_stream.py``); the same
        go to ``summary.json`` under ``"units"``, ``"types"`` and ``"roles"``,
        with ``"time": "s"``."""
        self.columns = list(columns)
        self.summary["units"] = {"time": "s", **dict(zip(self.columns, units))}
        if types is not None:
            self.summary["types"] = {"time": "Real", **dict(zip(self.columns, types))}
        if roles is not None:
            self.summary["roles"] = {c: r for c, r in zip(self.columns, roles) if r}
        try:
            self.writer = ResultWriter(self.out_dir, self.columns, units, types, roles, self.summary["system"],
                                       name=RESULTS_FILE, header=self._header(), behind=self.writes_behind)
            self._reserve()
        except OSError as exc:  # check_folder ran before; the disk may say otherwise since
            if no_space(exc):
                raise
            raise CraneCosimError(f"the results folder {self.out_dir} cannot be written: "
                                  f"{exc.strerror or exc}") from None

    def _header(self) -> dict:
        """What results.arrows carries of the summary, for a run killed
        before it wrote one: the settings and components as they start."""
        return {k: v for k, v in self.summary.items() if k not in ("versions", "units", "types", "roles")}

    def _reserve(self) -> None:
        """Keep the space of summary.json (:data:`SUMMARY_RESERVE`)."""
        size = max(SUMMARY_RESERVE_BYTES, 4 * len(json.dumps(self.summary, default=str)))
        with open(self.out_dir / SUMMARY_RESERVE, "wb") as f:
            try:
                os.posix_fallocate(f.fileno(), 0, size)
            except OSError as exc:  # a file system without it: written out
                if no_space(exc):
                    raise
                f.write(b"\0" * size)

    def _write_summary(self) -> bool:
        """Write summary.json in the space kept for it; whether it could be."""
        with contextlib.suppress(OSError):
            (self.out_dir / SUMMARY_RESERVE).unlink()
        try:
            write_summary(self.out_dir, self.summary)
        except OSError as exc:
            if not no_space(exc):
                raise
            return False
        return True

    def ended(self, reason: str) -> None:
        """A component ended the run before its stop time (status ``ended``)."""
        self._ended = reason

    def degraded(self, reason: str) -> None:
        """The run went on without what a component should have given it (a
        bridge's silent peer): status ``degraded``, whatever else ended it
        but an error, ``reason`` joined to any given before."""
        self._degraded.append(reason)

    def record(self, t: float, values, texts=()) -> None:
        """A row at ``t`` [s]: ``values`` the numeric columns', ``texts`` the
        String columns' (:meth:`ResultWriter.append`)."""
        self.writer.append(t, values, texts)
        self._recorded(t)

    def record_parts(self, t: float, parts) -> None:
        """A row at ``t`` [s] of numeric columns only, given as ``parts``
        (:meth:`ResultWriter.append_parts`)."""
        self.writer.append_parts(t, parts)
        self._recorded(t)

    def record_rows(self, rows) -> None:
        """Rows of numeric columns only, each the time [s] and the columns'
        values (:meth:`ResultWriter.append_rows`)."""
        self.writer.append_rows(rows)
        self._recorded(float(rows[-1, 0]), len(rows))

    def _recorded(self, t: float, rows: int = 1) -> None:
        self.t = self.recorded_t = t
        self.rows += rows

    def started(self) -> None:
        self._wall0 = time.perf_counter()
        if self.progress:
            # tqdm only where a bar is drawn
            from tqdm import tqdm
            self.bar = tqdm(total=self.stop_time - self.start_time, unit="s", delay=2.0,
                            disable=None, leave=False,
                            bar_format="{l_bar}{bar}| {n:.2f}/{total:.2f} s simulated [{elapsed}<{remaining}]")

    def add_sections(self, sections) -> None:
        """The observers' ``sections`` of ``summary.json`` (each a dict by
        key: ``Observer.summary``) into the summary written as the run ends;
        their ``"warnings"`` join one list."""
        for section in sections:
            for key, value in section.items():
                if key == "warnings":
                    self.summary.setdefault("warnings", []).extend(value)
                else:
                    self.summary[key] = value

    def advanced(self, dt: float) -> None:
        if self.bar is not None:
            self.bar.update(dt)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        wall = time.perf_counter() - self._wall0
        status, error = ("completed", None) if self._ended is None else ("ended", self._ended)
        if self._degraded:
            status, error = "degraded", "; ".join(self._degraded)
        if exc_type is not None:
            if issubclass(exc_type, Terminated):
                status, error = "terminated", f"terminated by SIGTERM at t = {self.t:g} s"
            elif issubclass(exc_type, KeyboardInterrupt):
                status, error = "interrupted", f"interrupted by the user at t = {self.t:g} s"
            else:
                status, error = "failed", str(exc)
        full = exc is not None and no_space(exc)
        if self.bar is not None:
            self.bar.close()
        simulated = self.t - self.start_time
        rtf = simulated / wall if wall > 0 else math.inf
        summary_written = False
        if self.writer is not None:
            try:
                self.writer.close()
            except OSError as failure:
                if not no_space(failure):
                    raise
                full = True
            if full:
                status, error = "failed", f"no space left on device in {self.out_dir} at t = {self.t:g} s"
            self.summary.update(status=status, error=error, end_time=self.t, steps=self.steps, rows=self.rows,
                                wall_time_s=wall, real_time_factor=rtf)
            summary_written = self._write_summary()
        self.result = RunResult(out_dir=self.out_dir, status=status, end_time=self.t, wall_time=wall,
                                real_time_factor=rtf, steps=self.steps, columns=self.columns, reason=error,
                                **{field: self.summary.get(key) for field, key in _FROM_SUMMARY.items()})
        if full:
            kept = (f"the results up to t = {self.writer.written_t:g} s are kept in it" if self.writer is not None
                    and self.writer.written_t is not None else "no point was recorded")
            raise NoSpaceLeft(f"the results folder {self.out_dir} has no space left on device; {kept}"
                              f"{'' if summary_written else ', without summary.json'}") from None
        if exc_type is not None and issubclass(exc_type, CraneCosimError) and self.writer is not None \
                and not isinstance(exc, SimulationError):
            if self.recorded_t is None:
                raise SimulationError(f"{exc}; no point was recorded (summary.json in {self.out_dir} says how the "
                                      f"run ended)") from None
            raise SimulationError(f"{exc}; the results up to t = {self.recorded_t:g} s are in {self.out_dir}") from None
        return False
