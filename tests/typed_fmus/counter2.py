"""A test counter (FMI 2.0, pythonfmu) with an input and an output of
every FMI 2.0 type.  A step from t over h, enabled, adds ``increment``
times the mode's factor (off 0, slow 1, fast 2) to ``count``; ``level``
integrates ``rate``; ``running`` is ``enable`` and not off, ``mode_out``
the mode, ``echo`` the prefix and the label (these three follow their
inputs directly); ``count`` has ``initial="exact"``: a host may set it
before initialization.  ``increment`` is an Integer of 0 to 100."""
from pythonfmu import Boolean, Fmi2Causality, Fmi2Initial, Fmi2Slave, Fmi2Variability, Integer, Real, String
from typed_fmi2 import FACTOR, MODES, Enumeration, completed


class Counter2(Fmi2Slave):
    author = "crane-cosim tests"
    description = "Test counter with an input and an output of every FMI 2.0 type"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.increment = 1
        self.prefix = "got "
        self.enable = False
        self.mode = MODES["slow"]
        self.label = ""
        self.rate = 0.0
        self.count = 0
        self.level = 0.0
        C, V, I = Fmi2Causality, Fmi2Variability, Fmi2Initial
        self.register_variable(Integer("increment", causality=C.parameter, variability=V.tunable))
        self.register_variable(String("prefix", causality=C.parameter, variability=V.fixed))
        self.register_variable(Boolean("enable", causality=C.input, variability=V.discrete))
        self.register_variable(Enumeration("mode", "Mode", causality=C.input, variability=V.discrete))
        self.register_variable(String("label", causality=C.input, variability=V.discrete))
        self.register_variable(Real("rate", causality=C.input, variability=V.continuous))
        self.register_variable(Integer("count", causality=C.output, variability=V.discrete, initial=I.exact))
        self.register_variable(Real("level", causality=C.output, variability=V.continuous, initial=I.exact))
        self.register_variable(Boolean("running", causality=C.output, variability=V.discrete,
                                       initial=I.calculated,
                                       getter=lambda: bool(self.enable) and self.mode != MODES["off"]))
        self.register_variable(Enumeration("mode_out", "Mode", causality=C.output, variability=V.discrete,
                                           initial=I.calculated, getter=lambda: self.mode))
        self.register_variable(String("echo", causality=C.output, variability=V.discrete, initial=I.calculated,
                                      getter=lambda: f"{self.prefix}{self.label}"))

    def do_step(self, current_time, step_size):
        if self.enable:
            self.count += self.increment * FACTOR[self.mode]
        self.level += self.rate * step_size
        return True

    def to_xml(self, model_options=dict()):
        return completed(super().to_xml(model_options), {"Mode": MODES}, {"increment": (0, 100)})
