"""A DCP slave description (DCP 1.0, chapter 6: the ``dcpSlaveDescription``
XML document): what a slave is, which operating modes and time
resolutions it takes, where it listens, and its variables.

:func:`description_of` describes one of our blocks served as a slave
(``crane-cosim dcp-slave``): its outputs, inputs and parameters in that
order of value references, each Real a ``Float64`` and each Boolean a
``Uint8``, the outputs' run dependencies from the block's feedthrough, its
units defined by their SI exponents.  :func:`description_xml` writes a
description, :func:`read_description` reads one (a device's, for
``crane-cosim build-dcp-bridge``), refusing in one sentence naming the file
what this project cannot use.  Standard library only (a DCP bridge FMU
carries it).
"""
from __future__ import annotations

import uuid as uuid_module
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ...blocks.units import UNITS, base_unit_attributes
from .pdu import DATA_TYPE_CODES

__all__ = ["DcpVariable", "SlaveDescription", "DescriptionError", "description_of", "description_xml",
           "read_description", "read_description_text", "RESOLUTION"]

#: the time resolution a served block recommends [s]: a soft-real-time step
#: (1 ms, the finest step of the examples, each of which is a whole number
#: of it); a master may set any other from 1 µs to 1 s (a ResolutionRange)
RESOLUTION = Fraction(1, 1000)
#: the DCP type of each of our port types, and back
_OUR_TYPES = {"Real": "float64", "Integer": "int32", "Boolean": "uint8"}
_ELEMENTS = {"uint8": "Uint8", "uint16": "Uint16", "uint32": "Uint32", "uint64": "Uint64", "int8": "Int8",
             "int16": "Int16", "int32": "Int32", "int64": "Int64", "float32": "Float32", "float64": "Float64"}
_TYPES_OF = {element: name for name, element in _ELEMENTS.items()}


class DescriptionError(ValueError):
    """A slave description this project cannot use, said in one sentence."""


@dataclass(frozen=True)
class DcpVariable:
    """A variable of a slave: ``causality`` one of input, output,
    parameter; ``type`` a DCP data type (``float64``, ``uint8`` ...);
    ``depends_on``: for an output, the value references of the inputs its
    run value depends on (None: not declared, taken as all of them)."""
    name: str
    vr: int
    causality: str
    type: str
    start: float
    unit: str = ""
    description: str = ""
    variability: str = "continuous"
    depends_on: tuple | None = None

    @property
    def type_code(self) -> int:
        return DATA_TYPE_CODES[self.type]


@dataclass(frozen=True)
class SlaveDescription:
    """A slave: ``name``, ``uuid`` (text), the operating modes it takes
    (``NonRealTime``, ``SoftRealTime``), its time ``resolution`` [s] and
    whether that is ``fixed`` (else any the master sets), its control
    endpoint ``host``:``port`` on UDP/IPv4, the ``ports`` (ranges, both
    ends included) where it may receive data, its ``variables``."""
    name: str
    uuid: str
    op_modes: tuple = ("NonRealTime", "SoftRealTime")
    resolution: Fraction = RESOLUTION
    fixed: bool = False
    host: str = "127.0.0.1"
    port: int = 0
    ports: tuple = ((1024, 65535),)
    variables: tuple = field(default_factory=tuple)
    variable_steps: bool = True
    #: the steps a non-real-time ``STC_do_step`` may ask: (default, fixed, least, most)
    nrt_steps: tuple = (1, False, 1, 2**32 - 1)

    def steps_allowed(self, n: int) -> bool:
        default, fixed, least, most = self.nrt_steps
        return n == default if fixed else least <= n <= most

    @property
    def uuid_bytes(self) -> bytes:
        """The uuid as ``STC_register`` carries it: its 16 bytes in the
        order of its text."""
        return uuid_module.UUID(self.uuid).bytes

    def of(self, causality: str) -> list[DcpVariable]:
        return [v for v in self.variables if v.causality == causality]

    def data_port(self) -> int:
        """The port where the slave is told to receive its inputs: its
        control port if its ranges allow it (one socket serves both), else
        the first it offers."""
        if any(lo <= self.port <= hi for lo, hi in self.ports):
            return self.port
        return self.ports[0][0]


