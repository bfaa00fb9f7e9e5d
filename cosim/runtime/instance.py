"""One instantiated FMU of a plan, with the calls of the master's hot loop.

Every failing call raises :class:`CraneCosimError` naming the component and
giving the FMU's own log message.  The values exchanged live in numpy
arrays: ``u`` (the connected numeric inputs, in the plan's order) and ``y``
(the numeric outputs), as 64-bit floats whatever their FMI type
(``runtime/types.py``), and ``su``/``sy`` for Strings.  An FMU whose
exchanged variables are all of its version's 64-bit real type (FMI 2.0
Real, FMI 3.0 Float64) is called with pointers into ``u`` and ``y``
themselves: one set, one step and one get a step, preallocated, nothing
converted.  Other types go through a small array of their own C type per
call (``fmi2SetInteger``, ``fmi3GetInt8`` ...).

The FMI version's own calls are in :class:`~runtime.fmi2.FMI2Instance`
and :class:`~runtime.fmi3.FMI3Instance`; ``runtime/loading.py`` picks one.
"""
from __future__ import annotations

import ctypes
from pathlib import Path
from time import perf_counter

import numpy as np

from ..errors import CraneCosimError, did_you_mean
from ..files.archive import safe_extract
from ..fmus.portable import host_python_lines, run_out_of_process
from .channels import Channel
from .types import continuous_reals
from .value_changes import ValueChanges

__all__ = ["FMUInstance", "Channel", "Ended"]

_DOUBLE_P = ctypes.POINTER(ctypes.c_double)


#: how pythonfmu's and pythonfmu3's binaries begin the message of a Python
#: exception raised in the FMU: the call on this line, the exception's
#: ``repr`` on the next
_PYTHON_EXCEPTION = "Fatal py exception"


