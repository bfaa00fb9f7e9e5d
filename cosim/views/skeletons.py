"""What each block of the package draws, from its recorded outputs, as the
block declares it (``Block.draws``): a crane's links and cylinders in the
mount frame (Frame 1 of Cibicik & Egeland 2018, at the slewing joint) by
its ``skeleton``, a vessel's hull or a base's supports in their own
coordinates, with the mount's place in them, by its ``outline``.  The
geometry is the blocks' own (``blocks/*_drawing.py``).

A part is a polyline per frame, ``(frames, points, 3)`` [m]; a row of NaN
separates pieces of one part.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["Part", "crane_parts", "hull_outline_of"]


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


def crane_parts(block, values: Values, pose) -> list[Part]:
    """The parts of the crane ``block`` (a block of the package, made with
    the run's parameters) at the frames, mount frame [m] (or Frame 0 where
    ``ground``); ``pose``: the mount's ``(R_1^0, position in Frame 0)`` at
    the frames, (frames, 3, 3) and (frames, 3)."""
    return [Part(name, kind, points, ground) for name, kind, points, ground in block.skeleton(values, pose)]


def hull_outline_of(block) -> tuple[np.ndarray, np.ndarray]:
    """``(outline, mount)``: the vessel ``block``'s hull outline (k, 3) [m]
    in its own coordinates and the mount point there."""
    return block.outline()
