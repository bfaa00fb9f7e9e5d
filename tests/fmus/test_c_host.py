"""The FMUs in C hosts, and a clean exit in every host (docs/fmus.md,
"Running the FMUs in a C host").

A tiny FMI master in C (``c_master.c``, compiled here) loads an FMU's Linux
binary with dlopen -- no libpython linked or preloaded -- and runs it; its
outputs must equal those of the same FMU run by fmpy in this process.  OSP
libcosim's C library drives an FMU from C as well (``c_libcosim.c``).  Runs
in fresh C-host and Python-host processes count aborts at exit, valgrind
looks for invalid memory accesses, and the fallback without a C compiler is
built and checked too.
"""
from __future__ import annotations

import concurrent.futures
import ctypes.util
import dataclasses
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave

from c_hosts import compile_host as _compile, host_env as _host_env, require_compiler
from crane_cosim.errors import CraneCosimError
from crane_cosim.fmus import native
from crane_cosim.fmus.build import FMU_SOURCE_FILE, build_fmu, fmu_is_current
from limits import HUNG

HERE = Path(__file__).resolve().parent

# skipped without a C compiler, failed without one in CI (conftest.py)
pytestmark = pytest.mark.usefixtures("c_compiler")

#: Runs per host in the abort count: the default run, and the slow one
#: (docs/fmus.md quotes both).
EXIT_RUNS, EXIT_RUNS_SLOW = 20, 50
#: valgrind: ld.so's word-at-a-time strncmp reads past the end of a short
#: $ORIGIN rpath string while loading scipy's libraries; memcheck knows no
#: suppression for this glibc.  Nothing of ours or pythonfmu's is hidden.
VALGRIND_SUPPRESSIONS = """\
{
   ld.so strncmp over a short rpath string (word-wise read, false positive)
   Memcheck:Addr8
   fun:strncmp
   fun:is_dst
}
"""
#: Settings of the runs compared with fmpy: parameters and inputs (set in
#: initialization mode), and outputs read after the last step.
CASES = {
    "Controller": ({"q_boom_move1_start": 0.05, "q_boom_move1_duration": 0.1, "q_jib_move1_start": 0.05,
                    "q_jib_move1_duration": 0.3, "kP_jib": 2.5e4, "q_slew": 0.02, "q_boom": 0.1, "u_boom": 0.2,
                    "q_jib": -0.05},
                   ["tau_slew", "tau_boom", "tau_jib", "q_boom_ref", "q_jib_ref"]),
    "KnuckleBoomCrane": ({"q_boom_cyl_0": 0.7, "tau_slew": 5e3, "F_boom_cyl": 1.2e6, "F_jib_cyl": 4e5,
                          "mount_dw_x": 0.1},
                         ["q_slew", "q_boom_cyl", "q_jib_cyl", "u_boom_cyl", "du_jib_cyl", "W_mount_fz",
                          "W_mount_nx", "W_boom_fy", "p_A_fz", "I_A_44"]),
}


@pytest.fixture(scope="session")
def c_master(tmp_path_factory):
    return _compile(tmp_path_factory, "c_master", "-ldl")


def _vrs(md):
    return {v.name: v.valueReference for v in md.modelVariables}


def _run_c(c_master, folder, sets, outputs, steps=200, h=1e-3, env=None, wrapper=()):
    md = read_model_description(str(folder))
    vr = _vrs(md)
    args = [*wrapper, str(c_master), str(folder), md.coSimulation.modelIdentifier, md.guid, str(steps), repr(h),
            ",".join(f"{vr[k]}={v!r}" for k, v in sets.items()), ",".join(str(vr[n]) for n in outputs)]
    return subprocess.run(args, capture_output=True, text=True, timeout=HUNG, env=env or _host_env())


def _values(proc) -> np.ndarray:
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    return np.array([float(x) for x in lines[lines.index("outputs") + 1:]])


