"""Reading and writing an FMU's variables: the ``fmi2GetXXX`` and
``fmi2SetXXX`` calls of the adapter's slave (``fmus/adapter.py``), and the
guard that keeps every FMI call from raising.

Every get and set checks each value reference: one that is none of the
FMU's, or of a variable of another type (``fmi2GetInteger`` of a Real), is
an error logged by name, and the call returns ``fmi2Error`` (through the
FMU's binary, which turns a call that logged an error into one); a get
still returns a value for every reference asked for (NaN, 0, false or an
empty text where there is none), since pythonfmu's binary reads one per
reference.  A Real input or parameter set to a value that is not a finite
number is refused by name and keeps its value; an output that is not a
finite number is an error where it is read, by name.  The rules are in
``docs/fmus.md`` ("What a call returns").

This module is copied into every FMU next to the adapter; it imports only
pythonfmu and numpy.
"""
from __future__ import annotations

import functools
import math
import sys
import threading
import types
import weakref

import numpy as np
from pythonfmu.enums import Fmi2Status

__all__ = ["ValueAccess", "guarded", "Quiet", "offer_to_binary", "DERIVATIVE_VR"]

#: the value reference of an input's derivative of order k as the Linux
#: binary passes it on: DERIVATIVE_VR * k + the input's (``fmus/adapter.py``);
#: below 2**31 for k = 2, as pythonfmu passes value references on as C ints.
#: The binary refuses a host's own value references from here on.
DERIVATIVE_VR = 1 << 29
#: how many names a message lists before it says how many more there are
_SHOWN = 6


#: a value as a get of each type other than Real returns it
_TYPED = {"Integer": int, "Boolean": bool, "String": str}


def guarded(default):
    """Decorate an FMI method so that it never raises: pythonfmu 0.7 turns a
    Python exception into fmi2Fatal, releases the instance and, in a Python
    host, leaves the interpreter's GIL state unbalanced, so that the host
    crashes later.  An exception is logged with status error instead
    (``_fail``), and the method returns ``default(*args)``."""
    def wrap(method):
        @functools.wraps(method)
        def call(self, *args):
            try:
                return method(self, *args)
            except Exception as exc:
                self._fail(f"{method.__name__} failed", exc)
                return default(*args)
        return call
    return wrap


class Quiet:
    """A context in which numpy ignores floating-point errors, as
    ``np.errstate(all="ignore")``, for a slave's calls into its block: a
    diverging model is reported by name, numpy's own overflow warnings
    would only add noise in the host's output.  ``np.errstate`` makes its
    error state anew at every entry (1.7 us, two calls into the block a
    step); numpy 2's state lives in a context variable, which this sets to
    the state made once.  One per slave: FMI never calls one instance from
    two threads at once, and the token of an entry is the instance's."""

    __slots__ = ("_state", "_token", "_plain")

    def __init__(self):
        self._plain = _ERRSTATE is None
        if not self._plain:
            with np.errstate(all="ignore"):
                self._state = _ERRSTATE.get()

    def __enter__(self):
        if self._plain:
            self._token = np.errstate(all="ignore")
            self._token.__enter__()
        else:
            self._token = _ERRSTATE.set(self._state)

    def __exit__(self, *exc_info):
        if self._plain:
            self._token.__exit__(*exc_info)
        else:
            _ERRSTATE.reset(self._token)


try:  # numpy 2: the error state is this context variable (numpy/_core/_ufunc_config.py)
    from numpy._core._ufunc_config import _extobj_contextvar as _ERRSTATE
except ImportError:  # numpy 1.26: np.errstate itself
    _ERRSTATE = None


#: the module through which the FMU's Linux binary takes, right after
#: pythonfmu made a slave on a thread, that slave's methods for its fast
#: fmi2GetReal and fmi2SetReal (``fmus/native/fmi2_fast.h``); one for every
#: FMU of the process, its name versioned with what ``take`` returns
HUB = "crane_cosim_fmu_slaves_1"


