"""Capytaine for the tests of ``crane-cosim hydro``, beside the test
environment, not in it: Capytaine requires pandas < 3, so installed with
the test extra it would replace the pandas a plain install of crane-cosim
gets, and no test would see that one. Its distributions are installed once
per machine into a folder of the cache (``pip install --target``) and put
first on the ``PYTHONPATH`` of the ``crane-cosim hydro`` processes the tests
start; numpy and scipy pinned to the test environment's versions, so only
pandas and Capytaine's own dependencies differ there."""
from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crane_cosim.blocks.jit import cache_dir
from limits import HUNG


def _hydro_requirements() -> list[str]:
    """The requirements of crane-cosim's ``hydro`` extra, without their markers."""
    return [r.split(";")[0].strip() for r in importlib.metadata.requires("crane-cosim") or ()
            if 'extra == "hydro"' in r]


def _pins() -> list[str]:
    """This environment's numpy and scipy, which Capytaine's folder must share."""
    return [f"{name}=={importlib.metadata.version(name)}" for name in ("numpy", "scipy")]


def _made(folder: Path, requirements: list[str]) -> None:
    """``requirements`` installed into ``folder`` (made whole, then renamed)."""
    part = folder.with_name(folder.name + f".part-{os.getpid()}")
    shutil.rmtree(part, ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                           "--target", str(part), *requirements], capture_output=True, text=True)
    if proc.returncode != 0:
        shutil.rmtree(part, ignore_errors=True)
        pytest.fail(f"cannot install Capytaine for the hydro tests ({' '.join(requirements)}): "
                    f"{proc.stderr.strip()[-2000:]}")
    part.rename(folder)


@pytest.fixture(scope="session")
def hydro_env() -> dict[str, str]:
    """The environment of a ``crane-cosim hydro`` process that has Capytaine."""
    requirements = _hydro_requirements() + _pins()
    key = hashlib.sha256(f"{sys.version_info[:2]} {sorted(requirements)}".encode()).hexdigest()[:12]
    root = cache_dir() / "test-capytaine"
    root.mkdir(parents=True, exist_ok=True)
    folder = root / key
    with open(root / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one pytest-xdist worker installs, the others wait
        if not folder.is_dir():
            _made(folder, requirements)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))}


@pytest.fixture
def hydro(hydro_env):
    """``hydro(*args)``: ``crane-cosim hydro *args`` run with Capytaine, as a
    finished process (exit code, stdout, stderr as text)."""
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "crane_cosim.cli", "hydro", *map(str, args)],
                              env=hydro_env, capture_output=True, text=True, timeout=HUNG)
    return run
