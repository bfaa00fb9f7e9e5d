"""What the 3-D view draws of the flexible crane (``flexible_crane.py``),
from its recorded outputs and its own chain.  The parts are ``Block.skeleton``'s."""
from __future__ import annotations

import numpy as np

from .flexible_boom import element_lengths
from .kane import kinematics

__all__ = ["skeleton"]


def skeleton(block, values, pose) -> list[tuple]:
    """The crane of Jarzębowska, Urbaś & Augustynek (2018): the column, the
    boom's rigid finite elements and the jib to the end effector E.  The
    boom's root is its chain's at the recorded slew and boom angles; the
    joints between its elements and its tip, where a rigid boom has them
    displaced by their recorded deflections (``defl_<r>_*`` and ``defl_*``,
    boom-root axes); E the recorded ``tip_p_*`` (Frame 0, brought to the
    mount frame by the mount's ``pose``): all of them the crane's own.
    With ``programmed``, the ellipse E follows (eq. 17) at the programmed
    height ``z_E_ref``, in Frame 0."""
    p = block.p
    chain, joints = block.chain, block.joint_index
    q = np.column_stack([values(f"q_{j}") for j in ("slew", "boom", "jib")])
    names = [[f"defl_{r}_{c}" for c in "xyz"] for r in range(1, block.n_rfe)] + [[f"defl_{c}" for c in "xyz"]]
    defl = np.stack([np.zeros_like(q)] + [np.column_stack([values(c) for c in point]) for point in names], axis=1)
    E0 = np.column_stack([values(f"tip_p_{c}") for c in "xyz"])
    R, origin = pose
    E = np.einsum("fji,fj->fi", R, E0 - origin)  # Frame 0 to the mount frame
    along = np.concatenate([[0.0], np.cumsum(element_lengths(p.l_boom, block.n_rfe))])
    rigid = np.column_stack([along, np.zeros_like(along), np.zeros_like(along)])
    king, boom, jib = [], [], []
    for k in range(len(q)):
        theta = np.zeros(chain.n)
        theta[joints] = q[k]
        kin = kinematics(chain, theta, np.zeros(chain.n))
        points = kin.p[1] + (rigid + defl[k]) @ kin.R[1].T
        king.append([kin.p[0], kin.p[1]])
        boom.append(points)
        jib.append([points[-1], E[k]])
    parts = [("king", "link", np.array(king, float), False),
             ("boom (its elements)", "link", np.array(boom, float), False),
             ("jib", "link", np.array(jib, float), False)]
    if p.programmed:
        angle = np.linspace(0.0, 2 * np.pi, 73)
        z = values("z_E_ref")
        ring = np.stack([np.column_stack([p.a_E * np.cos(angle), p.b_E * np.sin(angle), np.full(73, zk)])
                         for zk in z])
        parts.append(("programmed path", "path", ring, True))
    return parts
