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

import fnmatch
import math
import re
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError, did_you_mean  # noqa: E402
from ..files.results import PLOTS_FOLDER, component_models, model_of, read_results, read_summary, replaced  # noqa: E402
from .display_units import PLAIN_NUMBERS, display_unit  # noqa: E402
from .legends import readable  # noqa: E402

# (file stem, title, the variable that must be there, [axes: variable pattern, ...])
# Patterns match the variable part of ``component.variable``; set-points
# (``<variable>_ref``) are drawn dashed beside their variable.  A variable
# is drawn in the first figure that has it: the knuckle boom crane's
# coordinates (slew angle, cylinder extensions) come before the joints'
# angles, which its slew angle is one of.
_PANELS = [
    ("vessel_motion", "Vessel roll, pitch and yaw", r"q_roll", [r"q_(roll|pitch|yaw)"]),
    # Fig. 8 of Jarzębowska, Urbaś & Augustynek (2018)
    ("base_motion", "Base on its supports: displacements, tilts and the vertical support forces", r"F_sup1_z",
     [r"q_[xyz]", r"q_(roll|pitch|yaw)", r"F_sup\d+_z"]),
    ("programme", "Programmed motion: the residuals of the path and the height, the luffing torques it takes",
     r"path_error", [r"(path|height)_error", r"tau_prog_(boom|jib)"]),
    ("boom_deflection", "Boom tip deflection relative to the rigid boom, boom axes", r"defl_y", [r"defl_[xyz]"]),
    ("crane_coordinates", "Crane coordinates: slew angle and cylinder extensions", r"q_boom_cyl",
     [r"q_slew", r"q_(boom|jib)_cyl"]),
    ("crane_joints", "Crane joints", r"q_boom", [r"q_(slew|boom|jib)"]),
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


def plot_run(out_dir) -> list[Path]:
    """Write the plots of the run in ``out_dir`` to ``out_dir/plots``; returns
    the files.  Each variable is drawn once, in the first figure of
    :data:`_PANELS` that holds it (the knuckle boom crane's slew angle is
    a coordinate of its, beside the cylinders' extensions, not again among
    the joints' angles); legends name it in words with its paper's symbol
    (``reports/legends.py``), beside the axes; on a force or moment axis
    each line's largest magnitude is marked with its value."""
    out_dir = Path(out_dir)
    df, units, models, plot_dir = _run_read(out_dir)
    written, drawn = [], set()
    for stem, title, needs, rows in _PANELS:
        if not _columns(df, needs) or (stem in _UNLESS and _columns(df, _UNLESS[stem])):
            continue
        groups = [cols for pattern in rows if (cols := [c for c in _columns(df, pattern) if c not in drawn])]
        if not groups:
            continue
        drawn.update(c for cols in groups for c in cols)
        written.append(_figure(df, groups, units, models, title, plot_dir / f"{stem}.png"))
    path = _end_effector_path(df, plot_dir, out_dir)
    return written + ([path] if path else [])


def plot_chosen(out_dir, patterns) -> Path:
    """The columns of the run in ``out_dir`` that ``patterns`` name
    (``component.variable``, shell wildcards allowed: ``run --plot``) over
    time, an axes per unit, in ``out_dir/plots/chosen.png``; a pattern that
    names no recorded column is :class:`CraneCosimError` in one sentence."""
    df, units, models, plot_dir = _run_read(Path(out_dir))
    recorded = [c for c in df.columns if c != "time"]
    chosen = []
    for pattern in patterns:
        found = fnmatch.filter(recorded, pattern)
        if not found:
            raise CraneCosimError(f"--plot {pattern}: the run recorded no such column"
                                  f"{did_you_mean(pattern, recorded)}")
        chosen += [c for c in found if c not in chosen]
    by_unit: dict[str, list[str]] = {}
    for c in chosen:
        by_unit.setdefault(units.get(c, ""), []).append(c)
    title = ", ".join(chosen) if len(chosen) <= 4 else f"{len(chosen)} variables"
    return _figure(df, list(by_unit.values()), units, models, title, plot_dir / "chosen.png")


def _run_read(out_dir: Path):
    """``(df, units, models, plot_dir)`` of the run in ``out_dir``: its
    results (infinities as NaN: a run stopped by a diverging model ends in
    huge or infinite values, and what is finite is plotted), its columns'
    units, its components' models, and its plots' folder, made."""
    df = read_results(out_dir).replace([np.inf, -np.inf], np.nan)
    summary = read_summary(out_dir)
    plot_dir = out_dir / PLOTS_FOLDER
    plot_dir.mkdir(exist_ok=True)
    return df, summary.get("units", {}), component_models(summary), plot_dir


def _figure(df, groups, units: dict, models: dict, title: str, path: Path) -> Path:
    """A figure of an axes per group of columns over time, titled, saved
    as the PNG ``path``."""
    with plt.rc_context(PLAIN_NUMBERS):
        fig, axes = plt.subplots(len(groups), 1, figsize=(10, 3.2 * len(groups)), sharex=True, squeeze=False)
        for ax, cols in zip(axes[:, 0], groups):
            _draw_axes(ax, df, cols, units, models)
        axes[-1, 0].set_xlabel("time [s]")
        fig.suptitle(title)
        fig.tight_layout()
    return _saved(fig, path)


#: SI units whose lines have their largest magnitude marked: what a crane's
#: structure is checked against
_PEAK_UNITS = ("N", "N.m")


def _draw_axes(ax, df, cols, units: dict, models: dict) -> None:
    """The columns ``cols`` of ``df`` over time on ``ax``, in the display
    unit of their largest value, each with its set-point dashed beside it,
    the legend outside the axes on the right (where no line or mark can
    hide behind it), and, in N or N.m, each line's peak marked."""
    # the set-point of a variable, from whichever component outputs it
    refs = {c: next((r for r in df.columns if r.endswith("." + c.split(".", 1)[1] + "_ref")), None) for c in cols}
    shown = cols + [r for r in refs.values() if r]
    values = np.abs(df[shown].to_numpy(float))
    peak = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
    si_unit = units.get(cols[0], "")
    label, size = display_unit(si_unit, peak)
    # two components' variables of one name (the cylinders' forces) are told apart by their components
    variables = [c.split(".", 1)[1] for c in cols]
    time = df["time"].to_numpy(float)
    for k, c in enumerate(cols):
        component, variable = c.split(".", 1)
        name = readable(c, models.get(component), with_component=variables.count(variable) > 1)
        y = df[c].to_numpy(float) / size
        line, = ax.plot(time, y, label=name)
        if refs[c]:
            # the set-point is the variable's: named after it, not after the controller's output
            ax.plot(time, df[refs[c]].to_numpy(float) / size, "--", color=line.get_color(),
                    label=readable(c.split(".", 1)[0] + "." + variable + "_ref", models.get(component),
                                   with_component=variables.count(variable) > 1))
        if si_unit in _PEAK_UNITS:
            _mark_peak(ax, time, y, size, si_unit, line.get_color(), k)
    ax.set_ylabel(f"[{label}]")
    ax.grid(True, alpha=0.3)
    ax.margins(y=0.15)  # room for the peaks' values inside the axes
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, borderaxespad=0.0)


