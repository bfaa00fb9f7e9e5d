"""Error of the co-simulation against the monolithic run versus the macro
step, for both crane-vessel couplings and the master's algorithms, for the
Table I vessel and a light vessel, and for every example with Gauss-Seidel
and the iterated algorithms, with the master's own estimate of its error
beside the true one, and with a vessel of its own step
(``multirate_study.py``); the page ``docs/coupling-error.md`` is written
from their JSON files (``coupling_page.py``).

    python -m crane_cosim.accuracy.coupling_study [--out DIR] [--stop-time T]
                                                 [--part vessels|examples|multirate|all]

For each vessel mass the monolithic run is the reference; every
co-simulation is compared on the 20 ms grid that all steps share.  The error
of a run is the largest, over the six interface-wrench components in Frame 1,
of the RMS difference divided by the component's peak.  A run that stops on
a non-finite value is reported as diverged, with the time.
"""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import SimulationError
from ..files.results import read_results
from ..runtime.coupling import columns_of_role
from ..runtime.plan import plan_of
from ..runtime.run import run_cosim
from ..scenarios import crane_on_vessel
from .comparison import error_norms, force_columns, relative_rms
from .coupling_cases import (COMPARE_EVERY, ESTIMATE_STEP, EXAMPLE_ALGORITHMS, EXAMPLES, STEPS, VARIANTS, VESSELS,
                             WRENCH_ROLE, on_shared_grid, reference_run)
from .coupling_page import write_outputs
from .multirate_study import run_multirate

def interface_wrench(system) -> list[str]:
    """The columns of ``system``'s outputs with the role of the interface
    wrench (the crane's wrench at the mount)."""
    plan = plan_of(system)
    return columns_of_role({f"{p.name}.{v.name}": v.role for p in plan.parts for v in p.outputs}, WRENCH_ROLE)


def wrench_error(run: pd.DataFrame, ref: pd.DataFrame, columns: list[str]) -> float:
    """max over the wrench's ``columns`` of RMS(run - ref) / peak|ref| on the reference's times."""
    return max(relative_rms(*on_shared_grid(run, ref), columns).values())


#: the accuracy the study's runs ask: the iterated algorithms' passes settle
#: to 1e-6 of the peaks, below what the smallest steps leave of the coupling's
#: error, so that the tables show the schemes' errors
ACCURACY = 1e-4


def timed_run(system, folder: Path, row: dict, record_every: int = 1) -> bool:
    """Co-simulate ``system`` into ``folder``, every ``record_every``-th point
    written: its wall time to ``row["wall_s"]``, and, for a run that stopped
    on a non-finite value, the time it reached to ``row["diverged_at"]``.
    Whether it completed."""
    t0 = time.perf_counter()
    try:
        run_cosim(system, folder, progress=False, record_every=record_every, replace_run=True, accuracy=ACCURACY)
        return True
    except SimulationError:
        row["diverged_at"] = float(read_results(folder)["time"].iloc[-1])
        return False
    finally:
        row["wall_s"] = time.perf_counter() - t0


