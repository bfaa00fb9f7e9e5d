"""Writing SSP 1.0: a system as a ``.ssd`` beside its FMUs, or as an
archive (``.ssp``) or its unpacked folder, byte-reproducible (``docs/ssp.md``)."""
from __future__ import annotations

import re
import shutil
import stat
import warnings
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from ..blocks.units import base_unit_attributes
from ..errors import CraneCosimError
from ..fmus.build import prepare_fmus
from ..runtime.model import describe
from ..runtime.plan import plan_of
from ..runtime.system import System
from ..runtime.types import FAMILY, _article, value_of
from .connection_transformations import write_transformation
from .namespaces import CC, FMU_TYPE, MASTER_ANNOTATION, OSP, OSP_ANNOTATION, PARAMETER_SET, SSC, SSD, SSP_SSD, SSV, _q

__all__ = ["write_ssd", "write_ssp", "write_ssp_folder", "SSP_TYPES"]


def _variables(system: System) -> dict:
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
#: Real is a double, Integer 32 bits).  A connector of another type is
#: written without one, which SSP 1.0 allows, and only where a connection
#: needs it; an Enumeration's (``ssc:Enumeration`` naming an
#: ``ssd:Enumerations`` entry) stops both OSP libcosim and ecos, which leave
#: Enumeration variables out, so it is never set or connected in an archive)
SSP_TYPES = {"Real": "Real", "Float64": "Real", "Integer": "Integer", "Int32": "Integer", "Int16": "Integer",
             "Int8": "Integer", "UInt16": "Integer", "UInt8": "Integer", "Boolean": "Boolean", "String": "String"}


def _parameter(params: ET.Element, comp: str, name: str, value, var, units: set) -> None:
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
    if FAMILY.get(kind) == "integer" and -2 ** 31 <= int(value) < 2 ** 31:
        kind = "Integer"  # SSP 1.0's Integer holds 32 bits: any integer type's value that fits
    elif FAMILY.get(kind) == "real":
        kind = "Real"
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
        raise CraneCosimError(f"{comp}.{name} = {value!r} is {_article(kind)} {kind} value, which an SSP 1.0 "
                              f"parameter set cannot hold (its Integer has 32 bits)")


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
        ET.SubElement(ET.SubElement(parent, _q(SSC, "Unit"), name=name), _q(SSC, "BaseUnit"),
                      base_unit_attributes(name))


def _ssd(system: System, variables: dict, sources: dict, ssv_sources: dict | None) -> ET.Element:
    """The ``.ssd`` tree; ``sources`` maps component names to FMU sources,
    ``ssv_sources`` (if given) to ``.ssv`` sources instead of inline values."""
    root = ET.Element(_q(SSD, "SystemStructureDescription"), version="1.0", name=system.name)
    sysel = ET.SubElement(root, _q(SSD, "System"), name=system.name)
    elements = ET.SubElement(sysel, _q(SSD, "Elements"))
    units_used = set()
    connected = {end for c in system.connections
                 for end in ((c.start_element, c.start_connector), (c.end_element, c.end_connector))}
    for comp in system.components:
        el = ET.SubElement(elements, _q(SSD, "Component"), name=comp.name, type=FMU_TYPE, source=sources[comp.name])
        connectors = ET.SubElement(el, _q(SSD, "Connectors"))
        for v in variables[comp.name].values():
            kind = SSP_TYPES.get(v.type) if not v.shape else None
            if v.causality not in ("input", "output", "parameter"):
                continue
            if kind is None and (comp.name, v.name) not in connected:
                # a connector of no SSP 1.0 type is declared only where a
                # connection needs it: OSP libcosim refuses the file over
                # one ("A valid connector type was not found!")
                continue
            c = ET.SubElement(connectors, _q(SSD, "Connector"), name=v.name, kind=v.causality)
            if kind is not None:
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
        write_transformation(ET.SubElement(conns, _q(SSD, "Connection"), startElement=c.start_element,
                                           startConnector=c.start_connector, endElement=c.end_element,
                                           endConnector=c.end_connector), c)
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


#: what an archive for other hosts cannot hold of an Enumeration, and why
_NO_ENUMERATIONS = ("neither OSP libcosim nor ecos reads Enumeration variables (both leave them out of an FMU's "
                    "variables)")


def _refuse_enumerations(system: System, variables: dict) -> None:
    """Refuse a system whose archive would set or connect an Enumeration
    variable: OSP libcosim and ecos leave such variables out of every FMU
    they load, and their SSP readers stop at ``ssv:Enumeration`` and
    ``ssc:Enumeration``, so no archive can carry its value or connection
    to them.  An Enumeration neither set nor connected is left out of the
    connectors (:func:`_ssd`) and does not matter."""
    for comp in system.components:
        for name in comp.parameters:
            var = variables[comp.name].get(name)
            if var is not None and var.type == "Enumeration":
                raise CraneCosimError(f"{comp.name}.{name} is an Enumeration given a value, and {_NO_ENUMERATIONS}; "
                                      f"export the system without a value for it")
    for c in system.connections:
        for comp, name in ((c.start_element, c.start_connector), (c.end_element, c.end_connector)):
            var = variables.get(comp, {}).get(name)
            if var is not None and var.type == "Enumeration":
                raise CraneCosimError(f"the connection {c} joins the Enumeration {comp}.{name}, and "
                                      f"{_NO_ENUMERATIONS}; export the system without this connection")


def _note_fmi3(plan) -> None:
    """A warning naming the components of FMI 3.0 FMUs, which ecos runs and
    OSP libcosim (it loads FMI 1.0 and 2.0 FMUs only) cannot: the archive is
    still written, for ecos and the other hosts of FMI 3.0."""
    fmi3 = [part.name for part in plan.parts if part.model is not None and part.model.fmi_version == "3.0"]
    if fmi3:
        warnings.warn(f"the component{'s' * (len(fmi3) > 1)} {', '.join(fmi3)} {'are' if len(fmi3) > 1 else 'is'} "
                      f"of FMI 3.0: ecos runs this archive, OSP libcosim (FMI 1.0 and 2.0 only) cannot", stacklevel=3)


def _ssp_entries(system: System) -> dict:
    """The files of the SSP layout, by name: bytes, or the FMU's path."""
    prepare_fmus(system)
    # an archive others open must hold a system that fits together: every
    # FMU read through the archive checks, every value checked against its variable
    _note_fmi3(plan_of(system))
    variables = _variables(system)
    _refuse_enumerations(system, variables)
    entries, sources, ssv_sources, fmu_names, taken = {}, {}, {}, {}, set()
    for comp in system.components:
        src = system.source_path(comp)
        key = src.resolve()
        if key not in fmu_names:
            fmu_names[key] = "resources/" + _file_name(Path(src.name).stem, ".fmu", taken)
            entries[fmu_names[key]] = src
        sources[comp.name] = fmu_names[key]
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
    exists; its name must end in ``.ssp``) and return the path.

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
    if path.suffix != ".ssp":
        # OSP libcosim unpacks a file as an archive by this suffix alone, in
        # lower case (any other it reads as a .ssd); and the name given is
        # the name written, never one with a suffix added
        stem = path.stem if path.suffix.lower() == ".ssp" else path.name
        raise CraneCosimError(f"{path} does not end in .ssp, the suffix OSP libcosim opens an SSP archive by; "
                              f"name it {path.with_name(stem + '.ssp')}")
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
