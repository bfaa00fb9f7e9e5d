"""One case of a sweep: on a Dask worker (:func:`run_case`), and in a
process of its own:

    python -m crane_cosim.studies.case SYSTEM FOLDER PARENT

runs ``SYSTEM`` with the :class:`~crane_cosim.runtime.config.RunConfig` in
``FOLDER/config.json`` into ``FOLDER``.  The run writes how it ended to its
``summary.json`` (``status`` and, unless completed, the ``error``: the
sentence of its error); the process also writes ``FOLDER/outcome.json``
(``{"status": ..., "reason": ...}``), which says how it ended when it ended
before the run wrote a summary (a value the FMU refused at its start, an FMU
that cannot be loaded).  Its messages go to ``FOLDER/case.log``, and no
status is read off them.

The worker starts the process without ``preexec_fn`` (which Python
documents as unsafe in a process with threads, as a Dask worker is), in a
session of its own (``start_new_session``: a Ctrl-C meant for the worker's
terminal does not reach it); the process itself asks Linux, before
anything else, to be killed (SIGKILL) when the worker thread that started
it (``PARENT``'s) ends (``PR_SET_PDEATHSIG``), and ends at once if the
worker died before it asked, so that a case Dask runs again on another
worker is the only one writing its folder.
"""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ..errors import CraneCosimError, SimulationError, Terminated

__all__ = ["OUTCOME", "CONFIG", "LOG", "ROW", "case_command", "run_case", "main"]

#: the file a case's process writes how it ended to
OUTCOME = "outcome.json"
#: the case's RunConfig, its values among them
CONFIG = "config.json"
#: the case's process's messages
LOG = "case.log"
#: the case's row of the sweep's summary
ROW = "case.json"
#: the peaks the summary lists: the outputs with this role (the wrench at an interface)
PEAK_ROLE = "interface.wrench."
#: the statuses of a run that count as completed (ended: a component ended it, as it may)
DONE = ("completed", "ended")


def case_command(system: str, folder: Path, parent: int) -> list[str]:
    """The command that runs the case in ``folder`` of ``system``, started
    by the process ``parent``."""
    return [sys.executable, "-m", "crane_cosim.studies.case", str(system), str(folder), str(parent)]


def _read_json(path: Path):
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _ended(part: Path, code: int, name: str) -> tuple[str, str]:
    """``(status, reason)`` of the case whose process ended with ``code``:
    the run's ``summary.json`` says, else the process's ``outcome.json``,
    else the exit status; failed when either file says so."""
    summary, outcome = _read_json(part / "summary.json"), _read_json(part / OUTCOME)
    said = [s for s in (summary, outcome) if s is not None and s.get("status")]
    if not said:
        how = f"exit status {code}"
        if code < 0:
            try:
                how = f"signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"signal {-code}"
        return "failed", (f"its process ended with {how} before its run wrote summary.json (its messages are in "
                          f"cases/{name}/{LOG})")
    for s in said:
        if s["status"] not in DONE:
            reason = s.get("error") if s is summary else s.get("reason")
            return "failed", str(reason or f"the run ended {s['status']}")
    return "completed", str((summary or {}).get("error") or (outcome or {}).get("reason") or "")


def _converted(part: Path) -> dict:
    """``results.arrows`` of the case as ``results.parquet`` (zstd, the
    columns' types, units and roles kept in its metadata), and the peaks of
    the interface wrench, ``{peak_<column>: value}``.  The rows of a case
    killed while writing are those of the batches it wrote."""
    # deferred: Dask workers import this module to start cases, and load these where they are used
    import numpy as np

    from ..files.results import RESULTS_FILE, metadata_of, read_table
    from ..files.results_export import write_parquet
    from ..runtime.coupling import columns_of_role
    from .sweep_folder import RESULTS

    table, _ = read_table(part / RESULTS_FILE)
    write_parquet(table, part / RESULTS)
    (part / RESULTS_FILE).unlink()
    df = table.to_pandas()
    roles = metadata_of(table.schema)["roles"]
    return {f"peak_{c}": float(np.abs(df[c]).max()) if len(df) else float("nan")
            for c in columns_of_role(roles, PEAK_ROLE) if c in df}


