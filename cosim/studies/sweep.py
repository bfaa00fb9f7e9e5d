"""Many runs of one system: a sweep over cases, on a Dask cluster.

A case is a set of parameter values (``component.variable=value``, as
``crane-cosim run --set`` takes them): a sea state, a seed, a payload, a
gain.  The cases come from a table (CSV: a column ``case`` naming each
case, optional, then one column per ``component.variable``), or from the
product of ranges (``--vary waves.Hs=1,2,3 --vary waves.seed=1,2``).

Each case is one run of the system with its values, a
:class:`~crane_cosim.runtime.config.RunConfig` (the sweep's options and the
case's values) checked with the system before the cluster starts, then
carried as JSON to a process of its own (``python -m
crane_cosim.studies.case``: our FMUs run Python in the process that loads
them, so a case never shares a process with another, and a case that
crashes takes nothing else down), which writes how it ended as JSON
beside its results; the process is started by a Dask worker: a ``LocalCluster`` of one
worker process per core by default, or the cluster whose scheduler is
given (``--scheduler tcp://host:8786``; its workers must have this
package installed and see the system's and the output's folders at the
same paths).  A case runs in ``<out>/cases/<case>.part`` and is renamed to
``<out>/cases/<case>`` when it ends, its results converted to Parquet
(``results.parquet``, compressed) beside its ``summary.json``.  A worker
that dies in the middle of a case loses nothing: Dask runs the case again
on another worker, from the start.

``<out>/summary.csv`` lists every case: its values, status (``completed``
or ``failed``, with the reason, or ``pending``), wall time, and the
largest magnitude of each component of the wrench at an interface (the
outputs with the role ``interface.wrench``, ``runtime/coupling.py``: the
crane's wrench at the mount).  It is written again as each case ends, so an
interrupted sweep leaves it up to date, and a sweep run again skips the
cases that completed.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import CraneCosimError

SUMMARY = "summary.csv"
CASES = "cases"
RESULTS = "results.parquet"
#: the peaks the summary lists: the outputs with this role (the wrench at an interface)
PEAK_ROLE = "interface.wrench."
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


def cases_of_table(path) -> list[tuple[str, dict]]:
    """``(name, {component.variable: text})`` of each row of the CSV ``path``."""
    path = Path(path)
    try:
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise CraneCosimError(f"the cases table {path} cannot be read: {exc}") from None
    targets = [c for c in table.columns if c != "case"]
    bad = [c for c in targets if "." not in c]
    if bad or not targets:
        raise CraneCosimError(f"the cases table {path} needs columns named component.variable (and optionally "
                              f"'case'); {', '.join(map(repr, bad)) or 'none'} is not")
    names = list(table["case"]) if "case" in table.columns else [f"case{k + 1:04d}" for k in range(len(table))]
    return _checked(path, [(n, {t: row[t] for t in targets}) for n, (_, row) in zip(names, table.iterrows())])


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


def run_case(system: str, name: str, values: dict, out: str, config_json: str) -> dict:
    """Run one case (``python -m crane_cosim.studies.case``, in a process of
    its own) into ``<out>/cases/<name>``; returns its summary row.  Runs on
    a Dask worker."""
    from ..runtime.coupling import columns_of_role
    from .case import OUTCOME, case_command

    final = Path(out) / CASES / name
    part = final.with_name(name + ".part")
    shutil.rmtree(part, ignore_errors=True)  # a worker that died left it
    part.mkdir(parents=True)
    (part / "config.json").write_text(config_json)
    t0 = time.perf_counter()
    proc = subprocess.run(case_command(system, part), capture_output=True, text=True,
                          env={**os.environ, "PYTHONUNBUFFERED": "1"},
                          preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    wall = time.perf_counter() - t0
    try:
        outcome = json.loads((part / OUTCOME).read_text())
    except (OSError, ValueError):  # the process died before it could say
        outcome = {"status": "failed", "reason": f"the case's process ended with exit status {proc.returncode} "
                                                 f"and no outcome"}
    completed = outcome["status"] in ("completed", "ended")
    row = {"case": name, **values, "status": "completed" if completed else "failed",
           "reason": outcome.get("reason") or "", "wall_s": wall}
    csv = part / "results.csv"
    if csv.exists():
        df = pd.read_csv(csv)
        df.to_parquet(part / RESULTS, compression="zstd", index=False)
        csv.unlink()
        try:
            roles = json.loads((part / "summary.json").read_text()).get("roles", {})
        except (OSError, ValueError):
            roles = {}
        for column in columns_of_role(roles, PEAK_ROLE):
            if column in df:
                row[f"peak_{column}"] = float(np.abs(df[column]).max()) if len(df) else float("nan")
    (part / "case.json").write_text(json.dumps(row, indent=1) + "\n")
    shutil.rmtree(final, ignore_errors=True)
    part.rename(final)
    return row


def _die_with_parent() -> None:
    """In the case's process, before it runs: end it (SIGKILL) when the
    worker that started it dies, so that a case run again elsewhere is
    the only one writing its folder (Linux's PR_SET_PDEATHSIG)."""
    import ctypes
    import signal
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1


def finished(out: Path, name: str) -> dict | None:
    """The summary row of a case that completed in an earlier sweep, else None."""
    folder = Path(out) / CASES / name
    try:
        row = json.loads((folder / "case.json").read_text())
    except (OSError, ValueError):
        return None
    return row if row.get("status") == "completed" and (folder / RESULTS).exists() else None


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
    from ..runtime.plan import problems_of
    for name, values in cases:
        try:
            problems, _ = problems_of(system, config.replace(values={**config.values, **values}))
        except CraneCosimError as exc:
            problems = [str(exc)]
        if problems:
            from ..runtime.checks import joined
            raise CraneCosimError(f"case {name}: {joined(problems)}")


def sweep(system_path, cases, out, config=None, scheduler: str | None = None, workers: int | None = None,
          progress: bool = True) -> pd.DataFrame:
    """Run ``cases`` (``[(name, values)]``) of the system at ``system_path``
    with ``config`` (a :class:`~crane_cosim.runtime.config.RunConfig`, each
    case's values added to its own) into ``out`` on a Dask cluster;
    returns the summary table.  Every case is checked before the cluster
    starts; cases that completed in an earlier sweep into ``out`` are not
    run again."""
    from dask.distributed import Client, LocalCluster, as_completed
    from ..fmus.build import prepare_fmus
    from ..files.ssp import open_system
    from ..runtime.config import RunConfig

    config = (config or RunConfig()).replace(progress=False)
    config.check()
    out = Path(out)
    system_path = str(Path(system_path).resolve())
    with open_system(system_path) as opened:
        prepare_fmus(config.applied_to(opened.system))  # once, here: two cases must not build the same FMU at once
        check_cases(opened.system, cases, config)
    (out / CASES).mkdir(parents=True, exist_ok=True)
    rows = {name: row for name, _ in cases if (row := finished(out, name)) is not None}
    todo = [(name, values) for name, values in cases if name not in rows]
    write_summary(out, cases, rows)
    if not todo:
        return pd.read_csv(out / SUMMARY)
    if scheduler:
        client, cluster = Client(scheduler), None
    else:
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(cases), initial=len(rows), unit="case", file=sys.stderr)
    try:
        futures = [client.submit(run_case, system_path, name, values, str(out.resolve()),
                                 config.replace(values={**config.values, **values}).to_json(),
                                 key=f"case-{name}-{time.time_ns()}", pure=False) for name, values in todo]
        for future in as_completed(futures):
            row = future.result()
            rows[row["case"]] = row
            write_summary(out, cases, rows)
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
        client.close()
        if cluster is not None:
            cluster.close()
    return pd.read_csv(out / SUMMARY)
