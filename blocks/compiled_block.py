"""Blocks with a compiled twin: a :class:`CompiledBlock`'s derivatives,
outputs and whole step run as numba kernels (``blocks/<kernel_module>.py``,
loaded by ``jit.load_kernels``; the whole step by ``stepping.py``), its
numpy code staying the reference that the tests hold them to."""
from __future__ import annotations

import math
import warnings
from typing import ClassVar

import numpy as np

from . import jit, stepping
from .block import Block
from .compile_lock import compiling_alone, dispatchers_of

__all__ = ["CompiledBlock", "floats", "compiled", "sum_finite"]


def sum_finite(a) -> bool:
    """Whether every term of ``a`` is finite: a finite sum has finite terms
    only (and a sum that overflows sends a direct call to the block's own
    method, which answers the same)."""
    return math.isfinite(np.add.reduce(a))


def floats(a) -> np.ndarray:
    """``a`` as a contiguous array of floats, the type a kernel is compiled for."""
    return np.ascontiguousarray(a, dtype=float)


def compiled(block, warm_up) -> bool:
    """Whether ``warm_up()``, the first calls of ``block``'s kernels (numba
    compiles them then, or loads them from its cache), succeeded.  A numba
    that cannot compile them leaves the block's numpy code, with a warning
    saying how much slower it is (``numpy_slowdown``); under continuous
    integration it is an error (``jit.under_ci``)."""
    try:
        warm_up()
        return True
    except Exception as exc:  # numba's own errors have no common base
        if jit.under_ci():
            raise
        warnings.warn(f"{block.model_name}: numba could not compile its kernels ({exc}); running the numpy "
                      f"code, {getattr(block, 'numpy_slowdown', 'slower')}")
        return False


