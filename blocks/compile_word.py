"""The word before numba compiles, and the bar while it does.

numba compiles a kernel module the first time it runs on a machine (``jit.py``),
for up to a minute and a half in which a run would otherwise sit silent.
:func:`compile_with_word` says what is compiled, how long it takes roughly
and where the result is kept, draws a bar over the functions on a terminal
(a line per function elsewhere, e.g. in a log file), and closes with the
time taken.  The blocks' warm-up (``warm_up.py``), the master's
(``runtime/compiled/master_warm_up.py``) and the monolithic loop's
(``monolithic/crane_loop.py``) use it.
"""
from __future__ import annotations

import sys
import threading
import time

from . import jit

__all__ = ["compile_with_word", "KernelProgress"]


def compile_with_word(what: str, duration: str, kernels, action, stream=None, functions=None, modules=None,
                      kept=None) -> None:
    """``action()``, which compiles the kernel module ``kernels`` (its
    ``functions``, default all; or, given ``modules``, those ``functions``
    of the modules of those names, kept in the folder ``kept``), with the
    word and the bar on ``stream`` (default: stderr)."""
    stream = stream or sys.stderr
    print(f"compiling {what} with numba ({duration}, {jit.kept_where(kept)}) ...", file=stream, flush=True)
    t0 = time.perf_counter()
    total = len(functions) if functions is not None else len(jit.kernel_functions(kernels))
    with KernelProgress(total, stream) as progress, jit.compile_events(kernels, progress.event, modules):
        action()
    print(f"compiled {what} in {time.perf_counter() - t0:.0f} s", file=stream, flush=True)


class KernelProgress:
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
            # tqdm only where a bar is drawn (never in an FMU's process)
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
