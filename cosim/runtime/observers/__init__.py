"""Observers of an execution (``runtime/execution.py``): what a run does
beside stepping, each told when the FMUs are instantiated, when the run
starts, after every base step (or every ``period`` steps) and when it ends.

* :class:`~.recorder.Recorder`: ``results.arrows`` and the summary's figures;
* :class:`~.estimate.Estimate`: the coupling error, from a run at half the step;
* :class:`~.pacing.Pacing`: each communication point at its wall-clock deadline;
* :class:`~.progress.Progress`: the progress bar;
* :class:`~.progress.Interrupts`: Ctrl-C and SIGTERM, acted on between two steps;
* :class:`~.deadline.Deadline`: the run's limit in wall-clock time (``--timeout``);
* :class:`~.fmi_messages.FmiMessages`: the FMUs' own messages as they come (``--fmi-logging``);
* :class:`~.bridges.Bridges`: the counters of the UDP bridges to other processes, and a warning for a peer that never answered;
* :class:`~.model_range.ModelRange`: a warning where a component's model leaves the range it holds in.

``docs/master.md`` says how to add one.
"""
from __future__ import annotations

__all__ = ["Observer"]


class Observer:
    """The interface; every method does nothing unless overridden.
    ``period``: :meth:`step_complete` is called every ``period`` base steps."""

    period = 1
    #: whether :meth:`rows_complete` may stand for :meth:`step_complete`
    #: when the algorithm makes several steps in one call
    #: (``Algorithm.steps``); an observer that does nothing after a step
    #: need not say
    batched = False

    def instantiated(self, execution) -> None:
        """The FMUs are instantiated and initialized; no output is exchanged yet."""

    def started(self, execution) -> None:
        """The outputs at the start time are exchanged; the first step is next."""

    def step_complete(self, execution) -> None:
        """Base step ``execution.k`` is made; the time is ``execution.t``."""

    def rows_complete(self, execution, rows) -> None:
        """Base steps up to ``execution.k`` are made, ``len(rows)`` of them
        in one call of the algorithm; ``rows``: per step, the time [s] at
        its end and every component's outputs there, one after another
        (called only where :attr:`batched`; a view the algorithm's next call
        overwrites: copy what is kept)."""

    def finished(self, execution, error) -> None:
        """The run ended: at the stop time, where a component asked to end
        it (``execution.ended``), or by ``error`` (an exception, which
        propagates after every observer is told)."""

    def summary(self) -> dict:
        """Its sections of ``summary.json``, by key, asked once after
        :meth:`finished` (a ``"warnings"`` list joins the others'); the
        run's log owns the file and writes them (``runtime/runlog.py``)."""
        return {}
