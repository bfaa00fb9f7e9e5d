"""What an FMU is, read once from its ``modelDescription.xml``: its FMI
version, its capabilities and its variables with their types, causalities,
units, bounds and direct dependencies.

    model = read_model(path)          # a ModelInfo; CraneCosimError if unsafe or unusable
    model.variables["h"].initial      # 'exact'

FMI 2.0 and FMI 3.0 FMUs are read (through fmpy, from the bytes the
archive checks accepted): co-simulation, and Model Exchange where an FMU
offers no co-simulation (``ModelInfo.model_exchange``: the master then
integrates it between its communication points, ``runtime/model_exchange.py``).  An FMU of this project that is not
built yet, or was built from other sources (a run builds it again), is
described from its block's declaration (:func:`block_model`), so that a
system can be checked before anything is built.

Roles: an FMU may say what some of its variables are for, in a vendor
annotation of the tool ``crane-cosim``::

    <VendorAnnotations><Tool name="crane-cosim"><Roles>
      <Role variable="W_mount_fx" role="interface.wrench.fx"/> ...
    </Roles></Tool></VendorAnnotations>

This project's FMUs carry those of their blocks' ports
(``Variable.role``); the studies and the crane-vessel coupling find the
ports they need by role (``runtime/coupling.py``), never by name.
"""
from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import fmpy
from fmpy import read_model_description

from ..blocks.registry import BLOCKS
from ..errors import CraneCosimError
from ..files.archive import check_archive, parse_xml, read_member
from ..fmus.build import ROLE_TOOL, needs_building
from .description_checks import malformed
from .transformations import UnitDefinition
from .types import FAMILY, INTEGER_RANGE

__all__ = ["VariableInfo", "Capabilities", "ModelExchange", "ModelInfo", "read_model", "block_model", "describe", "ROLE_TOOL"]


@dataclass(frozen=True)
class VariableInfo:
    """One variable of an FMU.  ``type``: the FMI type (``Real``,
    ``Integer``, ``Boolean``, ``String``, ``Enumeration``; FMI 3.0
    ``Float64``, ``Int32`` ...); ``start``, ``min``, ``max``: values of that
    type or None; ``items``: an Enumeration's ``(name, value)`` pairs;
    ``shape``: ``()`` for a scalar (FMI 3.0 arrays are described, never
    exchanged); ``role``: what the variable is for (see the module's
    docstring), or None."""
    name: str
    type: str
    causality: str
    variability: str = "continuous"
    initial: str | None = None
    unit: str = ""
    value_reference: int | None = None
    start: object = None
    min: float | int | None = None
    max: float | int | None = None
    items: tuple = ()
    declared_type: str | None = None
    description: str = ""
    role: str | None = None
    shape: tuple = ()

    @property
    def family(self) -> str:
        return FAMILY.get(self.type, "unsupported")


@dataclass(frozen=True)
class Capabilities:
    """The co-simulation capabilities a master may rely on."""
    can_get_and_set_state: bool = False
    can_interpolate_inputs: bool = False   # FMI 2.0 only: fmi2SetRealInputDerivatives
    can_vary_step: bool = True             # canHandleVariableCommunicationStepSize
    only_once_per_process: bool = False
    needs_execution_tool: bool = False


@dataclass(frozen=True)
class ModelExchange:
    """What integrating a Model Exchange FMU takes: ``states``, its number of
    continuous states; ``event_indicators``, of event indicators (FMI 2.0
    section 3.1, FMI 3.0 section 3.1); ``completed_step_needed``: it asks to
    be told of each completed integrator step (``needsCompletedIntegratorStep``)."""
    states: int
    event_indicators: int
    completed_step_needed: bool


@dataclass(frozen=True)
class ModelInfo:
    """An FMU as the master needs it.  ``fmi_version``: ``"2.0"`` or ``"3.0"``;
    ``dependencies``: per output, the inputs it depends on directly
    (``ModelStructure``), None where it declares none (then it depends on
    every input, FMI 2.0 section 2.2.8); ``ours``: the block behind an FMU
    of this project, else None; ``built``: False for one described from
    its block before it is built (no value references); ``model_exchange``:
    for a Model Exchange FMU (one that offers no co-simulation), what
    integrating it takes, else None."""
    path: Path
    fmi_version: str
    model_name: str
    model_identifier: str
    token: str
    generation_tool: str
    variables: dict
    dependencies: dict
    capabilities: Capabilities
    default_step: float | None = None
    fixed_internal_step: float | None = None   # FMI 3.0 fixedInternalStepSize [s]
    ours: str | None = None
    built: bool = True
    unsupported: tuple = field(default=())   # sentences: what of the FMU this master cannot run
    model_exchange: ModelExchange | None = None
    #: the units its description defines: name -> ``transformations.UnitDefinition``
    units: dict = field(default_factory=dict)

    @property
    def interface(self) -> str:
        """The FMI interface the master runs: co-simulation or Model Exchange."""
        return "co-simulation" if self.model_exchange is None else "Model Exchange"

    def outputs(self) -> list[VariableInfo]:
        return [v for v in self.variables.values() if v.causality == "output"]

    def inputs(self) -> list[VariableInfo]:
        return [v for v in self.variables.values() if v.causality == "input"]

    def with_roles(self) -> dict[str, str]:
        return {v.name: v.role for v in self.variables.values() if v.role}