def offer_to_binary(slave) -> None:
    """Offer ``slave``'s fast access (``ValueAccess._fast_access``) to the
    FMU's binary, which takes it on this thread once ``fmi2Instantiate``
    (or ``fmi2Reset``) made the slave.  Held weakly: a newer offer on the
    thread replaces one not taken, and a slave made without the binary
    (in-process tests) is not kept alive by it."""
    hub = sys.modules.get(HUB)
    if hub is None:
        hub = types.ModuleType(HUB, "slaves offered to crane-cosim FMU binaries (crane_cosim fmus/values.py)")
        hub.offers = {}

        def take(offers=hub.offers):
            offered = offers.pop(threading.get_ident(), None)
            slave = offered() if offered is not None else None
            return slave._fast_access() if slave is not None else None

        hub.take = take
        sys.modules[HUB] = hub
    hub.offers[threading.get_ident()] = weakref.ref(slave)


def _nothing(*args):
    return None


def _names(names) -> str:
    names = list(names)
    shown = ", ".join(names[:_SHOWN])
    return shown if len(names) <= _SHOWN else f"{shown} and {len(names) - _SHOWN} more"


def _index(positions: list):
    """An index of the positions ``positions`` of an array: a slice where
    they follow each other (a master reading every output in order), which
    costs less than a list of integers on every call."""
    start = positions[0] if positions else 0
    if positions == list(range(start, start + len(positions))):
        return slice(start, start + len(positions))
    return np.array(positions, dtype=int)


