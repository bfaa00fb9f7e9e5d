"""The project's FMUs for the Python that runs a sweep's cases.

An FMU of ours records the Python its Linux binary was made for
(``fmus/native.py``), and a run rebuilds, in place, one that another Python
built.  The sweep builds the FMUs once, with the Python of the command; a
worker whose Python is another (a remote cluster whose workers have an
environment of their own) would rebuild them in the shared folder at every
case, through one temporary file.  Instead, :func:`fmus_for_this_python`
gives such a worker FMUs of its own: built once per Python into
``<out>/fmus/<key>/`` (``key``: a hash of the binary record, which names the
Python), under a lock file, each in a private folder first and renamed into
place, so that no case ever sees half an FMU and no two workers build the
same one; every build is logged, a line each, in ``built.txt`` beside them.
The case runs with them as ``--replace`` would swap them in.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import socket
import sys
import time
from pathlib import Path

from ..fmus import native
from ..fmus.build import BLOCKS, build_fmu, fmu_is_current, needs_building
from ..ssp import open_system
from .sweep_folder import FMUS

__all__ = ["BUILT", "environment_key", "fmus_for_this_python"]

#: the log of the builds in a Python's FMU folder
BUILT = "built.txt"


def environment_key() -> str:
    """The name of this Python's FMU folder: a hash of the binary record its
    FMUs carry (``fmus/native.py``: the Python's path, version, libpython)."""
    return hashlib.sha256(native.binary_record().encode()).hexdigest()[:12]


@contextlib.contextmanager
def _locked(path: Path):
    """Hold an exclusive lock on the file ``path`` (``flock``; where the file
    system has no locks, go on without: the rename keeps each FMU whole)."""
    with open(path, "a") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX)
        except OSError:
            pass
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                fcntl.flock(f, fcntl.LOCK_UN)


def _build(model: str, folder: Path) -> None:
    """Build ``<folder>/<model>.fmu`` in a private folder and rename it in."""
    private = folder / f".build-{socket.gethostname()}-{os.getpid()}"
    shutil.rmtree(private, ignore_errors=True)
    try:
        built = build_fmu(model, private)
        os.replace(built, folder / built.name)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    with open(folder / BUILT, "a") as log:
        log.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {model}.fmu built by {sys.executable} on "
                  f"{socket.gethostname()} (process {os.getpid()})\n")


def fmus_for_this_python(system_path, config, out) -> dict[str, str]:
    """``{component: FMU}`` for each of the project's FMUs that the system at
    ``system_path`` run with ``config`` names and that this Python would
    rebuild (another Python built it): this Python's own copy in
    ``<out>/fmus/<key>/``, built when missing or stale.  Empty when every
    FMU suits this Python (the sweep's own, as a local cluster has it), and
    for an ``.ssp`` archive (each case's process extracts its own copy)."""
    with open_system(system_path) as opened:
        if opened.archive is not None:
            return {}
        system = config.applied_to(opened.system)
        stale = {}
        for comp in system.components:
            path = system.source_path(comp)
            if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
                stale[comp.name] = path.stem
    if not stale:
        return {}
    folder = Path(out) / FMUS / environment_key()
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder.with_name(folder.name + ".lock")):
        for model in sorted(set(stale.values())):
            if not fmu_is_current(folder / f"{model}.fmu", BLOCKS[model]):
                _build(model, folder)
    return {comp: str(folder / f"{model}.fmu") for comp, model in stale.items()}