def description_of(block_cls, host: str, port: int, name: str | None = None) -> SlaveDescription:
    """The description of ``block_cls`` served at ``host``:``port``: a uuid
    of its name, address and ports (the same slave is described the same
    way each time), outputs, inputs, then its Real and Boolean
    parameters."""
    variables, vr = [], 1
    deps = block_cls.output_dependencies()
    input_vr = {v.name: len(block_cls.outputs) + 1 + i for i, v in enumerate(block_cls.inputs)}
    for causality, group in (("output", block_cls.outputs), ("input", block_cls.inputs),
                             ("parameter", [p for p in block_cls.parameters if p.type in _OUR_TYPES])):
        for v in group:
            variables.append(DcpVariable(
                v.name, vr, causality, _OUR_TYPES[v.type], float(v.start), v.unit, v.description,
                ("tunable" if v.tunable else "fixed") if causality == "parameter" else "continuous",
                tuple(input_vr[i] for i in deps[v.name]) if causality == "output" else None))
            vr += 1
    name = name or block_cls.model_name
    text = "|".join([name, host, str(port)] + [f"{v.causality} {v.name} {v.type}" for v in variables])
    return SlaveDescription(name, str(uuid_module.uuid5(uuid_module.NAMESPACE_URL, "crane-cosim:" + text)),
                            host=host, port=int(port), variables=tuple(variables))


def _number(x: float) -> str:
    return repr(float(x)) if not float(x).is_integer() or abs(x) >= 1e16 else str(int(x))


def description_xml(d: SlaveDescription) -> str:
    """The ``dcpSlaveDescription`` document of ``d`` (DCP 1.0, schema-valid)."""
    root = ET.Element("dcpSlaveDescription", dcpMajorVersion="1", dcpMinorVersion="0", dcpSlaveName=d.name,
                      uuid=d.uuid, generationTool="crane-cosim", variableNamingConvention="flat")
    modes = ET.SubElement(root, "OpMode")
    for mode in ("SoftRealTime", "NonRealTime"):  # the schema's order: HardRealTime, SoftRealTime, NonRealTime
        if mode in d.op_modes:
            default, fixed, least, most = d.nrt_steps
            ET.SubElement(modes, mode, **({"defaultSteps": str(default), "fixedSteps": str(fixed).lower(),
                                           **({} if fixed else {"minSteps": str(least), "maxSteps": str(most)})}
                                          if mode == "NonRealTime" else {}))
    units = sorted({v.unit for v in d.variables if v.unit and v.unit in UNITS})
    if units:
        defs = ET.SubElement(root, "UnitDefinitions")
        for u in units:
            ET.SubElement(ET.SubElement(defs, "Unit", name=u), "BaseUnit", **base_unit_attributes(u))
    res = ET.SubElement(root, "TimeRes")
    ET.SubElement(res, "Resolution", numerator=str(d.resolution.numerator), denominator=str(d.resolution.denominator),
                  fixed=str(d.fixed).lower(), recommended="true")
    if not d.fixed:
        ET.SubElement(res, "ResolutionRange", numeratorFrom="1", numeratorTo="1000000", denominator="1000000")
    udp = ET.SubElement(ET.SubElement(root, "TransportProtocols"), "UDP_IPv4")
    ET.SubElement(udp, "Control", host=d.host, port=str(d.port))
    dat = ET.SubElement(udp, "DAT_input_output", host=d.host)
    for lo, hi in d.ports:
        ET.SubElement(dat, "AvailablePortRange", **{"from": str(lo), "to": str(hi)})
    ET.SubElement(root, "CapabilityFlags", canAcceptConfigPdus="true", canHandleReset="true",
                  canHandleVariableSteps=str(d.variable_steps).lower(), canMonitorHeartbeat="false",
                  canProvideLogOnRequest="false", canProvideLogOnNotification="false")
    variables = ET.SubElement(root, "Variables")
    for v in d.variables:
        attrs = {"name": v.name, "valueReference": str(v.vr)}
        if v.description:
            attrs["description"] = v.description
        if v.causality == "parameter":
            attrs["variability"] = v.variability
        var = ET.SubElement(variables, "Variable", **attrs)
        kind = ET.SubElement(var, v.causality.capitalize())
        typed = {"start": _number(v.start)}
        if v.unit and v.type.startswith("float"):
            typed["unit"] = v.unit
        ET.SubElement(kind, _ELEMENTS[v.type], **typed)
        if v.causality == "output" and v.depends_on is not None:
            deps = ET.SubElement(kind, "Dependencies")
            for phase in ("Initialization", "Run"):
                group = ET.SubElement(deps, phase)
                for i in v.depends_on:
                    ET.SubElement(group, "Dependency", vr=str(i), dependencyKind="dependent")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def read_description(path) -> SlaveDescription:
    """The slave description in the file ``path``; :class:`DescriptionError`
    naming the file for what is not DCP 1.0 or not usable here (no UDP/IPv4
    control endpoint, no operating mode but hard real time, a variable of
    type String or Binary, a time resolution given only as a range)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise DescriptionError(f"slave description {path} cannot be read: {exc}") from None
    return read_description_text(text, f"slave description {path}", path.stem)


def read_description_text(text: str, where: str, name: str = "slave") -> SlaveDescription:
    """The slave description in ``text``; ``where`` names it in the
    sentence of a :class:`DescriptionError` (see :func:`read_description`)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DescriptionError(f"{where} is not well-formed XML: {exc}") from None
    if root.tag != "dcpSlaveDescription":
        raise DescriptionError(f"{where} is not a DCP slave description: its root is <{root.tag}>, not "
                               f"<dcpSlaveDescription>")
    if (root.get("dcpMajorVersion"), root.get("dcpMinorVersion")) != ("1", "0"):
        raise DescriptionError(f"{where} is of DCP {root.get('dcpMajorVersion')}.{root.get('dcpMinorVersion')}; "
                               f"this project speaks DCP 1.0")
    try:
        uuid = str(uuid_module.UUID(root.get("uuid", "")))
    except ValueError:
        raise DescriptionError(f"{where}: uuid {root.get('uuid')!r} is not a UUID") from None
    modes = tuple(m.tag for m in root.find("OpMode") or () if m.tag in ("NonRealTime", "SoftRealTime"))
    if not modes:
        raise DescriptionError(f"{where} offers no non-real-time nor soft-real-time operating mode, the ones "
                               f"this project drives")
    control = root.find("TransportProtocols/UDP_IPv4/Control")
    if control is None or not control.get("host") or not control.get("port"):
        raise DescriptionError(f"{where} gives no UDP/IPv4 control endpoint (TransportProtocols/UDP_IPv4/Control "
                               f"with host and port), the transport this project speaks")
    dat = root.find("TransportProtocols/UDP_IPv4/DAT_input_output")
    ports = tuple((int(r.get("from")), int(r.get("to"))) for r in (dat.findall("AvailablePortRange")
                                                                    if dat is not None else ()))
    ports += tuple((int(p.get("port")),) * 2 for p in (dat.findall("AvailablePort") if dat is not None else ()))
    resolution = root.find("TimeRes/Resolution")
    if resolution is None:
        raise DescriptionError(f"{where} gives no TimeRes/Resolution (a range of resolutions is not taken here)")
    flags = root.find("CapabilityFlags")
    nrt = root.find("OpMode/NonRealTime")
    nrt_steps = (1, True, 1, 1) if nrt is None else (
        int(nrt.get("defaultSteps", "1")), nrt.get("fixedSteps", "true") == "true", int(nrt.get("minSteps", "1")),
        int(nrt.get("maxSteps", nrt.get("defaultSteps", "1"))))
    variables = tuple(_variable(where, v) for v in root.findall("Variables/Variable"))
    return SlaveDescription(
        root.get("dcpSlaveName", name), uuid, modes,
        Fraction(int(resolution.get("numerator", "1")), int(resolution.get("denominator", "1000"))),
        resolution.get("fixed", "true") == "true", control.get("host"), int(control.get("port")),
        ports or ((int(control.get("port")),) * 2,), variables,
        flags is not None and flags.get("canHandleVariableSteps", "false") == "true", nrt_steps)


