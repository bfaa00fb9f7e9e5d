"""Many runs of one system: a sweep over cases, on a Dask cluster.

A case is a set of parameter values (``component.variable=value``, as
``crane-cosim run --set`` takes them): a sea state, a seed, a payload, a gain.
The cases come from a table (CSV: a column ``case`` naming each case, optional,
then one column per ``component.variable``), or from the product of ranges
(``--vary waves.Hs=1,2,3 --vary waves.seed=1,2``).

Each case is one run of the system with its values, a
:class:`~crane_cosim.runtime.config.RunConfig` (the sweep's options and the
case's values) checked with the system before the cluster starts, then carried
as JSON to a process of its own (``studies/case.py``: our FMUs run Python in
the process that loads them, so a case never shares a process with another, and
a case that crashes takes nothing else down).  The process is started by a Dask
worker: a ``LocalCluster`` of one worker process per core by default, or the
cluster whose scheduler is given (``--scheduler tcp://host:8786``; its workers
must have this package installed and see the system's and the output's folders
at the same paths; a worker whose Python is not the command's builds the FMUs
once for its Python, ``studies/case_fmus.py``).  A case runs in
``<out>/cases/<case>.part``, renamed without ``.part`` when it ends (results
in Parquet).  Whatever goes wrong with one case is that case's
failure, with the reason its run wrote; the other cases go on.  A worker that
dies in the middle of a case loses nothing: Dask runs the case again on another
worker, from the start.

``<out>/summary.csv`` lists every case (values, status, wall time, the largest
magnitude of each component of the interface wrench), written again as each
case ends.  A sweep run again into its folder skips the cases that completed; a
folder of another sweep is refused (``studies/sweep_folder.py``).  Its use:
``docs/sweeps.md``.
"""
from __future__ import annotations

import contextlib
import csv
import itertools
import json
import logging
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import pandas as pd

from ..blocks.warm_up import warm_up
from ..errors import CraneCosimError
from ..files.folders import claimed
from ..fmus.build import prepare_fmus
from ..runtime.algorithms import ALGORITHMS
from ..runtime.checks import joined, settings_problems
from ..runtime.config import RunConfig
from ..runtime.coupling import COUPLINGS
from ..runtime.model import models_of
from ..runtime.plan import EXTRAPOLATIONS, problems_of
from ..runtime.runlog import check_folder
from ..ssp import open_system
from .case import PEAK_ROLE, run_case
from .sweep_folder import CASES, RESULTS, SUMMARY, clear, earlier_rows, identity, make_folder, write_identity

