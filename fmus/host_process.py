"""What an FMU's Python side does about the process that runs it: the
package's modules found again when the folder they came from is gone, and
pythonfmu 0.7's exit-time fault where the FMU carries pythonfmu's binary
alone (``docs/fmus.md``, "Known problems of pythonfmu 0.7").

This module is copied into every FMU next to the adapter
(``fmus/adapter.py``); it imports only the standard library.
"""
from __future__ import annotations

import atexit
import ctypes
import os
import sys
from pathlib import Path

__all__ = ["release_interpreter_state_at_exit", "follow_resources"]

_BINARIES = {"linux": ("linux64", ".so"), "darwin": ("darwin64", ".dylib"), "win32": ("win64", ".dll")}
_RELEASE_REGISTERED: set[str] = set()


def release_interpreter_state_at_exit(resources) -> None:
    """Work around a use-after-free at process exit in pythonfmu 0.7's binary,
    for an FMU that carries that binary alone (built without a C compiler).

    The binary keeps a global ``std::shared_ptr<PyState>``; at exit the C++
    runtime destroys it (freeing its control block without clearing the
    pointer) and then the library's destructor function
    ``finalizePythonInterpreter`` resets it again, decrementing a count
    inside freed memory.  Depending on what the heap holds there, the process
    aborts after all its work is done ("corrupted double-linked list") or
    worse.  Resetting the pointer ourselves while it is valid, from Python's
    own exit handlers, leaves both later calls a null pointer to ignore.  In
    a Python host the state object holds nothing an instance uses (its
    thread ended at once, finding Python running), and an instance created
    after the reset makes a new one.

    Not needed with the project's shim in front of the binary
    (``fmus/native.py``): it resets the pointer from a C exit handler, in
    every host.  Not done in a C host without the shim: there the binary
    started Python itself, on a thread of its own, and finalizes it from
    that global's destructor."""
    if not _python_host() or not resources:
        return
    folder, suffix = _BINARIES.get(sys.platform, (None, None))
    if folder is None:
        return
    libs = [str(lib.resolve()) for lib in (Path(resources).parent / "binaries" / folder).glob(f"*{suffix}")]
    if any(_loaded_symbol(path, "crane_cosim_fmi2_shim") for path in libs):
        return
    for path in libs:
        if path not in _RELEASE_REGISTERED:
            _RELEASE_REGISTERED.add(path)
            atexit.register(_release_interpreter_state, path)


def _loaded_symbol(path: str, name: str):
    """Symbol ``name`` of the library at ``path`` if that library is loaded
    in this process (the FMU folder may be gone), else None."""
    try:
        lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0))
        return getattr(lib, name)
    except (OSError, AttributeError):
        return None


def _python_host() -> bool:
    """Whether the host process is a Python program (fmpy, libcosimpy, ...
    run by ``python``), not a C host in which an FMU's binary started an
    embedded interpreter: that one has no command line (``sys.orig_argv``
    is empty).  Which thread imported ``threading`` first tells nothing:
    in a C host that is the host's thread or pythonfmu's, depending on what
    the interpreter's ``site`` imports."""
    return bool(getattr(sys, "orig_argv", None))


def _release_interpreter_state(path: str) -> None:
    finalize = _loaded_symbol(path, "finalizePythonInterpreter")
    if finalize is not None:
        finalize()


def follow_resources(resources, package: str) -> None:
    """Point the FMU's package ``package``, and its subpackages, at
    ``resources`` where the folder they were first imported from is gone.

    Every instance in a process shares the package's modules, imported once
    from the first instance's unzipped folder; a host that deletes that
    folder after a run (fmpy's ``simulate_fmu``, this project's master)
    would leave a module that is first imported later (the numba kernels,
    which a block imports when it first computes) nowhere to be found."""
    if not resources:
        return
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__path__", None)
        if (name == package or name.startswith(package + ".")) and path and not os.path.isdir(path[0]):
            folder = Path(resources).joinpath(*name.split("."))
            if folder.is_dir():
                module.__path__[:] = [str(folder)]
