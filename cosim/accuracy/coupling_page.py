"""The page of the coupling studies (``docs/coupling-error.md``) and its
figures, written from the studies' JSON files (``coupling_study.py``,
``multirate_study.py``)."""
from __future__ import annotations

import datetime
import json
import platform
from pathlib import Path

from .coupling_cases import ESTIMATE_STEP, EXAMPLE_ALGORITHMS, EXAMPLES, VARIANTS, VESSELS

__all__ = ["write_outputs", "write_markdown", "variant_name"]

def _multirate_reading(rows) -> str:
    """What the study of a vessel of its own step shows, in words, its
    figures taken from ``rows``."""
    def row(label, h):
        return next((r for r in rows if r["example"] == label and r["vessel_step"] == h), None)
    labels = list(dict.fromkeys(r["example"] for r in rows))
    base = min(r["vessel_step"] for r in rows)
    gains, costs, diverged = [], [], []
    for label in labels:
        ref = row(label, base)
        for r in rows:
            if r["example"] != label or r["vessel_step"] == base:
                continue
            if r["error"] is None:
                diverged.append(f"{label} at {r['vessel_step'] * 1e3:g} ms (at t = {r['diverged_at']:g} s)")
            else:
                gains.append(r["real_time_factor"] / ref["real_time_factor"] - 1)
                costs.append(r["error"] / ref["error"])
    text = (f"On these examples a vessel of its own step gains little and costs much.  The vessel's FMU still "
            f"integrates at 1 ms inside (its own accuracy's step), so a longer step saves its calls and the "
            f"exchange, not its integration: the real-time factor grows by {100 * min(gains):.0f}% to "
            f"{100 * max(gains):.0f}%.  The interface wrench, which couples the vessel's acceleration to the "
            f"crane's articulated inertia, loses its accuracy with the vessel's motion held between its steps: "
            f"{min(costs):.0f} to {max(costs):.0f} times the error of the vessel at the crane's step")
    if diverged:
        text += f", and the run diverges for the {', the '.join(diverged)}"
    return text + (".  A component of its own step pays where it is expensive and slow or only weakly coupled "
                   "(a ship-motion code at 50 ms beside a crane at 1 ms whose forces it barely feels); here the "
                   "vessel belongs at the crane's step.")


def write_outputs(out: Path) -> None:
    """The plots and ``coupling-error.md`` in ``out`` from the studies'
    JSON files there."""
    out = Path(out)
    rows = json.loads((out / "coupling_error.json").read_text())
    examples = json.loads((out / "coupling_error_examples.json").read_text())
    multirate = json.loads((out / "coupling_error_multirate.json").read_text())
    plot_study(rows, out / "coupling_error.png")
    plot_examples(examples, out / "coupling_error_examples.png")
    write_markdown(rows, examples, multirate, out / "coupling-error.md")