def _run_fmpy(folder, sets, outputs, steps=200, h=1e-3):
    """The run of c_master.c, by fmpy in this process."""
    md = read_model_description(str(folder))
    vr = _vrs(md)
    s = FMU2Slave(guid=md.guid, unzipDirectory=str(folder), modelIdentifier=md.coSimulation.modelIdentifier,
                  instanceName="fmpy")
    s.instantiate()
    s.setupExperiment(startTime=0.0)
    s.enterInitializationMode()
    for name, value in sets.items():
        s.setReal([vr[name]], [value])
    s.exitInitializationMode()
    for k in range(steps):
        s.doStep(k * h, h)
    y = np.array(s.getReal([vr[n] for n in outputs]))
    s.terminate()
    s.freeInstance()
    return y


def _assert_same(y_c, y_py):
    assert y_c.shape == y_py.shape and np.all(np.isfinite(y_c))
    assert np.count_nonzero(y_py) >= len(y_py) - 1  # a meaningful comparison, not of zeros
    np.testing.assert_allclose(y_c, y_py, rtol=1e-12, atol=1e-12 * np.abs(y_py).max())


# -- the FMU in a C host --------------------------------------------------------

@pytest.mark.parametrize("model", sorted(CASES))
def test_c_host_runs_the_fmu_without_preloading_python(fmu_dir, unzipped, c_master, model, monkeypatch):
    """dlopen of the FMU's binary, instantiate (logger printing), set-up,
    parameters and inputs, initialization, 200 steps of 1 ms, outputs, free,
    dlclose, exit 0: the outputs equal fmpy's run of the same FMU here.  The
    knuckle boom crane runs its numpy code (CRANE_COSIM_NUMBA=0; numba's
    compiled code in the slow test below)."""
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    folder = unzipped(fmu_dir / f"{model}.fmu")
    sets, outputs = CASES[model]
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(CRANE_COSIM_NUMBA=0))
    _assert_same(_values(proc), _run_fmpy(folder, sets, outputs))


@pytest.mark.slow
def test_c_host_runs_the_compiled_crane(fmu_dir, unzipped, c_master, monkeypatch):
    """The knuckle boom crane with numba's compiled kernels, in the C host
    and in fmpy here: the same outputs.  (The first run on a machine
    compiles them, about 35 s.)"""
    monkeypatch.delenv("CRANE_COSIM_NUMBA", raising=False)
    folder = unzipped(fmu_dir / "KnuckleBoomCrane.fmu")
    sets, outputs = CASES["KnuckleBoomCrane"]
    y_py = _run_fmpy(folder, sets, outputs)
    check = "import sys; print('numba kernels:', any(m.startswith('crane_cosim_knuckle_boom_kernels_') for m in sys.modules))"
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(C_MASTER_PYTHON=check))
    assert "numba kernels: True" in proc.stdout, proc.stdout + proc.stderr[-2000:]
    _assert_same(_values(proc), y_py)


def test_c_host_python_is_the_building_environment(fmu_dir, unzipped, c_master, tmp_path):
    """In a C host the FMU starts the interpreter that built it, in its
    environment (this venv: sys.prefix, numpy from its site-packages), with
    PYTHONPATH still honoured, in UTF-8 mode; it leaves the host's locale
    and SIGINT alone (although the FMU's code imports Python's signal
    module), makes the Python C API global, and it and pythonfmu's binary
    stay loaded after the host's dlclose.  Python's print reaches a pipe
    although Python is never finalized (unbuffered output)."""
    import numpy
    extra = tmp_path / "extra"
    extra.mkdir()
    code = textwrap.dedent("""
        import sys, locale, numpy
        print("prefix", sys.prefix)
        print("executable", sys.executable)
        print("numpy", numpy.__file__)
        print("extra", sys.path.count({extra!r}))
        print("locale", locale.setlocale(locale.LC_CTYPE))
        print("signal", "signal" in sys.modules)
        print("utf8", sys.flags.utf8_mode)
    """).format(extra=str(extra))
    folder = unzipped(fmu_dir / "Controller.fmu")
    sets, outputs = CASES["Controller"]
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(C_MASTER_PYTHON=code, PYTHONPATH=extra))
    _values(proc)
    got = dict(line.split(" ", 1) for line in proc.stdout.splitlines() if " " in line)
    assert got["prefix"] == sys.prefix
    assert got["executable"] == native.build_python().executable  # sys.executable under its versioned name
    assert got["numpy"] == numpy.__file__
    assert got["extra"] == "1"
    assert got["locale"] == "C"  # the C host never called setlocale, nor did Python
    assert got["signal"] == "True" and "SIGINT handler: unchanged" in proc.stdout  # Ctrl-C still stops the host
    assert got["utf8"] == "1"
    assert "library after dlclose: loaded" in proc.stdout
    assert "pythonfmu's binary after dlclose: loaded" in proc.stdout


