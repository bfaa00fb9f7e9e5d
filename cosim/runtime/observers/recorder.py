"""``results.arrows`` of a co-simulation: the chosen outputs at every
``record_every``-th communication point and the last, written as the run
goes (``runtime/runlog.py``, ``files/results_stream.py``), each column of
its FMI type's Arrow type (a real as float64, an Integer or Enumeration as
int64, a Boolean as bool, a String as string) with its unit, type and role
in the file's metadata and in ``summary.json``.  A row costs the master a
copy of the outputs into the writer's buffer; the conversion to Arrow is
once per written batch."""
from __future__ import annotations

import numpy as np

from . import Observer

__all__ = ["Recorder"]


class Recorder(Observer):
    """Writes the columns ``chosen`` (indices into ``plan.columns``) of every
    ``every``-th base point, and the last, through ``log`` (a
    :class:`~runtime.runlog.RunLog`)."""

    def __init__(self, log, plan, chosen: list[int], every: int):
        self.log, self.plan, self.every, self.n_steps = log, plan, every, plan.n_steps
        self._section = {}
        variables = plan.column_variables
        names = plan.columns
        self.variables = [variables[i] for i in chosen]
        self.names = [names[i] for i in chosen]
        # where each chosen column's value is: the concatenated numeric outputs, or a part's Strings
        numeric, strings = [], []
        offset = 0
        where = {}
        for k, part in enumerate(plan.parts):
            for j, v in enumerate(part.outputs):
                where[id(v)] = ("n", offset + j)
            for j, v in enumerate(part.string_outputs):
                where[id(v)] = ("s", (k, j))
            offset += len(part.outputs)
        for position, v in enumerate(self.variables):
            kind, at = where[id(v)]
            (numeric if kind == "n" else strings).append((position, at))
        self.all_numeric = len(numeric) == offset and not strings
        self.numeric_pick = np.array([a for _, a in numeric], dtype=int)
        self.strings = strings
        #: the rows of steps made in one call of the algorithm recorded at once (no String column to pick)
        self.batched = not strings
        self._row_pick = np.concatenate([[0], 1 + self.numeric_pick])

    def values(self, execution):
        """The numeric columns' values (floats, in their order) and the
        String columns' (texts, in theirs)."""
        y = np.concatenate(self.ys)
        if self.all_numeric:
            return y, ()
        texts = [execution.instances[k].sy[j] for _, (k, j) in self.strings]
        return y[self.numeric_pick], texts

    def instantiated(self, execution) -> None:
        #: the instances' output arrays (each bound once and filled in place)
        self.ys = [inst.y for inst in execution.instances]
        v = self.variables
        self.log.open(self.names, [x.unit for x in v], types=[x.type for x in v], roles=[x.role for x in v])

    def started(self, execution) -> None:
        self.log.record(execution.t, *self.values(execution))
        # the wall clock and the time in FMI calls both count from here: the
        # set-up's calls (the first evaluations, a kernel loaded) are not the run's
        for inst in execution.instances:
            inst.fmi_time = 0.0
        self.log.started()

    def step_complete(self, execution) -> None:
        k = execution.k
        if k % self.every == 0 or k == self.n_steps:  # runtime/recording.py's recorded(), inline: every step
            if self.all_numeric:
                self.log.record_parts(execution.t, self.ys)
            else:
                self.log.record(execution.t, *self.values(execution))
        else:
            self.log.t = execution.t
        self.log.steps = k

    def rows_complete(self, execution, rows) -> None:
        k = execution.k
        if self.every > 1:
            ks = np.arange(k - len(rows) + 1, k + 1)
            rows = rows[(ks % self.every == 0) | (ks == self.n_steps)]
        if len(rows):
            self.log.record_rows(rows if self.all_numeric else rows[:, self._row_pick])
        self.log.t = execution.t
        self.log.steps = k

    def finished(self, execution, error) -> None:
        # the point the run stopped at, where every component is there: between
        # two steps (an interrupt), or at the end of the step that ended it; a
        # step ended in its middle has components past it, and is not written
        stopped = isinstance(error, KeyboardInterrupt) or (execution.ended is not None
                                                            and execution.ended.completed)
        if stopped and self.log.writer is not None and execution.k and self.log.recorded_t != execution.t:
            self.log.record(execution.t, *self.values(execution))
        self._section = {"fmi_call_time_s": sum(inst.fmi_time for inst in execution.instances),
                         "fmi_call_time_by_component_s": {inst.name: inst.fmi_time for inst in execution.instances},
                         "fmi_steps_by_component": {inst.name: inst.steps_made for inst in execution.instances},
                         **(execution.algorithm.summary() if execution.algorithm is not None else {})}
        if execution.ended is not None:
            self.log.ended(str(execution.ended))

    def summary(self) -> dict:
        """The time inside FMI calls [s] and the steps of each component,
        and what the algorithm learnt (its passes, which step ran)."""
        return self._section
