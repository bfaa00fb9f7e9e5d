"""The problems of a system found before anything runs, one sentence each,
naming the file, component, connection or variable at fault: the
experiment's settings, the connections (names, causality, types, units, an
input driven twice), the values set before the run (which variables may be
set, their types and bounds, this project's own blocks' checks) and the
components' own steps.  :mod:`runtime.plan` gathers them; the
capabilities each algorithm needs are checked by the algorithm
(``algorithms/``)."""
from __future__ import annotations

import math
from pathlib import Path

from ..blocks.block import ParameterError
from ..errors import did_you_mean
from .connection_transforms import converts_units
from .types import FAMILY, UNSUPPORTED, bound_problem, connection_problem, inexact_problem, settable_problem, value_of

__all__ = ["settings_problems", "connection_problems", "connector_problems", "value_problems",
           "inexact_start_problems", "once_per_process_problems", "step_problems", "cut_step_note", "unit_notes",
           "joined", "RELATIVE"]

#: tolerance of "a whole number of steps", relative: a step written in
#: decimal must fit a run or a component's step written in decimal
RELATIVE = 1e-9


def joined(problems: list[str]) -> str:
    """One problem as its sentence; several as a count and one per line."""
    if len(problems) == 1:
        return problems[0]
    return f"{len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems)


def settings_problems(settings, algorithms, couplings, extrapolations) -> list[str]:
    """What is wrong with the experiment and master settings (a
    ``plan.Settings``), given the names each may take."""
    s, problems = settings, []
    if not (isinstance(s.step, (int, float)) and math.isfinite(s.step)):
        problems.append(f"the step size must be a finite number of seconds, got {s.step!r}")
    elif not s.step > 0:
        problems.append(f"the step size must be positive, got {s.step:g} s")
    if not math.isfinite(s.stop_time):
        problems.append(f"the stop time {s.stop_time:g} s is not a finite time")
    elif not s.stop_time > s.start_time:
        problems.append(f"the stop time {s.stop_time:g} s is not after the start time {s.start_time:g} s")
    elif not problems:
        length = s.stop_time - s.start_time
        # a step beyond the run would be cut to the run's length while the
        # results and summary said otherwise
        if s.step > length * (1 + RELATIVE):
            problems.append(f"the step {s.step:g} s is longer than the run ({length:g} s, from {s.start_time:g} s "
                            f"to {s.stop_time:g} s); choose a step of at most {length:g} s or a later stop time")
    if s.algorithm not in algorithms:
        problems.append(f"unknown algorithm {s.algorithm!r}; use one of {', '.join(algorithms)}")
    if s.coupling not in couplings:
        problems.append(f"unknown coupling {s.coupling!r}; use one of {', '.join(couplings)}")
    if s.extrapolation not in extrapolations:
        problems.append(f"unknown input extrapolation {s.extrapolation!r}; use one of {', '.join(extrapolations)}")
    if s.iterations is not None and (isinstance(s.iterations, bool) or not isinstance(s.iterations, int)
                                     or s.iterations < 1):
        problems.append(f"iterations must be a whole number of at least 1, got {s.iterations!r}")
    return problems


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def connection_problems(connections, models: dict, components) -> list[tuple]:
    """Every problem of ``connections``, ``(connection, sentence)``, naming the
    connection: an unknown component or variable, an end that is not an
    output or an input (SSP 1.0 section 5.3.2.1: an element's output drives
    an element's input), an input driven twice, variables whose types or
    units do not join (:func:`runtime.types.connection_problem`).
    ``models``: component name -> ``ModelInfo``; ``components``: the names
    of the system's components (one whose FMU cannot be read, named once
    elsewhere, is left out here, and so are its connections)."""
    problems, driven = [], {}
    for c in connections:
        ends = []
        for comp, var, role in ((c.start_element, c.start_connector, "output"),
                                (c.end_element, c.end_connector, "input")):
            if comp not in components:
                problems.append((c, f"connection {c}: the system has no component named {comp!r}"
                                    f"{did_you_mean(comp, components)}"))
                ends.append(False)
                continue
            if comp not in models:
                ends.append(None)
                continue
            info = models[comp].variables.get(var)
            if info is None:
                problems.append((c, f"connection {c}: component {comp} has no variable {var!r}"
                                    f"{did_you_mean(var, models[comp].variables)}"))
            elif info.causality != role:
                extra = " (two outputs are connected)" if role == "input" and info.causality == "output" else ""
                problems.append((c, f"connection {c}: {comp}.{var} is {_article(info.causality)} "
                                    f"{info.causality}, not an {role}{extra}"))
            elif info.shape:
                problems.append((c, f"connection {c}: {comp}.{var} is an array of shape {info.shape}, which "
                                    f"crane-cosim cannot exchange"))
            else:
                ends.append(info)
                continue
            ends.append(False)
        if False in ends or None in ends:
            continue
        src, dst = ends
        if (problem := connection_problem(src, dst, converts_units(c, models))) is not None:
            problems.append((c, f"connection {c} joins {problem}"))
        key = (c.end_element, c.end_connector)
        if key in driven:
            problems.append((c, f"input {c.end_element}.{c.end_connector} is driven by two connections: "
                                f"{driven[key]} and {c}"))
        else:
            driven[key] = c
    return problems


