"""The FMI 1.0 co-simulation calls of an instance (``runtime/instance.py``),
through fmpy's ``FMU1Slave``: the functions are the model identifier's
(``<modelIdentifier>_fmiDoStep``), every value is set before
``fmiInitializeSlave`` (FMI 1.0 for Co-Simulation has no initialization
mode), a Boolean is a ``char``, and there are no saved states and no
request to end the simulation (a discarded step is a failure).  OSP's
public demo cases are FMI 1.0 FMUs."""
from __future__ import annotations

import ctypes
from time import perf_counter

from fmpy import calloc, free
from fmpy.fmi1 import (FMU1Slave, fmi1CallbackAllocateMemoryTYPE, fmi1CallbackFreeMemoryTYPE, fmi1CallbackFunctions,
                       fmi1CallbackLoggerTYPE)

from ..errors import CraneCosimError
from .instance import FMUInstance

__all__ = ["FMI1Instance"]


class FMI1Instance(FMUInstance):
    REAL = "Real"
    NVALUES = False
    #: the get/set call of each type (an Enumeration through the Integer calls)
    CALL = {"Real": "Real", "Integer": "Integer", "Enumeration": "Integer", "Boolean": "Boolean"}
    CTYPES = {"Real": (ctypes.c_double, "float64"), "Integer": (ctypes.c_int, "int32"),
              "Boolean": (ctypes.c_int8, "int8")}

    def _load(self, unzip_dir: str) -> None:
        identifier = self.model.model_identifier
        #: the functions' prefix: FMI 1.0 names them after the model
        self.PREFIX = f"{identifier}_fmi"
        self._slave = self._call("load", FMU1Slave, guid=self.model.token, unzipDirectory=unzip_dir,
                                 modelIdentifier=identifier, instanceName=self.name)

        def logger(component, instance, status, category, message):
            self._log(status, message)

        self._callbacks = fmi1CallbackFunctions()
        self._callbacks.logger = fmi1CallbackLoggerTYPE(logger)
        self._callbacks.allocateMemory = fmi1CallbackAllocateMemoryTYPE(calloc)
        self._callbacks.freeMemory = fmi1CallbackFreeMemoryTYPE(free)
        self._call("load", self._slave.instantiate, functions=self._callbacks, loggingOn=True)
        if not self._slave.component:
            raise self.explain("load")
        self._instantiated = True
        self._dll = dll = self._slave.dll
        self._component = self._slave.component
        self._set_real, self._get_real = dll[f"{identifier}_fmiSetReal"], dll[f"{identifier}_fmiGetReal"]
        self._do_step = dll[f"{identifier}_fmiDoStep"]
        self._do_step.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double, ctypes.c_char]
        self._do_step.restype = ctypes.c_int

    def initialize(self, start_time: float) -> None:
        """Set the values of the plan, then ``fmiInitializeSlave``."""
        variables = self.model.variables
        for name, value in self.part.values.items():
            self._set_value(variables[name], value)
        before = len(self.errors)
        self._call("initialize", self._slave.initialize, tStart=start_time)
        if len(self.errors) > before:
            raise self.explain("initialize")
        self._terminable = True

    def do_step(self, t: float, h: float) -> None:
        t0 = perf_counter()
        status = self._do_step(self._c_component, t, h, b"\x01")
        self._fmi_time += perf_counter() - t0
        self._steps_made += 1
        if status > 1:
            raise self.explain(f"step from t = {t:g} s")

    def set_input_derivatives(self) -> None:
        raise CraneCosimError(f"component {self.name} ({self.path.name}) is an FMI 1.0 FMU, whose input "
                              f"derivatives crane-cosim does not set")

    def _set_strings(self) -> int:
        vr, values = self._s_in
        for i, text in enumerate(self.su):
            values[i] = text.encode()
        return self._dll[f"{self.PREFIX}SetString"](self._component, vr, len(self.su), values)

    def _get_strings(self) -> int:
        vr, values = self._s_out
        status = self._dll[f"{self.PREFIX}GetString"](self._component, vr, len(self.sy), values)
        if status <= 1:
            for i in range(len(self.sy)):
                self.sy[i] = (values[i] or b"").decode(errors="replace")
        return status
