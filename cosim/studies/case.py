"""One case of a sweep, in a process of its own:

    python -m crane_cosim.studies.case SYSTEM FOLDER

runs ``SYSTEM`` with the :class:`~crane_cosim.runtime.config.RunConfig` in
``FOLDER/config.json`` into ``FOLDER`` and writes how it ended to
``FOLDER/outcome.json``: ``{"status": "completed" | "ended" | "failed" |
"interrupted" | "terminated", "reason": ...}``, the reason being the
sentence the run's error gave (``studies/sweep.py`` reads it, never the
process's messages)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

__all__ = ["OUTCOME", "case_command", "main"]

#: the file a case's process writes how it ended to
OUTCOME = "outcome.json"


def case_command(system: str, folder: Path) -> list[str]:
    """The command that runs the case in ``folder`` of ``system``."""
    return [sys.executable, "-m", "crane_cosim.studies.case", str(system), str(folder)]


def _write(folder: Path, status: str, reason: str | None) -> None:
    (folder / OUTCOME).write_text(json.dumps({"status": status, "reason": reason}) + "\n")


def main(argv=None) -> int:
    from ..errors import CraneCosimError, SimulationError, Terminated
    from ..files.ssp import open_system
    from ..runtime.config import RunConfig
    from ..runtime.run import run_cosim

    system, folder = (argv if argv is not None else sys.argv[1:])
    folder = Path(folder)
    try:
        config = RunConfig.from_json((folder / "config.json").read_text())
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
