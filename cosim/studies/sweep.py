"""Many runs of one system: a sweep over cases, on a Dask cluster.

A case is a set of parameter values (``component.variable=value``, as
``crane-cosim run --set`` takes them): a sea state, a seed, a payload, a
gain.  The cases come from a table (CSV: a column ``case`` naming each
case, optional, then one column per ``component.variable``), or from the
product of ranges (``--vary waves.Hs=1,2,3 --vary waves.seed=1,2``).

Each case is one ``crane-cosim run`` of the system with its values, in a
process of its own (our FMUs run Python in the process that loads them, so
a case never shares a process with another, and a case that crashes takes
nothing else down), started by a Dask worker: a ``LocalCluster`` of one
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
largest magnitude of each force and moment of the crane's wrench at the
mount (``crane.W_mount_*``).  It is written again as each case ends, so an
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
#: the peaks the summary lists: the crane's wrench at the mount
PEAK_COLUMNS = "crane.W_mount_"
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


def run_case(system: str, name: str, values: dict, out: str, options: list[str]) -> dict:
    """Run one case (``crane-cosim run`` in a process of its own) into
    ``<out>/cases/<name>``; returns its summary row.  Runs on a Dask worker."""
    final = Path(out) / CASES / name
    part = final.with_name(name + ".part")
    shutil.rmtree(part, ignore_errors=True)  # a worker that died left it
    sets = [f"{target}={value}" for target, value in values.items()]
    command = [sys.executable, "-m", "crane_cosim.cli", "run", system, "--out", str(part), "--no-plots",
               *options, *itertools.chain.from_iterable(("--set", s) for s in sets)]
    t0 = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                          preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    wall = time.perf_counter() - t0
    row = {"case": name, **values, "status": "completed" if proc.returncode == 0 else "failed", "reason": "",
           "wall_s": wall}
    if proc.returncode != 0:
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        row["reason"] = lines[-1].removeprefix("crane-cosim: error: ") if lines else f"exit {proc.returncode}"
    part.mkdir(parents=True, exist_ok=True)
    csv = part / "results.csv"
    if csv.exists():
        df = pd.read_csv(csv)
        df.to_parquet(part / RESULTS, compression="zstd", index=False)
        csv.unlink()
        for column in df.columns:
            if column.startswith(PEAK_COLUMNS):
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


def sweep(system_path, cases, out, options=(), scheduler: str | None = None, workers: int | None = None,
          progress: bool = True) -> pd.DataFrame:
    """Run ``cases`` (``[(name, values)]``) of the system at ``system_path``
    into ``out`` on a Dask cluster; returns the summary table.  Cases that
    completed in an earlier sweep into ``out`` are not run again."""
    from dask.distributed import Client, LocalCluster, as_completed
    from ..runtime.master import prepare_fmus
    from ..files.ssp import open_system

    out = Path(out)
    (out / CASES).mkdir(parents=True, exist_ok=True)
    system_path = str(Path(system_path).resolve())
    with open_system(system_path) as opened:
        prepare_fmus(opened.system)  # once, here: two cases must not build the same FMU at once
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
        futures = [client.submit(run_case, system_path, name, values, str(out.resolve()), list(options),
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
