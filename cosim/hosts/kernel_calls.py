"""How the monolithic run calls each block: ``(output, derivatives)``, each
``f(t, x, u)`` with ``t`` a float and ``x``, ``u`` contiguous float arrays.

A compiled block's ``output`` and ``derivatives`` ask its numba kernel
first and answer with the numpy code where the kernel's result is not
finite (:class:`~crane_cosim.blocks.compiled_block.CompiledBlock`); called thousands
of times a simulated second, their checks and conversions cost as much as
a small kernel.  Here the kernel is called directly, with the same
arguments, and the block's own method only where the kernel's result is not
finite (or the kernel refuses its inputs): the same values, by the same
code.  A block without kernels, or whose kernels numba could not compile,
is called through its methods.  The friction blocks' kernels
(``blocks/joint_friction_kernels.py``, held to the numpy code by its
tests) take no time argument: ``outputs(x, u, *args)``, ``rates(x, u, *args)``.
"""
from __future__ import annotations

import math

import numpy as np

from ..blocks.compiled_block import CompiledBlock
from ..blocks.joint_friction import JointFriction
from ..blocks.knuckle_boom import KnuckleBoomCrane

# the compiled blocks whose ``output`` and ``derivatives`` are exactly
# ``kernels.outputs``/``kernels.derivatives(t, x, u, *block._kernel_args)``
# with the numpy code behind them
_PLAIN = ("Vessel", "Crane", "FlexibleCrane", "SupportedBase")


def _finite(a) -> bool:
    # a finite sum has finite terms only (and a sum that overflows sends
    # the evaluation to the block's own method, which answers the same)
    return math.isfinite(np.add.reduce(a))


def _plain(block):
    outputs, derivatives, args = block.kernels.outputs, block.kernels.derivatives, block._kernel_args

    def output(t, x, u):
        y = outputs(t, x, u, *args)
        return y if _finite(y) else block.output(t, x, u)

    def rates(t, x, u):
        dx = derivatives(t, x, u, *args)
        return dx if _finite(dx) else block.derivatives(t, x, u)

    return output, rates


def _knuckle_boom(block):
    outputs, accelerations = block.kernels.outputs, block.kernels.accelerations
    args, reaction_args = block._kernel_args, block._reaction_args
    out_args = args + reaction_args
    n = len(block.states) // 2

    def output(t, x, u):
        try:
            y = outputs(x, u, *out_args)
        except ValueError:  # numba's solver refuses NaN or a singular matrix
            return block.output(t, x, u)
        return y if _finite(y) else block.output(t, x, u)

    def rates(t, x, u):
        try:
            du = accelerations(x, u, *args)
        except ValueError:
            return block.derivatives(t, x, u)
        if not _finite(du):
            return block.derivatives(t, x, u)
        dx = np.empty(2 * n)
        dx[:n] = x[n:]
        dx[n:] = du
        return dx

    return output, rates


def _friction(block, kernels):
    outputs, derivatives = kernels.outputs, kernels.rates
    args = block._kernel_args
    # numba compiles (or loads from its cache) at the first call: here, not
    # in the first step of the timed run
    x0, u0 = block.initial_state(), block.default_inputs().astype(float)
    outputs(x0, u0, *args)
    derivatives(x0, u0, *args)

    def output(t, x, u):
        y = outputs(x, u, *args)
        return y if _finite(y) else block.output(t, x, u)

    def rates(t, x, u):
        dx = derivatives(x, u, *args)
        return dx if _finite(dx) else block.derivatives(t, x, u)

    return output, rates


def direct_calls(block):
    """``(output, derivatives)`` of ``block``: its kernels' where it is a
    compiled block whose kernels compiled, else its methods."""
    if isinstance(block, CompiledBlock):
        block.prepare()
        if block.kernels is not None:
            if isinstance(block, KnuckleBoomCrane):
                return _knuckle_boom(block)
            if isinstance(block, JointFriction):
                return _friction(block, block.kernels)
            if type(block).__name__ in _PLAIN:
                return _plain(block)
    return block.output, block.derivatives
