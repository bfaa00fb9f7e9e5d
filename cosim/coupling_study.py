"""Error of the co-simulation against the monolithic run versus the macro
step, for both crane-vessel couplings and the master's algorithms, for the
Table I vessel and a light vessel (``docs/coupling-error.md``).

    python -m crane_cosim.coupling_study [--out DIR] [--stop-time T]

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

from .errors import SimulationError
from .master import prepare_fmus, run_cosim
from .monolithic import run_monolithic
from .results import relative_rms
from .scenarios import crane_on_vessel

STEPS = (1e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2)
VESSELS = {"Table I vessel (1200 kg)": 1200.0, "light vessel (120 kg)": 120.0}
#: (coupling, algorithm, input extrapolation); the first is the example's default
VARIANTS = (("inertia", "gauss-seidel", "none"), ("inertia", "iterated-midpoint", "none"),
            ("inertia", "jacobi", "none"), ("inertia", "jacobi", "midpoint"), ("explicit", "gauss-seidel", "none"))
COMPARE_EVERY = 0.02
WRENCH = [f"crane.W_mount_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")]


def on_shared_grid(run: pd.DataFrame, ref: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of ``run`` and ``ref`` at the points of the ``COMPARE_EVERY``
    grid that both recorded, in the same order: runs at different steps
    compared point by point."""
    def on_grid(df):
        k = df["time"] / COMPARE_EVERY
        df = df[np.abs(k - np.round(k)) < 1e-6]
        return df.set_index(np.round(df["time"] / COMPARE_EVERY).astype(int))
    run, ref = on_grid(run), on_grid(ref)
    ref = ref.loc[ref.index.intersection(run.index)]
    run = run.loc[ref.index]
    return run.reset_index(drop=True), ref.reset_index(drop=True)


def reference_run(system, folder: Path) -> pd.DataFrame:
    """The monolithic run of ``system`` into ``folder`` (its FMUs built when
    missing or out of date), read back: the reference of a study."""
    prepare_fmus(system)
    run_monolithic(system, folder, progress=False)
    return pd.read_csv(folder / "results.csv")


def wrench_error(run: pd.DataFrame, ref: pd.DataFrame) -> float:
    """max over components of RMS(run - ref) / peak|ref| on the reference's times."""
    return max(relative_rms(*on_shared_grid(run, ref), WRENCH).values())


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
                           "extrapolation": extrapolation, "step": h, "error": None, "diverged_at": None}
                    t0 = time.perf_counter()
                    try:
                        run_cosim(s, tmp / "run", progress=False)
                        row["error"] = wrench_error(pd.read_csv(tmp / "run" / "results.csv"), ref)
                    except SimulationError:
                        done = pd.read_csv(tmp / "run" / "results.csv")
                        row["diverged_at"] = float(done["time"].iloc[-1])
                    row["wall_s"] = time.perf_counter() - t0
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    (out / "coupling_error.json").write_text(json.dumps(rows, indent=1) + "\n")
    plot_study(rows, out / "coupling_error.png")
    write_markdown(rows, out / "coupling-error.md", stop_time)
    return rows


_PAGE = """# Co-simulation error against the monolithic run

<!-- Written by `python -m crane_cosim.coupling_study --out docs` ({date}, {machine}). -->

The crane on the vessel (`examples/crane_on_vessel`, first {stop:g} s: the raise
and the start of the slew) co-simulated from the same FMUs at macro steps
from 0.1 ms to 20 ms, compared with the monolithic run of the same blocks
(scipy DOP853, rtol = atol = 1e-9).  Error: the largest, over the six
components of the interface wrench in Frame 1, of the RMS difference divided
by the component's peak, on the 20 ms grid all steps share.  "diverged at
t" is where a run stopped on a non-finite value; an error above 1 means the
run stayed finite but oscillated far from the reference (unstable).

Variants: the crane–vessel coupling (`inertia`: the crane's articulated
inertia and bias wrench go to the vessel; `explicit`: the plain exchange of
wrench and motion), the master algorithm ([master.md](master.md#stepping)),
and the inputs held over a step
(last sample, or the mid-step estimate from the last two samples).  The
first variant is the example's default.

![error versus step](coupling_error.png)

{tables}

## Reading the results

* Gauss–Seidel and Jacobi are first order in the step: the error halves
  as the step halves.  The iterated midpoint (inputs held at their
  sources' mid-step values, the components in a loop stepped again until
  those values settle) is second order: the error falls fourfold, and at
  1 ms it is some 500 times smaller than Gauss–Seidel's, for about seven
  times the wall time (each step is taken in halves, three to five times).
  On the light vessel its error stops falling near 6e-7 below 0.5 ms: the
  passes stop when no mid-step value moves by more than 1e-6 of its peak,
  and that remainder of the fixed point is then the larger part.
* What limits the largest stable step is the crane's PD control loop rather
  than the vessel coupling: in the unstable runs it is the outer boom (the
  stiffest loop, about 16 rad/s) that oscillates.  Gauss–Seidel and the
  iterated midpoint are stable to 10 ms, Jacobi to 5 ms; mid-step
  extrapolation of the inputs brings Jacobi to the accuracy of
  Gauss–Seidel at small steps but is unstable from 5 ms.
* With the light vessel (120 kg), where the crane's apparent inertia
  exceeds the vessel's own, the explicit exchange of wrench and motion
  diverges within 0.2 s at every step size; the inertia coupling does not.
  With the Table I vessel both couplings work, the explicit one with a
  few times the error.
* Jacobi is what OSP libcosim runs; it is about three times less accurate
  than Gauss–Seidel here.
* Over the whole 20 s of every example at 1 ms, the figures are in
  [master.md](master.md#stepping): the iterated midpoint keeps every
  recorded force within 0.003% of its peak (RMS) but on the flexible
  crane, whose undamped 40.7 Hz base mode drifts in phase (1.4% at 1 ms,
  0.08% at 0.25 ms); the tests bound each example's error at about three
  times what it achieves (`tests/cosim/test_example_accuracy.py`).
* The FMUs integrate with classic Runge–Kutta, at most 1 ms a step inside:
  over these runs their own error is below 1e-7 of the peaks, so what the
  tables show is the coupling's.
"""


