"""A run's working folder (the FMUs unpacked, a few MB each) in the
system's temporary folder: ``crane_cosim_run_<pid>_*``, claimed by its run
(``files/folders.py``) and removed at its end.  A run killed before its end
(SIGKILL, a power cut) cannot remove its folder; the next run's start
removes every such folder whose run is dead and whose claim is free.  The
process id in the name keeps a run starting (its folder made, its claim
not yet taken) from losing its folder to another run's start."""
from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from pathlib import Path

from ..files.folders import LOCK_FILE, claimed

__all__ = ["PREFIX", "work_folder", "remove_stale"]

#: the start of a working folder's name, before its run's process id
PREFIX = "crane_cosim_run_"


def _dead(pid: int) -> bool:
    """Whether no process has the id ``pid``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's: alive
        return False
    return False


def _abandoned(folder: Path) -> bool:
    """Whether the working folder ``folder`` is no live run's: the process
    its name gives is dead (the run that made it), and no other process
    holds its claim (a process the run started, still ending)."""
    pid = folder.name[len(PREFIX):].partition("_")[0]
    if not pid.isdigit() or not _dead(int(pid)):
        return False
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:  # the run died before it took its claim
        return True
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def remove_stale(where=None) -> list[Path]:
    """Remove the working folders in ``where`` (the system's temporary
    folder) that runs killed before their end left; returns them.  A
    folder of a name without a process id (an earlier version's) is left."""
    removed = []
    with contextlib.suppress(OSError):
        for folder in Path(where or tempfile.gettempdir()).glob(PREFIX + "*_*"):
            if folder.is_dir() and not folder.is_symlink() and _abandoned(folder):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


@contextlib.contextmanager
def work_folder():
    """A new working folder for one run, claimed for the block and removed
    at its end; stale ones (:func:`remove_stale`) go first."""
    remove_stale()
    folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}_"))
    try:
        with claimed(folder, "the run's working folder"):
            yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