_PAGE = """# Co-simulation error against the monolithic run

<!-- Written by `python -m crane_cosim.accuracy.coupling_study --out docs` ({date}, {machine}). -->

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
  passes stopped (in this study) when no mid-step value moved by more
  than 1e-6 of its peak, and that remainder of the fixed point is then the
  larger part.
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
* Over the first 5 s of every example (below), the same holds: the
  iterated midpoint is second order; it keeps every force within 0.1% of
  its peak (RMS) at 1 ms but on the flexible crane, which needs 0.25 ms
  for that.  The iterated quadratic (inputs from the loop on quadratics
  over the step, given to the FMUs as input derivatives) brings the
  flexible crane within 0.1% at 1 ms (8e-4 on this grid, 7e-5 at 0.5 ms),
  and the cranes on the vessel down to what the monolithic reference
  itself resolves (4e-8 to 8e-8) from 2 ms, at about 2.5 times the
  iterated midpoint's wall time at the same step (2–2.4 times); at 5 ms
  it is more accurate than the iterated midpoint at 1 ms, for the same
  time.  On
  the offshore knuckle boom, whose friction sticks and slips and whose
  cylinders step their own way, it gains little (9e-6 against 1.3e-5 at
  1 ms).  The largest stable step is 10 ms for the cranes on the vessel
  (either iterated algorithm), 20 ms (the largest tried) for both knuckle
  boom cranes, and 2 ms (Gauss–Seidel), 5 ms (iterated midpoint) or 10 ms
  (iterated quadratic) for the flexible crane, whose boom rings at up to
  111 Hz.
* Over the whole 20 s of every example at 1 ms, the figures are in
  [master.md](master.md#stepping): the iterated midpoint keeps every
  recorded force within 0.003% of its peak (RMS) but on the flexible
  crane, whose undamped 40.7 Hz base mode drifts in phase (1.4% at 1 ms,
  0.08% at 0.25 ms), which the iterated quadratic keeps within 0.07% at
  1 ms; the tests bound each example's error at about three times what it
  achieves (`tests/scenarios/test_example_accuracy.py`).
* The FMUs integrate with classic Runge–Kutta, at most 1 ms a step inside:
  over these runs their own error is below 1e-7 of the peaks, so what the
  tables show is the coupling's.

## Every example

Every example, over its first {example_stop:g} s, with Gauss–Seidel (the
fast, first-order choice), the iterated midpoint and the iterated
quadratic (passes until the values read from them settle; the examples'
own settings are in [master.md](master.md#the-examples-defaults)), against the monolithic run.
Error: the largest, over every force and moment the example outputs (N and
N·m, leaving out those that are zero but for round-off), of the RMS
difference over its peak, on the 20 ms grid all steps share.

![error versus step, every example](coupling_error_examples.png)

{examples}

## Components of their own steps

The examples with a vessel, the crane at 1 ms and the vessel at its own
step (Gauss–Seidel, which steps components of their own steps;
[master.md](master.md#components-of-their-own-steps)), over the whole run
of {multirate_stop:g} s against the monolithic run: the error (the same
norm as above) and the run's real-time factor (simulated over wall time,
the FMUs' set-up left out, the better of two runs).

{multirate}

{multirate_reading}

## The estimate

`--estimate` runs a second co-simulation at half the step beside the first
and takes the error of the first from their difference (Richardson
extrapolation, [master.md](master.md#estimating-the-coupling-error)).  At
{estimate_step:g} ms, the estimate's RMS over each force's peak, the worst of
them, against the error above (on the same points):

{estimates}

The estimate is within a few percent of the error where the error halves
(first order) or quarters (second order) as the step halves, and on the
flexible crane with the iterated quadratic; it costs about three times
the run's time.  An input that steps breaks that
scaling: the flexible crane's drive torque steps at a point of the grid,
and Gauss–Seidel, reading it a step late at any step, records there the
moment before the step, 0.99 of the peak away from the monolithic run's
moment after it.  That one point of 250 is 6.3% RMS on this grid at every
step from 0.5 ms down (1.4% on the 1 ms grid at 0.1 ms), so the
flexible crane's Gauss–Seidel error barely falls below 0.5 ms, and the
estimate, made on every step, is 0.84 of its RMS here and a third of its
largest.  Where the iterated quadratic's error is down at what
the reference resolves (the cranes on the vessel, the knuckle boom crane)
the error is the reference's, and the estimate, which knows only the
co-simulation, says so by being smaller.  Where it converges more slowly
than the fourth order the estimate assumes (the offshore knuckle boom,
whose friction makes it first order below 2 ms), the estimate is low:
0.55 of the error there.  `--tolerance TOL` uses the
largest to choose the step.
"""


def _table(head_cells, lines) -> list[str]:
    return ["| " + " | ".join(head_cells) + " |", "|---|" + "---|" * (len(head_cells) - 1),
            *("| " + " | ".join(cells) + " |" for cells in lines)]


def _cell(r) -> str:
    if r is None:
        return ""
    if r["error"] is None:
        return f"diverged at {r['diverged_at']:g} s"
    return f"{r['error']:.1e}"


def _multirate_tables(rows) -> str:
    """The table of the study of a vessel of its own step: per example, the
    error and the real-time factor at each vessel step."""
    steps = sorted({r["vessel_step"] for r in rows})
    head = ["example"] + [f"vessel at {h * 1e3:g} ms" for h in steps]
    lines = []
    for label in dict.fromkeys(r["example"] for r in rows):
        cells = [label]
        for h in steps:
            r = next((r for r in rows if r["example"] == label and r["vessel_step"] == h), None)
            cells.append(_cell(r) + ("" if r is None or r["error"] is None
                                     else f", {r['real_time_factor']:.1f}x real time"))
        lines.append(cells)
    return "\n".join(_table(head, lines))


