"""Reading SSP 1.0: a ``.ssd`` (and the ``.ssv`` files it binds), or an
archive, checked and extracted safely (``files/archive.py``)."""
from __future__ import annotations

import contextlib
import re
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.parsers import expat

from ..errors import CraneCosimError
from ..files.archive import Limits, read_xml, safe_extract
from ..runtime.system import Connector, System
from .connection_transformations import transformation_of
from .namespaces import CC, OSP, OSP_ANNOTATION, SSC, SSD, SSP_SSD, _q
from .osp_system import OSP_FILE, is_osp_system, read_osp_system
from .parameter_bindings import FmuDescriptions, component_parameters, system_parameters
from .parameter_units import unit_definitions
from .sources import local_file

__all__ = ["read_ssd", "find_ssd", "open_system", "OpenedSystem", "is_ssp_archive"]


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
                              f"crane_cosim.ssp.open_system")
    return path


def _near_miss(written: str, expected: str) -> bool:
    """Whether ``written`` differs from ``expected`` only in case, scheme,
    a ``www.`` or surrounding slashes and blanks: a mistyped name, not
    another one."""
    def plain(name):
        name = re.sub(r"^[a-z][a-z0-9+.-]*://", "", name.strip().lower())
        return name.removeprefix("www.").strip("/")
    return written != expected and plain(written) == plain(expected)


def _osp_annotations(path: Path, where: str, el: ET.Element) -> list:
    """The ``ssc:Annotation`` elements of type ``com.opensimulationplatform``
    under ``el`` (a component or the ``ssd:DefaultExperiment``).

    OSP libcosim and ecos take an annotation of exactly this type and its
    elements by the prefix ``osp:`` they are written with, whatever
    namespace it stands for; we read namespaces.  So that a file never runs
    at one step here and at another there, a type that is a near miss of
    OSP's, or an element of an OSP annotation in another namespace than
    OSP's, is refused rather than passed over."""
    found = []
    for annotation in el.iterfind(f"{_q(SSD, 'Annotations')}/{_q(SSC, 'Annotation')}"):
        kind = annotation.get("type") or ""
        if _near_miss(kind, OSP_ANNOTATION):
            raise CraneCosimError(f"system file {path}: {where} has an annotation of type {kind!r}, a near "
                                  f"miss of OSP's {OSP_ANNOTATION!r}, which crane-cosim and OSP libcosim read")
        if kind != OSP_ANNOTATION:
            continue
        for child in annotation:
            namespace = child.tag[1:].partition("}")[0] if child.tag.startswith("{") else None
            if namespace != OSP:
                written = f"the namespace {namespace!r}" if namespace else "no namespace"
                raise CraneCosimError(f"system file {path}: {where} has an OSP annotation whose "
                                      f"{child.tag.rpartition('}')[2]} is in {written}, not in OSP's {OSP!r}")
        found.append(annotation)
    return found


def _osp_prefixes_checked(path: Path) -> None:
    """Refuse a file that writes an element of OSP's namespace under
    another prefix than ``osp:`` (or none): OSP libcosim and ecos find OSP's
    annotations by that prefix alone and would pass over a step we apply.
    The file has passed :func:`read_xml` (no DTD, within the size limit);
    ElementTree keeps no prefixes, so it is read again with them."""
    wrong = []

    def start(name, _attrs):
        uri, _, rest = name.partition(" ")
        local, _, prefix = rest.partition(" ")
        if uri == OSP and prefix != "osp":
            wrong.append((f"{prefix}:{local}" if prefix else local, local))

    parser = expat.ParserCreate(namespace_separator=" ")
    parser.namespace_prefixes = True
    parser.StartElementHandler = start
    parser.Parse(path.read_bytes(), True)
    if wrong:
        written, local = wrong[0]
        raise CraneCosimError(f"system file {path} writes OSP's {local} as {written}, and OSP libcosim and ecos "
                              f"find OSP annotations by the prefix osp: alone (they would pass over it); write "
                              f"osp:{local} with xmlns:osp=\"{OSP}\"")


def _step_hint(path: Path, comp: str, el: ET.Element) -> float | None:
    """A component's own step [s], from the annotation OSP libcosim reads
    (``osp:StepSizeHint``), or None."""
    for annotation in _osp_annotations(path, f"component {comp}", el):
        hint = annotation.find(_q(OSP, "StepSizeHint"))
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


#: the type elements of an ``ssd:Connector`` (SSP 1.0 section 5.3.2.1)
_CONNECTOR_TYPES = ("Real", "Integer", "Boolean", "String", "Enumeration", "Binary")


def _connectors(path: Path, comp: str, el: ET.Element) -> dict:
    """The ``ssd:Connector`` declarations of component ``comp``: name ->
    :class:`Connector`."""
    found = {}
    for c in el.iterfind(f"{_q(SSD, 'Connectors')}/{_q(SSD, 'Connector')}"):
        name, kind = c.get("name"), c.get("kind")
        if not name or not kind:
            raise CraneCosimError(f"system file {path}: a connector of component {comp} lacks its name or kind")
        typ = unit = None
        for t in _CONNECTOR_TYPES:
            type_el = c.find(_q(SSC, t))
            if type_el is not None:
                typ, unit = t, type_el.get("unit") or None
                break
        found[name] = Connector(kind, typ, unit)
    return found


