"""What happens to an instance's values between the master and its FMU,
besides the exchange itself: the connections' transformations of its
inputs (``runtime/transformations.py``), and a scenario's changes of its
inputs and outputs (``runtime/scenario.py``: an override or a bias, as OSP
libcosim's modifiers).  ``u`` and ``y`` stay what the master exchanges;
the FMU is given ``_u_set`` and the master reads ``y`` as the changes
leave it."""
from __future__ import annotations

import ctypes

import numpy as np

from ..errors import CraneCosimError

__all__ = ["ValueChanges"]


class ValueChanges:
    """The part of :class:`~runtime.instance.FMUInstance` that transforms
    and changes values (a mixin: ``u``, ``y``, ``input_names`` and
    ``_choose`` are the instance's)."""

    _output_changes = None

    def _bind_transforms(self, transforms: list) -> None:
        """What the connections do to the inputs on their way (a ``Linear``
        or a ``Mapping`` per input, or None): ``_u_set``, the values the FMU
        is given, is ``u`` itself where none does anything, else an array of
        its own that :meth:`_transformed` fills."""
        self._scale = self._offset = None
        self._maps = {}
        self._input_changes = None
        self._u_set = self.u
        if not any(t is not None for t in transforms):
            return
        self._separate_inputs()
        for i, t in enumerate(transforms):
            if t is None:
                continue
            if hasattr(t, "factor"):
                self._scale[i], self._offset[i] = t.factor, t.offset
            else:
                self._maps[i] = {float(a): float(b) for a, b in t.pairs}

    def _separate_inputs(self) -> None:
        n = len(self.u)
        self._scale, self._offset = np.ones(n), np.zeros(n)
        self._u_set = np.zeros(n)

    @property
    def transforms_inputs(self) -> bool:
        """Whether the FMU is given other values than ``u`` (a connection's
        transformation, a scenario's change) or the master reads other
        values than the FMU's outputs (a scenario's change)."""
        return self._scale is not None or self._output_changes is not None

    def _transformed(self) -> None:
        """``_u_set`` from ``u``: each input as its connection transforms it,
        then as a scenario changes it."""
        np.multiply(self.u, self._scale, out=self._u_set)
        self._u_set += self._offset
        for i, table in self._maps.items():
            value = table.get(float(self.u[i]))
            if value is None:
                raise CraneCosimError(f"component {self.name}: its input {self.input_names[i]} received "
                                      f"{self.u[i]:g}, which its connection's mapping does not name")
            self._u_set[i] = value
        if self._input_changes is not None:
            self._input_changes(self._u_set)

    def change_values(self, inputs, outputs) -> None:
        """From now on, ``inputs(values)`` changes the values the FMU is given
        (in place) and ``outputs(y)`` the outputs the master reads (returning
        them); either None for no change.  Chosen before the run starts."""
        if inputs is not None:
            if self._scale is None:
                self._separate_inputs()
                if self._in is None:  # the 64-bit reals set from the separate array
                    self._u_ptr = self._u_set.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
            self._input_changes = inputs
        self._output_changes = outputs
        self._choose()
