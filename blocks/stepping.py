"""A compiled block's whole step in one numba call.

``Block._integrate`` (``blocks/block.py``) is the readable reference of a
block's step: ``n`` sub-steps of at most ``max_step`` [s] by the block's
``method`` (``"rk4"``, ``"heun"``, ``"symplectic-euler"``), the inputs held
or, with their time derivatives ``du``, on the polynomial
``u + s du[0] + s**2/2 du[1]`` in the time ``s`` [s] since the step's start
(``Block.advance_along``).  For a :class:`blocks.compiled_block.CompiledBlock` each
stage goes from Python to the kernel ``derivatives(t, x, u, *args)`` and
back, with its checks.  Here the same
arithmetic, in the same order, is compiled together with the kernel, so
that a step is one call: :func:`compiled_step` returns the new state, or
``None`` where a stage's rates were not all finite (or without numba), and
the block then takes the reference path, which hands such a stage to its
numpy code as before.  ``tests/blocks/test_stepping.py`` holds the two to
the same bits.  This presumes what every compiled block does: its
``derivatives`` is its kernel's, the numpy code answering only where that
is not finite; a block whose rates add anything to the kernel's must not
be stepped so (its kernel module then names that kernel otherwise).

The step's source is this module's :data:`_TEMPLATE` importing that
kernel from the kernel module as ``blocks/jit.py`` loads it
(``jit.load_kernels``); it is written next to that module's stable copy, in
the folder named by the kernel module's content hash, under a name holding
the template's own hash, so that numba's cache (``cache=True``) keeps its
machine code across runs and FMUs as it keeps the kernels', and a change
of either gives a new file.  (A generic step taking the kernel as an
argument would be simpler, but numba recompiles such a function in every
process, its cache key holding the argument's identity, and unboxes the
function at every call.)
"""
from __future__ import annotations

import ast
import hashlib
import math
import sys

import numpy as np

from . import jit
from .kernel_texts import parsed

__all__ = ["METHODS", "compiled_step", "load_stepping", "step_compiled", "step_functions", "warm_up"]

#: ``Block.method`` -> the step's method code (another name: ``"rk4"``, as
#: ``Block._integrate`` takes it)
METHODS = {"rk4": 0, "heun": 1, "symplectic-euler": 2}

_TEMPLATE = '''"""The whole step of a block whose kernel module is {module}, written by
crane_cosim.blocks.stepping (see there): generated, not to be edited."""
import numpy as np

{rate}


def step(t, x, u, du, moving, h, n, method, args):
    """The state [state units] at ``t + h`` [s] from ``x`` at ``t`` [s]:
    ``n`` sub-steps of ``h / n`` by ``method`` (0 classic Runge-Kutta, 1
    Heun, 2 symplectic Euler on ``x = [q; v]``), the inputs ``u`` held or,
    with ``moving``, on ``u + s du[0] + s**2/2 du[1]`` (``s`` [s] since
    ``t``), each stage's rates ``rate(t, x, u, args)``.  Returns
    ``(x, True)``, or ``(x at the start of the sub-step, False)`` as soon
    as a stage's rates are not all finite.  The arithmetic, operation by
    operation, is ``Block._integrate``'s."""
    dt = h / n
    u0 = u
    um = u
    u1 = u
    for i in range(n):
        ti = t + i * dt
        if moving:
            s = i * dt
            r = s
            u0 = u + r * du[0] + (r * r / 2) * du[1]
            r = s + dt / 2
            um = u + r * du[0] + (r * r / 2) * du[1]
            r = s + dt
            u1 = u + r * du[0] + (r * r / 2) * du[1]
        k1 = rate(ti, x, u0, args)
        if not finite(k1):
            return x, False
        if method == 2:
            m = x.size // 2
            v = x[m:] + dt * k1[m:]
            x = np.concatenate((x[:m] + dt * v, v))
        elif method == 1:
            k2 = rate(ti + dt, x + dt * k1, u1, args)
            if not finite(k2):
                return x, False
            x = x + dt / 2 * (k1 + k2)
        else:
            k2 = rate(ti + dt / 2, x + dt / 2 * k1, um, args)
            if not finite(k2):
                return x, False
            k3 = rate(ti + dt / 2, x + dt / 2 * k2, um, args)
            if not finite(k3):
                return x, False
            k4 = rate(ti + dt, x + dt * k3, u1, args)
            if not finite(k4):
                return x, False
            x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return x, True
'''

#: a block's rates from its kernels, by the kernel they call:
#: ``derivatives(t, x, u, *args)``, the state's rates, or, for a block of
#: state ``x = [q; v]`` whose kernel gives the accelerations only (the
#: knuckle boom crane: ``accelerations(x, u, *args)``), ``[v; dv/dt]``,
#: as the block's ``derivatives`` puts them together
_RATES = {
    "derivatives": '''from {module} import derivatives, finite


def rate(t, x, u, args):
    """The state's rates at ``(t, x, u)`` by the kernel module's ``derivatives``."""
    return derivatives(t, x, u, *args)''',
    "accelerations": '''from {module} import accelerations, finite


def rate(t, x, u, args):
    """The rates ``[v; dv/dt]`` of the state ``x = [q; v]`` at ``(t, x, u)``,
    ``dv/dt`` by the kernel module's ``accelerations``."""
    m = x.size // 2
    return np.concatenate((x[m:], accelerations(x, u, *args)))''',
}

