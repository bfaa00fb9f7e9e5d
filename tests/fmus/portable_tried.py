"""Which blocks' portable FMUs a test run builds and tries.

The default run tries two, block by block: the crane (numba kernels,
scipy, a compiled whole step) and the controller (numpy alone, the plain
blocks' Windows path): every mechanism of a portable FMU is in one of
them; and the crane on the vessel's three FMUs together (:data:`SYSTEM`).
``pytest -m slow`` tries every block's, the same tests over the others."""
from __future__ import annotations

import pytest

from crane_cosim.blocks.registry import BLOCKS

__all__ = ["TRIED", "SYSTEM", "each_block", "block_sets"]

#: the blocks whose portable FMUs the default run tries one by one
TRIED = ("Crane", "Controller")
#: the crane on the vessel's blocks (``examples/crane_on_vessel``), whose
#: portable FMUs the default run tries together
SYSTEM = ("Vessel", "Crane", "Controller")


def each_block(models=tuple(BLOCKS)) -> list:
    """``models`` as pytest parameters, one each: those outside
    :data:`TRIED` marked slow."""
    return [pytest.param(m, id=m, marks=() if m in TRIED else pytest.mark.slow) for m in models]


def block_sets(models=tuple(BLOCKS)) -> list:
    """Two parameters, each a tuple of the blocks ``models``: those in
    :data:`TRIED`, and all of them (marked slow)."""
    return [pytest.param(tuple(m for m in models if m in TRIED), id="tried"),
            pytest.param(tuple(models), id="every", marks=pytest.mark.slow)]
