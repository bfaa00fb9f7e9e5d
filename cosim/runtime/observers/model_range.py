"""Where a component's model stops holding: its Boolean outputs of the role
:data:`ROLE` (true while the model's assumptions hold: the hydrodynamic
vessel's ``in_range``, false once its deck edge goes under or it rolls
past the angle its linear hydrostatics are stated for) watched step by
step; the first time each turns false is a warning, once, and
``summary.json``'s ``"model_range"`` says, per output, when it first left
its range, for how long it was out, and what its description says the
range is.  The run goes on: what it computes past there is the model's,
to be read knowing so."""
from __future__ import annotations

import numpy as np

from ...blocks.interface import MODEL_RANGE as ROLE
from . import Observer

__all__ = ["ModelRange", "ROLE"]


class ModelRange(Observer):
    """Watches the outputs of :data:`ROLE` among ``plan``'s parts
    (:attr:`watched` empty: none)."""

    batched = True

    def __init__(self, plan):
        self.watched = []  # (its column in a batch's rows, part index, output index, name, description)
        column = 1  # a batch's rows: the time, then every component's outputs in turn
        for k, part in enumerate(plan.parts):
            for j, v in enumerate(part.outputs):
                if v.role == ROLE:
                    self.watched.append((column + j, k, j, f"{part.name}.{v.name}", v.description))
            column += len(part.outputs)
        self._left: dict[str, float] = {}
        self._out: dict[str, float] = {name: 0.0 for *_, name, _ in self.watched}
        self._t = None

    def started(self, execution) -> None:
        self._t = execution.t
        for _, k, j, name, _ in self.watched:
            if not execution.instances[k].y[j]:
                self._left.setdefault(name, execution.t)

    def step_complete(self, execution) -> None:
        dt, self._t = execution.t - self._t, execution.t
        for _, k, j, name, _ in self.watched:
            if not execution.instances[k].y[j]:
                self._left.setdefault(name, execution.t)
                self._out[name] += dt

    def rows_complete(self, execution, rows) -> None:
        times = np.concatenate([[self._t], rows[:, 0]])
        self._t = execution.t
        for column, _, _, name, _ in self.watched:
            out = rows[:, column] == 0
            if out.any():
                self._left.setdefault(name, float(rows[np.argmax(out), 0]))
                self._out[name] += float(np.diff(times)[out].sum())

    def summary(self) -> dict:
        if not self._left:
            return {}
        about = {name: description for *_, name, description in self.watched}
        section = {name: {"left_at_s": t, "out_for_s": self._out[name], "range": about[name]}
                   for name, t in sorted(self._left.items(), key=lambda item: item[1])}
        warnings = [f"{name} left the range where its model holds at t = {entry['left_at_s']:g} s, and was out "
                    f"of it for {entry['out_for_s']:g} s ({entry['range']}): what the run computed past there is "
                    f"the model's beyond its stated range" for name, entry in section.items()]
        return {"model_range": section, "warnings": warnings}