def test_crane_cosim_python_picks_the_environment(fmu_dir, unzipped, c_master, tmp_path):
    """CRANE_COSIM_PYTHON names the interpreter (and so the environment) the
    FMU starts in a C host: a venv without numpy makes the instantiation fail
    with Python's own message, through the FMU logger; a path that is not an
    executable is named in one sentence."""
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    folder = unzipped(fmu_dir / "Controller.fmu")
    sets, outputs = CASES["Controller"]
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(CRANE_COSIM_PYTHON=bare / "bin" / "python"))
    assert proc.returncode == 2 and "No module named 'numpy'" in proc.stderr, proc.stderr[-2000:]
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(CRANE_COSIM_PYTHON=tmp_path / "nothing"))
    assert proc.returncode == 2
    assert f"crane-cosim FMU: CRANE_COSIM_PYTHON={tmp_path / 'nothing'} is not an executable file" in proc.stderr


def test_python_that_cannot_start_is_reported_in_one_sentence(fmu_dir, unzipped, c_master, tmp_path):
    """PYTHONHOME is honoured: a wrong one stops Python's start, which the
    FMU reports through the logger of fmi2Instantiate (status fatal)."""
    folder = unzipped(fmu_dir / "Controller.fmu")
    proc = _run_c(c_master, folder, {}, ["tau_boom"], env=_host_env(PYTHONHOME=tmp_path / "nowhere"))
    assert proc.returncode == 2
    assert "status 4 logStatusFatal] crane-cosim FMU: Python could not start (initialization: " in proc.stderr
    assert "c_master: fmi2Instantiate failed" in proc.stderr


def test_libpython_is_found_by_its_soname_when_the_recorded_path_is_gone(fmu_dir, c_master, tmp_path):
    """An FMU moved to a machine where the building libpython is elsewhere:
    the shim falls back on the library's soname, so LD_LIBRARY_PATH finds
    it; without it, the failure names both attempts and the remedy."""
    build = native.build_python()
    moved = dataclasses.replace(build, libpython=str(tmp_path / "gone" / build.soname))
    folder = Path(extract(str(fmu_dir / "Controller.fmu"), unzipdir=str(tmp_path / "fmu")))
    native.compile_shim(folder / "binaries" / "linux64" / "Controller.so", python=moved)
    sets, outputs = CASES["Controller"]
    in_default_path = ctypes.util.find_library(f"python{build.version}") is not None
    if not in_default_path:
        proc = _run_c(c_master, folder, sets, outputs)
        assert proc.returncode == 2
        assert (f"crane-cosim FMU: cannot load the Python library: {moved.libpython}: cannot open shared object "
                f"file: No such file or directory (recorded when the FMU was built); and {build.soname}: "
                in proc.stderr), proc.stderr
        assert f"add the folder holding {build.soname} to LD_LIBRARY_PATH" in proc.stderr
    proc = _run_c(c_master, folder, sets, outputs, env=_host_env(LD_LIBRARY_PATH=Path(build.libpython).parent))
    _assert_same(_values(proc), _run_fmpy(folder, sets, outputs))


