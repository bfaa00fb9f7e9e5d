"""Error of the co-simulation against the monolithic run versus the macro
step, for both crane-vessel couplings, for the Table I vessel and a light
vessel (``docs/coupling-error.md``).

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
VARIANTS = (("inertia", "gauss-seidel", "none"), ("inertia", "jacobi", "none"),
            ("inertia", "jacobi", "midpoint"), ("explicit", "gauss-seidel", "none"))
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
wrench and motion), the master algorithm, and the inputs held over a step
(last sample, or the mid-step estimate from the last two samples).  The
first variant is the example's default.

![error versus step](coupling_error.png)

{tables}

## Reading the results

* The inertia coupling converges at first order in the step: the error
  falls tenfold from 1 ms to 0.1 ms.  At 1 ms it is well within 1% for both
  vessels with Gauss–Seidel (the tests check this: `tests/cosim/test_cosim.py`).
* With the light vessel (120 kg), where the crane's apparent inertia exceeds
  the vessel's own, the explicit exchange of wrench and motion diverges
  within 0.2 s at every step size (within 20 ms at steps up to 1 ms); the
  inertia coupling does not.  With the Table I vessel both couplings work,
  the explicit one with a few times the error.
* What limits the largest stable step is the crane's PD control loop rather
  than the vessel coupling: the controller's torque is held over the step
  (and with Jacobi read one step late), and in the unstable runs it is the
  outer boom (the stiffest loop, about 16 rad/s) that oscillates.
  Gauss–Seidel is stable to 10 ms, Jacobi to 5 ms.
* Jacobi is what OSP libcosim runs; it is about three times less accurate
  than Gauss–Seidel here.  Mid-step extrapolation of the inputs brings Jacobi
  to the accuracy of Gauss–Seidel at small steps, but is unstable from 5 ms.
* Over the whole 20 s sequence the light vessel's undamped roll accumulates
  phase error: at 1 ms with the default internal step the RMS error of the
  slewing-torque component n_z reaches about 7% of its peak (the other
  components 1–2.5%), against 0.4% over these 8 s.  Most of it is the FMUs'
  own first-order integration: with `h_max = 1e-4` (ten symplectic Euler
  sub-steps per 1 ms macro step, about five times slower) every component
  stays within 1% (`tests/cosim/test_cosim.py -m slow`); a fourth-order
  integrator at 1 ms reaches 1.1%.  Extrapolating or interpolating `I_A`,
  `p_A` or the mount motion over the step did not help here.  Rolling steps
  back with the FMU state (supported) is the remaining route.
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