#: the loaded kernel module's name -> its compiled step's module
_STEPS: dict = {}


def load_stepping(name: str, kernels):
    """The module of the compiled ``step`` of ``kernels``, the kernel
    module ``blocks/<name>.py`` as ``jit.load_kernels`` loaded it (see the
    module docstring), or
    ``None`` where it is not such a module or defines no kernel of
    :data:`_RATES`.
    One per kernel module's content and process; nothing is compiled until
    its first call."""
    module = jit._module_name(name)  # the loaded kernel module's name, in sys.modules
    if module in _STEPS:
        return _STEPS[module]
    if sys.modules.get(module) is not kernels:
        return None
    source = _step_source(name, vars(kernels))
    if source is None:
        return None
    step_name, text = source
    # beside the kernel module's copy (or, if the cache folder cannot be
    # written, in a temporary folder, compiled afresh in every process)
    path = jit._stable_copy(step_name, text, jit._digest(name))
    compiled = jit._exec_compiled(f"{module}_{step_name[len(name) + 1:]}", path, jit._numba())
    sys.modules[compiled.__name__] = compiled
    _STEPS[module] = compiled
    return compiled


def _step_source(name: str, defined):
    """``(file stem, source)`` of the compiled step of the kernel module
    ``blocks/<name>.py``, whose names are ``defined``, or ``None`` where it
    defines no kernel of :data:`_RATES`."""
    kernel = next((k for k in _RATES if k in defined), None)
    if kernel is None:
        return None
    module = jit._module_name(name)
    text = _TEMPLATE.format(module=module, rate=_RATES[kernel].format(module=module)).encode()
    return f"{name}_step_{hashlib.sha256(text).hexdigest()[:16]}", text


def step_functions(name: str) -> tuple[str, ...]:
    """The functions of the compiled step of the kernel module
    ``blocks/<name>.py`` (none where it has no step), read from its
    source, nothing imported."""
    source = _step_source(name, set(jit.kernel_functions(name)))
    if source is None:
        return ()
    return tuple(node.name for node in parsed(source[1]).body if isinstance(node, ast.FunctionDef))


def step_compiled(name: str) -> bool:
    """Whether numba's cache holds the compiled step of the kernel module
    ``blocks/<name>.py`` (true where it has none, or without numba):
    :func:`jit.kernels_compiled` for the step, which a change of this
    module's template makes anew while the kernels stay cached."""
    numba = jit._numba()
    source = _step_source(name, set(jit.kernel_functions(name))) if numba is not None else None
    if source is None:
        return True
    step_name, text = source
    path = jit._stable_path(step_name, jit._digest(name))
    if not path.is_file() or path.read_bytes() != text:
        return False
    jit.load_kernels(name)  # the step imports the kernels (executed, nothing compiled)
    return jit.functions_cached(f"{jit._module_name(name)}_{step_name[len(name) + 1:]}_check", path,
                                step_functions(name), numba)


def _substeps(block, h: float) -> int:
    """``Block._integrate``'s number of sub-steps for a step of ``h`` [s]."""
    return max(1, math.ceil(h / block.max_step - 1e-9))


def compiled_step(block, t, x, u, du, h):
    """``block``'s state at ``t + h`` [s] by its compiled step (``du``:
    ``None`` for inputs held, else the inputs' first and second time
    derivatives, shape (2, inputs)), or ``None`` where the block has no
    compiled step or a stage's rates were not finite: the caller then
    integrates by ``Block._integrate``."""
    step = block._step
    if step is None or x.size == 0:
        return None
    moving = du is not None
    u = np.ascontiguousarray(u, dtype=float)
    du = np.ascontiguousarray(du, dtype=float) if moving else block._held
    try:
        x, ok = step(float(t), np.ascontiguousarray(x, dtype=float), u, du, moving, float(h),
                     _substeps(block, h), METHODS.get(block.method, 0), block._kernel_args)
    except ValueError:  # numba's solver refusing a singular matrix: the numpy code answers
        return None
    return x if ok else None


def warm_up(block) -> None:
    """Load ``block``'s compiled step (``block._step``) and call it once at
    its initial state and default inputs (numba compiles it, or loads it
    from its cache, at the first call), with the argument types of
    :func:`compiled_step`."""
    module = load_stepping(block.kernel_module, block.kernels) if block.kernels is not None else None
    if module is None:
        return
    block._held = np.zeros((2, len(block.inputs)))  # the derivatives of inputs held
    x0, u0 = block.initial_state(), block.default_inputs()
    block._step = module.step
    if x0.size:
        compiled_step(block, 0.0, x0, u0, None, block.max_step)
