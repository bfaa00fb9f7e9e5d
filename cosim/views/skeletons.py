"""What each block of the package draws, from its recorded outputs: the
cranes' links and cylinders in the mount frame (Frame 1 of Cibicik &
Egeland 2018, at the slewing joint), the vessels' hulls in their own
coordinates with the mount's place in them.  The geometry is the blocks'
own: each crane is drawn from its Kane chain (``blocks/kane.py``) at the
joint coordinates its recorded outputs give, the knuckle boom crane's
cylinder loops closed by its own joint map, so that a pin drawn is where
the model has it.

A part is a polyline per frame, ``(frames, points, 3)`` [m]; a row of NaN
separates pieces of one part.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..blocks.flexible_boom import element_lengths
from ..blocks.kane import kinematics

__all__ = ["Part", "crane_parts", "hull_outline_of", "DRAWN_CRANES", "DRAWN_VESSELS"]


@dataclass
class Part:
    """One thing drawn: ``name`` (the legend's), ``kind`` (its style:
    ``link``, ``bracket``, ``barrel``, ``piston``, ``hull``, ``water``,
    ``path``) and ``points`` (frames, k, 3) [m] in the frame its owner says,
    or in Frame 0 where ``ground`` (a path programmed in the world)."""

    name: str
    kind: str
    points: np.ndarray
    ground: bool = False


#: a component's recorded variable at the frames' times, by its name
Values = Callable[[str], np.ndarray]


def _along(kin, body: int, local) -> np.ndarray:
    """The point ``local`` [m] of Frame ``body`` in the chain's base frame."""
    return kin.p[body] + kin.R[body] @ np.asarray(local, float)


def _frames(frames: list[list[np.ndarray]]) -> np.ndarray:
    return np.array(frames, float)


def _torque_crane(block, values: Values, pose) -> list[Part]:
    """The crane of Cibicik & Egeland (2018): king along z of Frame 2 to the
    boom joint, boom and jib along the x axes of Frames 3 and 4 (eqs.
    54-56), the jib ``l_jib`` long."""
    q = np.column_stack([values(f"q_{j}") for j in ("slew", "boom", "jib")])
    king, boom, jib = [], [], []
    for qk in q:
        kin = kinematics(block.chain, qk, np.zeros(3))
        tip = _along(kin, 2, [block.p.l_jib, 0.0, 0.0])
        king.append([kin.p[0], kin.p[1]])
        boom.append([kin.p[1], kin.p[2]])
        jib.append([kin.p[2], tip])
    return [Part("king", "link", _frames(king)), Part("boom", "link", _frames(boom)),
            Part("jib", "link", _frames(jib))]


def _knuckle_boom(block, values: Values, pose) -> list[Part]:
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
        parts["jib"].append([kin.p[2], _along(kin, 2, [0.0, 0.0, s.l3])])
        for cyl, barrel, piston, l_b, l_p in (("boom", 3, 4, s.l_b2, s.l_p2), ("jib", 5, 6, s.l_b3, s.l_p3)):
            parts[f"{cyl} cylinder barrel"].append([kin.p[barrel], _along(kin, barrel, [0.0, 0.0, l_b])])
            parts[f"{cyl} cylinder piston"].append([kin.p[piston], _along(kin, piston, [0.0, 0.0, -l_p])])
        rows = []
        for body, along, across in brackets:
            rows += [_along(kin, body, [0.0, 0.0, along]), _along(kin, body, [0.0, across, along]), nan]
        parts["pin brackets"].append(rows)
    kind = {"king": "link", "boom": "link", "jib": "link", "pin brackets": "bracket"}
    return [Part(name, kind.get(name, name.split()[-1]), _frames(points)) for name, points in parts.items()]


def _flexible_crane(block, values: Values, pose) -> list[Part]:
    """The crane of Jarzębowska, Urbaś & Augustynek (2018): the column, the
    boom's rigid finite elements and the jib to the end effector E.  The
    boom's root is its chain's at the recorded slew and boom angles; the
    joints between its elements and its tip, where a rigid boom has them
    displaced by their recorded deflections (``defl_<r>_*`` and ``defl_*``,
    boom-root axes); E the recorded ``p_E_*`` (Frame 0, brought to the
    mount frame by the mount's ``pose``): all of them the crane's own.
    With ``programmed``, the ellipse E follows (eq. 17) at the programmed
    height ``z_E_ref``, in Frame 0."""
    p = block.p
    chain, joints = block.chain, block.joint_index
    q = np.column_stack([values(f"q_{j}") for j in ("slew", "boom", "jib")])
    names = [[f"defl_{r}_{c}" for c in "xyz"] for r in range(1, block.n_rfe)] + [[f"defl_{c}" for c in "xyz"]]
    defl = np.stack([np.zeros_like(q)] + [np.column_stack([values(c) for c in point]) for point in names], axis=1)
    E0 = np.column_stack([values(f"p_E_{c}") for c in "xyz"])
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
    parts = [Part("king", "link", _frames(king)), Part("boom (its elements)", "link", _frames(boom)),
             Part("jib", "link", _frames(jib))]
    if p.programmed:
        angle = np.linspace(0.0, 2 * np.pi, 73)
        z = values("z_E_ref")
        ring = np.stack([np.column_stack([p.a_E * np.cos(angle), p.b_E * np.sin(angle), np.full(73, zk)])
                         for zk in z])
        parts.append(Part("programmed path", "path", ring, ground=True))
    return parts


