"""Read and write SSP 1.0: System Structure Descriptions (``.ssd``),
parameter values (``.ssv``) and SSP archives (``.ssp``).  See ``docs/ssp.md``.

What is written: one ``ssd:System`` with an ``ssd:Component`` per FMU, its
connectors with units, its parameter values, the connections, the units
used, and ``ssd:DefaultExperiment`` with two annotations:
``org.crane-cosim.master`` (step size, algorithm, coupling, input
extrapolation and, when not 1, the iterated midpoint's passes of our master) and ``com.opensimulationplatform`` (the
fixed-step algorithm as OSP libcosim reads it).

* :func:`write_ssd` writes a ``.ssd`` beside the FMUs (``source`` relative to
  the file) with the parameter values inline
  (``ssd:ParameterBinding/ssd:ParameterValues/ssv:ParameterSet``);
* :func:`write_ssp` writes an archive: ``SystemStructure.ssd`` at its root,
  the FMUs under ``resources/`` and one ``resources/<component>.ssv`` per
  component with parameters.  It is byte-reproducible.

Every ``ssv:ParameterSet`` we write is named :data:`PARAMETER_SET`, and each
component has at most one ``ssd:ParameterBinding``: DNV's ecos applies only
the sets whose name is passed to it (merged across components), OSP
libcosim only the first binding of each component, so this is the layout
both apply fully.

:func:`read_ssd` reads a ``.ssd`` (and the ``.ssv`` files its bindings name);
:func:`open_system` also opens ``.ssp`` archives, extracted safely
(:mod:`crane_cosim.files.archive`) into a temporary folder.
"""
from __future__ import annotations

import contextlib
import re
import shutil
import stat
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .archive import Limits, read_xml, safe_extract
from ..errors import CraneCosimError
from ..runtime.system import System
from ..blocks.units import BASE_UNITS, base_unit_exponents

SSD = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
OSP = "http://opensimulationplatform.com/SSP/OSPAnnotations"
CC = "https://crane-cosim.org/SSP/MasterAnnotations"
# ecos matches the prefixes ssd:, ssv: and ssc: literally: keep exactly these.
for _p, _ns in (("ssd", SSD), ("ssc", SSC), ("ssv", SSV), ("osp", OSP), ("cc", CC)):
    ET.register_namespace(_p, _ns)

MASTER_ANNOTATION = "org.crane-cosim.master"
OSP_ANNOTATION = "com.opensimulationplatform"
FMU_TYPE = "application/x-fmu-sharedlibrary"
#: The name of every ``ssv:ParameterSet`` we write; pass it to ecos
#: (``init(parameter_set=...)``, ``--parameterSet``) to apply the values.
PARAMETER_SET = "initialValues"
#: The file an SSP archive holds its system in (SSP 1.0; ecos reads no other).
SSP_SSD = "SystemStructure.ssd"

__all__ = ["PARAMETER_SET", "write_ssd", "write_ssp", "write_ssp_folder", "read_ssd", "find_ssd", "open_system", "OpenedSystem"]


def _q(ns, tag):
    return f"{{{ns}}}{tag}"


# -- writing ----------------------------------------------------------------------------

def _variables(system: System) -> dict:
    from ..runtime.model import describe
    out = {}
    for comp in system.components:
        try:
            out[comp.name] = describe(system.source_path(comp)).variables
        except CraneCosimError:
            out[comp.name] = {}  # FMU not there (yet): the component is written without connectors
    return out


def _value_kind(value) -> str:
    """The ssv type of a value whose FMU variable is not known (the FMU is
    not there yet)."""
    return "Boolean" if isinstance(value, bool) else "String" if isinstance(value, str) else "Real"


#: the SSP 1.0 type of each FMI type that has one (SSP 1.0 section 4.5.1:
#: Real is a double, Integer 32 bits; an Enumeration's connector would name
#: an ssd:Enumeration, so it is written without a type, which is allowed)
SSP_TYPES = {"Real": "Real", "Float64": "Real", "Integer": "Integer", "Int32": "Integer", "Int16": "Integer",
             "Int8": "Integer", "UInt16": "Integer", "UInt8": "Integer", "Boolean": "Boolean", "String": "String"}


