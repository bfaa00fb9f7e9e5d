"""A hull's outline (cosim/hydro/outline.py): the folds and rims of a panel
mesh, joined into polylines without the points of straight runs."""
import numpy as np
import pytest

from crane_cosim.hydro.outline import hull_outline


def _box(L=4.0, B=2.0, D=1.0, n=4):
    """A closed box of n x n quads a face, outward (vertices, faces)."""
    vertices, faces, index = [], [], {}

    def vertex(p):
        key = tuple(np.round(p, 12))
        if key not in index:
            index[key] = len(vertices)
            vertices.append(p)
        return index[key]
    size = np.array([L, B, D])
    for axis in range(3):
        u, v = (axis + 1) % 3, (axis + 2) % 3
        for sign in (-1, 1):
            for i in range(n):
                for j in range(n):
                    corners = []
                    for a, b in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)):
                        p = np.zeros(3)
                        p[axis], p[u], p[v] = sign * size[axis] / 2, (a / n - 0.5) * size[u], (b / n - 0.5) * size[v]
                        corners.append(vertex(p))
                    faces.append(corners if sign > 0 else corners[::-1])
    return np.array(vertices), np.array(faces)


def _pieces(outline):
    return np.split(outline, np.flatnonzero(np.isnan(outline[:, 0])) + 1)[:-1]


def _length(outline):
    return sum(np.linalg.norm(np.diff(p[:-1], axis=0), axis=1).sum() for p in _pieces(outline))


def test_a_box_is_its_twelve_edges_from_quads_or_triangles():
    vertices, quads = _box()
    triangles = np.array([t for q in quads for t in ([q[0], q[1], q[2], q[2]], [q[0], q[2], q[3], q[3]])])
    for faces in (quads, triangles):
        outline = hull_outline(vertices, faces)
        assert _length(outline) == pytest.approx(4 * (4.0 + 2.0 + 1.0), rel=1e-12)
        # only corners: every point of the outline is a corner of the box
        finite = outline[np.isfinite(outline[:, 0])]
        assert np.allclose(np.abs(finite), [2.0, 1.0, 0.5])


def test_an_open_mesh_is_drawn_at_its_rim_and_a_smooth_one_not_across():
    """The box without its top: the rim where it ends is drawn too; a
    polygonal cylinder of 36 sides (10 degrees between panels, under the
    fold) shows its two rims and no edge along its side."""
    vertices, faces = _box()
    top = [f for f in faces if not np.allclose(vertices[f][:, 2], 0.5)]
    assert _length(hull_outline(vertices, np.array(top))) == pytest.approx(4 * (4.0 + 2.0 + 1.0), rel=1e-12)
    k, r, h = 36, 1.0, 2.0
    ring = [[r * np.cos(2 * np.pi * i / k), r * np.sin(2 * np.pi * i / k)] for i in range(k)]
    vertices = np.array([[x, y, z] for z in (0.0, h) for x, y in ring])
    faces = np.array([[i, (i + 1) % k, k + (i + 1) % k, k + i] for i in range(k)])
    assert _length(hull_outline(vertices, faces)) == pytest.approx(2 * 2 * k * r * np.sin(np.pi / k), rel=1e-12)
