"""A test FMU (FMI 2.0, pythonfmu) that cannot vary its step (built with
``--no-variable-step``: ``canHandleVariableCommunicationStepSize`` false)
and says what steps it was asked to make: ``x`` integrates ``u`` over
each step (exact for an input held over it), ``y = x + u`` depends on
``u`` directly, ``steps`` counts the steps, ``h_min`` and ``h_max`` are
the shortest and the longest (0 before the first)."""
from pythonfmu import Fmi2Causality, Fmi2Initial, Fmi2Slave, Fmi2Variability, Integer, Real


class Stepper2(Fmi2Slave):
    author = "crane-cosim tests"
    description = "Test integrator that cannot vary its step and reports the steps it made"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.x0 = 0.0
        self.u = 0.0
        self.x = 0.0
        self.steps = 0
        self.h_min = 0.0
        self.h_max = 0.0
        C, V, I = Fmi2Causality, Fmi2Variability, Fmi2Initial
        self.register_variable(Real("x0", causality=C.parameter, variability=V.fixed))
        self.register_variable(Real("u", causality=C.input, variability=V.continuous))
        self.register_variable(Real("x", causality=C.output, variability=V.continuous, initial=I.calculated,
                                    getter=lambda: self.x0 + self._integral, setter=None))
        self.register_variable(Real("y", causality=C.output, variability=V.continuous, initial=I.calculated,
                                    getter=lambda: self.x0 + self._integral + self.u))
        self.register_variable(Integer("steps", causality=C.output, variability=V.discrete, initial=I.exact))
        self.register_variable(Real("h_min", causality=C.output, variability=V.discrete, initial=I.exact))
        self.register_variable(Real("h_max", causality=C.output, variability=V.discrete, initial=I.exact))
        self._integral = 0.0

    def do_step(self, current_time, step_size):
        self._integral += self.u * step_size
        self.steps += 1
        self.h_min = step_size if self.steps == 1 else min(self.h_min, step_size)
        self.h_max = max(self.h_max, step_size)
        return True

    # the state a rollback restores: the integral is not a variable of its own
    def _get_fmu_state(self):
        state = super()._get_fmu_state()
        state["_integral"] = self._integral
        return state