def _parameter(params: ET.Element, comp: str, name: str, value, var, units: set) -> None:
    from ..runtime.types import value_of
    p = ET.SubElement(params, _q(SSV, "Parameter"), name=name)
    if var is not None:
        try:
            value = value_of(var, value, f"{comp}.{name}")
        except ValueError as exc:
            raise CraneCosimError(str(exc)) from None
    kind = var.type if var is not None else _value_kind(value)
    if kind == "Enumeration":
        item = next((n for n, v in var.items if v == value), None)
        ET.SubElement(p, _q(SSV, "Enumeration"), value=item if item is not None else str(value))
        return
    kind = SSP_TYPES.get(kind, kind)
    if kind == "Boolean":
        ET.SubElement(p, _q(SSV, "Boolean"), value=str(bool(value)).lower())
    elif kind == "Integer":
        ET.SubElement(p, _q(SSV, "Integer"), value=str(int(value)))
    elif kind == "String":
        ET.SubElement(p, _q(SSV, "String"), value=str(value))
    elif kind == "Real":
        attrs = {"value": repr(float(value))}
        if var is not None and var.unit:
            attrs["unit"] = var.unit
            units.add(var.unit)
        ET.SubElement(p, _q(SSV, "Real"), attrs)
    else:
        raise CraneCosimError(f"{comp}.{name} is {'an' if kind[0] in 'AEIOU' else 'a'} {kind} variable, whose value "
                              f"an SSP 1.0 parameter set cannot hold")


def _parameter_set(comp, variables: dict, standalone: bool) -> ET.Element:
    """The component's parameter values as one ``ssv:ParameterSet``; a
    standalone one (an ``.ssv`` file) defines its units itself."""
    pset = ET.Element(_q(SSV, "ParameterSet"), version="1.0", name=PARAMETER_SET)
    params = ET.SubElement(pset, _q(SSV, "Parameters"))
    units = set()
    for name, value in comp.parameters.items():
        _parameter(params, comp.name, name, value, variables.get(name), units)
    if standalone and units:
        _units(ET.SubElement(pset, _q(SSV, "Units")), units)
    return pset


def _units(parent: ET.Element, names) -> None:
    for name in sorted(names):
        u = ET.SubElement(parent, _q(SSC, "Unit"), name=name)
        exps = base_unit_exponents(name)
        ET.SubElement(u, _q(SSC, "BaseUnit"), {k: str(exps[k]) for k in BASE_UNITS if k in exps})


