"""Readable names of recorded variables, for legends and titles: the
vocabulary of ``docs/names.md`` in words, with the symbol of the paper the
component's model follows where it has one ("slew angle q4" on the crane
of Cibicik & Egeland 2018, "slew angle q1" on the knuckle boom crane of
Cibicik & Egeland 2019).

Everything is derived from one table, :data:`QUANTITIES` (a coordinate,
an actuation or a friction output: its words and its symbol in each
paper), and from the rules of ``docs/names.md``: a rate ``u_<name>`` and
an acceleration ``du_<name>`` of a coordinate ``q_<name>``, a set-point
``<variable>_ref``, and a wrench ``W_<body>_<n|f><x|y|z>`` ("force x
(mount axes)").  A variable the table does not know keeps its name.
"""
from __future__ import annotations

import re

from ..blocks.registry import BLOCKS

#: the papers, by the key their symbols have in :data:`QUANTITIES`
CIBICIK_2018, CIBICIK_2019, JARZEBOWSKA_2018 = "Cibicik & Egeland 2018", "Cibicik & Egeland 2019", \
    "Jarzębowska et al. 2018"

#: the paper whose symbols each of the project's models takes, as the
#: block declares it (``Block.symbols_of``)
MODEL_PAPERS = {name: cls.symbols_of for name, cls in BLOCKS.items() if cls.symbols_of}

#: variable -> (its name in words, {paper: its symbol there, matplotlib
#: mathtext}, whether it names a thing only with its component: the
#: hydraulic cylinder's force and pressures are "boom cylinder: ...")
QUANTITIES = {
    # coordinates (docs/names.md, "Bodies, joints and coordinates")
    "q_roll": ("roll", {CIBICIK_2018: "q_1", JARZEBOWSKA_2018: r"\varphi^{(b)}"}, False),
    "q_pitch": ("pitch", {CIBICIK_2018: "q_2", JARZEBOWSKA_2018: r"\theta^{(b)}"}, False),
    "q_yaw": ("yaw", {CIBICIK_2018: "q_3", JARZEBOWSKA_2018: r"\psi^{(b)}"}, False),
    "q_surge": ("surge", {}, False),
    "q_sway": ("sway", {}, False),
    "q_heave": ("heave", {}, False),
    "q_x": ("base x", {JARZEBOWSKA_2018: "x^{(b)}"}, False),
    "q_y": ("base y", {JARZEBOWSKA_2018: "y^{(b)}"}, False),
    "q_z": ("base z", {JARZEBOWSKA_2018: "z^{(b)}"}, False),
    "q_slew": ("slew angle", {CIBICIK_2018: "q_4", CIBICIK_2019: "q_1", JARZEBOWSKA_2018: r"\psi^{(c,1)}"}, False),
    "q_boom": ("boom angle", {CIBICIK_2018: "q_5", CIBICIK_2019: r"\alpha_2", JARZEBOWSKA_2018: r"\psi^{(c,2,0)}"},
               False),
    "q_jib": ("jib angle", {CIBICIK_2018: "q_6", CIBICIK_2019: r"\alpha_3", JARZEBOWSKA_2018: r"\psi^{(c,3)}"},
              False),
    "q_boom_cyl": ("boom cylinder extension", {CIBICIK_2019: "q_2"}, False),
    "q_jib_cyl": ("jib cylinder extension", {CIBICIK_2019: "q_3"}, False),
    # actuation ("Actuation")
    "tau_slew": ("slewing torque", {CIBICIK_2018: r"\tau_4", CIBICIK_2019: "T_1"}, False),
    "tau_boom": ("boom torque", {CIBICIK_2018: r"\tau_5"}, False),
    "tau_jib": ("jib torque", {CIBICIK_2018: r"\tau_6"}, False),
    "F_boom_cyl": ("boom cylinder force", {CIBICIK_2019: "F_2"}, False),
    "F_jib_cyl": ("jib cylinder force", {CIBICIK_2019: "F_3"}, False),
    "F_boom_cyl_meas": ("boom cylinder force, measured", {}, False),
    "F_jib_cyl_meas": ("jib cylinder force, measured", {}, False),
    "valve_boom_cyl": ("boom cylinder valve", {}, False),
    "valve_jib_cyl": ("jib cylinder valve", {}, False),
    "tau_f_slew": ("slew joint friction torque", {}, False),
    "tau_f_boom": ("boom joint friction torque", {}, False),
    "tau_f_jib": ("jib joint friction torque", {}, False),
    "F_f_boom_cyl": ("boom cylinder seal friction", {}, False),
    "F_f_jib_cyl": ("jib cylinder seal friction", {}, False),
    "mu_slew": ("slew joint friction coefficient", {}, False),
    "mu_boom": ("boom joint friction coefficient", {}, False),
    "mu_jib": ("jib joint friction coefficient", {}, False),
    "E_f": ("energy taken by friction, all joints", {}, False),
    "E_f_slew": ("energy taken by friction, slew joint", {}, False),
    "E_f_boom": ("energy taken by friction, boom joint", {}, False),
    "E_f_jib": ("energy taken by friction, jib joint", {}, False),
    "E_f_boom_cyl": ("energy taken by friction, boom cylinder seals", {}, False),
    "E_f_jib_cyl": ("energy taken by friction, jib cylinder seals", {}, False),
    # the hydraulic cylinder (HydraulicCylinder)
    "F": ("force on the piston", {}, True),
    "p_A": ("pressure A (piston side)", {}, True),
    "p_B": ("pressure B (rod side)", {}, True),
    # the flexible crane's programme and its boom (Jarzębowska et al. 2018)
    "path_error": ("distance from the programmed ellipse", {JARZEBOWSKA_2018: r"\Phi_1"}, False),
    "height_error": ("height above the programmed height", {JARZEBOWSKA_2018: r"\Phi_2"}, False),
    "tau_prog_boom": ("programme's boom torque", {}, False),
    "tau_prog_jib": ("programme's jib torque", {}, False),
    "defl_x": ("boom tip deflection x", {}, False),
    "defl_y": ("boom tip deflection y", {}, False),
    "defl_z": ("boom tip deflection z", {}, False),
}