def _fmpy_input(model_description: bytes):
    """A zip archive in memory holding only ``model_description``: fmpy
    parses with lxml, which our XML check does not govern, so it is handed
    nothing but bytes that check accepted."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("modelDescription.xml", model_description)
    buf.seek(0)
    return buf


def _checked_description(path: Path) -> tuple[bytes, list[str]]:
    """The bytes of the modelDescription.xml of the FMU at ``path`` and the
    names of the archive's entries, once the whole archive is checked."""
    if path.is_dir():
        raise CraneCosimError(f"FMU file {path} is a folder; give the .fmu file (a zip archive)")
    if not path.is_file():
        raise CraneCosimError(f"FMU file {path} does not exist")
    if not zipfile.is_zipfile(path):
        raise CraneCosimError(f"file {path} is not an FMU (it is not a zip archive)")
    # the whole archive is checked here, before the FMU is described or run
    names = [i.filename for i in check_archive(path, "FMU")]
    if "modelDescription.xml" not in names:
        raise CraneCosimError(f"file {path} is not an FMU (it has no modelDescription.xml)")
    return read_member(path, "modelDescription.xml", "FMU"), names


def _number(text, kind: str):
    if text is None:
        return None
    try:
        return int(text) if kind in INTEGER_RANGE else float(text)
    except (TypeError, ValueError):
        return None


def _start(v, items):
    raw = v.start
    if raw is None or v.shape:
        return raw
    family = FAMILY.get(v.type)
    if family == "boolean":
        return str(raw).strip().lower() in ("true", "1")
    if family == "integer" or family == "enumeration":
        return _number(raw, "Int64")
    if family == "real":
        return _number(raw, "Float64")
    return raw


def _variable(v, roles: dict) -> VariableInfo:
    declared = v.declaredType
    items = tuple((i.name, int(i.value)) for i in getattr(declared, "items", None) or ()) \
        if v.type == "Enumeration" else ()
    unit = v.unit or (declared.unit if declared is not None and getattr(declared, "unit", None) else None) or ""
    low = v.min if v.min is not None else (getattr(declared, "min", None) if declared is not None else None)
    high = v.max if v.max is not None else (getattr(declared, "max", None) if declared is not None else None)
    kind = "Int64" if v.type in INTEGER_RANGE else "Float64"
    return VariableInfo(v.name, v.type, v.causality, v.variability or "continuous", v.initial, unit,
                        v.valueReference, _start(v, items), _number(low, kind), _number(high, kind), items,
                        declared.name if declared is not None else None, v.description or "", roles.get(v.name),
                        tuple(v.shape or ()))


def _roles(root) -> dict[str, str]:
    """The roles of the vendor annotation of tool :data:`ROLE_TOOL`."""
    roles = {}
    for tool in root.iterfind("VendorAnnotations/Tool"):
        if tool.get("name") == ROLE_TOOL:
            for r in tool.iter("Role"):
                if r.get("variable") and r.get("role"):
                    roles[r.get("variable")] = r.get("role")
    return roles


def _binary_problem(version: str, identifier: str, names: list[str]) -> str | None:
    """Why an FMU whose archive holds the entries ``names`` has no binary
    this machine loads, or None: fmpy loads
    ``binaries/<platform>/<modelIdentifier><extension>``, the platform
    ``linux64`` in FMI 2.0 (section 2.4), ``x86_64-linux`` in FMI 3.0
    (section 2.5.1.1) on Linux x86-64."""
    here = fmpy.platform if version in ("1.0", "2.0") else fmpy.platform_tuple
    library = f"binaries/{here}/{identifier}{fmpy.sharedLibraryExtension}"
    if library in names:
        return None
    platforms = sorted({n.split("/")[1] for n in names if n.startswith("binaries/") and n.count("/") >= 2
                        and n.split("/")[1] and n.split("/")[2]})
    if not platforms:
        return f"it holds no binary for any platform, and crane-cosim runs an FMU's {here} binary ({library})"
    return (f"it holds binaries for {' and '.join(platforms)} only, and crane-cosim runs an FMU's {here} binary "
            f"({library})")


