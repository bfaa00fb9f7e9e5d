"""``crane-cosim bench``: real-time factors of the monolithic run and of the
co-simulation at a 1 ms step, and the master's own time per macro step next
to the bare minimum of fmpy calls (one ``setReal``, one ``doStep``, one
``getReal`` per FMU, through fmpy's public API) measured in the same run.

Records (``--json``): ``scenario``, ``mode`` (``monolithic`` | ``cosim``),
``step`` [s], ``rtf`` (simulated s per wall s), ``master_overhead_us`` (master
time per macro step minus the bare fmpy calls, µs; ``null`` for monolithic),
plus ``wall_time_s`` and, for cosim, ``master_us_per_step`` and
``bare_fmpy_us_per_step``."""
from __future__ import annotations

import json
import platform
import tempfile
import time
from pathlib import Path

from .fmu import describe_variables
from .master import prepare_fmus, run_cosim
from .monolithic import run_monolithic
from .scenarios import crane_on_vessel
from .system import coupled_connections
from .wiring import resolve

SCENARIOS = {"crane_on_vessel": crane_on_vessel}


def bare_fmpy_us_per_step(system, steps: int, work: Path) -> float:
    """Mean wall time [µs] of one setReal + doStep + getReal per FMU, through
    fmpy's public API, with the same inputs and outputs the master binds."""
    from fmpy import extract, read_model_description
    from fmpy.fmi2 import FMU2Slave

    variables = {c.name: describe_variables(system.source_path(c)) for c in system.components}
    wiring = resolve(system, coupled_connections(system), variables)
    slaves = []
    for comp in system.components:
        path = system.source_path(comp)
        md = read_model_description(str(path))
        s = FMU2Slave(guid=md.guid, unzipDirectory=extract(str(path), unzipdir=str(work / f"bare_{comp.name}")),
                      modelIdentifier=md.coSimulation.modelIdentifier, instanceName=comp.name)
        s.instantiate()
        s.setupExperiment(startTime=0.0)
        s.enterInitializationMode()
        s.exitInitializationMode()
        vr_in = [variables[comp.name][w[0]].value_reference for w in wiring[comp.name]]
        vr_out = [v.value_reference for v in variables[comp.name].values() if v.causality == "output"]
        start = [float(variables[comp.name][w[0]].start or 0.0) for w in wiring[comp.name]]
        slaves.append((s, vr_in, vr_out, start))
    h = system.step
    t = 0.0
    t0 = time.perf_counter()
    for k in range(steps):
        for s, vr_in, vr_out, values in slaves:
            s.setReal(vr_in, values)
            s.doStep(currentCommunicationPoint=t, communicationStepSize=h)
            s.getReal(vr_out)
        t += h
    elapsed = time.perf_counter() - t0
    for s, *_ in slaves:
        s.terminate()
        s.freeInstance()
    return elapsed / steps * 1e6


def run_bench(stop_time: float = 5.0, work=None) -> list[dict]:
    records = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_") as tmp:
        work = Path(work or tmp)
        for name, make in SCENARIOS.items():
            system = make(base_dir=work / name, stop_time=stop_time, step=1e-3)
            prepare_fmus(system)
            mono = run_monolithic(system, work / name / "monolithic", progress=False)
            records.append({"scenario": name, "mode": "monolithic", "step": system.step,
                            "rtf": mono.real_time_factor, "master_overhead_us": None,
                            "wall_time_s": mono.wall_time})
            co = run_cosim(system, work / name / "cosim", progress=False)
            master_us = co.wall_time / co.steps * 1e6
            bare_us = bare_fmpy_us_per_step(system, co.steps, work / name)
            records.append({"scenario": name, "mode": "cosim", "step": system.step,
                            "rtf": co.real_time_factor, "master_overhead_us": master_us - bare_us,
                            "wall_time_s": co.wall_time, "master_us_per_step": master_us,
                            "bare_fmpy_us_per_step": bare_us})
    return records


def main(args) -> int:
    records = run_bench(args.stop_time, args.out)
    if args.json:
        print(json.dumps(records, indent=2))
        return 0
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{args.stop_time:g} s simulated per run")
    print(f"{'scenario':18} {'mode':11} {'step [s]':>9} {'RTF':>7} {'master µs/step':>15} "
          f"{'bare fmpy µs/step':>18} {'overhead µs':>12}")
    for r in records:
        print(f"{r['scenario']:18} {r['mode']:11} {r['step']:9.4g} {r['rtf']:7.2f} "
              f"{r.get('master_us_per_step', float('nan')):15.1f} {r.get('bare_fmpy_us_per_step', float('nan')):18.1f} "
              f"{r['master_overhead_us'] if r['master_overhead_us'] is not None else float('nan'):12.1f}")
    return 0
