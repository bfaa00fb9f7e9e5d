"""``crane-cosim bench --portable``: the portable FMUs beside the lean ones
(``fmus/portable.py``, ``docs/portable_fmus.md``): per FMU, its size and
the µs a step under FMPy; the crane on the vessel in this project's
master with its FMUs lean, portable, and lean with ``--processes``; and
the barge example (the knuckle boom crane on the hydrodynamic barge, whose
two cylinders may step at the same time) lean, with ``--processes``, and
with ``--processes`` stepping every component one after another.

Under FMPy a step is one ``fmi2SetReal`` of every Real input, one
``fmi2DoStep`` of the FMU's DefaultExperiment step and one ``fmi2GetReal``
of every Real output, the lean FMU and the portable one alternately in one
process, the fastest of ``repeat`` runs of ``steps`` steps each counting.
In the master, the wall time of a run's steps, the fastest of ``repeat``.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import fmpy
from fmpy.fmi1 import FMICallException
from fmpy.fmi2 import FMU2Slave
from fmpy.model_description import read_model_description

from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError
from ..fmus.build import build_fmu
from ..fmus.portable import build_portable_fmu
from ..runtime.config import RunConfig
from ..runtime.run import run_cosim
from ..runtime.runlog import check_folder
from ..runtime.compiled.engine import TOGETHER_SWITCH
from ..scenarios import crane_on_vessel, hydro_vessel

__all__ = ["fmpy_us_per_step", "master_us_per_step", "portable_bench", "portable_main"]

#: the FMUs of the system run in the master, the crane on the vessel
MASTER_FMUS = ("Vessel", "Crane", "Controller")


def fmpy_us_per_step(fmu: Path, steps: int, repeat: int) -> tuple[float, float]:
    """(µs a step, s to instantiate and initialize) of ``fmu`` under FMPy's
    FMU2Slave (see above): each run from t = 0 (the instance reset between
    runs), at most as many steps as its DefaultExperiment holds."""
    md = read_model_description(str(fmu), validate=False)
    folder = fmpy.extract(str(fmu))
    try:
        h = float(md.defaultExperiment.stepSize)
        steps = max(1, min(steps, round(float(md.defaultExperiment.stopTime) / h)))
        real = [v for v in md.modelVariables if v.type == "Real"]
        inputs = [v.valueReference for v in real if v.causality == "input"]
        values = [float(v.start or 0.0) for v in real if v.causality == "input"]
        outputs = [v.valueReference for v in real if v.causality == "output"]
        slave = FMU2Slave(guid=md.guid, unzipDirectory=folder, modelIdentifier=md.coSimulation.modelIdentifier,
                          instanceName="bench")
        t0 = time.perf_counter()
        slave.instantiate()
        best, started = float("inf"), None
        for _ in range(repeat):
            if started is not None:
                slave.reset()
            slave.setupExperiment(startTime=0.0)
            slave.enterInitializationMode()
            slave.exitInitializationMode()
            started = started if started is not None else time.perf_counter() - t0
            t0 = time.perf_counter()
            for k in range(steps):
                if inputs:
                    slave.setReal(inputs, values)
                slave.doStep(k * h, h)
                slave.getReal(outputs)
            best = min(best, (time.perf_counter() - t0) / steps * 1e6)
        slave.terminate()
        slave.freeInstance()
    except FMICallException as exc:
        raise CraneCosimError(f"{fmu.name} failed under FMPy in the benchmark: {exc}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return best, started


def master_us_per_step(fmu_folder: Path, stop_time: float, repeat: int, work: Path,
                       processes: bool = False, scenario=crane_on_vessel, together: bool = True) -> float:
    """µs of wall time a step of the master running ``scenario`` (default:
    the crane on the vessel) at its defaults with the FMUs in
    ``fmu_folder`` over ``stop_time`` s, the fastest of ``repeat`` runs;
    ``together`` False steps every component of a pass one after another
    (``CRANE_COSIM_STEP_TOGETHER=0``)."""
    system = scenario(base_dir=fmu_folder.parent, fmu_dir=fmu_folder.name, stop_time=stop_time)
    best = float("inf")
    before = os.environ.get(TOGETHER_SWITCH)
    os.environ[TOGETHER_SWITCH] = "1" if together else "0"
    try:
        for k in range(repeat):
            result = run_cosim(system, work / f"run{k}",
                               RunConfig(progress=False, replace_run=True, processes=processes))
            best = min(best, result.wall_time / result.steps * 1e6)
    finally:
        if before is None:
            os.environ.pop(TOGETHER_SWITCH, None)
        else:
            os.environ[TOGETHER_SWITCH] = before
    return best


def portable_bench(models, stop_time: float, repeat: int, work: Path, steps: int = 2000, stream=None) -> dict:
    """The figures of the module docstring, for the blocks ``models``."""
    lean_dir, portable_dir = work / "lean", work / "portable"
    rows = []
    for model in models:
        lean = build_fmu(model, lean_dir)
        portable = build_portable_fmu(model, portable_dir, stream, lean)
        lean_us, _ = fmpy_us_per_step(lean, steps, repeat)
        portable_us, started = fmpy_us_per_step(portable, steps, repeat)
        lean_us = min(lean_us, fmpy_us_per_step(lean, steps, repeat)[0])
        rows.append({"fmu": model, "lean_mb": lean.stat().st_size / 1e6, "portable_mb": portable.stat().st_size / 1e6,
                     "lean_us": lean_us, "portable_us": portable_us, "portable_start_s": started})
        if stream is not None:
            print(f"bench: {model}: lean {lean_us:.1f} µs a step, portable {portable_us:.1f}", file=stream,
                  flush=True)
    for model in MASTER_FMUS:  # the master's system needs these, whichever were asked for
        lean = lean_dir / f"{model}.fmu"
        if not lean.exists():
            build_fmu(model, lean_dir)
        if not (portable_dir / f"{model}.fmu").exists():
            build_portable_fmu(model, portable_dir, stream, lean)
    master = {kind: master_us_per_step(folder, stop_time, repeat, work / kind)
              for kind, folder in (("lean", lean_dir), ("portable", portable_dir))}
    master["processes"] = master_us_per_step(lean_dir, stop_time, repeat, work / "processes", True)
    # (the barge's lean FMUs missing in lean_dir are built by the run, as for any system of the project's FMUs)
    barge = {"lean": master_us_per_step(lean_dir, stop_time, repeat, work / "barge", scenario=hydro_vessel),
             "processes": master_us_per_step(lean_dir, stop_time, repeat, work / "barge_processes", True,
                                             hydro_vessel),
             "processes_one_by_one": master_us_per_step(lean_dir, stop_time, repeat, work / "barge_one_by_one", True,
                                                        hydro_vessel, together=False)}
    return {"fmus": rows, "master": {"system": "crane_on_vessel", "stop_time": stop_time, **master},
            "barge": {"system": "hydro_vessel", "stop_time": stop_time, **barge}}


def portable_main(args) -> int:
    """``crane-cosim bench --portable``: a table on stdout, progress on stderr."""
    if args.out is not None:
        check_folder(args.out, "--out")
    models = args.model or list(BLOCKS)
    print(f"bench: the portable FMUs of {', '.join(models)} beside the lean ones, then the crane on the vessel "
          f"over {args.stop_time:g} s in the master (building them first: minutes the first time) ...",
          file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_") as tmp:
        record = portable_bench(models, args.stop_time, args.repeat, Path(args.out or tmp), stream=sys.stderr)
    if args.json:
        print(json.dumps(record, indent=2))
        return 0
    print(f"{'FMU':24} {'lean MB':>8} {'portable MB':>12} {'lean µs/step':>13} {'portable µs/step':>17} "
          f"{'ratio':>6} {'start s':>8}   (FMPy)")
    for r in record["fmus"]:
        print(f"{r['fmu']:24} {r['lean_mb']:8.2f} {r['portable_mb']:12.1f} {r['lean_us']:13.1f} "
              f"{r['portable_us']:17.1f} {r['portable_us'] / r['lean_us']:6.2f} {r['portable_start_s']:8.2f}")
    m = record["master"]
    print(f"{m['system']} in the master, µs a step ({m['stop_time']:g} s): lean {m['lean']:.1f}, portable "
          f"{m['portable']:.1f} ({m['portable'] / m['lean']:.2f} times), lean with --processes "
          f"{m['processes']:.1f} ({m['processes'] / m['lean']:.2f} times)")
    b = record["barge"]
    print(f"{b['system']} in the master, µs a step ({b['stop_time']:g} s): lean {b['lean']:.1f}, with --processes "
          f"{b['processes']:.1f} ({b['processes'] / b['lean']:.2f} times), the same with every component stepped "
          f"one after another {b['processes_one_by_one']:.1f} ({b['processes_one_by_one'] / b['lean']:.2f} times)")
    return 0
