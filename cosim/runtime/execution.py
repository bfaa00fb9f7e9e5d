"""An execution: a plan's FMUs instantiated, initialized and stepped by its
algorithm, with observers told of every step (the shape of OSP libcosim's
execution, its algorithm and its observers).

    execution = Execution(plan, folder)
    execution.run([Recorder(log, ...), Progress(...)])

The loop is the algorithm's base step and the observers' turn, nothing
else: recording, the estimate of the coupling error, pacing to the wall
clock, the progress bar and interrupts are observers
(``runtime/observers/``).  An observer that raises stops the run between
two steps (an interrupt, a tolerance that cannot be met); the observers
are told how the run ended in every case, and the FMUs are freed.
"""
from __future__ import annotations

from pathlib import Path

from .algorithms import ALGORITHMS
from .algorithms.base import exchange_initial
from .instance import Ended
from .loading import instantiate

__all__ = ["Execution"]


class Execution:
    """The run of ``plan`` (:class:`runtime.plan.Plan`), FMUs unzipped under
    ``folder``.  ``k``: base steps made; ``t`` [s]: the time reached;
    ``instances``: the FMUs in the plan's order; ``algorithm``: the
    algorithm, once started; ``ended``: the :class:`~runtime.instance.Ended`
    of a component that asked to end the simulation, else None."""

    def __init__(self, plan, folder):
        self.plan = plan
        self.folder = Path(folder)
        self.instances = []
        self.algorithm = None
        self.k = 0
        self.t = plan.settings.start_time
        self.ended = None
        self._ends = []  # filled by an instance whose completed step asked to end the simulation

    # -- the parts of a run ----------------------------------------------------------
    def instantiate(self) -> None:
        """Instantiate and initialize every component, in order."""
        start = self.plan.settings.start_time
        for part in self.plan.parts:
            inst = instantiate(part, self.folder)
            inst.ends = self._ends
            self.instances.append(inst)
            inst.initialize(start)

    def start(self) -> None:
        """Exchange the outputs at the start time and set up the algorithm."""
        exchange_initial(self.instances, self.plan, self.plan.settings.start_time)
        self.algorithm = ALGORITHMS[self.plan.settings.algorithm](self.plan, self.instances)

    def step(self) -> None:
        """One base step."""
        k, t = self.k, self.t
        t_next = self.algorithm.time_of(k + 1)
        self.algorithm.step(k, t, t_next - t)
        self.k, self.t = k + 1, t_next

    def close(self) -> None:
        for inst in self.instances:
            inst.free()

    # -- the whole run -------------------------------------------------------------------
    def run(self, observers=()) -> None:
        """Instantiate, start and step to the stop time, telling ``observers``
        (``observers.Observer``) as it goes; a component that asks to end
        the simulation ends it (``ended``): where the step that asked ends,
        or, if that step could not be completed, where it began."""
        error = None
        try:
            self.instantiate()
            for o in observers:
                o.instantiated(self)
            self.start()
            for o in observers:
                o.started(self)
            self._loop(observers)
        except Ended as ended:
            self.ended = ended
        except BaseException as exc:
            error = exc
            raise
        finally:
            try:
                for o in observers:
                    o.finished(self, error)
            finally:
                self.close()

    def _loop(self, observers) -> None:
        each = [o.step_complete for o in observers if o.period == 1]
        periodic = {}
        for o in observers:
            if o.period > 1:
                periodic.setdefault(o.period, []).append(o.step_complete)
        periodic = list(periodic.items())
        step, ends = self.algorithm.step, self._ends
        s = self.plan.settings
        start, h, stop, n = s.start_time, s.step, s.stop_time, self.plan.n_steps
        for k in range(self.k, n):
            t = self.t
            t_next = min(start + (k + 1) * h, stop)  # algorithm.time_of(k + 1)
            step(k, t, t_next - t)
            self.k, self.t = k + 1, t_next
            for f in each:
                f(self)
            for period, fs in periodic:
                if self.k % period == 0:
                    for f in fs:
                        f(self)
            if ends and self.k < n:
                # a component ended the simulation where this step ended: so does the run
                self.ended = ends[0]
                return
