"""The system resolved once, before anything runs: every FMU's description
read once, the values to set typed and bounded, the connections wired and
checked, each component's own step, and the capabilities the chosen
algorithm and options need.  A problem anywhere is bad input, named in one
sentence; ``crane-cosim check`` prints them all and runs nothing.

    plan = plan_of(system, config)          # CraneCosimError naming every problem
    problems, notes = problems_of(system)   # the same, as sentences

The plan is what an execution runs (``runtime/execution.py``): its
:class:`Part` per component (the FMU's :class:`~runtime.model.ModelInfo`,
the values to set, the inputs it takes and the outputs it gives, in the
order of the exchange) and its :class:`Route` lists, the index arrays that
carry outputs to inputs (``runtime/routes.py``).
"""
from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ..blocks.registry import BLOCKS
from ..bridge.specs import bridge_from_spec
from ..errors import CraneCosimError
from ..fmus.build import bridge_spec_of
from . import checks
from .algorithms import ACCURACY, ALGORITHMS, ITERATED
from .config import RunConfig
from .connection_transforms import transforms_of
from .coupling import COUPLINGS, coupled_connections
from .input_table import input_targets, read_input_table
from .model import ModelInfo, describe
from .model_exchange import RELATIVE_TOLERANCE, Integration
from .routes import Route, routes_of
from .scenario import read_scenario
from .scenario_targets import targets_of
from .types import NUMERIC

__all__ = ["Settings", "Part", "Route", "Plan", "plan_of", "out_of_process_refusal", "problems_of",
           "replace_component", "steps_of", "EXTRAPOLATIONS"]

EXTRAPOLATIONS = ("midpoint", "none")


@dataclass(frozen=True)
class Settings:
    """The experiment and the master's settings a run uses [s]."""
    start_time: float
    stop_time: float
    step: float
    algorithm: str
    coupling: str
    extrapolation: str
    iterations: int | None
    #: the accuracy asked of the coupling, a fraction of each force's peak
    #: (RMS): the iterated algorithms' passes settle to a hundredth of it
    accuracy: float = ACCURACY
    #: the relative tolerance [-] to which Model Exchange FMUs are integrated
    #: (``runtime/model_exchange.py``; FMPy's default)
    relative_tolerance: float = RELATIVE_TOLERANCE

    @property
    def integration(self) -> Integration:
        """How Model Exchange FMUs are integrated: this tolerance, steps of
        at most a fiftieth of the run (as FMPy integrates them)."""
        return Integration(self.relative_tolerance, (self.stop_time - self.start_time) / 50)


@dataclass
class Part:
    """A component as the plan places it: ``index`` in the stepping order;
    ``values``: variable name -> value set before initialization; ``every``:
    it steps every so many base steps; ``inputs``/``outputs``: the
    connected numeric inputs and all numeric outputs, in the order of the
    exchange's arrays; ``string_inputs``/``string_outputs`` likewise for
    Strings."""
    index: int
    name: str
    path: Path
    model: ModelInfo
    values: dict
    every: int = 1
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    string_inputs: list = field(default_factory=list)
    string_outputs: list = field(default_factory=list)
    #: per input, what its connection does to the value (``runtime/transformations.py``), or None
    transforms: list = field(default_factory=list)

    @property
    def columns(self) -> list:
        """The recorded outputs, in the FMU's order (numeric and String)."""
        chosen = {id(v) for v in self.outputs + self.string_outputs}
        return [v for v in self.model.variables.values() if id(v) in chosen]


@dataclass
class Plan:
    """A system ready to run.  ``routes[k]``/``string_routes[k]``: the routes
    that fill part ``k``'s numeric and String inputs."""
    name: str
    settings: Settings
    parts: list
    connections: list
    routes: list
    string_routes: list
    n_steps: int
    notes: list = field(default_factory=list)
    #: per component swapped by ``--replace``, the names of the system's
    #: values left out and the note that says so, which a run gives as a
    #: warning (also in ``notes``)
    left_out: dict = field(default_factory=dict)

    def part(self, name: str) -> Part:
        return next(p for p in self.parts if p.name == name)

    @property
    def columns(self) -> list[str]:
        return [f"{p.name}.{v.name}" for p in self.parts for v in p.columns]

    @property
    def column_variables(self) -> list:
        return [v for p in self.parts for v in p.columns]

    @property
    def multi_rate(self) -> bool:
        return any(p.every > 1 for p in self.parts)

    def halved(self) -> "Plan":
        """The same plan at half the step (the estimate's second run): every
        step halved, a component's own step too (it keeps its number of
        base steps), so that the coupling error falls as the step's power."""
        s = self.settings
        settings = dataclasses.replace(s, step=s.step / 2)
        return Plan(self.name, settings, self.parts, self.connections, self.routes, self.string_routes,
                    steps_of(s.start_time, s.stop_time, s.step / 2), self.notes)


