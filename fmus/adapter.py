"""The one generic adapter from a block declaration to a pythonfmu slave.

``slave_class(Block)`` returns an ``Fmi2Slave`` subclass whose variables are
the block's parameters, inputs and outputs, in that order (value references
0, 1, ...); a parameter has its declared FMI type (Real, Boolean, or
String: a model chosen by name).  ``do_step`` advances the block's state
with its inputs held over the communication step; outputs are computed
lazily, when they are read after a step or after an input changed (so
direct feedthrough works in Gauss-Seidel and initialization).

Input derivatives (``canInterpolateInputs``, FMI 2.0 section 4.2.1): a
master may set the first and second time derivatives of the inputs at the
current communication point (``fmi2SetRealInputDerivatives``); the
following steps then integrate with each input on the polynomial
``u + s du/dt + s**2/2 d2u/dt2`` (``Block.advance_along``), and at the end
of a step value and first derivative move along it to the new time, so
that the polynomial continues until the master sets them again; derivatives
not set are zero.  pythonfmu's binary refuses that FMI function, so the
FMU's Linux binary (``fmus/native/fmi2_shim.c``) passes the derivatives on
as a ``fmi2SetReal`` of value references ``DERIVATIVE_VR * order + vr``,
which only ``fmus/values.py`` reads.  The full internal state (continuous
states, inputs, parameters, time) is saved and restored by the FMU state
hooks, which pythonfmu by default limits to registered variables.

The model exists from ``fmi2EnterInitializationMode`` on, made with the
parameters set so far: hosts (libcosim, ecos) settle their initial values in
initialization mode, and read there the outputs of the initial state with
the inputs they have set.  A parameter set during initialization remakes it
from its initial state.  After initialization only tunable parameters
(``Variable.tunable``: gains, set-points, damping) may change: the block is
remade with the new value and keeps its state, so the next step honours it;
a value the block refuses is logged and the old one kept.  The variables'
get and set calls, with their checks, are ``fmus/values.py``'s.

A block that holds something outside Python's memory (a bridge's socket,
``bridge/udp_bridge.py``) gets it in ``Block.prepare`` and gives it back in
``Block.close``, which the adapter calls at ``fmi2Terminate``, before it
remakes the block, and when the slave is garbage collected: pythonfmu 0.7
calls no Python method at ``fmi2FreeInstance`` (nor for the instance it
replaces at ``fmi2Reset``), it only drops its reference.  A block that
cannot be rolled back (``Block.can_get_and_set_state`` false, so the FMU
says ``canGetAndSetFMUstate="false"``) refuses ``fmi2SetFMUstate``.

No FMI method raises (``values.guarded``).  pythonfmu 0.7 turns a Python
exception into fmi2Fatal and, in a Python host, leaves the interpreter's GIL
state unbalanced, so the host crashes later.  Failures are logged through
the FMU logger with status error instead, and the FMU's Linux binary turns
a call that logged an error into one that returns ``fmi2Error``, whether or
not the host switched logging on: a model its parameters do not make, a
step that fails or leaves a state that is not finite, a step size that is
not positive, outputs that are not finite numbers where they are read.  The
order of the calls (FMI 2.0's state machine) is the binary's to check: this
side keeps its own mode only to know what a call means.  The rules are
``docs/fmus.md``'s table, "What a call returns".

This module is copied into every FMU next to the blocks, with
``values.py`` and ``host_process.py``; it must import only pythonfmu, numpy
and those (relatively).
"""
from __future__ import annotations

import json
import math
import traceback

import numpy as np
from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability
from pythonfmu.default_experiment import DefaultExperiment
from pythonfmu.enums import Fmi2Initial, Fmi2Status
from pythonfmu.variables import Boolean, Integer, Real, String

from .host_process import follow_resources, release_interpreter_state_at_exit
from .values import DERIVATIVE_VR, Quiet, ValueAccess, guarded, offer_to_binary

__all__ = ["slave_class", "DERIVATIVE_VR"]


#: the pythonfmu variable of each type (``Variable.type``)
_KINDS = {"Real": Real, "Integer": Integer, "Boolean": Boolean, "String": String}
#: a port's value, held as a float, as its type gives it to a host
_AS = {"Real": float, "Integer": int, "Boolean": bool}


#: the keys of a saved state (``_get_fmu_state``)
_STATE_KEYS = {"x", "u", "du", "t", "mode", "params"}