def _unsupported(md, variables: dict, binary_problem: str | None) -> tuple:
    """What of an FMU this master does not run, one sentence each (an FMI
    3.0 FMU's clocks: co-simulation runs without event mode, and a Model
    Exchange FMU's event mode is driven by its states and time alone)."""
    found = [binary_problem] if binary_problem else []
    if md.fmiVersion == "2.0":
        return tuple(found)
    clocks = [v.name for v in variables.values() if v.type == "Clock"]
    if clocks:
        found.append(f"it has clocks ({', '.join(clocks[:3])}{' ...' if len(clocks) > 3 else ''}), which "
                     f"need clocked event handling, which crane-cosim does not do (it runs FMI 3.0 co-simulation "
                     f"without event mode, and Model Exchange with events of time and state only)")
    return tuple(found)


def read_model(path) -> ModelInfo:
    """The :class:`ModelInfo` of the FMU at ``path``, read through the
    archive checks.  Raises :class:`CraneCosimError` with one sentence for a
    file that is not an FMU, is unsafe to open, or is not an FMI 2.0 or
    3.0 co-simulation or Model Exchange FMU."""
    path = Path(path)
    data, names = _checked_description(path)
    root = parse_xml(data, f"the modelDescription.xml of FMU {path}")
    if (problem := malformed(root)) is not None:
        raise CraneCosimError(f"FMU {path} {problem}")
    try:
        md = read_model_description(_fmpy_input(data), validate=False)
    except Exception as exc:
        # fmpy's own sentences are plain Exceptions; any other is Python's
        # word for an attribute or element it did not find
        said = str(exc).splitlines()[0] if type(exc) is Exception and str(exc).strip() else None
        raise CraneCosimError(f"FMU {path} has a modelDescription.xml that does not follow the FMI "
                              f"{root.get('fmiVersion')} schema" + (f" ({said})" if said else "")) from None
    version = md.fmiVersion if md.fmiVersion in ("1.0", "2.0") else "3.0"
    cs, me = md.coSimulation, md.modelExchange
    if version == "1.0" and cs is None:
        raise CraneCosimError(f"FMU {path} is an FMI 1.0 Model Exchange FMU; crane-cosim runs FMI 1.0 co-simulation "
                              f"FMUs, and Model Exchange from FMI 2.0 on")
    if cs is None and me is None:
        offers = "scheduled execution only" if getattr(md, "scheduledExecution", None) else "no interface"
        raise CraneCosimError(f"FMU {path} is neither a co-simulation nor a Model Exchange FMU (it offers {offers}); "
                              f"crane-cosim runs those two")
    # co-simulation where the FMU offers it (its own solver, as its author
    # tuned it); Model Exchange, integrated by the master, where it is all
    interface = cs if cs is not None else me
    identifier = interface.modelIdentifier or ""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", identifier):
        # it names the shared library to load: binaries/<platform>/<modelIdentifier>.so
        raise CraneCosimError(f"FMU {path} declares the model identifier {identifier!r}, which is not a C name "
                              f"as FMI {version} requires (it names the library to load)")
    roles = _roles(root)
    variables = {v.name: _variable(v, roles) for v in md.modelVariables}
    dependencies = {o.variable.name: (None if o.dependencies is None else tuple(d.name for d in o.dependencies))
                    for o in md.outputs}
    if version == "1.0":
        capabilities = _fmi1_capabilities(root)
        exchange = None
    elif cs is not None:
        capabilities = Capabilities(bool(cs.canGetAndSetFMUstate), version == "2.0" and bool(cs.canInterpolateInputs),
                                    bool(cs.canHandleVariableCommunicationStepSize),
                                    bool(cs.canBeInstantiatedOnlyOncePerProcess), bool(cs.needsExecutionTool))
        exchange = None
    else:
        # integrated by the master: any step, no input derivatives
        capabilities = Capabilities(bool(me.canGetAndSetFMUstate), False, True,
                                    bool(me.canBeInstantiatedOnlyOncePerProcess), bool(me.needsExecutionTool))
        exchange = ModelExchange(int(md.numberOfContinuousStates or 0), int(md.numberOfEventIndicators or 0),
                                 bool(me.needsCompletedIntegratorStep))
    step = md.defaultExperiment.stepSize if md.defaultExperiment is not None else None
    return ModelInfo(path, version, md.modelName or "", identifier, md.guid or "", md.generationTool or "",
                     variables, dependencies, capabilities, _number(step, "Float64"),
                     _number(cs.fixedInternalStepSize, "Float64") if version == "3.0" and cs is not None else None,
                     _our_model(md.modelName, md.generationTool), True,
                     _unsupported(md, variables, _binary_problem(version, identifier, names)), exchange,
                     _units(md))


