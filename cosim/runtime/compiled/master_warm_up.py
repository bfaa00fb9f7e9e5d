"""Compiling the master's compiled step before a run, with a word to the
user (``blocks/compile_word.py``): numba compiles it once per machine, for
about as long as the largest block's kernels (docs/benchmarks.md)."""
from __future__ import annotations

import importlib
from pathlib import Path

from numba.core.registry import CPUDispatcher

from ...blocks import jit
from ...blocks.compile_lock import compiling_alone
from ...blocks.compile_word import compile_with_word
from ..algorithms import ALGORITHMS
from . import cache, qn, step

__all__ = ["MASTER_STEP", "master_to_compile", "warm_up_master"]

#: what the master's compiled step is called, and how long its compile
#: takes from a cold cache, idle to busy
MASTER_STEP = ("the master's step (the iterated midpoint and quadratic)", "40 s to 1.5 min")


def master_to_compile() -> bool:
    """Whether the master's compiled step is to be compiled: numba on, and
    its machine code not in the cache."""
    if jit._numba() is None:
        return False
    return not jit.dispatcher_cached(step.midpoint_steps, Path(step.__file__))


def compile_master() -> None:
    """Compile the master's step (one process at a time: ``compiling_alone``)."""
    with compiling_alone([step.midpoint_steps], cache.folder()):
        step.midpoint_steps.compile(step.SIGNATURE)
    # the fit whole, which the Python algorithm's quasi-Newton model calls (the compiled step its parts)
    qn.least_squares.compile(qn.LEAST_SQUARES_SIGNATURE)


def master_functions() -> tuple[list[str], tuple[str, ...]]:
    """The names of the functions numba compiles for the master's step, and
    the modules that hold them (not those inlined into their callers,
    which it never compiles alone)."""
    compiled = [importlib.import_module(f"{cache.__package__}.{name}") for name in cache.MODULES]
    return [name for m in compiled for name, v in vars(m).items()
            if isinstance(v, CPUDispatcher) and v.py_func.__module__ == m.__name__
            and v.targetoptions.get("inline") != "always"], tuple(m.__name__ for m in compiled)


def warm_up_master(stream=None, for_algorithm: str | None = None) -> bool:
    """Compile the master's step where the cache does not hold it (with
    ``for_algorithm``, an algorithm's name: only where that algorithm has
    a compiled twin), telling ``stream`` (default: stderr); whether it was
    compiled."""
    if for_algorithm is not None and not getattr(ALGORITHMS.get(for_algorithm), "compiled_twin", False):
        return False
    if not master_to_compile():
        return False
    functions, modules = master_functions()
    # numba's own place for a module's cache: beside it, else a folder of the user's
    kept = getattr(getattr(step.midpoint_steps, "_cache", None), "_cache_path", None)
    compile_with_word(*MASTER_STEP, None, compile_master, stream, functions, modules, kept)
    return True
