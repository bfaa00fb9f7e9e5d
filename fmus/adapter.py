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
which only this adapter reads.  The full internal state (continuous states, inputs,
parameters, time) is saved and restored by the FMU state hooks, which
pythonfmu by default limits to registered variables.

The model exists from ``fmi2EnterInitializationMode`` on, made with the
parameters set so far: hosts (libcosim, ecos) settle their initial values in
initialization mode, and read there the outputs of the initial state with
the inputs they have set.  A parameter set during initialization remakes it
from its initial state.  After initialization only tunable parameters
(``Variable.tunable``: gains, set-points, damping) may change: the block is
remade with the new value and keeps its state, so the next step honours it;
a value the block refuses is logged and the old one kept.

A block that holds something outside Python's memory (a bridge's socket,
``blocks/udp_bridge.py``) gets it in ``Block.prepare`` and gives it back in
``Block.close``, which the adapter calls at ``fmi2Terminate``, before it
remakes the block, and when the slave is garbage collected: pythonfmu 0.7
calls no Python method at ``fmi2FreeInstance`` (nor for the instance it
replaces at ``fmi2Reset``), it only drops its reference.  A block that
cannot be rolled back (``Block.can_get_and_set_state`` false, so the FMU
says ``canGetAndSetFMUstate="false"``) refuses ``fmi2SetFMUstate``.

No FMI method raises.  pythonfmu 0.7 turns a Python exception into
fmi2Fatal and, in a Python host, leaves the interpreter's GIL state
unbalanced, so the host crashes later.  Failures are logged through the FMU
logger with status error instead: a failed initialization makes every later
step return fmi2Error, a failed output evaluation returns NaN (which a master
reports by name), a write to an output is ignored.

This module is copied into every FMU next to the blocks; it must import only
pythonfmu, numpy and the block package (relatively).
"""
from __future__ import annotations

import atexit
import ctypes
import os
import sys
import traceback
from pathlib import Path

import numpy as np
from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability
from pythonfmu.default_experiment import DefaultExperiment
from pythonfmu.enums import Fmi2Initial, Fmi2Status
from pythonfmu.variables import Boolean, Real, String


_BINARIES = {"linux": ("linux64", ".so"), "darwin": ("darwin64", ".dylib"), "win32": ("win64", ".dll")}
_RELEASE_REGISTERED: set[str] = set()
#: the value reference of an input's derivative of order k as the Linux
#: binary passes it on: DERIVATIVE_VR * k + the input's (module docstring);
#: below 2**31 for k = 2, as pythonfmu passes value references on as C ints
DERIVATIVE_VR = 1 << 29


def release_interpreter_state_at_exit(resources) -> None:
    """Work around a use-after-free at process exit in pythonfmu 0.7's binary,
    for an FMU that carries that binary alone (built without a C compiler).

    The binary keeps a global ``std::shared_ptr<PyState>``; at exit the C++
    runtime destroys it (freeing its control block without clearing the
    pointer) and then the library's destructor function
    ``finalizePythonInterpreter`` resets it again, decrementing a count
    inside freed memory.  Depending on what the heap holds there, the process
    aborts after all its work is done ("corrupted double-linked list") or
    worse.  Resetting the pointer ourselves while it is valid, from Python's
    own exit handlers, leaves both later calls a null pointer to ignore.  In
    a Python host the state object holds nothing an instance uses (its
    thread ended at once, finding Python running), and an instance created
    after the reset makes a new one.

    Not needed with the project's shim in front of the binary
    (``fmus/native.py``): it resets the pointer from a C exit handler, in
    every host.  Not done in a C host without the shim: there the binary
    started Python itself, on a thread of its own, and finalizes it from
    that global's destructor."""
    if not _python_host() or not resources:
        return
    folder, suffix = _BINARIES.get(sys.platform, (None, None))
    if folder is None:
        return
    libs = [str(lib.resolve()) for lib in (Path(resources).parent / "binaries" / folder).glob(f"*{suffix}")]
    if any(_loaded_symbol(path, "crane_cosim_fmi2_shim") for path in libs):
        return
    for path in libs:
        if path not in _RELEASE_REGISTERED:
            _RELEASE_REGISTERED.add(path)
            atexit.register(_release_interpreter_state, path)


