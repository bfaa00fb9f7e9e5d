"""What the 3-D view draws of the knuckle boom crane (``knuckle_boom.py``),
from its recorded outputs, its own joint map and Kane chain, so that a pin
drawn is where the model has it.  The parts are ``Block.skeleton``'s."""
from __future__ import annotations

import numpy as np

from .kane import kinematics, point_on

__all__ = ["skeleton"]


def skeleton(block, values, pose) -> list[tuple]:
    """The knuckle boom crane of Cibicik & Egeland (2019): its tree of seven
    bodies (king, boom, jib, and each cylinder's barrel and piston) at the
    joint coordinates its joint map gives for the recorded slew angle and
    piston extensions; each link along the z axis of its frame, each barrel
    from its pin ``l_b`` along the cylinder, each piston from its pin
    ``l_p`` back into the barrel."""
    s = block.sym
    x = np.column_stack([values("q_slew"), values("q_boom_cyl"), values("q_jib_cyl")])
    parts = {name: [] for name in ("king", "boom", "jib", "boom cylinder barrel", "boom cylinder piston",
                                   "jib cylinder barrel", "jib cylinder piston", "pin brackets")}
    # each cylinder pin on a bracket across its link: (body, along, across), eqs. (70), (72)
    brackets = ((0, s.l1 - s.e_b2, s.a_b2), (1, s.e_p2, s.a_p2), (1, s.l2 - s.e_b3, s.a_b3), (2, s.e_p3, s.a_p3))
    nan = np.full(3, np.nan)
    for xk in x:
        theta = block.joint_map(np.concatenate([xk, np.zeros(3)]))[0]
        kin = kinematics(block.chain, theta, np.zeros(7))
        parts["king"].append([kin.p[0], kin.p[1]])
        parts["boom"].append([kin.p[1], kin.p[2]])
        parts["jib"].append([kin.p[2], point_on(kin, 2, [0.0, 0.0, s.l3])])
        for cyl, barrel, piston, l_b, l_p in (("boom", 3, 4, s.l_b2, s.l_p2), ("jib", 5, 6, s.l_b3, s.l_p3)):
            parts[f"{cyl} cylinder barrel"].append([kin.p[barrel], point_on(kin, barrel, [0.0, 0.0, l_b])])
            parts[f"{cyl} cylinder piston"].append([kin.p[piston], point_on(kin, piston, [0.0, 0.0, -l_p])])
        rows = []
        for body, along, across in brackets:
            rows += [point_on(kin, body, [0.0, 0.0, along]), point_on(kin, body, [0.0, across, along]), nan]
        parts["pin brackets"].append(rows)
    kind = {"king": "link", "boom": "link", "jib": "link", "pin brackets": "bracket"}
    return [(name, kind.get(name, name.split()[-1]), np.array(points, float), False)
            for name, points in parts.items()]
