"""Portable FMUs (``crane-cosim build-fmus --portable``, ``fmus/portable.py``;
docs/fmus.md, "Portable FMUs"): every one of the project's FMUs, built
portable, runs its ``DefaultExperiment`` in a plain C host on a machine
without Python (every Python installation hidden, ``clean_room.py``) to
the lean FMU's outputs; the same FMUs run under FMPy in other Pythons than
the building one; a process that dies or hangs is a clear fmi2Fatal and
leaves no process behind.
"""
from __future__ import annotations

import glob
import io
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pyarrow.ipc as ipc
import pytest
from fmpy import read_model_description

from c_hosts import compile_host, host_env
from fmpy_hosts import DRIVEN, fmpy_final_outputs
from clean_room import clean_env, clean_room_command, python_installations, require_clean_room
from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.jit import under_ci
from crane_cosim.errors import CraneCosimError
from crane_cosim.fmus import native, portable
from crane_cosim.fmus.portable_runtime import tar_gz
from crane_cosim.fmus.ls_ref import LS_FOLDER
from crane_cosim.hosts.ecos import run_ecos
from crane_cosim.hosts.libcosim import run_libcosim
from limits import HUNG
from made_once import made_once
from portable_tried import SYSTEM, block_sets, each_block

# skipped without a C compiler, failed without one in CI (conftest.py)
pytestmark = pytest.mark.usefixtures("c_compiler")


@pytest.fixture(scope="session")
def c_master(tmp_path_factory):
    return compile_host(tmp_path_factory, "c_master", "-ldl")


@pytest.fixture(scope="session")
def clean_home(tmp_path_factory):
    """The home folder of the machine without Python: its cache folder,
    where the portable FMUs' runtimes are unpacked, starts empty."""
    require_clean_room(under_ci())
    return tmp_path_factory.mktemp("clean_home")


def extracted(fmu: Path, folder: Path) -> Path:
    """The FMU unzipped as FMPy and most hosts unzip it: file permissions
    not kept (the process's program is then not executable)."""
    with zipfile.ZipFile(fmu) as z:
        z.extractall(folder)
    return folder


def _experiment(md) -> tuple[int, float]:
    """(steps, step size) of the FMU's DefaultExperiment, from t = 0."""
    e = md.defaultExperiment
    h = float(e.stepSize)
    assert float(e.startTime or 0) == 0.0
    return round(float(e.stopTime) / h), h


def _outputs(md) -> list:
    return [v for v in md.modelVariables if v.causality == "output" and v.type == "Real"]


def run_c_master(c_master, folder: Path, env: dict, wrapper=()) -> np.ndarray:
    """The FMU's Real outputs at the end of its DefaultExperiment, run by
    the plain C host ``c_master.c`` (inputs and parameters at their start
    values but those of :data:`DRIVEN`)."""
    md = read_model_description(str(folder))
    steps, h = _experiment(md)
    outputs = _outputs(md)
    vr = {v.name: v.valueReference for v in md.modelVariables}
    sets = ",".join(f"{vr[k]}={v!r}" for k, v in DRIVEN.get(md.coSimulation.modelIdentifier, {}).items())
    args = [*wrapper, str(c_master), str(folder), md.coSimulation.modelIdentifier, md.guid, str(steps), repr(h), sets,
            ",".join(str(v.valueReference) for v in outputs)]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=HUNG, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    values = np.array([float(x) for x in lines[lines.index("outputs") + 1:]])
    assert values.shape == (len(outputs),) and np.all(np.isfinite(values))
    return values


def assert_same(portable: np.ndarray, lean: np.ndarray) -> None:
    """The same bits.  The portable FMU runs the lean FMU's binary and
    code; its kernels are compiled for a generic x86-64 processor and the
    lean FMU's for this one, but numba neither contracts multiply-adds nor
    reorders sums without fastmath, so both give the same bits (measured:
    all 14 FMUs).  OpenBLAS picks its kernels by processor and by
    ``OPENBLAS_CORETYPE``, which the machine without Python keeps
    (``clean_room.clean_env``): without it the knuckle boom crane's
    outputs differed by up to 1.8e-14 of their value."""
    np.testing.assert_array_equal(portable, lean)


def test_the_clean_room_has_no_python(clean_home):
    """What the clean room hides: no interpreter on PATH or where this one
    lies, no libpython, no site-packages of this machine."""
    folders, files = python_installations()
    probe = "; ".join([*(f"test -z \"$(ls -A '{d}')\"" for d in folders), *(f"test ! -s '{f}'" for f in files),
                       "! command -v python3 >/dev/null 2>&1 || ! python3 -c pass 2>/dev/null"])
    proc = subprocess.run(clean_room_command(["sh", "-c", probe]), capture_output=True, text=True,
                          env=clean_env(clean_home), timeout=HUNG)
    assert proc.returncode == 0, proc.stderr
    assert any("python" in f for f in folders)  # this interpreter's installation is among those hidden


