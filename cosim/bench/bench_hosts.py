"""``crane-cosim bench --hosts``: the same system, the same built FMUs, the
same step and stop time, under our master, OSP libcosim (``libcosimpy``)
and NTNU Ålesund's ecos (``ecospy``), steps per second side by side.

libcosim's and ecos's fixed-step algorithm is Jacobi with inputs held over
the step (``hosts/libcosim.py``, ``hosts/ecos.py``), so our master runs the
system with ``algorithm = "jacobi"`` and ``extrapolation = "none"`` here: the three runs
compute the same trajectory, which each record checks (the RMS difference
of the interface wrench from ours, over its peak).

Each run is a process of its own (``python -m crane_cosim.bench.bench_hosts``),
so that no host inherits another's loaded FMUs or threads, and only its
stepping is timed: loading the FMUs, connecting, initializing and
tearing down are left out (libcosim initializes the FMUs inside its first
step, so its figure leaves that step out; our master's figure holds the
end of the run: terminating the FMUs and writing ``summary.json``).  Every host records
the interface wrench (``crane.W_mount_*``) at every step, each its own
way: our master in ``results.arrows``, libcosim in its time-series observer,
ecos through ``get_real`` in a listener.  ``repeat`` rounds, the hosts in
turn, the fastest run of each counts.

Records (``mode`` ``host``), one per scenario and host: ``scenario``,
``host`` (:data:`HOSTS`), ``algorithm``, ``step`` [s], ``steps`` (timed),
``stepping_s`` [s], ``steps_per_s``, ``rtf``, ``ours_over_host`` (our
steps per second over the host's: 1 for ours), ``wrench_rms_vs_ours``
(the largest over the components of the RMS difference from our run over
our peak), ``wrench_compared`` (those components: the ones not zero but
for round-off in our run), ``results`` (the CSV of its recorded wrench, kept when the
bench's ``--out`` is given); a host that cannot run (its package missing)
has ``error`` instead of figures.
"""
from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from ..accuracy.comparison import relative_rms
from ..blocks.block import WRENCH_COMPONENTS
from ..errors import CraneCosimError
from ..files.results import read_results
from ..fmus.build import prepare_fmus
from ..hosts import OTHER_MASTERS
from ..runtime.config import RunConfig
from ..runtime.run import run_cosim
from ..runtime.runlog import check_folder
from ..scenarios import SCENARIOS
from .rates import STEP, check_bench_settings

__all__ = ["HOSTS", "compare_hosts", "hosts_main"]

#: our master first: the ratios are to it
HOSTS = ("crane-cosim", *OTHER_MASTERS)
#: the algorithm of every run: libcosim's and ecos's fixed-step one
ALGORITHM = "jacobi"
#: the scenario compared when none is named
DEFAULT_SCENARIO = "crane_on_vessel"


def wrench_columns() -> list[str]:
    """The interface wrench every crane outputs (``docs/names.md``)."""
    return [f"crane.W_mount_{c}" for c in WRENCH_COMPONENTS]


def _system(scenario: str, stop_time: float, folder: Path):
    system = SCENARIOS[scenario](base_dir=folder, stop_time=stop_time, step=STEP)
    system.algorithm, system.extrapolation = ALGORITHM, "none"
    return system


def run_host(host: str, scenario: str, stop_time: float, folder: Path, csv: Path) -> dict:
    """One run of ``scenario`` under ``host`` in this process, its FMUs in
    ``folder`` (built): ``stepping_s`` and ``steps``; the recorded wrench
    written to ``csv`` (``time`` and the columns of :func:`wrench_columns`)."""
    system = _system(scenario, stop_time, folder)
    columns = wrench_columns()
    timing: dict = {}
    if host == "crane-cosim":
        out = csv.with_suffix("")
        result = run_cosim(system, out, RunConfig(record=tuple(columns), progress=False, replace_run=True))
        if result.status != "completed":
            raise CraneCosimError(f"our master's run {result.status}: {result.reason}")
        timing = {"stepping_s": result.wall_time, "steps": result.steps}
        frame = read_results(out)[["time", *columns]]
    elif host in OTHER_MASTERS:
        frame = OTHER_MASTERS[host](system, outputs=columns, timing=timing)
    else:
        raise CraneCosimError(f"unknown host {host!r}; use one of {', '.join(HOSTS)}")
    frame.to_csv(csv, index=False, float_format="%.17g")
    return timing


def _run_in_process(host: str, scenario: str, stop_time: float, folder: Path, csv: Path) -> dict:
    """:func:`run_host` in a process of its own; its figures, or ``error``."""
    answer = csv.with_suffix(".json")
    answer.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-m", "crane_cosim.bench.bench_hosts", host, scenario,
                           repr(stop_time), str(folder), str(csv)], capture_output=True, text=True)
    if answer.is_file():
        return json.loads(answer.read_text())
    tail = (done.stderr.strip().splitlines() or ["no message"])[-1]
    raise CraneCosimError(f"the benchmark's run under {host} stopped (exit status {done.returncode}): {tail}")


