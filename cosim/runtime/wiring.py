"""Connections checked against the components' declared variables, turned
into index arrays for the exchange of values between components."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import CraneCosimError


@dataclass
class Route:
    """Values ``y[src_index]`` of component ``src`` go to ``u[dst_index]``."""
    src: int
    src_index: np.ndarray
    dst_index: np.ndarray


def connection_problems(connections, variables: dict) -> list[str]:
    """Every problem of ``connections``, one sentence each, naming the
    connection: an unknown component or variable, an end that is not an
    output/input (two outputs connected), an input driven twice, units that
    both ends declare and that differ (an end that declares none, as many
    FMUs from other tools, is taken at its word: :func:`undeclared_units`
    lists those).  ``variables`` maps component name to ``{variable name:
    VariableInfo}``."""
    problems, driven = [], {}
    for c in connections:
        ends_ok = True
        for comp, var, role in ((c.start_element, c.start_connector, "output"),
                                (c.end_element, c.end_connector, "input")):
            if comp not in variables:
                problems.append(f"connection {c}: the system has no component named {comp!r}")
                ends_ok = False
                continue
            info = variables[comp].get(var)
            if info is None:
                problems.append(f"connection {c}: component {comp} has no variable {var!r}")
                ends_ok = False
            elif info.causality != role:
                extra = " (two outputs are connected)" if role == "input" and info.causality == "output" else ""
                problems.append(f"connection {c}: {comp}.{var} is {'an' if info.causality[0] in 'aeiou' else 'a'} "
                                f"{info.causality}, not an {role}{extra}")
                ends_ok = False
        if not ends_ok:
            continue
        src = variables[c.start_element][c.start_connector]
        dst = variables[c.end_element][c.end_connector]
        if src.unit and dst.unit and src.unit != dst.unit:
            problems.append(f"connection {c} joins mismatched units: {src.unit} to {dst.unit}")
        key = (c.end_element, c.end_connector)
        if key in driven:
            problems.append(f"input {c.end_element}.{c.end_connector} is driven by two connections: "
                            f"{driven[key]} and {c}")
        else:
            driven[key] = c
    return problems


def undeclared_units(connections, variables: dict) -> list[str]:
    """The connections with one end that declares a unit and one that does
    not, one sentence each (notes, not problems)."""
    notes = []
    for c in connections:
        try:
            src = variables[c.start_element][c.start_connector]
            dst = variables[c.end_element][c.end_connector]
        except KeyError:
            continue
        if bool(src.unit) != bool(dst.unit):
            known, unknown = (src, dst) if src.unit else (dst, src)
            where = c.end_element if unknown is dst else c.start_element
            notes.append(f"connection {c}: {where}.{unknown.name} declares no unit; taken to be {known.unit}")
    return notes


def resolve(system, connections, variables: dict) -> dict:
    """Check ``connections`` and return, per component name, the ordered list
    of its connected inputs and their sources ``(component, output)``.
    Raises :class:`CraneCosimError` with every problem
    (:func:`connection_problems`)."""
    problems = connection_problems(connections, variables)
    if problems:
        raise CraneCosimError(joined(problems))
    wiring = {name: [] for name in variables}
    for c in connections:
        wiring[c.end_element].append((c.end_connector, c.start_element, c.start_connector))
    return wiring


def joined(problems: list[str]) -> str:
    """One problem as its sentence; several as a count and one per line."""
    if len(problems) == 1:
        return problems[0]
    return f"{len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems)


def routes(wiring: dict, order: list[str], outputs: dict[str, list[str]]) -> dict:
    """Per destination component, the :class:`Route` list that fills its
    bound inputs (in ``wiring`` order) from the sources' bound outputs."""
    out = {}
    index = {name: i for i, name in enumerate(order)}
    out_pos = {name: {v: k for k, v in enumerate(outputs[name])} for name in order}
    for dst in order:
        by_src = {}
        for k, (_, src, var) in enumerate(wiring[dst]):
            by_src.setdefault(src, ([], []))
            by_src[src][0].append(out_pos[src][var])
            by_src[src][1].append(k)
        out[dst] = [Route(index[s], np.array(a, dtype=int), np.array(b, dtype=int)) for s, (a, b) in by_src.items()]
    return out