def _loaded_symbol(path: str, name: str):
    """Symbol ``name`` of the library at ``path`` if that library is loaded
    in this process (the FMU folder may be gone), else None."""
    try:
        lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0))
        return getattr(lib, name)
    except (OSError, AttributeError):
        return None


def _python_host() -> bool:
    """Whether the host process is a Python program (fmpy, libcosimpy, ...
    run by ``python``), not a C host in which an FMU's binary started an
    embedded interpreter: that one has no command line (``sys.orig_argv``
    is empty).  Which thread imported ``threading`` first tells nothing:
    in a C host that is the host's thread or pythonfmu's, depending on what
    the interpreter's ``site`` imports."""
    return bool(getattr(sys, "orig_argv", None))


def _release_interpreter_state(path: str) -> None:
    finalize = _loaded_symbol(path, "finalizePythonInterpreter")
    if finalize is not None:
        finalize()


#: the pythonfmu variable of each parameter type (``Variable.type``)
_KINDS = {"Real": Real, "Boolean": Boolean, "String": String}


def _shown(value) -> str:
    """A parameter value as a message shows it: a text quoted, a number short."""
    return repr(value) if isinstance(value, str) else f"{value:g}"


def _index(positions: list):
    """An index of the positions ``positions`` of an array: a slice where
    they follow each other (a master reading every output in order), which
    costs less than a list of integers on every call."""
    start = positions[0] if positions else 0
    if positions == list(range(start, start + len(positions))):
        return slice(start, start + len(positions))
    return np.array(positions, dtype=int)


def follow_resources(resources) -> None:
    """Point this FMU's package, and its subpackages, at ``resources`` where
    the folder they were first imported from is gone.

    Every instance in a process shares the package's modules, imported once
    from the first instance's unzipped folder; a host that deletes that
    folder after a run (fmpy's ``simulate_fmu``, this project's master)
    would leave a module that is first imported later (the numba kernels,
    which a block imports when it first computes) nowhere to be found."""
    if not resources:
        return
    root = __name__.rpartition(".")[0]
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__path__", None)
        if (name == root or name.startswith(root + ".")) and path and not os.path.isdir(path[0]):
            folder = Path(resources).joinpath(*name.split("."))
            if folder.is_dir():
                module.__path__[:] = [str(folder)]