def unit_notes(connections, models: dict) -> list[str]:
    """The connections with one end that declares a unit and one that does
    not, one sentence each (notes, not problems): the undeclared one is
    taken to be in the other's."""
    notes = []
    for c in connections:
        src = models.get(c.start_element)
        dst = models.get(c.end_element)
        src = src.variables.get(c.start_connector) if src else None
        dst = dst.variables.get(c.end_connector) if dst else None
        if src is None or dst is None or src.family != "real" or dst.family != "real":
            continue
        if bool(src.unit) != bool(dst.unit):
            known, unknown = (src, dst) if src.unit else (dst, src)
            where = c.end_element if unknown is dst else c.start_element
            notes.append(f"connection {c}: {where}.{unknown.name} declares no unit; taken to be {known.unit}")
    return notes


def connector_problems(comp: str, source: str, model, connectors: dict) -> list[str]:
    """What a system file declares of component ``comp``'s variables
    (``connectors``: name -> ``system.Connector``) that its FMU (file name
    ``source``, description ``model``) says otherwise: a kind, a type or a
    unit.  A connector the FMU does not have is left to the connections
    (a system may declare more than it connects)."""
    problems = []
    for name, declared in connectors.items():
        var = model.variables.get(name)
        if var is None:
            continue
        where = f"the system file declares {comp}.{name}"
        if declared.kind not in ("inout", "unspecified") and declared.kind != var.causality:
            problems.append(f"{where} as {_article(declared.kind)} {declared.kind}; {source} says "
                            f"{_article(var.causality)} {var.causality}")
        elif declared.type is not None and FAMILY.get(declared.type) != var.family:
            problems.append(f"{where} of type {declared.type}; {source} says {var.type}")
        elif declared.unit and var.unit and declared.unit != var.unit:
            problems.append(f"{where} in {declared.unit}; {source} says {var.unit} (a connector's unit is "
                            f"its FMU's: correct the system file)")
    return problems


def value_problems(comp: str, source: str, model, raw_values: dict, driven: dict) -> tuple[dict, list[str]]:
    """The values ``raw_values`` (variable name -> value or text) of
    component ``comp`` (FMU file name ``source``) as its variables take
    them, and the problems: a variable the FMU does not have, one a host
    may not set, a value not of its type or outside its declared bounds.
    ``driven``: (component, input) -> the connection that drives it."""
    values, problems = {}, []
    for name, raw in raw_values.items():
        where = f"{comp}.{name}"
        var = model.variables.get(name)
        if var is None:
            problems.append(f"component {comp} ({source}) has no variable {name!r}{did_you_mean(name, model.variables)}")
            continue
        if (problem := settable_problem(var, where, driven.get((comp, name)), model.fmi_version)) is not None:
            problems.append(problem)
            continue
        if var.shape:
            problems.append(f"{where} is an array of shape {var.shape}, which crane-cosim cannot set")
            continue
        try:
            value = value_of(var, raw, where)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if (problem := bound_problem(var, value, where) or inexact_problem(var, value, where)) is not None:
            problems.append(problem)
            continue
        values[name] = value
    return values, problems


def inexact_start_problems(comp: str, source: str, model, values) -> list[str]:
    """The outputs of component ``comp`` (FMU file name ``source``) whose
    start value, declared by the FMU and not given in ``values`` (names),
    the master would not carry exactly (an Int64 beyond 2**53)."""
    problems = []
    for v in model.outputs():
        if v.name not in values and not v.shape and \
                (problem := inexact_problem(v, v.start, f"{comp}.{v.name}", f"component {comp} ({source})")):
            problems.append(problem)
    return problems


