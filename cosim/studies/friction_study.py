"""Co-simulated joint friction against the monolithic run versus the macro
step, for the examples with friction (``docs/friction.md``).

    python -m crane_cosim.studies.friction_study [--out DIR] [--stop-time T]

Friction in a co-simulation takes the joint's rate and reaction of the step
before: at stick, where the LuGre bristle is a stiff spring, such a delay
is the classic way a co-simulation chatters.  For each example and step the
table gives, against the monolithic run (compared on the 20 ms grid all
steps share), the largest RMS error over peak of the friction torques and
forces, of the joint coordinates and of the interface wrench, and the
chatter: the largest step-to-step change of a friction output while its
joint sticks in the monolithic run (rate below the Stribeck velocity),
over that output's peak.  A run that stops on a non-finite value is
reported as diverged.
"""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import SimulationError
from ..accuracy.coupling_cases import COMPARE_EVERY, on_shared_grid, reference_run
from ..runtime.run import run_cosim
from ..files.results import read_results
from ..accuracy.comparison import relative_rms
from ..scenarios import crane_on_vessel_friction, offshore_knuckle_boom

STEPS = (5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2)
EXAMPLES = {"crane_on_vessel_friction": crane_on_vessel_friction, "offshore_knuckle_boom": offshore_knuckle_boom}
STICK_RATE = 0.0175  # rad/s (Table 1's Stribeck velocity); seals: 10 mm/s


#: The quantities compared, by the prefixes of their columns.
GROUPS = {"friction": ("friction.tau_f_", "friction.F_f_"), "coordinates": ("crane.q_",),
          "wrench": ("crane.W_mount_",)}


def group_errors(run: pd.DataFrame, ref: pd.DataFrame) -> dict:
    """Per group, the largest RMS(run - ref) / peak|ref| of its components,
    both runs on the same time grid.  A component the mechanism keeps at
    zero (below 3e-7 of its group's largest peak: the friction of a joint
    that never moves, a wrench component of a planar motion) is left out,
    its ratio being round-off over round-off: the monolithic run of the
    offshore knuckle boom crane leaves such components at 1.5e-13 of their
    group's peak with OpenBLAS's kernels for this processor and at up to
    7.3e-8 with its Haswell kernels (``OPENBLAS_CORETYPE=Haswell``); the
    smallest that moves is 3.7e-2 of it."""
    out = {}
    for group, prefixes in GROUPS.items():
        cols = [c for c in ref.columns if c.startswith(prefixes)]
        scale = max(np.abs(ref[c]).max() for c in cols)
        live = [c for c in cols if np.abs(ref[c]).max() > 3e-7 * scale]
        out[group] = max(relative_rms(run, ref, live).values())
    return out


def errors(run: pd.DataFrame, ref: pd.DataFrame) -> dict:
    """:func:`group_errors` on the grid every macro step shares."""
    return group_errors(*on_shared_grid(run, ref))


def chatter(run: pd.DataFrame, ref: pd.DataFrame) -> float:
    """Largest step-to-step change of a friction output of ``run`` while the
    monolithic run sticks in that joint, over the output's peak."""
    worst = 0.0
    for col in (c for c in ref.columns if c.startswith(GROUPS["friction"])):
        joint = col.split("_f_", 1)[1]
        rate = np.interp(run["time"], ref["time"], ref[f"crane.u_{joint}"])
        stick = np.abs(rate[1:]) < (0.01 if joint.endswith("_cyl") else STICK_RATE)
        jumps = np.abs(np.diff(run[col].to_numpy()))[stick]
        peak = np.abs(ref[col]).max()
        if jumps.size and peak > 0:
            worst = max(worst, float(jumps.max() / peak))
    return worst


def run_study(out: Path, stop_time: float = 20.0, steps=STEPS) -> list[dict]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="crane_cosim_friction_") as tmp:
        tmp = Path(tmp)
        for name, build in EXAMPLES.items():
            ref = reference_run(build(base_dir=tmp, stop_time=stop_time, step=COMPARE_EVERY / 20),
                                tmp / f"mono_{name}")
            for h in steps:
                system = build(base_dir=tmp, stop_time=stop_time, step=h)
                row = {"example": name, "step": h}
                try:
                    run_cosim(system, tmp / f"co_{name}_{h}", progress=False, replace_run=True)
                except SimulationError as exc:
                    row["diverged"] = str(exc)
                else:
                    run = read_results(tmp / f"co_{name}_{h}")
                    row.update(errors(run, ref))
                    row["chatter"] = chatter(run, ref)
                rows.append(row)
                print(row, flush=True)
    (out / "friction_study.json").write_text(json.dumps(rows, indent=1))
    return rows


def _percent(ratio: float) -> str:
    """A ratio as a percentage; beyond 100% the run has gone unstable and the
    figure itself means nothing."""
    return f"{ratio:.2%}" if ratio <= 1 else "> 100% (unstable)"


def markdown(rows) -> str:
    lines = ["| example | step | friction | joint coordinates | interface wrench | chatter at stick |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        if "diverged" in r:
            lines.append(f"| {r['example']} | {r['step'] * 1e3:g} ms | diverged | | | |")
            continue
        cells = [_percent(r[k]) for k in ("friction", "coordinates", "wrench", "chatter")]
        lines.append(f"| {r['example']} | {r['step'] * 1e3:g} ms | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m crane_cosim.studies.friction_study", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="friction_study")
    ap.add_argument("--stop-time", type=float, default=20.0)
    args = ap.parse_args(argv)
    print(markdown(run_study(Path(args.out), args.stop_time)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