def steps_of(start: float, stop: float, step: float) -> int:
    """Communication steps from ``start`` to ``stop`` (the last one shorter
    when the run is not a whole number of steps)."""
    return max(1, math.ceil((stop - start) / step - 1e-9))


class _Planner:
    """Builds a :class:`Plan` and gathers every problem on the way."""

    def __init__(self, system, config, block_checks: bool = True):
        self.system = system
        self.config = config
        self.block_checks = block_checks
        self.problems: list[tuple[str, tuple]] = []   # (sentence, the components whose fit it concerns)
        self.notes: list[str] = list(system.notes)
        self.left_out: dict[str, tuple[list[str], str]] = {}

    def problem(self, sentence: str, *components: str) -> None:
        """A problem; ``components``: those whose fit with the rest it concerns
        (a component swapped by ``--replace`` gets these under one sentence)."""
        self.problems.append((sentence, components))

    def plan(self) -> Plan:
        s = self.system
        asked = None if self.config is None else (self.config.accuracy if self.config.accuracy is not None
                                                  else self.config.tolerance)
        tolerance = None if self.config is None else self.config.relative_tolerance
        settings = Settings(float(s.start_time), float(s.stop_time), s.step, s.algorithm, s.coupling,
                            s.extrapolation, s.iterations, ACCURACY if asked is None else asked,
                            RELATIVE_TOLERANCE if tolerance is None else tolerance)
        bad_settings = checks.settings_problems(settings, tuple(ALGORITHMS), COUPLINGS, EXTRAPOLATIONS)
        if self.config is not None and self.config.iterations is not None and settings.algorithm not in ITERATED:
            bad_settings.append(f"--iterations {self.config.iterations} sets the re-step passes of the "
                                f"{' and '.join(ITERATED)} algorithms; the {settings.algorithm} algorithm steps each "
                                f"component once (add --algorithm {ITERATED[0]}, or leave --iterations out)")
        for p in bad_settings:
            self.problem(p)
        self.settled = not bad_settings
        models = self._models()
        connections = coupled_connections(s.connections, models, settings.coupling)
        for c, p in checks.connection_problems(connections, models, {c.name for c in s.components}):
            self.problem(p, c.start_element, c.end_element)
        self.notes += checks.unit_notes(connections, models)
        transforms = transforms_of(connections, models)
        for c, p in transforms.problems:
            self.problem(p, c.start_element, c.end_element)
        self.notes += transforms.notes
        # the algorithm's needs are read off the wiring: only where every FMU and connection is sound
        wired = len(models) == len(s.components) and not self.problems
        driven = {(c.end_element, c.end_connector): c for c in connections}
        n_steps = steps_of(settings.start_time, settings.stop_time, settings.step) if self.settled else 1
        parts = [self._part(k, comp, models.get(comp.name), driven, settings, n_steps)
                 for k, comp in enumerate(s.components)]
        self._loose_inputs(parts, driven)
        for p, comps in checks.once_per_process_problems(parts, self.config is not None and self.config.processes):
            self.problem(p, *comps)
        routes, string_routes = routes_of(parts, connections)
        for part in parts:
            part.transforms = [transforms.effects.get((part.name, v.name)) for v in part.inputs]
        plan = Plan(s.name, settings, parts, connections, routes, string_routes, n_steps, self.notes, self.left_out)
        if wired and settings.algorithm in ALGORITHMS:
            for p, comps in ALGORITHMS[settings.algorithm].problems(plan):
                self.problem(p, *comps)
        if self.config is not None and self.config.scenario is not None and wired:
            for p in targets_of(read_scenario(self.config.scenario), plan)[1]:
                self.problem(p)
        if self.config is not None and self.config.input_file is not None and wired:
            for p in input_targets(read_input_table(self.config.input_file), plan)[1]:
                self.problem(p)
        if self.config is not None and self.config.estimates:
            for p, comps in _estimate_problems(plan):
                self.problem(p, *comps)
        if self.config is not None and self.config.processes:
            for part in parts:
                if part.model is not None and (part.model.fmi_version != "2.0" or part.model.model_exchange):
                    self.problem(out_of_process_refusal(part), part.name)
        return plan

    def _models(self) -> dict:
        models = {}
        for comp in self.system.components:
            path = self.system.source_path(comp)
            try:
                model = describe(path)
            except CraneCosimError as exc:
                self.problem(f"component {comp.name}: {exc}", comp.name)
                continue
            for why in model.unsupported:
                self.problem(f"component {comp.name} ({path.name}) cannot run here: {why}", comp.name)
            models[comp.name] = model
        return models

    def _part(self, k, comp, model, driven, settings, n_steps) -> Part:
        path = self.system.source_path(comp)
        if model is None:
            return Part(k, comp.name, path, None, {})
        given = self._values_kept(comp, model, path)
        values, problems = checks.value_problems(comp.name, path.name, model, given, driven)
        problems += checks.connector_problems(comp.name, path.name, model, comp.connectors)
        problems += checks.inexact_start_problems(comp.name, path.name, model, given)
        for p in problems:
            self.problem(p, comp.name)
        if not problems and self.block_checks:
            block = _block_of(model, path)
            if block is not None:
                for p in checks.our_block_problems(comp.name, block, values):
                    self.problem(p)  # the component's own value, not its fit
        every = 1
        if comp.step is not None and self.settled:
            every = checks.every_of(settings.step, comp.step)
            if every is None:
                self.problem(f"component {comp.name}'s step of {comp.step:g} s is not a whole number of the "
                             f"system's steps of {settings.step:g} s", comp.name)
                every = 1
            elif (note := checks.libcosim_step_note(comp.name, settings.step, comp.step)) is not None:
                self.notes.append(note)
        if self.settled:
            step_problems = checks.step_problems(comp.name, path.name, model, settings, every, n_steps)
            for p in step_problems:
                self.problem(p, comp.name)
            if not step_problems and (note := checks.cut_step_note(comp.name, settings, every)) is not None:
                self.notes.append(note)
            given = settings.step * every / (2 if settings.algorithm in ITERATED else 1)
            if (note := checks.internal_step_note(comp.name, model, given)) is not None:
                self.notes.append(note)
        self.notes += checks.unsupported_output_notes(comp.name, model)
        outputs = [v for v in model.outputs() if not v.shape]
        return Part(k, comp.name, path, model, values, every,
                    inputs=[], outputs=[v for v in outputs if v.family in NUMERIC],
                    string_inputs=[], string_outputs=[v for v in outputs if v.family == "string"])

    def _loose_inputs(self, parts, driven) -> None:
        for part in parts:
            if part.model is None:
                continue
            loose = [v.name for v in part.model.inputs() if (part.name, v.name) not in driven]
            if loose:
                self.notes.append(f"component {part.name}: {len(loose)} input(s) not connected, held at their "
                                  f"start values: {', '.join(loose)}")

    def _values_kept(self, comp, model, path) -> dict:
        """The values of ``comp`` to set: all of them, but for a component
        swapped by ``--replace``, the system file's values of variables the
        new FMU does not have, which were the replaced model's (a vessel's
        springs, say, for a vessel of another kind): those are left out, and
        a note names them.  A value given with ``--set`` is always set."""
        replaced = self.config.replacements if self.config is not None else {}
        if comp.name not in replaced:
            return comp.parameters
        given = {t.split(".", 1)[1] for t in self.config.values if t.split(".", 1)[0] == comp.name}
        left = [n for n in comp.parameters if n not in model.variables and n not in given]
        if left:
            note = (f"component {comp.name}: the system's values of {', '.join(left)} were the replaced model's; "
                    f"{path.name} has no such variables, so they are left out")
            self.left_out[comp.name] = left, note
            self.notes.append(note)
        return {n: v for n, v in comp.parameters.items() if n not in left}

    def sentences(self) -> list[str]:
        """The problems, those of a component swapped by ``--replace`` under
        one sentence that says it cannot be swapped."""
        replaced = dict(self.config.replacements) if self.config is not None else {}
        out, grouped = [], {}
        for sentence, comps in self.problems:
            mine = [c for c in comps if c in replaced]
            if mine:
                grouped.setdefault(mine[0], []).append(sentence)
            else:
                out.append(sentence)
        for comp, sentences in grouped.items():
            out.append(f"component {comp} cannot be replaced by {Path(replaced[comp]).name}: "
                       + checks.joined(sentences))
        return out


