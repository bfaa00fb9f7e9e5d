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

import numpy as np

from .algorithms import ALGORITHMS
from .algorithms.base import exchange_initial
from .instance import Ended
from .loading import instantiate
from .observers import Observer

__all__ = ["Execution", "BATCH"]

#: the most base steps made in one call by an algorithm that can make
#: several (``Algorithm.steps``): the Python around a call then costs a
#: fraction of a microsecond a step, and the rows of a call (165 outputs
#: of the offshore knuckle boom crane: 66 kB) stay in the processor's caches
BATCH = 50


class Execution:
    """The run of ``plan`` (:class:`runtime.plan.Plan`), FMUs unzipped under
    ``folder``, with ``out_of_process`` each in a process of its own.  ``k``: base steps made; ``t`` [s]: the time reached;
    ``instances``: the FMUs in the plan's order; ``algorithm``: the
    algorithm, once started (its compiled twin where one stands in for it,
    ``runtime/compiled/engine.py``); ``ended``: the :class:`~runtime.instance.Ended`
    of a component that asked to end the simulation, else None."""

    def __init__(self, plan, folder, out_of_process: bool = False):
        self.plan = plan
        self.folder = Path(folder)
        self.out_of_process = out_of_process
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
            inst = instantiate(part, self.folder, self.out_of_process, self.plan.settings.integration)
            inst.ends = self._ends
            self.instances.append(inst)
            inst.initialize(start)

    def start(self) -> None:
        """Exchange the outputs at the start time and set up the algorithm."""
        exchange_initial(self.instances, self.plan, self.plan.settings.start_time)
        algorithm = ALGORITHMS[self.plan.settings.algorithm](self.plan, self.instances)
        if algorithm.compiled_twin:
            # its compiled twin in its place, where one can stand in; imported
            # here: numba and the compiled package load only for a run that may use them
            from .compiled.engine import stand_in
            algorithm = stand_in(algorithm)
        self.algorithm = algorithm

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
        told = [o for o in observers if type(o).step_complete is not Observer.step_complete]
        each = [o for o in told if o.period == 1]
        periodic = {}
        for o in told:
            if o.period > 1:
                periodic.setdefault(o.period, []).append(o.step_complete)
        periodic = list(periodic.items())
        if self.algorithm.steps is not None and all(o.batched for o in each):
            return self._loop_in_batches(each, periodic)
        each = [o.step_complete for o in each]
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

    def _loop_in_batches(self, each, periodic) -> None:
        """:meth:`_loop` where the algorithm makes up to :data:`BATCH` steps
        a call (``Algorithm.steps``) and every observer told of each step
        takes their rows at once (``Observer.rows_complete``): a call ends
        where a periodic observer is due, so that it is told at the same
        steps as one step a call would tell it."""
        steps, ends = self.algorithm.steps, self._ends
        s = self.plan.settings
        start, h, stop, n = s.start_time, s.step, s.stop_time, self.plan.n_steps
        periods = [period for period, _ in periodic]
        while self.k < n:
            k = self.k
            last = min([n, k + BATCH] + [(k // p + 1) * p for p in periods])
            times = np.empty(last - k + 1)
            times[0] = self.t
            # algorithm.time_of(k + 1) ... of last, as the loop of single steps computes them, to the bit
            np.minimum(start + np.arange(k + 1, last + 1) * h, stop, out=times[1:])
            rows, error = steps(times)
            if len(rows):
                self.k, self.t = k + len(rows), float(times[len(rows)])
                for o in each:
                    o.rows_complete(self, rows)
                for period, fs in periodic:
                    if self.k % period == 0:
                        for f in fs:
                            f(self)
            if error is not None:
                raise error
            if ends and self.k < n:
                self.ended = ends[0]
                return