def compare_hosts(scenario: str = DEFAULT_SCENARIO, stop_time: float = 5.0, work=None, repeat: int = 3,
                  hosts=HOSTS, on_record=None, on_run=None) -> list[dict]:
    """The records of ``scenario`` under each of ``hosts`` (module
    docstring), ``on_record(record)`` called as each is complete and
    ``on_run(host, figures)`` after each run."""
    check_bench_settings(stop_time, repeat, STEP)
    if hosts[0] != "crane-cosim":
        raise CraneCosimError("the hosts compared start with crane-cosim, the ratios' reference")
    with tempfile.TemporaryDirectory(prefix="crane_cosim_bench_hosts_") as tmp:
        folder = Path(work or tmp) / scenario
        prepare_fmus(_system(scenario, stop_time, folder))  # once, before any host runs
        runs = {host: [] for host in hosts}
        csvs = {host: folder / "hosts" / f"{host}.csv" for host in hosts}
        csvs[hosts[0]].parent.mkdir(parents=True, exist_ok=True)
        for _ in range(repeat):
            for host in hosts:
                if not any("error" in r for r in runs[host]):
                    runs[host].append(_run_in_process(host, scenario, stop_time, folder, csvs[host]))
                    if on_run is not None:
                        on_run(host, runs[host][-1])
        ours_frame = pd.read_csv(csvs[hosts[0]])
        peaks = ours_frame[wrench_columns()].abs().max()
        # a component that is zero but for round-off (no slew yet: the sideways ones) is left out
        columns = [c for c in wrench_columns() if peaks[c] > 1e-6 * peaks.max()]
        records, ours_rate = [], None
        for host in hosts:
            record = {"scenario": scenario, "mode": "host", "host": host, "algorithm": ALGORITHM, "step": STEP}
            failed = [r["error"] for r in runs[host] if "error" in r]
            if failed and host == hosts[0]:
                raise CraneCosimError(f"the benchmark's run under our master failed: {failed[0]}")
            if failed:
                record["error"] = failed[0]
            else:
                best = min(runs[host], key=lambda r: r["stepping_s"])
                rate = best["steps"] / best["stepping_s"]
                ours_rate = ours_rate or rate
                err = relative_rms(pd.read_csv(csvs[host]), ours_frame, columns)
                record.update(steps=best["steps"], stepping_s=best["stepping_s"], steps_per_s=rate,
                              rtf=rate * STEP, ours_over_host=ours_rate / rate,
                              wrench_rms_vs_ours=max(err.values()), wrench_compared=columns,
                              results=str(csvs[host]) if work is not None else None)
            records.append(record)
            if on_record is not None:
                on_record(record)
    return records


def hosts_main(args) -> int:
    """``crane-cosim bench --hosts``: a table (or ``--json``) on stdout,
    a line per host on stderr as it completes."""
    check_bench_settings(args.stop_time, args.repeat, STEP)
    if args.out is not None:
        check_folder(args.out, "--out")
    scenarios = args.scenario or [DEFAULT_SCENARIO]
    print(f"bench: {', '.join(HOSTS)} on {len(scenarios)} scenario(s), {args.repeat} run(s) each, "
          f"{args.stop_time:g} s simulated per run, each in a process of its own ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    records = []
    for scenario in scenarios:
        def report(r):
            what = (f"{r['steps_per_s']:.0f} steps/s" if "error" not in r else f"cannot run: {r['error']}")
            print(f"bench: {r['scenario']} under {r['host']}, the fastest: {what} ({time.perf_counter() - t0:.0f} s so far)",
                  file=sys.stderr, flush=True)
        def ran(host, figures, scenario=scenario):
            if "error" not in figures:
                print(f"bench: {scenario} under {host}, a run: {figures['steps'] / figures['stepping_s']:.0f} steps/s "
                      f"({time.perf_counter() - t0:.0f} s so far)", file=sys.stderr, flush=True)

        records += compare_hosts(scenario, args.stop_time, args.out, args.repeat, on_record=report, on_run=ran)
    if args.json:
        print(json.dumps(records, indent=2))
        return 0
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
          f"{args.stop_time:g} s simulated per run at a 1 ms step, {ALGORITHM} (libcosim's and ecos's fixed-step "
          f"algorithm), the fastest of {args.repeat}; the stepping alone timed (loading and initialization left "
          f"out), each host recording the interface wrench")
    print(f"{'scenario':24} {'host':12} {'steps/s':>9} {'RTF':>6} {'ours/host':>10} {'wrench vs ours':>15}")
    for r in records:
        if "error" in r:
            print(f"{r['scenario']:24} {r['host']:12} cannot run: {r['error']}")
        else:
            print(f"{r['scenario']:24} {r['host']:12} {r['steps_per_s']:9.0f} {r['rtf']:6.2f} "
                  f"{r['ours_over_host']:10.2f} {r['wrench_rms_vs_ours']:15.1e}")
    print("wrench vs ours: the largest RMS difference of an interface-wrench component from our run, "
          "over its peak; libcosim's is round-off, ecos's is not: ecos reads the outputs after setting the next "
          "inputs, so it samples the wrench, which depends on inputs directly, with the next step's inputs (the "
          "states agree to round-off; docs/benchmarks.md)")
    return 0


def _child(argv) -> int:
    host, scenario, stop_time, folder, csv = argv
    answer = Path(csv).with_suffix(".json")
    try:
        figures = run_host(host, scenario, float(stop_time), Path(folder), Path(csv))
    except CraneCosimError as exc:
        figures = {"error": str(exc)}
    answer.write_text(json.dumps(figures))
    return 1 if "error" in figures else 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
