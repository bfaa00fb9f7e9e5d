"""A kernel module (``blocks/*_kernels.py``) run as plain Python, as it is
or with one term changed, for the tests that hold a kernel to its numpy
reference: they show that a wrong term would be seen."""
import types

import numpy as np

from crane_cosim.blocks import jit


def kernels_as_python(name: str, old: str | None = None, new: str | None = None) -> types.ModuleType:
    """The kernel module ``name`` uncompiled, with its one occurrence of the
    source text ``old`` replaced by ``new`` if given."""
    source = jit._SOURCES[name].decode()
    if old is not None:
        assert source.count(old) == 1, f"the term {old!r} is no longer in {name}"
        source = source.replace(old, new)
    module = types.ModuleType(f"python_{name}")
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def runs_apart(compiled, reference, x, u, steps: int, h: float = 1e-3):
    """After ``steps`` steps of ``h`` [s] from the state ``x`` with the
    inputs ``u`` held, how far the compiled block's state is from the numpy
    reference's: the largest difference of the coordinates and of the rates
    (the state's two halves), each over the largest coordinate or rate of
    the reference's end state."""
    x_ref = x
    for k in range(steps):
        x = compiled.advance(k * h, x, u, h)
        x_ref = reference.advance(k * h, x_ref, u, h)
    n = x.size // 2
    return (np.abs(x[:n] - x_ref[:n]).max() / np.abs(x_ref[:n]).max(),
            np.abs(x[n:] - x_ref[n:]).max() / np.abs(x_ref[n:]).max())
