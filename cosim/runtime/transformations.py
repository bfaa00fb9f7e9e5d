"""What a connection does to a value on its way (SSP 1.0, ``ssc:GTransformationChoice``,
and the unit conversion a connection between convertible units implies).

* :class:`Linear` (``ssc:LinearTransformation``): the input takes
  ``factor * output + offset``, of a Real;
* :class:`Mapping` (``ssc:BooleanMappingTransformation``,
  ``ssc:IntegerMappingTransformation``, ``ssc:EnumerationMappingTransformation``):
  each value the table names becomes its target (an enumeration by its
  items' names, turned into their values for the run); a value it does not
  name stops the run, naming it (SSP 1.0 says nothing of those);
* :func:`unit_conversion`: between two units of one dimension (their
  ``BaseUnit`` exponents equal), the :class:`Linear` that SSP 1.0 applies
  before the connection's own transformation, unless the connection
  suppresses it (``suppressUnitConversion``).

The master applies them where the input is set (``runtime/instance.py``):
every algorithm passes the output as it is and the instance hands its FMU
the transformed value.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..blocks.units import BASE_UNITS, UNITS

__all__ = ["Linear", "Mapping", "UnitDefinition", "unit_conversion", "composed", "definition_of",
           "TRANSFORMATION_KINDS"]

#: the SSP 1.0 element of each mapping kind
TRANSFORMATION_KINDS = {"Boolean": "BooleanMappingTransformation", "Integer": "IntegerMappingTransformation",
                        "Enumeration": "EnumerationMappingTransformation"}


@dataclass(frozen=True)
class Linear:
    """``target = factor * source + offset`` [-, in the target's unit]."""
    factor: float = 1.0
    offset: float = 0.0

    @property
    def identity(self) -> bool:
        return self.factor == 1.0 and self.offset == 0.0

    def words(self, target: str, source: str) -> str:
        """The transformation said as an equation of ``target`` and ``source``."""
        scaled = source if self.factor == 1.0 else f"{self.factor:g} * {source}"
        if self.offset == 0.0:
            return f"{target} = {scaled}"
        return f"{target} = {scaled} {'-' if self.offset < 0 else '+'} {abs(self.offset):g}"


@dataclass(frozen=True)
class Mapping:
    """A table of source value -> target value of one ``kind`` (``Boolean``,
    ``Integer`` or ``Enumeration``); an enumeration's by item name as the
    file writes them."""
    kind: str
    pairs: tuple

    def words(self, target: str, source: str) -> str:
        table = ", ".join(f"{_shown(s)} -> {_shown(t)}" for s, t in self.pairs)
        return f"{target} = {source} mapped {table}"


def _shown(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class UnitDefinition:
    """A unit as FMI defines it (FMI 2.0 section 2.2.2): its SI base
    ``exponents`` (kg, m, s, A, K, mol, cd, rad) and ``factor``, ``offset``:
    a value ``v`` in it is ``factor * v + offset`` in the base units."""
    name: str
    exponents: tuple
    factor: float = 1.0
    offset: float = 0.0


def unit_conversion(source: UnitDefinition, target: UnitDefinition) -> Linear | None:
    """The :class:`Linear` that turns a value in ``source`` into one in
    ``target``; None where the two are of different dimensions."""
    if source.exponents != target.exponents:
        return None
    factor = source.factor / target.factor
    return Linear(factor, (source.offset - target.offset) / target.factor)


#: units in common engineering use, beside the SI units of the blocks: name ->
#: (the SI unit of their dimension, factor to it, offset)
COMMON_UNITS = {
    "mm": ("m", 1e-3, 0.0), "cm": ("m", 1e-2, 0.0), "km": ("m", 1e3, 0.0), "in": ("m", 0.0254, 0.0),
    "ft": ("m", 0.3048, 0.0), "nmi": ("m", 1852.0, 0.0), "g": ("kg", 1e-3, 0.0), "t": ("kg", 1e3, 0.0),
    "min": ("s", 60.0, 0.0), "h": ("s", 3600.0, 0.0), "km/h": ("m/s", 1 / 3.6, 0.0),
    "kn": ("m/s", 1852.0 / 3600.0, 0.0), "kN": ("N", 1e3, 0.0), "MN": ("N", 1e6, 0.0),
    "kN.m": ("N.m", 1e3, 0.0), "MN.m": ("N.m", 1e6, 0.0), "kPa": ("Pa", 1e3, 0.0), "MPa": ("Pa", 1e6, 0.0),
    "bar": ("Pa", 1e5, 0.0), "kW": ("W", 1e3, 0.0), "deg": ("rad", 3.141592653589793 / 180.0, 0.0),
    "deg/s": ("rad/s", 3.141592653589793 / 180.0, 0.0), "rpm": ("rad/s", 3.141592653589793 / 30.0, 0.0),
    "K": ("K", 1.0, 0.0), "degC": ("K", 1.0, 273.15),
}


def definition_of(name: str, *tables) -> UnitDefinition | None:
    """The definition of the unit ``name``: from the first of ``tables``
    (name -> :class:`UnitDefinition`: a file's, an FMU's) that defines it,
    else this project's SI units (``blocks/units.py``) or one of
    :data:`COMMON_UNITS`, else None."""
    for table in tables:
        if name in table:
            return table[name]
    if name in UNITS:
        return UnitDefinition(name, tuple(UNITS[name].get(k, 0) for k in BASE_UNITS))
    if name in COMMON_UNITS:
        si, factor, offset = COMMON_UNITS[name]
        exponents = (0, 0, 0, 0, 1, 0, 0, 0) if si == "K" else tuple(UNITS[si].get(k, 0) for k in BASE_UNITS)
        return UnitDefinition(name, exponents, factor, offset)
    return None


def composed(first: Linear, then: Linear) -> Linear:
    """``then`` applied after ``first``."""
    return Linear(then.factor * first.factor, then.factor * first.offset + then.offset)