def _block_of(model: ModelInfo, path: Path):
    """This project's block behind an FMU (one of its blocks, or a bridge),
    whose own parameter checks then apply; else None."""
    if model.ours is not None:
        return BLOCKS[model.ours]
    if model.built and model.generation_tool.startswith("crane-cosim"):
        spec = bridge_spec_of(path)
        return bridge_from_spec(spec) if spec is not None else None
    return None


def _estimate_problems(plan) -> list:
    """Components that cannot run twice side by side, which the estimate of
    the coupling error needs (a second run at half the step)."""
    found = []
    for part in plan.parts:
        if part.model is None:
            continue
        if part.model.built and bridge_spec_of(part.path) is not None:
            why = "it is a bridge to a block run by another process, whose peer would answer both runs"
        elif part.model.capabilities.only_once_per_process:
            why = "it declares canBeInstantiatedOnlyOncePerProcess"
        else:
            continue
        found.append((f"component {part.name} ({part.path.name}) cannot run twice side by side, which the "
                      f"estimate of the coupling error needs (a second run at half the step): {why}",
                      (part.name,)))
    return found


def problems_of(system, config=None, block_checks: bool = True) -> tuple[list[str], list[str]]:
    """``(problems, notes)`` of ``system`` run with ``config`` (a
    :class:`~runtime.config.RunConfig`), one sentence each; no problems:
    it runs.  Notes: inputs nothing drives, ports without units.
    ``block_checks``: this project's blocks check their own parameters'
    values (False: their types and bounds only, for a system still being
    put together)."""
    planner = _Planner(config.applied_to(system) if config is not None else system, config, block_checks)
    planner.plan()
    return planner.sentences(), planner.notes