@pytest.mark.parametrize("model", each_block())
def test_portable_fmu_runs_on_a_machine_without_python(model, portable_fmu, fmu_dir, c_master, clean_home,
                                                        tmp_path):
    """The portable FMU, unzipped as hosts do, in a C host on a machine
    without Python: its DefaultExperiment gives the lean FMU's outputs
    (run here by the same host), bit for bit."""
    portable = extracted(portable_fmu(model), tmp_path / "portable")
    lean = extracted(fmu_dir / f"{model}.fmu", tmp_path / "lean")
    assert not os.access(next(portable.glob("binaries/linux64/crane_cosim/crane-cosim-fmu-process")), os.X_OK)
    y_portable = run_c_master(c_master, portable, clean_env(clean_home), wrapper=clean_room_command([]))
    y_lean = run_c_master(c_master, lean, host_env())
    assert np.count_nonzero(y_lean) >= 1
    assert_same(y_portable, y_lean)
    # the reference experiment the FMU carries is this run: its last row holds these outputs
    rows = (portable / LS_FOLDER / "reference.csv").read_text().splitlines()
    header, last = rows[0].split(","), [float(x) for x in rows[-1].split(",")]
    md = read_model_description(str(portable))
    assert header == ["time", *(v.name for v in _outputs(md))]
    assert last[0] == pytest.approx(BLOCKS[model].default_stop_time, rel=1e-12)
    assert_same(y_portable, np.array(last[1:]))


# -- FMPy under other Pythons ------------------------------------------------------

#: the Pythons, other than the building one, that the portable FMUs are run under by FMPy
OTHER_PYTHONS = ("3.12", "3.13")


def _interpreter(version: str) -> str | None:
    """An interpreter of Python ``version`` on this machine (pyenv's, or on PATH), or None."""
    root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    found = sorted(glob.glob(f"{root}/versions/{version}.*/bin/python{version}"))
    return found[-1] if found else shutil.which(f"python{version}")


#: FMPy and the packages it imports to simulate an FMU; ``pip install fmpy`` brings CMake (86 MB),
#: Jinja2 and nbformat too, for building FMUs and writing notebooks, which a simulation never imports
FMPY_SIMULATES = ("fmpy", "attrs", "lark", "lxml", "msgpack", "numpy")


def _fmpy_venv(interpreter: str, venv: Path) -> None:
    """A virtual environment of ``interpreter`` in ``venv`` with FMPy from the package index
    (:data:`FMPY_SIMULATES`), installed by this environment's pip (``--python``): a pip of its own
    and the bytecode of every module installed would take twice the time, for one process."""
    subprocess.run([interpreter, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True,
                   timeout=HUNG)
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                           "--no-deps", "--no-compile", *FMPY_SIMULATES], capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.fixture(scope="session")
def fmpy_pythons(tmp_path_factory, worker_id):
    """version -> the python of a fresh virtual environment of that
    version with FMPy installed from the package index, and nothing of
    this project, made once for every worker (:func:`made_once`)."""
    pythons = {}
    for version in OTHER_PYTHONS:
        interpreter = _interpreter(version)
        if interpreter is not None:
            venv = made_once(tmp_path_factory, worker_id, f"fmpy{version}",
                             lambda out, interpreter=interpreter: _fmpy_venv(interpreter, out))
            pythons[version] = venv / "bin" / "python"
    return pythons


@pytest.mark.may_skip
@pytest.mark.parametrize("models", block_sets())
@pytest.mark.parametrize("version", OTHER_PYTHONS)
def test_portable_fmus_run_under_fmpy_in_another_python(version, models, fmpy_pythons, portable_fmu,
                                                        lean_fmpy_outputs, tmp_path):
    """FMPy's ``simulate_fmu`` in a Python of another minor version than
    the building one (a fresh virtual environment with FMPy alone) runs
    every portable FMU to the end of its DefaultExperiment, to the outputs
    the building Python's FMPy gives with the lean FMU, bit for bit.
    Skipped only where this machine has no such Python (pyenv's
    interpreters are looked for)."""
    if version not in fmpy_pythons:
        pytest.skip(f"no Python {version} on this machine")
    env = host_env(CRANE_COSIM_CACHE_DIR=tmp_path / "cache")
    fmus = [portable_fmu(m) for m in models]
    for model, got in zip(models, fmpy_final_outputs([str(fmpy_pythons[version])], fmus, env)):
        expected = lean_fmpy_outputs[model]
        assert list(got) == list(expected), model
        assert_same(np.array(list(got.values())), np.array(list(expected.values())))


# -- in our master -----------------------------------------------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel"


def _example(fmus, folder: Path, stop_time: float | None = None) -> Path:
    """The crane on the vessel's system file, its stop time ``stop_time``
    [s] if given (else the example's 20 s), beside the FMUs ``fmus``."""
    (folder / "fmus").mkdir(parents=True)
    ssd = (EXAMPLE / "CraneOnVessel.ssd").read_text()
    if stop_time is not None:
        assert ssd.count('stopTime="20.0"') == 1
        ssd = ssd.replace('stopTime="20.0"', f'stopTime="{stop_time}"')
    (folder / "CraneOnVessel.ssd").write_text(ssd)
    for fmu in fmus:
        shutil.copy(fmu, folder / "fmus")
    return folder


