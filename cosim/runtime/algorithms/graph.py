"""The exchange as a graph: which components an iterated algorithm steps
again, and how many passes carry a value along the longest path of direct
feedthrough that runs against the stepping order."""
from __future__ import annotations

from graphlib import TopologicalSorter

import numpy as np

__all__ = ["stepped_again", "steps_of_passes", "read_outputs", "links_against_order", "point_schedule"]


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


def steps_of_passes(plan, again: list[int], passes: int, fixed_step: set) -> list[tuple]:
    """The steps of an iterated algorithm's first pass (every part, in
    order) and of its ``passes`` re-step passes (the parts ``again``), as
    ``(pass, part, halves, last)``: whether the part steps in halves (an
    input read later in this pass or in a later one takes its mid-step
    value, or the part cannot vary its step) and whether this is its last
    step of the communication step.  A step that nothing reads is left
    out (not in halves, and stepped again later)."""
    sources = [{r.src for r in rts} for rts in plan.routes]
    order_of = [list(range(len(plan.parts)))] + [again] * passes
    steps = []
    for p, order in enumerate(order_of):
        for j, k in enumerate(order):
            later = set(order[j + 1:]).union(*order_of[p + 1:])
            halves = any(k in sources[c] for c in later) or k in fixed_step
            last = not any(k in q for q in order_of[p + 1:])
            if halves or last:
                steps.append((p, k, halves, last))
    return steps


def read_outputs(plan) -> tuple[list[set], set]:
    """Per part, the indices of its outputs that an input reads; and the
    parts read in the first pass before they step (by a later part, or by
    themselves)."""
    read = [set() for _ in plan.parts]
    early = set()
    for k, rts in enumerate(plan.routes):
        for r in rts:
            read[r.src].update(int(i) for i in r.src_index)
            if r.src >= k:
                early.add(r.src)
    return read, early


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
    # scipy.sparse only where a plan is made, not at every import of the runtime
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


def point_schedule(plan):
    """How to read every output at a communication point, after a step, so
    that each output that depends directly on an input (``ModelStructure``;
    on every input where it declares none) agrees with its inputs there:
    ``(groups, read_first)``, the components to read first (their outputs
    of the state alone are wanted before the groups read them), then the
    groups in order, each a tuple of components to give their inputs and
    read, once, or, where its outputs depend on one another round a loop
    (``looped``), round and round until they settle.  A component is taken,
    in the stepping order, as soon as one of its outputs not yet final
    depends only on final inputs; a loop of direct feedthrough (an algebraic
    loop, such as a friction torque on a joint reaction that depends on
    it), when its inputs from outside are final.  None where Strings are
    exchanged (then :func:`links_against_order` passes carry the values).

    On the crane on the vessel (vessel, crane, controller): the controller
    (its torques from the crane's joint states), the crane (its bias wrench
    from the torques), the vessel (the mount's acceleration from the bias
    wrench) and the crane again (the mount wrench from that acceleration):
    four components read, where three passes in order read eight."""
    # scipy.sparse only where a plan is made, not at every import of the runtime
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    if any(plan.string_routes):
        return None
    parts = plan.parts
    node = {key: i for i, key in enumerate((k, o) for k, p in enumerate(parts) for o in range(len(p.outputs)))}
    source = [{} for _ in parts]  # per part, input j -> the output (k, o) that feeds it
    for d, routes in enumerate(plan.routes):
        for r in routes:
            for o, j in zip(r.src_index, r.dst_index):
                source[d][int(j)] = (r.src, int(o))
    # per output, the outputs it depends on directly, through its inputs
    needs = {}
    for k, part in enumerate(parts):
        position = {v.name: j for j, v in enumerate(part.inputs)}
        for o, out in enumerate(part.outputs):
            declared = part.model.dependencies.get(out.name)
            inputs = range(len(position)) if declared is None else [position[n] for n in declared if n in position]
            needs[k, o] = {source[k][j] for j in inputs if j in source[k]}
    pairs = np.array([(node[a], node[b]) for b, ns in needs.items() for a in ns], dtype=int).reshape(-1, 2)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(len(node),) * 2)
    _, scc = connected_components(graph, directed=True, connection="strong")
    looped = {scc[a] for a, b in pairs if scc[a] == scc[b]}  # a loop, or an output on its own input
    final = {key: not ns for key, ns in needs.items()}  # of the state alone: final once read
    groups, first_read = [], {}

    def ready(key):
        return not final[key] and all(final[n] or scc[node[n]] == scc[node[key]] for n in needs[key])

    def take(ks, loop, keys=()):
        # the components whose outputs this group needs: of the outputs it
        # makes final (``keys``), or, round a loop, of every input
        needed = ({s for k in ks for s, _ in source[k].values()} if loop
                  else {s for key in keys for s, _ in needs[key]})
        for s in needed:
            first_read.setdefault(s, len(groups))
        groups.append((tuple(ks), loop))

    while not all(final.values()):
        progress = False
        for k, part in enumerate(parts):
            now = [(k, o) for o in range(len(part.outputs)) if ready((k, o)) and scc[node[k, o]] not in looped]
            if now:
                for key in now:
                    final[key] = True
                take([k], False, now)
                progress = True
        if progress:
            continue
        waiting = {}
        for key in final:
            if not final[key] and scc[node[key]] in looped:
                waiting.setdefault(scc[node[key]], []).append(key)
        loops = [c for c, keys in waiting.items() if all(ready(key) for key in keys)]
        if not loops:
            return None  # cannot happen: the loops, condensed, make no loop
        members = waiting[min(loops)]
        for key in members:
            final[key] = True
        ks = sorted({k for k, _ in members})
        take(ks, True)
        # the last round, in which none of their outputs moved, read every
        # output of these components with its inputs as they now stand
        more = True
        while more:
            more = False
            for k in ks:
                for o in range(len(parts[k].outputs)):
                    if not final[k, o] and all(final[n] for n in needs[k, o]):
                        final[k, o] = more = True
    first_taken = {}
    for i, (ks, _) in enumerate(groups):
        for k in ks:
            first_taken.setdefault(k, i)
    read_first = [k for k in range(len(parts))
                  if k not in first_taken or first_read.get(k, len(groups)) <= first_taken[k]]
    return groups, read_first