def our_block_problems(comp: str, block, values: dict) -> list[str]:
    """This project's block checks its own parameters: the check its FMU
    makes at initialization, made here before anything runs."""
    params = {n: v for n, v in values.items() if any(p.name == n for p in block.parameters)}
    try:
        block.check_parameters(**params)
    except ParameterError as exc:
        return [f"component {comp}: {exc}"]
    return []


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def once_per_process_problems(parts, processes: bool) -> list[tuple[str, tuple]]:
    """Components that would share this process with another instance of
    their FMU where it declares ``canBeInstantiatedOnlyOncePerProcess``
    (the FMU's capability flag, FMI 2.0 and 3.0: a process may hold one
    instance of it), ``(sentence, their names)``.  Each
    component's FMU is unzipped and loaded apart, but what the library
    holds for the process (its dependencies, a runtime it starts) may be
    shared all the same.  With ``processes`` (``--processes``) an FMI 2.0
    FMU's instances run each in a process of its own."""
    groups = {}
    for part in parts:
        model = part.model
        if model is None or not model.capabilities.only_once_per_process or (processes and model.fmi_version == "2.0"):
            continue
        groups.setdefault((model.model_identifier, model.token), []).append(part)
    found = []
    for same in groups.values():
        if len(same) < 2:
            continue
        names = [p.name for p in same]
        fmus = sorted({Path(p.path).name for p in same})
        remedy = ("run with --processes, which gives each component a process of its own"
                  if same[0].model.fmi_version == "2.0" else
                  "crane-cosim runs FMI 3.0 FMUs in its own process only, so keep one such component")
        found.append((f"components {_listed(names)} are instances of {_listed(fmus)}, which declares "
                      f"canBeInstantiatedOnlyOncePerProcess, and would share one process; {remedy}", tuple(names)))
    return found


def every_of(step: float, component_step: float) -> int | None:
    """How many base steps of ``step`` make ``component_step``, or None
    when it is not a whole number of them."""
    k = round(component_step / step)
    if k >= 1 and abs(component_step - k * step) <= RELATIVE * component_step:
        return k
    return None


def step_problems(name: str, source: str, model, settings, every: int, n_steps: int) -> list[str]:
    """Problems of a component's own step: one that is not a whole number
    of base steps, and, for an FMU that cannot vary its step
    (``canHandleVariableCommunicationStepSize`` false), a run whose last
    step it would take shorter."""
    problems = []
    own = settings.step * every
    if model.capabilities.can_vary_step:
        return problems
    length = settings.stop_time - settings.start_time
    steps = length / own
    if abs(steps - round(steps)) > RELATIVE * max(1.0, steps):
        below, above = math.floor(steps) * own, math.ceil(steps) * own
        options = " or ".join(f"{settings.start_time + t:g} s" for t in (below, above) if t > 0)
        problems.append(f"the run of {length:g} s is not a whole number of component {name}'s steps of {own:g} s, "
                        f"which it cannot vary ({source} declares canHandleVariableCommunicationStepSize false), "
                        f"so its last step would be shorter; choose a stop time of {options}")
    return problems


def cut_step_note(name: str, settings, every: int) -> str | None:
    """A note where component ``name``, stepping every ``every`` base steps
    (and able to vary its step), would end the run inside one of its steps:
    that last step is cut at the stop time, where libcosim does not take it."""
    if every <= 1:
        return None
    own = settings.step * every
    length = settings.stop_time - settings.start_time
    steps = length / own
    if abs(steps - round(steps)) <= RELATIVE * max(1.0, steps):
        return None
    last = settings.start_time + math.floor(steps) * own
    return (f"the run of {length:g} s is not a whole number of component {name}'s steps of {own:g} s: its last "
            f"step, from {last:g} s, is cut to {settings.stop_time - last:g} s at the stop time, so that its outputs "
            f"there are of that time (libcosim does not take that step, and holds its outputs of {last:g} s)")


def internal_step_note(name: str, model, given: float) -> str | None:
    """A note where an FMI 3.0 FMU that steps internally at a fixed step
    (``fixedInternalStepSize``) is given shorter steps: such a step may
    leave its outputs where they were."""
    own = model.fixed_internal_step
    if own and given < own * (1 - RELATIVE):
        return (f"component {name} steps internally every {own:g} s (fixedInternalStepSize) and is given steps of "
                f"{given:g} s: a step shorter than its own may leave its outputs where they were")
    return None


def libcosim_step_note(name: str, step: float, component_step: float) -> str | None:
    """A note when libcosim, which reads steps as whole nanoseconds cut
    down, would make another number of base steps of ``component_step``."""
    ns = int(component_step * 1e9) // max(1, int(step * 1e9))
    if ns != round(component_step / step):
        return (f"component {name}: libcosim reads its step of {component_step:g} s as {ns * step:g} s "
                f"(it truncates steps to whole nanoseconds); give the step so that it is exact in nanoseconds")
    return None


def unsupported_output_notes(comp: str, model) -> list[str]:
    """Outputs this master cannot exchange or record (FMI 3.0 Binary, Clock,
    arrays): left out of the results, noted."""
    left = [v.name for v in model.outputs() if v.family in UNSUPPORTED or v.shape]
    if not left:
        return []
    return [f"component {comp}: {len(left)} output(s) of a type crane-cosim does not record (Binary, Clock or "
            f"array), left out of the results: {', '.join(left)}"]
