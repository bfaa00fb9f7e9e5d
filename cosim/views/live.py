"""A live view of a run in the loop: ``run --view`` serves the animation's
page on a local port (loopback by default) and moves it while the run goes.

The view runs in a process of its own (``live_server.py``), so that its
drawing and serving never hold the run's interpreter: in the run's thread
a step costs a comparison of the clock and, at most :data:`LIVE_RATE`
times a second of the wall clock, a copy of the outputs into memory the
two processes share (a sequence number odd while it is written, so that
the view never reads half a copy).  The view draws the latest copy and
sends it to every page that listens; a page applies the latest at the
screen's next refresh.  The pacing's figures of a paced run show what it
costs the steps (``docs/animation.md``).
"""
from __future__ import annotations

import ipaddress
import multiprocessing
import sys
import time
from multiprocessing import shared_memory

import numpy as np

from ..errors import CraneCosimError
from ..runtime.observers import Observer
from . import LIVE_ADDRESS
from .live_server import ENDED, OUTPUTS, SEQ, TIME, serve

__all__ = ["LiveView", "LIVE_RATE", "live_view", "parse_address"]

#: copies a second of the wall clock, at most: a screen's rate
LIVE_RATE = 25.0
#: how long the view's process may take to start serving [s]
START_TIMEOUT = 60.0


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` as ``(host, port)``; one sentence where it is not one."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or LIVE_ADDRESS[0]
    try:
        number = int(port)
        ipaddress.ip_address(host)
        if not 0 <= number < 65536:
            raise ValueError
    except ValueError:
        raise CraneCosimError(f"--view {text}: give [HOST:]PORT, an IP address and a port from 0 to 65535 "
                              f"(0: any free one), e.g. 127.0.0.1:8765") from None
    return host, number


class LiveView(Observer):
    """The run's side of the live view of ``plan`` (its ``components`` as
    ``summary.json`` has them), served at ``address`` by a process it
    starts; :attr:`url` says where, and :attr:`figures` (its section of the
    summary) the address and the copies made."""

    batched = True

    def __init__(self, plan, components: dict, title: str, address=LIVE_ADDRESS, rate: float = LIVE_RATE):
        names = [f"{part.name}.{v.name}" for part in plan.parts for v in part.outputs]
        self.interval, self.due, self.copies, self.t_copied = 1.0 / rate, 0.0, 0, None
        self.figures = {}
        self.memory = shared_memory.SharedMemory(create=True, size=8 * (OUTPUTS + len(names)))
        self.shared = np.ndarray(OUTPUTS + len(names), dtype=float, buffer=self.memory.buf)
        self.shared[:] = 0.0
        context = multiprocessing.get_context("spawn")  # never fork a process that holds FMUs and threads
        mine, theirs = context.Pipe()
        self.process = context.Process(target=serve, name="crane-cosim live view", daemon=True,
                                       args=(tuple(address), components, names, title, self.memory.name, rate, theirs))
        self.process.start()
        theirs.close()
        if not mine.poll(START_TIMEOUT):
            self._close()
            raise CraneCosimError(f"--view: the live view did not start serving within {START_TIMEOUT:g} s")
        kind, said = mine.recv()
        if kind == "error":
            self._close()
            raise CraneCosimError(said)
        self.url = self.figures["url"] = said

    # -- the run's thread: a clock comparison a step, a copy now and then ----
    def instantiated(self, execution) -> None:
        self.ys = [inst.y for inst in execution.instances]

    def started(self, execution) -> None:
        self._copy(execution.t, np.concatenate(self.ys))

    def step_complete(self, execution) -> None:
        if time.perf_counter() >= self.due:
            self._copy(execution.t, np.concatenate(self.ys))

    def rows_complete(self, execution, rows) -> None:
        if time.perf_counter() >= self.due:
            self._copy(float(rows[-1, 0]), rows[-1, 1:])

    def finished(self, execution, error) -> None:
        # the end's state, unless the last copy was of that instant already
        # (a page would get the same time twice)
        if getattr(self, "ys", None) is not None and execution.t != self.t_copied:
            self._copy(execution.t, np.concatenate(self.ys))
        self.shared[ENDED] = 1.0
        self.figures.update(copies=self.copies, copies_per_s_at_most=1 / self.interval)
        # the view tells the pages the run ended, then stops
        self.process.join(timeout=5.0)
        self._close()

    def summary(self) -> dict:
        """Where it served and the copies it made."""
        return {"live_view": self.figures}

    def _copy(self, t: float, y: np.ndarray) -> None:
        shared = self.shared
        shared[SEQ] += 1.0  # odd: being written
        shared[TIME] = t
        shared[OUTPUTS:] = y
        shared[SEQ] += 1.0
        self.t_copied = t
        self.due = time.perf_counter() + self.interval
        self.copies += 1

    def _close(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=2.0)
        self.shared = None
        self.memory.close()
        self.memory.unlink()


def live_view(address=LIVE_ADDRESS):
    """An observer of :func:`~runtime.run.run_cosim` (its ``observers``):
    the live view of the run served at ``address`` (``(host, port)``),
    where it is said on stderr; ``summary.json`` gets its figures under
    ``"live_view"`` (:meth:`LiveView.summary`)."""
    def make(plan, log) -> LiveView:
        view = LiveView(plan, log.summary["components"], plan.name, address)
        print(f"live view: {view.url} (open it in a browser; it follows the run while it goes)", file=sys.stderr,
              flush=True)
        return view
    return make