def slave_class(block_cls):
    """An ``Fmi2Slave`` subclass wrapping ``block_cls`` (see module docstring)."""

    class BlockSlave(Fmi2Slave):
        author = "crane-cosim"
        description = block_cls.description
        default_experiment = DefaultExperiment(start_time=0.0, stop_time=block_cls.default_stop_time,
                                               step_size=block_cls.default_step)

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            release_interpreter_state_at_exit(self.resources)
            follow_resources(self.resources)
            self.modelName = block_cls.model_name
            self.description = block_cls.description
            self._params = {p.name: p.start for p in block_cls.parameters}
            self._tunable = {p.name for p in block_cls.parameters if p.tunable}
            self._types = {p.name: p.type for p in block_cls.parameters}
            self._u = block_cls.default_inputs()
            #: the inputs' first and second time derivatives now
            self._du = np.zeros((2, len(self._u)))
            self._y = np.array([v.start for v in block_cls.outputs], dtype=float)
            self._x = np.zeros(0)
            self._t = 0.0
            self._block = None
            self._mode = "instantiated"  # "initialization", then "stepping"
            self._built_from = None  # the parameters self._block was made with
            self._init_error = "fmi2EnterInitializationMode was not called"
            self._logged_error = None
            self._dirty = True
            self._output_index = {}
            self._input_index = {}
            # value reference -> (where, index)
            self._where = []
            for p in block_cls.parameters:
                self._register_parameter(p)
            for i, v in enumerate(block_cls.inputs):
                self._where.append(("u", i))
                self.register_variable(Real(
                    v.name, causality=Fmi2Causality.input, variability=Fmi2Variability.continuous,
                    description=v.description, start=v.start,
                    getter=lambda i=i: float(self._u[i]), setter=lambda val, i=i: self._set_input(i, val)))
            for i, v in enumerate(block_cls.outputs):
                self._where.append(("y", i))
                self.register_variable(Real(
                    v.name, causality=Fmi2Causality.output, variability=Fmi2Variability.continuous,
                    description=v.description, initial=Fmi2Initial.calculated,
                    getter=lambda i=i: float(self._outputs()[i])))

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

        def _fail(self, what: str, exc: BaseException):
            """Log the real cause through the FMU logger with status error, so a
            master sees it (fmpy alone only reports that a call failed)."""
            msg = f"{block_cls.model_name} ({self.instance_name}): {what}: {exc}"
            if not isinstance(exc, ValueError):
                msg += "\n" + "".join(traceback.format_exception(exc))
            self.log(msg, Fmi2Status.error)

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
                self._params[name] = val
            self._dirty = True

        def _model(self):
            """The block made with the present parameters (from initialization
            mode on), or None if they are not acceptable; a new block before
            the end of initialization restarts from its initial state."""
            if self._mode == "instantiated":
                return None
            if self._built_from != self._params:
                self._built_from = dict(self._params)
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
                        self._fail("cannot initialize", exc)
                self._dirty = True
            return self._block

        def _outputs(self):
            block = self._model() if self._mode != "stepping" else self._block
            if self._dirty and block is not None:
                try:
                    with np.errstate(all="ignore"):
                        self._y = block.output(self._t, self._x, self._u)
                except Exception as exc:
                    self._fail(f"outputs at t = {self._t:g} s failed", exc)
                    self._y = np.full(len(block_cls.outputs), np.nan)
                self._dirty = False
            elif block is None and self._mode != "instantiated":
                # logged at every read, so that each one returns fmi2Error
                self.log(f"{block_cls.model_name} ({self.instance_name}): no outputs, the model could not be "
                         f"made: {self._init_error}", Fmi2Status.error)
                self._y = np.full(len(block_cls.outputs), np.nan)
            return self._y

        # -- FMI calls ---------------------------------------------------------
        def setup_experiment(self, start_time, stop_time, tolerance):
            self._t = float(start_time)

        def enter_initialization_mode(self):
            # From here on the outputs are the model's, with the parameters and
            # inputs set so far: hosts settle their initial values now.
            self._mode = "initialization"
            self._model()

        def exit_initialization_mode(self):
            self._model()
            if self._block is None:
                # the verdict of initialization: logged even if said before
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot initialize: {self._init_error}",
                         Fmi2Status.error)
            self._mode = "stepping"
            self._dirty = True

        def terminate(self):
            self._close_block(keep=True)

        def do_step(self, current_time, step_size):
            if self._block is None:
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot step, the initialization "
                         f"failed: {self._init_error}", Fmi2Status.error)
                return False
            try:
                # A diverging model is reported below, by name; numpy's own
                # overflow warnings would only add noise in the host's output.
                moving = self._du.any()
                with np.errstate(all="ignore"):
                    if moving:
                        x = self._block.advance_along(current_time, self._x, self._u, self._du, step_size)
                    else:
                        x = self._block.advance(current_time, self._x, self._u, step_size)
            except Exception as exc:
                self._fail(f"step at t = {current_time:g} s failed", exc)
                return False
            self._x = x
            if moving:  # the inputs at the new time, along their polynomial
                h, (d1, d2) = step_size, self._du
                self._u = self._u + h * d1 + (h * h / 2) * d2
                self._du = np.array([d1 + h * d2, d2])
            self._t = current_time + step_size
            self._dirty = True
            if not np.isfinite(x).all():
                # kept, so that the outputs are NaN too for a host that reads no status (ecos)
                bad = [self._block.states[i].name for i in np.flatnonzero(~np.isfinite(x))]
                self.log(f"{block_cls.model_name} ({self.instance_name}): state {', '.join(bad)} "
                         f"is not finite after the step from t = {current_time:g} s", Fmi2Status.error)
                return False
            return True

        def get_real(self, vrs):
            # Fast path: a master reads the same list of outputs every step.
            key = tuple(vrs)
            idx = self._output_index.get(key)
            if idx is not None:
                return self._outputs()[idx].tolist()
            if all(self._where[vr][0] == "y" for vr in vrs):
                idx = self._output_index[key] = _index([self._where[vr][1] for vr in vrs])
                return self._outputs()[idx].tolist()
            y = None
            out = []
            for vr in vrs:
                where, i = self._where[vr]
                if where == "y":
                    if y is None:
                        y = self._outputs()
                    out.append(float(y[i]))
                elif where == "u":
                    out.append(float(self._u[i]))
                elif self._types[i] == "String":
                    out.append(self._not_real(i))
                else:
                    out.append(float(self._params[i]))
            return out

        def _not_real(self, name):
            """A String parameter read or written as a Real: the host's
            mistake, logged (the call returns fmi2Error); NaN is read."""
            self.log(f"{block_cls.model_name} ({self.instance_name}): parameter {name} is a String; read and "
                     f"set it with fmi2GetString and fmi2SetString", Fmi2Status.error)
            return float("nan")

        def set_real(self, vrs, values):
            # Fast path: a master writes the same list of inputs every step.
            key = tuple(vrs)
            idx = self._input_index.get(key)
            if idx is None and any(not 0 <= vr < len(self._where) for vr in vrs):
                return self._set_derivatives(vrs, values)
            if idx is None and all(self._where[vr][0] == "u" for vr in vrs):
                idx = self._input_index[key] = _index([self._where[vr][1] for vr in vrs])
            if idx is not None:
                self._u[idx] = values
                self._dirty = True
                return
            for vr, val in zip(vrs, values):
                where, i = self._where[vr]
                if where == "u":
                    self._u[i] = val
                    self._dirty = True
                elif where == "p" and self._types[i] == "String":
                    self._not_real(i)
                elif where == "p":
                    self._set_parameter(i, val)
                else:
                    self.log(f"{block_cls.model_name} ({self.instance_name}): output "
                             f"{block_cls.outputs[i].name} cannot be set; ignored", Fmi2Status.error)

        def _set_derivatives(self, vrs, values):
            """Input derivatives, as the Linux binary passes them on (module
            docstring; the binary has checked the orders), among them,
            perhaps, a value reference that is none of this FMU's."""
            for code, val in zip(vrs, values):
                order, vr = divmod(code, DERIVATIVE_VR)
                if order <= 0:
                    self.log(f"{block_cls.model_name} ({self.instance_name}): fmi2SetReal: value reference "
                             f"{code} is none of this FMU's; ignored", Fmi2Status.error)
                elif vr < len(self._where) and self._where[vr][0] == "u" and order <= 2:
                    self._du[order - 1, self._where[vr][1]] = val
                else:
                    self.log(f"{block_cls.model_name} ({self.instance_name}): fmi2SetRealInputDerivatives: "
                             f"value reference {vr} is not a Real input; ignored", Fmi2Status.error)

        # -- FMU state: everything, not only the registered variables ----------
        def _get_fmu_state(self):
            return {"x": self._x.tolist(), "u": self._u.tolist(), "du": self._du.tolist(), "t": self._t,
                    "mode": self._mode, "params": dict(self._params)}

        def _set_fmu_state(self, state):
            if not block_cls.can_get_and_set_state:
                # the FMU declares canGetAndSetFMUstate="false": a host that
                # calls it anyway must not believe the block was rolled back
                self.log(f"{block_cls.model_name} ({self.instance_name}): cannot restore a saved state (its "
                         f"outputs come from another process, which cannot be rolled back)", Fmi2Status.error)
                return
            try:
                params = dict(state["params"])
                if self._block is None or params != self._built_from:
                    self._close_block()
                    self._block = block_cls(**params) if state["mode"] != "instantiated" else None
                    if self._block is not None:
                        self._block.prepare()
                    self._built_from = params if self._block is not None else None
                self._params = params
                self._mode = state["mode"]
                self._x = np.array(state["x"], dtype=float)
                self._u = np.array(state["u"], dtype=float)
                self._du = np.array(state["du"], dtype=float)
                self._t = float(state["t"])
            except Exception as exc:
                self._fail("cannot restore the FMU state", exc)
            self._dirty = True

    BlockSlave.__name__ = block_cls.model_name
    BlockSlave.__qualname__ = block_cls.model_name
    return BlockSlave