__all__ = ["CASES", "RESULTS", "SUMMARY", "PEAK_ROLE", "cases_of_table", "cases_of_ranges", "check_cases",
           "write_summary", "sweep"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


def cases_of_table(path) -> list[tuple[str, dict]]:
    """``(name, {component.variable: text})`` of each row of the CSV ``path``,
    its columns separated by commas, semicolons or tabs (the one its header
    holds, :func:`separator_of`)."""
    path = Path(path)
    try:
        sep = separator_of(path)
        table = pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise CraneCosimError(f"the cases table {path} cannot be read: {exc}") from None
    if sep != ",":
        _no_decimal_commas(path, table, sep)
    targets = [c for c in table.columns if c != "case"]
    bad = [c for c in targets if "." not in c]
    if bad:
        raise CraneCosimError(f"the cases table {path} needs columns named component.variable (and optionally "
                              f"'case'); {', '.join(map(repr, bad))} {'is' if len(bad) == 1 else 'are'} not")
    if not targets:
        raise CraneCosimError(f"the cases table {path} has no column named component.variable: give one per "
                              f"value the cases set")
    header = _header(path, sep)
    twice = sorted({c for c in header if header.count(c) > 1})
    if twice:
        raise CraneCosimError(f"the cases table {path} has the column {twice[0]!r} twice")
    names = list(table["case"]) if "case" in table.columns else [f"case{k + 1:04d}" for k in range(len(table))]
    return _checked(path, [(n, {t: row[t] for t in targets}) for n, (_, row) in zip(names, table.iterrows())])


def _header(path: Path, sep: str = ",") -> list[str]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return [c.strip() for c in next(csv.reader(f, delimiter=sep), [])]


#: the separators a cases table may use, and how a sentence names each
SEPARATORS = {",": "','", ";": "';'", "\t": "a tab"}
#: a number written with a decimal comma (1,5 or -0,25e3), which a table separated by ';' may hold
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?\s*$")


def separator_of(path) -> str:
    """The separator of the columns of the table at ``path``: the one of
    :data:`SEPARATORS` its header line holds (a comma where it holds none:
    one column); a header holding two of them is refused, by name, rather
    than read one way by guess (:class:`CraneCosimError`)."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        header = f.readline()
    found = [sep for sep in SEPARATORS if sep in header]
    if len(found) > 1:
        raise CraneCosimError(f"the header of the cases table {path} holds both {SEPARATORS[found[0]]} and "
                              f"{SEPARATORS[found[1]]}: separate its columns by one of them only")
    return found[0] if found else ","


def _no_decimal_commas(path: Path, table: pd.DataFrame, sep: str) -> None:
    """Refuse, naming its case and column, a cell of ``table`` (read from
    ``path``, separated by ``sep``) that reads as a number with a decimal
    comma (``1,5``): whether it means 1.5 or a thousand-and-something, or
    two values, is not ours to guess."""
    for k, row in table.iterrows():
        for column, text in row.items():
            if _DECIMAL_COMMA.match(text):
                case = row["case"] if "case" in table.columns else f"row {k + 2}"
                raise CraneCosimError(f"the cases table {path}, separated by {SEPARATORS[sep]}, gives {column} of "
                                      f"{case} as {text!r}: write numbers with a decimal point (e.g. "
                                      f"{text.strip().replace(',', '.')})")


def cases_of_ranges(varies) -> list[tuple[str, dict]]:
    """The product of ``component.variable=v1,v2,...`` ranges, one case each."""
    axes = []
    for text in varies:
        target, eq, values = text.partition("=")
        if not eq or "." not in target or not values.strip():
            raise CraneCosimError(f"--vary {text!r} is not of the form component.variable=value1,value2,...")
        axes.append([(target.strip(), v.strip()) for v in values.split(",")])
    cases = [(f"case{k + 1:04d}", dict(combo)) for k, combo in enumerate(itertools.product(*axes))]
    return _checked("--vary", cases)


def _checked(source, cases):
    if not cases:
        raise CraneCosimError(f"{source} holds no cases")
    seen = set()
    for name, _ in cases:
        if not _NAME.match(name) or name.endswith(".part"):
            raise CraneCosimError(f"{source}: the case name {name!r} cannot name a folder (use letters, digits "
                                  f"and _ . + -)")
        if name in seen:
            raise CraneCosimError(f"{source}: the case name {name!r} is given twice")
        seen.add(name)
    return cases


def write_summary(out: Path, cases, rows: dict) -> Path:
    """``summary.csv``: every case in order, those not yet run ``pending``."""
    table = [rows.get(name) or {"case": name, **values, "status": "pending"} for name, values in cases]
    path = Path(out) / SUMMARY
    tmp = path.with_suffix(".part")
    pd.DataFrame(table).to_csv(tmp, index=False)
    tmp.replace(path)
    return path


def check_cases(system, cases, config) -> None:
    """Raise :class:`CraneCosimError` naming the first case the system
    cannot run (an unknown variable, a value not of its type or out of its
    bounds), before any case runs."""
    for name, values in cases:
        try:
            problems, _ = problems_of(system, config.replace(values={**config.values, **values}))
        except CraneCosimError as exc:
            problems = [str(exc)]
        if problems:
            raise CraneCosimError(f"case {name}: {joined(problems)}")




def _connect(scheduler: str | None, workers: int | None):
    """``(client, cluster)``: a client of the cluster whose scheduler is
    ``scheduler``, or of a new local cluster (then ``cluster``) of
    ``workers`` processes."""
    # Dask only where cases run on a cluster
    from dask.distributed import Client, LocalCluster
    if scheduler:
        try:
            return Client(scheduler), None
        except (OSError, ValueError, TimeoutError) as exc:
            raise CraneCosimError(f"the Dask scheduler {scheduler} cannot be reached: {exc}") from None
    try:
        with _sigint_ignored():  # by the workers: a terminal's Ctrl-C is the sweep's to act on, not theirs
            # the workers' warnings left out (a task cancelled as the cluster
            # closes): what a case met is in its folder and the summary; the
            # scheduler's HTTP server on a free port (with None it still takes
            # 8787, and warns when another cluster holds it)
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
    except (OSError, ValueError, TimeoutError) as exc:
        raise CraneCosimError(f"a local Dask cluster of {workers or os.cpu_count() or 1} worker(s) cannot be "
                              f"started: {exc}") from None
    return Client(cluster), cluster


@contextlib.contextmanager
def _sigint_ignored():
    """SIGINT ignored while the local cluster's worker processes start, so
    that they inherit it ignored (an ignored signal stays ignored across
    exec, and Python then installs no KeyboardInterrupt of its own): a
    terminal's Ctrl-C, sent to every process of the foreground group,
    reaches the sweep alone, which stops the cluster itself, rather than
    each worker printing its traceback.  A Ctrl-C while they start (a
    second or two) goes unseen: pressed again, it stops the sweep."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextlib.contextmanager
def _dask_quiet(quiet: bool):
    """With ``quiet``, Dask's own log lines (keys it could not gather, a
    worker killed as the cluster closes) left out: the sweep was stopped,
    and says so in one line."""
    if not quiet:
        yield
        return
    # tornado's too: a callback of Dask's that fails as the cluster closes
    # (distributed's sync cancel) is logged by tornado's event loop
    loggers = [logging.getLogger(name) for name in ("distributed", "tornado.application")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _rows_on_disk(out: Path, names) -> dict:
    """The summary rows of those cases of ``names`` whose folder in ``out``
    holds the row of a case that ended (``case.json``, written before the
    folder takes the case's name: a case stopped in the middle has none),
    completed or failed."""
    rows = {}
    for name in names:
        try:
            row = json.loads((Path(out) / CASES / name / "case.json").read_text())
        except (OSError, ValueError):
            continue
        if isinstance(row, dict) and row.get("status") in ("completed", "failed"):
            rows[name] = row
    return rows


def _lost(name: str, values: dict, exc: BaseException) -> dict:
    """The row of a case whose task ended without a row (its workers died,
    the cluster lost it)."""
    # Dask only where cases run on a cluster
    from distributed.scheduler import KilledWorker
    if isinstance(exc, KilledWorker):
        reason = "the workers that ran it died, each time, before it ended"
    else:
        reason = f"its task on the cluster ended without a result ({type(exc).__name__}: {exc})"
    return {"case": name, **values, "status": "failed", "reason": reason}


def sweep(system_path, cases, out, config=None, scheduler: str | None = None, workers: int | None = None,
          progress: bool = True, force: bool = False, label: str = "the sweep folder") -> pd.DataFrame:
    """Run ``cases`` (``[(name, values)]``) of the system at ``system_path``
    with ``config`` (a :class:`~crane_cosim.runtime.config.RunConfig`, each
    case's values added to its own) into ``out`` on a Dask cluster;
    returns the summary table.  The folder and every case are checked
    before the cluster starts; cases that completed in an earlier run of the
    same sweep into ``out`` are not run again; a folder holding another
    sweep is refused unless ``force``, which clears its cases first
    (``studies/sweep_folder.py``).  ``label`` names ``out`` in sentences
    (``--out`` on the command line)."""
    config = (config or RunConfig()).replace(progress=False)
    config.check()
    out = Path(out)
    check_folder(out, label)
    system_path = str(Path(system_path).resolve())
    with open_system(system_path) as opened:
        # the stop time, step and algorithm before the minutes of building
        problems = settings_problems(config.applied_to(opened.system), ALGORITHMS, COUPLINGS, EXTRAPOLATIONS)
        if problems:
            raise CraneCosimError(problems[0])
        prepare_fmus(config.applied_to(opened.system))  # once, here: two cases must not build the same FMU at once
        check_cases(opened.system, cases, config)
        ident = identity(opened, config)
        applied = config.applied_to(opened.system)
        models, algorithm = models_of(applied), applied.algorithm
    with claimed(out, label):  # another sweep into the folder is refused while this one runs
        return _swept(system_path, cases, out, config, ident, models, algorithm, scheduler, workers, progress, force,
                      label)


def _swept(system_path: str, cases, out: Path, config, ident: dict, models, algorithm: str | None, scheduler, workers,
           progress: bool, force: bool, label: str) -> pd.DataFrame:
    """:func:`sweep`'s cases run, the system and cases checked, in its
    claimed folder ``out``: the summary table."""
    # Dask only where cases run on a cluster
    from dask.distributed import as_completed

    rows = earlier_rows(out, ident, cases, config, force, label)
    todo = [(name, values) for name, values in cases if name not in rows]
    if not todo:
        write_summary(out, cases, rows)
        return pd.read_csv(out / SUMMARY)
    make_folder(out, label)  # before the cluster starts: a folder that cannot be is bad input
    if progress and scheduler is None:
        # compiled here, with a word and a bar, into the cache the local
        # workers' cases then load from, rather than by the first cases in
        # silence (their messages go to their case.log)
        warm_up(models)
        # imported here: numba and the compiled package load only where the cases may use them
        from ..runtime.compiled.master_warm_up import warm_up_master
        warm_up_master(for_algorithm=algorithm)
    client, cluster = _connect(scheduler, workers)
    bar, stopped = None, False
    try:
        if force:
            clear(out, label)
        write_identity(out, ident, label)
        write_summary(out, cases, rows)
        if progress:
            # tqdm only where a bar is drawn
            from tqdm import tqdm
            bar = tqdm(total=len(cases), initial=len(rows), unit="case", file=sys.stderr)
        where = str(out.resolve())
        futures = {client.submit(run_case, system_path, name, values, where,
                                 config.replace(values={**config.values, **values}).to_json(),
                                 key=f"case-{name}-{time.time_ns()}", pure=False): (name, values)
                   for name, values in todo}
        for future in as_completed(futures):
            name, values = futures[future]
            try:
                row = future.result()
            except Exception as exc:  # noqa: BLE001 (the case's failure, never the sweep's)
                row = _lost(name, values, exc)
            rows[name] = row
            write_summary(out, cases, rows)
            if bar is not None:
                bar.update()
    except BaseException:  # Ctrl-C, SIGTERM, a lost scheduler
        stopped = True
        raise
    finally:
        if bar is not None:
            bar.close()
        with _dask_quiet(stopped):
            client.close()
            if cluster is not None:
                cluster.close()
        if stopped:
            # the cases that ended while the sweep was stopping (or whose
            # ending it had not yet taken) as their folders say, not pending
            rows.update(_rows_on_disk(out, [name for name, _ in todo if name not in rows]))
            write_summary(out, cases, rows)
    return pd.read_csv(out / SUMMARY)
