"""PNG plots of a run, like Fig. 7 of 000_4c348684ef4bc307.txt: vessel
angles, crane joints, and the interface forces and moments in Frame 1 and
Frame 2.  Columns are found by name (``*.q1``, ``*.W1_fx`` ...), so any
system with those outputs gets the same plots."""
from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .results import read_results  # noqa: E402


def _columns(df, pattern):
    rx = re.compile(pattern)
    return [c for c in df.columns if rx.fullmatch(c)]


_PANELS = [
    ("vessel_angles", "Vessel angles", [(r"vessel\.q[123]", "angle [rad]")]),
    ("crane_joints", "Crane joints", [(r"crane\.q[456]", "angle [rad]"), (r"controller\.q[456]_ref", None)]),
    ("crane_coordinates", "Crane coordinates: slew [rad], piston extensions [m]",
     [(r"crane\.q[123]", "q"), (r"controller\.q[123]_ref", None)]),
    ("crane_speeds", "Crane generalized speeds [rad/s, m/s]", [(r"crane\.u[123]", "u")]),
    ("interface_frame1", "Wrench of the mount on the king (Joint 1), mount frame",
     [(r"crane\.W1_f[xyz]", "force [N]"), (r"crane\.W1_n[xyz]", "moment [N m]")]),
    ("interface_frame2", "Wrench of the mount on the king (Joint 1), king frame",
     [(r"crane\.W2_f[xyz]", "force [N]"), (r"crane\.W2_n[xyz]", "moment [N m]")]),
    ("joint2_reactions", "Reaction in Joint 2, Frame 2", [(r"crane\.J2_f[xyz]", "force [N]"),
                                                          (r"crane\.J2_n[xyz]", "moment [N m]")]),
    ("joint3_reactions", "Reaction in Joint 3, Frame 3", [(r"crane\.J3_f[xyz]", "force [N]"),
                                                          (r"crane\.J3_n[xyz]", "moment [N m]")]),
    ("actuation", "Actuation demands", [(r"controller\.T1", "torque [N m]"), (r"controller\.F[23]", "force [N]")]),
    ("cylinders", "Hydraulic cylinders", [(r"cylinder[23]\.F", "force [N]"), (r"cylinder[23]\.p_[AB]", "pressure [Pa]"),
                                          (r"controller\.valve[23]", "valve command [1]")]),
]


def plot_run(out_dir) -> list[Path]:
    """Write the plots of the run in ``out_dir`` to ``out_dir/plots``; returns the files."""
    out_dir = Path(out_dir)
    # a run stopped by a diverging model ends in huge or infinite values:
    # plot what is finite
    df = read_results(out_dir).replace([np.inf, -np.inf], np.nan)
    plot_dir = out_dir / "plots"
    plot_dir.mkdir(exist_ok=True)
    written = []
    for stem, title, rows in _PANELS:
        groups = [(cols, label) for pat, label in rows if (cols := _columns(df, pat))]
        if not groups:
            continue
        if len(rows) == 2 and rows[1][1] is None:  # set-points drawn dashed on the same axes
            axes_groups = [(groups[0][0], groups[0][1], groups[1][0] if len(groups) > 1 else [])]
        else:
            axes_groups = [(cols, label, []) for cols, label in groups]
        fig, axes = plt.subplots(len(axes_groups), 1, figsize=(8, 3.2 * len(axes_groups)), sharex=True,
                                 squeeze=False)
        for ax, (cols, label, dashed) in zip(axes[:, 0], axes_groups):
            for c in cols:
                line, = ax.plot(df["time"], df[c], label=c)
                ref = [d for d in dashed if d.startswith(c.split(".")[1] + "_ref") or d.endswith("." + c.split(".")[1] + "_ref")]
                for d in ref:
                    ax.plot(df["time"], df[d], "--", color=line.get_color(), label=d)
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
            ax.legend(loc="best", fontsize=8, ncol=2)
        axes[-1, 0].set_xlabel("time [s]")
        fig.suptitle(title)
        fig.tight_layout()
        path = plot_dir / f"{stem}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written
