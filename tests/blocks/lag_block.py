"""A test-only block added as docs/master.md ("Adding a block") says: a
first-order lag, ``T dy/dt = u - y``, whose response to a unit step is
``1 - exp(-t/T)``.  Registered in ``BLOCKS`` by its test only."""
import numpy as np

from crane_cosim.blocks.block import Block, ParameterError, Variable


class Lag(Block):
    model_name = "Lag"
    description = "Test block: a first-order lag, T dy/dt = u - y."
    reference = "A first-order lag (no paper: a test of adding a block)."
    validation = "Its step response against 1 - exp(-t/T), alone and in series (tests/blocks/test_adding_a_block.py)."
    parameters = (Variable("T", "s", 0.5, "Time constant", tunable=True),
                  Variable("y0", "1", 0.0, "Start value of y"))
    inputs = (Variable("u", "1", 1.0, "Input (a unit step from t = 0 by default)"),)
    outputs = (Variable("y", "1", 0.0, "The lagged input"),)
    states = (Variable("x", "1", 0.0, "y itself"),)
    feedthrough = (("y", ()),)
    max_step = 1e-2
    default_stop_time = 2.0
    default_step = 1e-2

    def setup(self):
        if not self.p.T > 0:
            raise ParameterError(f"Lag parameter T = {self.p.T} s must be positive")

    def initial_state(self):
        return np.array([self.p.y0])

    def derivatives(self, t, x, u):
        return np.array([(u[0] - x[0]) / self.p.T])

    def output(self, t, x, u):
        return np.array([x[0]])