def _ssd(system: System, variables: dict, sources: dict, ssv_sources: dict | None) -> ET.Element:
    """The ``.ssd`` tree; ``sources`` maps component names to FMU sources,
    ``ssv_sources`` (if given) to ``.ssv`` sources instead of inline values."""
    root = ET.Element(_q(SSD, "SystemStructureDescription"), version="1.0", name=system.name)
    sysel = ET.SubElement(root, _q(SSD, "System"), name=system.name)
    elements = ET.SubElement(sysel, _q(SSD, "Elements"))
    units_used = set()
    for comp in system.components:
        el = ET.SubElement(elements, _q(SSD, "Component"), name=comp.name, type=FMU_TYPE, source=sources[comp.name])
        connectors = ET.SubElement(el, _q(SSD, "Connectors"))
        for v in variables[comp.name].values():
            if v.causality not in ("input", "output", "parameter"):
                continue
            c = ET.SubElement(connectors, _q(SSD, "Connector"), name=v.name, kind=v.causality)
            kind = SSP_TYPES.get(v.type)
            if kind is not None and not v.shape:
                attrs = {"unit": v.unit} if v.unit and kind == "Real" else {}
                ET.SubElement(c, _q(SSC, kind), attrs)
            if v.unit:
                units_used.add(v.unit)
        if comp.parameters:
            binding = ET.SubElement(ET.SubElement(el, _q(SSD, "ParameterBindings")), _q(SSD, "ParameterBinding"))
            if ssv_sources is not None:
                binding.set("source", ssv_sources[comp.name])
            else:
                pset = _parameter_set(comp, variables[comp.name], standalone=False)
                ET.SubElement(binding, _q(SSD, "ParameterValues")).append(pset)
                units_used |= {r.get("unit") for r in pset.iter(_q(SSV, "Real")) if r.get("unit")}
        if comp.step is not None:
            # the component's own step, as OSP libcosim reads it (its parser matches the prefix osp: literally)
            annotation = ET.SubElement(ET.SubElement(el, _q(SSD, "Annotations")), _q(SSC, "Annotation"),
                                       type=OSP_ANNOTATION)
            ET.SubElement(annotation, _q(OSP, "StepSizeHint"), value=repr(float(comp.step)))
    conns = ET.SubElement(sysel, _q(SSD, "Connections"))
    for c in system.connections:
        ET.SubElement(conns, _q(SSD, "Connection"), startElement=c.start_element,
                      startConnector=c.start_connector, endElement=c.end_element, endConnector=c.end_connector)
    _units(ET.SubElement(root, _q(SSD, "Units")), units_used)
    exp = ET.SubElement(root, _q(SSD, "DefaultExperiment"), startTime=repr(system.start_time),
                        stopTime=repr(system.stop_time))
    # SSP 1.0 (TDefaultExperiment) holds ssd:Annotations with ssc:Annotation children
    anns = ET.SubElement(exp, _q(SSD, "Annotations"))
    ours = ET.SubElement(anns, _q(SSC, "Annotation"), type=MASTER_ANNOTATION)
    master = ET.SubElement(ours, _q(CC, "Master"), stepSize=repr(system.step), algorithm=system.algorithm,
                           coupling=system.coupling, extrapolation=system.extrapolation)
    if system.iterations is not None:  # written only when chosen: files without it choose from the FMUs
        master.set("iterations", str(system.iterations))
    osp = ET.SubElement(anns, _q(SSC, "Annotation"), type=OSP_ANNOTATION)
    ET.SubElement(ET.SubElement(osp, _q(OSP, "Algorithm")), _q(OSP, "FixedStepAlgorithm"),
                  baseStepSize=repr(system.step))
    return root


def _xml_bytes(root: ET.Element) -> bytes:
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def write_ssd(system: System, path) -> Path:
    """Write ``system`` to ``path`` (a ``.ssd`` file); returns the path."""
    path = Path(path)
    root = _ssd(system, _variables(system), {c.name: c.source for c in system.components}, None)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_xml_bytes(root))
    return path


def _file_name(name: str, suffix: str, taken: set) -> str:
    """``name`` + ``suffix`` as a portable file name, unique among ``taken``
    even on a file system that ignores case."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name).strip(".") or "component"
    candidate, k = stem + suffix, 1
    while candidate.lower() in taken:
        k += 1
        candidate = f"{stem}_{k}{suffix}"
    taken.add(candidate.lower())
    return candidate


def _zip_info(name: str) -> zipfile.ZipInfo:
    # Fixed time stamp, system and permissions, no compression (an FMU is a
    # zip already; zlib builds may differ in their output): the same inputs
    # give the same bytes on any machine.
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    info.create_system = 3
    info.external_attr = (stat.S_IFREG | 0o644) << 16
    return info


def _ssp_entries(system: System) -> dict:
    """The files of the SSP layout, by name: bytes, or the FMU's path."""
    from ..fmus.build import prepare_fmus
    from ..runtime.plan import plan_of

    prepare_fmus(system)
    # an archive others open must hold a system that fits together: every
    # FMU read through the archive checks, every value checked against its variable
    plan_of(system)
    entries, sources, ssv_sources, fmu_names, taken = {}, {}, {}, {}, set()
    for comp in system.components:
        src = system.source_path(comp)
        key = src.resolve()
        if key not in fmu_names:
            fmu_names[key] = "resources/" + _file_name(Path(src.name).stem, ".fmu", taken)
            entries[fmu_names[key]] = src
        sources[comp.name] = fmu_names[key]
    variables = _variables(system)
    for comp in system.components:
        if comp.parameters:
            name = "resources/" + _file_name(comp.name, ".ssv", taken)
            ssv_sources[comp.name] = name
            entries[name] = _xml_bytes(_parameter_set(comp, variables[comp.name], standalone=True))
    entries[SSP_SSD] = _xml_bytes(_ssd(system, variables, sources, ssv_sources))
    return entries


