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

    python portable_probe.py FMU OUT.json REFERENCE.csv VALUES.json

runs, after that, the reference experiment the portable FMU carries
(``fmus/ls_ref.py``) in a second instance: the Real values of
``VALUES.json`` (``{"values": {value reference: value}, "every": k}``) set
in initialization mode, then the FMU's ``DefaultExperiment`` step by step,
its Real outputs after initialization and after every ``k``-th step
written to ``REFERENCE.csv`` (``time`` and the outputs by name, each value
as Python's ``repr``, which reads back to the same bits).
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

__all__ = ["imported_since", "reference_rows"]

_LOGGER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)


class _Callbacks(ctypes.Structure):
    _fields_ = [("logger", _LOGGER), ("allocateMemory", ctypes.c_void_p), ("freeMemory", ctypes.c_void_p),
                ("stepFinished", ctypes.c_void_p), ("componentEnvironment", ctypes.c_void_p)]


def _log(env, name, status, category, message):
    print(f"[{name.decode(errors='replace')}] {message.decode(errors='replace')}", file=sys.stderr)


def _check(status: int, call: str) -> None:
    if status > 1:  # fmi2Warning
        raise RuntimeError(f"{call} returned status {status}")


class _Loaded:
    """The FMU unpacked in ``folder``, its binary loaded; :meth:`instance`
    makes an instance of it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.md = md = ET.parse(folder / "modelDescription.xml").getroot()
        model = md.find("CoSimulation").get("modelIdentifier")
        experiment = md.find("DefaultExperiment")
        get = experiment.get if experiment is not None else {}.get
        self.h, self.start = float(get("stepSize", "1e-3")), float(get("startTime", "0"))
        self.stop = float(get("stopTime", "1"))
        self.lib = lib = ctypes.CDLL(str(folder / "binaries" / "linux64" / f"{model}.so"))
        libc = ctypes.CDLL(None)
        self._logger = _LOGGER(_log)
        self._callbacks = _Callbacks(self._logger, ctypes.cast(libc.calloc, ctypes.c_void_p).value,
                                     ctypes.cast(libc.free, ctypes.c_void_p).value, None, None)
        lib.fmi2Instantiate.restype = ctypes.c_void_p
        lib.fmi2Instantiate.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
                                        ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
        lib.fmi2SetupExperiment.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_double,
                                            ctypes.c_int, ctypes.c_double]
        lib.fmi2DoStep.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_int]

    def instance(self, name: bytes, values: dict | None = None) -> ctypes.c_void_p:
        """An instance initialized for the DefaultExperiment, the Real
        ``values`` (value reference: value) set in initialization mode."""
        lib = self.lib
        c = lib.fmi2Instantiate(name, 1, self.md.get("guid").encode(), (self.folder / "resources").as_uri().encode(),
                                ctypes.addressof(self._callbacks), 0, 0)
        if not c:
            raise RuntimeError("fmi2Instantiate failed")
        c = ctypes.c_void_p(c)
        _check(lib.fmi2SetupExperiment(c, 0, 0.0, self.start, 0, 0.0), "fmi2SetupExperiment")
        _check(lib.fmi2EnterInitializationMode(c), "fmi2EnterInitializationMode")
        for vr, value in (values or {}).items():
            _check(lib.fmi2SetReal(c, (ctypes.c_uint * 1)(int(vr)), ctypes.c_size_t(1), (ctypes.c_double * 1)(value)),
                   "fmi2SetReal")
        _check(lib.fmi2ExitInitializationMode(c), "fmi2ExitInitializationMode")
        return c


def _unpacked(fmu: Path) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="crane_cosim_probe_")).resolve()
    with zipfile.ZipFile(fmu) as z:
        z.extractall(folder)
    return folder


def _run(loaded: _Loaded) -> None:
    """Run an instance of the FMU (see above)."""
    lib, h, t = loaded.lib, loaded.h, loaded.start
    c = loaded.instance(b"probe")
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


def imported_since(before: set, folder: Path) -> tuple[list[str], list[str]]:
    """The files of the modules imported since ``before`` (the names of
    ``sys.modules`` then) that are no part of the FMU unpacked in
    ``folder`` (nor of the package, which it carries), and the folders of
    the kernel cache (``jit.cache_dir()``) its compiled kernels came
    from."""
    cache = Path(os.environ["CRANE_COSIM_CACHE_DIR"]).resolve()
    files, kernels = set(), set()
    for name in set(sys.modules) - before:
        path = getattr(sys.modules.get(name), "__file__", None)
        path = Path(path).resolve() if path else None
        if path is None or path.is_relative_to(folder):
            continue
        if path.is_relative_to(cache):
            kernels.add(path.relative_to(cache).parts[0])
        elif not name.startswith("crane_cosim"):
            files.add(str(path))
    return sorted(files), sorted(kernels)


def reference_rows(loaded: _Loaded, values: dict, every: int) -> list[str]:
    """The lines of the reference experiment's CSV (see above)."""
    lib, h = loaded.lib, loaded.h
    outputs = [(v.get("name"), int(v.get("valueReference"))) for v in loaded.md.find("ModelVariables")
               if v.get("causality") == "output" and v.find("Real") is not None]
    vr = (ctypes.c_uint * len(outputs))(*(r for _, r in outputs))
    y = (ctypes.c_double * len(outputs))()
    c = loaded.instance(b"reference", values)
    lines = [",".join(["time", *(name for name, _ in outputs)])]

    def row(t):
        _check(lib.fmi2GetReal(c, vr, ctypes.c_size_t(len(outputs)), y), "fmi2GetReal")
        lines.append(",".join(repr(float(x)) for x in [t, *y]))
    row(loaded.start)
    steps = round((loaded.stop - loaded.start) / h)
    for k in range(1, steps + 1):
        _check(lib.fmi2DoStep(c, loaded.start + (k - 1) * h, h, 1), "fmi2DoStep")
        if k % every == 0 or k == steps:
            row(loaded.start + k * h)
    _check(lib.fmi2Terminate(c), "fmi2Terminate")
    lib.fmi2FreeInstance(c)
    return lines


def main(argv=None) -> int:
    args = argv or sys.argv[1:]
    fmu, out = args[:2]
    folder = _unpacked(Path(fmu))
    try:  # one copy of the FMU, loaded once: the probe's instance, then the reference experiment's
        before = set(sys.modules)
        loaded = _Loaded(folder)
        _run(loaded)
        imported, kernels = imported_since(before, folder)
        Path(out).write_text(json.dumps({"imported": imported, "kernels": kernels}, indent=1))
        if len(args) >= 4:
            asked = json.loads(Path(args[3]).read_text())
            lines = reference_rows(loaded, asked["values"], int(asked["every"]))
            Path(args[2]).write_text("\n".join(lines) + "\n")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
