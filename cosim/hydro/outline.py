"""A hull's outline to draw: the edges of its panel mesh where the surface
folds (two panels meeting at more than :data:`FOLD` degrees: a box's
corners, a deck edge, a chine, a transom) and where it ends (an open deck,
the rim of a mesh cut at the water), joined into polylines with the points
on straight runs left out, so that a drawing of the hull at every frame of
a run holds tens of points, not the thousands of the mesh's edges."""
from __future__ import annotations

import math

import numpy as np

__all__ = ["hull_outline", "FOLD"]

#: the angle between two panels' normals [deg] from which their common edge
#: is drawn: a hull's smooth curvature between panels stays under it
FOLD = 30.0


def hull_outline(vertices, faces) -> np.ndarray:
    """The outline of the mesh of ``vertices`` (n, 3) [m] and ``faces`` (m,
    4) (vertex indices; a triangle repeats its last vertex), in the mesh's
    coordinates: polylines one after the other, a row of NaN after each
    (k, 3)."""
    vertices = np.asarray(vertices, float)
    normals = {}
    for f, face in enumerate(np.asarray(faces, int)):
        ring = list(dict.fromkeys(face.tolist()))  # a triangle's repeated vertex once
        n = _normal(vertices[ring])
        for a, b in zip(ring, ring[1:] + ring[:1]):
            normals.setdefault((min(a, b), max(a, b)), []).append(n)
    cos_fold = math.cos(math.radians(FOLD))
    edges = [e for e, ns in normals.items() if len(ns) != 2 or float(ns[0] @ ns[1]) < cos_fold]
    rows = []
    for chain in _chains(edges):
        rows.extend(_straightened(vertices[chain]))
        rows.append([np.nan] * 3)
    return np.array(rows, float).reshape(-1, 3)


def _normal(points: np.ndarray) -> np.ndarray:
    """The unit normal of a planar polygon (Newell's method)."""
    n = np.zeros(3)
    for p, q in zip(points, np.roll(points, -1, axis=0)):
        n += np.cross(p, q)
    length = np.linalg.norm(n)
    return n / length if length > 0 else n


def _chains(edges) -> list[list[int]]:
    """The edges ``(a, b)`` joined into chains of vertex indices: each walked
    from an end (a vertex of one edge or more than two) or, for a loop,
    from any vertex, until it ends or meets such a vertex."""
    links: dict[int, list[int]] = {}
    for a, b in edges:
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    unused = {tuple(sorted(e)) for e in edges}
    chains = []
    starts = [v for v, ns in links.items() if len(ns) != 2] + list(links)
    for start in starts:
        for nxt in list(links[start]):
            if tuple(sorted((start, nxt))) not in unused:
                continue
            chain, prev, cur = [start], start, nxt
            unused.discard(tuple(sorted((prev, cur))))
            chain.append(cur)
            while len(links[cur]) == 2:
                following = links[cur][0] if links[cur][1] == prev else links[cur][1]
                key = tuple(sorted((cur, following)))
                if key not in unused:
                    break
                unused.discard(key)
                prev, cur = cur, following
                chain.append(cur)
            chains.append(chain)
    return chains


def _straightened(points: np.ndarray, tolerance: float = 1e-9) -> list:
    """``points`` without those in the middle of a straight run (the cross
    product of the directions in and out under ``tolerance`` of their
    lengths)."""
    kept = [points[0]]
    for i in range(1, len(points) - 1):
        d_in, d_out = points[i] - kept[-1], points[i + 1] - points[i]
        if np.linalg.norm(np.cross(d_in, d_out)) > tolerance * np.linalg.norm(d_in) * np.linalg.norm(d_out) \
                or float(d_in @ d_out) < 0:
            kept.append(points[i])
    kept.append(points[-1])
    return [list(p) for p in kept]
