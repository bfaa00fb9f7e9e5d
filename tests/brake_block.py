"""A test-only block with Integer and Boolean ports beside Real ones (not
registered in ``crane_cosim.blocks.BLOCKS``; its FMU is built by
:func:`crane_cosim.fmus.build.build_block_fmu`, the ``brake_fmu`` fixture),
for the tests of typed ports from the declaration to the FMU and the bridge.

A joint held by a brake: the torque ``tau = -k q`` while ``brake`` is
false, 0 while it is true; ``engaged`` is ``brake``; ``code = 2 gear +
brake`` (an Integer from an Integer and a Boolean); ``count`` counts the
steps taken with the brake on (an Integer state, integrated as ``brake /
h`` would not be: :meth:`advance` adds one a step).
"""
import numpy as np

from crane_cosim.blocks.block import Block, Variable


class Brake(Block):
    model_name = "Brake"
    description = "Test block: a joint held by a brake, with Integer and Boolean ports"
    parameters = (
        Variable("k", "N.m/rad", 100.0, "Stiffness of the joint's spring", tunable=True),
        Variable("gear0", "1", 1, "The mode's gear when none is set", type="Integer"),
        Variable("inverted", "", False, "Whether the brake input means released", type="Boolean"),
    )
    inputs = (
        Variable("q", "rad", 0.0, "Joint angle"),
        Variable("brake", "1", False, "The brake is applied", type="Boolean"),
        Variable("gear", "1", 1, "The gear engaged, a whole number", type="Integer"),
    )
    outputs = (
        Variable("tau", "N.m", 0.0, "Spring torque, zero with the brake applied"),
        Variable("engaged", "1", False, "The brake is applied", type="Boolean"),
        Variable("code", "1", 2, "2 gear + brake", type="Integer"),
        Variable("count", "1", 0, "Steps taken with the brake applied", type="Integer"),
    )
    states = (Variable("n", "1", 0.0, "Steps taken with the brake applied"),)
    feedthrough = (("count", ()),)
    default_stop_time = 0.1
    default_step = 0.01

    def _applied(self, u) -> bool:
        return bool(u[1]) != self.p.inverted

    def initial_state(self):
        return np.zeros(1)

    def derivatives(self, t, x, u):
        return np.zeros(1)

    def advance(self, t, x, u, h):
        return x + (1.0 if self._applied(u) else 0.0)

    def output(self, t, x, u):
        applied = self._applied(u)
        return np.array([0.0 if applied else -self.p.k * u[0], float(applied), 2.0 * u[2] + applied, x[0]])
