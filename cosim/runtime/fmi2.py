"""The FMI 2.0 co-simulation calls of an instance (``runtime/instance.py``):
loading through fmpy, initialization, the step and its status, input
derivatives, Strings and state rollback."""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from time import perf_counter

import numpy as np
from fmpy import calloc, free
from fmpy.fmi2 import (FMU2Slave, fmi2CallbackAllocateMemoryTYPE, fmi2CallbackFreeMemoryTYPE, fmi2CallbackFunctions,
                       fmi2CallbackLoggerTYPE, fmi2LastSuccessfulTime, fmi2Terminated)

from .instance import Ended, FMUInstance

__all__ = ["FMI2Instance", "NativeAccess", "address_of"]

_STATUS_DISCARD = 2


def _exports(dll, name: str) -> bool:
    """Whether the loaded library ``dll`` exports the symbol ``name``."""
    try:
        getattr(dll, name)
    except AttributeError:
        return False
    return True


#: the marker of the project's proxy whose own entry points (``crane_cosim_fmi2_*``:
#: one saved state, a step's calls in one crossing) this master calls; a proxy
#: of another version (a portable FMU built by another version of the project)
#: is called through the FMI functions alone
PROXY_VERSION = b"crane-cosim FMI 2.0 proxy 2"


def _proxy_version(dll) -> bytes | None:
    """The marker of the project's proxy in the loaded library ``dll``
    (``fmus/native/fmi2_proxy.c``), or None where it is none."""
    try:
        return ctypes.string_at(ctypes.addressof(ctypes.c_char.in_dll(dll, "crane_cosim_fmi2_proxy")))
    except ValueError:
        return None


def address_of(function) -> int:
    """The address of a C function (a ctypes function pointer); 0 for none."""
    return ctypes.cast(function, ctypes.c_void_p).value or 0


@dataclass(frozen=True)
class NativeAccess:
    """What a compiled master needs to call an FMI 2.0 instance itself
    (``runtime/compiled``): its ``fmi2Component`` handle, the addresses of
    the FMI functions of a step, of the value references of its Real
    inputs and outputs and of its input derivatives (with their orders),
    the ``noSetFMUStatePriorToCurrentPoint`` it is stepped with, and the
    arrays it exchanges through: inputs ``u`` (as the master holds them),
    ``u_raw`` (as the FMU takes them), outputs ``y`` and input derivatives
    ``du``.  ``post_steps`` and ``collect_steps`` (0: none): the project's
    proxy's calls of a step in one crossing.  ``only_reals``: every value
    it exchanges is a Real (nothing to convert); else ``n_real_out`` of its
    outputs, the first, are Real and ``n_typed`` after them (``typed``
    their values, ``typed_vr`` the address of their value references) are
    read by the one call ``get_typed`` (fmi2GetBoolean or fmi2GetInteger),
    where ``typed_after_reals`` (its inputs all Real, no String);
    ``keeps_one_state``: a state given back to fmi2GetFMUstate is written
    over (:meth:`FMI2Instance.keep_state_in`)."""
    component: int
    get_real: int
    set_real: int
    do_step: int
    get_state: int
    set_state: int
    set_derivatives: int
    get_boolean_status: int
    get_real_status: int
    post_steps: int
    collect_steps: int
    in_vr: int
    out_vr: int
    du_vr: int
    du_order: int
    no_prior: int
    u: np.ndarray
    y: np.ndarray
    u_raw: np.ndarray
    du: np.ndarray
    only_reals: bool
    keeps_one_state: bool
    n_real_out: int = 0
    typed_after_reals: bool = False
    get_typed: int = 0
    typed_vr: int = 0
    typed: np.ndarray | None = None


