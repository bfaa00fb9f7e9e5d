"""The folder where the blocks' compiled kernels are kept (``blocks/jit.py``),
and whether it can be written.

``$CRANE_COSIM_CACHE_DIR``, else the user's cache folder
(``~/.cache/crane-cosim``, ``%LOCALAPPDATA%\\crane-cosim`` on Windows).  A
folder that cannot be written (a path under a file, ``/proc``, a read-only
home) would have every process compile the kernels again, tens of seconds
each, while the compile messages promised "once per machine":
:func:`cache_problem` says why it cannot be, :func:`kept_where` gives the
compile messages' truthful words, and :func:`tell_cache_problem` warns once
per process (going on: the kernels still compile, into a temporary folder,
and the run is right, only slower to start).
"""
from __future__ import annotations

import os
import sys
import tempfile
import warnings
from pathlib import Path

__all__ = ["cache_dir", "cache_problem", "kept_where", "tell_cache_problem"]


def cache_dir() -> Path:
    """Folder of the kernels' stable copies and their compiled code."""
    if os.environ.get("CRANE_COSIM_CACHE_DIR"):
        return Path(os.environ["CRANE_COSIM_CACHE_DIR"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "crane-cosim"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crane-cosim"


#: why each cache folder asked about cannot be written (None: it can), by path
_PROBLEMS: dict[str, str | None] = {}
#: the cache folders whose problem this process has told
_TOLD: set[str] = set()


def cache_problem(folder=None) -> str | None:
    """Why the cache folder (``folder``, default :func:`cache_dir`) cannot be
    written, in words (``[Errno 13] Permission denied``, ``it is a file``);
    None when it can (made if missing).  Asked once per folder and process,
    by writing a file in it."""
    folder = Path(folder or cache_dir())
    key = str(folder)
    if key not in _PROBLEMS:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe-")
            os.close(fd)
            os.remove(probe)
            _PROBLEMS[key] = None
        except OSError as exc:
            _PROBLEMS[key] = _reason(folder, exc)
    return _PROBLEMS[key]


def _reason(folder: Path, exc: OSError) -> str:
    """Why ``folder`` could not be written, as ``exc`` says, in words."""
    blocked = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
    if blocked is not None:
        return f"{blocked} is a file, not a folder"
    if not folder.is_dir():
        return f"it cannot be made: {exc.strerror or exc}"
    return exc.strerror or str(exc)


def kept_where(kept=None) -> str:
    """The words of a compile message on where its machine code is kept
    (``kept``, default :func:`cache_dir`): "once per machine; kept in
    <folder>", or, where the cache folder cannot be written, that the
    kernels are compiled again in every run, why, and which variable to set."""
    folder = cache_dir()
    problem = cache_problem(folder)
    if problem is None and kept is not None:
        problem = cache_problem(kept)
    if problem is None:
        return f"once per machine; kept in {kept or folder}"
    return (f"again in every run: the cache folder {folder} cannot be written ({problem}); set "
            f"CRANE_COSIM_CACHE_DIR to a folder that can")


def tell_cache_problem() -> None:
    """Warn, once per process and cache folder, that the cache folder cannot
    be written and the kernels are compiled in every run."""
    folder = cache_dir()
    problem = cache_problem(folder)
    if problem is not None and str(folder) not in _TOLD:
        _TOLD.add(str(folder))
        warnings.warn(f"the cache folder {folder} cannot be written ({problem}): numba's kernels are compiled "
                      f"again in every run, for tens of seconds; set CRANE_COSIM_CACHE_DIR to a folder that can be "
                      f"written", stacklevel=3)