def test_libcosim_c_library_runs_the_fmu(fmu_dir, unzipped, tmp_path_factory):
    """OSP libcosim's C library (shipped in the libcosimpy wheel), called from
    a C program, loads the FMU itself and steps it: the outputs equal fmpy's
    run (to round-off: libcosim counts time in integer nanoseconds)."""
    import libcosimpy
    lib = Path(libcosimpy.__file__).parent / "libcosimc"
    exe = _compile(tmp_path_factory, "c_libcosim", f"-L{lib}", "-lcosimc", f"-Wl,-rpath,{lib}")
    fmu = fmu_dir / "Controller.fmu"
    md = read_model_description(str(fmu))
    vr = _vrs(md)
    sets, outputs = CASES["Controller"]
    proc = subprocess.run([str(exe), str(fmu), "200", str(1_000_000),
                           ",".join(f"{vr[k]}={v!r}" for k, v in sets.items()),
                           ",".join(str(vr[n]) for n in outputs)],
                          capture_output=True, text=True, timeout=HUNG, env=_host_env())
    y_py = _run_fmpy(unzipped(fmu), sets, outputs)
    y_c = _values(proc)
    np.testing.assert_allclose(y_c, y_py, rtol=1e-9, atol=1e-9 * np.abs(y_py).max())


# -- a clean exit -------------------------------------------------------------

@pytest.mark.parametrize("runs", [EXIT_RUNS, pytest.param(EXIT_RUNS_SLOW, marks=pytest.mark.slow)])
def test_no_abort_at_exit_in_c_and_python_hosts(fmu_dir, unzipped, c_master, runs):
    """``runs`` fresh C-host processes (c_master.c) and as many fresh
    Python-host processes (fmpy), two at a time, each running the Controller
    FMU: every one exits with status 0."""
    folder = unzipped(fmu_dir / "Controller.fmu")
    sets, outputs = CASES["Controller"]
    script = textwrap.dedent(f"""
        import fmpy
        r = fmpy.simulate_fmu({str(folder)!r}, stop_time=0.2, output_interval=1e-3)
        print(len(r))
    """)

    def c_host(_):
        return "C host", _run_c(c_master, folder, sets, outputs)

    def python_host(_):
        return "Python host", subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                             timeout=HUNG, env=_host_env())

    jobs = [c_host, python_host] * runs
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda job: job(None), jobs))
    failed = [(host, p.returncode, p.stderr[-1500:]) for host, p in results if p.returncode != 0]
    counts = {host: sum(1 for h, _, _ in failed if h == host) for host in ("C host", "Python host")}
    assert not failed, f"non-zero exits in {runs} runs each: {counts}; first: {failed[0]}"
    assert all(p.stdout.strip().endswith("201") for host, p in results if host == "Python host")


def _valgrind(c_master, folder, tmp_path, env):
    supp = tmp_path / "ldso.supp"
    supp.write_text(VALGRIND_SUPPRESSIONS)
    # Uninitialised-value checks are off: CPython and numpy read
    # uninitialised memory by design in places.  Invalid reads, writes and
    # frees are what is looked for; freed blocks are held back from reuse
    # for the whole run (all of its ~0.1 GB of frees), so that an access to
    # one freed early is seen even after Python's finalization has churned
    # the heap (with memcheck's default 20 MB it is seen in some runs only).
    return _run_c(c_master, folder, {"q_boom_move1_start": 0.05}, ["tau_boom"], steps=20, env=env,
                  wrapper=("valgrind", "--error-exitcode=99", "--undef-value-errors=no",
                           "--freelist-vol=1000000000", f"--suppressions={supp}"))


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_valgrind_finds_no_invalid_access_with_the_shim(fmu_dir, unzipped, c_master, tmp_path):
    """The whole C-host run, exit included, under valgrind's memcheck: no
    invalid read, write or free (the write into freed memory at exit was
    there with pythonfmu's binary alone: the slow test below)."""
    proc = _valgrind(c_master, unzipped(fmu_dir / "Controller.fmu"), tmp_path, _host_env())
    assert "Invalid" not in proc.stderr, proc.stderr[-5000:]
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "ERROR SUMMARY: 0 errors" in proc.stderr