def _fmi1_capabilities(root) -> Capabilities:
    """An FMI 1.0 co-simulation FMU's capabilities, from its
    ``Implementation`` (fmpy does not read them): no saved state, no input
    derivatives (crane-cosim sets none in FMI 1.0); a tool's FMU
    (``CoSimulation_Tool``) needs its tool."""
    caps = root.find("Implementation/CoSimulation_StandAlone/Capabilities")
    tool = root.find("Implementation/CoSimulation_Tool")
    if caps is None and tool is not None:
        caps = tool.find("Capabilities")

    def flag(name: str) -> bool:
        return caps is not None and caps.get(name, "false").strip() in ("true", "1")
    return Capabilities(False, False, flag("canHandleVariableCommunicationStepSize"),
                        flag("canBeInstantiatedOnlyOncePerProcess"), tool is not None)


def _units(md) -> dict:
    """The units ``md`` defines with their base units (FMI 2.0 section 2.2.2)."""
    found = {}
    for unit in md.unitDefinitions or ():
        base = unit.baseUnit
        if unit.name and base is not None:
            exponents = tuple(int(getattr(base, k) or 0) for k in ("kg", "m", "s", "A", "K", "mol", "cd", "rad"))
            found[unit.name] = UnitDefinition(unit.name, exponents, float(base.factor if base.factor is not None
                                                                          else 1.0), float(base.offset or 0.0))
    return found


def _our_model(name, tool) -> str | None:
    return name if name in BLOCKS and (tool or "").startswith("crane-cosim") else None


def block_model(path, block_cls) -> ModelInfo:
    """The :class:`ModelInfo` the FMU of ``block_cls`` at ``path`` will have,
    from the block's declaration (the FMU is not built yet)."""
    variables = {}
    for p in block_cls.parameters:
        variables[p.name] = VariableInfo(p.name, p.type, "parameter", "tunable" if p.tunable else "fixed", "exact",
                                         p.unit if p.type == "Real" else "", None, p.start,
                                         description=p.description, role=p.role)
    for causality, group in (("input", block_cls.inputs), ("output", block_cls.outputs)):
        for v in group:
            variables[v.name] = VariableInfo(v.name, v.type, causality, "continuous" if v.type == "Real" else
                                             "discrete", None if causality == "input" else "calculated",
                                             v.unit if v.type == "Real" else "", None,
                                             v.start, description=v.description, role=v.role)
    deps = {name: tuple(ins) for name, ins in block_cls.output_dependencies().items()}
    capabilities = Capabilities(block_cls.can_get_and_set_state, True, True, False, True)
    return ModelInfo(Path(path), "2.0", block_cls.model_name, block_cls.model_name, "", "crane-cosim",
                     variables, deps, capabilities, block_cls.default_step, None, block_cls.model_name, False)


def describe(path) -> ModelInfo:
    """The FMU at ``path`` as a run will find it: read from the file, or,
    for one of this project's FMUs that a run will build first (missing,
    or built from other sources), from its block."""

    path = Path(path)
    if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
        return block_model(path, BLOCKS[path.stem])
    return read_model(path)


def our_model_name(path) -> str | None:
    """The block behind an FMU of this project (by its model name), else None."""
    path = Path(path)
    if not path.exists():
        return path.stem if path.stem in BLOCKS else None
    return read_model(path).ours


def models_of(system) -> set[str]:
    """Model names of the project's blocks behind ``system``'s components (an
    FMU not yet built counts by its file name; foreign FMUs are left out)."""
    models = set()
    for comp in system.components:
        try:
            model = our_model_name(system.source_path(comp))
        except Exception:  # an unreadable FMU is reported by the run itself
            model = None
        if model:
            models.add(model)
    return models


def models_of_plan(plan) -> set[str]:
    """Model names of the project's blocks behind a plan's components."""
    return {p.model.ours for p in plan.parts if p.model is not None and p.model.ours}
