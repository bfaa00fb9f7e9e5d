"""The progress bar of a run, and Ctrl-C and SIGTERM acted on between two
steps.

The FMUs' Python code runs in this interpreter; a ``KeyboardInterrupt``
raised inside it would turn into an FMU failure (fatal in pythonfmu), so
the signals are only noted while the FMUs are in use (:class:`DeferredSignals`),
and :class:`Interrupts` stops the run at the end of the step in which one
came: ``KeyboardInterrupt``, or :class:`~crane_cosim.errors.Terminated`
for SIGTERM (which would otherwise end the process at once, leaving no
summary)."""
from __future__ import annotations

import signal
import threading

from ...errors import Terminated
from . import Observer

__all__ = ["Progress", "Interrupts", "DeferredSignals"]


class Progress(Observer):
    """Moves the run log's bar every ``period`` steps (``runtime/runlog.py``)."""

    period = 200

    def __init__(self, log, step: float):
        self.log, self.dt = log, self.period * step

    def step_complete(self, execution) -> None:
        self.log.advanced(self.dt)


class DeferredSignals:
    """Context manager: SIGINT and SIGTERM noted (``signal``), not raised."""

    def __enter__(self):
        self.signal = None
        self._old = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._note)
        return self

    def _note(self, signum, frame):
        if self.signal is None or signum == signal.SIGTERM:  # terminate outranks interrupt
            self.signal = signum

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def stop(self):
        raise Terminated() if self.signal == signal.SIGTERM else KeyboardInterrupt()

    def __exit__(self, exc_type, exc, tb):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        if exc_type is None and self.signal is not None:
            # noted after the last look between two steps (or while the
            # FMUs were freed): acted on now, not dropped
            self.stop()
        return False


class Interrupts(Observer):
    """Stops the run between two steps when :class:`DeferredSignals`
    ``signals`` noted one, looking every ``period`` steps (0.2 s of a run at
    1 ms: a signal is acted on within that, at no cost to the other steps)."""

    period = 200

    def __init__(self, signals: DeferredSignals):
        self.signals = signals

    def started(self, execution) -> None:
        if self.signals.signal is not None:
            self.signals.stop()

    def step_complete(self, execution) -> None:
        if self.signals.signal is not None:
            self.signals.stop()
