"""A test-only block with String parameters, for the tests of String
parameters from declaration to every host (not registered in
``crane_cosim.blocks.BLOCKS``; its FMU is built by
:func:`crane_cosim.fmus.build.build_block_fmu`, the ``choice_fmu`` fixture).

``model`` chooses a model by name, as ``JointFriction`` does, and is fixed
once the model is initialized; ``sign`` is a tunable String parameter.
The output ``level`` tells which were chosen, plus the input ``u``.
"""
import numpy as np

from crane_cosim.blocks.block import Block, Variable

#: the output's value for each model
LEVELS = {"none": 0.0, "dahl": 1.0, "lugre": 2.0}


class Choice(Block):
    model_name = "Choice"
    description = "Test block: a model chosen by name"
    parameters = (
        Variable("model", "", "lugre", "The model: none, dahl or lugre", "String"),
        Variable("sign", "", "plus", "Sign of the level: plus or minus", "String", tunable=True),
        Variable("k", "1", 1.0, "Gain of the input", tunable=True),
    )
    inputs = (Variable("u", "1", 0.0, "Added to the level"),)
    outputs = (Variable("level", "1", 0.0, "LEVELS[model], signed, plus k u"),)
    default_stop_time = 0.1
    default_step = 0.01

    def setup(self):
        self.require_one_of("model", tuple(LEVELS))
        self.require_one_of("sign", ("plus", "minus"))

    def output(self, t, x, u):
        sign = 1.0 if self.p.sign == "plus" else -1.0
        return np.array([sign * LEVELS[self.p.model] + self.p.k * u[0]])
