"""What the tests that run the FMUs in C hosts share: the C compiler, the
compile of a test host, and the environment of a host process."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CC = shutil.which("gcc") or shutil.which("cc")


def require_compiler(cc, ci: bool, platform: str = sys.platform):
    """``cc``, the C compiler the FMUs' own binary and the test hosts need,
    on Linux.  Without one the test is skipped, but fails in CI (``ci``),
    saying why: there a test that must run never skips."""
    if not platform.startswith("linux"):
        pytest.skip("the FMUs' own binary is built for Linux only")
    if cc is None:
        reason = "no C compiler (gcc or cc): neither the FMUs' binary nor the test hosts can be built"
        if ci:
            pytest.fail(f"{reason}; CI must have one")
        pytest.skip(reason)
    return cc


def compile_host(tmp_path_factory, name, *extra) -> Path:
    """``tests/fmus/<name>.c`` compiled into a folder of its own."""
    exe = tmp_path_factory.mktemp(name) / name
    proc = subprocess.run([CC, "-O1", "-Wall", "-o", str(exe), str(HERE / f"{name}.c"), *extra],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return exe


def host_env(**overrides) -> dict:
    """This process's environment without anything that would help a C host
    find Python (the FMU must find it itself), plus ``overrides``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "PYTHONPATH", "PYTHONHOME", "LD_LIBRARY_PATH", "CRANE_COSIM_PYTHON")}
    env.update({k: str(v) for k, v in overrides.items()})
    return env
