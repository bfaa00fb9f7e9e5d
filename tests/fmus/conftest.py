"""Fixtures of the FMU tests: an FMU built as on a machine without a C
compiler, FMUs unzipped once, the C compiler the C-host tests need, and a
Windows Python under Wine."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest
from fmpy import extract

from c_hosts import CC, host_env, require_compiler
from fmpy_hosts import fmpy_final_outputs
from made_once import made_once
from windows_python import find_wine, install_windows_python, windows_python_in
from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.jit import under_ci


@pytest.fixture(scope="session")
def plain_fmu_dir(tmp_path_factory):
    """``Controller.fmu`` built where no C compiler is found: it carries
    pythonfmu's binary alone (``fmus/native.py``).  The warning printed then
    is tested on its own (test_c_host.py)."""
    from crane_cosim.fmus import native
    from crane_cosim.fmus.build import build_fmu
    out = tmp_path_factory.mktemp("plain_fmus")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CC", str(out / "no-such-cc"))
        mp.setattr(native, "_warned", True)
        build_fmu("Controller", out)
    return out


@pytest.fixture(scope="session")
def lean_fmpy_outputs(fmu_dir):
    """Every lean FMU run to the end of its DefaultExperiment by FMPy in the
    building Python (a process of its own): model -> {output: value}."""
    fmus = [fmu_dir / f"{model}.fmu" for model in BLOCKS]
    return dict(zip(BLOCKS, fmpy_final_outputs([sys.executable], fmus, host_env())))


@pytest.fixture(scope="session")
def unzipped(tmp_path_factory, worker_id):
    """``unzipped(fmu)``: the FMU extracted once per session, for every
    worker (:func:`made_once`); the tests only read it."""
    def get(fmu: Path) -> Path:
        key = hashlib.sha256(str(Path(fmu).resolve()).encode()).hexdigest()[:12]
        return made_once(tmp_path_factory, worker_id, f"unzipped-{Path(fmu).stem}-{key}",
                         lambda out: extract(str(fmu), unzipdir=str(out)))
    return get


@pytest.fixture(scope="session")
def c_compiler():
    """The C compiler of the C-host tests: skipped without one, failed
    without one in CI (``c_hosts.require_compiler``; tests/conftest.py fails
    any test that skips under CI, too)."""
    return require_compiler(CC, under_ci())


@pytest.fixture(scope="session")
def windows(tmp_path_factory, worker_id):
    """A Windows Python 3.11 with FMPy under Wine (``windows_python.py``),
    installed once for every worker (:func:`made_once`), with its Wine
    prefix: skipped without Wine, failed without it in CI."""
    wine = find_wine()
    if wine is None:
        pytest.skip("Wine is not installed (Debian: apt-get install wine64)")  # a failure under CI
    folder = made_once(tmp_path_factory, worker_id, "windows", lambda out: install_windows_python(out, wine))
    return windows_python_in(folder, wine)
