"""Port groups of the crane-vessel mount, declared once and shared by every
block on either side of it (see ``docs/interfaces/mount.md``).

Frames: Frame 0 is inertial (z0 up, gravity along -z0); Frame 1 is fixed in
the vessel; the *mount point* is the origin of Frame 2, the king's slewing
joint, fixed in the vessel.  Twists are ``[omega; v]``, wrenches ``[n; f]``.
"""
from __future__ import annotations

import numpy as np

from .block import Variable, WRENCH_COMPONENTS, sym6_names, vector

#: Motion of the mount, output by a vessel and input to a crane.
MOUNT_MOTION = (
    tuple(Variable(f"mount_R_{i}{j}", "1", float(i == j),
                   f"Orientation R_1^0 of the vessel frame (Frame 1) in Frame 0, row {i} column {j}")
          for i in (1, 2, 3) for j in (1, 2, 3))
    + vector("mount_w", "rad/s", "Angular velocity of Frame 1, Frame-1 {c} component")
    + vector("mount_dw", "rad/s2", "Angular acceleration of Frame 1, Frame-1 {c} component")
    + vector("mount_v", "m/s", "Velocity of the mount point, Frame-1 {c} component")
    + vector("mount_a", "m/s2", "Acceleration of the mount point (not including gravity), Frame-1 {c} component")
)


def _IA_unit(name: str) -> str:
    i, j = int(name[-2]), int(name[-1])
    rot = (i <= 3) + (j <= 3)
    return {2: "kg.m2", 1: "kg.m", 0: "kg"}[rot]


#: Articulated inertia and bias wrench of the crane at the mount, output by a
#: crane and input to a vessel: the wrench the vessel exerts on the crane is
#: ``W = I_A [dw; a] + p_A`` (Frame 1, referenced to the mount point).
MOUNT_INERTIA = (
    tuple(Variable(n, _IA_unit(n), 0.0,
                   f"Articulated inertia I_A of the crane at the mount, Frame 1, entry {n[-2]},{n[-1]}")
          for n in sym6_names("I_A"))
    + tuple(Variable(f"p_A_{c}", "N.m" if c[0] == "n" else "N", 0.0,
                     f"Bias wrench p_A of the crane at the mount, Frame 1, component {c}")
            for c in WRENCH_COMPONENTS)
)


def wrench_ports(prefix: str, what: str):
    """Six wrench components ``prefix_nx ... prefix_fz`` (N.m, then N)."""
    return tuple(Variable(f"{prefix}_{c}", "N.m" if c[0] == "n" else "N", 0.0,
                          f"{what}, component {c}") for c in WRENCH_COMPONENTS)


def mount_motion_from_inputs(u: np.ndarray, offset: int = 0):
    """Split the :data:`MOUNT_MOTION` slice of an input vector into
    ``(R_1^0, w, dw, v, a)``."""
    s = u[offset:offset + 21]
    return s[:9].reshape(3, 3), s[9:12], s[12:15], s[15:18], s[18:21]
