"""``crane-cosim bench``: real-time factors of the monolithic run and of the
co-simulation at each example's own settings (its system file's algorithm and
step, which keep every force within 0.1% of the monolithic run), and the
master's own time per macro step next to the bare minimum of fmpy calls
measured in the same run.

Records (``--json``), one per scenario and mode:

* ``scenario``, ``mode`` (``monolithic`` | ``cosim``), ``step`` [s] (and
  ``algorithm`` for cosim);
* ``rtf``: simulated seconds per wall second;
* ``master_overhead_us``: the master's own time per macro step [µs], the
  co-simulation's wall time outside the FMI calls (exchange of values, checks,
  recording); ``null`` for monolithic;
* for cosim also ``master_us_per_step`` (all of it), ``fmi_calls_us_per_step``
  (inside ``fmi2SetReal``/``fmi2DoStep``/``fmi2GetReal``, including the FMUs'
  own computation) and ``bare_fmpy_us_per_step``: the same FMUs stepped by the
  bare minimum of calls through fmpy's public API (one ``setReal``, one
  ``doStep``, one ``getReal`` per FMU and step, replaying the co-simulation's
  inputs, no exchange or recording), ``fmu_us_per_step``: per component, the
  time inside its FMI calls per macro step [µs], ``fmu_steps_per_step``: per
  component, the steps it was asked to make per macro step (an iterated
  algorithm steps a component in halves and again), and ``kernel_us_per_step``:
  per component, its block's own computation for a step in process [µs]
  (``cosim/bench/kernel_time.py``).

and a last record, ``mode`` ``floor``: ``pythonfmu_us_per_step`` and
``adapter_us_per_step``, a step's three FMI calls into a Python FMU that does
nothing, bare and through our adapter (``cosim/bench/floor.py``).  ``--hosts``:
``cosim/bench/bench_hosts.py``.
"""
from __future__ import annotations

import json
import platform
import sys
import tempfile
import time
from pathlib import Path

from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave

from ..blocks.warm_up import warm_up
from ..errors import CraneCosimError
from ..files.results import read_results
from ..fmus.build import prepare_fmus
from ..monolithic.crane_loop import warm_up_loop
from ..monolithic.reference import run_monolithic
from ..runtime.config import RunConfig
from ..runtime.model import models_of
from ..runtime.plan import plan_of
from ..runtime.run import run_cosim
from ..runtime.runlog import check_folder
from ..scenarios import DEFAULTS, SCENARIOS
from ..ssp import write_ssd
from ..studies.sweep import CASES, cases_of_ranges, sweep
from .floor import floor_us_per_step
from .kernel_time import kernel_us_by_component
from .portable_bench import portable_main


def bare_fmpy_us_per_step(system, results: Path, work: Path) -> float:
    """Mean wall time [µs] per macro step of one setReal + doStep + getReal per
    FMU (the recorded inputs read from ``results``, a run's folder), through fmpy's public API, for the same FMUs, inputs and outputs as
    the master.  The inputs replay the co-simulation's recorded values, so
    the FMUs compute the same trajectory (cost depends on it: the blocks
    cache their kinematics while the state does not change)."""
    plan = plan_of(system)
    recorded = read_results(results)
    slaves = []
    # A folder of its own for every call: the FMUs' binaries stay loaded in
    # the process once used (fmus/native.py), and a library rewritten in
    # place while it is mapped crashes the process.
    unzip_root = Path(tempfile.mkdtemp(prefix="bare_", dir=work))
    sources = {(c.end_element, c.end_connector): f"{c.start_element}.{c.start_connector}" for c in plan.connections}
    for part in plan.parts:
        path = part.path
        md = read_model_description(str(path))
        s = FMU2Slave(guid=md.guid, unzipDirectory=extract(str(path), unzipdir=str(unzip_root / part.name)),
                      modelIdentifier=md.coSimulation.modelIdentifier, instanceName=part.name)
        s.instantiate()
        s.setupExperiment(startTime=system.start_time)
        for name, value in part.values.items():
            v = part.model.variables[name]
            if v.type == "String":  # a model or a table chosen by text
                s.setString([v.value_reference], [value])
            elif v.type == "Boolean":
                s.setBoolean([v.value_reference], [bool(value)])
            else:
                s.setReal([v.value_reference], [float(value)])
        s.enterInitializationMode()
        s.exitInitializationMode()
        slaves.append((s, *_replayed(part, sources, recorded)))
    h = system.step
    steps = len(recorded) - 1
    t0 = time.perf_counter()
    for k in range(steps):
        t = system.start_time + k * h
        for s, inputs, outputs in slaves:
            for setter, vrs, values in inputs:
                getattr(s, setter)(vrs, values[k])
            s.doStep(currentCommunicationPoint=t, communicationStepSize=h)
            for getter, vrs in outputs:
                getattr(s, getter)(vrs)
    elapsed = time.perf_counter() - t0
    for s, *_ in slaves:
        s.terminate()
        s.freeInstance()
    return elapsed / steps * 1e6


