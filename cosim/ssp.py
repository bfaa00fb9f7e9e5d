"""Read and write SSP 1.0 System Structure Descriptions (``.ssd``).

What is written: one ``ssd:System`` with an ``ssd:Component`` per FMU
(``source`` relative to the ``.ssd``), its connectors with units, its
parameter values inline (``ssd:ParameterBindings/ssd:ParameterBinding/
ssd:ParameterValues/ssv:ParameterSet``), the connections, the units used, and
``ssd:DefaultExperiment`` with two annotations: ``org.crane-cosim.master``
(step size, algorithm, coupling and input extrapolation of our master) and
``com.opensimulationplatform`` (the fixed-step algorithm as OSP libcosim
reads it), so the same file opens in libcosim and other SSP tools.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .errors import CraneCosimError
from .fmu import describe_variables
from .system import System
from .blocks.units import BASE_UNITS, base_unit_exponents

SSD = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
OSP = "http://opensimulationplatform.com/SSP/OSPAnnotations"
CC = "https://crane-cosim.org/SSP/MasterAnnotations"
for _p, _ns in (("ssd", SSD), ("ssc", SSC), ("ssv", SSV), ("osp", OSP), ("cc", CC)):
    ET.register_namespace(_p, _ns)

MASTER_ANNOTATION = "org.crane-cosim.master"
OSP_ANNOTATION = "com.opensimulationplatform"
FMU_TYPE = "application/x-fmu-sharedlibrary"


def _q(ns, tag):
    return f"{{{ns}}}{tag}"


def write_ssd(system: System, path) -> Path:
    """Write ``system`` to ``path`` (a ``.ssd`` file); returns the path."""
    path = Path(path)
    root = ET.Element(_q(SSD, "SystemStructureDescription"), version="1.0", name=system.name)
    sysel = ET.SubElement(root, _q(SSD, "System"), name=system.name)
    elements = ET.SubElement(sysel, _q(SSD, "Elements"))
    units_used = set()
    for comp in system.components:
        el = ET.SubElement(elements, _q(SSD, "Component"), name=comp.name, type=FMU_TYPE, source=comp.source)
        try:
            variables = describe_variables(system.source_path(comp))
        except CraneCosimError:
            variables = {}  # FMU not there (yet): the component is written without connectors
        connectors = ET.SubElement(el, _q(SSD, "Connectors"))
        for v in variables.values():
            if v.causality not in ("input", "output", "parameter"):
                continue
            c = ET.SubElement(connectors, _q(SSD, "Connector"), name=v.name, kind=v.causality)
            attrs = {"unit": v.unit} if v.unit and v.type == "Real" else {}
            ET.SubElement(c, _q(SSC, v.type), attrs)
            if v.unit:
                units_used.add(v.unit)
        if comp.parameters:
            binding = ET.SubElement(ET.SubElement(el, _q(SSD, "ParameterBindings")), _q(SSD, "ParameterBinding"))
            pset = ET.SubElement(ET.SubElement(binding, _q(SSD, "ParameterValues")), _q(SSV, "ParameterSet"),
                                 version="1.0", name=f"{comp.name}_parameters")
            params = ET.SubElement(pset, _q(SSV, "Parameters"))
            for name, value in comp.parameters.items():
                var = variables.get(name)
                p = ET.SubElement(params, _q(SSV, "Parameter"), name=name)
                if var is not None and var.type == "Boolean":
                    ET.SubElement(p, _q(SSV, "Boolean"), value=str(bool(value)).lower())
                else:
                    attrs = {"value": repr(float(value))}
                    if var is not None and var.unit:
                        attrs["unit"] = var.unit
                    ET.SubElement(p, _q(SSV, "Real"), attrs)
    conns = ET.SubElement(sysel, _q(SSD, "Connections"))
    for c in system.connections:
        ET.SubElement(conns, _q(SSD, "Connection"), startElement=c.start_element,
                      startConnector=c.start_connector, endElement=c.end_element, endConnector=c.end_connector)
    units = ET.SubElement(root, _q(SSD, "Units"))
    for name in sorted(units_used):
        u = ET.SubElement(units, _q(SSC, "Unit"), name=name)
        exps = base_unit_exponents(name)
        ET.SubElement(u, _q(SSC, "BaseUnit"), {k: str(exps[k]) for k in BASE_UNITS if k in exps})
    exp = ET.SubElement(root, _q(SSD, "DefaultExperiment"), startTime=repr(system.start_time),
                        stopTime=repr(system.stop_time))
    # SSP 1.0 (TDefaultExperiment) holds ssd:Annotations with ssc:Annotation children
    anns = ET.SubElement(exp, _q(SSD, "Annotations"))
    ours = ET.SubElement(anns, _q(SSC, "Annotation"), type=MASTER_ANNOTATION)
    ET.SubElement(ours, _q(CC, "Master"), stepSize=repr(system.step), algorithm=system.algorithm,
                  coupling=system.coupling, extrapolation=system.extrapolation)
    osp = ET.SubElement(anns, _q(SSC, "Annotation"), type=OSP_ANNOTATION)
    ET.SubElement(ET.SubElement(osp, _q(OSP, "Algorithm")), _q(OSP, "FixedStepAlgorithm"),
                  baseStepSize=repr(system.step))
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def find_ssd(path) -> Path:
    """``path`` itself if it is a file, else the single ``.ssd`` in the folder
    (``SystemStructure.ssd`` preferred)."""
    path = Path(path)
    if path.is_dir():
        preferred = path / "SystemStructure.ssd"
        if preferred.is_file():
            return preferred
        found = sorted(path.glob("*.ssd"))
        if len(found) != 1:
            what = "no .ssd file" if not found else f"{len(found)} .ssd files ({', '.join(f.name for f in found)})"
            raise CraneCosimError(f"folder {path} holds {what}; name the system file")
        return found[0]
    if not path.exists():
        raise CraneCosimError(f"system file {path} does not exist")
    return path


def read_ssd(path) -> System:
    """Read a ``.ssd`` file (or a folder holding one) into a :class:`System`."""
    path = find_ssd(path)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise CraneCosimError(f"system file {path} is not valid XML ({exc})") from None
    if root.tag != _q(SSD, "SystemStructureDescription"):
        raise CraneCosimError(f"system file {path} is not an SSP 1.0 System Structure Description "
                              f"(root element {root.tag!r})")
    sysel = root.find(_q(SSD, "System"))
    if sysel is None:
        raise CraneCosimError(f"system file {path} has no ssd:System element")
    system = System(name=sysel.get("name") or root.get("name") or path.stem, base_dir=path.parent)
    for el in sysel.iterfind(f"{_q(SSD, 'Elements')}/{_q(SSD, 'Component')}"):
        name, source = el.get("name"), el.get("source")
        if not name or not source:
            raise CraneCosimError(f"system file {path}: a component lacks its name or source attribute")
        params = {}
        for p in el.iterfind(f".//{_q(SSV, 'Parameter')}"):
            value_el = next(iter(p), None)
            if value_el is None or value_el.get("value") is None:
                raise CraneCosimError(f"system file {path}: parameter {name}.{p.get('name')} has no value")
            raw = value_el.get("value")
            try:
                params[p.get("name")] = (raw == "true") if value_el.tag == _q(SSV, "Boolean") else float(raw)
            except ValueError:
                raise CraneCosimError(f"system file {path}: parameter {name}.{p.get('name')} has the "
                                      f"non-numeric value {raw!r}") from None
        system.add_component(name, source, **params)
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
            elif osp is not None:
                system.step = float(osp.get("baseStepSize"))
        except (TypeError, ValueError) as exc:
            raise CraneCosimError(f"system file {path}: bad DefaultExperiment ({exc})") from None
    return system
