"""One FMI get or set call of an instance for the variables of a type other
than its version's 64-bit real (``runtime/instance.py``): their value
references and a buffer of their C type."""
from __future__ import annotations

import ctypes

import numpy as np

from .types import EXACT_INTEGER

__all__ = ["Channel"]


class Channel:
    """The variables of one FMI get or set call of a type other than the
    64-bit real: their value references, a buffer of their C type, and
    where they sit in ``u`` or ``y``."""

    def __init__(self, fn, ctype, dtype, refs: list[int], index: list[int], names: list[str], nvalues: bool):
        self.fn, self.n, self.nvalues = fn, len(refs), nvalues
        self.vr = (ctypes.c_uint * len(refs))(*refs)
        self.buf = np.zeros(len(refs), dtype=dtype)
        self.ptr = self.buf.ctypes.data_as(ctypes.POINTER(ctype))
        self.index = np.asarray(index, dtype=int)
        self.names = names
        self.wide = np.dtype(dtype).itemsize == 8 and np.dtype(dtype).kind in "iu"
        self.signed = np.dtype(dtype).kind == "i"

    def inexact(self) -> int | None:
        """The position in ``buf`` of the first value a 64-bit float does not
        hold exactly (beyond 2**53 in magnitude), or None; compared as
        integers (a float of 2**53 + 1 is 2**53, and would pass)."""
        over = self.buf > EXACT_INTEGER
        if self.signed:
            over |= self.buf < -EXACT_INTEGER
        found = np.flatnonzero(over)
        return int(found[0]) if len(found) else None

    def call(self, component) -> int:
        if self.nvalues:
            return self.fn(component, self.vr, self.n, self.ptr, self.n)
        return self.fn(component, self.vr, self.n, self.ptr)
