"""Build the project's FMUs (FMI 2.0 co-simulation) from the block declarations.

Each FMU holds a private copy of the blocks and of the generic adapter under a
package name unique to their source (``crane_cosim_fmu_<hash>``), so FMUs of
different versions can run side by side in one process, with or without this
project installed: all Python FMUs in a process share one ``sys.modules``.

pythonfmu (0.7) leaves out of the modelDescription the units, the outputs'
dependencies and ``ModelStructure/InitialUnknowns``: they are added here from
the same block declaration (units, ``Block.feedthrough``).

:func:`build_block_fmu` builds the FMU of any block class, one of the package's
or one defined elsewhere (a test's, whose file the FMU carries).
:func:`build_bridge_fmu` builds a UDP bridge (``bridge/udp_bridge.py``): its
class is made at run time and cannot be imported by name, so the FMU carries
its spec (model name, ports, feedthrough) as JSON in its private package, and
the entry script makes the class again from it.  The spec is part of the source
hash: other ports, another GUID.

The same sources build the same FMU, byte for byte: the GUID is derived from
the model's name and the hash of its sources (not drawn at random), the
modelDescription carries no build time, and the archive's entries are sorted
with fixed time stamps and permissions.

The Linux binary ``binaries/linux64/<model>.so`` is this project's shim
(``native.py``), with pythonfmu's beside it: it runs in C hosts, exits cleanly
and takes input derivatives (``canInterpolateInputs``).  Without a C compiler
it stays pythonfmu's binary, with a warning, and the FMU takes no input
derivatives.  The Windows binary is pythonfmu's own in every build, which
refuses input derivatives whatever the modelDescription says.
"""
from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import shutil
import sys
import tempfile
import uuid
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pythonfmu
from pythonfmu.builder import FmuBuilder

from ..blocks.block import Block
from ..blocks.registry import BLOCKS
from ..blocks.units import base_unit_attributes
from ..bridge.dcp.dcp_bridge import DcpBridge
from ..bridge.specs import bridge_from_spec
from ..bridge.udp_bridge import UdpBridge, bridge_of
from ..errors import CraneCosimError
from ..files.archive import check_archive, read_member
from . import native

__all__ = ["build_fmu", "build_block_fmu", "build_bridge_fmu", "build_all", "prepare_fmus", "source_hash",
           "fmu_is_current", "bridge_spec_of", "FMU_SOURCE_FILE"]

HERE = Path(__file__).resolve().parent
BLOCKS_DIR = HERE.parent / "blocks"
#: the UDP bridge's folder, which every FMU carries beside the blocks (a
#: bridge FMU imports it)
BRIDGE_DIR = HERE.parent / "bridge"
#: File inside the FMU (under resources/) that records the source hash.
FMU_SOURCE_FILE = "crane_cosim_source.txt"
#: Module of the FMU's private package that holds a block from outside the
#: package (:func:`build_block_fmu`): one such block per FMU.
OUTSIDE_MODULE = "outside_block"
#: File of the FMU's private package that holds a bridge's spec
#: (:func:`build_bridge_fmu`)
BRIDGE_SPEC_FILE = "bridge_spec.json"


#: the folder of the blocks that holds the hydrodynamic databases every FMU
#: carries (``blocks/hull_database.py``)
HULLS = "hulls"
#: the modules of ``fmus/`` that every FMU carries beside the blocks: the
#: adapter and what it imports
FMU_MODULES = ("adapter.py", "values.py", "host_process.py")


def _source_files() -> list[Path]:
    # the shim's source and the files it includes (one translation unit)
    shim = sorted(native.SHIM_SOURCE.parent.glob("*.[ch]"))
    return (sorted(BLOCKS_DIR.glob("*.py")) + sorted(BLOCKS_DIR.glob(f"{HULLS}/*.nc")) + _bridge_files()
            + [HERE / m for m in FMU_MODULES] + [HERE / "build.py", HERE / "native.py", *shim])


def _bridge_files() -> list[Path]:
    """The bridge's modules every FMU carries: its folder's and ``dcp/``'s."""
    return sorted(BRIDGE_DIR.glob("*.py")) + sorted(BRIDGE_DIR.glob("dcp/*.py"))


def _outside_module(block_cls) -> Path | None:
    """The file of ``block_cls``'s module if the block is not one of the
    package's (those lie in ``blocks/``, a bridge in ``bridge/``), else None.  Raises ``ValueError``
    for a class that the FMU could not import by name from that file."""
    path = Path(inspect.getfile(block_cls)).resolve()
    if path.parent in (BLOCKS_DIR, BRIDGE_DIR, BRIDGE_DIR / "dcp"):
        return None
    module = sys.modules.get(block_cls.__module__)
    if getattr(module, block_cls.__qualname__, None) is not block_cls or path.suffix != ".py":
        raise ValueError(f"block {block_cls.__qualname__} cannot be built into an FMU: it is not defined at the "
                         f"top level of a Python file (its module is {block_cls.__module__})")
    return path


