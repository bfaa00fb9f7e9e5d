"""Compiling the blocks' numba kernels before a run, with a word to the user.

The hot paths of the knuckle boom crane, the flexible crane, the
torque-driven crane of Cibicik & Egeland (2018) and its vessel, the
spring-supported base, the joints' friction and the hydraulic cylinder are
compiled by numba the first time they run on a machine (``blocks/jit.py``): up to a minute and
a half in which a run would otherwise sit silent.  :func:`warm_up` does that
compilation up front when the cache does not hold it yet, saying what
happens, how long it takes roughly and where the result is kept, with a bar
over the kernel functions on a terminal (one line per function elsewhere,
e.g. in a log file).  With a warm cache it prints nothing and costs a
fraction of a second.  The monolithic run compiles two kernel modules of
its own besides (``warm_up(..., monolithic=True)``): the flexible crane's
loop with its base and friction (:data:`MONOLITHIC_KERNELS`).
"""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from ..blocks import BLOCKS
from ..blocks import jit, stepping
from ..blocks.compile_lock import compiling_alone

#: blocks whose hot path numba compiles (their kernel module is the block's
#: ``kernel_module``): model name -> (what to call it, how long it takes).
#: Measured on 2026-11-27 on the 2-core AMD EPYC VM of docs/benchmarks.md,
#: from a cold cache (a fresh CRANE_COSIM_CACHE_DIR each), kernels and whole
#: step: the knuckle boom crane 28.8 s nearly idle, 36 s in the demo, 39 s
#: beside two other compilations, 92 s reported beside the test suite; the
#: flexible crane 21.9 s; the torque-driven crane 8.7 s; the vessel 6.8 s
#: idle, 8 s in the demo, 14.3 s beside two compilations, 17 s reported
#: beside the suite; the hydrodynamic vessel 9.9 s; the supported base
#: 8.9 s; the friction 2.3 s and 3.4 s (knuckle boom), 4 s in the demo; the
#: hydraulic cylinder 2.1 s, 4 s in the demo.  A busy machine takes up to
#: three times as long, hence the ranges.
#: The two friction blocks share one kernel module, compiled once
COMPILED_BLOCKS = {"KnuckleBoomCrane": ("the knuckle boom crane", "30 s to 1.5 min"),
                   "FlexibleCrane": ("the flexible crane", "20 s to 1 min"),
                   "Crane": ("the torque-driven crane", "10 to 30 s"),
                   "Vessel": ("the vessel", "7 to 20 s"),
                   "HydroVessel": ("the hydrodynamic vessel", "10 to 30 s"),
                   "SupportedBase": ("the spring-supported base", "10 to 30 s"),
                   "JointFriction": ("the joints' friction", "a few seconds"),
                   "KnuckleBoomFriction": ("the joints' friction", "a few seconds"),
                   "HydraulicCylinder": ("the hydraulic cylinder", "a few seconds")}


#: kernel modules the monolithic run compiles besides the blocks' own:
#: module -> (what to call it, how long it takes, the models any of which
#: need it, the models all of which need it); measured on 2026-11-27 on the
#: 2-core VM of docs/benchmarks.md from a cold cache: the loop 24 s beyond
#: its three blocks' own kernels (57.4 s with them)
MONOLITHIC_KERNELS = {
    "flexible_crane_loop_kernels": ("the flexible crane's loop with its base and friction", "25 s to 1 min", set(),
                                    {"FlexibleCrane", "SupportedBase", "JointFriction"}),
}


def models_of(system) -> set[str]:
    """Model names of the project's blocks behind ``system``'s components (an
    FMU not yet built counts by its file name; foreign FMUs are left out)."""
    from ..runtime.model import our_model_name

    models = set()
    for comp in system.components:
        try:
            model = our_model_name(system.source_path(comp))
        except Exception:  # an unreadable FMU is reported by the run itself
            model = None
        if model:
            models.add(model)
    return models


def models_of_plan(plan) -> set[str]:
    """Model names of the project's blocks behind a plan's components."""
    return {p.model.ours for p in plan.parts if p.model is not None and p.model.ours}


def to_compile(models) -> list[str]:
    """Those of ``models`` whose kernels, or whose compiled whole step
    (``blocks/stepping.py``), the cache does not hold yet, one for each
    kernel module (the two friction blocks share theirs)."""
    chosen = {}
    for m in sorted(models):
        module = BLOCKS[m].kernel_module if m in COMPILED_BLOCKS else None
        if module is not None and module not in chosen and not _compiled(module):
            chosen[module] = m
    return list(chosen.values())


def _compiled(module: str) -> bool:
    return jit.kernels_compiled(module) and stepping.step_compiled(module)


def monolithic_to_compile(models) -> list[str]:
    """The kernel modules of :data:`MONOLITHIC_KERNELS` the monolithic run of
    ``models`` needs and the cache does not hold yet."""
    models = set(models)
    return [name for name, (_, _, any_of, all_of) in MONOLITHIC_KERNELS.items()
            if (models & any_of or (all_of and all_of <= models)) and not jit.kernels_compiled(name)]


def _compile_monolithic(name: str) -> None:
    from ..hosts.crane_loop import compile_loop
    compile_loop()


#: what the master's compiled step is called, and how long it takes to
#: compile (measured on 2026-11-27 on the 2-core VM of docs/benchmarks.md
#: from a cold cache: 41.5 s nearly idle, 38 s in the demo and beside two
#: other compilations)
MASTER_STEP = ("the master's step (the iterated midpoint and quadratic)", "40 s to 1.5 min")