def run_examples(out: Path, stop_time: float = 5.0, steps=STEPS, algorithms=EXAMPLE_ALGORITHMS) -> list[dict]:
    """Every example over its first ``stop_time`` seconds at each step, with
    each of ``algorithms`` (Gauss-Seidel, and the iterated midpoint and the
    iterated quadratic with passes until the values settle): the error, the worst over the example's forces and moments
    (:func:`comparison.force_columns`) of the RMS difference over the peak on
    the shared grid, and at ``ESTIMATE_STEP`` the master's estimate of it
    (``runtime/observers/estimate.py``) on the same points.  Written to
    ``coupling_error_examples.json`` in ``out``, whose rows of other
    algorithms are kept."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    found = out / "coupling_error_examples.json"
    kept = [r for r in json.loads(found.read_text()) if r["algorithm"] not in algorithms] if found.exists() else []
    rows = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_study_") as tmp:
        tmp = Path(tmp)
        for label, make in EXAMPLES.items():
            ref = reference_run(make(base_dir=tmp, stop_time=stop_time, step=COMPARE_EVERY), tmp / "mono")
            for algorithm in algorithms:
                for h in steps:
                    s = make(base_dir=tmp, stop_time=stop_time, step=h)
                    s.algorithm, s.iterations = algorithm, None
                    row = {"example": label, "algorithm": algorithm, "step": h, "stop_time": stop_time,
                           "error": None, "diverged_at": None}
                    # only the shared grid is compared: writing more would time the disk
                    every = max(1, round(COMPARE_EVERY / h))
                    if timed_run(s, tmp / "run", row, every):
                        run, r = on_shared_grid(read_results(tmp / "run"), ref)
                        columns = force_columns(s, ref)
                        row["error"] = float(error_norms(run, r, columns)["rms_peak"].max())
                        if h == ESTIMATE_STEP:
                            # run again, so that the wall times with and without compare
                            t0 = time.perf_counter()
                            run_cosim(s, tmp / "run", progress=False, estimate=True, record_every=every,
                                      replace_run=True, accuracy=ACCURACY)
                            row["estimate_wall_s"] = time.perf_counter() - t0
                            est, _ = on_shared_grid(pd.read_csv(tmp / "run" / "coupling_error.csv"), ref)
                            rms = np.sqrt((est[columns] ** 2).mean()) / run[columns].abs().max()
                            row["estimate"] = float(rms.max())
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    rows = sorted(kept + rows, key=lambda r: (list(EXAMPLES).index(r["example"]),
                                              EXAMPLE_ALGORITHMS.index(r["algorithm"]), r["step"]))
    found.write_text(json.dumps(rows, indent=1) + "\n")
    return rows


def run_study(out: Path, stop_time: float = 8.0, steps=STEPS) -> list[dict]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_study_") as tmp:
        tmp = Path(tmp)
        for label, m1 in VESSELS.items():
            ref = reference_run(crane_on_vessel(base_dir=tmp, stop_time=stop_time, step=COMPARE_EVERY,
                                                vessel_mass=m1), tmp / f"mono_{m1}")
            for coupling, algorithm, extrapolation in VARIANTS:
                for h in steps:
                    s = crane_on_vessel(base_dir=tmp, stop_time=stop_time, step=h, vessel_mass=m1)
                    s.coupling, s.algorithm, s.extrapolation = coupling, algorithm, extrapolation
                    row = {"vessel": label, "m1": m1, "coupling": coupling, "algorithm": algorithm,
                           "extrapolation": extrapolation, "step": h, "stop_time": stop_time, "error": None,
                           "diverged_at": None}
                    if timed_run(s, tmp / "run", row):
                        row["error"] = wrench_error(read_results(tmp / "run"), ref,
                                                    interface_wrench(s))
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    (out / "coupling_error.json").write_text(json.dumps(rows, indent=1) + "\n")
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m crane_cosim.accuracy.coupling_study", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path("docs"))
    p.add_argument("--stop-time", type=float, help="simulated seconds per run (default: 8 for the vessels, "
                                                   "5 for the examples)")
    p.add_argument("--part", choices=("vessels", "examples", "multirate", "all"), default="all",
                   help="the study to run again; the page is written from the studies' JSON files")
    p.add_argument("--algorithm", action="append", choices=EXAMPLE_ALGORITHMS,
                   help="with --part examples: run only this algorithm (repeatable), keeping the others' rows")
    args = p.parse_args(argv)
    if args.part in ("vessels", "all"):
        run_study(args.out, args.stop_time or 8.0)
    if args.part in ("examples", "all"):
        run_examples(args.out, args.stop_time or 5.0, algorithms=tuple(args.algorithm or EXAMPLE_ALGORITHMS))
    if args.part in ("multirate", "all"):
        run_multirate(args.out, args.stop_time or 20.0)
    write_outputs(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
