"""The figures of a fatigue study (``cosim/studies/fatigue.py``): each
case's records with their extremes, its rainflow matrices, and the
lifetime DELs of every case.  Every number carries its unit: each signal
is shown in the unit that keeps it between 1 and 1000 (kN or MN, kN·m or
MN·m; ``reports/display_units.py``), the unit in the axis label, no offset or
scale factor over an axis."""
from __future__ import annotations

import math
import re
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from .display_units import PLAIN_NUMBERS, display_unit  # noqa: E402


def file_stem(case: str) -> str:
    """A case's name as the start of a file name: "OffshoreKnuckleBoom
    (results)" -> "OffshoreKnuckleBoom_results"."""
    return re.sub(r"[^\w.-]+", "_", case).strip("_") or "case"


def _unit_of(si_unit: str, peak: float) -> tuple[str, float]:
    """The display unit and its size in SI of a signal in ``si_unit``; a
    signal of unknown unit ("1": a combination of columns of different
    units) in thousands, millions ... of whatever its unit is, said so."""
    if si_unit != "1":
        return display_unit(si_unit, peak)
    power = 3 * math.floor(math.log10(peak) / 3) if peak > 0 else 0
    return (f"1e{power}, unit unknown" if power else "unit unknown"), 10.0 ** power


def _saved(fig, title: str, path: Path) -> Path:
    """``fig`` under ``title`` written to ``path`` and closed: laid out
    tight but for the title's own 0.35 inch at the top."""
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _peak(*arrays) -> float:
    values = np.abs(np.concatenate([np.ravel(np.asarray(a, float)) for a in arrays])) if arrays else np.zeros(0)
    values = values[np.isfinite(values)]
    return float(values.max()) if values.size else 0.0


def plot_fatigue(out_dir, cases, records, slopes) -> list[Path]:
    """The figures of a fatigue study in ``out_dir``: per case (``records``:
    case -> its times [s], signals and their counted cycles, in SI units),
    ``<case>_records.png`` (each signal over time, its largest and smallest
    values marked with their values), ``<case>_rainflow.png`` (each
    signal's cycles by mean and range), and ``del.png`` (each signal's
    lifetime DEL per case, for each slope).  ``cases``: the per-case table
    of the study, whose column ``unit`` gives each signal's SI unit."""
    out_dir = Path(out_dir)
    units = dict(zip(cases["signal"], cases["unit"]))
    written = []
    with plt.rc_context(PLAIN_NUMBERS):
        for case, (time, signals, counted) in records.items():
            written.append(_records(out_dir, case, time, signals, units))
            written.append(_rainflow(out_dir, case, signals, counted, units))
        written.append(_dels(out_dir, cases, slopes, units))
    return written


def _records(out_dir: Path, case: str, time, signals: dict, units: dict) -> Path:
    """Each signal of a case over time, its largest and smallest values
    marked and written with their unit."""
    n = len(signals)
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.4 * n), sharex=True, squeeze=False)
    for ax, (name, y) in zip(axes[:, 0], signals.items()):
        label, size = _unit_of(units.get(name, ""), _peak(y))
        shown = np.asarray(y, float) / size
        ax.plot(time, shown, lw=0.8)
        for k, marker, va in ((int(np.nanargmax(shown)), "^", "bottom"), (int(np.nanargmin(shown)), "v", "top")):
            ax.plot(time[k], shown[k], marker, color="C3", ms=5)
            ax.annotate(f"{shown[k]:.3g} {label}", (time[k], shown[k]), fontsize=7, xytext=(5, 0),
                        textcoords="offset points", va=va)
        ax.margins(y=0.2)  # room for the extremes' values inside the axes
        ax.set_ylabel(f"{name}\n[{label}]", fontsize=7)
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("time [s]")
    return _saved(fig, f"{case}: records, extremes marked", out_dir / f"{file_stem(case)}_records.png")


def _rainflow(out_dir: Path, case: str, signals: dict, counted: dict, units: dict) -> Path:
    """The rainflow matrix of each signal of a case: cycles by mean and
    range, in the signal's display unit, with few enough ticks on the mean
    axis that their labels stand apart (they overlapped at 24 bins in a 4
    inch panel with numbers of six digits)."""
    n = len(signals)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False)
    for ax, name in zip(axes.ravel(), signals):
        c = counted[name]
        label, size = _unit_of(units.get(name, ""), _peak(c["mean"], c["range"]) if len(c) else 0.0)
        if len(c):
            h = ax.hist2d(c["mean"] / size, c["range"] / size, bins=24, weights=c["count"], cmin=0.5,
                          cmap="viridis")
            fig.colorbar(h[3], ax=ax, label="cycles")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.yaxis.set_major_locator(MaxNLocator(nbins=5))
        ax.tick_params(axis="x", labelrotation=30, labelsize=7)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title(name, fontsize=8)
        ax.set_xlabel(f"mean [{label}]", fontsize=8)
        ax.set_ylabel(f"range [{label}]", fontsize=8)
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return _saved(fig, f"{case}: rainflow matrix", out_dir / f"{file_stem(case)}_rainflow.png")


def _dels(out_dir: Path, cases, slopes, units: dict) -> Path:
    """Each signal's lifetime DEL per case and slope, in its display unit."""
    names = list(dict.fromkeys(cases["signal"]))
    fig, axes = plt.subplots(len(names), 1, figsize=(8, 2.4 * len(names)), squeeze=False)
    labels = list(dict.fromkeys(cases["case"]))
    x = np.arange(len(labels))
    columns = [f"DEL_m{m:g}" for m in slopes]
    for ax, name in zip(axes[:, 0], names):
        rows = cases[cases["signal"] == name].set_index("case").loc[labels]
        label, size = _unit_of(units.get(name, ""), _peak(rows[columns].to_numpy(float)))
        for j, column in enumerate(columns):
            ax.bar(x + (j - (len(slopes) - 1) / 2) * 0.8 / len(slopes), rows[column] / size, 0.8 / len(slopes),
                   label=f"m = {slopes[j]:g}")
        ax.set_ylabel(f"{name}\n[{label}]", fontsize=7)
        ax.set_xticks(x, labels, fontsize=7, rotation=30, ha="right")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize=7)
    return _saved(fig, "lifetime damage-equivalent load per case", out_dir / "del.png")
