"""Run a :class:`~crane_cosim.system.System` under OSP libcosim, through the
PyPI package ``libcosimpy`` (``pip install libcosimpy``), as an independent
check of our own master.

>>> from crane_cosim.scenarios import crane_on_vessel
>>> df = run_libcosim(crane_on_vessel(stop_time=5.0))
>>> df[["time", "crane.W1_fz"]]

libcosim's fixed-step algorithm steps all components in parallel from the
same communication point and then passes every output on, inputs held over the
step: the ``jacobi`` algorithm of our master with ``extrapolation = "none"``.
The ``algorithm`` and ``extrapolation`` settings of the system are therefore
not used; ``coupling`` is (:func:`~crane_cosim.system.coupled_connections`).
Before the first step libcosim exchanges the outputs in initialization mode
as many times as there are components.

The FMUs of this project run their Python code in this interpreter (see
``docs/fmus.md``); libcosim steps them on its worker threads.
"""
from __future__ import annotations

import ctypes

from .errors import CraneCosimError
from .system import System, coupled_connections

__all__ = ["run_libcosim"]

_NS = 1_000_000_000  # libcosim counts time in nanoseconds
_LOG_LEVELS = ("trace", "debug", "info", "warning", "error", "fatal")


def _libcosimpy():
    try:
        from libcosimpy import CosimEnums, CosimExecution, CosimLogging, CosimObserver, CosimSlave
        from libcosimpy._internal import get_last_error_message, libcosimc
    except ImportError as exc:
        raise CraneCosimError(f"running under OSP libcosim needs the Python package libcosimpy, which cannot "
                              f"be imported ({exc}); install it with 'pip install libcosimpy'") from None
    return CosimEnums, CosimExecution, CosimLogging, CosimObserver, CosimSlave, get_last_error_message, libcosimc


def run_libcosim(system: System, outputs: list[str] | None = None, log_level: str = "warning"):
    """Co-simulate ``system`` with libcosim's fixed-step algorithm and return
    a :class:`pandas.DataFrame`: a ``time`` column (every communication point
    from the start time, as in our ``results.csv``) and one
    ``component.variable`` column per output, in the order of
    :func:`~crane_cosim.master.run_cosim` (or the ``outputs`` given).

    The run makes ``ceil((stop - start) / step)`` steps of the system's step
    size and must start at t = 0 (libcosimpy creates executions at t = 0).
    ``log_level`` sets libcosim's console log level for the process.  Raises
    :class:`CraneCosimError` if libcosimpy is missing or libcosim rejects an
    FMU, a variable or a step.
    """
    import numpy as np
    import pandas as pd
    from .master import prepare_fmus, steps_of

    (CosimEnums, CosimExecution, CosimLogging, CosimObserver, CosimSlave,
     last_error, libcosimc) = _libcosimpy()
    system.check_settings()
    if system.start_time != 0:
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

    def fail(what: str):
        return CraneCosimError(f"libcosim {what}: {last_error() or 'no message'}")

    REAL, BOOLEAN = CosimEnums.CosimVariableType.REAL.value, CosimEnums.CosimVariableType.BOOLEAN.value
    OUTPUT = CosimEnums.CosimVariableCausality.OUTPUT.value

    execution = CosimExecution.CosimExecution.from_step_size(step_ns)
    slaves, index, variables = [], {}, {}
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
        variables[comp.name] = {v.name.decode(): v for v in execution.slave_variables(i)}

    def var(comp: str, name: str):
        v = variables[comp].get(name)
        if v is None:
            raise CraneCosimError(f"component {comp} has no variable {name!r}")
        return v

    for comp in system.components:
        for name, value in comp.parameters.items():
            v = var(comp.name, name)
            ok = (execution.boolean_initial_value(index[comp.name], v.reference, bool(value)) if v.type == BOOLEAN
                  else execution.real_initial_value(index[comp.name], v.reference, float(value)))
            if not ok:
                raise fail(f"cannot set parameter {comp.name}.{name}")
    for c in coupled_connections(system):
        src, dst = var(c.start_element, c.start_connector), var(c.end_element, c.end_connector)
        if src.type != REAL or dst.type != REAL:
            raise CraneCosimError(f"connection {c}: only Real variables are connected")
        if execution.connect_real_variables(index[c.start_element], src.reference,
                                            index[c.end_element], dst.reference) != 0:
            raise fail(f"cannot connect {c}")

    if outputs is None:
        outputs = [f"{comp.name}.{n}" for comp in system.components
                   for n, v in variables[comp.name].items() if v.causality == OUTPUT and v.type == REAL]
    observer = CosimObserver.CosimObserver.create_time_series()
    execution.add_observer(observer)
    recorded = []
    for ref in outputs:
        comp, _, name = ref.partition(".")
        if comp not in index:
            raise CraneCosimError(f"{ref!r}: system {system.name!r} has no component {comp!r}")
        v = var(comp, name)
        if v.type != REAL:
            raise CraneCosimError(f"{ref} is not a Real variable")
        if not observer.start_time_series(index[comp], v.reference, CosimEnums.CosimVariableType.REAL):
            raise fail(f"cannot record {ref}")
        recorded.append((ref, index[comp], v.reference))

    n_steps = steps_of(system)
    if not execution.step(n_steps):
        raise fail(f"stopped at t = {execution.status().current_time / _NS:g} s")

    # Samples are read with the C function itself: libcosimpy's
    # time_series_real_samples (0.0.6) drops one sample when step 0 is read.
    get_samples = libcosimc().cosim_observer_slave_get_real_samples
    get_samples.restype = ctypes.c_int64
    n = n_steps + 1
    values = (ctypes.c_double * n)()
    steps = (ctypes.c_int64 * n)()
    times = (ctypes.c_int64 * n)()
    columns = {}
    time = None
    for ref, i, vr in recorded:
        got = get_samples(observer.ptr(), ctypes.c_int(i), ctypes.c_uint32(vr), ctypes.c_int64(0),
                          ctypes.c_size_t(n), values, steps, times)
        if got != n or list(steps) != list(range(n)):
            raise CraneCosimError(f"libcosim recorded {got} samples of {ref}, expected one at each of "
                                  f"the {n} communication points")
        t = np.frombuffer(times, dtype=np.int64) / _NS
        if time is None:
            time = t.copy()
        elif not np.array_equal(t, time):
            raise CraneCosimError(f"libcosim recorded {ref} at other times than {recorded[0][0]}")
        columns[ref] = np.frombuffer(values, dtype=np.float64).copy()
    del execution, observer, slaves
    return pd.DataFrame({"time": time if time is not None else np.arange(n) * system.step, **columns})