def _preloaded_python_env(**more):
    """What a C host needs for an FMU that carries pythonfmu's binary alone."""
    libpython = native.build_python().libpython
    return _host_env(LD_PRELOAD=libpython, PYTHONPATH=os.pathsep.join(
        p for p in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])), **more)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_valgrind_shows_the_write_into_freed_memory_of_pythonfmus_binary(plain_fmu_dir, unzipped, c_master,
                                                                         tmp_path):
    """The fault the shim removes, under the same valgrind run: pythonfmu's
    binary alone (libpython preloaded) reads and writes the freed state
    object from its destructor function at exit."""
    proc = _valgrind(c_master, unzipped(plain_fmu_dir / "Controller.fmu"), tmp_path, _preloaded_python_env())
    assert "Invalid read" in proc.stderr and "finalizePythonInterpreter" in proc.stderr, proc.stderr[-5000:]


# -- the build --------------------------------------------------------------

#: The functions of FMI 2.0 for co-simulation: the common ones and the
#: co-simulation ones (FMI 2.0.x, sections 2.1 and 4.2).
FMI2_CS_FUNCTIONS = {f"fmi2{name}" for name in """
    GetTypesPlatform GetVersion SetDebugLogging Instantiate FreeInstance SetupExperiment
    EnterInitializationMode ExitInitializationMode Terminate Reset GetReal GetInteger GetBoolean GetString
    SetReal SetInteger SetBoolean SetString GetFMUstate SetFMUstate FreeFMUstate SerializedFMUstateSize
    SerializeFMUstate DeSerializeFMUstate GetDirectionalDerivative SetRealInputDerivatives
    GetRealOutputDerivatives DoStep CancelStep GetStatus GetRealStatus GetIntegerStatus GetBooleanStatus
    GetStringStatus""".split()}