#: crane model -> its drawing in the mount frame
DRAWN_CRANES = {"Crane": _torque_crane, "KnuckleBoomCrane": _knuckle_boom, "FlexibleCrane": _flexible_crane}


def crane_parts(block, values: Values, pose) -> list[Part]:
    """The parts of the crane ``block`` (a block of the package, made with
    the run's parameters) at the frames, mount frame [m] (or Frame 0 where
    ``ground``); ``pose``: the mount's ``(R_1^0, position in Frame 0)`` at
    the frames, (frames, 3, 3) and (frames, 3)."""
    return DRAWN_CRANES[block.model_name](block, values, pose)


def _inertia_box(block) -> tuple[np.ndarray, np.ndarray]:
    """The spring vessel of Cibicik & Egeland (2018) has no hull, only a
    mass and radii of gyration: it is drawn as the uniform box of those
    radii (``r_x**2 = (B**2 + D**2) / 12`` ...) centred on its centre of
    gravity, in Frame 1 about the rotation point, whose mount is ``l_mount``
    above it."""
    p = block.p
    r2 = np.array([p.r_x, p.r_y, p.r_z]) ** 2
    # the sides L, B, D along x1, y1, z1: L**2 = 6 (r_x**2 + r_y**2 + r_z**2) - 12 r_x**2 ...
    size = np.sqrt(np.maximum(6 * (r2.sum() - 2 * r2), 0.0))
    return _box_edges(np.array([p.cog_x, p.cog_y, p.cog_z]), size), np.array([0.0, 0.0, p.l_mount])


def _box_edges(centre, size) -> np.ndarray:
    """The twelve edges of the box of ``size`` (L, B, D) [m] about
    ``centre``, as polylines ended by NaN rows."""
    half = np.asarray(size, float) / 2
    corner = lambda sx, sy, sz: centre + half * [sx, sy, sz]  # noqa: E731
    rows = []
    for z in (-1, 1):
        rows += [corner(-1, -1, z), corner(1, -1, z), corner(1, 1, z), corner(-1, 1, z), corner(-1, -1, z),
                 [np.nan] * 3]
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        rows += [corner(x, y, -1), corner(x, y, 1), [np.nan] * 3]
    return np.array(rows, float)


def _hydro_hull(block) -> tuple[np.ndarray, np.ndarray]:
    """The hydrodynamic vessel's hull: its database's outline in hull
    coordinates (the calm-water plane at z = 0), the mount at ``mount_x, y,
    z``."""
    db = block.db
    outline = db.outline if db.outline is not None else np.zeros((0, 3))
    p = block.p
    return outline, np.array([p.mount_x, p.mount_y, p.mount_z])


def _supported_base(block) -> tuple[np.ndarray, np.ndarray]:
    """The spring-supported base of Jarzębowska, Urbaś & Augustynek (2018):
    the polygon of its support points and a spoke from the mount to each,
    in Frame 1."""
    supports = block._r_sup
    nan = np.full((1, 3), np.nan)
    mount = np.array([block.p.mount_x, block.p.mount_y, block.p.mount_z])
    rows = [supports, supports[:1], nan]
    for point in supports:
        rows += [mount[None], point[None], nan]
    return np.concatenate(rows), mount


#: vessel model -> (its hull's outline in its own coordinates, the mount there)
DRAWN_VESSELS = {"Vessel": _inertia_box, "HydroVessel": _hydro_hull, "SupportedBase": _supported_base}


def hull_outline_of(block) -> tuple[np.ndarray, np.ndarray]:
    """``(outline, mount)``: the vessel ``block``'s hull outline (k, 3) [m]
    in its own coordinates and the mount point there (a model of
    :data:`DRAWN_VESSELS`)."""
    return DRAWN_VESSELS[block.model_name](block)
