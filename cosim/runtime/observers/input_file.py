"""Inputs driven from a file (``run --input``, ``runtime/input_table.py``):
at the start and after every base step, each input the table drives is set
to the table's value at that time, held over the step that starts there
(as FMPy sets a co-simulation FMU's inputs from a file)."""
from __future__ import annotations

from ..input_table import input_targets, sampled
from ..types import FAMILY
from . import Observer

__all__ = ["InputFile"]


class InputFile(Observer):
    """Sets the inputs ``table`` drives in ``plan``'s run."""

    def __init__(self, table, plan):
        self.table = table
        self.targets, _ = input_targets(table, plan)   # the plan has named any problem
        self.last = {}

    def started(self, execution) -> None:
        self._set(execution)

    def step_complete(self, execution) -> None:
        self._set(execution)

    def _set(self, execution) -> None:
        t = execution.t
        for target in self.targets:
            raw = sampled(self.table.times, self.table.columns[target.column], t, target.linear)
            value = target.factor * raw + target.offset
            family = FAMILY.get(target.var.type)
            if family == "boolean":
                value = bool(value)
            elif family in ("integer", "enumeration"):
                value = int(round(value))
            if self.last.get(target.column) != value:
                execution.instances[target.part].set_during_run(target.var, value)
                self.last[target.column] = value

    def summary(self) -> dict:
        return {"inputs_from_file": {"file": self.table.path, "columns": [t.column for t in self.targets]}}
