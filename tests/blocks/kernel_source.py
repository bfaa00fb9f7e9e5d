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


def _relative(a, ref):
    """``|a - ref|`` over the cases, per quantity, relative to the quantity's
    largest magnitude; where the reference is zero throughout, 0 if ``a``
    is zero too, else infinity."""
    scale = np.abs(ref).max(axis=0)
    diff = np.abs(a - ref).max(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(scale > 0, diff / np.where(scale > 0, scale, 1.0), np.where(diff > 0, np.inf, 0.0))


def disagreement(compiled, reference, cases):
    """The largest ``|compiled - reference|`` over ``cases`` (``(t, x, u)``),
    relative to the reference's largest magnitude, of the outputs and the
    derivatives, with the names of the worst of each."""
    y = np.array([compiled.output(t, x, u) for t, x, u in cases])
    y_ref = np.array([reference.output(t, x, u) for t, x, u in cases])
    d = np.array([compiled.derivatives(t, x, u) for t, x, u in cases])
    d_ref = np.array([reference.derivatives(t, x, u) for t, x, u in cases])
    ry, rd = _relative(y, y_ref), _relative(d, d_ref)
    block = type(reference)
    return (max(ry.max(), rd.max()), block.output_names()[int(ry.argmax())],
            f"d{reference.states[int(rd.argmax())].name}/dt")


def compiled_pair(block, **params):
    """Two ``block`` instances made with ``params``: one running its compiled
    kernels, one its numpy code, the reference."""
    compiled, reference = block(**params), block(**params)
    compiled.prepare()
    reference.prepare(numba=False)
    assert compiled.kernels is not None and reference.kernels is None
    return compiled, reference
