"""The units engineers read a quantity in: forces in N, kN or MN, moments
in N·m, kN·m or MN·m (whichever keeps the numbers between 1 and 1000),
pressures in bar, angles in degrees.  Shared by the run's plots, the
fatigue study's figures and its printed tables, so that a number means
the same on the screen and on paper; the files on disk stay in SI."""
from __future__ import annotations

import math

#: SI unit -> the display units to choose from, (label, size of one in SI)
DISPLAY_UNITS = {
    "N": [("N", 1.0), ("kN", 1e3), ("MN", 1e6)],
    "N.m": [("N·m", 1.0), ("kN·m", 1e3), ("MN·m", 1e6)],
    "Pa": [("bar", 1e5)],
    "rad": [("deg", math.pi / 180)],
    "rad/s": [("deg/s", math.pi / 180)],
    "rad/s2": [("deg/s²", math.pi / 180)],
}


def display_unit(si_unit: str, peak: float) -> tuple[str, float]:
    """The display unit of a quantity in ``si_unit`` whose largest magnitude
    is ``peak``: the largest unit in which the peak is at least 1, and its
    size in SI units.  A unit not in :data:`DISPLAY_UNITS` is kept as it is
    (no unit: "1")."""
    choices = DISPLAY_UNITS.get(si_unit, [(si_unit or "1", 1.0)])
    label, size = choices[0]
    for lab, sz in choices[1:]:
        if peak >= sz:
            label, size = lab, sz
    return label, size


#: matplotlib settings for axes whose numbers are in their display unit
#: already: no offset ("+2.5e3") or scale factor ("1e6") over an axis,
#: which a reader takes the numbers without
PLAIN_NUMBERS = {"axes.formatter.useoffset": False, "axes.formatter.limits": (-6, 7)}