class ValueAccess:
    """The get and set calls of the adapter's slave.  The slave provides
    ``_block_cls``, ``_where`` (value reference -> ``("p", name)``, ``("u",
    i)`` or ``("y", i)``), ``_types`` (parameter name -> FMI type),
    ``_params``, ``_u``, ``_du``, ``_moving`` (whether ``_du`` is not all
    zero; None where the binary may have written into it since: see
    :meth:`_is_moving`), ``_dirty``, ``_output_index``,
    ``_input_index``, ``_outputs()``, ``_set_parameter(name, value)``,
    ``_t``, ``log`` and ``_fail``."""

    # -- messages ------------------------------------------------------------
    def _say(self, message: str) -> None:
        """Log ``message`` with status error, naming the model and instance."""
        self.log(f"{self._block_cls.model_name} ({self.instance_name}): {message}", Fmi2Status.error)

    def _type_of(self, vr: int):
        """The FMI type of the variable ``vr`` ("Real", "Integer", "Boolean", "String"),
        or None if ``vr`` is none of this FMU's."""
        if not 0 <= vr < len(self._where):
            return None
        where, i = self._where[vr]
        if where == "p":
            return self._types[i]
        return (self._block_cls.inputs if where == "u" else self._block_cls.outputs)[i].type

    def _name_of(self, vr: int) -> str:
        where, i = self._where[vr]
        if where == "p":
            return i
        return (self._block_cls.inputs if where == "u" else self._block_cls.outputs)[i].name

    def _wrong(self, call: str, vr: int, want: str) -> None:
        """The host asked ``call`` for ``vr``, which is no ``want`` variable."""
        kind = self._type_of(vr)
        if kind is None:
            # pythonfmu passes value references on as C ints: 2**31 and above arrive negative
            self._say(f"{call}: value reference {vr % 2**32} is none of this FMU's")
        else:
            self._say(f"{call}: {self._name_of(vr)} (value reference {vr}) is {'an' if kind[0] in 'I' else 'a'} "
                      f"{kind} variable, not a {want} one; read and set it with fmi2Get{kind} and fmi2Set{kind}")

    def _not_finite(self, call: str, names, values) -> None:
        shown = ", ".join(f"{n} = {v}" for n, v in list(zip(names, values))[:_SHOWN])
        more = f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else ""
        self._say(f"{call}: {shown}{more} refused: not a finite number (the value set before is kept)")

    def _check_outputs(self, y, positions) -> None:
        """Log the outputs at ``positions`` whose values ``y`` are not finite
        numbers, at every read, so that each such read returns fmi2Error."""
        bad = [self._block_cls.outputs[i].name for i, v in zip(positions, y) if not math.isfinite(v)]
        if bad:
            # where the outputs failed, why (a host shows the last error it was told)
            why = getattr(self, "_y_error", None)
            self._say(f"outputs at t = {self._t:g} s failed: {why}" if why else
                      f"output {_names(bad)} is not a finite number at t = {self._t:g} s")

    # -- the binary's fast path (fmus/native/fmi2_fast.h) ------------------------
    def _fast_access(self):
        """What the FMU's binary takes for its fast path: ``(outputs_now,
        inputs_now, derivatives_now, first input's value reference, inputs,
        first output's, outputs)``, or None where the inputs or outputs do not follow each
        other among the value references, or are not all Reals."""
        if any(v.type != "Real" for v in self._block_cls.inputs + self._block_cls.outputs):
            return None  # the binary's fast path takes Reals only
        kinds = [where for where, _ in self._where]
        n_in, n_out = kinds.count("u"), kinds.count("y")
        first_in = kinds.index("u") if n_in else 0
        first_out = kinds.index("y") if n_out else 0
        if kinds[first_in:first_in + n_in] != ["u"] * n_in or kinds[first_out:first_out + n_out] != ["y"] * n_out:
            return None
        return self._outputs_now, self._inputs_now, self._derivatives_now, first_in, n_in, first_out, n_out

    def _outputs_now(self):
        """The outputs as the FMU's binary copies them for a fmi2GetReal of
        outputs only (computed anew if an input changed), or None where the
        general path must answer: outside stepping, or with a message
        waiting, which only pythonfmu's binary passes on.  The binary checks
        that each value is finite (else the general path names it)."""
        if self._mode != "stepping":
            return None
        y = self._outputs()
        return None if self.log_queue else y

    def _inputs_now(self):
        """The inputs' array for the FMU's binary to write a fmi2SetReal of
        inputs only into (finite values, checked there), the outputs to be
        computed anew at the next read; None outside stepping."""
        if self._mode != "stepping":
            return None
        self._dirty = True
        return self._u

    def _derivatives_now(self):
        """The inputs' time derivatives (``_du``: the first, then the second,
        a row each) for the FMU's binary to write a
        fmi2SetRealInputDerivatives of inputs into (finite values, checked
        there), whether they are all zero then found at the next step
        (:meth:`_is_moving`); None outside stepping."""
        if self._mode != "stepping":
            return None
        self._moving = None
        return self._du

    def _is_moving(self) -> bool:
        """Whether the inputs' derivatives are not all zero."""
        if self._moving is None:  # (np.count_nonzero: a tenth of ndarray.any's time)
            self._moving = np.count_nonzero(self._du) > 0
        return self._moving

    # -- Real ----------------------------------------------------------------
    @guarded(lambda vrs: [math.nan] * len(vrs))
    def get_real(self, vrs):
        # Fast path: a master reads the same list of outputs every step.
        key = tuple(vrs)
        idx = self._output_index.get(key)
        if idx is None and vrs and all(self._type_of(vr) == "Real" and self._where[vr][0] == "y" for vr in vrs):
            idx = self._output_index[key] = _index([self._where[vr][1] for vr in vrs])
        if idx is not None:
            out = self._outputs()[idx].tolist()
            # a finite sum has finite terms only (cheaper than numpy for a few)
            if not math.isfinite(sum(out)):
                self._check_outputs(out, np.arange(len(self._block_cls.outputs))[idx])
            return out
        out = []
        y = None
        for vr in vrs:
            kind = self._type_of(vr)
            if kind != "Real":
                self._wrong("fmi2GetReal", vr, "Real")
                out.append(math.nan)
                continue
            where, i = self._where[vr]
            if where == "y":
                if y is None:
                    y = self._outputs()
                if not math.isfinite(y[i]):
                    self._check_outputs([y[i]], [i])
                out.append(float(y[i]))
            else:
                out.append(float(self._u[i] if where == "u" else self._params[i]))
        return out

    @guarded(_nothing)
    def set_real(self, vrs, values):
        # Fast path: a master writes the same list of inputs every step.
        key = tuple(vrs)
        idx = self._input_index.get(key)
        if idx is None and vrs and all(self._type_of(vr) == "Real" and self._where[vr][0] == "u" for vr in vrs):
            idx = self._input_index[key] = _index([self._where[vr][1] for vr in vrs])
        if idx is not None and math.isfinite(sum(values)):  # else each value on its own, below
            self._u[idx] = values
            self._dirty = True
            return
        if any(vr >= DERIVATIVE_VR for vr in vrs):
            return self._set_derivatives(vrs, values)
        for vr, value in zip(vrs, values):
            if self._type_of(vr) != "Real":
                self._wrong("fmi2SetReal", vr, "Real")
                continue
            where, i = self._where[vr]
            if where == "y":
                self._say(f"fmi2SetReal: {self._name_of(vr)} is an output and cannot be set; ignored")
            elif not math.isfinite(value):
                self._not_finite("fmi2SetReal", [self._name_of(vr)], [value])
            elif where == "u":
                self._u[i] = value
                self._dirty = True
            else:
                self._set_parameter(i, value)

    def _set_derivatives(self, vrs, values):
        """Input derivatives, as the Linux binary passes them on (its
        ``fmi2SetRealInputDerivatives`` has checked the orders and refuses a
        host's own value references from ``DERIVATIVE_VR`` on)."""
        for code, value in zip(vrs, values):
            order, vr = divmod(code, DERIVATIVE_VR)
            if order not in (1, 2) or self._type_of(vr) != "Real" or self._where[vr][0] != "u":
                self._say(f"fmi2SetRealInputDerivatives: value reference {vr} is not a Real input; ignored")
            elif not math.isfinite(value):
                self._say(f"fmi2SetRealInputDerivatives: derivative of order {order} of {self._name_of(vr)} = "
                          f"{value} refused: not a finite number")
            else:
                self._du[order - 1, self._where[vr][1]] = value
        self._moving = bool(self._du.any())

    # -- Integer, Boolean, String ------------------------------------------------
    def _get(self, call: str, kind: str, vrs, blank):
        """A parameter as it is; an input or output, held as a float, as an
        int or a bool (an output that is not a whole number is an error
        where it is read, by name)."""
        out = []
        y = None
        for vr in vrs:
            if self._type_of(vr) != kind:
                self._wrong(call, vr, kind)
                out.append(blank)
                continue
            where, i = self._where[vr]
            if where == "p":
                value = self._params[i]
            elif where == "u":
                value = self._u[i]
            else:
                y = self._outputs() if y is None else y
                value = y[i]
                if kind == "Integer" and not (math.isfinite(value) and float(value).is_integer()):
                    self._say(f"{call}: output {self._name_of(vr)} = {value} at t = {self._t:g} s is not a whole "
                              f"number")
                    out.append(blank)
                    continue
            out.append(_TYPED[kind](value))
        return out

    def _set(self, call: str, kind: str, vrs, values):
        for vr, value in zip(vrs, values):
            if self._type_of(vr) != kind:
                self._wrong(call, vr, kind)
                continue
            where, i = self._where[vr]
            if where == "y":
                self._say(f"{call}: {self._name_of(vr)} is an output and cannot be set; ignored")
            elif where == "u":
                self._u[i] = float(_TYPED[kind](value))
                self._dirty = True
            else:  # (a String as it came: pythonfmu passes a host's NULL on as None, refused by name there)
                self._set_parameter(i, value if kind == "String" else _TYPED[kind](value))

    @guarded(lambda vrs: [0] * len(vrs))
    def get_integer(self, vrs):
        return self._get("fmi2GetInteger", "Integer", vrs, 0)

    @guarded(lambda vrs: [False] * len(vrs))
    def get_boolean(self, vrs):
        return self._get("fmi2GetBoolean", "Boolean", vrs, False)

    @guarded(lambda vrs: [""] * len(vrs))
    def get_string(self, vrs):
        return self._get("fmi2GetString", "String", vrs, "")

    @guarded(_nothing)
    def set_integer(self, vrs, values):
        self._set("fmi2SetInteger", "Integer", vrs, values)

    @guarded(_nothing)
    def set_boolean(self, vrs, values):
        self._set("fmi2SetBoolean", "Boolean", vrs, values)

    @guarded(_nothing)
    def set_string(self, vrs, values):
        self._set("fmi2SetString", "String", vrs, values)
