"""The FMI 3.0 co-simulation calls of an instance (``runtime/instance.py``),
through fmpy: instantiated without event mode and without early return
(``eventModeUsed`` and ``earlyReturnAllowed`` false, FMI 3.0 section
4.2.1), values set in the Instantiated state (an input's ``initial`` being
exact, section 2.3.2), the step, its request to end the simulation and
its early return (refused), Strings and state rollback.  FMI 3.0 has no input derivatives."""
from __future__ import annotations

import ctypes
from time import perf_counter

from fmpy.fmi3 import FMU3Slave

from ..errors import CraneCosimError
from .instance import Ended, FMUInstance

__all__ = ["FMI3Instance"]

_INTEGERS = {"Int8": (ctypes.c_int8, "int8"), "UInt8": (ctypes.c_uint8, "uint8"),
             "Int16": (ctypes.c_int16, "int16"), "UInt16": (ctypes.c_uint16, "uint16"),
             "Int32": (ctypes.c_int32, "int32"), "UInt32": (ctypes.c_uint32, "uint32"),
             "Int64": (ctypes.c_int64, "int64"), "UInt64": (ctypes.c_uint64, "uint64")}


class FMI3Instance(FMUInstance):
    REAL = "Float64"
    PREFIX = "fmi3"
    NVALUES = True
    #: the get/set call of each type (an Enumeration through the Int64 calls, FMI 3.0 section 2.4.7.5)
    CALL = {"Float64": "Float64", "Float32": "Float32", "Boolean": "Boolean", "Enumeration": "Int64",
            **{t: t for t in _INTEGERS}}
    CTYPES = {"Float64": (ctypes.c_double, "float64"), "Float32": (ctypes.c_float, "float32"),
              "Boolean": (ctypes.c_bool, "bool"), **_INTEGERS}

    def _load(self, unzip_dir: str) -> None:
        def logger(env, status, category, message):
            self._log(status, message)

        self._slave = self._call("load", self._opened, unzip_dir, logger)
        self._instantiated = True
        self._dll = dll = self._slave.dll
        self._component = self._slave.component
        self._set_float, self._get_float = dll.fmi3SetFloat64, dll.fmi3GetFloat64
        self._slave_get_state = self._slave.getFMUState
        self._slave_set_state = self._slave.setFMUState
        self._slave_free_state = self._slave.freeFMUState
        self._load_steps(dll)

    def _opened(self, unzip_dir: str, logger):
        """The FMU loaded through fmpy and instantiated for co-simulation,
        its messages to ``logger``."""
        fmu = FMU3Slave(guid=self.model.token, unzipDirectory=unzip_dir, modelIdentifier=self.model.model_identifier,
                        instanceName=self.name)
        fmu.instantiate(loggingOn=True, eventModeUsed=False, earlyReturnAllowed=False, logMessage=logger)
        return fmu

    def _load_steps(self, dll) -> None:
        """The call of a co-simulation step and what it returns besides its status."""
        self._do_step = dll.fmi3DoStep
        self._event = ctypes.c_bool()
        self._terminate = ctypes.c_bool()
        self._early = ctypes.c_bool()
        self._last = ctypes.c_double()
        self._flags = tuple(ctypes.byref(x) for x in (self._event, self._terminate, self._early, self._last))

    def _set_real(self, component, vr, n, ptr) -> int:
        return self._set_float(component, vr, n, ptr, n)

    def _get_real(self, component, vr, n, ptr) -> int:
        return self._get_float(component, vr, n, ptr, n)

    def _set_reals(self) -> None:
        t0 = perf_counter()
        status = self._set_float(self._component, self._in_vr_c, self._n_in, self._u_ptr, self._n_in)
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its inputs")

    def _get_reals(self):
        t0 = perf_counter()
        status = self._get_float(self._component, self._out_vr_c, self._n_out, self._y_ptr, self._n_out)
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("return its outputs")
        return self.y

    def _set_value(self, var, value) -> None:
        call = "String" if var.type == "String" else self.CALL[var.type]
        self._call(f"set {var.name}", getattr(self._slave, f"set{call}"), [var.value_reference], [value])

    def initialize(self, start_time: float) -> None:
        """Set the values of the plan and run the initialization mode."""
        variables = self.model.variables
        for name, value in self.part.values.items():
            self._set_value(variables[name], value)
        self._call("initialize", self._slave.enterInitializationMode, startTime=start_time)
        before = len(self.errors)
        self._call("initialize", self._slave.exitInitializationMode)
        if len(self.errors) > before:
            raise self.explain("initialize")
        self._terminable = True

    def do_step(self, t: float, h: float) -> None:
        t0 = perf_counter()
        status = self._do_step(self._component, t, h, self._no_prior, *self._flags)
        self._fmi_time += perf_counter() - t0
        self._steps_made += 1
        if status > 1:
            if self._terminate.value:
                raise Ended(self.name, t)
            raise self.explain(f"step from t = {t:g} s")
        if self._early.value:
            if self._terminate.value:
                raise Ended(self.name, t)
            # its state is at lastSuccessfulTime, not at the step's end: taken as
            # complete, every later value would be of another time
            raise CraneCosimError(f"component {self.name} ({self.path.name}) returned early from its step from "
                                  f"t = {t:g} s to {t + h:g} s, at lastSuccessfulTime = {self._last.value:g} s, "
                                  f"which it may not (crane-cosim instantiates FMI 3.0 FMUs with earlyReturnAllowed "
                                  f"false, FMI 3.0 section 4.2.1)")
        if self._terminate.value:
            # the step is complete (no early return is allowed): the run ends at its end, as fmpy ends it
            self.ends.append(Ended(self.name, t + h, completed=True))

    def set_input_derivatives(self) -> None:
        raise CraneCosimError(f"component {self.name} ({self.path.name}) is an FMI 3.0 FMU, which takes no input "
                              f"derivatives")

    def _set_strings(self) -> int:
        vr, values = self._s_in
        for i, text in enumerate(self.su):
            values[i] = text.encode()
        return self._dll.fmi3SetString(self._component, vr, len(self.su), values, len(self.su))

    def _get_strings(self) -> int:
        vr, values = self._s_out
        status = self._dll.fmi3GetString(self._component, vr, len(self.sy), values, len(self.sy))
        if status <= 1:
            for i in range(len(self.sy)):
                self.sy[i] = (values[i] or b"").decode(errors="replace")
        return status
