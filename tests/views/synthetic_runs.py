"""Recorded runs made up for the tests of the views: the knuckle boom crane
of Cibicik & Egeland (2019) on a vessel that rolls, pitches and yaws, its
cylinders stroking and the king slewing, with a wrench at the mount, as
``crane-cosim run`` records them (``time`` and ``component.variable``)."""
import numpy as np
import pandas as pd

from crane_cosim.blocks.screw import rot_zyx
from crane_cosim.blocks.vessel import Vessel

#: the components as summary.json names them
COMPONENTS = {"vessel": {"source": "fmus/Vessel.fmu", "parameters": {"l_mount": 15.0, "cog_z": 7.5}},
              "crane": {"source": "fmus/KnuckleBoomCrane.fmu", "parameters": {}},
              "controller": {"source": "fmus/KnuckleBoomController.fmu", "parameters": {}}}
WRENCH = ("nx", "ny", "nz", "fx", "fy", "fz")


def knuckle_boom_on_vessel(duration=4.0, rate=1000.0) -> pd.DataFrame:
    """``duration`` [s] recorded at ``rate`` rows a second."""
    t = np.arange(0.0, duration + 0.5 / rate, 1.0 / rate)
    angles = np.column_stack([0.05 * np.sin(1.3 * t), 0.03 * np.sin(0.7 * t + 1), 0.02 * np.sin(0.4 * t)])
    l_mount = COMPONENTS["vessel"]["parameters"]["l_mount"]
    R = np.array([rot_zyx(*a) for a in angles])
    cols = {"time": t}
    for k, name in enumerate(("roll", "pitch", "yaw")):
        cols[f"vessel.q_{name}"] = angles[:, k]
    for i in range(3):
        for j in range(3):
            cols[f"vessel.mount_R_{i + 1}{j + 1}"] = R[:, i, j]
    for i, c in enumerate("xyz"):
        cols[f"vessel.mount_p_{c}"] = R[:, i, 2] * l_mount
    cols["crane.q_slew"] = 0.3 * t
    cols["crane.q_boom_cyl"] = 0.3 + 0.2 * np.sin(0.5 * t)
    cols["crane.q_jib_cyl"] = 0.5 + 0.3 * np.sin(0.8 * t)
    for k, c in enumerate(WRENCH):
        cols[f"crane.W_mount_{c}"] = (1e6 if c[0] == "n" else 1e5) * np.cos(t + k)
    return pd.DataFrame(cols)


def vessel() -> Vessel:
    return Vessel(**COMPONENTS["vessel"]["parameters"])
