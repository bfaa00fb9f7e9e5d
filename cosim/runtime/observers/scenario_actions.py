"""A scenario acted out (``runtime/scenario.py``): its events applied at
their communication points, the changes they make installed on the
instances they touch before the run starts, every change undone at the
scenario's end, and what acted listed in ``summary.json``."""
from __future__ import annotations

from ..scenario_targets import targets_of
from . import Observer

__all__ = ["ScenarioActions"]


class _Changes:
    """The changes of one instance: ``override`` and ``bias`` by index, of
    its inputs or of its outputs."""

    def __init__(self):
        self.override, self.bias = {}, {}

    def __call__(self, values):
        for i, v in self.override.items():
            values[i] = v
        for i, b in self.bias.items():
            values[i] += b
        return values

    def act(self, index: int, action: str, value) -> None:
        self.override.pop(index, None)
        self.bias.pop(index, None)
        if action == "override":
            self.override[index] = float(value)
        elif action == "bias":
            self.bias[index] = float(value)


class ScenarioActions(Observer):
    """Acts out ``scenario`` on the instances of ``plan``'s run."""

    def __init__(self, scenario, plan):
        self.scenario = scenario
        self.targets, _ = targets_of(scenario, plan)   # the plan has named any problem
        self.pending = [k for k, t in enumerate(self.targets) if t is not None]
        self.near = 1e-9 * plan.settings.step
        self.applied = []
        self.changed = {}     # (part, kind, index or name) -> what set variables held before
        self.inputs, self.outputs = {}, {}
        self.ended = False

    def instantiated(self, execution) -> None:
        for t in self.targets:
            if t is not None and t.kind in ("input", "output"):
                (self.inputs if t.kind == "input" else self.outputs).setdefault(t.part, _Changes())
        for k, inst in enumerate(execution.instances):
            if k in self.inputs or k in self.outputs:
                inst.change_values(self.inputs.get(k), self.outputs.get(k))

    def started(self, execution) -> None:
        self._act(execution)

    def step_complete(self, execution) -> None:
        self._act(execution)

    def _act(self, execution) -> None:
        t = execution.t
        end = self.scenario.end
        if end is not None and not self.ended and t >= end - self.near:
            self._undo_all(execution)
            return
        due = []
        for k in self.pending:
            e, target = self.scenario.events[k], self.targets[k]
            if e.time is not None:
                if e.time <= t + self.near:
                    due.append(k)
            else:
                part, index = target.watch
                value = execution.instances[part].y[index]
                if (value > e.when[3]) if e.when[2] == "above" else (value < e.when[3]):
                    due.append(k)
        for k in due:
            self.pending.remove(k)
            self._apply(execution, self.scenario.events[k], self.targets[k])
            self.applied.append({"time": t, "event": self.scenario.events[k].said()})

    def _apply(self, execution, e, target) -> None:
        if target.kind == "set":
            inst = execution.instances[target.part]
            key = (target.part, target.var.name)
            before = self.changed.setdefault(key, inst.part.values.get(target.var.name, target.var.start))
            if e.action == "reset":
                value = before
                del self.changed[key]
            else:
                value = target.value if e.action == "override" else before + target.value
            inst.set_during_run(target.var, value)
            return
        changes = (self.inputs if target.kind == "input" else self.outputs)[target.part]
        changes.act(target.index, e.action, target.value)

    def _undo_all(self, execution) -> None:
        self.ended = True
        for changes in (*self.inputs.values(), *self.outputs.values()):
            changes.override.clear()
            changes.bias.clear()
        for (part, name), before in list(self.changed.items()):
            inst = execution.instances[part]
            inst.set_during_run(inst.model.variables[name], before)
        self.changed.clear()
        self.pending.clear()
        self.applied.append({"time": execution.t, "event": "every change undone: the scenario's end"})

    def summary(self) -> dict:
        return {"scenario": {"file": self.scenario.path, "description": self.scenario.description,
                             "applied": self.applied,
                             "not_applied": [self.scenario.events[k].said() for k in self.pending]}}