class _SavedState(dict):
    """A state ``_get_fmu_state`` saved: copies of the arrays, the
    parameters' dict itself (the slave replaces it, never changes it in
    place), and ``model``, the block class of the slave that saved it, so
    that restoring it needs no checks, and ``moving``, the slave's flag
    that the inputs' derivatives are not all zero.  A state read back from bytes
    (``fmi2DeSerializeFMUstate``) is a plain dict, checked in full."""

    __slots__ = ("model", "moving")


def _nothing(*args):
    return None


def _variability(v):
    """A port's variability: continuous for a Real, discrete for the others
    (FMI 2.0 section 2.2.7: only a Real may be continuous)."""
    return Fmi2Variability.continuous if v.type == "Real" else Fmi2Variability.discrete


def _shown(value) -> str:
    """A parameter value as a message shows it: a text quoted, a number short."""
    return repr(value) if isinstance(value, str) else f"{value:g}"


def slave_class(block_cls):
    """An ``Fmi2Slave`` subclass wrapping ``block_cls`` (see module docstring)."""

    class BlockSlave(ValueAccess, Fmi2Slave):
        _block_cls = block_cls
        author = "crane-cosim"
        description = block_cls.description
        default_experiment = DefaultExperiment(start_time=0.0, stop_time=block_cls.default_stop_time,
                                               step_size=block_cls.default_step)

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            release_interpreter_state_at_exit(self.resources)
            follow_resources(self.resources, __name__.rpartition(".")[0])
            self.modelName = block_cls.model_name
            self.description = block_cls.description
            self._params = {p.name: p.start for p in block_cls.parameters}
            self._tunable = {p.name for p in block_cls.parameters if p.tunable}
            self._types = {p.name: p.type for p in block_cls.parameters}
            self._u = block_cls.default_inputs()
            #: the inputs' first and second time derivatives now
            self._du = np.zeros((2, len(self._u)))
            #: whether any of them is not zero (the inputs move along them)
            self._moving = False
            self._y = np.array([v.start for v in block_cls.outputs], dtype=float)
            self._x = np.zeros(0)
            self._t = 0.0
            self._block = None
            self._mode = "instantiated"  # "initialization", then "stepping"
            self._built_from = None  # the parameters self._block was made with
            self._init_error = "fmi2EnterInitializationMode was not called"
            self._logged_error = None
            self._dirty = True
            self._quiet = Quiet()
            self._output_index = {}
            self._input_index = {}
            # value reference -> (where, index)
            self._where = []
            for p in block_cls.parameters:
                self._register_parameter(p)
            for i, v in enumerate(block_cls.inputs):
                self._where.append(("u", i))
                self.register_variable(_KINDS[v.type](
                    v.name, causality=Fmi2Causality.input, variability=_variability(v),
                    description=v.description, start=_AS[v.type](v.start),
                    getter=lambda i=i, a=_AS[v.type]: a(self._u[i]), setter=lambda val, i=i: self._set_input(i, val)))
            for i, v in enumerate(block_cls.outputs):
                self._where.append(("y", i))
                self.register_variable(_KINDS[v.type](
                    v.name, causality=Fmi2Causality.output, variability=_variability(v),
                    description=v.description, initial=Fmi2Initial.calculated,
                    getter=lambda i=i, a=_AS[v.type]: a(self._outputs()[i])))
            offer_to_binary(self)

        def _register_parameter(self, p):
            name = p.name
            self._where.append(("p", name))
            kind = _KINDS[p.type]
            variability = Fmi2Variability.tunable if p.tunable else Fmi2Variability.fixed
            self.register_variable(kind(
                name, causality=Fmi2Causality.parameter, variability=variability,
                description=p.description, start=p.start,
                getter=lambda: self._params[name],
                setter=lambda val: self._set_parameter(name, val)))

        # -- helpers ---------------------------------------------------------
        def _close_block(self, keep: bool = False):
            """``close`` the block (a bridge's socket), logging a failure; with
            ``keep`` the block stays, so that the outputs of the last step
            can still be read after ``fmi2Terminate``, as FMI allows."""
            block = self._block
            if not keep:
                self._block = None
            if block is not None:
                try:
                    block.close()
                except Exception as exc:
                    self._fail("closing failed", exc)

        def __del__(self):
            # the last chance for a block's socket when a host frees the
            # instance without fmi2Terminate; the interpreter may be ending
            try:
                block, self._block = self.__dict__.get("_block"), None
                if block is not None:
                    block.close()
            except Exception:
                pass

        def _fail(self, what: str, exc: BaseException, status=Fmi2Status.error):
            """Log the real cause through the FMU logger with ``status`` (error
            unless said), so a master sees it (fmpy alone only reports that a
            call failed)."""
            msg = f"{block_cls.model_name} ({self.instance_name}): {what}: {exc}"
            if not isinstance(exc, ValueError):
                msg += "\n" + "".join(traceback.format_exception(exc))
            self.log(msg, status)

        def _set_input(self, i, val):
            self._u[i] = val
            self._dirty = True

        def _set_parameter(self, name, val):
            """Parameters are free until the end of initialization; then only
            the tunable ones, whose change the next step honours (the block is
            remade with the new value, the state kept), and only to a value
            the block accepts."""
            if self._types[name] == "String" and not isinstance(val, str):
                # pythonfmu passes a host's NULL pointer on as None
                self.log(f"{block_cls.model_name} ({self.instance_name}): String parameter {name} cannot be set "
                         f"to {val!r}; ignored", Fmi2Status.error)
                return
            if self._mode == "stepping":
                if name not in self._tunable:
                    self.log(f"{block_cls.model_name} ({self.instance_name}): parameter {name} is fixed once "
                             f"the model is initialized; the new value {val!r} is ignored", Fmi2Status.error)
                    return
                params = dict(self._params, **{name: val})
                try:
                    block = block_cls(**params)
                    block.prepare()
                except Exception as exc:
                    self._fail(f"parameter {name} = {_shown(val)} is refused; {name} keeps "
                               f"{_shown(self._params[name])}", exc)
                    return
                self._close_block()
                self._params, self._block, self._built_from = params, block, params
            else:
                # a new dict: a saved state holds the old one
                self._params = dict(self._params, **{name: val})
            self._dirty = True

        def _model(self, status=Fmi2Status.error):
            """The block made with the present parameters (from initialization
            mode on), or None if they are not acceptable (said with
            ``status``); a new block before the end of initialization restarts
            from its initial state."""
            if self._mode == "instantiated":
                return None
            if self._built_from is not self._params and self._built_from != self._params:
                self._built_from = self._params
                self._close_block()
                try:
                    self._block = block_cls(**self._params)
                    self._block.prepare()
                    self._x = self._block.initial_state()
                    self._init_error = None
                except Exception as exc:
                    self._block = None
                    self._init_error = str(exc)
                    if self._logged_error != self._init_error:
                        self._logged_error = self._init_error
                        self._fail("cannot initialize", exc, status)
                self._dirty = True
            return self._block

        def _outputs(self):
            block = self._model() if self._mode != "stepping" else self._block
            if self._dirty and block is not None:
                try:
                    with self._quiet:
                        self._y = block.output(self._t, self._x, self._u)
                    self._y_error = None
                except Exception as exc:
                    self._y_error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    self._fail(f"outputs at t = {self._t:g} s failed", exc)
                    self._y = np.full(len(block_cls.outputs), np.nan)
                self._dirty = False
            elif block is None and self._mode != "instantiated":
                # logged at every read, so that each one returns fmi2Error
                self.log(f"{block_cls.model_name} ({self.instance_name}): no outputs, the model could not be "
                         f"made: {self._init_error}", Fmi2Status.error)
                self._y = np.full(len(block_cls.outputs), np.nan)
                self._y_error = f"the model could not be made: {self._init_error}"
            return self._y

        # -- FMI calls ---------------------------------------------------------
        @guarded(_nothing)
        def setup_experiment(self, start_time, stop_time, tolerance):
            self._t = float(start_time)

        @guarded(_nothing)
        def enter_initialization_mode(self):
            # From here on the outputs are the model's, with the parameters and
            # inputs set so far: hosts settle their initial values now.
            self._mode = "initialization"
            # parameters may still be set in initialization mode (FMI 2.0
            # section 4.2.4; ecos sets them only now): a value the block refuses
            # is a warning here, an error at the next read of an output and at
            # fmi2ExitInitializationMode if it is still refused then
            self._model(Fmi2Status.warning)

        @guarded(_nothing)
        def exit_initialization_mode(self):
            self._model()
            if self._block is None:
                # the verdict of initialization: logged even if said before
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot initialize: {self._init_error}",
                         Fmi2Status.error)
            self._mode = "stepping"
            self._dirty = True

        @guarded(_nothing)
        def terminate(self):
            self._close_block(keep=True)

        @guarded(lambda current_time, step_size: False)
        def do_step(self, current_time, step_size):
            if not (math.isfinite(current_time) and math.isfinite(step_size) and step_size > 0):
                # the FMU's binary refuses such a step before it comes here
                self._say(f"cannot step from t = {current_time} s over {step_size} s: the step size must be a "
                          f"positive finite number")
                return False
            if self._block is None:
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot step, the initialization "
                         f"failed: {self._init_error}", Fmi2Status.error)
                return False
            try:
                # A diverging model is reported below, by name; numpy's own
                # overflow warnings would only add noise in the host's output.
                moving = self._is_moving()
                with self._quiet:
                    if moving:
                        x = self._block.advance_along(current_time, self._x, self._u, self._du, step_size)
                    else:
                        x = self._block.advance(current_time, self._x, self._u, step_size)
            except Exception as exc:
                self._fail(f"step at t = {current_time:g} s failed", exc)
                return False
            self._x = x
            if moving:  # the inputs at the new time, along their polynomial
                # still moving: the new first derivatives equal the old where
                # the second ones are all zero
                self._u, self._du = self._block.inputs_after_step(self._u, self._du, step_size)
            self._t = current_time + step_size
            self._dirty = True
            # a finite sum has finite terms only (cheaper than numpy for a few)
            if not math.isfinite(sum(x.tolist())) and not np.isfinite(x).all():
                # kept, so that the outputs are NaN too for a host that reads no status (ecos)
                bad = [self._block.states[i].name for i in np.flatnonzero(~np.isfinite(x))]
                self.log(f"{block_cls.model_name} ({self.instance_name}): state {', '.join(bad)} "
                         f"is not finite after the step from t = {current_time:g} s", Fmi2Status.error)
                return False
            return True

        # -- FMU state: everything, not only the registered variables ----------
        @guarded(lambda: {})
        def _get_fmu_state(self):
            # copies: the inputs and their derivatives change in place, and a
            # host may restore one state more than once
            state = _SavedState(x=self._x.copy(), u=self._u.copy(), du=self._du.copy(), t=self._t,
                                mode=self._mode, params=self._params)
            state.model, state.moving = block_cls, self._is_moving()
            return state

        @staticmethod
        def _fmu_state_to_bytes(state) -> bytes:
            return json.dumps({k: v.tolist() if isinstance(v, np.ndarray) else v
                               for k, v in state.items()}).encode("utf-8")

        @staticmethod
        def _fmu_state_from_bytes(data: bytes):
            # pythonfmu calls it on the class, with no instance to log
            # through: bytes that are no state give one _set_fmu_state refuses
            try:
                return json.loads(data.decode("utf-8"))
            except Exception:
                return None

        @guarded(_nothing)
        def _set_fmu_state(self, state):
            if not block_cls.can_get_and_set_state:
                # the FMU declares canGetAndSetFMUstate="false": a host that
                # calls it anyway must not believe the block was rolled back
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot restore a saved state (its "
                         f"outputs come from another process, which cannot be rolled back)", Fmi2Status.error)
                return
            saved = type(state) is _SavedState and state.model is block_cls
            if not saved and not (
                    isinstance(state, dict) and set(state) == _STATE_KEYS and isinstance(state["params"], dict)
                    and set(state["params"]) == set(self._params) and len(state["u"]) == len(self._u)):
                self._say("fmi2SetFMUstate: the state given is not one this FMU saved (nor serialized)")
                return
            try:
                params = state["params"] if saved else dict(state["params"])
                if self._block is None or (params is not self._built_from and params != self._built_from):
                    self._close_block()
                    self._block = block_cls(**params) if state["mode"] != "instantiated" else None
                    if self._block is not None:
                        self._block.prepare()
                    self._built_from = params if self._block is not None else None
                self._params = params
                self._mode = state["mode"]
                # copies (np.array copies), the saved state may be restored again
                self._x = np.array(state["x"], dtype=float)
                self._u = np.array(state["u"], dtype=float)
                self._du = np.array(state["du"], dtype=float)
                self._moving = state.moving if saved else bool(self._du.any())
                self._t = float(state["t"])
            except Exception as exc:
                self._fail("cannot restore the FMU state", exc)
            self._dirty = True

    BlockSlave.__name__ = block_cls.model_name
    BlockSlave.__qualname__ = block_cls.model_name
    return BlockSlave
