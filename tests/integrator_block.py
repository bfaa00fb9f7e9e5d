"""A test-only block: an integrator, ``dx/dt = k u``, for the tests of the
master's algorithms on a loop with a known solution (not registered in
``crane_cosim.blocks.BLOCKS``; its FMU is built by
:func:`crane_cosim.fmus.build.build_block_fmu`, the ``integrator_fmu``
fixture).

Two of them in a loop, ``a' = b`` and ``b' = -a``, are the harmonic
oscillator ``a = cos t``, ``b = -sin t``.  The integrator's own RK4 is exact
for an input held over the step, so the error of such a run is the master's
alone.  ``s = x + u`` depends directly on the input.
"""
import numpy as np

from crane_cosim.blocks.block import Block, Variable


class Integrator(Block):
    model_name = "Integrator"
    description = "Test block: an integrator, dx/dt = k u"
    parameters = (
        Variable("x0", "1", 0.0, "Start value of x"),
        Variable("k", "1/s", 1.0, "Gain"),
    )
    inputs = (Variable("u", "1", 0.0, "Integrated input"),)
    outputs = (Variable("y", "1", 0.0, "The state x"),
               Variable("s", "1", 0.0, "x + u: depends directly on the input"))
    states = (Variable("x", "1", 0.0, "The integral"),)
    feedthrough = (("y", ()),)
    max_step = 1.0
    default_stop_time = 1.0
    default_step = 0.01

    def initial_state(self):
        return np.array([self.p.x0])

    def derivatives(self, t, x, u):
        return np.array([self.p.k * u[0]])

    def output(self, t, x, u):
        return np.array([x[0], x[0] + u[0]])
