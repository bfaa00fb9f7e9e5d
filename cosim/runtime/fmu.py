"""Loading FMI 2.0 co-simulation FMUs with fmpy, with the FMU's own log
messages kept so that a failure is reported with its real cause, and batched,
allocation-free calls for the master's hot loop."""
from __future__ import annotations

import ctypes
import io
import re
import zipfile
from time import perf_counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..files.archive import check_archive, parse_xml, read_member, safe_extract
from ..errors import CraneCosimError
from ..blocks import BLOCKS

__all__ = ["VariableInfo", "describe_variables", "check_fmu", "FMUInstance", "our_model_name"]


@dataclass(frozen=True)
class VariableInfo:
    name: str
    causality: str
    unit: str
    type: str
    value_reference: int | None = None
    start: object = None


def _block_variables(block_cls) -> dict:
    out = {}
    for causality, group in (("parameter", block_cls.parameters), ("input", block_cls.inputs),
                             ("output", block_cls.outputs)):
        for v in group:
            out[v.name] = VariableInfo(v.name, causality, v.unit, v.type, None, v.start)
    return out


def _fmpy_input(model_description: bytes):
    """A zip archive in memory holding only ``model_description``: fmpy
    parses with lxml, which our XML check does not govern, so it is handed
    nothing but bytes that check accepted."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("modelDescription.xml", model_description)
    buf.seek(0)
    return buf


def _read_model_description(path: Path):
    """The checked modelDescription of the FMU at ``path`` (fmpy's object)."""
    from fmpy import read_model_description
    if not path.is_file():
        raise CraneCosimError(f"FMU file {path} does not exist")
    if not zipfile.is_zipfile(path):
        raise CraneCosimError(f"file {path} is not an FMU (it is not a zip archive)")
    # the whole archive is checked here, before the FMU is described or run
    if "modelDescription.xml" not in {i.filename for i in check_archive(path, "FMU")}:
        raise CraneCosimError(f"file {path} is not an FMU (it has no modelDescription.xml)")
    data = read_member(path, "modelDescription.xml", "FMU")
    parse_xml(data, f"the modelDescription.xml of FMU {path}")
    try:
        md = read_model_description(_fmpy_input(data), validate=False)
    except Exception as exc:
        raise CraneCosimError(f"FMU {path} cannot be read: {str(exc).splitlines()[0]}") from None
    if md.fmiVersion != "2.0" or md.coSimulation is None:
        raise CraneCosimError(f"FMU {path} is not an FMI 2.0 co-simulation FMU")
    identifier = md.coSimulation.modelIdentifier or ""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", identifier):
        # it names the shared library to load: binaries/<platform>/<modelIdentifier>.so
        raise CraneCosimError(f"FMU {path} declares the model identifier {identifier!r}, which is not a C name "
                              f"as FMI 2.0 requires (it names the library to load)")
    return md


def parameter_problem(component: str, name: str, value, info) -> str | None:
    """Why ``value`` cannot be set to the variable ``info`` (a
    :class:`VariableInfo`) named ``name`` of ``component``, in one sentence,
    or ``None``: it is not a parameter, or not a value of its kind."""
    if info.causality != "parameter":
        return f"{component}.{name} is {info.causality}, not a parameter that can be set"
    if info.type == "Boolean" and not isinstance(value, bool):
        return f"{component}.{name} is a Boolean parameter; set it to true or false, not {value!r}"
    if info.type == "String" and not isinstance(value, str):
        return f"{component}.{name} is a String parameter; set it to a text, not {value!r}"
    if info.type == "String" and "\0" in value:
        return f"{component}.{name} = {value!r} holds a NUL character, which an FMI String cannot carry"
    if info.type in ("Real", "Integer") and isinstance(value, (bool, str)):
        return f"{component}.{name} is a {info.type} parameter; set it to a number, not {value!r}"
    if info.type == "Integer" and float(value) != int(value):
        return f"{component}.{name} is an Integer parameter; {value!r} is not a whole number"
    if info.type not in ("Real", "Integer", "Boolean", "String"):
        return f"{component}.{name} is a {info.type} parameter, which crane-cosim cannot set"
    return None


def check_fmu(path) -> None:
    """Refuse, with one sentence, an FMU that is unsafe to open (see
    :mod:`crane_cosim.files.archive`) or not an FMI 2.0 co-simulation FMU."""
    _read_model_description(Path(path))


def _unit(v) -> str:
    return v.unit or (v.declaredType.unit if v.declaredType else None) or ""


def describe_variables(path) -> dict:
    """Variables of the FMU at ``path`` by name.  An FMU of this project that
    is not built yet, or was built from other sources (a run builds it
    again), is described from its block declaration."""
    from ..fmus.build import needs_building
    path = Path(path)
    if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
        return _block_variables(BLOCKS[path.stem])
    md = _read_model_description(path)
    return {v.name: VariableInfo(v.name, v.causality, _unit(v), v.type, v.valueReference, v.start)
            for v in md.modelVariables}


def our_model_name(path) -> str | None:
    """The block behind an FMU of this project (by its model name), else None."""
    path = Path(path)
    if not path.exists():
        return path.stem if path.stem in BLOCKS else None
    md = _read_model_description(path)
    name = md.modelName
    gen = md.generationTool or ""
    return name if name in BLOCKS and gen.startswith("crane-cosim") else None


class FMUInstance:
    """One instantiated co-simulation FMU.

    All FMU log messages are collected in ``messages``; every failing call
    raises :class:`CraneCosimError` with the component name and the FMU's
    own explanation.  ``set_inputs`` / ``do_step`` / ``get_outputs`` call the
    FMI functions directly with preallocated arrays (one ``fmi2SetReal``, one
    ``fmi2DoStep`` and one ``fmi2GetReal`` a step).
    """

    def __init__(self, name: str, path: Path, unzip_root: Path):
        from fmpy.fmi2 import (FMU2Slave, fmi2CallbackAllocateMemoryTYPE, fmi2CallbackFreeMemoryTYPE,
                               fmi2CallbackFunctions, fmi2CallbackLoggerTYPE)
        from fmpy import calloc, free

        self.name = name
        self.path = Path(path)
        self.md = _read_model_description(self.path)
        self.variables = {v.name: v for v in self.md.modelVariables}
        self.messages: list[str] = []
        self.errors: list[str] = []  # messages logged with status error or fatal
        unzip_dir = str(safe_extract(self.path, Path(unzip_root) / name, "FMU"))
        self._slave = FMU2Slave(guid=self.md.guid, unzipDirectory=unzip_dir,
                                modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=name)

        def logger(env, instance, status, category, message):
            text = message.decode(errors="replace") if isinstance(message, bytes) else str(message)
            self.messages.append(text.strip())
            if status >= 3:  # fmi2Error, fmi2Fatal
                self.errors.append(text.strip())

        self._callbacks = fmi2CallbackFunctions()
        self._callbacks.logger = fmi2CallbackLoggerTYPE(logger)
        self._callbacks.allocateMemory = fmi2CallbackAllocateMemoryTYPE(calloc)
        self._callbacks.freeMemory = fmi2CallbackFreeMemoryTYPE(free)
        self._instantiated = False
        self._call("load", self._slave.instantiate, callbacks=self._callbacks, loggingOn=True)
        self._instantiated = True
        dll = self._slave.dll
        self._set_real = dll.fmi2SetReal
        self._get_real = dll.fmi2GetReal
        self._do_step = dll.fmi2DoStep
        self._set_derivatives = dll.fmi2SetRealInputDerivatives
        self._component = self._slave.component
        self.input_names: list[str] = []
        self.output_names: list[str] = []
        self.fmi_time = 0.0

    # -- errors ----------------------------------------------------------------
    def explain(self, what: str, exc: BaseException | None = None) -> CraneCosimError:
        cause = [m for m in (self.errors or self.messages) if m and not m.startswith("Fatal py exception")]
        detail = cause[-1].splitlines()[0] if cause else (str(exc) if exc else "no message from the FMU")
        return CraneCosimError(f"component {self.name} ({self.path.name}) failed to {what}: {detail}")

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            raise self.explain(what, exc) from None

    def variable(self, name: str, causality: str | None = None):
        v = self.variables.get(name)
        if v is None:
            raise CraneCosimError(f"component {self.name} ({self.path.name}) has no variable {name!r}")
        if causality is not None and v.causality != causality:
            raise CraneCosimError(f"{self.name}.{name} is {v.causality}, not {causality}")
        return v

    # -- set-up ----------------------------------------------------------------
    def initialize(self, start_time: float, parameters: dict) -> None:
        """Set up the experiment, set parameters, run the initialization mode."""
        self._call("set up the experiment", self._slave.setupExperiment, startTime=start_time)
        for name, value in parameters.items():
            v = self.variable(name)
            problem = parameter_problem(self.name, name, value, v)
            if problem:
                raise CraneCosimError(problem)
            if v.type == "Boolean":
                self._call(f"set parameter {name}", self._slave.setBoolean, [v.valueReference], [value])
            elif v.type == "String":
                self._call(f"set parameter {name}", self._slave.setString, [v.valueReference], [value])
            elif v.type == "Integer":
                self._call(f"set parameter {name}", self._slave.setInteger, [v.valueReference], [int(value)])
            else:
                self._call(f"set parameter {name}", self._slave.setReal, [v.valueReference], [float(value)])
        self._call("initialize", self._slave.enterInitializationMode)
        before = len(self.errors)
        self._call("initialize", self._slave.exitInitializationMode)
        if len(self.errors) > before:
            # An FMU may report a failed initialization through its logger only
            # (ours do: an exception would be fatal for the whole process).
            raise self.explain("initialize")

    def bind(self, inputs: list[str], outputs: list[str]) -> None:
        """Fix which inputs ``set_inputs`` writes and which outputs ``get_outputs`` reads."""
        self.input_names, self.output_names = list(inputs), list(outputs)
        in_vr = [self.variable(n, "input").valueReference for n in inputs]
        out_vr = [self.variable(n, "output").valueReference for n in outputs]
        self.output_units = [_unit(self.variable(n, "output")) for n in outputs]
        self._in_vr = (ctypes.c_uint * len(in_vr))(*in_vr)
        self._out_vr = (ctypes.c_uint * len(out_vr))(*out_vr)
        self.u = np.zeros(len(in_vr))
        self.y = np.zeros(len(out_vr))
        # for the master's input extrapolation (master._gather)
        self.u_raw = np.zeros(len(in_vr))
        self.u_prev = np.zeros(len(in_vr))
        self.weights = None
        dbl = ctypes.POINTER(ctypes.c_double)
        self._u_ptr = self.u.ctypes.data_as(dbl)
        self._y_ptr = self.y.ctypes.data_as(dbl)
        # for input derivatives: the inputs' first, then second derivatives
        n = len(in_vr)
        self.du = np.zeros((2, n))
        self._du_vr = (ctypes.c_uint * (2 * n))(*in_vr, *in_vr)
        self._du_order = (ctypes.c_int * (2 * n))(*[1] * n, *[2] * n)
        self._du_ptr = self.du.ctypes.data_as(dbl)

    # -- hot loop ----------------------------------------------------------------
    # ``fmi_time`` [s] sums the wall time spent inside these three calls, so
    # that a benchmark can tell the master's own time from the FMUs'.
    def set_inputs(self) -> None:
        """Write ``self.u`` to the bound inputs."""
        t0 = perf_counter()
        status = self._set_real(self._component, self._in_vr, len(self.u), self._u_ptr) if len(self.u) else 0
        self.fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its inputs")

    def set_input_derivatives(self) -> None:
        """Write ``self.du`` (the bound inputs' first time derivatives in
        ``du[0]``, second in ``du[1]``) through
        ``fmi2SetRealInputDerivatives``; only for an FMU that declares
        ``canInterpolateInputs``."""
        t0 = perf_counter()
        n = self.du.size
        status = self._set_derivatives(self._component, self._du_vr, n, self._du_order, self._du_ptr) if n else 0
        self.fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its input derivatives")

    @property
    def can_interpolate_inputs(self) -> bool:
        return bool(self.md.coSimulation.canInterpolateInputs)

    def do_step(self, t: float, h: float) -> None:
        t0 = perf_counter()
        status = self._do_step(self._component, ctypes.c_double(t), ctypes.c_double(h), 1)
        self.fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain(f"step from t = {t:g} s")

    def get_outputs(self) -> np.ndarray:
        """Read the bound outputs into ``self.y`` (and return it)."""
        t0 = perf_counter()
        status = self._get_real(self._component, self._out_vr, len(self.y), self._y_ptr) if len(self.y) else 0
        self.fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("return its outputs")
        return self.y

    # -- state rollback (iterated-midpoint algorithm) ---------------------------
    @property
    def can_roll_back(self) -> bool:
        return bool(self.md.coSimulation.canGetAndSetFMUstate)

    def save_state(self):
        """The FMU's state now (``fmi2GetFMUstate``); free it with :meth:`free_state`."""
        t0 = perf_counter()
        state = self._call("save its state", self._slave.getFMUstate)
        self.fmi_time += perf_counter() - t0
        return state

    def restore_state(self, state) -> None:
        t0 = perf_counter()
        self._call("restore its state", self._slave.setFMUstate, state)
        self.fmi_time += perf_counter() - t0

    def free_state(self, state) -> None:
        self._call("free a saved state", self._slave.freeFMUstate, state)

    def free(self) -> None:
        if self._instantiated:
            try:
                self._slave.terminate()
            except Exception:
                pass
            try:
                self._slave.freeInstance()
            except Exception:
                pass
            self._instantiated = False