#: a wrench's body -> the axes it is given in (docs/names.md, "Wrenches")
WRENCH_AXES = {"mount": "mount axes", "king": "king axes", "boom": "boom axes", "jib": "jib axes"}
_WRENCH = re.compile(r"W_(\w+?)_([nf])([xyz])")
_SUPPORT = re.compile(r"F_sup(\d+)_z")


def _symbol(symbols: dict, paper: str | None) -> str | None:
    return symbols.get(paper) if paper else None


def _rate(symbol: str | None, order: int) -> str | None:
    """The symbol of a coordinate's rate (``order`` 1) or acceleration (2):
    Kane's generalized speed u of a q (Cibicik & Egeland 2018), else dots."""
    if symbol is None:
        return None
    if symbol.startswith("q_"):
        return ("u_" if order == 1 else r"\dot{u}_") + symbol[2:]
    return (r"\dot{" if order == 1 else r"\ddot{") + symbol + "}"


def quantity(variable: str, paper: str | None = None) -> tuple[str, str | None, bool]:
    """``(words, symbol or None, whether it needs its component)`` of a
    variable (without its component), the symbol that of ``paper``."""
    if variable in QUANTITIES:
        words, symbols, generic = QUANTITIES[variable]
        return words, _symbol(symbols, paper), generic
    if variable.endswith("_ref"):
        words, _, generic = quantity(variable[:-4], paper)
        return f"{words} set-point", None, generic
    for prefix, order in (("du_", 2), ("u_", 1)):
        if variable.startswith(prefix) and "q_" + variable[len(prefix):] in QUANTITIES:
            words, symbol, generic = quantity("q_" + variable[len(prefix):], paper)
            stem = words[:-len(" angle")] if words.endswith(" angle") else words
            return f"{stem} {'rate' if order == 1 else 'acceleration'}", _rate(symbol, order), generic
    if m := _WRENCH.fullmatch(variable):
        body, kind, axis = m.groups()
        if body in WRENCH_AXES:
            return f"{'force' if kind == 'f' else 'moment'} {axis} ({WRENCH_AXES[body]})", None, False
    if m := _SUPPORT.fullmatch(variable):
        return f"support {m.group(1)} vertical force", None, False
    return variable, None, False


def readable(column: str, model: str | None = None, with_component: bool = False) -> str:
    """The legend entry of ``column`` (``component.variable``) of a
    component of ``model`` (a model name of :data:`MODEL_PAPERS`, for the
    symbol): "slew angle $q_1$", "force x (mount axes)", "boom cylinder
    extension set-point"; "boom cylinder: force on the piston" where the
    variable names a thing only with its component, or ``with_component``
    (two components' variables of one name on the same axes)."""
    component, _, variable = column.rpartition(".")
    words, symbol, generic = quantity(variable, MODEL_PAPERS.get(model or ""))
    text = f"{words} ${symbol}$" if symbol else words
    if component and (generic or with_component):
        text = f"{component.replace('_', ' ')}: {text}"
    return text
