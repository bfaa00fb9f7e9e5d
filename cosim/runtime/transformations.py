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

__all__ = ["Linear", "Mapping", "UnitDefinition", "unit_conversion", "composed", "TRANSFORMATION_KINDS"]

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


def composed(first: Linear, then: Linear) -> Linear:
    """``then`` applied after ``first``."""
    return Linear(then.factor * first.factor, then.factor * first.offset + then.offset)