def run_case(system: str, name: str, values: dict, out: str, config_json: str) -> dict:
    """Run one case, ``values`` set in the run ``config_json`` (a
    :class:`RunConfig` as JSON), of the system at ``system`` into
    ``<out>/cases/<name>``, in a process of its own; returns its summary
    row.  Runs on a Dask worker.  Whatever goes wrong is the case's
    failure, with its reason in the row: nothing is raised."""
    # deferred: Dask workers import this module to start cases, and load these where they are used
    from ..runtime.config import RunConfig
    from .case_fmus import fmus_for_this_python
    from .sweep_folder import CASES

    t0 = time.perf_counter()
    final = Path(out) / CASES / name
    part = final.with_name(name + ".part")
    row = {"case": name, **values, "status": "failed", "reason": "", "wall_s": None}
    peaks = {}
    try:
        shutil.rmtree(part, ignore_errors=True)  # a worker that died left it
        part.mkdir(parents=True)
        config = RunConfig.from_json(config_json)
        own = fmus_for_this_python(system, config, out)
        (part / CONFIG).write_text(config.replace(replacements={**config.replacements, **own}).to_json())
        with open(part / LOG, "wb") as log:
            proc = subprocess.Popen(case_command(system, part, os.getpid()), stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                    start_new_session=True)
            code = proc.wait()
        row["status"], row["reason"] = _ended(part, code, name)
        if (part / "results.arrows").exists():
            try:
                peaks = _converted(part)
            except Exception as exc:  # noqa: BLE001 (any failure to read or write the results is the case's)
                if row["status"] == "completed":
                    row["status"], row["reason"] = "failed", (
                        f"its results cannot be read or converted to Parquet ({type(exc).__name__}: "
                        f"{exc})").replace(str(part), str(final))
    except Exception as exc:  # noqa: BLE001
        row["status"], row["reason"] = "failed", (str(exc) if isinstance(exc, CraneCosimError) else
                                                  f"it could not be run on its worker ({type(exc).__name__}: {exc})")
    row["wall_s"] = time.perf_counter() - t0
    row.update(peaks)
    try:
        (part / ROW).write_text(json.dumps(row, indent=1) + "\n")
        shutil.rmtree(final, ignore_errors=True)
        part.rename(final)
    except OSError as exc:
        row["status"], row["reason"] = "failed", f"its folder cannot be written ({exc.strerror or exc})"
    return row


def _die_with_parent(parent: int) -> None:
    """End this process (SIGKILL) when the thread of ``parent`` that started
    it ends (Linux's ``PR_SET_PDEATHSIG``); at once if it ended already."""
    if sys.platform != "linux":
        return
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    if os.getppid() != parent:  # the worker died before the line above
        os.kill(os.getpid(), signal.SIGKILL)


def _write(folder: Path, status: str, reason: str | None) -> None:
    (folder / OUTCOME).write_text(json.dumps({"status": status, "reason": reason}) + "\n")


def main(argv=None) -> int:
    argv = list(argv if argv is not None else sys.argv[1:])
    if len(argv) == 3:
        _die_with_parent(int(argv.pop()))
    system, folder = argv
    folder = Path(folder)

    # deferred: Dask workers import this module to start cases, and load these where they are used
    from ..runtime.config import RunConfig
    from ..runtime.run import run_cosim
    from ..ssp import open_system
    try:
        config = RunConfig.from_json((folder / CONFIG).read_text())
        with open_system(system) as opened:
            result = run_cosim(opened.system, folder, config)
        _write(folder, result.status, result.reason)
        return 0
    except Terminated:
        _write(folder, "terminated", "terminated by SIGTERM")
        return 143
    except KeyboardInterrupt:
        _write(folder, "interrupted", "interrupted")
        return 130
    except CraneCosimError as exc:
        _write(folder, "failed", str(exc))
        return 1 if isinstance(exc, SimulationError) else 2
    except Exception as exc:  # an internal error: said as it is, never lost
        _write(folder, "failed", f"internal error: {type(exc).__name__}: {exc}")
        return 3


if __name__ == "__main__":
    sys.exit(main())