def _make_parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CraneCosimError(f"the folder {path.parent} for {path.name} cannot be created "
                              f"({exc.strerror})") from None


def write_ssp(system: System, path) -> Path:
    """Write ``system`` as an SSP 1.0 archive at ``path`` (replaced if it
    exists) and return the path.

    The project's own FMUs are built or refreshed first
    (:func:`~crane_cosim.fmus.build.prepare_fmus`); the system is checked as
    a run would check it (:func:`~crane_cosim.runtime.plan.plan_of`: every FMU
    read through the archive checks, every connection and value) and every
    FMU copied as it is.  The archive
    holds ``SystemStructure.ssd``, ``resources/<Model>.fmu`` and
    ``resources/<component>.ssv`` (one per component with parameters, its
    set named :data:`PARAMETER_SET`), entries sorted, with fixed time stamps
    and permissions: the same system and FMUs give the same bytes.
    """
    path = Path(path)
    entries = _ssp_entries(system)
    _make_parent(path)
    if path.is_dir():
        raise CraneCosimError(f"{path} is a folder; name the .ssp file to write")
    part = path.with_name(f".{path.name}.part")
    try:
        with zipfile.ZipFile(part, "w") as z:
            for name in sorted(entries):
                data = entries[name]
                if isinstance(data, Path):
                    with open(data, "rb") as src, z.open(_zip_info(name), "w") as dst:
                        shutil.copyfileobj(src, dst, 1 << 20)
                else:
                    z.writestr(_zip_info(name), data)
        part.replace(path)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise CraneCosimError(f"{path} cannot be written ({exc.strerror or exc})") from None
    return path


def write_ssp_folder(system: System, folder) -> Path:
    """The layout of :func:`write_ssp`, unpacked into ``folder`` (ecos and
    libcosim read such folders too); returns its ``SystemStructure.ssd``."""
    folder = Path(folder)
    for name, data in _ssp_entries(system).items():
        target = folder / name
        _make_parent(target)
        if isinstance(data, Path):
            shutil.copyfile(data, target)
        else:
            target.write_bytes(data)
    return folder / SSP_SSD


# -- reading ----------------------------------------------------------------------------

def find_ssd(path) -> Path:
    """``path`` itself if it is a file, else the single ``.ssd`` in the folder
    (``SystemStructure.ssd`` preferred)."""
    path = Path(path)
    if path.is_dir():
        preferred = path / SSP_SSD
        if preferred.is_file():
            return preferred
        found = sorted(path.glob("*.ssd"))
        if len(found) != 1:
            what = "no .ssd file" if not found else f"{len(found)} .ssd files ({', '.join(f.name for f in found)})"
            raise CraneCosimError(f"folder {path} holds {what}; name the system file")
        return found[0]
    if not path.exists():
        raise CraneCosimError(f"system file {path} does not exist")
    if zipfile.is_zipfile(path):
        raise CraneCosimError(f"{path} is an SSP archive, not a .ssd file; open it with "
                              f"crane_cosim.files.ssp.open_system")
    return path