def _python_exception(message: str) -> str:
    """The exception a pythonfmu or pythonfmu3 FMU logged in ``message``
    (its last non-empty line, the exception's ``repr``), said as such."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if len(lines) < 2:
        return lines[0] if lines else "no message from the FMU"
    return f"{lines[-1]} (a Python exception in the FMU)"


class Ended(Exception):
    """A component asked to end the simulation (FMI 2.0 ``fmi2Terminated``,
    FMI 3.0 ``terminateSimulation``): at ``time``, where its step ended
    (``completed``), or in its step from ``time``, which it could not
    complete."""

    def __init__(self, component: str, time: float, completed: bool = False):
        where = f"at t = {time:g} s" if completed else f"in its step from t = {time:g} s, which it did not complete"
        super().__init__(f"component {component} asked to end the simulation {where}")
        self.component, self.time, self.completed = component, time, completed


class FMUInstance(ValueChanges):
    """An instantiated FMU of the plan's ``part`` (:class:`runtime.plan.Part`),
    unzipped under ``unzip_root``, with ``out_of_process`` run in a process
    of its own (an FMI 2.0 FMU's Linux binary; ``fmus/portable.py``).  ``fmi_time`` [s] sums the wall time spent
    inside its FMI calls, so that a benchmark can tell the master's own time
    from the FMUs'."""

    #: the FMI type exchanged without conversion, and the type names of
    #: the version's get/set calls (subclasses)
    REAL = ""

    def __init__(self, part, unzip_root: Path, out_of_process: bool = False):
        self.part = part
        self.name = part.name
        self.path = Path(part.path)
        self.model = part.model
        self.messages: list[str] = []
        self.errors: list[str] = []  # messages logged with status error or fatal
        self._fmi_time = 0.0
        self._steps_made = 0
        #: where a compiled step counts the nanoseconds of this instance's FMI
        #: calls and its steps (``runtime/compiled``): an int64 array of a
        #: row per instance and the index of this one's; or None
        self.fmi_ns = None
        self.may_roll_back = False
        #: where a step that completed and asked to end the simulation puts
        #: its :class:`Ended` (the execution's list, read after each base step)
        self.ends: list = []
        self._instantiated = False
        # fmi2Terminate / fmi3Terminate only from a state that allows it:
        # initialized, and no call failed since (FMI 2.0 section 4.2.4)
        self._terminable = False
        unzip_dir = str(safe_extract(self.path, Path(unzip_root) / part.name, "FMU"))
        if out_of_process:
            run_out_of_process(Path(unzip_dir), self.model.model_identifier, host_python_lines())
        self._load(unzip_dir)
        self._c_component = ctypes.c_void_p(self._component)
        self._bind()

    @property
    def fmi_time(self) -> float:
        """The wall time [s] spent inside this instance's FMI calls (by the
        Python algorithms and by a compiled step)."""
        if self.fmi_ns is None:
            return self._fmi_time
        counts, k = self.fmi_ns
        return self._fmi_time + int(counts[k, 0]) * 1e-9

    @fmi_time.setter
    def fmi_time(self, seconds: float) -> None:
        self._fmi_time = seconds
        if self.fmi_ns is not None:
            counts, k = self.fmi_ns
            counts[k, 0] = 0

    @property
    def steps_made(self) -> int:
        """The steps (``fmi2DoStep``, ``fmi3DoStep``) this instance was asked
        to make, by the Python algorithms and by a compiled step."""
        if self.fmi_ns is None:
            return self._steps_made
        counts, k = self.fmi_ns
        return self._steps_made + int(counts[k, 1])

    # -- errors ----------------------------------------------------------------
    def _log(self, status: int, message) -> None:
        text = message.decode(errors="replace") if isinstance(message, bytes) else str(message)
        self.messages.append(text.strip())
        if status >= 3:  # error, fatal
            self.errors.append(text.strip())

    def explain(self, what: str, exc: BaseException | None = None) -> CraneCosimError:
        """The error of a call that failed, in one sentence from the FMU's
        last error message; the instance is then in FMI's error state."""
        self._terminable = False
        logged = [m for m in (self.errors or self.messages) if m]
        own = [m for m in logged if not m.startswith(_PYTHON_EXCEPTION)]
        if own:
            detail = own[-1].splitlines()[0]
        elif logged:
            detail = _python_exception(logged[-1])
        else:
            detail = str(exc) if exc else "no message from the FMU"
        return CraneCosimError(f"component {self.name} ({self.path.name}) failed to {what}: {detail}")

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            raise self.explain(what, exc) from None

    @property
    def may_roll_back(self) -> bool:
        """Whether a state saved before the current step may be restored
        (``noSetFMUStatePriorToCurrentPoint`` false then, FMI 2.0 section
        4.2.3)."""
        return not self._no_prior

    @may_roll_back.setter
    def may_roll_back(self, value: bool) -> None:
        self._no_prior = 0 if value else 1

    def variable(self, name: str):
        """The description of the variable ``name`` (``model.VariableInfo``)."""
        v = self.model.variables.get(name)
        if v is None:
            raise CraneCosimError(f"component {self.name} ({self.path.name}) has no variable {name!r}"
                                  f"{did_you_mean(name, self.model.variables)}")
        return v

    # -- set-up ----------------------------------------------------------------
    def _bind(self) -> None:
        """The exchange arrays and the channels that fill them."""
        part = self.part
        self.input_names = [v.name for v in part.inputs]
        self.output_names = [v.name for v in part.outputs]
        self.output_units = [v.unit for v in part.outputs]
        self.u = np.zeros(len(part.inputs))
        self.y = np.zeros(len(part.outputs))
        self.su = [""] * len(part.string_inputs)
        self.sy = [""] * len(part.string_outputs)
        # for the master's input extrapolation (algorithms/explicit.py)
        self.u_raw = np.zeros(len(part.inputs))
        self.u_prev = np.zeros(len(part.inputs))
        self.weights = None
        #: which inputs are continuous reals (may be extrapolated, or follow a polynomial)
        self.smooth = np.array(continuous_reals(part.inputs), bool)
        self._in = self._channels(part.inputs, "set")
        self._out = self._channels(part.outputs, "get")
        self._s_in = self._string_refs(part.string_inputs)
        self._s_out = self._string_refs(part.string_outputs)
        self._bind_transforms(getattr(part, "transforms", None) or [])
        direct_in = self._in is None
        self._u_ptr = self._u_set.ctypes.data_as(_DOUBLE_P) if direct_in else None
        self._y_ptr = self.y.ctypes.data_as(_DOUBLE_P) if self._out is None else None
        self._in_vr = self._refs(part.inputs)
        self._out_vr = self._refs(part.outputs)
        self._in_vr_c = (ctypes.c_uint * len(self._in_vr))(*self._in_vr)
        self._out_vr_c = (ctypes.c_uint * len(self._out_vr))(*self._out_vr)
        self._n_in, self._n_out = len(self.u), len(self.y)
        self._c_n_in, self._c_n_out = ctypes.c_size_t(self._n_in), ctypes.c_size_t(self._n_out)
        # input derivatives (FMI 2.0): first, then second, of the real inputs
        n = len(part.inputs)
        self.du = np.zeros((2, n))
        self._du_vr = (ctypes.c_uint * (2 * n))(*self._in_vr, *self._in_vr)
        self._du_order = (ctypes.c_int * (2 * n))(*[1] * n, *[2] * n)
        self._du_ptr = self.du.ctypes.data_as(_DOUBLE_P)
        self._choose()

    @staticmethod
    def _refs(variables) -> list[int]:
        return [v.value_reference for v in variables]

    def _channels(self, variables, kind: str):
        """None when every variable is of the real type exchanged in place;
        else a :class:`Channel` per FMI call."""
        if all(v.type == self.REAL for v in variables):
            return None
        groups = {}
        for i, v in enumerate(variables):
            call = self.CALL[v.type]
            groups.setdefault(call, ([], [], []))
            groups[call][0].append(v.value_reference)
            groups[call][1].append(i)
            groups[call][2].append(v.name)
        out = []
        for call, (refs, index, names) in groups.items():
            ctype, dtype = self.CTYPES[call]
            fn = getattr(self._dll, f"{self.PREFIX}{kind.capitalize()}{call}")
            out.append(Channel(fn, ctype, dtype, refs, index, names, self.NVALUES))
        return out

    def _string_refs(self, variables):
        if not variables:
            return None
        return (ctypes.c_uint * len(variables))(*self._refs(variables)), (ctypes.c_char_p * len(variables))()

    # -- hot loop ----------------------------------------------------------------
    # ``set_inputs`` and ``get_outputs`` are chosen once, when the arrays are
    # bound (``_choose``): an FMU whose exchange is all 64-bit reals is called
    # with pointers into ``u`` and ``y``, nothing checked or converted a step.
    def _choose(self) -> None:
        plain_in = self._in is None and self._s_in is None
        plain_out = self._out is None and self._s_out is None
        self.set_inputs = (self._set_nothing if plain_in and not len(self.u) else
                           self._set_reals if plain_in else self._set_typed)
        if self._scale is not None:
            untransformed = self.set_inputs

            def set_inputs():
                self._transformed()
                untransformed()
            self.set_inputs = set_inputs
        self.get_outputs = (self._get_nothing if plain_out and not len(self.y) else
                            self._get_reals if plain_out else self._get_typed)
        if self._output_changes is not None:
            unchanged, change = self.get_outputs, self._output_changes

            def get_outputs():
                return change(unchanged())
            self.get_outputs = get_outputs

    def set_inputs(self) -> None:
        """Write ``u`` (and ``su``) to the connected inputs."""

    def get_outputs(self) -> np.ndarray:
        """Read the outputs into ``y`` (and ``sy``); returns ``y``."""

    def _set_nothing(self) -> None:
        pass

    def _get_nothing(self) -> np.ndarray:
        return self.y

    def _set_reals(self) -> None:
        t0 = perf_counter()
        status = self._set_real(self._c_component, self._in_vr_c, self._c_n_in, self._u_ptr)
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its inputs")

    def _get_reals(self) -> np.ndarray:
        t0 = perf_counter()
        status = self._get_real(self._c_component, self._out_vr_c, self._c_n_out, self._y_ptr)
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("return its outputs")
        return self.y

    def _set_typed(self) -> None:
        t0 = perf_counter()
        status = 0
        if self._in is None:
            if self._n_in:
                status = self._set_real(self._c_component, self._in_vr_c, self._c_n_in, self._u_ptr)
        else:
            for ch in self._in:
                ch.buf[:] = self._u_set[ch.index]
                status = max(status, ch.call(self._component))
        if self._s_in is not None:
            status = max(status, self._set_strings())
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("accept its inputs")

    def _get_typed(self) -> np.ndarray:
        t0 = perf_counter()
        status = 0
        if self._out is None:
            if self._n_out:
                status = self._get_real(self._c_component, self._out_vr_c, self._c_n_out, self._y_ptr)
        else:
            for ch in self._out:
                status = max(status, ch.call(self._component))
                if ch.wide and (i := ch.inexact()) is not None:
                    raise CraneCosimError(f"component {self.name} returned {int(ch.buf[i])} for its output "
                                          f"{ch.names[i]}, beyond the 2**53 that crane-cosim carries exactly")
                self.y[ch.index] = ch.buf
        if self._s_out is not None:
            status = max(status, self._get_strings())
        self._fmi_time += perf_counter() - t0
        if status > 1:
            raise self.explain("return its outputs")
        return self.y

    def _set_value(self, var, value) -> None:
        """``var`` set to ``value`` through fmpy's calls of FMI 1.0 and 2.0
        (an Enumeration as an Integer); FMI 3.0's are its own (``fmi3.py``)."""
        setter = {"Real": self._slave.setReal, "Integer": self._slave.setInteger,
                  "Enumeration": self._slave.setInteger, "Boolean": self._slave.setBoolean,
                  "String": self._slave.setString}[var.type]
        self._call(f"set {var.name}", setter, [var.value_reference], [value])

    def set_during_run(self, var, value) -> None:
        """Set the variable ``var`` (an input no connection drives, a tunable
        parameter) to ``value`` between two steps (a scenario's change)."""
        t0 = perf_counter()
        self._set_value(var, value)
        self._fmi_time += perf_counter() - t0

    def do_step(self, t: float, h: float) -> None:
        """Step from ``t`` over ``h`` [s] (the version's own, ``fmi2.py``, ``fmi3.py``)."""
        raise NotImplementedError

    def set_input_derivatives(self) -> None:
        raise NotImplementedError

    # -- state rollback ------------------------------------------------------------
    @property
    def can_roll_back(self) -> bool:
        return self.model.capabilities.can_get_and_set_state

    @property
    def can_interpolate_inputs(self) -> bool:
        return self.model.capabilities.can_interpolate_inputs

    def save_state(self):
        """The FMU's state now, for :meth:`restore_state` until the next
        save; release it with :meth:`free_state`.  (An FMU that overwrites
        a state given back to it keeps one, ``fmi2.py``: each save replaces
        the last.)"""
        t0 = perf_counter()
        state = self._call("save its state", self._slave_get_state)
        self._fmi_time += perf_counter() - t0
        return state

    def restore_state(self, state) -> None:
        t0 = perf_counter()
        self._call("restore its state", self._slave_set_state, state)
        self._fmi_time += perf_counter() - t0

    def free_state(self, state) -> None:
        self._call("free a saved state", self._slave_free_state, state)

    def free(self) -> None:
        if self._instantiated:
            for fn in (self._slave.terminate, self._slave.freeInstance)[0 if self._terminable else 1:]:
                try:
                    fn()
                except Exception:
                    pass
            self._instantiated = False
