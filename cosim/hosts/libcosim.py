"""Run a system under OSP libcosim, through the PyPI package ``libcosimpy``
(``pip install libcosimpy``), as an independent check of our own master.

>>> from crane_cosim.scenarios import crane_on_vessel
>>> df = run_libcosim(crane_on_vessel(stop_time=5.0))
>>> df[["time", "crane.W_mount_fz"]]

libcosim's fixed-step algorithm steps all components in parallel from the
same communication point and then passes every output on, inputs held over
the step: the ``jacobi`` algorithm of our master with ``extrapolation =
"none"``, components of their own steps included (read from a system
file's ``osp:StepSizeHint``).  The ``algorithm`` and ``extrapolation`` of
the system are therefore not used.  Before the first step libcosim
exchanges the outputs in initialization mode as many times as there are
components.

The FMUs of this project run their Python code in this interpreter
(``docs/fmus.md``); libcosim steps them on its worker threads.
"""
from __future__ import annotations

import ctypes
from time import perf_counter

import numpy as np
import pandas as pd

from ..errors import CraneCosimError, did_you_mean
from ..fmus.build import prepare_fmus
from ..runtime.plan import plan_of
from ..runtime.system import System
from ..ssp import open_system
from ..ssp.osp_system import is_osp_system
from .interfaces import refuse_what_it_cannot_run

__all__ = ["run_libcosim"]

_NS = 1_000_000_000  # libcosim counts time in integer nanoseconds
_LOG_LEVELS = ("trace", "debug", "info", "warning", "error", "fatal")


def _libcosimpy():
    try:
        # libcosimpy, an optional host, only where it runs
        from libcosimpy import CosimEnums, CosimExecution, CosimLogging, CosimObserver, CosimSlave, _internal
    except ImportError as exc:
        raise CraneCosimError(f"running under OSP libcosim needs the Python package libcosimpy, which cannot "
                              f"be imported ({exc}); install it with 'pip install libcosimpy'") from None
    try:
        _internal.libcosimc()
    except OSError as exc:
        raise CraneCosimError(f"libcosimpy is installed but its libcosimc library cannot be loaded ({exc})") from None
    return CosimEnums, CosimExecution.CosimExecution, CosimLogging, CosimObserver.CosimObserver, CosimSlave, _internal


def run_libcosim(system, outputs: list[str] | None = None, log_level: str = "warning", timing: dict | None = None,
                 scenario=None):
    """Co-simulate with libcosim's fixed-step algorithm and return a
    :class:`pandas.DataFrame`: a ``time`` column (every communication point
    from the start time, as in our ``results.arrows``) and one
    ``component.variable`` column per output, in the order of
    :func:`~crane_cosim.runtime.run.run_cosim` (or the ``outputs`` given).

    ``system`` is a :class:`~crane_cosim.runtime.system.System` (its plan's
    components, values and connections, ``runtime/plan.py``, are passed to
    libcosim one by one; it must start at t = 0 and its components take the
    system's step), or the path of a ``.ssd`` file, a folder holding one or
    an ``.ssp`` archive, which libcosim then loads with its own SSP loader
    (our reader is used for the checks, the step size, the stop time and
    the names).  An archive is checked and extracted by
    :func:`~crane_cosim.ssp.open_system` and libcosim reads the
    extracted files, so what it loads is what was checked, every FMU read
    through the archive checks before libcosim opens it.  Either way the
    run makes ``ceil((stop - start) / step)`` full steps of the system's
    step size (our master shortens the last one to end at the stop time).
    A component of its own step is recorded by libcosim where its steps
    end; its value holds in between, as in our ``results.arrows``.
    ``log_level`` sets libcosim's console log level for the process.
    ``timing``, a dict, receives ``stepping_s`` (the wall time of the
    stepping alone: ``execution.step`` with the observer recording the
    ``outputs``; loading, connecting and initializing left out, and so
    the first step, in which libcosim initializes), ``steps`` (those
    timed) and ``initializing_step_s`` (the first step's wall time)
    (``crane-cosim bench --hosts``).  ``scenario``: the path of a scenario
    file, which libcosim's scenario manager acts out.

    Raises :class:`CraneCosimError` if libcosimpy is missing, or libcosim
    rejects an FMU, a variable, a connection or a step.
    """
    if isinstance(system, System):
        return _run_libcosim(system, None, outputs, log_level, timing, scenario)
    with open_system(system) as opened:  # an archive's files live until the run ends
        return _run_libcosim(opened.system, opened.ssd, outputs, log_level, timing, scenario)


