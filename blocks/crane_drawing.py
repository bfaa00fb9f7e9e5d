"""What the 3-D view draws of the torque-driven crane (``crane.py``), from its
recorded outputs and its own Kane chain.  The parts are ``Block.skeleton``'s."""
from __future__ import annotations

import numpy as np

from .kane import kinematics, point_on

__all__ = ["skeleton"]


def skeleton(block, values, pose) -> list[tuple]:
    """The crane of Cibicik & Egeland (2018): king along z of Frame 2 to the
    boom joint, boom and jib along the x axes of Frames 3 and 4 (eqs.
    54-56), the jib ``l_jib`` long."""
    q = np.column_stack([values(f"q_{j}") for j in ("slew", "boom", "jib")])
    king, boom, jib = [], [], []
    for qk in q:
        kin = kinematics(block.chain, qk, np.zeros(3))
        tip = point_on(kin, 2, [block.p.l_jib, 0.0, 0.0])
        king.append([kin.p[0], kin.p[1]])
        boom.append([kin.p[1], kin.p[2]])
        jib.append([kin.p[2], tip])
    return [("king", "link", np.array(king, float), False), ("boom", "link", np.array(boom, float), False),
            ("jib", "link", np.array(jib, float), False)]
