"""Calls of C functions by their addresses, from code compiled by numba:
the FMI 2.0 calls of the compiled master step (``step.py``) and the
clock.

An address is an argument (a ``uint64``), never a constant: numba's cache
then keeps one machine code for every FMU and every run, where a ctypes
function named inside a compiled function would bake its address in and
make the code uncacheable.  Each intrinsic casts the address to the
function's pointer type and calls it; the pointer arguments are addresses
too (of numpy arrays, ``array.ctypes.data``; of a C array of value
references).
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["fmi2_get_real", "fmi2_set_real", "fmi2_set_derivatives", "fmi2_do_step", "fmi2_get_state", "fmi2_set_state",
           "fmi2_get_status", "fmi2_post_steps", "fmi2_collect_steps", "clock_gettime", "double_pointer", "fmi2_get_ints",
           "int32_pointer"]

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_F64 = ir.DoubleType()
_P8 = ir.IntType(8).as_pointer()


def _call(builder, address, result, arguments, values):
    """Call the function at ``address`` of the LLVM ``result`` and
    ``arguments`` types with ``values``."""
    fnty = ir.FunctionType(result, arguments)
    return builder.call(builder.inttoptr(address, fnty.as_pointer()), values)


@intrinsic
def fmi2_get_real(typingctx, fn, component, vr, n, values):
    """``fmi2GetReal(component, vr, n, values)`` at address ``fn``: its status."""
    sig = types.int32(types.uint64, types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, vr, n, v = args
        return _call(builder, fn, _I32, [_P8, _I32.as_pointer(), _I64, _F64.as_pointer()],
                     [builder.inttoptr(c, _P8), builder.inttoptr(vr, _I32.as_pointer()), n,
                      builder.inttoptr(v, _F64.as_pointer())])
    return sig, codegen


# fmi2SetReal has fmi2GetReal's signature (the values const); fmi2GetBoolean and
# fmi2GetInteger differ only in the type the values point to, which a call
# through an address does not see
fmi2_set_real = fmi2_get_ints = fmi2_get_real


@intrinsic
def fmi2_set_derivatives(typingctx, fn, component, vr, n, order, values):
    """``fmi2SetRealInputDerivatives(component, vr, n, order, values)`` at
    address ``fn``: its status."""
    sig = types.int32(types.uint64, types.uint64, types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, vr, n, order, v = args
        return _call(builder, fn, _I32, [_P8, _I32.as_pointer(), _I64, _I32.as_pointer(), _F64.as_pointer()],
                     [builder.inttoptr(c, _P8), builder.inttoptr(vr, _I32.as_pointer()), n,
                      builder.inttoptr(order, _I32.as_pointer()), builder.inttoptr(v, _F64.as_pointer())])
    return sig, codegen


@intrinsic
def fmi2_do_step(typingctx, fn, component, t, h, no_prior):
    """``fmi2DoStep(component, t, h, noSetFMUStatePriorToCurrentPoint)`` at
    address ``fn``: its status."""
    sig = types.int32(types.uint64, types.uint64, types.float64, types.float64, types.int32)

    def codegen(context, builder, signature, args):
        fn, c, t, h, flag = args
        return _call(builder, fn, _I32, [_P8, _F64, _F64, _I32], [builder.inttoptr(c, _P8), t, h, flag])
    return sig, codegen


@intrinsic
def fmi2_get_state(typingctx, fn, component, slot):
    """``fmi2GetFMUstate(component, slot)`` at address ``fn`` (``slot``: the
    address of the ``fmi2FMUstate`` it fills or overwrites): its status."""
    sig = types.int32(types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, slot = args
        return _call(builder, fn, _I32, [_P8, _P8.as_pointer()],
                     [builder.inttoptr(c, _P8), builder.inttoptr(slot, _P8.as_pointer())])
    return sig, codegen


@intrinsic
def fmi2_set_state(typingctx, fn, component, state):
    """``fmi2SetFMUstate(component, state)`` at address ``fn``: its status."""
    sig = types.int32(types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, state = args
        return _call(builder, fn, _I32, [_P8, _P8], [builder.inttoptr(c, _P8), builder.inttoptr(state, _P8)])
    return sig, codegen


@intrinsic
def fmi2_get_status(typingctx, fn, component, kind, value):
    """``fmi2GetBooleanStatus`` or ``fmi2GetRealStatus(component, kind,
    value)`` at address ``fn`` (``value``: the address of the answer, an
    fmi2Boolean or a double): its status."""
    sig = types.int32(types.uint64, types.uint64, types.int32, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, kind, v = args
        return _call(builder, fn, _I32, [_P8, _I32, _P8], [builder.inttoptr(c, _P8), kind, builder.inttoptr(v, _P8)])
    return sig, codegen


@intrinsic
def fmi2_post_steps(typingctx, fn, component, save, state, vr_in, n_in, u, t, h1, no_prior, vr_out, n_out, h2):
    """``crane_cosim_fmi2_post_steps(component, save, state, vr_in, n_in, u,
    t, h1, noSetFMUStatePriorToCurrentPoint, vr_out, n_out, h2)`` at address
    ``fn``, the project's proxy's (``fmus/native/fmi2_proxy_calls.h``): a
    step's calls sent in one request, not waited for; its status."""
    u64 = types.uint64
    sig = types.int32(u64, u64, u64, u64, u64, u64, u64, types.float64, types.float64, types.int32, u64, u64,
                      types.float64)

    def codegen(context, builder, signature, args):
        fn, c, save, state, vr_in, n_in, u, t, h1, flag, vr_out, n_out, h2 = args
        return _call(builder, fn, _I32, [_P8, _P8.as_pointer(), _P8, _I32.as_pointer(), _I64, _F64.as_pointer(), _F64,
                                         _F64, _I32, _I32.as_pointer(), _I64, _F64],
                     [builder.inttoptr(c, _P8), builder.inttoptr(save, _P8.as_pointer()), builder.inttoptr(state, _P8),
                      builder.inttoptr(vr_in, _I32.as_pointer()), n_in, builder.inttoptr(u, _F64.as_pointer()), t, h1,
                      flag, builder.inttoptr(vr_out, _I32.as_pointer()), n_out, h2])
    return sig, codegen