def _run_libcosim(system: System, ssd, outputs, log_level: str, timing: dict | None = None, scenario=None):
    CosimEnums, CosimExecution, CosimLogging, CosimObserver, CosimSlave, _internal = _libcosimpy()
    if ssd is not None:
        if system.coupling != "inertia":
            raise CraneCosimError(f"system file {ssd} asks for the {system.coupling!r} coupling, which "
                                  f"libcosim's SSP loader cannot apply (it connects the file as written)")
    if ssd is None and system.start_time != 0:
        raise CraneCosimError(f"libcosimpy runs start at t = 0, but system {system.name!r} starts at "
                              f"t = {system.start_time:g} s")
    step_ns = round(system.step * _NS)
    if abs(step_ns - system.step * _NS) > 1e-6 * step_ns:
        raise CraneCosimError(f"the step size {system.step!r} s is not a whole number of nanoseconds, "
                              f"libcosim's time unit")
    if log_level not in _LOG_LEVELS:
        raise CraneCosimError(f"unknown log level {log_level!r}; use one of {', '.join(_LOG_LEVELS)}")
    CosimLogging.log_output_level(CosimLogging.CosimLogLevel[log_level.upper()])
    prepare_fmus(system)
    # every FMU read through the archive checks before libcosim opens it with its own unzip and XML parser
    plan = plan_of(system)
    refuse_what_it_cannot_run(plan, "libcosim", applies_linear=ssd is not None)
    if ssd is None and plan.multi_rate:
        raise CraneCosimError(f"system {system.name!r} has components of their own steps, which libcosimpy "
                              f"takes from a system file only (osp:StepSizeHint); run it from its .ssd")

    def fail(what: str):
        return CraneCosimError(f"libcosim {what}: {_internal.get_last_error_message() or 'no message'}")

    REAL, INTEGER, BOOLEAN, STRING = (CosimEnums.CosimVariableType[t] for t in ("REAL", "INTEGER", "BOOLEAN",
                                                                                "STRING"))
    OUTPUT = CosimEnums.CosimVariableCausality.OUTPUT.value
    slaves, index, variables = [], {}, {}
    if ssd is not None:
        # The step is given explicitly: libcosim crashes (null algorithm) on a
        # file without an OSP algorithm annotation that it can read.
        try:
            execution = (CosimExecution.from_osp_config_file(str(ssd)) if is_osp_system(ssd)
                         else CosimExecution.from_ssp_file(str(ssd), step_ns))
        except AssertionError:
            raise fail(f"cannot load the system file {ssd}") from None
        for comp in system.components:
            i = execution.slave_index_from_instance_name(comp.name)
            if i is None:
                raise CraneCosimError(f"libcosim did not load component {comp.name} of {ssd}")
            index[comp.name] = i
    else:
        execution = CosimExecution.from_step_size(step_ns)
        for comp in system.components:
            path = system.source_path(comp)
            if not path.is_file():
                raise CraneCosimError(f"FMU file {path} of component {comp.name} does not exist")
            slave = CosimSlave.CosimLocalSlave(str(path), comp.name)
            i = execution.add_local_slave(slave) if slave.ptr() else -1
            if i < 0:
                raise fail(f"cannot load the FMU {path} of component {comp.name}")
            slaves.append(slave)
            index[comp.name] = i
    for name, i in index.items():
        variables[name] = {v.name.decode(): v for v in execution.slave_variables(i)}

    def var(comp: str, name: str):
        if comp not in variables:
            raise CraneCosimError(f"system {system.name!r} has no component {comp!r}{did_you_mean(comp, variables)}")
        v = variables[comp].get(name)
        if v is None:
            raise CraneCosimError(f"component {comp} has no variable {name!r}{did_you_mean(name, variables[comp])}")
        return v

    # each value by its type's call; the plan has typed and checked them.  Set over a system file's too:
    # libcosim's SSP loader applies a component's first binding as written (no prefix, parameter mapping,
    # unit conversion nor the system's own bindings), so the values are those our reader resolved
    initial_value = {BOOLEAN.value: execution.boolean_initial_value, STRING.value: execution.string_initial_value,
                     INTEGER.value: execution.integer_initial_value, REAL.value: execution.real_initial_value}
    for part in plan.parts:
        for name, value in part.values.items():
            v = var(part.name, name)
            if not initial_value[v.type](index[part.name], v.reference, value):
                raise fail(f"cannot set {part.name}.{name}")
    if ssd is None:
        connect = {BOOLEAN.value: execution.connect_boolean_variables, STRING.value: execution.connect_string_variables,
                   INTEGER.value: execution.connect_integer_variables, REAL.value: execution.connect_real_variables}
        for c in plan.connections:
            src, dst = var(c.start_element, c.start_connector), var(c.end_element, c.end_connector)
            if connect[src.type](index[c.start_element], src.reference, index[c.end_element], dst.reference) != 0:
                raise fail(f"cannot connect {c}")

    if outputs is None:
        outputs = [f"{comp.name}.{n}" for comp in system.components
                   for n, v in variables[comp.name].items() if v.causality == OUTPUT and v.type == REAL.value]
    if scenario is not None:
        from libcosimpy.CosimManipulator import CosimManipulator  # libcosimpy, an optional host, only where it runs
        manager = CosimManipulator.create_scenario_manager()
        if not execution.add_manipulator(manager) or not execution.load_scenario(manager, str(scenario)):
            raise fail(f"cannot load the scenario {scenario}")
    n_steps = plan.n_steps
    n = n_steps + 1
    # The default time-series buffer keeps only the last 10 000 samples.
    observer = CosimObserver.create_time_series(buffer_size=n)
    execution.add_observer(observer)
    recorded = []
    for ref in outputs:
        comp, _, name = ref.partition(".")
        v = var(comp, name)
        if v.type != REAL.value:
            raise CraneCosimError(f"{ref} is not a Real variable")
        if not observer.start_time_series(index[comp], v.reference, REAL):
            raise fail(f"cannot record {ref}")
        recorded.append((ref, index[comp], v.reference))

    t_first = perf_counter()
    # libcosim initializes the FMUs in its first step (enter and exit
    # initialization mode, the exchanges): timed, that step is left out
    first = 1 if timing is not None and n_steps > 1 else 0
    stepped = execution.step(first) if first else True
    t0 = perf_counter()
    stepped = stepped and execution.step(n_steps - first)
    if timing is not None:
        timing.update(stepping_s=perf_counter() - t0, steps=n_steps - first, initializing_step_s=t0 - t_first)
    if not stepped:
        raise fail(f"stopped at t = {execution.status().current_time / _NS:g} s")

    # Read with the C function itself: libcosimpy 0.0.6's
    # time_series_real_samples drops one sample whenever step 0 is read.
    # Indexing gives a function object of our own: the attribute is shared with
    # libcosimpy, whose calls fix its argtypes to one array length.
    get_samples = _internal.libcosimc()["cosim_observer_slave_get_real_samples"]
    get_samples.restype = ctypes.c_int64
    get_samples.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_int64, ctypes.c_size_t,
                            ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_int64),
                            ctypes.POINTER(ctypes.c_int64)]
    values, steps, times = (ctypes.c_double * n)(), (ctypes.c_int64 * n)(), (ctypes.c_int64 * n)()
    every = {p.name: p.every for p in plan.parts}
    columns = {}
    for ref, i, vr in recorded:
        got = get_samples(observer.ptr(), ctypes.c_int(i), ctypes.c_uint32(vr), ctypes.c_int64(0),
                          ctypes.c_size_t(n), values, steps, times)
        k = every[ref.partition(".")[0]]
        # a component of its own step is sampled where its steps end: held in between
        expected = sorted(set(range(0, n, k)) | {n - 1})
        at = list(steps)[:got]
        if at != expected[:got] or got < len(expected) - 1:
            raise CraneCosimError(f"libcosim recorded {got} samples of {ref}, expected one at each of "
                                  f"its {len(expected)} communication points")
        column = np.empty(n)
        sampled = np.frombuffer(values, dtype=np.float64)[:got]
        for j, s in enumerate(at):
            column[s:] = sampled[j]
        columns[ref] = column
    time = system.start_time + np.arange(n) * system.step
    return pd.DataFrame({"time": time, **columns})
