"""A test FMU (FMI 2.0, pythonfmu, every variable Real) that discards
every step from ``t_end`` on (``do_step`` returns False: fmi2Discard),
having made none of it: ``y`` integrates ``u + 1`` over the steps made."""
from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real


class Quitter2(Fmi2Slave):
    author = "crane-cosim tests"
    description = "Test integrator that discards every step from t_end on"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.t_end = 1e9
        self.u = 0.0
        self.y = 0.0
        C, V = Fmi2Causality, Fmi2Variability
        self.register_variable(Real("t_end", causality=C.parameter, variability=V.fixed))
        self.register_variable(Real("u", causality=C.input, variability=V.continuous))
        self.register_variable(Real("y", causality=C.output, variability=V.continuous))

    def do_step(self, current_time, step_size):
        if current_time >= self.t_end - 1e-12:
            return False
        self.y += (self.u + 1.0) * step_size
        return True
