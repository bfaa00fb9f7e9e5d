"""A run's limit in wall-clock time (``--timeout``, as FMPy's and
OMSimulator's): once the run has taken that long it stops between two
steps, its results so far and its summary on disk, and fails saying so."""
from __future__ import annotations

import time

from ...errors import CraneCosimError
from . import Observer

__all__ = ["Deadline"]


class Deadline(Observer):
    """Stops the run once ``seconds`` of wall-clock time have passed since
    its set-up (the FMUs built), looking every ``period`` steps as
    :class:`~.progress.Interrupts` does."""

    period = 200

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def check(self, t: float) -> None:
        """Raise :class:`CraneCosimError` if the time is up, the run at ``t`` [s]
        (the monolithic run asks between two points)."""
        if time.monotonic() > self.end:
            raise CraneCosimError(f"the run stopped at t = {t:g} s: its --timeout of {self.seconds:g} s of "
                                  f"wall-clock time ran out")

    def started(self, execution) -> None:
        self.check(execution.t)

    def step_complete(self, execution) -> None:
        self.check(execution.t)