#: fmpy's calls that set and get the ports of each FMI type
_SETTERS = {"Real": "setReal", "Integer": "setInteger", "Boolean": "setBoolean"}
_GETTERS = {"Real": "getReal", "Integer": "getInteger", "Boolean": "getBoolean"}


def _replayed(part, sources: dict, recorded) -> tuple[list, list]:
    """What the bare loop calls for ``part``: per FMI type of its inputs,
    the setter, the value references and the recorded values step by step
    (of the outputs connected to them, in ``recorded``); per type of its
    outputs, the getter and the value references."""
    inputs, outputs = [], []
    for kind in _SETTERS:
        ins = [v for v in part.inputs if v.type == kind]
        if ins:
            columns = recorded[[sources[(part.name, v.name)] for v in ins]].to_numpy()
            values = columns.tolist() if kind == "Real" else columns.astype(int if kind == "Integer" else bool).tolist()
            inputs.append((_SETTERS[kind], [v.value_reference for v in ins], values))
        outs = [v.value_reference for v in part.outputs if v.type == kind]
        if outs:
            outputs.append((_GETTERS[kind], outs))
    return inputs, outputs


#: the step of the floor's runs [s]
STEP = 1e-3
#: the longest step of the examples' own [s]: the shortest run
LONGEST_STEP = max(step for _, step in DEFAULTS.values())


#: per scenario, what a benchmark of it takes [s]: the fixed part of each
#: run (FMUs unpacked and instantiated, the bare loop set up), and the wall
#: seconds a simulated second of the monolithic run and of one
#: co-simulation (with its bare fmpy replay, which adds little) take, from
#: two runs of the command (docs/benchmarks.md, "First compile from a cold
#: cache, and the benchmark's own time": how, on which machine, when)
SCENARIO_SECONDS = {"crane_on_vessel": (1.0, 0.36, 0.068), "crane_on_vessel_friction": (0.75, 0.42, 0.066),
                    "knuckle_boom": (0.75, 0.066, 0.081), "offshore_knuckle_boom": (1.25, 0.63, 0.17),
                    "flexible_crane": (1.5, 1.66, 1.02), "hydro_vessel": (1.25, 1.01, 0.20)}
#: the benchmark's own set-up and the floor's runs [s], measured with them
BENCH_SECONDS = 7.0


def estimated_seconds(names, stop_time: float, repeat: int) -> float:
    """About how long [s] the benchmark of the scenarios ``names`` takes at
    ``stop_time`` s a run and ``repeat`` co-simulations each, by the rates of
    :data:`SCENARIO_SECONDS` (a scenario not measured there at the slowest
    one's), the kernels compiled; a slower or busier machine takes longer
    (the estimate for ``--stop-time 2`` was 51 s where it ran 52 s)."""
    slowest = max(SCENARIO_SECONDS.values(), key=lambda r: r[1] + r[2])
    total = BENCH_SECONDS
    for name in names:
        fixed, mono, cosim = SCENARIO_SECONDS.get(name, slowest)
        total += fixed * (1 + repeat) + stop_time * (mono + repeat * cosim)
    return total


