"""The test counter as an FMI 3.0 FMU (pythonfmu3), with the types of
FMI 3.0 that pythonfmu3 serves: ``count`` an Int32 (``initial="exact"``),
``total`` an Int64 (``offset`` plus the count, beyond 32 bits), ``ticks``
a UInt64 (steps made), ``level`` a Float64, ``running`` a Boolean,
``mode_out`` an Enumeration, ``echo`` a String, and ``history`` an array
of three Float64 (the count, the level and the step), which a master that
exchanges scalars leaves out.  Its inputs and step are Counter2's; with
``end_after`` (a UInt64, 0: never) it asks to end the simulation when
its ``ticks`` reach it, at the end of that step (``terminateSimulation``)."""
import enum

import numpy as np
from pythonfmu3 import (Boolean, Dimension, EnumerationType, Fmi3Causality, Fmi3Initial, Fmi3Slave, Fmi3StepResult,
                        Fmi3Variability, Float64, Int32, Int64, String, UInt64)
from pythonfmu3 import Enumeration as _Enumeration

Mode = enum.Enum("Mode", {"off": 1, "slow": 2, "fast": 3})
FACTOR = {1: 0, 2: 1, 3: 2}


class Enumeration(_Enumeration):
    """pythonfmu3 0.3.4's Enumeration lacks the scalar's size its get and set
    calls ask for (added upstream after that release)."""
    dimensions = []

    def size(self, variables):
        return 1


class Counter3(Fmi3Slave):

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.author = "crane-cosim tests"
        self.description = "Test counter with the FMI 3.0 types pythonfmu3 serves"
        self.time = 0.0
        self.increment = 1
        self.offset = 10_000_000_000
        self.prefix = "got "
        self.end_after = 0
        self.enable = False
        self.mode = Mode.slow.value
        self.label = ""
        self.rate = 0.0
        self.count = 0
        self.level = 0.0
        self.ticks = 0
        self.history = np.zeros(3)
        C, V, I = Fmi3Causality, Fmi3Variability, Fmi3Initial
        modes = EnumerationType("Mode", values=Mode)
        reg = self.register_variable
        reg(Float64("time", causality=C.independent, variability=V.continuous))
        reg(Int32("increment", causality=C.parameter, variability=V.tunable))
        reg(Int64("offset", causality=C.parameter, variability=V.fixed))
        reg(String("prefix", causality=C.parameter, variability=V.fixed))
        reg(UInt64("end_after", causality=C.parameter, variability=V.fixed))
        reg(Boolean("enable", causality=C.input, variability=V.discrete))
        reg(Enumeration("mode", causality=C.input, variability=V.discrete), var_type=modes)
        reg(String("label", causality=C.input, variability=V.discrete))
        reg(Float64("rate", causality=C.input, variability=V.continuous))
        reg(Int32("count", causality=C.output, variability=V.discrete, initial=I.exact))
        reg(Float64("level", causality=C.output, variability=V.continuous, initial=I.exact))
        reg(UInt64("ticks", causality=C.output, variability=V.discrete, initial=I.exact))
        reg(Int64("total", causality=C.output, variability=V.discrete, initial=I.calculated,
                  getter=lambda: self.offset + self.count))
        reg(Boolean("running", causality=C.output, variability=V.discrete, initial=I.calculated,
                    getter=lambda: bool(self.enable) and self.mode != Mode.off.value))
        reg(Enumeration("mode_out", causality=C.output, variability=V.discrete, initial=I.calculated,
                        getter=lambda: self.mode), var_type=modes)
        reg(String("echo", causality=C.output, variability=V.discrete, initial=I.calculated,
                   getter=lambda: f"{self.prefix}{self.label}"))
        # an explicit setter: pythonfmu3 0.3.4's own reshapes with a keyword numpy 2.4 removed
        reg(Float64("history", causality=C.output, variability=V.discrete, dimensions=[Dimension(start="3")],
                    setter=lambda v: setattr(self, "history", np.reshape(np.asarray(v, dtype=float), (3,)))))

    def do_step(self, current_time, step_size):
        if self.enable:
            self.count += self.increment * FACTOR[self.mode]
        self.level += self.rate * step_size
        self.ticks += 1
        self.time = current_time + step_size
        self.history = np.array([float(self.count), self.level, float(self.ticks)])
        return Fmi3StepResult(terminateSimulation=self.ticks == self.end_after)

    def to_xml(self, model_options=dict()):
        root = super().to_xml(model_options)
        for variable in root.find("ModelVariables"):
            if variable.get("name") == "increment":
                variable.set("min", "0")
                variable.set("max", "100")
        return root
