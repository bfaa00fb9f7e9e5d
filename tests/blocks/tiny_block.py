"""A block whose kernel module numba compiles in a fraction of a second
(an oscillator), and a kernel module numba cannot compile: the machinery
of the blocks' kernels (numba's cache, the compiled step, the CI rule, the
compile lock), fast.  :func:`tiny_block` makes the block of either, once
its source is in ``jit._SOURCES`` under that name."""
import numpy as np

from crane_cosim.blocks.block import Variable
from crane_cosim.blocks.compiled_block import CompiledBlock

__all__ = ["TINY", "BROKEN", "tiny_block"]

#: the outputs and the check of finite results, which both modules share
_SHARED = b'''

def outputs(t, x, inp, k):
    return x.copy()


def finite(a):
    for v in a:
        if not np.isfinite(v):
            return False
    return True
'''

TINY = b'''import numpy as np


def derivatives(t, x, inp, k):
    out = np.empty(2)
    out[0] = x[1]
    out[1] = -k * x[0] + inp[0]
    return out
''' + _SHARED

#: a derivative numba cannot type (a float where an array is asked for)
BROKEN = b'''import numpy as np


def derivatives(t, x, inp, k):
    return 1.0
''' + _SHARED


def tiny_block(name):
    """The oscillator block of the kernel module ``name``."""
    class Tiny(CompiledBlock):
        model_name = "Tiny"
        description = "an oscillator"
        kernel_module = name
        inputs = (Variable("f", "N", 0.0, "force"),)
        outputs = (Variable("x", "m", 0.0, "position"), Variable("v", "m/s", 0.0, "speed"))
        states = (Variable("x", "m", 1.0, "position"), Variable("v", "m/s", 0.0, "speed"))

        def setup(self):
            self._kernel_args = (4.0,)

        def initial_state(self):
            return np.array([1.0, 0.0])

        def derivatives(self, t, x, u):
            dx = self._compiled("derivatives", t, x, u)
            return dx if dx is not None else np.array([x[1], -4.0 * x[0] + u[0]])

        def output(self, t, x, u):
            return x.copy()
    return Tiny
