"""A folder written by one run at a time, and what a command leaves behind
when it cannot write.

A run claims its results folder (:func:`claimed`): an exclusive
``flock`` on :data:`LOCK_FILE` inside it, held for the run and released by
the operating system when the process ends, however it ends (a SIGKILLed
run leaves no stale claim, at most the file, which the next claim takes
over).  A second run into a claimed folder is refused in one sentence
(:class:`FolderBusy`) before it touches anything there.  The file holds
the claiming process's id, for that sentence.

A command refused for bad input creates nothing: the folders a claim (or
:func:`made_folders_undone`) had to create are removed again when nothing
was written in them.  A disk that fills (:func:`no_space`) or a folder that
cannot be written (:func:`unwritable`) is one sentence naming the folder.
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from pathlib import Path

from ..errors import CraneCosimError, SimulationError

__all__ = ["LOCK_FILE", "FolderBusy", "NoSpaceLeft", "claimed", "refuse_busy", "missing_folders",
           "made_folders_undone", "no_space", "unwritable"]

#: the claim of a run on its folder (an exclusive flock; the file holds the claiming process's id)
LOCK_FILE = ".crane_cosim.lock"
#: times a claim is tried, 10 ms apart, before it is refused
_TRIES = 5
#: the errors that say the disk (or the user's quota) is full
_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)

#: the folders this process has claimed: resolved path -> [the lock file's descriptor, how many claims]
_HELD: dict[Path, list] = {}


class FolderBusy(CraneCosimError):
    """A folder another run is writing."""


class NoSpaceLeft(SimulationError):
    """A run stopped by a full disk; what was written before stays."""


def no_space(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk or the quota is full (pyarrow's
    OSError carries the errno in its text only)."""
    if not isinstance(exc, OSError):
        return False
    return exc.errno in _FULL or "No space left on device" in str(exc) or "Disk quota exceeded" in str(exc)


def unwritable(exc: OSError, doing: str) -> CraneCosimError:
    """The sentence of a write that failed with ``exc``: what could not be
    done (``doing``: ``cannot build the FMUs of S``) and the folder that
    cannot be written, the nearest existing one of the path the error
    names."""
    where = Path(exc.filename) if getattr(exc, "filename", None) else None
    while where is not None and not where.is_dir() and where != where.parent:
        where = where.parent
    reason = exc.strerror or str(exc)
    if where is None:
        return CraneCosimError(f"{doing}: {reason}")
    return CraneCosimError(f"{doing}: the folder {where} cannot be written ({reason})")


def missing_folders(path) -> list[Path]:
    """``path`` and those of its parents that do not exist, deepest first."""
    path = Path(path).absolute()
    missing = []
    for p in (path, *path.parents):
        if p.exists() or p.is_symlink():
            break
        missing.append(p)
    return missing


def _remove_empty(folders: list[Path]) -> None:
    """Remove each of ``folders`` (deepest first) that is an empty folder."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:  # not empty (something was written), or gone: left as it is
            return


@contextlib.contextmanager
def made_folders_undone(path):
    """A block that may create the folder ``path`` (and its parents): those
    it created are removed when it ends with them empty (a command refused
    before it wrote anything)."""
    made = missing_folders(path)
    try:
        yield Path(path)
    finally:
        _remove_empty(made)


def _holder(fd: int) -> str:
    """`` (pid N)`` of the lock file open as ``fd``, or nothing where it
    holds no process id (yet)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def _busy(folder: Path, label: str, holder: str) -> FolderBusy:
    return FolderBusy(f"{label} {folder} is being written by another run{holder}: wait for it to end, "
                      f"or give another folder")


def refuse_busy(folder, label: str = "the results folder") -> None:
    """Raise :class:`FolderBusy` when another process holds the claim of
    ``folder``; creates nothing, writes nothing."""
    folder = Path(folder)
    if folder.resolve() in _HELD:
        return
    try:
        fd = os.open(folder / LOCK_FILE, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no lock file: no run has it
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        raise _busy(folder, label, _holder(fd)) from None
    except OSError:  # a file system without locks: nothing to tell
        pass
    finally:
        os.close(fd)


def _lock(folder: Path, label: str) -> int:
    """The descriptor of ``folder``'s lock file, locked by this process and
    holding its id; :class:`FolderBusy` where another process holds it."""
    path = folder / LOCK_FILE
    tries = 0
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            tries += 1
            if tries < _TRIES:  # another process's refuse_busy holds it for an instant; a run, for its run
                time.sleep(0.01)
                continue
            raise _busy(folder, label, holder) from None
        # the last holder may have removed the file between its open here
        # and the lock: a lock on a removed file claims nothing, so again
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    except OSError:  # a full disk: no claim, said by the caller
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def claimed(folder, label: str = "the results folder"):
    """The folder ``folder`` created where it is missing and claimed by this
    process for the block (:data:`LOCK_FILE`); a claim nested in another
    of the same process's on the same folder is that one.  Another
    process's claim is :class:`FolderBusy`, a folder that cannot be made
    or written :class:`CraneCosimError`, each in one sentence naming it
    (``label``: ``--out``).  On leaving, the lock file goes, and the
    folders the claim created go too when nothing was written in them."""
    folder = Path(folder)
    key = folder.resolve()
    if key in _HELD:
        _HELD[key][1] += 1
        try:
            yield folder
        finally:
            _HELD[key][1] -= 1
        return
    made = missing_folders(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _remove_empty(made)
        if isinstance(exc, FileExistsError) or folder.exists() and not folder.is_dir():
            raise CraneCosimError(f"{label} {folder} cannot be created: {exc.filename} is a file, "
                                  f"not a folder") from None
        raise CraneCosimError(f"{label} {folder} cannot be created: {exc.strerror or exc}") from None
    try:
        fd = _lock(folder, label)
    except FolderBusy:
        raise
    except OSError as exc:
        _remove_empty(made)
        raise CraneCosimError(f"{label} {folder} cannot be written: {exc.strerror or exc}") from None
    _HELD[key] = [fd, 1]
    try:
        yield folder
    finally:
        del _HELD[key]
        with contextlib.suppress(OSError):
            os.unlink(folder / LOCK_FILE)  # still held: no other process has it in between
        os.close(fd)
        _remove_empty(made)