def _spec_bytes(spec: dict) -> bytes:
    """A bridge's spec as the FMU carries it: the same spec, the same bytes."""
    return (json.dumps(spec, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def source_hash(block_cls=None) -> str:
    """Hash of everything that goes into an FMU (blocks, adapter, this builder,
    pythonfmu's version, the module of ``block_cls`` if that block is not
    one of the package's, and a bridge's spec): an FMU with another hash is
    stale."""
    h = hashlib.sha256(pythonfmu.__version__.encode())
    outside = _outside_module(block_cls) if block_cls is not None else None
    for f in _source_files() + ([outside] if outside else []):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    spec = getattr(block_cls, "bridge_spec", None)
    if spec is not None:
        h.update(BRIDGE_SPEC_FILE.encode())
        h.update(_spec_bytes(spec))
    return h.hexdigest()[:12]


def _source_record(digest: str) -> str:
    """The text of ``resources/crane_cosim_source.txt``: the source hash, and
    which Linux binary the FMU carries (for which Python)."""
    return f"{digest}\n{native.binary_record()}\n"


def fmu_is_current(path: Path, block_cls=None) -> bool:
    """Whether ``path`` is an FMU built by this project from the current
    sources (those of ``block_cls`` if it is not one of the package's
    blocks), with the binary a build here and now would give it."""
    try:  # the file may be anyone's: read through the archive checks, a few bytes at most
        recorded = read_member(path, f"resources/{FMU_SOURCE_FILE}", "FMU", max_size=4096)
        # a portable FMU (fmus/portable.py) records a line more
        return recorded.decode().startswith(_source_record(source_hash(block_cls)))
    except (CraneCosimError, UnicodeDecodeError):
        return False


def needs_building(path: Path, block_cls) -> bool:
    """Whether ``path``, where the FMU of ``block_cls`` belongs, is missing
    or is this project's FMU built from other sources (another version,
    whose ports may differ); an FMU of someone else's is never rebuilt."""
    path = Path(path)
    if not path.exists():
        return True
    try:
        ours = f"resources/{FMU_SOURCE_FILE}" in {i.filename for i in check_archive(path, "FMU")}
    except CraneCosimError:
        return False  # not ours; refused with its reason when it is read
    return ours and not fmu_is_current(path, block_cls)


def _write_package(root: Path, package: str, outside: Path | None) -> None:
    """The FMU's private package: the blocks, the bridge, the adapter and,
    for a block from outside the package, its module as
    :data:`OUTSIDE_MODULE`."""
    pkg = root / package
    (pkg / "blocks").mkdir(parents=True)
    (pkg / "__init__.py").write_text('"""Private copy of crane-cosim blocks for one FMU."""\n')
    for f in BLOCKS_DIR.glob("*.py"):
        shutil.copy2(f, pkg / "blocks" / f.name)
    (pkg / "blocks" / HULLS).mkdir()
    for f in BLOCKS_DIR.glob(f"{HULLS}/*.nc"):
        shutil.copy2(f, pkg / "blocks" / HULLS / f.name)
    (pkg / "bridge" / "dcp").mkdir(parents=True)
    for f in _bridge_files():
        shutil.copy2(f, pkg / "bridge" / f.relative_to(BRIDGE_DIR))
    for module in FMU_MODULES:
        shutil.copy2(HERE / module, pkg / module)
    if outside is not None:
        shutil.copy2(outside, pkg / f"{OUTSIDE_MODULE}.py")


def _block_import(block_cls, package: str, outside: Path | None) -> str:
    """The entry script's import of the block, from the FMU's private copy
    (a bridge: made again from the spec in that copy)."""
    if getattr(block_cls, "bridge_spec", None) is not None:
        return _BRIDGE_IMPORT.format(package=package, spec=BRIDGE_SPEC_FILE)
    module = OUTSIDE_MODULE if outside is not None else "blocks." + block_cls.__module__.rpartition(".")[2]
    return f"from {package}.{module} import {block_cls.__qualname__} as Block"


_BRIDGE_IMPORT = '''import json as _json
from pathlib import Path as _Path

import {package} as _package
from {package}.bridge.specs import bridge_from_spec

# The class is made from the spec built in, once, when the module is
# imported: pythonfmu runs this file again for every further instance, with
# the module's globals, and the folder the FMU was unpacked to first (the
# spec's) may be gone by then.
if "Block" not in globals():
    Block = bridge_from_spec(_json.loads((_Path(_package.__file__).parent / "{spec}").read_text(encoding="utf-8")))'''


_SCRIPT = '''"""FMU entry point generated by crane-cosim (fmus/build.py)."""
import ctypes
import os
import sysconfig

from {package}.host_process import follow_resources

# The package is shared by the FMUs of the same sources in a process, and
# the folder it was first imported from (an earlier FMU's, deleted after
# its run) may be gone: the block's module, imported here for the first
# time, is then found in this FMU's own folder.
follow_resources(os.path.dirname(os.path.abspath(__file__)), "{package}")
from {package}.adapter import slave_class
{block_import}

# pythonfmu 0.7 runs this file once more for every instance it creates
# (findClass in PySlaveInstance.cpp: the module's dict as globals, a fresh
# dict as locals) and then releases a reference to the module's dict that it
# never took.  Left alone, the dict is freed while the module still uses it:
# a second instance crashes, or the process aborts at exit.  Each such run
# takes the missing reference back at the C level; a reference held from
# Python (a list in the dict) would be counted as one of the dict's own and
# leave its count just as short.
if locals() is not globals():
    try:
        _api = ctypes.pythonapi
        _api.Py_IncRef
    except AttributeError:  # a C host that loaded libpython with local symbols
        _api = ctypes.PyDLL(sysconfig.get_config_var("INSTSONAME"))
    _api.Py_IncRef(ctypes.py_object(globals()))

{model} = slave_class(Block)
'''


def build_fmu(model: str, out_dir: Path) -> Path:
    """Build ``<out_dir>/<model>.fmu`` for the block named ``model``; returns its path."""
    if model not in BLOCKS:
        raise KeyError(f"no block named {model!r}; known: {', '.join(BLOCKS)}")
    return build_block_fmu(BLOCKS[model], out_dir)


def build_bridge_fmu(spec_or_block, out_dir: Path) -> Path:
    """Build ``<out_dir>/<model_name>.fmu``, a UDP bridge
    (``bridge/udp_bridge.py``) or a DCP bridge (``bridge/dcp/dcp_bridge.py``),
    from a bridge class (made by ``bridge_block``, ``bridge_of`` or
    ``dcp_bridge_of``), its spec (a dict), or a block
    class, whose bridge (``bridge_of``) it builds; returns its path.
    Raises ``ValueError`` for a spec or ports a bridge cannot have, and for
    a bridge named like one of the project's blocks (whose FMU a run would
    rebuild in its place)."""
    if isinstance(spec_or_block, dict):
        bridge = bridge_from_spec(spec_or_block)
    elif isinstance(spec_or_block, type) and issubclass(spec_or_block, (UdpBridge, DcpBridge)):
        if spec_or_block.bridge_spec is None:
            raise ValueError(f"{spec_or_block.model_name} has no ports; make a bridge with bridge_block, bridge_of "
                             f"or dcp_bridge_of")
        bridge = spec_or_block
    elif isinstance(spec_or_block, type) and issubclass(spec_or_block, Block):
        bridge = bridge_of(spec_or_block)
    else:
        raise ValueError(f"a bridge is built from a bridge class, its spec or a block class, not "
                         f"{spec_or_block!r}")
    if bridge.model_name in BLOCKS:
        raise ValueError(f"a bridge cannot be named {bridge.model_name}, the name of one of the project's blocks "
                         f"(a run would rebuild that block's FMU in its place); name it "
                         f"{bridge.model_name}Bridge, for instance")
    return build_block_fmu(bridge, out_dir)


def build_block_fmu(block_cls, out_dir: Path) -> Path:
    """Build ``<out_dir>/<model_name>.fmu`` for the block class ``block_cls``;
    returns its path.

    The block is one of the package's, or one defined at the top level of
    another Python file (a test's block): the FMU then carries that file
    too, under a package name of its own (the hash covers the file).  Such
    a file may import this project's blocks as ``crane_cosim.blocks``, which
    must then be importable where the FMU runs."""
    model = block_cls.model_name
    outside = _outside_module(block_cls)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    digest = source_hash(block_cls)
    package = f"crane_cosim_fmu_{digest}"
    script_name = f"crane_cosim_{model.lower()}_{digest}"
    dest = out_dir / f"{model}.fmu"
    saved_path, saved_modules = list(sys.path), set(sys.modules)
    # an FMU of the same sources run in this process has imported its package
    # from the folder it was unpacked to (gone, perhaps): the build imports
    # its own copy, and the run's modules come back after it
    running = {name: sys.modules.pop(name) for name in list(sys.modules)
               if name in (package, script_name) or name.startswith(package + ".")}
    with tempfile.TemporaryDirectory(prefix="crane_cosim_build_") as tmp:
        tmp = Path(tmp)
        src = tmp / "src"
        src.mkdir()
        _write_package(src, package, outside)
        if getattr(block_cls, "bridge_spec", None) is not None:
            (src / package / BRIDGE_SPEC_FILE).write_bytes(_spec_bytes(block_cls.bridge_spec))
        script = src / f"{script_name}.py"
        script.write_text(_SCRIPT.format(package=package, model=model,
                                         block_import=_block_import(block_cls, package, outside)))
        try:
            sys.path.insert(0, str(src))
            importlib.invalidate_caches()
            built = FmuBuilder.build_FMU(script, dest=tmp / "fmu", project_files=[src / package],
                                         canGetAndSetFMUstate=block_cls.can_get_and_set_state,
                                         needsExecutionTool=True)
        finally:
            # The builder imports the script and leaves it and its folder behind.
            sys.path[:] = saved_path
            for name in set(sys.modules) - saved_modules:
                if name.startswith(("crane_cosim_fmu_", "crane_cosim_")) and name not in saved_modules:
                    sys.modules.pop(name, None)
            sys.modules.update(running)
        _complete(built, dest, block_cls, digest)
    return dest


#: namespace of the FMUs' GUIDs (uuid5 of the model name and source hash)
GUID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://crane-cosim.org/fmu")
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry


def guid(model: str, digest: str) -> str:
    """The GUID of the FMU of ``model`` built from sources with hash ``digest``:
    the same sources, the same GUID."""
    return "{" + str(uuid.uuid5(GUID_NAMESPACE, f"{model}/{digest}")) + "}"


def _complete(src: Path, dest: Path, block_cls, digest: str) -> None:
    """Copy the FMU, adding units, the model structure, the source record and
    a stable GUID, and putting the shim in front of pythonfmu's Linux binary,
    into an archive that depends on its content only."""
    shim = native.fmu_binary()  # before the modelDescription: a failed compile leaves no FMU
    with zipfile.ZipFile(src) as zin:
        md = ET.fromstring(zin.read("modelDescription.xml"))
        _add_units(md, block_cls)
        _add_roles(md, block_cls)
        _add_model_structure(md, block_cls)
        md.set("generationTool", f"crane-cosim ({md.get('generationTool')})")
        md.set("version", digest)
        md.set("guid", guid(block_cls.model_name, digest))
        md.attrib.pop("generationDateAndTime", None)
        ET.indent(md)
        cs = md.find("CoSimulation")
        if shim is not None:  # the shim takes input derivatives (fmus/native/fmi2_shim.c)
            cs.set("canInterpolateInputs", "true")
        linux_binary = f"binaries/linux64/{cs.get('modelIdentifier')}.so"
        files = {item.filename: zin.read(item.filename) for item in zin.infolist()
                 if not item.is_dir() and "__pycache__" not in item.filename}
    if shim is not None:
        # pythonfmu's binary under the name the shim loads it by
        files[f"binaries/linux64/{native.PYTHONFMU_BINARY}"] = files[linux_binary]
        files[linux_binary] = shim
    files["modelDescription.xml"] = b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(md, encoding="utf-8")
    files[f"resources/{FMU_SOURCE_FILE}"] = _source_record(digest).encode()
    tmp = dest.with_suffix(".fmu.part")
    write_reproducible_zip(tmp, files)
    tmp.replace(dest)


def write_reproducible_zip(path: Path, files: dict) -> None:
    """Write ``files`` (archive name -> bytes, or the path of a file to copy)
    to the zip ``path`` so that the same files give the same bytes: sorted
    entries, a fixed time stamp, fixed permissions (executable for
    binaries), deflated but for archives compressed already (``.tar.gz``)."""
    with zipfile.ZipFile(path, "w", allowZip64=True) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".tar.gz") else zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the permissions below are read
            executable = name.startswith("binaries/")
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            data = files[name]
            if isinstance(data, Path):
                info.file_size = data.stat().st_size
                with open(data, "rb") as src, z.open(info, "w", force_zip64=info.file_size > 2**31) as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
            else:
                z.writestr(info, data)


def _add_units(md: ET.Element, block_cls) -> None:
    units = {v.name: v.unit for v in block_cls.parameters + block_cls.inputs + block_cls.outputs}
    # every declared unit is defined (a Boolean's "1" too, as before); a
    # String has none (FMI 2.0 gives it no unit attribute)
    used = sorted({u for u in units.values() if u})
    defs = ET.Element("UnitDefinitions")
    for name in used:
        ET.SubElement(ET.SubElement(defs, "Unit", name=name), "BaseUnit", base_unit_attributes(name))
    # Schema order: CoSimulation, UnitDefinitions, TypeDefinitions, LogCategories, ...
    index = list(md).index(md.find("CoSimulation")) + 1
    md.insert(index, defs)
    for sv in md.find("ModelVariables"):
        real = sv.find("Real")
        # a Real declared without a unit (a Signal's output) has no unit
        # attribute: it is optional in FMI 2.0, and the port takes its partner's
        if real is not None and units[sv.get("name")]:
            real.set("unit", units[sv.get("name")])


#: the tool name of the vendor annotation that holds the ports' roles (read
#: by ``runtime/model.py``)
ROLE_TOOL = "crane-cosim"


def _add_roles(md: ET.Element, block_cls) -> None:
    """The ports' roles (``Variable.role``) as a vendor annotation: what a
    port is for, which hosts that look for a port by purpose read."""
    roles = [(v.name, v.role) for v in block_cls.parameters + block_cls.inputs + block_cls.outputs if v.role]
    if not roles:
        return
    annotations = ET.Element("VendorAnnotations")
    # FMI 2.0's schema lets a Tool hold one element: the roles go in one
    holder = ET.SubElement(ET.SubElement(annotations, "Tool", name=ROLE_TOOL), "Roles")
    for name, role in roles:
        ET.SubElement(holder, "Role", variable=name, role=role)
    # Schema order: ... LogCategories, DefaultExperiment, VendorAnnotations, ModelVariables
    md.insert(list(md).index(md.find("ModelVariables")), annotations)


def _add_model_structure(md: ET.Element, block_cls) -> None:
    """Each output's direct dependencies on inputs (``Block.feedthrough``), and
    the InitialUnknowns: the outputs, which in initialization mode depend on
    the same inputs and may depend on any parameter (not declared finer)."""
    index = {sv.get("name"): k for k, sv in enumerate(md.find("ModelVariables"), start=1)}
    parameters = sorted(index[p.name] for p in block_cls.parameters)
    structure = md.find("ModelStructure")
    outputs = structure.find("Outputs")
    if outputs is None:
        return
    deps = block_cls.output_dependencies()
    by_index = {k: name for name, k in index.items()}
    initial = ET.SubElement(structure, "InitialUnknowns")
    for unknown in outputs:
        name = by_index[int(unknown.get("index"))]
        inputs = sorted(index[i] for i in deps[name])
        _set_dependencies(unknown, inputs)
        _set_dependencies(ET.SubElement(initial, "Unknown", index=unknown.get("index")),
                          sorted(inputs + parameters))


def _set_dependencies(unknown: ET.Element, indices: list) -> None:
    unknown.set("dependencies", " ".join(map(str, indices)))
    unknown.set("dependenciesKind", " ".join(["dependent"] * len(indices)))


def bridge_spec_of(path) -> dict | None:
    """The spec of the bridge FMU at ``path`` (built by
    :func:`build_bridge_fmu`), or None for any other FMU; the archive is
    read through its safety checks (``CraneCosimError`` if it fails them)."""
    names = [i.filename for i in check_archive(Path(path), "FMU")]
    found = [n for n in names if n.startswith("resources/crane_cosim_fmu_") and n.count("/") == 2
             and n.endswith("/" + BRIDGE_SPEC_FILE)]
    if not found:
        return None
    try:
        return json.loads(read_member(Path(path), found[0], "FMU", max_size=1 << 20).decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CraneCosimError(f"FMU {path} holds a bridge spec that cannot be read ({exc})") from None


def prepare_fmus(system) -> None:
    """Build the project's own FMUs that ``system`` (a
    ``runtime.system.System``) uses when they are missing or were built
    from other sources (never touches a foreign FMU)."""
    for comp in system.components:
        path = system.source_path(comp)
        if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
            build_fmu(path.stem, path.parent)


def build_all(out_dir: Path, models=None, only_stale: bool = False) -> list[Path]:
    """Build the FMUs of ``models`` (default: all blocks) into ``out_dir``;
    with ``only_stale``, skip those already current."""
    paths = []
    for model in models or BLOCKS:
        dest = Path(out_dir) / f"{model}.fmu"
        if not (only_stale and fmu_is_current(dest)):
            build_fmu(model, out_dir)
        paths.append(dest)
    return paths