@intrinsic
def fmi2_collect_steps(typingctx, fn, component, y, n_out):
    """``crane_cosim_fmi2_collect_steps(component, y, n_out)`` at address
    ``fn``: ``(which << 8) | status`` of the calls posted (see
    :func:`fmi2_post_steps`), the outputs in ``y``."""
    sig = types.int32(types.uint64, types.uint64, types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fn, c, y, n = args
        return _call(builder, fn, _I32, [_P8, _F64.as_pointer(), _I64],
                     [builder.inttoptr(c, _P8), builder.inttoptr(y, _F64.as_pointer()), n])
    return sig, codegen


@intrinsic
def clock_gettime(typingctx, fn, clock, timespec):
    """``clock_gettime(clock, timespec)`` at address ``fn`` (``timespec``:
    the address of two 64-bit integers, seconds and nanoseconds)."""
    sig = types.int32(types.uint64, types.int32, types.uint64)

    def codegen(context, builder, signature, args):
        fn, clock, ts = args
        return _call(builder, fn, _I32, [_I32, _P8], [clock, builder.inttoptr(ts, _P8)])
    return sig, codegen


@intrinsic
def int32_pointer(typingctx, address):
    """The address ``address`` as a pointer to 32-bit integers (``fmi2Integer``,
    ``fmi2Boolean``; for ``numba.carray``)."""
    sig = types.CPointer(types.int32)(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], _I32.as_pointer())
    return sig, codegen


@intrinsic
def double_pointer(typingctx, address):
    """The address ``address`` as a pointer to doubles (for ``numba.carray``)."""
    sig = types.CPointer(types.float64)(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], _F64.as_pointer())
    return sig, codegen
