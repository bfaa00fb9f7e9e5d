"""Parameter values given in another unit than their variable's: an
``ssv:Real`` whose ``unit`` differs from the FMU's is converted into the
FMU's unit when the system file is read (SSP 1.0 implies the conversion
between units of one dimension), by the units' ``BaseUnit`` factors and
offsets: the file's own definitions (``ssd:Units``, ``ssv:Units``) or the
FMU's, and for this project's FMUs the SI units of their blocks."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from ..blocks.units import BASE_UNITS
from ..errors import CraneCosimError
from ..runtime.transformations import UnitDefinition, definition_of, unit_conversion
from .namespaces import SSC, _q

__all__ = ["unit_definitions", "in_variable_unit"]


def unit_definitions(units: ET.Element | None) -> dict:
    """The ``ssc:Unit`` definitions under ``units`` (an ``ssd:Units`` or
    ``ssv:Units`` element, or None): name -> ``UnitDefinition``."""
    found = {}
    for unit in units.iterfind(_q(SSC, "Unit")) if units is not None else ():
        base = unit.find(_q(SSC, "BaseUnit"))
        if unit.get("name") and base is not None:
            try:
                found[unit.get("name")] = UnitDefinition(
                    unit.get("name"), tuple(int(base.get(k, 0)) for k in BASE_UNITS),
                    float(base.get("factor", 1.0)), float(base.get("offset", 0.0)))
            except ValueError:
                raise CraneCosimError(f"the unit {unit.get('name')!r} has a BaseUnit that is not numbers") from None
    return found


def in_variable_unit(value: float, unit: str, defined: dict, model, name: str, where: str) -> float:
    """``value`` given in ``unit`` (defined by the file in ``defined``, or by
    the FMU) as a value in the unit of ``model``'s variable ``name``; raises
    :class:`CraneCosimError` where the two do not convert (``where``: the
    parameter, for the sentence)."""
    var = model.variables.get(name)
    if var is None or not var.unit or var.unit == unit:
        return value
    source = definition_of(unit, defined, model.units)
    target = definition_of(var.unit, model.units, defined)
    conversion = unit_conversion(source, target) if source is not None and target is not None else None
    if conversion is None:
        why = (f"which does not convert into its unit {var.unit}" if source is not None and target is not None
               else f"and {unit if source is None else var.unit} is defined neither by the file nor by the FMU")
        raise CraneCosimError(f"{where} is given in {unit}, {why}")
    return conversion.factor * value + conversion.offset
