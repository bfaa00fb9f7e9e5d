"""The transformations of SSP 1.0 read and written
(``ssc:GTransformationChoice``: ``ssc:LinearTransformation`` and the three
mappings, with their ``ssc:MapEntry`` elements), as ``runtime/transformations.py``
holds them: those of an ``ssd:Connection`` (with its ``suppressUnitConversion``)
and of a parameter mapping's ``ssm:MappingEntry``."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import CraneCosimError
from ..runtime.transformations import TRANSFORMATION_KINDS, Linear, Mapping
from .namespaces import SSC, _q

__all__ = ["transformation_of", "transformation_in", "boolean_attribute", "write_transformation"]

_MAPPINGS = {element: kind for kind, element in TRANSFORMATION_KINDS.items()}


def boolean_attribute(text, where: str) -> bool:
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise CraneCosimError(f"{where}: {text!r} is not a boolean (true or false)")


def transformation_of(path: Path, connection: ET.Element, ends: list) -> tuple:
    """``(transformation, suppress_unit_conversion)`` of the ``ssd:Connection``
    ``connection`` between ``ends`` (start element, connector, end element,
    connector) of the system file ``path``; the identity (a linear
    transformation of factor 1 and offset 0) is none."""
    where = f"system file {path}: the connection {ends[0]}.{ends[1]} -> {ends[2]}.{ends[3]}"
    suppress = boolean_attribute(connection.get("suppressUnitConversion", "false"),
                                 f"{where}'s suppressUnitConversion")
    return transformation_in(connection, where), suppress


def transformation_in(el: ET.Element, where: str):
    """The transformation held by ``el`` (an ``ssd:Connection`` or an
    ``ssm:MappingEntry``; ``where``: it, for the sentence): a ``Linear``, a
    ``Mapping`` or None (the identity too).  An element named as a
    transformation in another namespace, or one SSP 1.0 does not define,
    is refused by name (libcosim and ecos match ``ssc:`` by its prefix)."""
    found = None
    for child in el:
        kind = child.tag.rpartition("}")[2]
        if not kind.endswith("Transformation"):
            continue
        if child.tag != _q(SSC, kind) or (kind != "LinearTransformation" and kind not in _MAPPINGS):
            raise CraneCosimError(f"{where} holds a {child.tag}, which is not one of SSP 1.0's transformations "
                                  f"(ssc:LinearTransformation, ssc:BooleanMappingTransformation, "
                                  f"ssc:IntegerMappingTransformation, ssc:EnumerationMappingTransformation)")
        if found is not None:
            raise CraneCosimError(f"{where} holds two transformations; SSP 1.0 allows one")
        found = _read(child, kind, f"{where}'s ssc:{kind}")
    if isinstance(found, Linear) and found.identity:
        found = None
    return found


def _read(el: ET.Element, kind: str, where: str):
    if kind == "LinearTransformation":
        try:
            return Linear(float(el.get("factor", 1.0)), float(el.get("offset", 0.0)))
        except ValueError:
            raise CraneCosimError(f"{where} has a factor or offset that is not a number") from None
    mapping = _MAPPINGS[kind]
    pairs = []
    for entry in el.iterfind(_q(SSC, "MapEntry")):
        source, target = entry.get("source"), entry.get("target")
        if source is None or target is None:
            raise CraneCosimError(f"{where} has an ssc:MapEntry without its source or target")
        if mapping == "Boolean":
            source, target = boolean_attribute(source, where), boolean_attribute(target, where)
        elif mapping == "Integer":
            try:
                source, target = int(source), int(target)
            except ValueError:
                raise CraneCosimError(f"{where} maps {source!r} to {target!r}, which are not whole numbers") from None
        pairs.append((source, target))
    if not pairs:
        raise CraneCosimError(f"{where} has no ssc:MapEntry")
    return Mapping(mapping, tuple(pairs))


def write_transformation(connection: ET.Element, c) -> None:
    """The transformation of ``c`` (a ``runtime.system.Connection``) and its
    ``suppressUnitConversion`` written into its ``ssd:Connection`` element."""
    if c.suppress_unit_conversion:
        connection.set("suppressUnitConversion", "true")
    t = c.transformation
    if t is None:
        return
    if isinstance(t, Linear):
        ET.SubElement(connection, _q(SSC, "LinearTransformation"), factor=repr(float(t.factor)),
                      offset=repr(float(t.offset)))
        return
    el = ET.SubElement(connection, _q(SSC, TRANSFORMATION_KINDS[t.kind]))
    for source, target in t.pairs:
        ET.SubElement(el, _q(SSC, "MapEntry"), source=_text(source), target=_text(target))


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
