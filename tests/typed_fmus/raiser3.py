"""An FMI 3.0 FMU (pythonfmu3) whose step raises a Python exception from
``fail_at`` [s] on: pythonfmu3's binary logs it on the second line of
its message, after the call that failed."""
from pythonfmu3 import Fmi3Causality, Fmi3Slave, Fmi3Variability, Float64


class Raiser3(Fmi3Slave):

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.author = "crane-cosim tests"
        self.description = "Test FMU whose step raises from a time on"
        self.time = 0.0
        self.fail_at = 0.25
        self.level = 0.0
        C, V = Fmi3Causality, Fmi3Variability
        self.register_variable(Float64("time", causality=C.independent, variability=V.continuous))
        self.register_variable(Float64("fail_at", causality=C.parameter, variability=V.fixed))
        self.register_variable(Float64("level", causality=C.output, variability=V.continuous))

    def do_step(self, current_time, step_size):
        if current_time >= self.fail_at:
            raise ValueError(f"the level ran over at t = {current_time:g} s")
        self.level += step_size
        self.time = current_time + step_size
        return True
