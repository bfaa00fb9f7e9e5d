"""What each connection of a plan does to its value: its own transformation
composed after the unit conversion its two ends imply (SSP 1.0: the
conversion first, ``target = factor * converted + offset`` after), checked
against the types of its ends, and said in a note for ``check``."""
from __future__ import annotations

from dataclasses import dataclass, field

from .transformations import TRANSFORMATION_KINDS, Linear, Mapping, composed, unit_conversion
from .types import FAMILY

__all__ = ["Transforms", "transforms_of", "converts_units"]


@dataclass
class Transforms:
    """``effects``: (component, input) -> the ``Linear`` or ``Mapping`` its
    connection applies (none where it applies nothing); ``problems``:
    ``(connection, sentence)``; ``notes``: one sentence per transforming
    connection."""
    effects: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _ends(c, models):
    src_model, dst_model = models.get(c.start_element), models.get(c.end_element)
    if src_model is None or dst_model is None:
        return None
    src, dst = src_model.variables.get(c.start_connector), dst_model.variables.get(c.end_connector)
    if src is None or dst is None:
        return None
    return src_model, src, dst_model, dst


def converts_units(c, models) -> bool:
    """Whether connection ``c`` joins two Reals of different units that its
    ends' descriptions define in one dimension (converted), or suppresses
    the conversion (its values passed as they are)."""
    ends = _ends(c, models)
    if ends is None:
        return False
    src_model, src, dst_model, dst = ends
    if c.suppress_unit_conversion:
        return True
    return _conversion(src_model, src, dst_model, dst) is not None


def _conversion(src_model, src, dst_model, dst) -> Linear | None:
    a, b = src_model.units.get(src.unit), dst_model.units.get(dst.unit)
    if a is None or b is None:
        return None
    return unit_conversion(a, b)


def transforms_of(connections, models: dict) -> Transforms:
    """The :class:`Transforms` of ``connections`` between ``models``
    (component name -> ``ModelInfo``); connections whose ends are unknown
    are left to the connection checks."""
    out = Transforms()
    for c in connections:
        ends = _ends(c, models)
        if ends is None:
            continue
        src_model, src, dst_model, dst = ends
        effect = None
        if (FAMILY.get(src.type) == FAMILY.get(dst.type) == "real" and src.unit and dst.unit
                and src.unit != dst.unit and not c.suppress_unit_conversion):
            effect = _conversion(src_model, src, dst_model, dst)
        t = c.transformation
        if t is not None:
            problem = _type_problem(t, src, dst)
            if problem is not None:
                out.problems.append((c, f"connection {c}: {problem}"))
                continue
            if isinstance(t, Linear):
                effect = composed(effect, t) if effect is not None else t
            else:
                effect = _numeric(t, src, dst)
        if effect is None or (isinstance(effect, Linear) and effect.identity):
            continue
        out.effects[(c.end_element, c.end_connector)] = effect
        target, source = f"{c.end_element}.{c.end_connector}", f"{c.start_element}.{c.start_connector}"
        how = f"{t.words(target, source)}" if t is not None else effect.words(target, source)
        if t is None or (isinstance(t, Linear) and effect != t):
            how += f" (converted from {src.unit} to {dst.unit}" + (")" if t is None else
                                                                  f", then {t.words(target, 'that')})")
        out.notes.append(f"connection {c}: {how}")
    return out


def _type_problem(t, src, dst) -> str | None:
    """Why transformation ``t`` does not apply between ``src`` and ``dst``."""
    fs, fd = FAMILY.get(src.type), FAMILY.get(dst.type)
    if isinstance(t, Linear):
        if fs != "real" or fd != "real":
            return (f"an ssc:LinearTransformation applies to Real values, and it joins {src.type} {src.name} to "
                    f"{dst.type} {dst.name}")
        return None
    wanted = {"Boolean": ("boolean",), "Integer": ("integer", "enumeration"), "Enumeration": ("enumeration",)}
    if fs not in wanted[t.kind] or fd not in wanted[t.kind]:
        return (f"an ssc:{TRANSFORMATION_KINDS[t.kind]} applies to {t.kind} values, and it joins {src.type} "
                f"{src.name} to {dst.type} {dst.name}")
    if t.kind == "Enumeration":
        for var, names in ((src, [s for s, _ in t.pairs]), (dst, [d for _, d in t.pairs])):
            known = dict(var.items)
            missing = [n for n in names if n not in known]
            if missing:
                return (f"its ssc:EnumerationMappingTransformation names {', '.join(map(repr, missing))}, which "
                        f"{var.name} has no item of (its items: {', '.join(known) or 'none'})")
    return None


def _numeric(t: Mapping, src, dst) -> Mapping:
    """``t`` with numbers for an enumeration's item names and for booleans."""
    if t.kind == "Enumeration":
        a, b = dict(src.items), dict(dst.items)
        return Mapping(t.kind, tuple((a[s], b[d]) for s, d in t.pairs))
    return Mapping(t.kind, tuple((int(s), int(d)) for s, d in t.pairs))
