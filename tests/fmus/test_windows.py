"""The Windows binary the lean FMUs carry (``binaries/win64``, pythonfmu's,
which runs the block in the host's Python), run by FMPy in a Windows Python
3.11 under Wine (``windows_python.py``): each FMU's DefaultExperiment ends
on the outputs FMPy gives on Linux with the FMU's Linux binary.  The blocks
whose kernels numba compiles are left out: numba compiles them anew on
Windows, for a minute each under Wine.

The portable FMUs' Windows binary (the proxy and the FMU's process,
cross-compiled; the Windows runtime, ``fmus/portable_windows.py``) runs
each FMU's reference experiment in a C host on a Windows with no Python,
and the plain blocks' and the vessel's FMUs in FMPy in the Windows Python;
a process killed mid-step is a fatal call, and none outlives its host."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.compiled_block import CompiledBlock
from crane_cosim.fmus import native
from crane_cosim.fmus.ls_ref import LS_FOLDER
from crane_cosim.fmus.portable import reference_request
from made_once import made_once
from portable_tried import block_sets, each_block
from fmpy_hosts import fmpy_final_outputs
from windows_python import WindowsPython, find_wine
from limits import HUNG

HERE = Path(__file__).resolve().parent

#: the blocks without numba kernels
PLAIN = [model for model, cls in BLOCKS.items() if not issubclass(cls, CompiledBlock)]


def test_the_lean_fmus_windows_binary_runs_in_a_windows_python(windows, fmu_dir, lean_fmpy_outputs):
    """Every plain block's lean FMU, by FMPy in the Windows Python, to the
    Linux run's outputs at the end of its DefaultExperiment: bit for bit,
    but for the waves' elevation and moments (their sines), to 6 units in
    the last place (2 measured)."""
    assert set(PLAIN) == {"Controller", "KnuckleBoomController", "Signal", "Waves", "PrescribedVessel", "Payload",
                          "RigidPayload", "Winch", "HeaveCompensation"}
    fmus = [fmu_dir / f"{model}.fmu" for model in PLAIN]
    for model, got in zip(PLAIN, fmpy_final_outputs(windows.command, fmus, windows.env, windows.path_of)):
        expected = lean_fmpy_outputs[model]
        assert list(got) == list(expected), model
        assert np.count_nonzero(list(expected.values())) >= 1, model
        # the same bits but for the waves' sines, which numpy 1.26 on Windows and numpy 2 here round
        # apart: 2 units in the last place at most (measured)
        np.testing.assert_array_max_ulp(np.array(list(got.values())), np.array(list(expected.values())),
                                        maxulp=6 if model == "Waves" else 0)



@pytest.mark.parametrize("models", block_sets([*PLAIN, "Vessel"]))
def test_the_portable_fmus_windows_binary_runs_in_a_windows_python(models, windows, portable_fmu,
                                                                    lean_fmpy_outputs):
    """The plain blocks' portable FMUs and the vessel's (whose kernels the
    FMU's own Python compiles there, in its process), by FMPy in the Windows
    Python: the Linux run's outputs at the end of the DefaultExperiment, as
    the lean FMUs' (above), whatever Python the host runs."""
    got = fmpy_final_outputs(windows.command, [portable_fmu(m) for m in models], windows.env, windows.path_of)
    for model, outputs in zip(models, got):
        expected = lean_fmpy_outputs[model]
        assert list(outputs) == list(expected), model
        np.testing.assert_array_max_ulp(np.array(list(outputs.values())), np.array(list(expected.values())),
                                        maxulp=6 if model == "Waves" else 0)


@pytest.fixture(scope="session")
def windows_c_host(tmp_path_factory, worker_id):
    """``c_windows_host.c`` cross-compiled for Windows, with a Wine prefix
    of its own (no Python installed in it), made once for every worker
    (``conftest.made_once``): the host and the environment to run it with."""
    wine, reason = find_wine(), native.windows_unavailable_reason()
    if wine is None or reason is not None:
        pytest.skip(reason or "Wine is not installed (Debian: apt-get install wine64)")  # a failure under CI

    def environment(folder):
        # nothing of this machine's Python or cache reaches the Windows side
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CRANE_COSIM", "NUMBA"))}
        return {**env, "WINEPREFIX": str(folder / "prefix"), "WINEDEBUG": "-all"}

    def make(folder):
        proc = subprocess.run([native.WINDOWS_COMPILER, "-O1", "-Wall", "-o", str(folder / "c_windows_host.exe"),
                               str(HERE / "c_windows_host.c")], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        # the prefix made now, before the workers share it
        proc = subprocess.run([wine, "cmd.exe", "/c", "exit"], capture_output=True, text=True,
                              env=environment(folder), timeout=HUNG)
        assert proc.returncode == 0, proc.stderr[-2000:]
    folder = made_once(tmp_path_factory, worker_id, "windows_c_host", make)
    return [wine, str(folder / "c_windows_host.exe")], environment(folder)


def _reference_rows(host, folder: Path, model: str, fmu: Path) -> tuple[list[str], np.ndarray]:
    """The reference experiment the portable FMU carries, run by the
    Windows C host on its Windows binary: the outputs' names and the rows
    (time, outputs) it printed."""
    md = ET.parse(folder / "modelDescription.xml").getroot()
    outputs = [(v.get("name"), v.get("valueReference")) for v in md.find("ModelVariables")
               if v.get("causality") == "output" and v.find("Real") is not None]
    values, every = reference_request(model, fmu)
    block = BLOCKS[model]
    assert float(md.find("DefaultExperiment").get("startTime", "0")) == 0.0
    steps = round(block.default_stop_time / block.default_step)
    command, env = host
    proc = subprocess.run([*command, WindowsPython.path_of(folder), model, md.get("guid"), str(steps),
                           repr(block.default_step), str(every), ",".join(f"{k}={v!r}" for k, v in values.items()),
                           ",".join(vr for _, vr in outputs)], capture_output=True, text=True, env=env, timeout=HUNG)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [name for name, _ in outputs], np.loadtxt(io.StringIO(proc.stdout), ndmin=2)


#: how far each block's Windows run may stray from the Linux one, as a
#: fraction of the largest output of each unit: three times what was
#: measured (the waves 2.2e-16, numpy 1.26's sines against numpy 2's; the
#: knuckle boom crane 6.1e-15, the flexible crane 3.9e-12 and the crane
#: 9.4e-10, where the round-off of another OpenBLAS's linear algebra grows
#: over the run); the others give the same bits
WINDOWS_TOLERANCE = {"Waves": 6.6e-16, "KnuckleBoomCrane": 2e-14, "FlexibleCrane": 1.2e-11, "Crane": 3e-9}


@pytest.mark.parametrize("model", each_block())
def test_the_portable_fmus_windows_binary_runs_its_reference_without_python(model, windows_c_host, portable_fmu,
                                                                            unzipped):
    """Each portable FMU's Windows binary, loaded by a C host on a Windows
    with no Python (Wine), runs its reference experiment (FMI-LS-REF) to the
    outputs the FMU carries, computed on Linux: the same rows and values,
    to the bit or within :data:`WINDOWS_TOLERANCE` of the largest magnitude
    among the outputs of its unit."""
    fmu = portable_fmu(model)
    folder = unzipped(fmu)
    names, got = _reference_rows(windows_c_host, folder, model, fmu)
    with zipfile.ZipFile(fmu) as z:
        reference = z.read(f"{LS_FOLDER}/reference.csv").decode()
    header = reference.splitlines()[0].split(",")
    expected = np.loadtxt(io.StringIO(reference), delimiter=",", skiprows=1, ndmin=2)
    assert header == ["time", *names]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got[:, 0], expected[:, 0])
    # an output that is zero but for round-off (an off-diagonal inertia term) is measured against its kind
    md = ET.parse(folder / "modelDescription.xml").getroot()
    unit = {v.get("name"): v.find("Real").get("unit", "") for v in md.find("ModelVariables") if v.find("Real") is not None}
    magnitude = dict(zip(names, np.abs(expected[:, 1:]).max(axis=0)))
    scale = np.array([max(m for other, m in magnitude.items() if unit[other] == unit[name]) for name in names])
    error = np.abs(got[:, 1:] - expected[:, 1:]).max(axis=0) / np.maximum(scale, 1e-300)
    tolerance = WINDOWS_TOLERANCE.get(model, 0.0)
    assert error.max() <= tolerance, {name: e for name, e in zip(names, error) if e > tolerance}


def _wine_processes(prefix: str, name: str) -> list[int]:
    """The Linux processes of Wine prefix ``prefix`` that run ``name``."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            line = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if name in line and f"WINEPREFIX={prefix}".encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def _started(host, folder: Path, model: str) -> subprocess.Popen:
    """The Windows C host stepping the FMU in ``folder`` for hours, once it
    makes no other call than fmi2DoStep."""
    md = ET.parse(folder / "modelDescription.xml").getroot()
    command, env = host
    proc = subprocess.Popen([*command, WindowsPython.path_of(folder), model, md.get("guid"), str(10**9), "1e-3",
                             str(10**9), "", ""], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    said = []
    while not said or ("c_windows_host: stepping" not in said[-1] and said[-1]):
        said.append(proc.stderr.readline())
    assert said[-1], "".join(said)[-2000:] + proc.stderr.read()[-2000:]
    return proc


@pytest.fixture
def lone_windows_c_host(windows_c_host, tmp_path):
    """The Windows C host with a Wine prefix of this test's own, where no
    other test's FMU processes run: the processes found there are this
    test's."""
    command, env = windows_c_host
    env = {**env, "WINEPREFIX": str(tmp_path / "prefix")}
    # the prefix made first, as the shared one is: made by the host's own start, under a loaded
    # machine's Wine it once lacked kernel32.dll when the host started
    proc = subprocess.run([command[0], "cmd.exe", "/c", "exit"], capture_output=True, text=True, env=env,
                          timeout=HUNG)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return command, env


def _none_left(prefix: str, seconds: float = HUNG) -> None:
    end = time.monotonic() + seconds
    while _wine_processes(prefix, native.WINDOWS_PROCESS_PROGRAM) and time.monotonic() < end:
        time.sleep(0.1)
    assert not _wine_processes(prefix, native.WINDOWS_PROCESS_PROGRAM)


def test_a_windows_fmu_process_killed_mid_step_is_a_fatal_call_with_its_end(lone_windows_c_host, portable_fmu,
                                                                            unzipped):
    """The FMU's process killed while the host steps (Windows, under Wine):
    the call is fmi2Fatal with one message naming the call and how the
    process ended; the host goes on to its own end; no process is left."""
    folder = unzipped(portable_fmu("Controller"))
    prefix = lone_windows_c_host[1]["WINEPREFIX"]
    proc = _started(lone_windows_c_host, folder, "Controller")
    children = _wine_processes(prefix, native.WINDOWS_PROCESS_PROGRAM)
    assert len(children) == 1
    os.kill(children[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=HUNG)
    assert proc.returncode == 2
    fatal = [line for line in err.splitlines() if "logStatusFatal" in line]
    assert len(fatal) == 1 and "fmi2DoStep: the FMU's process (pid " in fatal[0], err[-2000:]
    assert "c_windows_host: do_step(c, (k - 1) * h, h, 1) returned status 4" in err
    _none_left(prefix)


def test_no_windows_fmu_process_outlives_a_killed_host(lone_windows_c_host, portable_fmu, unzipped):
    """The host killed while it steps (no handler runs): the FMU's process
    sees the host's process end and ends."""
    folder = unzipped(portable_fmu("Controller"))
    prefix = lone_windows_c_host[1]["WINEPREFIX"]
    proc = _started(lone_windows_c_host, folder, "Controller")
    assert len(_wine_processes(prefix, native.WINDOWS_PROCESS_PROGRAM)) == 1
    proc.kill()
    proc.communicate(timeout=HUNG)
    _none_left(prefix)
