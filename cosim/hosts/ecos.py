"""Run a system under NTNU Ålesund's ecos, through the PyPI packages ``ecospy`` and
``tbb`` (``pip install ecospy tbb``), as an independent check of our master.

>>> from crane_cosim.scenarios import crane_on_vessel
>>> df = run_ecos(crane_on_vessel(stop_time=5.0))
>>> df[["time", "crane.W_mount_fz"]]

ecos's fixed-step algorithm steps all components from the same
communication point and then passes every output on, inputs held over the
step: the ``jacobi`` algorithm of our master with ``extrapolation =
"none"``, as in libcosim.  Its initialization differs from libcosim's: after
the exchanges in initialization mode it passes the outputs on once more
after ``fmi2ExitInitializationMode``.  And its step sets the next inputs
before its listeners read the outputs (``simulation::step``), so that an
output that depends directly on an input (the interface wrench) is
sampled with the next step's inputs, a step apart from ours and
libcosim's, while the states agree to round-off (docs/benchmarks.md).

What the runner takes care of (ecospy 0.7.2):

* ``libecosc.so`` needs ``libtbb.so.12`` and carries no search path: the copy
  that ``pip install tbb`` puts in ``<sys.prefix>/lib`` is loaded first;
* ecos unpacks every FMU by running the ``unzip`` program, and crashes the
  process when there is none: that is refused beforehand;
* ecos is given a folder in the layout of :func:`~crane_cosim.ssp.write_ssp`
  written from the system (so it applies every component's parameters,
  passed as the set :data:`~crane_cosim.ssp.PARAMETER_SET`), with the
  connections of the system's plan (``runtime/plan.py``: the coupling applied);
* it steps with ``step(n)``: ``step_until`` sums the step in floating point
  and can stop one step short;
* values are recorded by a listener through ``get_real`` at full precision
  (ecos's own CSV writer prints six digits), the start row right after
  ``init``;
* ecos ignores the status the FMUs return, so every recorded value is
  checked to be finite.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import shutil
import sys
import tempfile
from pathlib import Path
from time import perf_counter

import numpy as np
import pandas as pd

from ..errors import CraneCosimError, did_you_mean
from ..fmus.build import prepare_fmus
from ..runtime.plan import plan_of
from ..runtime.system import System
from ..ssp import PARAMETER_SET, open_system, write_ssp_folder
from .interfaces import refuse_what_it_cannot_run

__all__ = ["run_ecos"]

_LOG_LEVELS = ("trace", "debug", "info", "warn", "err", "off")
_CHUNK = 500  # steps between the checks for non-finite values


def _ecospy():
    if sys.platform.startswith("linux"):
        for lib in (Path(sys.prefix) / "lib" / "libtbb.so.12", Path(sys.base_prefix) / "lib" / "libtbb.so.12"):
            if lib.is_file():
                ctypes.CDLL(str(lib), mode=ctypes.RTLD_GLOBAL)
                break
        else:
            found = ctypes.util.find_library("tbb")
            if found:
                ctypes.CDLL(found, mode=ctypes.RTLD_GLOBAL)
    try:
        # ecospy, an optional host, only where it runs
        import ecospy
    except (ImportError, OSError) as exc:
        raise CraneCosimError(f"running under ecos needs the Python packages ecospy and tbb, and ecospy cannot be "
                              f"imported ({exc}); install them with 'pip install ecospy tbb'") from None
    if shutil.which("unzip") is None:
        raise CraneCosimError("ecos unpacks FMUs with the unzip program, which is not on the PATH; install it "
                              "(e.g. apt-get install unzip)")
    return ecospy


def run_ecos(system, outputs: list[str] | None = None, log_level: str = "warn", timing: dict | None = None):
    """Co-simulate with ecos's fixed-step algorithm and return a
    :class:`pandas.DataFrame` shaped as :func:`~crane_cosim.hosts.libcosim.run_libcosim`'s:
    a ``time`` column (every communication point from the start time) and
    one ``component.variable`` column per output, in the order of
    :func:`~crane_cosim.runtime.run.run_cosim` (or the ``outputs`` given).

    ``system`` is a :class:`~crane_cosim.runtime.system.System`, or the path of a
    ``.ssd`` file, a folder holding one or an ``.ssp`` archive, read with
    :func:`~crane_cosim.ssp.open_system` (an archive is checked and
    extracted safely).  The run makes ``ceil((stop - start) / step)`` full
    steps of the system's step size, as libcosim's.  ``log_level`` sets
    ecos's console log level (it prints to standard output).  ``timing``,
    a dict, receives ``stepping_s`` (the wall time of the stepping alone:
    ``step`` with the listener recording the ``outputs``; writing the
    system, loading and initializing left out) and ``steps``
    (``crane-cosim bench --hosts``).

    Raises :class:`CraneCosimError` if ecospy, tbb or ``unzip`` is missing, if
    ecos rejects the system, or if a value turns non-finite.
    """
    if isinstance(system, System):
        return _run_ecos(system, outputs, log_level, timing)
    with open_system(system) as opened:
        return _run_ecos(opened.system, outputs, log_level, timing)


def _run_ecos(system: System, outputs, log_level: str, timing: dict | None = None):
    if log_level not in _LOG_LEVELS:
        raise CraneCosimError(f"unknown log level {log_level!r}; use one of {', '.join(_LOG_LEVELS)}")
    if system.start_time < 0:
        raise CraneCosimError(f"ecos runs start at t >= 0, but system {system.name!r} starts at "
                              f"t = {system.start_time:g} s")
    ecospy = _ecospy()
    prepare_fmus(system)
    # the master's own checks first: files, names, types, units, values
    plan = plan_of(system)
    refuse_what_it_cannot_run(plan, "ecos")
    if plan.multi_rate:
        raise CraneCosimError(f"system {system.name!r} has components of their own steps, which this runner "
                              f"does not give ecos; run it under our master or libcosim")
    connections = plan.connections
    variables = {p.name: p.model.variables for p in plan.parts}
    if outputs is None:
        outputs = [f"{p.name}.{v.name}" for p in plan.parts for v in p.outputs if v.type == "Real"]
    for ref in outputs:
        comp, _, name = ref.partition(".")
        if comp not in variables:
            raise CraneCosimError(f"system {system.name!r} has no component {comp!r}{did_you_mean(comp, variables)}")
        v = variables[comp].get(name)
        if v is None:
            raise CraneCosimError(f"component {comp} has no variable {name!r}{did_you_mean(name, variables[comp])}")
        if v.type != "Real":
            raise CraneCosimError(f"{ref} is not a Real variable")
    ids = [ref.replace(".", "::", 1) for ref in outputs]  # ecos names variables instance::variable

    n_steps = plan.n_steps
    rows = np.full((n_steps + 1, len(ids)), np.nan)
    done = [0]
    ecospy.EcosLib.set_log_level(log_level)
    with tempfile.TemporaryDirectory(prefix="crane_cosim_ecos_") as tmp:
        copy = System(system.name, start_time=system.start_time, stop_time=system.stop_time, step=system.step,
                      algorithm=system.algorithm, coupling="inertia", extrapolation=system.extrapolation,
                      base_dir=system.base_dir)
        for c in system.components:
            copy.add_component(c.name, str(system.source_path(c)), **c.parameters)
        copy.connections = connections
        folder = write_ssp_folder(copy, Path(tmp) / "ssp").parent
        try:
            sim = ecospy.EcosSimulation(ssp_path=str(folder), step_size=system.step)
        except Exception as exc:
            raise CraneCosimError(f"ecos cannot load system {system.name!r}: {exc}") from None
        with sim:
            get = sim.get_real

            failed = []

            class Recorder(ecospy.SimulationListener):
                def post(self, info):  # after each step, its exchange, and the outputs read again
                    # an exception would be lost in the C callback: keep it for after the step
                    try:
                        k = done[0] + 1
                        if k <= n_steps:
                            rows[k] = [get(i) for i in ids]
                        done[0] = k
                    except Exception as exc:
                        failed.append(exc)

            if not sim.init(system.start_time, parameter_set=PARAMETER_SET):
                raise CraneCosimError(f"ecos cannot initialize system {system.name!r}: "
                                      f"{ecospy.EcosLib.get_last_error() or 'no message'}")
            try:
                rows[0] = [get(i) for i in ids]
            except Exception as exc:
                raise CraneCosimError(f"ecos cannot read the outputs of system {system.name!r}: {exc}") from None
            sim.add_listener("crane_cosim_recorder", Recorder())
            t0 = perf_counter()
            try:
                while done[0] < n_steps:
                    before = done[0]
                    sim.step(min(_CHUNK, n_steps - before))
                    if failed:
                        raise CraneCosimError(f"ecos cannot read the outputs of system {system.name!r}: "
                                              f"{failed[0]}")
                    if done[0] == before:
                        raise CraneCosimError(f"ecos made no step from t = "
                                              f"{system.start_time + before * system.step:g} s")
                    bad = ~np.isfinite(rows[:done[0] + 1])
                    if bad.any():
                        r, c = np.argwhere(bad)[0]
                        raise CraneCosimError(f"under ecos, {outputs[c]} is {rows[r, c]} at "
                                              f"t = {system.start_time + r * system.step:g} s")
                if timing is not None:
                    timing.update(stepping_s=perf_counter() - t0, steps=n_steps)
            finally:
                sim.terminate()
    time = system.start_time + np.arange(n_steps + 1) * system.step
    return pd.DataFrame({"time": time, **{o: rows[:, j] for j, o in enumerate(outputs)}})
