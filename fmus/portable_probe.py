"""What a block's FMU imports when it runs, measured: run by
``fmus/portable.py`` in a process of its own, so that nothing else that
process imported is counted.

    python -m crane_cosim.fmus.portable_probe FMU OUT.json

The FMU runs in this process through fmpy, with the environment the
caller gives (``NUMBA_CPU_NAME=generic`` and ``CRANE_COSIM_CACHE_DIR`` a
folder of its own, where the FMU's initialization compiles its numba
kernels and whole step: the kernels the portable FMU carries): instantiated, initialized, ten steps of its
``DefaultExperiment``, its state saved, serialized, read back and set,
one more step, terminated and freed.  ``OUT.json`` holds ``imported``, the
files of the modules imported meanwhile that are no part of fmpy's
(imported before) and no part of the FMU (which carries its own code), and
``kernels``, the folders of the cache its compiled kernels were loaded
from.
"""
from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import fmpy
import fmpy.validation  # noqa: F401  (imported by fmpy when it reads an FMU: the host's, not the FMU's)
from fmpy.fmi2 import FMU2Slave
from fmpy.model_description import read_model_description

__all__ = ["imported_files"]

from ..blocks import jit


def _run(fmu: Path) -> str:
    """Run the FMU (see above); returns the folder it was unpacked to (gone by then)."""
    md = read_model_description(str(fmu), validate=False)
    folder = fmpy.extract(str(fmu), unzipdir=tempfile.mkdtemp(prefix="crane_cosim_probe_"))
    try:
        slave = FMU2Slave(guid=md.guid, unzipDirectory=folder, modelIdentifier=md.coSimulation.modelIdentifier,
                          instanceName="probe")
        slave.instantiate()
        experiment = md.defaultExperiment
        h = float(experiment.stepSize) if experiment and experiment.stepSize else 1e-3
        t = float(experiment.startTime) if experiment and experiment.startTime else 0.0
        slave.setupExperiment(startTime=t)
        slave.enterInitializationMode()
        slave.exitInitializationMode()
        for _ in range(10):
            slave.doStep(t, h)
            t += h
        state = slave.getFMUstate()
        restored = slave.deSerializeFMUstate(slave.serializeFMUstate(state))
        slave.setFMUstate(restored)
        slave.doStep(t, h)
        slave.freeFMUstate(state)
        slave.freeFMUstate(restored)
        slave.terminate()
        slave.freeInstance()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return str(Path(folder).resolve())


def imported_files(fmu: Path) -> tuple[list[str], list[str]]:
    """The files of the modules that running the FMU at ``fmu`` imports
    (this process's, fmpy's and the FMU's own excepted), and the folders of
    the kernel cache (``jit.cache_dir()``) its compiled kernels came from."""
    before = set(sys.modules)
    unpacked = _run(Path(fmu))
    cache = jit.cache_dir().resolve()
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
