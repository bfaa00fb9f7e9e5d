"""A machine without Python, for the tests of portable FMUs: a command run
in a private mount namespace (``unshare -m``) in which every Python
installation of this machine is hidden (an empty tmpfs over each folder,
``/dev/null`` over each interpreter and libpython), with an environment
that names none."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

__all__ = ["python_installations", "clean_room_command", "clean_env", "require_clean_room"]


def python_installations() -> tuple[list[str], list[str]]:
    """(folders, files) of every Python installation here: this
    interpreter's (its prefix, its base prefix, pyenv's root), the
    system's (``/usr/lib/python3*``, ``/usr/local/lib/python3*``) and every
    interpreter and libpython on the usual paths."""
    folders = {sys.prefix, sys.base_prefix, *glob.glob("/usr/lib/python3*"), *glob.glob("/usr/local/lib/python3*")}
    pyenv = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    if os.path.isdir(pyenv):
        folders.add(pyenv)
    for prefix in list(folders):
        if "/.pyenv/" in prefix:
            folders.add(prefix[:prefix.index("/.pyenv/") + len("/.pyenv")])
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    files = {*glob.glob("/usr/bin/python*"), *glob.glob("/usr/local/bin/python*"),
             *glob.glob("/usr/lib/*/libpython*"), *glob.glob("/usr/lib/libpython*"),
             *glob.glob("/usr/local/lib/libpython*"), *glob.glob(f"{libdir}/libpython*")}
    folders = {os.path.realpath(f) for f in folders if os.path.isdir(f)}
    # a folder inside another is hidden with it
    folders = sorted(f for f in folders if not any(f.startswith(d + "/") for d in folders))
    # a link is hidden with the file it names; files inside a hidden folder are hidden with it
    files = {os.path.realpath(f) for f in files}
    files = sorted(f for f in files if os.path.isfile(f) and not any(f.startswith(d + "/") for d in folders))
    return folders, files


def clean_room_command(argv: list[str]) -> list[str]:
    """``argv`` run where no Python can be found (see above)."""
    folders, files = python_installations()
    script = "set -e\n" + "".join(f"mount -t tmpfs none '{d}'\n" for d in folders) \
        + "".join(f"mount --bind /dev/null '{f}'\n" for f in files) + 'exec "$@"\n'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "clean-room", *argv]


def clean_env(home: Path, **extra) -> dict:
    """An environment that names no Python: a bare ``PATH``, ``HOME``, the
    machine's OpenBLAS settings (which choose its kernels, as on any
    machine that sets them), and ``extra``."""
    machine = {k: v for k, v in os.environ.items() if k.startswith("OPENBLAS_")}
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LC_ALL": "C.UTF-8", **machine,
            **{k: str(v) for k, v in extra.items()}}


def require_clean_room(ci: bool) -> None:
    """Skip where a private mount namespace cannot be made (not root, no
    ``unshare``); under CI fail instead: there the test must run."""
    reason = None
    if shutil.which("unshare") is None:
        reason = "unshare (util-linux) is missing"
    else:
        probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True, text=True)
        if probe.returncode != 0:
            reason = f"cannot make a private mount namespace here: {probe.stderr.strip()}"
    if reason and ci:
        pytest.fail(f"{reason}; CI must run the clean-room tests (as root)")
    if reason:
        pytest.skip(reason)