def read_ssd(path, limits: Limits | None = None, _archive_root: Path | None = None) -> System:
    """Read a ``.ssd`` file (or a folder holding one) into a :class:`System`,
    with the ``.ssv`` files its bindings name (relative to the ``.ssd``).
    An ``.ssp`` archive is opened with :func:`open_system`."""
    path = find_ssd(path)
    root = read_xml(path, f"system file {path}", limits)
    if root.tag != _q(SSD, "SystemStructureDescription"):
        raise CraneCosimError(f"system file {path} is not an SSP 1.0 System Structure Description "
                              f"(root element {root.tag!r})")
    if any(a.get("type") == OSP_ANNOTATION and len(a) for a in root.iter(_q(SSC, "Annotation"))):
        _osp_prefixes_checked(path)
    sysel = root.find(_q(SSD, "System"))
    if sysel is None:
        raise CraneCosimError(f"system file {path} has no ssd:System element")
    system = System(name=sysel.get("name") or root.get("name") or path.stem, base_dir=path.parent)
    units, models = unit_definitions(root.find(_q(SSD, "Units"))), FmuDescriptions({})
    for el in sysel.iterfind(f"{_q(SSD, 'Elements')}/{_q(SSD, 'Component')}"):
        name, source = el.get("name"), el.get("source")
        if not name or not source:
            raise CraneCosimError(f"system file {path}: a component lacks its name or source attribute")
        models.fmus[name] = local_file(source, path.parent, _archive_root,
                                       f"system file {path}: the source of component {name}")
        comp = system.add_component(name, source, **component_parameters(path, name, el, _archive_root, limits,
                                                                         units, models, system.notes))
        comp.step = _step_hint(path, name, el)
        comp.connectors = _connectors(path, name, el)
    # the system's bindings after its components': SSP 1.0 gives the higher level precedence
    for name, values in system_parameters(path, sysel, _archive_root, limits, units, models, system.notes).items():
        system.component(name).parameters.update(values)
    for c in sysel.iterfind(f"{_q(SSD, 'Connections')}/{_q(SSD, 'Connection')}"):
        ends = [c.get(k) for k in ("startElement", "startConnector", "endElement", "endConnector")]
        if not all(ends):
            raise CraneCosimError(f"system file {path}: a connection lacks one of startElement, "
                                  f"startConnector, endElement, endConnector")
        system.connect(f"{ends[0]}.{ends[1]}", f"{ends[2]}.{ends[3]}", *transformation_of(path, c, ends))
    exp = root.find(_q(SSD, "DefaultExperiment"))
    if exp is not None:
        _osp_annotations(path, "the DefaultExperiment", exp)
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
    ssd: Path              #: the .ssd read (inside the extraction folder for an archive), or OSP's system file
    archive: Path | None   #: the .ssp archive, if the system came from one

    @property
    def osp(self) -> bool:
        """Whether the system came from an OSP system file (``OspSystemStructure.xml``)."""
        return self.ssd.suffix.lower() == ".xml"

    @property
    def folder(self) -> Path:
        """Where the system lives for the user: the archive's folder, or the .ssd's."""
        return (self.archive or self.ssd).parent


def _what_it_holds(path: Path) -> str:
    """A few words on what a file that is not a zip archive holds."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if not head:
        return "it is empty"
    if head.startswith(b"PK"):
        return "it begins as one but its end is missing: the file is truncated"
    if head.lstrip().startswith(b"<"):
        return "it holds XML: an .ssd file named .ssp?"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return "it holds binary data of another kind"
    return "it holds text"


def is_ssp_archive(path) -> bool:
    path = Path(path)
    return path.is_file() and zipfile.is_zipfile(path)


@contextlib.contextmanager
def open_system(path, limits: Limits | None = None):
    """Read the system at ``path``: a ``.ssd`` file, a folder holding one, an
    OSP system file (``OspSystemStructure.xml``, ``ssp/osp_system.py``) or a
    folder holding one and no ``.ssd``, or an SSP archive (a zip of any name with ``SystemStructure.ssd`` at its
    root).  An archive is checked and extracted (:mod:`crane_cosim.files.archive`)
    into a temporary folder that lives until the ``with`` block ends; the
    files it names must lie inside it.

    >>> with open_system("CraneOnVessel.ssp") as opened:
    ...     run_cosim(opened.system, "results")
    """
    path = Path(path)
    if is_osp_system(path):
        yield OpenedSystem(read_osp_system(path, limits), path / OSP_FILE if path.is_dir() else path, None)
        return
    if not is_ssp_archive(path):
        if path.is_file() and path.suffix.lower() == ".ssp":
            # an .ssp is a zip archive; read as XML it would be "not valid XML"
            raise CraneCosimError(f"SSP archive {path} is not a zip archive ({_what_it_holds(path)}); an .ssp "
                                  f"file is a zip of SystemStructure.ssd and the FMUs")
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
