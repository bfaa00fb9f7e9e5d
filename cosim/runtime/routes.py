"""The routes of a plan: which outputs of which part fill which inputs of
another, as index arrays, and at which base points a value passes between
components of different own steps (libcosim's rule)."""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm

import numpy as np

from .types import NUMERIC

__all__ = ["Route", "routes_of"]


@dataclass(frozen=True)
class Route:
    """Values ``y[src_index]`` of part ``src`` go to ``u[dst_index]`` of the
    part that holds the route; ``every``: only at base points that are a
    multiple of it (the least common multiple of two components' own
    steps where neither divides the other, as libcosim passes them)."""
    src: int
    src_index: np.ndarray
    dst_index: np.ndarray
    every: int = 1



def routes_of(parts, connections) -> tuple[list, list]:
    """The connected inputs of every part (in connection order) and the
    routes that fill them, numeric and String."""
    index = {p.name: p for p in parts}
    wiring = {p.name: [] for p in parts}
    for c in connections:
        dst, src = index.get(c.end_element), index.get(c.start_element)
        if dst is None or src is None or dst.model is None or src.model is None:
            continue
        var = dst.model.variables.get(c.end_connector)
        if var is None or var.shape:
            continue
        if var.family == "string":
            dst.string_inputs.append(var)
        elif var.family in NUMERIC:
            dst.inputs.append(var)
        else:
            continue
        wiring[dst.name].append((var, src, c.start_connector))
    routes, string_routes = [], []
    for part in parts:
        numeric, strings = {}, {}
        position = {v.name: i for i, v in enumerate(part.inputs)}
        string_position = {v.name: i for i, v in enumerate(part.string_inputs)}
        for var, src, output in wiring[part.name]:
            if var.family == "string":
                outs, pos, table = src.string_outputs, string_position, strings
            else:
                outs, pos, table = src.outputs, position, numeric
            o = next((i for i, v in enumerate(outs) if v.name == output), None)
            if o is None:
                continue
            every = _gate(src.every, part.every)
            table.setdefault((src.index, every), ([], []))
            table[(src.index, every)][0].append(o)
            table[(src.index, every)][1].append(pos[var.name])
        routes.append([Route(s, np.array(a, dtype=int), np.array(b, dtype=int), e)
                       for (s, e), (a, b) in numeric.items()])
        string_routes.append([Route(s, np.array(a, dtype=int), np.array(b, dtype=int), e)
                              for (s, e), (a, b) in strings.items()])
    return routes, string_routes


def _gate(src_every: int, dst_every: int) -> int:
    """The base points at which a value passes from a component stepping
    every ``src_every`` base steps to one stepping every ``dst_every``: every
    point where both have just ended a step (libcosim's rule, their least
    common multiple).  Where one divides the other, the destination takes
    at each of its steps the source's newest output, so no gate is needed."""
    if src_every % dst_every == 0 or dst_every % src_every == 0:
        return 1
    return lcm(src_every, dst_every)
