"""Whether a system fits together, checked before anything runs: the files,
the connections (names, causality, units), the parameters (names, kinds and,
for this project's own FMUs, values), and, for a component swapped for
another FMU, every connection and parameter against the new FMU.

    problems, notes = check_system(system)       # sentences; [] when it fits
    system.replace("controller", "MyPD.fmu")      # then check_system again

``crane-cosim check SYSTEM`` prints the problems and the notes (inputs
left unconnected, which keep their start values) and exits non-zero on a
problem; ``crane-cosim run`` refuses a system with a problem, naming every
one (see ``docs/swapping.md``).
"""
from __future__ import annotations

from pathlib import Path

from ..blocks import BLOCKS
from ..blocks.block import ParameterError
from ..errors import CraneCosimError
from .fmu import describe_variables, our_model_name, parameter_problem
from .system import System, coupled_connections
from .wiring import connection_problems, joined, undeclared_units

__all__ = ["check_system", "require_fit", "replace_component"]


def check_system(system: System) -> tuple[list[str], list[str]]:
    """``(problems, notes)`` of ``system``, one sentence each.  Problems stop a
    run: a component whose FMU is missing or unreadable, a bad connection, a
    parameter the FMU does not have, cannot take, or (for this project's
    own FMUs) refuses.  Notes do not: inputs that nothing drives."""
    problems, notes = [], []
    try:
        system.check_settings()
    except CraneCosimError as exc:
        problems.append(str(exc))
    variables = {}
    for comp in system.components:
        try:
            variables[comp.name] = describe_variables(system.source_path(comp))
        except CraneCosimError as exc:
            problems.append(f"component {comp.name}: {exc}")
    connections = coupled_connections(system)
    # a component whose FMU cannot be read is named once above, not again
    # for each of its connections
    unreadable = {c.name for c in system.components if c.name not in variables}
    problems += connection_problems([c for c in connections
                                     if c.start_element not in unreadable and c.end_element not in unreadable],
                                    variables)
    for comp in system.components:
        if comp.name in variables:
            problems += _parameter_problems(system, comp, variables[comp.name])
    notes += undeclared_units(connections, variables)
    driven = {(c.end_element, c.end_connector) for c in connections}
    for comp in system.components:
        loose = [n for n, v in variables.get(comp.name, {}).items()
                 if v.causality == "input" and (comp.name, n) not in driven]
        if loose:
            notes.append(f"component {comp.name}: {len(loose)} input(s) not connected, held at their start "
                         f"values: {', '.join(loose)}")
    return problems, notes


def require_fit(system: System) -> None:
    """Raise :class:`CraneCosimError` naming every problem of ``system``."""
    problems, _ = check_system(system)
    if problems:
        raise CraneCosimError(joined(problems) if len(problems) == 1
                              else f"system {system.name!r} does not fit together, " + joined(problems))


def replace_component(system: System, name: str, source):
    """:meth:`System.replace`: the component ``name`` with the FMU ``source``,
    or :class:`CraneCosimError` naming every connection and parameter of the
    component that the new FMU cannot take."""
    comp = system.component(name)
    old = comp.source
    comp.source = str(source)
    try:
        variables = {c.name: describe_variables(system.source_path(c)) for c in system.components}
    except CraneCosimError as exc:
        comp.source = old
        raise CraneCosimError(f"component {name} cannot be replaced: {exc}") from None
    mine = [c for c in coupled_connections(system) if name in (c.start_element, c.end_element)]
    # a bridge's address is set after the swap: its values are checked by the run
    problems = connection_problems(mine, variables) + _parameter_problems(system, comp, variables[name],
                                                                          bridges=False)
    if problems:
        new = system.source_path(comp).name
        comp.source = old
        raise CraneCosimError(f"component {name} cannot be replaced by {new}: " + joined(problems))
    return comp


def _parameter_problems(system, comp, variables, bridges: bool = True) -> list[str]:
    problems = []
    source = system.source_path(comp).name
    for name, value in comp.parameters.items():
        v = variables.get(name)
        if v is None:
            problems.append(f"component {comp.name} ({source}) has no variable {name!r}")
        elif problem := parameter_problem(comp.name, name, value, v):
            problems.append(problem)
    if problems:
        return problems
    path = system.source_path(comp)
    model = our_model_name(path)
    block = BLOCKS[model] if model is not None else _bridge_of(path) if bridges else None
    if block is not None:
        # This project's blocks check their own parameters: the same check
        # the FMU makes at initialization, made here before anything runs.
        try:
            block.check_parameters(**comp.parameters)
        except ParameterError as exc:
            problems.append(f"component {comp.name}: {exc}")
    return problems


def _bridge_of(path):
    """The bridge block behind a bridge FMU of this project, else None."""
    from ..blocks.udp_bridge import bridge_from_spec
    from ..fmus.build import bridge_spec_of

    if not Path(path).exists():
        return None
    spec = bridge_spec_of(path)
    return bridge_from_spec(spec) if spec is not None else None
