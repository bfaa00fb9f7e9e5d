"""The geometry and masses of the knuckle boom crane of Cibicik & Egeland
(2019): Tables 1 and 2 under the block's parameter names and the paper's
symbols, the two cylinder loops (``blocks/cylinder_loop.py``) and the tree
of seven bodies on the mount (``blocks/kane.py``) that
``blocks/knuckle_boom.py`` cuts the loops into."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from .block import Variable as _P
from .cylinder_loop import CylinderLoop
from .kane import Body, Chain, Joint

#: Table 1 (lengths, m) and Table 2 (masses, kg) of Cibicik & Egeland (2019):
#: parameter name -> (the paper's symbol, value).  King, boom and jib are the
#: paper's Links 1, 2, 3 (king, inner boom, outer boom); the boom cylinder
#: drives Joint 2 (barrel b2, piston p2), the jib cylinder Joint 3 (b3, p3).
_TABLE = {
    "l_king": ("l1", 6.0), "l_boom": ("l2", 7.5), "l_jib": ("l3", 5.0),
    "l_boom_cyl_barrel": ("l_b2", 2.3), "l_boom_cyl_piston": ("l_p2", 2.0),
    "l_jib_cyl_barrel": ("l_b3", 2.3), "l_jib_cyl_piston": ("l_p3", 2.0),
    "d_king": ("d1", 3.0), "d_boom": ("d2", 3.7), "d_jib": ("d3", 2.5),
    "d_boom_cyl_barrel": ("d_b2", 1.2), "d_boom_cyl_piston": ("d_p2", 1.2),
    "d_jib_cyl_barrel": ("d_b3", 1.2), "d_jib_cyl_piston": ("d_p3", 1.2),
    "e_boom_cyl_barrel": ("e_b2", 2.5), "e_boom_cyl_piston": ("e_p2", 2.5),
    "e_jib_cyl_barrel": ("e_b3", 2.5), "e_jib_cyl_piston": ("e_p3", 2.0),
    "a_boom_cyl_barrel": ("a_b2", 1.0), "a_boom_cyl_piston": ("a_p2", 0.5),
    "a_jib_cyl_barrel": ("a_b3", 0.4), "a_jib_cyl_piston": ("a_p3", 0.4),
    "m_king": ("m1", 10e3), "m_boom": ("m2", 10e3), "m_jib": ("m3", 10e3),
    "m_boom_cyl_barrel": ("m_b2", 2e3), "m_boom_cyl_piston": ("m_p2", 1e3),
    "m_jib_cyl_barrel": ("m_b3", 2e3), "m_jib_cyl_piston": ("m_p3", 1e3),
}
_WHAT = {"l": "length", "d": "COG distance", "e": "pin offset along the link", "a": "pin offset across the link",
         "m": "mass"}


def _parameter(name):
    symbol, value = _TABLE[name]
    unit = "kg" if name[0] == "m" else "m"
    table = "Table 2" if name[0] == "m" else "Table 1"
    part = name[2:].replace("_cyl_", " cylinder ").replace("_", " ")
    return _P(name, unit, value, f"{part.capitalize()} {_WHAT[name[0]]} {symbol} "
                                 f"({table} of Cibicik & Egeland 2019)")


def paper_symbols(values: dict) -> SimpleNamespace:
    """The geometry and masses of ``values`` (parameter name -> value) under
    the paper's symbols (``l1``, ``e_b2``, ``m_p3`` ...), the names the
    formulas of Cibicik & Egeland (2019) use."""
    return SimpleNamespace(**{symbol: values[name] for name, (symbol, _) in _TABLE.items()})


def cylinder_loops(s=None) -> tuple[CylinderLoop, CylinderLoop]:
    """The loops of the boom cylinder (Joint 2) and the jib cylinder (Joint 3)
    from the geometry ``s`` under the paper's symbols (default: Table 1)."""
    s = s or paper_symbols({name: value for name, (_, value) in _TABLE.items()})
    return (CylinderLoop(s.l_b2, s.a_b2, s.e_b2, s.a_p2, s.e_p2, "boom cylinder (joint 2)"),
            CylinderLoop(s.l_b3, s.a_b3, s.e_b3, s.a_p3, s.e_p3, "jib cylinder (joint 3)"))


def knuckle_boom_tree(p) -> Chain:
    """The seven bodies as a tree on the mount, joint coordinates
    ``(q1, alpha2, alpha3, beta2, q2, beta3, q3)``; inertias of eq. (66).
    ``p`` holds the geometry and masses under the paper's symbols
    (:func:`paper_symbols`)."""
    x, z = [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]

    def slender(m, l, com):
        return Body(m, [0.0, 0.0, com], np.diag([1.0, 1.0, 0.0]) * m * l**2 / 12)

    return Chain(
        joints=[Joint(axis=z),
                Joint(offset=[0.0, 0.0, p.l1], axis=x),
                Joint(offset=[0.0, 0.0, p.l2], axis=x),
                Joint(offset=[0.0, p.a_b2, p.l1 - p.e_b2], axis=x),
                Joint(offset=[0.0, 0.0, p.l_b2], axis=z, kind="prismatic"),
                Joint(offset=[0.0, p.a_b3, p.l2 - p.e_b3], axis=x),
                Joint(offset=[0.0, 0.0, p.l_b3], axis=z, kind="prismatic")],
        bodies=[Body(p.m1, [0.0, 0.0, p.d1], np.diag([1.0, 1.0, 0.1]) * p.m1 * p.l1**2 / 12),
                slender(p.m2, p.l2, p.d2), slender(p.m3, p.l3, p.d3),
                slender(p.m_b2, p.l_b2, p.d_b2), slender(p.m_p2, p.l_p2, -p.d_p2),
                slender(p.m_b3, p.l_b3, p.d_b3), slender(p.m_p3, p.l_p3, -p.d_p3)],
        parents=(-1, 0, 1, 0, 3, 1, 5),
    )