def _duration(seconds: float) -> str:
    """``seconds`` as a reader takes it in: "50 s", "8 min", "2.5 h"."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def check_bench_settings(stop_time: float, repeat: int, step: float | None = None) -> None:
    """One sentence for settings the benchmark cannot run with; ``step``
    [s]: the one step its runs take (None: each example's own)."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise CraneCosimError(f"--repeat must be a whole number of at least 1, got {repeat!r}")
    if not stop_time > 0:
        raise CraneCosimError(f"--stop-time must be positive, got {stop_time:g} s")
    if step is None and stop_time < LONGEST_STEP:
        raise CraneCosimError(f"--stop-time {stop_time:g} s is shorter than the examples' longest step, "
                              f"{LONGEST_STEP:g} s")
    if step is not None and stop_time < step:
        raise CraneCosimError(f"--stop-time {stop_time:g} s is shorter than the benchmark's step of {step:g} s")


def run_bench(stop_time: float = 5.0, work=None, repeat: int = 3, scenarios=None, on_record=None) -> list[dict]:
    """Benchmark records of the ``scenarios`` (names in
    :data:`scenarios.SCENARIOS`, default all).  The co-simulation and the bare
    fmpy loop alternate ``repeat`` times and the fastest of each counts (the
    machine's speed drifts); the monolithic run, slower and not the target,
    runs once.  ``on_record(record)`` is called as each record is complete."""
    check_bench_settings(stop_time, repeat)
    records = []

    def add(record):
        records.append(record)
        if on_record is not None:
            on_record(record)

    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_") as tmp:
        work = Path(work or tmp)
        for name in scenarios or SCENARIOS:
            # one folder of FMUs for every scenario: a block several scenarios use is built once
            system = SCENARIOS[name](base_dir=work, fmu_dir="fmus", stop_time=stop_time)
            prepare_fmus(system)
            mono = run_monolithic(system, work / name / "monolithic", progress=False, replace_run=True)
            add({"scenario": name, "mode": "monolithic", "step": system.step,
                 "rtf": mono.real_time_factor, "master_overhead_us": None,
                 "wall_time_s": mono.wall_time})
            co_runs, bare = [], []
            for _ in range(repeat):
                co_runs.append(run_cosim(system, work / name / "cosim", progress=False, replace_run=True))
                bare.append(bare_fmpy_us_per_step(system, work / name / "cosim", work / name))
            co = min(co_runs, key=lambda r: r.wall_time)
            add({"scenario": name, "mode": "cosim", "step": system.step,
                 "rtf": co.real_time_factor,
                 "master_overhead_us": (co.wall_time - co.fmi_call_time) / co.steps * 1e6,
                 "wall_time_s": co.wall_time, "master_us_per_step": co.wall_time / co.steps * 1e6,
                 "fmi_calls_us_per_step": co.fmi_call_time / co.steps * 1e6,
                 "bare_fmpy_us_per_step": min(bare), "algorithm": system.algorithm,
                 "fmu_us_per_step": {c: t / co.steps * 1e6 for c, t in co.fmi_call_time_by_component.items()},
                 "fmu_steps_per_step": {c: n / co.steps for c, n in co.fmi_steps_by_component.items()},
                 "kernel_us_per_step": kernel_us_by_component(system)})
        floor = floor_us_per_step(work, step=STEP)
        add({"scenario": None, "mode": "floor", "step": STEP, "rtf": None,
             "pythonfmu_us_per_step": floor["pythonfmu"], "adapter_us_per_step": floor["adapter"]})
    return records


def main(args) -> int:
    """The ``bench`` command: records as a table or JSON on stdout, progress
    (a line per scenario and mode as it completes) on stderr."""
    # numba loads only where a compiled step runs
    from ..runtime.compiled.master_warm_up import warm_up_master

    if getattr(args, "portable", False):
        check_bench_settings(args.stop_time, args.repeat)
        return portable_main(args)
    check_bench_settings(args.stop_time, args.repeat)
    if args.out is not None:
        check_folder(args.out, "--out")
    names = args.scenario or list(SCENARIOS)
    total = 2 * len(names) + 1
    print(f"bench: {len(names)} scenario(s), monolithic once and co-simulation {args.repeat} time(s) each, "
          f"{args.stop_time:g} s simulated per run: {', '.join(names)}; about "
          f"{_duration(estimated_seconds(names, args.stop_time, args.repeat))} in all by the rates of a 2-core "
          f"machine (docs/benchmarks.md), longer on a slower or busier one, and compiling first where it is "
          f"announced ...", file=sys.stderr, flush=True)
    # the blocks' kernels compiled now, with a word, rather than silently
    # in the set-up of the first run (in an empty folder: models by name)
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_") as tmp:
        models = set().union(*(models_of(SCENARIOS[n](base_dir=Path(tmp))) for n in names))
    warm_up(models)
    warm_up_loop(models)
    warm_up_master()
    t0 = time.perf_counter()
    done = []

    def report(r):
        done.append(r)
        what = (f"{r['scenario']} {r['mode']}: real-time factor {r['rtf']:.2f}" if r["mode"] != "floor" else
                f"floor of a Python FMU: {r['pythonfmu_us_per_step']:.1f} µs a step")
        print(f"bench: [{len(done)}/{total}] {what} ({time.perf_counter() - t0:.0f} s so far)", file=sys.stderr,
              flush=True)

    records = run_bench(args.stop_time, args.out, args.repeat, args.scenario, on_record=report)
    if args.json:
        print(json.dumps(records, indent=2))
        return 0
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{args.stop_time:g} s simulated per run")
    runs = [r for r in records if r["mode"] != "floor"]
    print("\n".join(table_lines(runs)))
    print("per FMU, µs a step inside its FMI calls (fmi2SetReal, fmi2DoStep, fmi2GetReal ...), and in brackets "
          "its block's own computation for one step, in process; then the FMU's steps a step (an iterated "
          "algorithm steps it in halves and again) and the µs a step of its:")
    for r in runs:
        if r["mode"] == "cosim":
            kernel, steps = r["kernel_us_per_step"], r["fmu_steps_per_step"]
            print(f"  {r['scenario']:24} " + ", ".join(
                f"{c} {t:.1f}" + (f" ({kernel[c]:.1f})" if c in kernel else "") +
                (f" / {steps[c]:.2f} = {t / steps[c]:.1f}" if steps.get(c) else "")
                for c, t in r["fmu_us_per_step"].items()))
    floor = next(r for r in records if r["mode"] == "floor")
    print(f"floor, the same three calls into a Python FMU that does nothing: {floor['pythonfmu_us_per_step']:.1f} µs "
          f"(bare pythonfmu), {floor['adapter_us_per_step']:.1f} µs (through the project's adapter)")
    return 0


#: the columns of the table of runs after the scenario, mode and algorithm: heading, record key, width
_FIGURES = (("step [s]", "step", 9, ".4g"), ("RTF", "rtf", 6, ".2f"), ("µs/step", "master_us_per_step", 8, ".1f"),
            ("in FMI calls", "fmi_calls_us_per_step", 13, ".1f"), ("master own", "master_overhead_us", 11, ".1f"),
            ("bare fmpy", "bare_fmpy_us_per_step", 10, ".1f"))


def table_lines(runs) -> list[str]:
    """The bench's table of ``runs`` (the records of the monolithic and
    co-simulation runs), a heading, a line per run and, where a figure
    does not apply to a run (a monolithic run has no master, FMI calls nor
    FMUs), a dash in its place and a line saying why."""
    lines = [f"{'scenario':24} {'mode':11} {'algorithm':18} " + " ".join(f"{h:>{w}}" for h, _, w, _ in _FIGURES)]
    for r in runs:
        figures = [f"{'-' if r.get(key) is None else format(r[key], form):>{w}}" for _, key, w, form in _FIGURES]
        lines.append(f"{r['scenario']:24} {r['mode']:11} {r.get('algorithm') or '':18} " + " ".join(figures))
    if any(r.get(key) is None for r in runs for _, key, _, _ in _FIGURES):
        lines.append("-: does not apply (a monolithic run is one ODE in this process: no master, no FMI calls, "
                     "no FMU)")
    return lines


def bench_sweep(cases: int, stop_time: float, out: Path | None = None) -> dict:
    """Cases per hour of a sweep (``cosim/studies/sweep.py``) of the crane on the
    Table I vessel, ``cases`` cases of ``stop_time`` s (the vessel's mass
    varied), on a local cluster of one worker process and of two; and the
    overhead per case: a case's wall time (its process started, the FMUs
    loaded, the results converted to Parquet) less the run's own."""
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_sweep_") as tmp:
        root = Path(out) if out is not None else Path(tmp)
        system = write_ssd(SCENARIOS["crane_on_vessel"](base_dir=root), root / "CraneOnVessel.ssd")
        masses = ",".join(f"{1000 + 10 * k:g}" for k in range(cases))
        record = {"cases": cases, "stop_time": stop_time}
        for workers in (1, 2):
            folder = root / f"sweep_{workers}"
            t0 = time.perf_counter()
            summary = sweep(system, cases_of_ranges([f"vessel.m={masses}"]), folder, RunConfig(stop_time=stop_time),
                            workers=workers, progress=False, force=True)  # measured anew, never skipped
            wall = time.perf_counter() - t0
            if set(summary["status"]) != {"completed"}:
                raise CraneCosimError(f"the benchmark's sweep with {workers} worker(s) failed: "
                                      f"{summary['reason'].dropna().iloc[0]}")
            own = [json.loads((folder / CASES / name / "summary.json").read_text())["wall_time_s"]
                   for name in summary["case"]]
            record[f"cases_per_hour_{workers}"] = 3600 * cases / wall
            record[f"overhead_s_per_case_{workers}"] = float((summary["wall_s"] - own).mean())
        record["speedup"] = record["cases_per_hour_2"] / record["cases_per_hour_1"]
    return record
