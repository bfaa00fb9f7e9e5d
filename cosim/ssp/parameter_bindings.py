"""The parameter values an SSP 1.0 system file binds (``ssd:ParameterBinding``
of a component or of the whole system), inline or from ``.ssv`` files.

As SSP 1.0 defines them: a component's bindings apply in order, a later
value replacing an earlier one, and the system's after its components'
(a binding higher in the hierarchy takes precedence), their names
hierarchical (``component.variable``).  A binding's ``prefix`` is prepended
to every name of its parameter set before the names are resolved (so a set
of bare names bound to the system with the prefix ``crane.`` sets crane's
variables).  A binding's ``ssd:ParameterMapping`` (inline, or an ``.ssm``
file) renames the parameters its ``ssm:MappingEntry`` elements name, from
``source`` (the prefixed name) to ``target``, and transforms their values
(``ssc:LinearTransformation`` and the three mappings); the others keep
their names.  A Real given in another unit than its variable's is converted
into that (``parameter_units.py``) before an entry's transformation, unless
the entry suppresses it (``suppressUnitConversion``), as on connections.

SSP 1.0 lets a tool ignore a name that matches no variable; crane-cosim
refuses it (a mistyped name would otherwise leave a value unset without a
word): a component's unknown variable when the system is checked, a
system-level name that names no component when the file is read."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from ..errors import CraneCosimError, did_you_mean
from ..files.archive import Limits, read_xml
from ..runtime.model import describe
from ..runtime.transformations import Linear, Mapping
from .connection_transformations import boolean_attribute, transformation_in
from .namespaces import SSD, SSM, SSV, _q
from .parameter_units import in_variable_unit, unit_definitions
from .sources import local_file

__all__ = ["FmuDescriptions", "component_parameters", "system_parameters"]

_MAPPING_TYPE = "application/x-ssp-parameter-mapping"
_VALUE_TAGS = {_q(SSV, t) for t in ("Real", "Integer", "Boolean", "String", "Enumeration")}


@dataclass(frozen=True)
class _Entry:
    """An ``ssm:MappingEntry``: the name its parameter takes, and what is
    done to the value."""
    target: str
    transformation: Linear | Mapping | None
    suppress_unit_conversion: bool


@dataclass(frozen=True)
class _Bound:
    """One value a binding gives: ``name`` after the prefix and the mapping,
    ``source`` after the prefix alone, the value as written, its ``unit`` (a
    Real's, or None), the unit definitions in scope, the mapping entry that
    named it (or None) and ``where`` (the parameter, for a sentence)."""
    name: str
    source: str
    value: object
    unit: str | None
    defined: dict
    entry: _Entry | None
    where: str


def _value(value_el: ET.Element, where: str):
    tag, raw = value_el.tag, value_el.get("value")
    if tag not in _VALUE_TAGS:
        kind = tag.rpartition("}")[2]
        raise CraneCosimError(f"{where} holds a value of type {kind}, which crane-cosim cannot set")
    if raw is None:
        raise CraneCosimError(f"{where} has no value")
    if tag in (_q(SSV, "String"), _q(SSV, "Enumeration")):  # an Enumeration by its item's name
        return raw
    try:
        if tag == _q(SSV, "Boolean"):
            if raw not in ("true", "false", "1", "0"):
                raise ValueError
            return raw in ("true", "1")
        return int(raw) if tag == _q(SSV, "Integer") else float(raw)
    except ValueError:
        raise CraneCosimError(f"{where} has the value {raw!r}, which is not a {tag.rpartition('}')[2]}") from None


def _source_file(path: Path, el: ET.Element, owner: str, root: Path | None, kind: str) -> Path:
    """The file the ``source`` of ``el`` (a binding or its mapping) names."""
    if el.get("sourceBase", "SSD") != "SSD":
        raise CraneCosimError(f"system file {path}: {owner} binds parameters relative to {el.get('sourceBase')!r}; "
                              f"crane-cosim reads sources relative to the .ssd only")
    return local_file(el.get("source"), path.parent, root, f"system file {path}: the {kind} of {owner}")


def _mapping(path: Path, binding: ET.Element, owner: str, root: Path | None, limits) -> dict:
    """The binding's parameter mapping: source name -> :class:`_Entry`
    (empty without one)."""
    el = binding.find(_q(SSD, "ParameterMapping"))
    if el is None:
        return {}
    if el.get("type", _MAPPING_TYPE) != _MAPPING_TYPE:
        raise CraneCosimError(f"system file {path}: {owner} has a parameter mapping of type {el.get('type')!r}; "
                              f"crane-cosim reads SSP's own ({_MAPPING_TYPE})")
    if el.get("source") is not None:
        ssm = _source_file(path, el, owner, root, "parameter mapping")
        what = f"parameter mapping {ssm} of {owner}"
        mapping = read_xml(ssm, what, limits)
    else:
        what, mapping = f"system file {path}: the parameter mapping of {owner}", el.find(_q(SSM, "ParameterMapping"))
        if mapping is None:
            raise CraneCosimError(f"{what} has neither a source nor an ssm:ParameterMapping")
    if mapping.tag != _q(SSM, "ParameterMapping"):
        raise CraneCosimError(f"{what} is not an SSP 1.0 parameter mapping (root element {mapping.tag!r})")
    entries = {}
    for entry in mapping.iterfind(_q(SSM, "MappingEntry")):
        source, target = entry.get("source"), entry.get("target")
        if not source or not target:
            raise CraneCosimError(f"{what} has an ssm:MappingEntry without its source or target")
        if source in entries:
            raise CraneCosimError(f"{what} maps the parameter {source!r} twice")
        here = f"{what}: the entry {source} -> {target}"
        entries[source] = _Entry(target, transformation_in(entry, here),
                                 boolean_attribute(entry.get("suppressUnitConversion", "false"),
                                                   f"{here}'s suppressUnitConversion"))
    return entries


def _parameter_set(path: Path, binding: ET.Element, owner: str, root: Path | None, limits, units: dict):
    """``(ssv:ParameterSet, what, unit definitions)`` of a binding, or None
    where it binds nothing."""
    if binding.get("source") is not None:
        ssv = _source_file(path, binding, owner, root, "parameter source")
        what = f"parameter file {ssv} of {owner}"
        pset = read_xml(ssv, what, limits)
        if pset.tag != _q(SSV, "ParameterSet"):
            raise CraneCosimError(f"{what} is not an SSP 1.0 parameter set (root element {pset.tag!r})")
    else:
        inline = binding.find(_q(SSD, "ParameterValues"))
        if inline is None:
            return None
        pset, what = inline.find(_q(SSV, "ParameterSet")), f"system file {path}"
        if pset is None:
            raise CraneCosimError(f"system file {path}: {owner} has ssd:ParameterValues without an "
                                  f"ssv:ParameterSet")
    return pset, what, {**units, **unit_definitions(pset.find(_q(SSV, "Units")))}


def _bound(path: Path, el: ET.Element, owner: str, label: str, root: Path | None, limits, units: dict) -> list:
    """Every value the bindings of ``el`` (a component or the system) give,
    in order, as :class:`_Bound` (``label``: the names' prefix in sentences,
    ``"crane."`` for a component, empty for the system)."""
    found = []
    for binding in el.iterfind(f"{_q(SSD, 'ParameterBindings')}/{_q(SSD, 'ParameterBinding')}"):
        read = _parameter_set(path, binding, owner, root, limits, units)
        if read is None:
            continue
        pset, what, defined = read
        mapping = _mapping(path, binding, owner, root, limits)
        prefix = binding.get("prefix", "")
        for p in pset.iterfind(f"{_q(SSV, 'Parameters')}/{_q(SSV, 'Parameter')}"):
            if not p.get("name"):
                raise CraneCosimError(f"{what}: a parameter of {owner} has no name")
            name = prefix + p.get("name")
            entry = mapping.get(name)
            target = entry.target if entry is not None else name
            value_el = next(iter(p), None)
            where = f"{what}: parameter {label}{target}" + (f" (mapped from {name})" if entry is not None else "")
            if value_el is None:
                raise CraneCosimError(f"{where} has no value")
            unit = value_el.get("unit") if value_el.tag == _q(SSV, "Real") else None
            found.append(_Bound(target, name, _value(value_el, where), unit or None, defined, entry, where))
    return found


def _transformed(t, value, where: str):
    """``value`` after the mapping entry's transformation ``t``."""
    if isinstance(t, Linear):
        if not isinstance(value, float):
            raise CraneCosimError(f"{where}: an ssc:LinearTransformation applies to Real values, and this one is "
                                  f"{value!r}")
        return t.factor * value + t.offset
    wanted = {"Boolean": bool, "Integer": int, "Enumeration": str}[t.kind]
    if type(value) is not wanted:
        raise CraneCosimError(f"{where}: an ssc:{t.kind}MappingTransformation maps {t.kind} values, and this one "
                              f"is {value!r}")
    for source, target in t.pairs:
        if source == value:
            return target
    raise CraneCosimError(f"{where}: its ssc:{t.kind}MappingTransformation maps no value for {value!r}")


class FmuDescriptions:
    """The descriptions of a system's FMUs (``fmus``: component name -> its
    FMU's path, filled as the components are read), each read once, when a
    unit first asks for it, for the component's bindings and the system's
    alike (False where an FMU cannot be read: its values stay as written,
    and the run names the FMU)."""
    def __init__(self, fmus: dict):
        self.fmus, self._read = fmus, {}

    def __call__(self, comp: str):
        if comp not in self._read:
            try:
                self._read[comp] = describe(self.fmus[comp])
            except CraneCosimError:
                self._read[comp] = False
        return self._read[comp]


def _shown(value) -> str:
    return f"{value:g}" if isinstance(value, float) else repr(value)


def _applied(b: _Bound, comp: str, variable: str, model, notes: list):
    """The value ``b`` gives ``comp``'s ``variable``: converted from its unit
    into the variable's (``model()``: the component's description, or
    False), then transformed by its mapping entry; what was done to it
    appended to ``notes`` as a sentence, which ``check`` shows."""
    value, how = b.value, []
    if b.entry is not None:
        how.append(f"mapped from {b.source}")
    if b.unit and not (b.entry is not None and b.entry.suppress_unit_conversion) and model() is not False:
        value = in_variable_unit(value, b.unit, b.defined, model(), variable, b.where)
        var = model().variables.get(variable)
        if var is not None and var.unit and var.unit != b.unit:
            how.append(f"given as {_shown(b.value)} {b.unit}, converted into {var.unit}")
    if b.entry is not None and b.entry.transformation is not None:
        value = _transformed(b.entry.transformation, value, b.where)
        how.append(f"then {b.entry.transformation.words(variable, b.source.rpartition('.')[2] or b.source)}")
    if how:
        notes.append(f"parameter {comp}.{variable} = {_shown(value)}: {', '.join(how)}")
    return value


def component_parameters(path: Path, comp: str, el: ET.Element, root: Path | None, limits: Limits | None,
                         units: dict, models: FmuDescriptions, notes: list) -> dict:
    """The parameter values the bindings of component ``comp`` (its
    ``ssd:Component`` element ``el``, its FMU in ``models``) give: variable
    name -> value, in its variable's unit (``units``: the ``.ssd``'s unit
    definitions; ``root``: the archive the system came from, or None); a
    sentence on each value mapped or converted appended to ``notes``."""
    return {b.name: _applied(b, comp, b.name, lambda: models(comp), notes)
            for b in _bound(path, el, f"component {comp}", f"{comp}.", root, limits, units)}


def system_parameters(path: Path, sysel: ET.Element, root: Path | None, limits: Limits | None, units: dict,
                      models: FmuDescriptions, notes: list) -> dict:
    """The parameter values the bindings of the system (its ``ssd:System``
    element ``sysel``) give its components (their FMUs in ``models``):
    component -> {variable: value}.  A name is ``component.variable``
    (after the binding's prefix and mapping); one that names no component
    is refused."""
    by_length = sorted(models.fmus, key=len, reverse=True)  # "crane.x" is crane's before "c"'s, had both been named
    found = {}
    for b in _bound(path, sysel, "the system", "", root, limits, units):
        comp = next((c for c in by_length if b.name.startswith(c + ".")), None)
        if comp is None:
            head = b.name.partition(".")[0]
            raise CraneCosimError(f"{b.where} names no component of the system (its parameters are named "
                                  f"component.variable){did_you_mean(head, models.fmus)}")
        variable = b.name[len(comp) + 1:]
        found.setdefault(comp, {})[variable] = _applied(b, comp, variable, lambda c=comp: models(c), notes)
    return found
