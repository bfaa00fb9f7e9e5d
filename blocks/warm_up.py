"""Compiling the blocks' numba kernels before a run, with a word to the user.

A block whose hot path numba compiles (a :class:`~compiled_block.CompiledBlock`)
says what its compile is called and how long it takes (``compile_name``,
``compile_time``).  :func:`warm_up` compiles the kernels, and the whole step
made of them (``stepping.py``), of the blocks of a run that the cache does
not hold yet, with the word and the bar of ``compile_word.py``; with a warm
cache it prints nothing and costs a fraction of a second.
"""
from __future__ import annotations

from . import jit, stepping
from .registry import BLOCKS
from .compile_word import compile_with_word

__all__ = ["COMPILED_BLOCKS", "to_compile", "warm_up"]

#: the blocks whose hot path numba compiles: model name -> (what to call
#: it, how long it takes), as each block declares them
COMPILED_BLOCKS = {name: (cls.compile_name, cls.compile_time) for name, cls in BLOCKS.items()
                   if getattr(cls, "kernel_module", None) is not None}


def to_compile(models) -> list[str]:
    """Those of ``models`` whose kernels, or whose compiled whole step
    (``stepping.py``), the cache does not hold yet, one for each kernel
    module (the two friction blocks share theirs)."""
    chosen = {}
    for m in sorted(models):
        module = BLOCKS[m].kernel_module if m in COMPILED_BLOCKS else None
        if module is not None and module not in chosen and not _compiled(module):
            chosen[module] = m
    return list(chosen.values())


def _compiled(module: str) -> bool:
    return jit.kernels_compiled(module) and stepping.step_compiled(module)


def warm_up(models, stream=None) -> list[str]:
    """Compile the kernels of those ``models`` (block model names) that the
    cache does not hold yet, telling ``stream`` (default: stderr) what is
    happening.  Returns the models compiled (empty with a warm cache)."""
    todo = to_compile(models)
    for model in todo:
        what, duration = COMPILED_BLOCKS[model]
        module = BLOCKS[model].kernel_module
        functions = (*jit.kernel_functions(module), *stepping.step_functions(module))
        if jit.kernels_compiled(module):  # the whole step alone, made anew
            what, duration, functions = f"the whole step of {what}", "a few seconds", stepping.step_functions(module)
        compile_with_word(what, duration, module, BLOCKS[model]().prepare, stream, functions)
    return todo