def _dynamic_symbols(lib: Path):
    """(defined, undefined) names of ``lib``'s dynamic symbol table."""
    out = subprocess.run(["nm", "-D", str(lib)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return {r[-1] for r in rows if len(r) == 3}, {r[-1] for r in rows if len(r) == 2 and r[0] == "U"}


@pytest.mark.skipif(shutil.which("nm") is None, reason="nm (binutils) is not installed")
def test_shim_exports_every_fmi2_function_and_needs_no_python_symbol(fmu_dir, unzipped):
    """The shim exports exactly the FMI 2.0 co-simulation functions, as
    pythonfmu's binary does, and the marker the adapter checks; it leaves no
    Python symbol to the dynamic loader (it finds them with dlsym), and
    needs the C library (glibc) of the building machine or a newer one."""
    folder = unzipped(fmu_dir / "Controller.fmu") / "binaries" / "linux64"
    pythonfmu, _ = _dynamic_symbols(folder / native.PYTHONFMU_BINARY)
    assert {n for n in pythonfmu if n.startswith("fmi2")} == FMI2_CS_FUNCTIONS
    defined, undefined = _dynamic_symbols(folder / "Controller.so")
    assert defined == FMI2_CS_FUNCTIONS | {"crane_cosim_fmi2_shim"}
    assert not any(n.startswith(("Py", "_Py")) for n in undefined), undefined
    # linked here: it needs no newer C library than this machine's
    needed = max(tuple(map(int, n.rpartition("@GLIBC_")[2].split("."))) for n in undefined if "@GLIBC_" in n)
    assert needed <= tuple(map(int, platform.libc_ver()[1].split(".")))


def test_shim_build_is_reproducible(tmp_path):
    """Same source, compiler and Python: byte-identical binaries, whatever the
    output folder."""
    for name in ("a", "b/c"):
        out = tmp_path / name / "shim.so"
        out.parent.mkdir(parents=True)
        native.compile_shim(out)
    assert (tmp_path / "a" / "shim.so").read_bytes() == (tmp_path / "b/c" / "shim.so").read_bytes()


def test_the_binaries_are_compiled_once_per_machine(tmp_path, monkeypatch):
    """The shim, compiled by one process, is read back from the cache folder
    by the next (no compiler run), the same bytes; another compiler (its
    version text) compiles its own; with a cache folder that cannot be
    written, the process compiles them and goes on."""
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(native, "_KEPT", {})
    compiled = native.fmu_binary()
    assert len(list((tmp_path / "cache" / "native").glob("shim-*/0.bin"))) == 1

    def no_compiler(*args):
        raise AssertionError("compiled again")
    monkeypatch.setattr(native, "_KEPT", {})  # a process of its own
    monkeypatch.setattr(native, "_run_compiler", no_compiler)
    monkeypatch.setattr(native, "_shim_bytes", no_compiler)
    assert native.fmu_binary() == compiled
    monkeypatch.setattr(native, "_compiler_identity", lambda cc: "another gcc")
    with pytest.raises(AssertionError, match="compiled again"):
        native.fmu_binary()
    monkeypatch.undo()
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("")
    monkeypatch.setattr(native, "_KEPT", {})
    assert native.fmu_binary() == compiled


def test_without_a_compiler_the_c_host_tests_skip_but_fail_in_ci():
    """The C-host tests need a compiler: without one they are skipped on a
    developer's machine and fail in CI (``.ci/run`` sets CI), saying why."""
    with pytest.raises(pytest.skip.Exception, match="no C compiler"):
        require_compiler(None, ci=False)
    with pytest.raises(pytest.fail.Exception, match="no C compiler .*; CI must have one"):
        require_compiler(None, ci=True)
    with pytest.raises(pytest.skip.Exception, match="Linux only"):
        require_compiler("/usr/bin/cc", ci=True, platform="win32")
    assert require_compiler("/usr/bin/cc", ci=True) == "/usr/bin/cc"


def test_shim_compile_failure_names_the_compiler_and_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", "false")
    with pytest.raises(CraneCosimError, match=rf"compiling the FMU binary {native.SHIM_SOURCE} with "
                                              rf"{shutil.which('false')} failed \(exit status 1\)"):
        native.compile_shim(tmp_path / "shim.so")


def test_fmu_records_the_binary_it_carries(fmu_dir):
    with zipfile.ZipFile(fmu_dir / "Controller.fmu") as z:
        record = z.read(f"resources/{FMU_SOURCE_FILE}").decode().splitlines()
    build = native.build_python()
    assert record[1] == (f"linux64 binary: crane-cosim shim for Python {build.version} at {build.executable} "
                         f"({build.libpython})")


def test_python_and_its_versioned_name_record_one_interpreter(tmp_path, monkeypatch):
    """``python -m crane_cosim.cli`` and the ``crane-cosim`` script (whose
    first line names ``python3.11``) record the same interpreter, so that
    neither rebuilds the FMUs the other built; a ``python`` that is not the
    versioned one beside it keeps its own name."""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(os.path.realpath(sys.executable))
    (venv / version).symlink_to("python")
    (venv / "python3").symlink_to("python")
    named = set()
    for name in ("python", "python3", version):
        monkeypatch.setattr(sys, "executable", str(venv / name))
        named.add(native.build_python().executable)
    assert named == {str(venv / version)}
    other = tmp_path / "other"
    other.mkdir()
    (other / "python").symlink_to(os.path.realpath(sys.executable))
    (other / version).write_text("#!/bin/sh\n")  # another program of that name
    monkeypatch.setattr(sys, "executable", str(other / "python"))
    assert native.build_python().executable == str(other / "python")


def test_without_a_compiler_the_fmus_keep_pythonfmus_binary_and_say_so_once(tmp_path, monkeypatch, capsys,
                                                                               fmu_dir):
    """No C compiler: pythonfmu's binary stays the FMU's binary, one warning
    sentence for all FMUs built; such an FMU is out of date once a compiler
    is there (and an FMU with the shim is out of date without one)."""
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setattr(native, "_warned", False)
    for model in ("Controller", "Vessel"):
        build_fmu(model, tmp_path)
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"crane-cosim: warning: the C compiler CC={tmp_path / 'no-such-cc'} was not found, so the FMUs "
                   f"keep pythonfmu's own binary: Python hosts run them as before, but a C host (libcosim, "
                   f"OMSimulator, ecos) must preload {native.build_python().soname} (LD_PRELOAD) and may abort "
                   f"at exit."]
    with zipfile.ZipFile(tmp_path / "Controller.fmu") as z:
        names = set(z.namelist())
        record = z.read(f"resources/{FMU_SOURCE_FILE}").decode()
    assert "binaries/linux64/Controller.so" in names and f"binaries/linux64/{native.PYTHONFMU_BINARY}" not in names
    assert "linux64 binary: pythonfmu's own (the C compiler CC=" in record
    assert fmu_is_current(tmp_path / "Controller.fmu") and not fmu_is_current(fmu_dir / "Controller.fmu")
    monkeypatch.delenv("CC")
    assert not fmu_is_current(tmp_path / "Controller.fmu") and fmu_is_current(fmu_dir / "Controller.fmu")


def test_pythonfmus_binary_alone_needs_libpython_preloaded_in_a_c_host(plain_fmu_dir, unzipped, c_master):
    """What the fallback means (docs/fmus.md): a C host cannot load the FMU
    unless libpython is preloaded and PYTHONPATH points at the packages;
    then it runs (whether it exits cleanly is left to chance)."""
    folder = unzipped(plain_fmu_dir / "Controller.fmu")
    sets, outputs = CASES["Controller"]
    proc = _run_c(c_master, folder, sets, outputs)
    assert proc.returncode == 2 and "undefined symbol: " in proc.stderr, proc.stderr[-2000:]
    proc = _run_c(c_master, folder, sets, outputs, env=_preloaded_python_env())
    lines = proc.stdout.splitlines()
    assert "outputs" in lines, proc.stderr[-2000:]
    y = np.array([float(x) for x in lines[lines.index("outputs") + 1:]])
    _assert_same(y, _run_fmpy(folder, sets, outputs))


def test_c_host_sets_input_derivatives(integrator_fmu, unzipped, c_master):
    """The FMU's binary takes fmi2SetRealInputDerivatives from a C host: u =
    1 + 2 s + 6 s**2 / 2 set once, 100 steps of 10 ms, x = s + s**2 + s**3
    at s = 1 exactly (RK4 is Simpson's rule), and u = 6 there; an order
    the FMU does not take stops the host on the function's status."""
    folder = unzipped(integrator_fmu)
    vr = _vrs(read_model_description(str(folder)))
    env = _host_env(C_MASTER_DERIVATIVES=f"{vr['u']}:1=2.0,{vr['u']}:2=6.0")
    y = _values(_run_c(c_master, folder, {"u": 1.0}, ["y", "u"], steps=100, h=0.01, env=env))
    np.testing.assert_allclose(y, [3.0, 6.0], rtol=0, atol=1e-12)
    proc = _run_c(c_master, folder, {"u": 1.0}, ["y"], steps=1, h=0.01,
                  env=_host_env(C_MASTER_DERIVATIVES=f"{vr['u']}:3=1.0"))
    assert proc.returncode == 2
    assert "derivative of order 3 of value reference" in proc.stdout + proc.stderr
    assert "set_derivatives(c, &vr, 1, &order, &value) returned status 3" in proc.stderr
