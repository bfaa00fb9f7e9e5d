"""A test source (FMI 2.0, pythonfmu): a switch, a mode selector, a step
count, a label and a rate, so that a system can carry every FMI 2.0 type.
After its step k (from 0) ends, at t = (k + 1) h: ``n = k + 1``,
``enable`` is true where ``n % 3 != 0``, ``mode`` cycles off, slow, fast
from ``first_mode`` (``mode = (first_mode - 1 + n) % 3 + 1``), ``label``
is ``"pulse <n>"``; ``rate`` is the parameter ``rate0``.  At the start:
``n = 0``, ``enable`` true, ``mode = first_mode``, ``label = "pulse 0"``.
Each step logs ``"pulse <n>"`` through FMI's logger."""
from pythonfmu import Boolean, Fmi2Causality, Fmi2Initial, Fmi2Slave, Fmi2Variability, Integer, Real, String
from typed_fmi2 import MODES, Enumeration, completed


class Pulse2(Fmi2Slave):
    author = "crane-cosim tests"
    description = "Test source of every FMI 2.0 type"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.first_mode = MODES["off"]
        self.rate0 = 1.0
        self.n = 0
        self.enable = True
        self.mode = self.first_mode
        self.label = "pulse 0"
        self.rate = self.rate0
        C, V = Fmi2Causality, Fmi2Variability
        self.register_variable(Enumeration("first_mode", "Mode", causality=C.parameter, variability=V.fixed))
        self.register_variable(Real("rate0", causality=C.parameter, variability=V.fixed))
        self.register_variable(Integer("n", causality=C.output, variability=V.discrete, initial=Fmi2Initial.exact))
        self.register_variable(Boolean("enable", causality=C.output, variability=V.discrete,
                                       initial=Fmi2Initial.exact))
        self.register_variable(Enumeration("mode", "Mode", causality=C.output, variability=V.discrete,
                                           initial=Fmi2Initial.calculated,
                                           getter=lambda: (self.first_mode - 1 + self.n) % 3 + 1))
        self.register_variable(String("label", causality=C.output, variability=V.discrete,
                                      initial=Fmi2Initial.calculated, getter=lambda: f"pulse {self.n}"))
        self.register_variable(Real("rate", causality=C.output, variability=V.discrete,
                                    initial=Fmi2Initial.calculated, getter=lambda: self.rate0))

    def do_step(self, current_time, step_size):
        self.n += 1
        self.enable = self.n % 3 != 0
        self.log(f"pulse {self.n}")
        return True

    def to_xml(self, model_options=dict()):
        return completed(super().to_xml(model_options), {"Mode": MODES}, {"first_mode": (1, 3)})