def write_markdown(rows, path: Path, stop_time: float) -> None:
    import datetime
    import platform
    tables = []
    steps = sorted({r["step"] for r in rows})
    for label in VESSELS:
        head = "| variant | " + " | ".join(f"{h * 1e3:g} ms" for h in steps) + " |"
        rule = "|---|" + "---|" * len(steps)
        lines = [f"### {label}", "", head, rule]
        for coupling, algorithm, extrapolation in VARIANTS:
            cells = []
            for h in steps:
                r = next((r for r in rows if r["vessel"] == label and r["step"] == h and r["coupling"] == coupling
                          and r["algorithm"] == algorithm and r["extrapolation"] == extrapolation), None)
                if r is None:
                    cells.append("")
                elif r["error"] is None:
                    cells.append(f"diverged at {r['diverged_at']:g} s")
                else:
                    cells.append(f"{r['error']:.1e}")
            lines.append(f"| {variant_name(coupling, algorithm, extrapolation)} | " + " | ".join(cells) + " |")
        lines += ["", f"Wall time [s] of each run of {stop_time:g} s:", "", head, rule]
        for coupling, algorithm, extrapolation in VARIANTS:
            cells = [next((f"{r['wall_s']:.1f}" for r in rows if r["vessel"] == label and r["step"] == h
                           and r["coupling"] == coupling and r["algorithm"] == algorithm
                           and r["extrapolation"] == extrapolation), "") for h in steps]
            lines.append(f"| {variant_name(coupling, algorithm, extrapolation)} | " + " | ".join(cells) + " |")
        tables.append("\n".join(lines))
    path.write_text(_PAGE.format(date=datetime.date.today().isoformat(),
                                 machine=f"{platform.machine()}, Python {platform.python_version()}",
                                 stop=stop_time, tables="\n\n".join(tables)))


def variant_name(coupling, algorithm, extrapolation) -> str:
    return f"{coupling}, {algorithm}" + (", midpoint inputs" if extrapolation == "midpoint" else "")


def plot_study(rows, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(VESSELS), figsize=(11, 5.0), sharey=True)
    for ax, label in zip(axes, VESSELS):
        for coupling, algorithm, extrapolation in VARIANTS:
            sel = [r for r in rows if r["vessel"] == label and r["coupling"] == coupling
                   and r["algorithm"] == algorithm and r["extrapolation"] == extrapolation]
            ok = [r for r in sel if r["error"] is not None]
            name = variant_name(coupling, algorithm, extrapolation)
            line, = ax.loglog([r["step"] * 1e3 for r in ok], [r["error"] for r in ok], "o-", label=name)
            bad = [r for r in sel if r["error"] is None]
            if bad:
                ax.loglog([r["step"] * 1e3 for r in bad], [1.0] * len(bad), "x", color=line.get_color(),
                          markersize=9, label=f"{name}: diverged")
        ax.axhline(0.01, color="grey", lw=0.8, ls="--")
        ax.set_title(label)
        ax.set_xlabel("macro step [ms]")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("interface wrench error / peak (RMS)")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m crane_cosim.coupling_study", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path("docs"))
    p.add_argument("--stop-time", type=float, default=8.0)
    args = p.parse_args(argv)
    run_study(args.out, args.stop_time)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