def _variable(where: str, v) -> DcpVariable:
    name, vr = v.get("name"), int(v.get("valueReference"))
    kind = next((c for c in v if c.tag in ("Input", "Output", "Parameter", "StructuralParameter")), None)
    if kind is None:
        raise DescriptionError(f"{where}: variable {name} has no Input, Output or Parameter element")
    typed = next((c for c in kind if c.tag in _TYPES_OF or c.tag in ("String", "Binary")), None)
    if typed is None or typed.tag not in _TYPES_OF:
        what = typed.tag if typed is not None else "no type"
        raise DescriptionError(f"{where}: variable {name} is of {what}; this project exchanges numbers only "
                               f"(Float64 ... Uint8)")
    if kind.find("Dimensions") is not None:
        raise DescriptionError(f"{where}: variable {name} is an array (Dimensions); this project exchanges "
                               f"scalars only")
    start = (typed.get("start") or "0").split()[0]
    deps = kind.find("Dependencies/Run")
    return DcpVariable(name, vr, kind.tag.lower() if kind.tag != "StructuralParameter" else "parameter",
                       _TYPES_OF[typed.tag], float(start), typed.get("unit", ""), v.get("description", ""),
                       v.get("variability", "continuous"),
                       tuple(int(d.get("vr")) for d in deps.findall("Dependency")) if deps is not None else None)