def master_to_compile() -> bool:
    """Whether the master's compiled step (``runtime/compiled``) is to be
    compiled: numba on, and its machine code not in the cache."""
    if jit._numba() is None:
        return False
    from ..runtime.compiled import step
    return not jit.dispatcher_cached(step.midpoint_steps, Path(step.__file__))


def _compile_master() -> None:
    from ..runtime.compiled import cache, qn, step
    with compiling_alone([step.midpoint_steps], cache.folder()):
        step.midpoint_steps.compile(step.SIGNATURE)
    # the fit whole, which the Python algorithm's quasi-Newton model calls (the compiled step its parts)
    qn.least_squares.compile(qn.LEAST_SQUARES_SIGNATURE)


def _master_functions() -> tuple[list[str], tuple[str, ...]]:
    """The names of the functions numba compiles for the master's step, and
    the modules that hold them (not those inlined into their callers,
    which it never compiles alone)."""
    import importlib

    from numba.core.registry import CPUDispatcher

    from ..runtime.compiled import cache
    compiled = [importlib.import_module(f"{cache.__package__}.{name}") for name in cache.MODULES]
    return [name for m in compiled for name, v in vars(m).items()
            if isinstance(v, CPUDispatcher) and v.py_func.__module__ == m.__name__
            and v.targetoptions.get("inline") != "always"], tuple(m.__name__ for m in compiled)


def warm_up(models, stream=None, monolithic: bool = False, master: bool = False) -> list[str]:
    """Compile the kernels of those ``models`` (block model names) that the
    cache does not hold yet, with ``monolithic`` the kernel modules the
    monolithic run of them needs (:data:`MONOLITHIC_KERNELS`), and with
    ``master`` the master's compiled step (:data:`MASTER_STEP`), telling
    ``stream`` (default: stderr) what is happening.  Returns the models and
    modules compiled (empty with a warm cache; ``"master"`` for the
    master's step)."""
    stream = stream or sys.stderr
    todo = to_compile(models)
    for model in todo:
        what, duration = COMPILED_BLOCKS[model]
        module = BLOCKS[model].kernel_module
        functions = (*jit.kernel_functions(module), *stepping.step_functions(module))
        if jit.kernels_compiled(module):  # the whole step alone, made anew
            what, duration, functions = f"the whole step of {what}", "a few seconds", stepping.step_functions(module)
        _compile(what, duration, module, BLOCKS[model]().prepare, stream, functions)
    extra = monolithic_to_compile(models) if monolithic else []
    for name in extra:
        what, duration, _, _ = MONOLITHIC_KERNELS[name]
        _compile(what, duration, name, lambda: _compile_monolithic(name), stream)
    if master and master_to_compile():
        from ..runtime.compiled import step
        functions, modules = _master_functions()
        # numba's own place for a module's cache: beside it, else a folder of the user's
        kept = getattr(getattr(step.midpoint_steps, "_cache", None), "_cache_path", None)
        _compile(*MASTER_STEP, None, _compile_master, stream, functions, modules, kept)
        extra = extra + ["master"]
    return todo + extra


def _compile(what: str, duration: str, kernels, action, stream, functions=None, modules=None, kept=None) -> None:
    """``action()``, which compiles the kernel module ``kernels`` (its
    ``functions``, default all; or, given ``modules``, those ``functions``
    of the modules of those names, kept in the folder ``kept``), with the
    word and the bar."""
    print(f"compiling {what} with numba ({duration}, {jit.kept_where(kept)}) ...", file=stream, flush=True)
    t0 = time.perf_counter()
    total = len(functions) if functions is not None else len(jit.kernel_functions(kernels))
    with _KernelProgress(total, stream) as progress, jit.compile_events(kernels, progress.event, modules):
        action()
    print(f"compiled {what} in {time.perf_counter() - t0:.0f} s", file=stream, flush=True)


class _KernelProgress:
    """A bar over the kernel functions, naming the one being compiled.

    numba holds the interpreter for seconds at a time while it compiles one
    function, and tqdm redraws only when told; a small thread redraws every
    second so that the elapsed time keeps moving.  Where ``stream`` is not a
    terminal, a line per finished function instead."""

    def __init__(self, total: int, stream):
        self.total = total
        self.stream = stream
        self.finished: set[str] = set()
        self.running: list[str] = []
        self.bar = None
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        if getattr(self.stream, "isatty", lambda: False)():
            from tqdm import tqdm
            self.bar = tqdm(total=self.total, file=self.stream, leave=False, desc=self._desc(),
                            bar_format="{desc} |{bar}| {n}/{total} kernel functions [{elapsed}]")
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()
        self._t0 = time.perf_counter()
        return self

    def _desc(self) -> str:
        # the longest kernel name has 18 characters: the bar stays in place
        return f"  compiling {self.running[-1] if self.running else '':18}"

    def _tick(self):
        while not self._stop.wait(1.0):
            self.bar.refresh()

    def event(self, kind: str, function: str) -> None:
        if kind == "start":
            self.running.append(function)
        else:
            if function in self.running:
                self.running.remove(function)
            # a function compiled for a second signature counts once
            new = function not in self.finished
            self.finished.add(function)
            if self.bar is None and new:
                print(f"  compiled {function} ({len(self.finished)}/{self.total}, "
                      f"{time.perf_counter() - self._t0:.0f} s)", file=self.stream, flush=True)
        if self.bar is not None:
            self.bar.n = len(self.finished)
            self.bar.set_description_str(self._desc(), refresh=True)

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.bar is not None:
            self.bar.close()
        return False