def _local_file(source: str, base: Path, root: Path | None, what: str) -> Path:
    """The file a ``source`` attribute names, relative to ``base``; within
    ``root`` when the system came from an archive."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", source)
    if scheme and len(scheme.group(1)) > 1:  # one letter: a Windows drive
        raise CraneCosimError(f"{what} is the URL {source!r}; crane-cosim reads local files only and fetches "
                              f"nothing")
    p = Path(source)
    p = p if p.is_absolute() else base / p
    if root is not None:
        resolved, top = p.resolve(), root.resolve()
        if resolved != top and top not in resolved.parents:
            raise CraneCosimError(f"{what} ({source!r}) lies outside its SSP archive")
    return p


def _value(value_el: ET.Element, where: str):
    tag, raw = value_el.tag, value_el.get("value")
    if tag not in (_q(SSV, "Real"), _q(SSV, "Integer"), _q(SSV, "Boolean"), _q(SSV, "String"),
                   _q(SSV, "Enumeration")):
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


def _bound_parameters(path: Path, comp: str, el: ET.Element, root: Path | None, limits) -> dict:
    """The parameter values of one component: its bindings in order (a later
    value replaces an earlier one), inline or from ``.ssv`` files."""
    params = {}
    for binding in el.iterfind(f"{_q(SSD, 'ParameterBindings')}/{_q(SSD, 'ParameterBinding')}"):
        source, inline = binding.get("source"), binding.find(_q(SSD, "ParameterValues"))
        if binding.find(_q(SSD, "ParameterMapping")) is not None:
            raise CraneCosimError(f"system file {path}: component {comp} uses a parameter mapping, which "
                                  f"crane-cosim does not read")
        if source is not None:
            if binding.get("sourceBase", "SSD") != "SSD":
                raise CraneCosimError(f"system file {path}: component {comp} binds parameters relative to "
                                      f"{binding.get('sourceBase')!r}; crane-cosim reads sources relative to "
                                      f"the .ssd only")
            ssv = _local_file(source, path.parent, root, f"system file {path}: the parameter source of {comp}")
            what = f"parameter file {ssv} of component {comp}"
            pset = read_xml(ssv, what, limits)
            if pset.tag != _q(SSV, "ParameterSet"):
                raise CraneCosimError(f"{what} is not an SSP 1.0 parameter set (root element {pset.tag!r})")
        elif inline is not None:
            pset, what = inline.find(_q(SSV, "ParameterSet")), f"system file {path}"
            if pset is None:
                raise CraneCosimError(f"system file {path}: component {comp} has ssd:ParameterValues without "
                                      f"an ssv:ParameterSet")
        else:
            continue
        prefix = binding.get("prefix", "")
        for p in pset.iterfind(f"{_q(SSV, 'Parameters')}/{_q(SSV, 'Parameter')}"):
            name = p.get("name")
            if not name:
                raise CraneCosimError(f"{what}: a parameter of {comp} has no name")
            if prefix:  # SSP: the binding applies the parameters named <prefix><variable>
                if not name.startswith(prefix):
                    continue
                name = name[len(prefix):]
            value_el = next(iter(p), None)
            if value_el is None:
                raise CraneCosimError(f"{what}: parameter {comp}.{name} has no value")
            params[name] = _value(value_el, f"{what}: parameter {comp}.{name}")
    return params


def _step_hint(path: Path, comp: str, el: ET.Element) -> float | None:
    """A component's own step [s], from the annotation OSP libcosim reads
    (``osp:StepSizeHint``), or None."""
    for annotation in el.iterfind(f"{_q(SSD, 'Annotations')}/{_q(SSC, 'Annotation')}"):
        hint = annotation.find(_q(OSP, "StepSizeHint")) if annotation.get("type") == OSP_ANNOTATION else None
        if hint is not None:
            try:
                step = float(hint.get("value"))
            except (TypeError, ValueError):
                step = None
            if step is None or not step >= 0:
                raise CraneCosimError(f"system file {path}: component {comp} has the step {hint.get('value')!r}, "
                                      f"which is not a time in seconds")
            return step or None  # 0: libcosim's "the base step"
    return None


def read_ssd(path, limits: Limits | None = None, _archive_root: Path | None = None) -> System:
    """Read a ``.ssd`` file (or a folder holding one) into a :class:`System`,
    with the ``.ssv`` files its bindings name (relative to the ``.ssd``).
    An ``.ssp`` archive is opened with :func:`open_system`."""
    path = find_ssd(path)
    root = read_xml(path, f"system file {path}", limits)
    if root.tag != _q(SSD, "SystemStructureDescription"):
        raise CraneCosimError(f"system file {path} is not an SSP 1.0 System Structure Description "
                              f"(root element {root.tag!r})")
    sysel = root.find(_q(SSD, "System"))
    if sysel is None:
        raise CraneCosimError(f"system file {path} has no ssd:System element")
    if sysel.find(_q(SSD, "ParameterBindings")) is not None:
        raise CraneCosimError(f"system file {path} binds parameters to the whole system, which crane-cosim "
                              f"does not read; bind them to each component")
    system = System(name=sysel.get("name") or root.get("name") or path.stem, base_dir=path.parent)
    for el in sysel.iterfind(f"{_q(SSD, 'Elements')}/{_q(SSD, 'Component')}"):
        name, source = el.get("name"), el.get("source")
        if not name or not source:
            raise CraneCosimError(f"system file {path}: a component lacks its name or source attribute")
        _local_file(source, path.parent, _archive_root, f"system file {path}: the source of component {name}")
        comp = system.add_component(name, source, **_bound_parameters(path, name, el, _archive_root, limits))
        comp.step = _step_hint(path, name, el)
    for c in sysel.iterfind(f"{_q(SSD, 'Connections')}/{_q(SSD, 'Connection')}"):
        ends = [c.get(k) for k in ("startElement", "startConnector", "endElement", "endConnector")]
        if not all(ends):
            raise CraneCosimError(f"system file {path}: a connection lacks one of startElement, "
                                  f"startConnector, endElement, endConnector")
        system.connect(f"{ends[0]}.{ends[1]}", f"{ends[2]}.{ends[3]}")
    exp = root.find(_q(SSD, "DefaultExperiment"))
    if exp is not None:
        try:
            system.start_time = float(exp.get("startTime", system.start_time))
            system.stop_time = float(exp.get("stopTime", system.stop_time))
            master = exp.find(f".//{_q(CC, 'Master')}")
            osp = exp.find(f".//{_q(OSP, 'FixedStepAlgorithm')}")
            if master is not None:
                system.step = float(master.get("stepSize", system.step))
                system.algorithm = master.get("algorithm", system.algorithm)
                system.coupling = master.get("coupling", system.coupling)
                system.extrapolation = master.get("extrapolation", system.extrapolation)
                if master.get("iterations") is not None:
                    system.iterations = int(master.get("iterations"))
            elif osp is not None:
                system.step = float(osp.get("baseStepSize"))
        except (TypeError, ValueError) as exc:
            raise CraneCosimError(f"system file {path}: bad DefaultExperiment ({exc})") from None
    return system


@dataclass
class OpenedSystem:
    """A system read by :func:`open_system`."""
    system: System
    ssd: Path              #: the .ssd read (inside the extraction folder for an archive)
    archive: Path | None   #: the .ssp archive, if the system came from one

    @property
    def folder(self) -> Path:
        """Where the system lives for the user: the archive's folder, or the .ssd's."""
        return (self.archive or self.ssd).parent


def is_ssp_archive(path) -> bool:
    path = Path(path)
    return path.is_file() and zipfile.is_zipfile(path)


@contextlib.contextmanager
def open_system(path, limits: Limits | None = None):
    """Read the system at ``path``: a ``.ssd`` file, a folder holding one, or
    an SSP archive (a zip of any name with ``SystemStructure.ssd`` at its
    root).  An archive is checked and extracted (:mod:`crane_cosim.files.archive`)
    into a temporary folder that lives until the ``with`` block ends; the
    files it names must lie inside it.

    >>> with open_system("CraneOnVessel.ssp") as opened:
    ...     run_cosim(opened.system, "results")
    """
    path = Path(path)
    if not is_ssp_archive(path):
        yield OpenedSystem(read_ssd(path, limits), find_ssd(path), None)
        return
    with tempfile.TemporaryDirectory(prefix="crane_cosim_ssp_") as tmp:
        root = safe_extract(path, Path(tmp) / "ssp", "SSP archive", limits)
        ssd = root / SSP_SSD
        if not ssd.is_file():
            raise CraneCosimError(f"SSP archive {path} has no {SSP_SSD} at its root")
        try:
            yield OpenedSystem(read_ssd(ssd, limits, _archive_root=root), ssd, path)
        except CraneCosimError as exc:
            # name a file of the archive as <archive>/<entry>, not by the temporary folder that is gone
            exc.args = tuple(a.replace(str(root), str(path)) if isinstance(a, str) else a for a in exc.args)
            raise