class FMI2Instance(FMUInstance):
    REAL = "Real"
    PREFIX = "fmi2"
    NVALUES = False
    #: the get/set call of each type (an Enumeration through the Integer calls, FMI 2.0 section 2.1.7)
    CALL = {"Real": "Real", "Integer": "Integer", "Enumeration": "Integer", "Boolean": "Boolean"}
    CTYPES = {"Real": (ctypes.c_double, "float64"), "Integer": (ctypes.c_int, "int32"),
              "Boolean": (ctypes.c_int, "int32")}

    #: fmpy's class of the FMU's interface (``runtime/model_exchange.py``: Model Exchange)
    FMU = FMU2Slave

    def _load(self, unzip_dir: str) -> None:
        self._slave = self._call("load", self.FMU, guid=self.model.token, unzipDirectory=unzip_dir,
                                 modelIdentifier=self.model.model_identifier, instanceName=self.name)

        def logger(env, instance, status, category, message):
            self._log(status, message)

        self._callbacks = fmi2CallbackFunctions()
        self._callbacks.logger = fmi2CallbackLoggerTYPE(logger)
        self._callbacks.allocateMemory = fmi2CallbackAllocateMemoryTYPE(calloc)
        self._callbacks.freeMemory = fmi2CallbackFreeMemoryTYPE(free)
        self._call("load", self._slave.instantiate, callbacks=self._callbacks, loggingOn=True)
        self._instantiated = True
        self._dll = dll = self._slave.dll
        self._component = self._slave.component
        # The calls of the hot loop without fmpy's argument types, their
        # arguments made of their C types once (``_c_component``, the counts
        # as size_t; a Python int would go as a C int): half a microsecond
        # less a call, of about one
        self._set_real, self._get_real = dll["fmi2SetReal"], dll["fmi2GetReal"]
        self._slave_get_state = self._slave.getFMUstate
        self._slave_set_state = self._slave.setFMUstate
        self._slave_free_state = self._slave.freeFMUstate
        self._load_steps(dll)

    def _load_steps(self, dll) -> None:
        """The calls of a co-simulation step, its input derivatives and its saved state."""
        self._do_step = dll["fmi2DoStep"]
        self._set_derivatives = dll.fmi2SetRealInputDerivatives
        self._get_state, self._set_state = dll["fmi2GetFMUstate"], dll["fmi2SetFMUstate"]
        #: the one state saved, step after step, into the state saved before
        #: (FMI 2.0 section 2.1.8: a state given back to fmi2GetFMUstate is
        #: overwritten), where the FMU's binary is the project's shim, which
        #: says so by its marker; other binaries get a new state each time,
        #: freed after the step: some (pythonfmu's own among them) make a new
        #: one and lose the old
        known_proxy = _proxy_version(dll) == PROXY_VERSION
        self._state_slot = ctypes.c_void_p() if self._keeps_one_state(dll, known_proxy) else None
        #: the project's proxy's calls of a step in one crossing (portable FMUs,
        #: ``--processes``), which the compiled master step uses; None elsewhere
        self._steps_calls = ((dll["crane_cosim_fmi2_post_steps"], dll["crane_cosim_fmi2_collect_steps"])
                             if known_proxy else None)

    def _keeps_one_state(self, dll, known_proxy: bool) -> bool:
        """Whether this instance writes a state given back to
        fmi2GetFMUstate over: the project's shim, which says so by its
        marker, or the project's proxy of the version this master knows
        (``known_proxy``: portable FMUs, ``--processes``) where the binary it
        runs is that shim."""
        if _exports(dll, "crane_cosim_fmi2_shim"):
            return True
        if not known_proxy:
            return False
        keeps = dll["crane_cosim_fmi2_keeps_one_state"]
        keeps.argtypes, keeps.restype = [ctypes.c_void_p], ctypes.c_int
        return bool(keeps(self._component))

    def initialize(self, start_time: float) -> None:
        """Set up the experiment, set the values of the plan (inputs in
        initialization mode, the others before it, FMI 2.0 section 4.2.4)
        and run the initialization mode."""
        self._call("set up the experiment", self._slave.setupExperiment, startTime=start_time)
        variables = self.model.variables
        values = self.part.values
        for name, value in values.items():
            if variables[name].causality != "input":
                self._set_value(variables[name], value)
        self._call("initialize", self._slave.enterInitializationMode)
        for name, value in values.items():
            if variables[name].causality == "input":
                self._set_value(variables[name], value)
        before = len(self.errors)
        self._call("initialize", self._slave.exitInitializationMode)
        if len(self.errors) > before:
            # An FMU may report a failed initialization through its logger only
            # (ours do: an exception would be fatal for the whole process).
            raise self.explain("initialize")
        self._terminable = True

    def do_step(self, t: float, h: float) -> None:
        t0 = perf_counter()
        status = self._do_step(self._c_component, ctypes.c_double(t), ctypes.c_double(h), self._no_prior)
        self._fmi_time += perf_counter() - t0
        self._steps_made += 1
        if status > 1 and not (status == _STATUS_DISCARD and self._ended(t, h)):
            raise self.explain(f"step from t = {t:g} s")

    def save_state(self):
        if self._state_slot is None:
            return super().save_state()
        t0 = perf_counter()
        status = self._get_state(self._c_component, ctypes.byref(self._state_slot))
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("save its state")
        return self._state_slot

    def restore_state(self, state) -> None:
        t0 = perf_counter()
        status = self._set_state(self._c_component, state)
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("restore its state")

    def free_state(self, state) -> None:
        if state is not self._state_slot:
            super().free_state(state)

    def free(self) -> None:
        slot = self._state_slot
        if self._instantiated and slot is not None and slot.value:
            try:
                self._dll["fmi2FreeFMUstate"](self._c_component, ctypes.byref(slot))
            except Exception:
                pass
        super().free()

    def native_access(self) -> NativeAccess:
        """What a compiled master needs to call this instance itself."""
        post, collect = (address_of(f) for f in self._steps_calls) if self._steps_calls else (0, 0)
        return NativeAccess(
            self._component, address_of(self._get_real), address_of(self._set_real), address_of(self._do_step),
            address_of(self._get_state), address_of(self._set_state), address_of(self._set_derivatives),
            address_of(self._dll["fmi2GetBooleanStatus"]), address_of(self._dll["fmi2GetRealStatus"]), post, collect,
            ctypes.addressof(self._in_vr_c), ctypes.addressof(self._out_vr_c), ctypes.addressof(self._du_vr),
            ctypes.addressof(self._du_order), self._no_prior, self.u, self.y, self.u_raw, self.du,
            self._in is None and self._out is None and self._s_in is None and self._s_out is None,
            self._state_slot is not None, *self._typed_outputs())

    def _typed_outputs(self) -> tuple:
        """``(n_real_out, typed_after_reals, get_typed, typed_vr, typed)`` of
        :class:`NativeAccess`: the Real outputs that come first, and whether
        those after them are read by one call, Boolean or Integer, its
        inputs all Real and nothing a String."""
        outputs = self.part.outputs
        n_real = next((i for i, v in enumerate(outputs) if v.type != self.REAL), len(outputs))
        rest = outputs[n_real:]
        calls = {self.CALL.get(v.type) for v in rest}
        if (self._in is not None or self._s_in is not None or self._s_out is not None or len(calls) != 1
                or None in calls or any(v.type == self.REAL for v in rest)):
            return n_real, False, 0, 0, None
        if getattr(self, "_typed_refs", None) is None:
            self._typed_refs = (ctypes.c_uint * len(rest))(*self._refs(rest))
            self._typed_values = np.zeros(len(rest), np.int32)
        call = self._dll[f"fmi2Get{calls.pop()}"]
        return n_real, True, address_of(call), ctypes.addressof(self._typed_refs), self._typed_values

    def keep_state_in(self, states: np.ndarray, k: int) -> None:
        """Keep the one state this instance saves in ``states[k]`` (a
        pointer-sized slot of the compiled master's), freed with the
        instance; only where :attr:`NativeAccess.keeps_one_state`."""
        self._state_slot = ctypes.c_void_p.from_buffer(states, 8 * k)

    def ended_at(self, t: float, h: float) -> bool:
        """:meth:`_ended`, for a compiled master whose step from ``t`` over
        ``h`` [s] this instance discarded."""
        return self._ended(t, h)

    def _ended(self, t: float, h: float) -> bool:
        """After a discarded step: whether the FMU asked to end the simulation
        having reached the step's end (noted for the execution); one that
        stopped inside the step ends the run at its start."""
        if not self._slave.getBooleanStatus(fmi2Terminated):
            return False
        if self._slave.getRealStatus(fmi2LastSuccessfulTime) < t + h * (1 - 1e-9):
            raise Ended(self.name, t)
        # it reached the step's end: the run ends there, as fmpy ends it (FMI 2.0 section 4.2.3)
        self.ends.append(Ended(self.name, t + h, completed=True))
        return True

    def _bind(self) -> None:
        super()._bind()
        real = [i for i, v in enumerate(self.part.inputs) if v.type == "Real"]
        # the derivatives of the Real inputs only (the call takes no other type),
        # scaled as a linear transformation of their connection scales the inputs
        self._du_index = (None if len(real) == len(self.part.inputs) and self._scale is None
                          else np.asarray(real, dtype=int))
        if self._du_index is not None:
            n = len(real)
            refs = [self._in_vr[i] for i in real]
            self._du_real = np.zeros((2, n))
            self._du_vr = (ctypes.c_uint * (2 * n))(*refs, *refs)
            self._du_order = (ctypes.c_int * (2 * n))(*[1] * n, *[2] * n)
            self._du_ptr = self._du_real.ctypes.data_as(ctypes.POINTER(ctypes.c_double))

    def set_input_derivatives(self) -> None:
        """Write ``du`` (the inputs' first time derivatives in ``du[0]``,
        second in ``du[1]``) through ``fmi2SetRealInputDerivatives``; only
        for an FMU that declares ``canInterpolateInputs``."""
        t0 = perf_counter()
        if self._du_index is not None:
            self._du_real[:] = self.du[:, self._du_index]
            if self._scale is not None:
                self._du_real *= self._scale[self._du_index]
        n = len(self._du_order)
        status = self._set_derivatives(self._component, self._du_vr, n, self._du_order, self._du_ptr) if n else 0
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its input derivatives")

    def _set_strings(self) -> int:
        vr, values = self._s_in
        for i, text in enumerate(self.su):
            values[i] = text.encode()
        return self._dll.fmi2SetString(self._component, vr, len(self.su), values)

    def _get_strings(self) -> int:
        vr, values = self._s_out
        status = self._dll.fmi2GetString(self._component, vr, len(self.sy), values)
        if status <= 1:
            for i in range(len(self.sy)):
                self.sy[i] = (values[i] or b"").decode(errors="replace")
        return status

