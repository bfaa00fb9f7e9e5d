"""Connections checked against the components' declared variables, turned
into index arrays for the exchange of values between components."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import CraneCosimError


@dataclass
class Route:
    """Values ``y[src_index]`` of component ``src`` go to ``u[dst_index]``."""
    src: int
    src_index: np.ndarray
    dst_index: np.ndarray


def resolve(system, connections, variables: dict) -> dict:
    """Check ``connections`` and return, per component name, the ordered list
    of its connected inputs and their sources ``(component, output)``.

    ``variables`` maps component name to ``{variable name: VariableInfo}``.
    Raises :class:`CraneCosimError` naming the connection for an unknown
    component or variable, an end that is not an output/input (two outputs
    connected), an input driven twice, or mismatched units.
    """
    driven = {}
    for c in connections:
        for comp, var, role in ((c.start_element, c.start_connector, "output"),
                                (c.end_element, c.end_connector, "input")):
            if comp not in variables:
                raise CraneCosimError(f"connection {c}: the system has no component named {comp!r}")
            info = variables[comp].get(var)
            if info is None:
                raise CraneCosimError(f"connection {c}: component {comp} has no variable {var!r}")
            if info.causality != role:
                extra = " (two outputs are connected)" if role == "input" and info.causality == "output" else ""
                raise CraneCosimError(f"connection {c}: {comp}.{var} is {'an' if info.causality[0] in 'aeiou' else 'a'} "
                                      f"{info.causality}, not {'an' if role == 'input' else 'an'} {role}{extra}")
        src = variables[c.start_element][c.start_connector]
        dst = variables[c.end_element][c.end_connector]
        if (src.unit or "1") != (dst.unit or "1"):
            raise CraneCosimError(f"connection {c} joins mismatched units: {src.unit or '1'} to {dst.unit or '1'}")
        key = (c.end_element, c.end_connector)
        if key in driven:
            raise CraneCosimError(f"input {c.end_element}.{c.end_connector} is driven by two connections: "
                                  f"{driven[key]} and {c}")
        driven[key] = c
    wiring = {name: [] for name in variables}
    for (comp, var), c in driven.items():
        wiring[comp].append((var, c.start_element, c.start_connector))
    return wiring


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
