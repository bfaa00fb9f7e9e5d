"""One process at a time compiles the same kernels on a machine.

numba compiles a function at its first call unless its cache holds the
machine code, and writes what it compiled to the cache; two processes
that start on a cold cache at once (a sweep's cases on a new machine, the
FMUs of one run in processes of their own, the workers of a test run)
would each compile the same kernels, for tens of seconds each.
:func:`compiling_alone` makes the second wait for the first and then load
what it wrote: an exclusive ``flock`` on ``compile.lock`` in the cache
folder the kernels are kept in, taken only where the cache lacks the
machine code of one of the functions about to be called (loading from a
complete cache takes no lock: processes that start together load at once).

Where the folder cannot be written or the system has no ``flock``
(Windows), each process compiles what the cache lacks, as numba alone does.
"""
from __future__ import annotations

import contextlib
from pathlib import Path

from .jit import dispatcher_cached

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

__all__ = ["LOCK_FILE", "compiling_alone", "dispatchers_of"]

#: the lock file, in the folder the kernels' machine code is kept in
LOCK_FILE = "compile.lock"


@contextlib.contextmanager
def compiling_alone(dispatchers, folder: Path | None = None):
    """While active, no other process compiles into ``folder`` (the cache
    folder of ``dispatchers``, numba functions; default: the folder of the
    first one's source file, where a kernel module's copy and its cache
    are kept): the lock is held where numba's cache lacks the machine code
    of one of ``dispatchers`` for this machine, Python and numba, taken
    before the first call compiles them (waiting for a process that
    compiles them, which then leaves them in the cache)."""
    dispatchers = list(dispatchers)
    if fcntl is None or all(dispatcher_cached(d, _source(d)) for d in dispatchers):
        yield
        return
    folder = Path(folder) if folder is not None else _source(dispatchers[0]).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = open(folder / LOCK_FILE, "a")
    except OSError:  # a folder that cannot be written: nothing is cached there either
        yield
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)
        except OSError:  # a file system without locks
            pass
        yield


def _source(dispatcher) -> Path:
    return Path(dispatcher.py_func.__code__.co_filename)


def dispatchers_of(*modules) -> list:
    """The numba functions each of ``modules`` (kernel modules as
    ``jit.load_kernels`` loads them, or ``None``) defines."""
    return [v for m in modules if m is not None for v in vars(m).values()
            if hasattr(v, "py_func") and v.py_func.__module__ == getattr(m, "__name__", None)]
