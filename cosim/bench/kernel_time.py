"""What a block's own computation costs per communication step, in process:
the figure ``crane-cosim bench`` shows beside each FMU's time inside its FMI
calls, so that the FMU's cost above the floor of a Python FMU
(``cosim/bench/floor.py``) and its block's own work shows.

For a block with a compiled whole step (``blocks/stepping.py``): one call
of that step over the communication step, straight from Python, and one
``output`` of the block (its compiled ``outputs`` kernel behind a check
of finite results), at the block's initial state and default inputs (the
kernels' own time, with numba's cost of a call from Python, about 1 µs
each).  For any other block: one ``advance`` and one ``output`` of the
block (through its kernels where it has some, as the friction's exact
step and the cylinder's stiff one, else its numpy code).  A networked block
(a bridge, whose outputs come from another process) has no such figure.
"""
from __future__ import annotations

from timeit import Timer

from ..blocks import stepping
from ..blocks.registry import BLOCKS
from ..runtime.model import our_model_name

__all__ = ["kernel_us_per_step", "kernel_us_by_component"]


#: the wall time [s] each of the repeated means takes, at most: enough calls
#: for a steady mean of a 20 µs kernel (1000 of them), fewer of a slow one
BUDGET = 0.02
#: the most calls of a mean
MOST_CALLS = 1000


def kernel_us_per_step(block, step: float, repeat: int = 3, budget: float = BUDGET) -> float:
    """µs a step [µs] of ``block`` (a block, parameters set) for a
    communication step of ``step`` [s]: the fastest of ``repeat`` means
    (``timeit``) of as many steps and output evaluations as take about
    ``budget`` [s], at most :data:`MOST_CALLS` (see the module docstring)."""
    block.prepare()
    x, u = block.initial_state(), block.default_inputs()
    if getattr(block, "_step", None) is not None:
        n, method, args = stepping._substeps(block, step), stepping.METHODS.get(block.method, 0), block._kernel_args
        fn, held = block._step, block._held

        def one():
            fn(0.0, x, u, held, False, step, n, method, args)
            block.output(0.0, x, u)
    else:
        def one():
            block.advance(0.0, x, u, step)
            block.output(0.0, x, u)
    timer = Timer(one)
    timer.timeit(1)  # the first call loads what the later ones use
    calls = max(1, min(MOST_CALLS, round(budget / max(timer.timeit(1), 1e-9))))
    return min(timer.repeat(repeat, calls)) / calls * 1e6


def kernel_us_by_component(system) -> dict:
    """Component name -> :func:`kernel_us_per_step` of the block behind it,
    made with the component's parameters (the defaults where the block
    refuses them as the system file spells them), at the system's step
    (or the component's own); components that are no block of this
    project, or a networked one, are left out."""
    out = {}
    for comp in system.components:
        try:
            model = our_model_name(system.source_path(comp))
        except Exception:
            model = None
        cls = BLOCKS.get(model) if model else None
        if cls is None or cls.networked:
            continue
        try:
            block = cls(**comp.parameters)
        except Exception:
            block = cls()
        try:
            out[comp.name] = kernel_us_per_step(block, comp.step or system.step)
        finally:
            block.close()
    return out
