"""What each event of a scenario (``runtime/scenario.py``) acts on in a
plan: a connected input, an output, or a variable set through the FMU's
own calls (an input no connection drives, a tunable parameter), its value
typed as the variable takes it; and what cannot be changed during a run,
named."""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import did_you_mean
from .types import FAMILY, value_of

__all__ = ["Target", "targets_of"]


@dataclass(frozen=True)
class Target:
    """Where an event acts: component ``part`` (its index), ``kind``
    (``input``: ``index`` in its connected inputs; ``output``: in its
    outputs; ``set``: the variable ``var`` through the FMU's calls), the
    event's ``value`` typed (None for a reset), and for ``when``, the
    index of the watched output in its component's outputs."""
    part: int
    kind: str
    index: int | None
    var: object
    value: object
    watch: tuple | None = None


def _part(plan, name: str):
    names = [p.name for p in plan.parts]
    if name not in names:
        return None, f"names the component {name!r}, which the system does not have{did_you_mean(name, names)}"
    return plan.parts[names.index(name)], None


def _target(plan, e) -> tuple:
    part, problem = _part(plan, e.model)
    if problem:
        return None, problem
    var = part.model.variables.get(e.variable)
    if var is None:
        return None, (f"names {e.model}.{e.variable}, which {part.path.name} does not have"
                      f"{did_you_mean(e.variable, part.model.variables)}")
    family = FAMILY.get(var.type)
    if family not in ("real", "integer", "boolean", "enumeration") or var.shape:
        return None, (f"changes {e.model}.{e.variable}, {var.type} {'array' if var.shape else 'variable'}: a "
                      f"scenario changes numbers, booleans and enumerations")
    if e.action == "bias" and family not in ("real", "integer"):
        return None, f"biases {e.model}.{e.variable}, a {var.type}: a bias adds to a number"
    value = None
    if e.action != "reset":
        try:
            value = value_of(var, e.value, f"{e.model}.{e.variable}")
        except ValueError as exc:
            return None, str(exc)
    inputs = [v.name for v in part.inputs]
    outputs = [v.name for v in part.outputs]
    if var.causality == "input" and var.name in inputs:
        return Target(part.index, "input", inputs.index(var.name), var, value), None
    if var.causality == "output" and var.name in outputs:
        return Target(part.index, "output", outputs.index(var.name), var, value), None
    settable = var.causality == "input" or (var.causality == "parameter" and var.variability == "tunable"
                                            and part.model.fmi_version != "1.0")
    if not settable:
        return None, (f"changes {e.model}.{e.variable}, {var.variability} {var.causality}, which may not change "
                      f"during a run (inputs, outputs and the tunable parameters of FMUs of FMI 2.0 and 3.0 may)")
    return Target(part.index, "set", None, var, value), None


def _watched(plan, e) -> tuple:
    model, variable = e.when[0], e.when[1]
    part, problem = _part(plan, model)
    if problem:
        return None, f"watches: it {problem}"
    outputs = [v.name for v in part.outputs]
    if variable not in outputs or FAMILY.get(part.outputs[outputs.index(variable)].type) == "string":
        return None, f"watches {model}.{variable}, which is not a numeric output of {part.path.name}"
    return (part.index, outputs.index(variable)), None


def targets_of(scenario, plan) -> tuple[list, list[str]]:
    """The :class:`Target` of each event of ``scenario`` in ``plan`` (None
    where it cannot act) and the problems, one sentence each naming the
    file and the event."""
    targets, problems = [], []
    for k, e in enumerate(scenario.events, start=1):
        target, problem = _target(plan, e)
        watch = None
        if problem is None and e.when is not None:
            watch, problem = _watched(plan, e)
            if watch is not None:
                target = Target(target.part, target.kind, target.index, target.var, target.value, watch)
        if problem is not None:
            problems.append(f"scenario file {scenario.path}: event {k} ({e.said()}) {problem}")
            target = None
        targets.append(target)
    return targets, problems