def replace_component(system, name: str, source):
    """Swap component ``name`` of ``system`` for the FMU ``source`` (relative
    to the system's ``base_dir`` unless absolute), keeping its connections
    and values; returns the component.  Raises :class:`CraneCosimError`
    naming every connection or value the new FMU cannot take (name,
    causality, type, unit), and leaves the system as it was
    (``docs/swapping.md``).  Values are checked by their types and bounds
    only: a bridge's address, say, is set after the swap.  Values of
    variables the new FMU does not have were the replaced model's: they are
    left out, with a warning that names them, as ``run --replace`` does."""
    comp = system.component(name)
    config = RunConfig(replacements={name: source})
    planner = _Planner(config.applied_to(system), config, block_checks=False)
    planner.plan()
    mine = [p for p in planner.sentences() if p.startswith(f"component {name} cannot be replaced")]
    if mine:
        raise CraneCosimError(mine[0])
    comp.source = str(source)
    if name in planner.left_out:
        left, note = planner.left_out[name]
        warnings.warn(note)
        comp.parameters = {n: v for n, v in comp.parameters.items() if n not in left}
    return comp


def out_of_process_refusal(part) -> str:
    """Why ``part``, an FMU of another FMI version than 2.0 or a Model
    Exchange FMU, cannot run out of process."""
    return (f"component {part.name}: --processes runs FMI 2.0 co-simulation FMUs in processes of their own; "
            f"{Path(part.path).name} is an FMI {part.model.fmi_version} {part.model.interface} FMU")


def plan_of(system, config=None) -> Plan:
    """The :class:`Plan` of ``system`` run with ``config``; raises
    :class:`CraneCosimError` naming every problem."""
    planner = _Planner(config.applied_to(system) if config is not None else system, config)
    plan = planner.plan()
    problems = planner.sentences()
    if problems:
        raise CraneCosimError(checks.joined(problems) if len(problems) == 1
                              else f"system {system.name!r} does not fit together, " + checks.joined(problems))
    return plan
