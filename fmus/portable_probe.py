"""What a block's FMU imports when it runs, measured: run by
``fmus/portable.py`` in a process of its own, so that nothing else that
process imported is counted.

    python portable_probe.py FMU OUT.json

This file imports the standard library only, and is run by its path, not
as a module of the package (whose imports would hide the FMU's); the FMU
runs in this process, driven through ctypes, with the environment the caller
gives (``NUMBA_CPU_NAME=generic`` and ``CRANE_COSIM_CACHE_DIR`` a folder of
its own, where the FMU's initialization compiles its numba kernels and
whole step: the kernels the portable FMU carries): instantiated,
initialized, ten steps of its ``DefaultExperiment``, its state saved,
serialized, read back and set, one more step, terminated and freed.
``OUT.json`` holds ``imported``, the files of the modules imported
meanwhile that are no part of the FMU (which carries its own code), and
``kernels``, the folders of the cache its compiled kernels were loaded
from.
"""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

__all__ = ["imported_files"]

_LOGGER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)


class _Callbacks(ctypes.Structure):
    _fields_ = [("logger", _LOGGER), ("allocateMemory", ctypes.c_void_p), ("freeMemory", ctypes.c_void_p),
                ("stepFinished", ctypes.c_void_p), ("componentEnvironment", ctypes.c_void_p)]


def _log(env, name, status, category, message):
    print(f"[{name.decode(errors='replace')}] {message.decode(errors='replace')}", file=sys.stderr)


def _check(status: int, call: str) -> None:
    if status > 1:  # fmi2Warning
        raise RuntimeError(f"{call} returned status {status}")


def _run(fmu: Path) -> str:
    """Run the FMU (see above); returns the folder it was unpacked to (gone by then)."""
    folder = Path(tempfile.mkdtemp(prefix="crane_cosim_probe_")).resolve()
    try:
        with zipfile.ZipFile(fmu) as z:
            z.extractall(folder)
        md = ET.parse(folder / "modelDescription.xml").getroot()
        model = md.find("CoSimulation").get("modelIdentifier")
        experiment = md.find("DefaultExperiment")
        h = float(experiment.get("stepSize", "1e-3")) if experiment is not None else 1e-3
        t = float(experiment.get("startTime", "0")) if experiment is not None else 0.0
        lib = ctypes.CDLL(str(folder / "binaries" / "linux64" / f"{model}.so"))
        libc = ctypes.CDLL(None)
        logger = _LOGGER(_log)
        callbacks = _Callbacks(logger, ctypes.cast(libc.calloc, ctypes.c_void_p).value,
                               ctypes.cast(libc.free, ctypes.c_void_p).value, None, None)
        lib.fmi2Instantiate.restype = ctypes.c_void_p
        lib.fmi2Instantiate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        c = lib.fmi2Instantiate(b"probe", 1, md.get("guid").encode(), (folder / "resources").as_uri().encode(),
                                ctypes.addressof(callbacks), 0, 0)
        if not c:
            raise RuntimeError("fmi2Instantiate failed")
        c = ctypes.c_void_p(c)
        lib.fmi2SetupExperiment.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                            ctypes.c_int, ctypes.c_double]
        lib.fmi2DoStep.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int]
        _check(lib.fmi2SetupExperiment(c, 0, 0.0, t, 0, 0.0), "fmi2SetupExperiment")
        _check(lib.fmi2EnterInitializationMode(c), "fmi2EnterInitializationMode")
        _check(lib.fmi2ExitInitializationMode(c), "fmi2ExitInitializationMode")
        for _ in range(10):
            _check(lib.fmi2DoStep(c, t, h, 1), "fmi2DoStep")
            t += h
        state, restored, size = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_size_t()
        _check(lib.fmi2GetFMUstate(c, ctypes.byref(state)), "fmi2GetFMUstate")
        _check(lib.fmi2SerializedFMUstateSize(c, state, ctypes.byref(size)), "fmi2SerializedFMUstateSize")
        data = ctypes.create_string_buffer(size.value)
        _check(lib.fmi2SerializeFMUstate(c, state, data, size), "fmi2SerializeFMUstate")
        _check(lib.fmi2DeSerializeFMUstate(c, data, size, ctypes.byref(restored)), "fmi2DeSerializeFMUstate")
        _check(lib.fmi2SetFMUstate(c, restored), "fmi2SetFMUstate")
        _check(lib.fmi2DoStep(c, t, h, 1), "fmi2DoStep")
        _check(lib.fmi2FreeFMUstate(c, ctypes.byref(state)), "fmi2FreeFMUstate")
        _check(lib.fmi2FreeFMUstate(c, ctypes.byref(restored)), "fmi2FreeFMUstate")
        _check(lib.fmi2Terminate(c), "fmi2Terminate")
        lib.fmi2FreeInstance(c)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return str(folder)


def imported_files(fmu: Path) -> tuple[list[str], list[str]]:
    """The files of the modules that running the FMU at ``fmu`` imports
    (this process's, fmpy's and the FMU's own excepted), and the folders of
    the kernel cache (``jit.cache_dir()``) its compiled kernels came from."""
    before = set(sys.modules)
    unpacked = _run(Path(fmu))
    cache = Path(os.environ["CRANE_COSIM_CACHE_DIR"]).resolve()
    files, kernels = set(), set()
    for name in set(sys.modules) - before:
        path = getattr(sys.modules.get(name), "__file__", None)
        path = Path(path).resolve() if path else None
        if path is None or str(path).startswith(unpacked + "/"):
            continue
        if path.is_relative_to(cache):
            kernels.add(path.relative_to(cache).parts[0])
        elif not name.startswith("crane_cosim"):
            files.add(str(path))
    return sorted(files), sorted(kernels)


def main(argv=None) -> int:
    fmu, out = (argv or sys.argv[1:])[:2]
    imported, kernels = imported_files(Path(fmu))
    Path(out).write_text(json.dumps({"imported": imported, "kernels": kernels}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
