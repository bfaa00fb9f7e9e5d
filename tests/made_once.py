"""Folders made once for a whole test session, shared by its pytest-xdist
workers: the portable FMUs, FMUs unzipped, a Windows Python under Wine,
the monolithic runs the co-simulations are checked against."""
from __future__ import annotations

import fcntl
import shutil
from pathlib import Path

__all__ = ["made_once"]


def made_once(tmp_path_factory, worker_id: str, name: str, make) -> Path:
    """``<folder>/<name>``, made by ``make(path)`` once for the whole
    session, whatever number of pytest-xdist workers share it (the first
    that needs it makes it, the others wait for it), in the workers' common
    folder: what is large and only read is then on disk once."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the workers' common folder
    out, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            make(out)
            done.write_text("made\n")
    return out
