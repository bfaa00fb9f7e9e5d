"""Units used by the blocks' ports and parameters, with their SI base-unit
exponents, as FMI 2.0 ``UnitDefinitions`` and SSP ``ssc:Units`` need them.
Names follow the FMI convention (``N.m``, ``m/s2``)."""
from __future__ import annotations

# name -> (exponents of kg, m, s, A, K, mol, cd, rad), factor to SI
UNITS: dict[str, dict] = {
    "1": {},
    "s": {"s": 1},
    "m": {"m": 1},
    "kg": {"kg": 1},
    "rad": {"rad": 1},
    "m/s": {"m": 1, "s": -1},
    "m/s2": {"m": 1, "s": -2},
    "rad/s": {"rad": 1, "s": -1},
    "rad/s2": {"rad": 1, "s": -2},
    "N": {"kg": 1, "m": 1, "s": -2},
    "N.m": {"kg": 1, "m": 2, "s": -2},
    "kg.m": {"kg": 1, "m": 1},
    "kg.m2": {"kg": 1, "m": 2},
    "N.m/rad": {"kg": 1, "m": 2, "s": -2, "rad": -1},
    "N.m/rad3": {"kg": 1, "m": 2, "s": -2, "rad": -3},
    "N.m.s/rad": {"kg": 1, "m": 2, "s": -1, "rad": -1},
    "N/m": {"kg": 1, "s": -2},
    "1/m": {"m": -1},
    "s/m": {"m": -1, "s": 1},
    "N.s/m": {"kg": 1, "s": -1},
    "1/N": {"kg": -1, "m": -1, "s": 2},
    "Pa": {"kg": 1, "m": -1, "s": -2},
    "W": {"kg": 1, "m": 2, "s": -3},
    "J": {"kg": 1, "m": 2, "s": -2},
    "1/rad": {"rad": -1},
    "s/rad": {"s": 1, "rad": -1},
    "m2": {"m": 2},
    "m3": {"m": 3},
    "m4": {"m": 4},
    "kg/m3": {"kg": 1, "m": -3},
    "1/s": {"s": -1},
    "m3/s": {"m": 3, "s": -1},
    "m3/(s.Pa)": {"kg": -1, "m": 4, "s": 1},
}

BASE_UNITS = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")


def base_unit_attributes(unit: str) -> dict[str, str]:
    """The attributes of the ``BaseUnit`` element that defines ``unit`` in
    an FMI model description and an SSP file alike: its nonzero SI
    base-unit exponents, in :data:`BASE_UNITS` order."""
    exponents = base_unit_exponents(unit)
    return {k: str(exponents[k]) for k in BASE_UNITS if k in exponents}


def base_unit_exponents(unit: str) -> dict[str, int]:
    """SI base-unit exponents of ``unit``; raises ``KeyError`` naming the unit if unknown."""
    try:
        return UNITS[unit]
    except KeyError:
        raise KeyError(f"unknown unit {unit!r}; known units: {', '.join(sorted(UNITS))}") from None