class CompiledBlock(Block):
    """A block whose derivatives and outputs have a twin compiled by numba:
    the functions ``derivatives(t, x, u, *args)`` and ``outputs(t, x, u,
    *args)`` of the kernel module ``blocks/<kernel_module>.py`` (loaded by
    ``jit.load_kernels``), ``args`` being ``self._kernel_args``, which
    :meth:`setup` sets.  The numpy code stays the reference: the subclass's
    ``derivatives`` and ``output`` ask :meth:`_compiled` first and answer
    themselves where it returns ``None``."""

    kernel_module: ClassVar[str]
    #: what the word before its compile calls the block, and how long the
    #: compile takes from a cold cache, a range from an idle machine to a busy
    #: one (the figures: docs/benchmarks.md); blocks that share a kernel
    #: module compile it once
    compile_name: ClassVar[str] = "the block"
    compile_time: ClassVar[str] = "a few seconds"
    #: whether ``output`` and ``derivatives`` are exactly the kernels'
    #: ``outputs``/``derivatives(t, x, u, *_kernel_args)`` with the numpy
    #: code behind them, which :meth:`direct_calls` then calls directly
    plain_kernels: ClassVar[bool] = False
    #: how much slower the numpy code is, for the warning when numba fails
    numpy_slowdown: ClassVar[str] = "slower"
    kernels = None
    _prepared = False
    #: the compiled whole step (``blocks/stepping.py``), set by :meth:`prepare`
    _step = None
    # whether a kernel's result is all finite: the kernel module's compiled
    # ``finite`` (``kernel_helpers``), set by :meth:`prepare`, else a finite
    # sum, which has finite terms only (a sum that overflows sends the
    # evaluation to the numpy code, which answers the same)
    _finite = staticmethod(lambda out: math.isfinite(np.add.reduce(out)))

    def prepare(self, numba: bool = True) -> None:
        """Load the compiled kernels and compile them (on a new machine, the
        seconds its ``compile_time`` says, then a fraction of a
        second from numba's cache): the FMU does it at initialization rather
        than in the first step of a run; otherwise the first evaluation does.
        A numba that cannot compile leaves the numpy code, with a warning;
        ``numba=False`` chooses it."""
        if self._prepared:
            return
        self._prepared = True
        self.kernels = jit.load_kernels(self.kernel_module) if numba else None
        if getattr(self.kernels, "finite", None) is not None:
            self._finite = self.kernels.finite
        kernels = self.kernels
        step = stepping.load_stepping(self.kernel_module, kernels) if kernels is not None else None
        with compiling_alone(dispatchers_of(kernels, step)):
            done = compiled(self, lambda: (self._warm_up(), self._warm_up_shared(), stepping.warm_up(self)))
        if not done:
            self.kernels = self._step = None
            self._finite = CompiledBlock._finite

    def _integrate(self, t, x, u, du, h):
        """:meth:`Block._integrate` in one compiled call where the kernels
        allow (the same bits, ``blocks/stepping.py``), else by it."""
        if not self._prepared:
            self.prepare()
        if self._step is not None:
            x1 = stepping.compiled_step(self, t, x, u, du, h)
            if x1 is not None:
                return x1
        return super()._integrate(t, x, u, du, h)

    def inputs_at_middle(self, u, du, h):
        """:meth:`Block.inputs_at_middle` in one compiled call where the kernel
        module has it (``kernel_helpers.inputs_at_middle``: the same bits)."""
        compiled = getattr(self.kernels, "inputs_at_middle", None)
        if compiled is None:
            return super().inputs_at_middle(u, du, h)
        return compiled(floats(u), floats(du), float(h))

    def inputs_after_step(self, u, du, h):
        """:meth:`Block.inputs_after_step` in one compiled call where the
        kernel module has it (the same bits), in place where ``u`` and ``du``
        are contiguous arrays of floats."""
        compiled = getattr(self.kernels, "inputs_after_step", None)
        if compiled is None or not (u.flags.c_contiguous and du.flags.c_contiguous and u.dtype == du.dtype == float):
            return super().inputs_after_step(u, du, h)
        compiled(u, du, float(h))
        return u, du

    def _warm_up_shared(self) -> None:
        """Call the kernels every kernel module holds (``kernel_helpers``: the
        check of results, the input polynomial) once, where it holds them:
        compiled, or loaded from numba's cache, then rather than in a run's
        first step."""
        u0 = floats(self.default_inputs())
        du = np.zeros((2, u0.size))
        for name, args in (("finite", (u0,)), ("inputs_at_middle", (u0, du, 1e-3)),
                           ("inputs_after_step", (u0.copy(), du, 1e-3))):
            if hasattr(self.kernels, name):
                getattr(self.kernels, name)(*args)

    def direct_calls(self):
        """:meth:`Block.direct_calls`: the kernels called with the arguments
        ``output`` and ``derivatives`` give them, without their checks and
        conversions (which cost as much as a small kernel), and the block's
        own method only where the kernel's result is not finite: the same
        values by the same code.  The methods themselves where numba could
        not compile the kernels, or where :meth:`_kernel_calls` says none."""
        self.prepare()
        if self.kernels is None:
            return super().direct_calls()
        return self._kernel_calls()

    def _kernel_calls(self):
        """``(output, derivatives)`` calling the loaded kernels directly;
        the block's methods where the kernels are not
        :attr:`plain_kernels` (a block whose kernels take other arguments
        says how to call them here)."""
        if not self.plain_kernels:
            return self.output, self.derivatives
        outputs, derivatives, args = self.kernels.outputs, self.kernels.derivatives, self._kernel_args

        def output(t, x, u):
            y = outputs(t, x, u, *args)
            return y if sum_finite(y) else self.output(t, x, u)

        def rates(t, x, u):
            dx = derivatives(t, x, u, *args)
            return dx if sum_finite(dx) else self.derivatives(t, x, u)

        return output, rates

    def _warm_up(self) -> None:
        """Call each kernel once, at the initial state and default inputs:
        numba compiles a function (or loads it from its cache) at its first
        call.  A block whose kernels take other arguments says so here."""
        x0, u0 = self.initial_state(), self.default_inputs()
        self._compiled("outputs", 0.0, x0, u0)
        self._compiled("derivatives", 0.0, x0, u0)

    def _compiled(self, kernel: str, t, x, u):
        """The result of ``<kernel_module>.<kernel>``, or ``None`` without
        numba and where the numpy code must answer instead: a result that is
        not finite (NaN inputs, a singular matrix), which the numpy code
        propagates or names."""
        # an integer time or a strided state (a row of an integrator's solution
        # array) would make numba compile another signature, for seconds
        return self._compiled_call(kernel, float(t), floats(x), floats(u))

    def _compiled_call(self, kernel: str, *args):
        """The result of ``<kernel_module>.<kernel>(*args, *_kernel_args)``,
        or ``None`` without numba and where it is not finite (as
        :meth:`_compiled`, for kernels of other arguments)."""
        if not self._prepared:
            self.prepare()
        if self.kernels is None:
            return None
        out = getattr(self.kernels, kernel)(*args, *self._kernel_args)
        return out if self._finite(out) else None
