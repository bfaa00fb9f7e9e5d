"""PNG plots of a run, like Fig. 7 of Cibicik & Egeland (2018): vessel
motion, crane coordinates with their set-points, the wrench at the mount in
mount and king axes, the joint reactions, the actuation and the hydraulic
cylinders.

Columns are found by variable name, whatever the component is called
(``*.q_roll``, ``*.W_mount_fx`` ...; ``docs/names.md``), so any system with
those outputs gets the same plots; a figure whose defining quantity the run
does not have is not drawn.  Values are shown in the units engineers read:
forces in N, kN or MN and moments in N·m, kN·m or MN·m (whichever keeps the
numbers between 1 and 1000), pressures in bar, angles in degrees.  The SI
unit of each column comes from the run's ``summary.json``.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..files.results import PLOTS_FOLDER, SUMMARY_FILE, read_results  # noqa: E402
from .units import DISPLAY_UNITS, display_unit  # noqa: E402,F401 (imported from here by others)

# (file stem, title, the variable that must be there, [axes: variable pattern, ...])
# Patterns match the variable part of ``component.variable``; set-points
# (``<variable>_ref``) are drawn dashed beside their variable.
_PANELS = [
    ("vessel_motion", "Vessel roll, pitch and yaw", r"q_roll", [r"q_(roll|pitch|yaw)"]),
    # Fig. 8 of Jarzębowska, Urbaś & Augustynek (2018)
    ("base_motion", "Base on its supports: displacements, tilts and the vertical support forces", r"F_sup1_z",
     [r"q_[xyz]", r"q_(roll|pitch|yaw)", r"F_sup\d+_z"]),
    ("programme", "Programmed motion: the residuals of the path and the height, the luffing torques it takes",
     r"path_error", [r"(path|height)_error", r"tau_prog_(boom|jib)"]),
    ("boom_deflection", "Boom tip deflection relative to the rigid boom, boom axes", r"defl_y", [r"defl_[xyz]"]),
    ("crane_joints", "Crane joints", r"q_boom", [r"q_(slew|boom|jib)"]),
    ("crane_coordinates", "Crane coordinates: slew angle and cylinder extensions", r"q_boom_cyl",
     [r"q_slew", r"q_(boom|jib)_cyl"]),
    ("crane_speeds", "Crane speeds: slew rate and cylinder extension rates", r"u_boom_cyl",
     [r"u_slew", r"u_(boom|jib)_cyl"]),
    ("interface_mount", "Wrench of the vessel on the king at the mount, mount (deck) axes", r"W_mount_fz",
     [r"W_mount_f[xyz]", r"W_mount_n[xyz]"]),
    ("interface_king", "Wrench of the vessel on the king at the mount, king axes", r"W_king_fz",
     [r"W_king_f[xyz]", r"W_king_n[xyz]"]),
    ("boom_joint", "Reaction of the king on the boom in the boom joint, boom frame", r"W_boom_fz",
     [r"W_boom_f[xyz]", r"W_boom_n[xyz]"]),
    ("jib_joint", "Reaction of the boom on the jib in the jib joint, jib frame", r"W_jib_fz",
     [r"W_jib_f[xyz]", r"W_jib_n[xyz]"]),
    ("actuation", "Actuation demands", r"(tau_(slew|boom|jib)|F_(boom|jib)_cyl)",
     [r"tau_(slew|boom|jib)", r"F_(boom|jib)_cyl"]),
    ("cylinders", "Hydraulic cylinders", r"p_A", [r"F", r"p_[AB]", r"valve_\w+"]),
    ("friction", "Joint friction: torques, seal forces, coefficients and the energy it took out", r"E_f",
     [r"tau_f_\w+", r"F_f_\w+", r"mu_\w+", r"E_f(_\w+)?"]),
]


#: a panel not drawn when the run has this variable (a supported base has
#: its own panel, with its heave)
_UNLESS = {"vessel_motion": r"F_sup1_z"}


def _columns(df, pattern):
    rx = re.compile(r"[^.]+\." + pattern)
    return [c for c in df.columns if rx.fullmatch(c)]


def _units(out_dir: Path) -> dict:
    try:
        return json.loads((out_dir / SUMMARY_FILE).read_text()).get("units", {})
    except (OSError, ValueError):
        return {}


def plot_run(out_dir) -> list[Path]:
    """Write the plots of the run in ``out_dir`` to ``out_dir/plots``; returns the files."""
    out_dir = Path(out_dir)
    # a run stopped by a diverging model ends in huge or infinite values:
    # plot what is finite
    df = read_results(out_dir).replace([np.inf, -np.inf], np.nan)
    units = _units(out_dir)
    plot_dir = out_dir / PLOTS_FOLDER
    plot_dir.mkdir(exist_ok=True)
    written = []
    for stem, title, needs, rows in _PANELS:
        if not _columns(df, needs) or (stem in _UNLESS and _columns(df, _UNLESS[stem])):
            continue
        groups = [cols for pattern in rows if (cols := _columns(df, pattern))]
        fig, axes = plt.subplots(len(groups), 1, figsize=(8, 3.2 * len(groups)), sharex=True, squeeze=False)
        for ax, cols in zip(axes[:, 0], groups):
            # the set-point of a variable, from whichever component outputs it
            refs = {c: next((r for r in df.columns if r.endswith("." + c.split(".", 1)[1] + "_ref")), None)
                    for c in cols}
            shown = cols + [r for r in refs.values() if r]
            values = np.abs(df[shown].to_numpy())
            peak = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
            label, size = display_unit(units.get(cols[0], ""), peak)
            for c in cols:
                line, = ax.plot(df["time"], df[c] / size, label=c)
                if refs[c]:
                    ax.plot(df["time"], df[refs[c]] / size, "--", color=line.get_color(), label=refs[c])
            ax.set_ylabel(f"[{label}]")
            ax.grid(True, alpha=0.3)
            ax.legend(loc="best", fontsize=8, ncol=2)
        axes[-1, 0].set_xlabel("time [s]")
        fig.suptitle(title)
        fig.tight_layout()
        path = plot_dir / f"{stem}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    path = _end_effector_path(df, plot_dir, out_dir)
    return written + ([path] if path else [])


def _end_effector_path(df, plot_dir: Path, out_dir: Path) -> Path | None:
    """The end effector's path in the ground plane (Fig. 6e of Jarzębowska,
    Urbaś & Augustynek 2018), with the programmed ellipse when the crane
    follows one (its semi-axes are the component's ``a_E``, ``b_E``)."""
    xs, ys = _columns(df, r"p_E_x"), _columns(df, r"p_E_y")
    if not xs or not ys:
        return None
    x, y = df[xs[0]].to_numpy(), df[ys[0]].to_numpy()
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.plot(x, y, label="end effector E")
    ax.plot(x[:1], y[:1], "o", label="start")
    axes = _ellipse(out_dir, xs[0].split(".", 1)[0])
    if axes:
        t = np.linspace(0.0, 2 * math.pi, 361)
        ax.plot(axes[0] * np.cos(t), axes[1] * np.sin(t), "--", color="0.5",
                label=f"programmed ellipse, a = {axes[0]:g} m, b = {axes[1]:g} m")
    ax.set_xlabel("x0 [m]")
    ax.set_ylabel("y0 [m]")
    ax.set_aspect("equal", adjustable="datalim")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    ax.set_title("End effector in the ground plane")
    fig.tight_layout()
    path = plot_dir / "end_effector_path.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _ellipse(out_dir: Path, component: str) -> tuple[float, float] | None:
    """The semi-axes of the ellipse ``component`` was programmed to follow
    (from the run's ``summary.json``), or None if it followed none."""
    from ..blocks import BLOCKS
    try:
        comp = json.loads((out_dir / SUMMARY_FILE).read_text())["components"][component]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    block = BLOCKS.get(Path(str(comp.get("source", ""))).stem)
    if block is None or "a_E" not in {p.name for p in block.parameters}:
        return None
    values = {p.name: p.start for p in block.parameters} | dict(comp.get("parameters") or {})
    if not values.get("programmed"):
        return None
    return float(values["a_E"]), float(values["b_E"])