def write_markdown(rows, examples, multirate, path: Path) -> None:
    tables = []
    steps = sorted({r["step"] for r in rows})
    head = ["variant"] + [f"{h * 1e3:g} ms" for h in steps]
    stop_time = rows[0]["stop_time"]
    for label in VESSELS:
        def find(coupling, algorithm, extrapolation, h):
            return next((r for r in rows if r["vessel"] == label and r["step"] == h and r["coupling"] == coupling
                         and r["algorithm"] == algorithm and r["extrapolation"] == extrapolation), None)
        errors = [[variant_name(*v)] + [_cell(find(*v, h)) for h in steps] for v in VARIANTS]
        walls = [[variant_name(*v)] + [f"{r['wall_s']:.1f}" if (r := find(*v, h)) else "" for h in steps]
                 for v in VARIANTS]
        tables.append("\n".join([f"### {label}", "", *_table(head, errors), "",
                                  f"Wall time [s] of each run of {stop_time:g} s:", "", *_table(head, walls)]))
    steps = sorted({r["step"] for r in examples})
    head = ["example, algorithm"] + [f"{h * 1e3:g} ms" for h in steps]
    def find(label, algorithm, h):
        return next((r for r in examples if r["example"] == label and r["algorithm"] == algorithm
                     and r["step"] == h), None)
    errors, walls, estimates = [], [], []
    for label in EXAMPLES:
        for algorithm in EXAMPLE_ALGORITHMS:
            name = f"{label}, {algorithm}"
            errors.append([name] + [_cell(find(label, algorithm, h)) for h in steps])
            walls.append([name] + [f"{r['wall_s']:.1f}" if (r := find(label, algorithm, h)) else "" for h in steps])
            r = find(label, algorithm, ESTIMATE_STEP)
            if r is not None and r.get("estimate") is not None:
                estimates.append([name, f"{r['error']:.2e}", f"{r['estimate']:.2e}",
                                  f"{r['estimate'] / r['error']:.2f}", f"{r['wall_s']:.1f}",
                                  f"{r['estimate_wall_s']:.1f}"])
    example_stop = examples[0]["stop_time"]
    page = _PAGE.format(date=datetime.date.today().isoformat(),
                        machine=f"{platform.machine()}, Python {platform.python_version()}",
                        stop=stop_time, tables="\n\n".join(tables), example_stop=example_stop,
                        examples="\n".join([*_table(head, errors), "", f"Wall time [s] of each run of "
                                                                      f"{example_stop:g} s:", "",
                                            *_table(head, walls)]),
                        estimates="\n".join(_table(["example, algorithm", "error", "estimate", "ratio",
                                                     "wall time [s]", "with the estimate [s]"], estimates)),
                        estimate_step=ESTIMATE_STEP * 1e3, multirate=_multirate_tables(multirate),
                        multirate_stop=multirate[0]["stop_time"], multirate_reading=_multirate_reading(multirate))
    path.write_text(page)


def variant_name(coupling, algorithm, extrapolation) -> str:
    return f"{coupling}, {algorithm}" + (", midpoint inputs" if extrapolation == "midpoint" else "")


def _plot(panels, path: Path, ylabel: str, limit: float) -> None:
    """Error versus step on log axes, a panel a ``(title, {curve name:
    rows})``; a diverged run is an x at 1, ``limit`` a dashed line."""
    # matplotlib only where the figures are drawn
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(panels), figsize=(11, 5.2), sharey=True)
    for ax, (title, curves) in zip(axes, panels):
        for name, sel in curves.items():
            ok = [r for r in sel if r["error"] is not None]
            line, = ax.loglog([r["step"] * 1e3 for r in ok], [r["error"] for r in ok], "o-", label=name)
            bad = [r for r in sel if r["error"] is None]
            if bad:
                ax.loglog([r["step"] * 1e3 for r in bad], [1.0] * len(bad), "x", color=line.get_color(),
                          markersize=9)
        ax.axhline(limit, color="grey", lw=0.8, ls="--")
        ax.set_title(title)
        ax.set_xlabel("macro step [ms]")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel(ylabel)
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.14, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_study(rows, path: Path) -> None:
    panels = [(label, {variant_name(*v): [r for r in rows if r["vessel"] == label
                                          and (r["coupling"], r["algorithm"], r["extrapolation"]) == v]
                       for v in VARIANTS}) for label in VESSELS]
    _plot(panels, path, "interface wrench error / peak (RMS); x: diverged", 0.01)


def plot_examples(rows, path: Path) -> None:
    panels = [(algorithm, {label: [r for r in rows if r["example"] == label and r["algorithm"] == algorithm]
                           for label in EXAMPLES}) for algorithm in EXAMPLE_ALGORITHMS]
    _plot(panels, path, "worst force or moment error / peak (RMS); x: diverged", 1e-3)
