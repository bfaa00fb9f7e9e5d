"""The least a block can do: its output is its input, it has no state.  The
benchmark's floor of a step of a Python FMU through the project's adapter
(``crane-cosim bench``); not one of the FMUs a system is made of."""
from __future__ import annotations

from .block import Block, Variable


class PassOn(Block):
    model_name = "PassOn"
    description = "Passes its input on unchanged (the floor of a step of a Python FMU)"
    inputs = (Variable("u", "1", 0.0, "Input"),)
    outputs = (Variable("y", "1", 0.0, "The input, unchanged"),)

    def output(self, t, x, u):
        return u.copy()
