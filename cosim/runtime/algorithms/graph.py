"""The exchange as a graph: which components an iterated algorithm steps
again, and how many passes carry a value along the longest path of direct
feedthrough that runs against the stepping order."""
from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np

__all__ = ["stepped_again", "links_against_order"]


def stepped_again(plan) -> list[int]:
    """The parts an iterated algorithm rolls back and steps again: those
    that read a value at ``t`` in the first pass (an output of a part after
    them in the order, or their own), and, in turn, those that read one of
    them."""
    again = set()
    for k, routes in enumerate(_all_routes(plan)):
        if any(src >= k or src in again for src in {r.src for r in routes}):
            again.add(k)
    return sorted(again)


def _all_routes(plan) -> list[list]:
    """Per part, its numeric and String routes together."""
    return [list(a) + list(b) for a, b in zip(plan.routes, plan.string_routes)]


def links_against_order(plan) -> int:
    """The most connections that run against the stepping order (to the same
    or an earlier component) on one path of direct feedthrough: from any
    output, through connections and through the declared dependencies of
    outputs on inputs (``ModelStructure``; an output that declares none
    depends on every input, FMI 2.0 section 2.2.8).  A value passed on in
    order, one component after another, reaches the end of such a path in
    that many passes and one more.  A loop of direct feedthrough (an
    algebraic loop, such as a friction torque on a joint reaction that
    depends on that torque) is gone round once: its links against the
    order (the components they enter, of the strongly connected inputs
    that make it up) count once."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    parts = plan.parts
    # the inputs, numbered; feeds[(k, o)]: the inputs (d, j) output o of part k feeds
    node = {key: i for i, key in enumerate((k, j) for k, p in enumerate(parts) for j in range(len(p.inputs)))}
    feeds = {}
    for d, routes in enumerate(plan.routes):
        for r in routes:
            for o, j in zip(r.src_index, r.dst_index):
                feeds.setdefault((r.src, int(o)), []).append((d, int(j)))
    # the links from input j of part k, through an output of k that depends
    # on it directly, to the inputs that output feeds
    edges = {}
    for k, part in enumerate(parts):
        position = {v.name: j for j, v in enumerate(part.inputs)}
        for o, out in enumerate(part.outputs):
            deps = part.model.dependencies.get(out.name)
            for j in (range(len(position)) if deps is None else (position[n] for n in deps if n in position)):
                for d, jj in feeds.get((k, o), ()):
                    edges[node[(k, j)], node[(d, jj)]] = int(d <= k)
    # the first link: from an output to the inputs it feeds
    first = {}
    for (k, o), ends in feeds.items():
        for d, j in ends:
            first[node[(d, j)]] = max(first.get(node[(d, j)], 0), int(d <= k))
    if not first:
        return 0
    pairs = np.array(list(edges), dtype=int).reshape(-1, 2)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(node),) * 2)
    _, loop = connected_components(graph, directed=True, connection="strong")
    # once round a loop, each component is entered once at most: its links
    # against the order are at most the components they enter
    component = [k for k, j in node]
    entered, between = {}, {}
    for (a, b), w in edges.items():
        if loop[a] != loop[b]:
            between.setdefault(loop[b], []).append((loop[a], w))
        elif w:
            entered.setdefault(loop[a], set()).add(component[b])
    inside = {c: len(ks) for c, ks in entered.items()}
    # the longest path over the loops in the order of their links
    reach = {}
    for c in TopologicalSorter({c: [a for a, _ in between.get(c, ())] for c in set(loop)}).static_order():
        entry = max([first.get(i, -1) for i in np.flatnonzero(loop == c)]
                    + [reach[a] + w for a, w in between.get(c, ()) if reach[a] >= 0])
        reach[c] = entry + inside.get(c, 0) if entry >= 0 else -1
    return max(reach.values())
