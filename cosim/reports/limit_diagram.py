"""The limit diagram of an operability study (``studies/operability.py``):
per heading, the sea states of the grid by peak period and significant
wave height, each coloured by its largest utilisation and marked with the
criterion that governs it and the seeds it ran, and the largest safe
height per peak period drawn over them; other studies' limits (the same
lift one way coupled, or without heave compensation) beside it, dashed."""
from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

__all__ = ["write_limit_diagram", "MARKERS"]

#: how a limit is drawn by how it was found (``operability_cells.limits_of``)
MARKERS = {"interpolated": "o", "at least": "^", "below": "v"}
#: short names of the criteria, as the cells are marked
SHORT = {"tension": "SWL", "daf": "DAF", "slack": "slack"}


def _short(name: str) -> str:
    return SHORT.get(name, name.rpartition(".")[2])


def _limit_line(ax, limits: pd.DataFrame, style: dict, label: str) -> None:
    g = limits.sort_values("Tp")
    # a limit below the grid's smallest height is drawn at 0: nothing of the grid is safe there
    hs = g["Hs_limit"].where(g["limit"] != "below", 0.0)
    ax.plot(g["Tp"], hs, label=label, **style)
    for kind, marker in MARKERS.items():
        part = g["limit"] == kind
        if part.any():
            ax.scatter(g["Tp"][part], hs[part], marker=marker, color=style.get("color", "k"), zorder=4, s=36,
                       clip_on=False)


def write_limit_diagram(path, cells: pd.DataFrame, limits: pd.DataFrame, title: str = "",
                        others: dict | None = None, label: str = "this study") -> Path:
    """The diagram of ``cells`` and ``limits`` (``studies/operability.py``'s
    tables) at ``path`` (PNG, or SVG by its suffix), its limit named
    ``label``; ``others``: ``{label: limits}`` of other studies, drawn
    beside."""
    path = Path(path)
    headings = sorted(cells["heading"].unique())
    fig, axes = plt.subplots(1, len(headings), figsize=(5.2 * len(headings), 4.6), squeeze=False, sharey=True)
    # above twice the limit every cell is as red: the scale's detail is kept for the cells near 1
    norm = TwoSlopeNorm(vmin=0.0, vcenter=1.0, vmax=2.0)
    tp_all, hs_all = np.sort(cells["Tp"].unique()), np.sort(cells["Hs"].unique())
    dtp = np.min(np.diff(tp_all)) if tp_all.size > 1 else 1.0
    dhs = np.min(np.diff(hs_all)) if hs_all.size > 1 else 1.0
    colours = ScalarMappable(norm=norm, cmap="RdYlGn_r")
    for ax, heading in zip(axes[0], headings):
        here = cells[cells["heading"] == heading]
        for _, row in here.iterrows():
            # a cell as large as the grid's closest spacing allows, whatever the heights asked
            ax.add_patch(Rectangle((row["Tp"] - 0.4 * dtp, row["Hs"] - 0.45 * dhs), 0.8 * dtp, 0.9 * dhs,
                                   facecolor=colours.to_rgba(min(row["utilisation"], 2.0)), edgecolor="0.4",
                                   zorder=2))
        for _, row in here.iterrows():
            ax.annotate(f"{row['utilisation']:.2f}\n{_short(row['governs'])}\nn={int(row['seeds'])}",
                        (row["Tp"], row["Hs"]), ha="center", va="center", fontsize=6.5, zorder=3)
        _limit_line(ax, limits[limits["heading"] == heading], {"color": "k", "lw": 2}, label)
        for k, (label, other) in enumerate((others or {}).items()):
            _limit_line(ax, other[other["heading"] == heading],
                        {"color": f"C{k}", "lw": 1.5, "ls": "--"}, label)
        ax.set_title(f"heading {heading:g} deg")
        ax.set_xlabel("peak period Tp [s]")
        ax.set_xlim(tp_all[0] - dtp, tp_all[-1] + dtp)
        ax.set_ylim(0.0, hs_all[-1] + dhs)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("significant wave height Hs [m]")
    # below the axes, where no sea state lies under it
    axes[0][-1].legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=8)
    fig.colorbar(colours, ax=axes[0].tolist(), extend="max", label="largest utilisation (1: at the limit)")
    fig.suptitle(title or "Largest safe Hs: ● where the utilisation crosses 1, ▲ at least the grid's largest, "
                          "▼ below its smallest", fontsize=10)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path