def _mark_peak(ax, time, y, size: float, si_unit: str, color, k: int) -> None:
    """A small marker on the largest magnitude of ``y`` (drawn in a unit of
    ``size`` times ``si_unit``) and its value beside it, in the unit that
    suits that value (a 172 kN peak on an axis of MN reads "172 kN"), away
    from the line's side of the axis and inward from the axes' ends; the
    ``k``-th line of an axes its text a little further out, so that peaks at
    one time stand apart."""
    if not np.isfinite(y).any():
        return
    i = int(np.nanargmax(np.abs(y)))
    unit, own = display_unit(si_unit, abs(y[i]) * size)
    up = y[i] >= 0
    late = time[i] > time[0] + 0.75 * (time[-1] - time[0])
    ax.plot(time[i], y[i], "o", ms=4, color=color, zorder=3)
    ax.annotate(f"{y[i] * size / own:.3g} {unit}", (time[i], y[i]),
                xytext=(-4 if late else 4, (4 + 9 * k) * (1 if up else -1)), textcoords="offset points",
                fontsize=7, color=color, ha="right" if late else "left", va="bottom" if up else "top",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.75})


def _end_effector_path(df, plot_dir: Path, out_dir: Path) -> Path | None:
    """The end effector's path in the ground plane (Fig. 6e of Jarzębowska,
    Urbaś & Augustynek 2018), with the programmed ellipse when the crane
    follows one (its semi-axes are the component's ``a_E``, ``b_E``): for
    the first component that can follow a programmed path, whose tip is E."""
    components = [c.split(".", 1)[0] for c in _columns(df, r"tip_p_x") if _follows_paths(out_dir, c.split(".", 1)[0])]
    if not components:
        return None
    x, y = df[f"{components[0]}.tip_p_x"].to_numpy(), df[f"{components[0]}.tip_p_y"].to_numpy()
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.plot(x, y, label="end effector E")
    ax.plot(x[:1], y[:1], "o", label="start")
    axes = _ellipse(out_dir, components[0])
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
    return _saved(fig, plot_dir / "end_effector_path.png")


def _saved(fig, path: Path) -> Path:
    """``fig`` written to the PNG ``path`` and closed: under a temporary
    name first, so that a write that fails (a full disk) leaves no empty or
    partial plot under the figure's name."""
    try:
        return replaced(path, lambda part: fig.savefig(part, dpi=110, format="png"))
    finally:
        plt.close(fig)


def _component(out_dir: Path, component: str) -> tuple[dict, type] | tuple[None, None]:
    """``component``'s entry in the run's ``summary.json`` and its block
    class, or ``(None, None)`` where either is not known."""
    components = read_summary(out_dir).get("components")
    comp = components.get(component) if isinstance(components, dict) else None
    block = BLOCKS.get(model_of(comp)) if isinstance(comp, dict) else None
    return (comp, block) if block is not None else (None, None)


def _follows_paths(out_dir: Path, component: str) -> bool:
    """Whether ``component`` is a crane that can follow a programmed path."""
    block = _component(out_dir, component)[1]
    return block is not None and "a_E" in {p.name for p in block.parameters}


def _ellipse(out_dir: Path, component: str) -> tuple[float, float] | None:
    """The semi-axes of the ellipse ``component`` was programmed to follow
    (from the run's ``summary.json``), or None if it followed none."""
    comp, block = _component(out_dir, component)
    if not _follows_paths(out_dir, component):
        return None
    values = {p.name: p.start for p in block.parameters} | dict(comp.get("parameters") or {})
    if not values.get("programmed"):
        return None
    return float(values["a_E"]), float(values["b_E"])