def _portable_example(portable_fmu, folder: Path, stop_time: float | None = None) -> Path:
    """The crane on the vessel's system file beside its three FMUs built portable."""
    return _example([portable_fmu(model) for model in SYSTEM], folder, stop_time)


def test_the_crane_on_the_vessel_runs_with_every_component_portable(portable_fmu, tmp_path):
    """The crane on the vessel over 2 s with its three FMUs portable (each
    in a process of its own, with the Python it carries): every recorded
    value the same bits as the run of the lean FMUs in the master's
    process."""
    example = EXAMPLE
    system = _portable_example(portable_fmu, tmp_path / "portable_system")
    results = {}
    for name, folder in (("lean", example), ("portable", system)):
        out = tmp_path / name
        proc = subprocess.run([sys.executable, "-m", "crane_cosim.cli", "run", str(folder), "--stop-time", "2",
                               "--out", str(out), "--no-plots"], capture_output=True, text=True, timeout=HUNG)
        assert proc.returncode == 0, proc.stderr[-3000:]
        with ipc.open_stream(out / "results.arrows") as stream:
            results[name] = stream.read_pandas()
    # the portable FMUs were run as they are, not rebuilt
    assert all(zipfile.ZipFile(system / "fmus" / f"{m}.fmu").getinfo(f"binaries/linux64/crane_cosim/{m}.so")
               for m in SYSTEM)
    assert list(results["portable"].columns) == list(results["lean"].columns) and len(results["lean"]) == 1001
    np.testing.assert_array_equal(results["portable"].to_numpy(), results["lean"].to_numpy())


@pytest.mark.parametrize("host", ["libcosim", "ecos"])
def test_the_crane_on_the_vessel_runs_portable_in_libcosim_and_ecos(host, portable_fmu, fmu_dir, tmp_path):
    """OSP libcosim and ecos (NTNU Ålesund) (C++ hosts, each loading the system file
    with its own SSP reader) run the crane on the vessel with its three FMUs
    portable over its first 2 s to the same bits as with the lean FMUs."""
    run = {"libcosim": run_libcosim, "ecos": run_ecos}[host]
    got = run(_portable_example(portable_fmu, tmp_path / "portable_system", stop_time=2.0))
    lean = run(_example([fmu_dir / f"{model}.fmu" for model in SYSTEM], tmp_path / "lean_system", stop_time=2.0))
    assert list(got.columns) == list(lean.columns) and len(lean) == 1001
    np.testing.assert_array_equal(got.to_numpy(), lean.to_numpy())


def test_without_the_cross_compiler_the_windows_binary_is_left_out_with_one_warning(monkeypatch):
    """No MinGW-w64 cross compiler: by default the portable FMUs get no
    Windows binary and the build says why once; asked for, it is one
    error naming what to install."""
    monkeypatch.setenv("CRANE_COSIM_WINDOWS_CC", "no-such-mingw-gcc")
    monkeypatch.setattr(portable, "_warned_windows", False)
    stream = io.StringIO()
    assert portable.windows_wanted(None, stream) is False
    assert portable.windows_wanted(None, stream) is False
    assert stream.getvalue() == ("crane-cosim: warning: the portable FMUs get no Windows binary: the cross compiler "
                                 "no-such-mingw-gcc was not found (Debian: apt-get install gcc-mingw-w64-x86-64 "
                                 "libz-mingw-w64-dev)\n")
    assert portable.windows_wanted(False, stream) is False
    with pytest.raises(CraneCosimError, match="cannot be built here: the cross compiler no-such-mingw-gcc"):
        portable.windows_wanted(True, stream)


def test_the_windows_binaries_are_the_same_bytes_built_twice():
    """The Windows proxy and process program compiled twice (each time in a
    folder of another name) are the same bytes, as the Linux ones: a
    portable FMU is reproducible whole."""
    reason = native.windows_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)  # a failure under CI, which installs the cross compiler
    cc = tuple(native._windows_compiler())
    first, second = (native._windows_bytes(cc) for _ in range(2))
    assert first == second


def test_an_archive_of_the_same_entries_is_the_same_bytes(tmp_path):
    """The runtime's and the kernels' archives are named by the hash of
    their bytes: the same entries, written by another process into another
    folder, give the same bytes (no file name or time in the gzip header)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    source = tmp_path / "module.py"
    source.write_text("x = 1\n")
    tar_gz([("x.txt", b"text", 0o644, None), ("lib/module.py", source, 0o644, 1_600_000_000_123_456_789)],
           tmp_path / "a" / "one.tar.gz")
    code = ("import sys; from pathlib import Path; from crane_cosim.fmus.portable_runtime import tar_gz; "
            "tar_gz([('x.txt', b'text', 0o644, None), ('lib/module.py', Path(sys.argv[1]), 0o644, "
            "1_600_000_000_123_456_789)], Path(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", code, str(source), str(tmp_path / "b" / "other.tar.gz")], check=True)
    assert (tmp_path / "a" / "one.tar.gz").read_bytes() == (tmp_path / "b" / "other.tar.gz").read_bytes()
