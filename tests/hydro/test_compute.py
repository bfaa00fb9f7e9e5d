"""``crane-cosim hydro``: a small box computed by Capytaine from its hull
file, its database against the hand formulas and the shipped barge's, and
the hull file's refusals; without Capytaine, one sentence naming the extra.
Capytaine runs in ``crane-cosim hydro`` processes (the ``hydro`` fixture,
conftest.py), the test environment being a plain install's."""
import os
import subprocess
import sys

import numpy as np
import pytest

from crane_cosim.blocks.hull_database import read_database
from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.hydro.compute import HYDRO_MISSING, read_hull
from limits import HUNG

HULL = """name = "small"
description = "box 40 x 12 x 4 m, 2.5 m draft, coarse"
[box]
length = 40.0
beam = 12.0
depth = 4.0
draft = 2.5
[mass]
kg = 3.0
radii_of_gyration = [4.2, 10.0, 10.4]
[panels]
size = 3.0
[frequencies]
omega_min = 0.05
omega_max = 1.05
count = 3
[headings]
degrees = [90]
[water]
rho = 1025.0
g = 9.81
"""


def test_hydro_command_writes_a_database(tmp_path, hydro):
    hull = tmp_path / "small.toml"
    hull.write_text(HULL)
    proc = hydro(hull)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "small.nc")
    db = read_database(tmp_path / "small.nc")
    shipped = read_database("barge")
    assert db.omega.tolist() == [0.05, 0.55, 1.05] and db.heading.tolist() == [pytest.approx(np.pi / 2)]
    # the hydrostatics hardly depend on the panels' size: the box's, as the shipped barge's
    # (measured: heave equal, roll 1.4e-3 and pitch 8.5e-5 apart with 3 m panels against 1 m)
    assert np.allclose(np.diag(db.hydrostatic_stiffness), np.diag(shipped.hydrostatic_stiffness), rtol=4.1e-3)
    assert db.mass == shipped.mass == pytest.approx(1025.0 * 40 * 12 * 2.5)
    # long waves: the heave RAO is 1 (measured 2.2e-7 from it)
    assert abs(abs(db.rao[0, 0, 2]) - 1) < 7e-7
    # the coarse mesh's heave added mass at 0.55 rad/s near the shipped 1 m mesh's (measured 0.58%)
    i = np.argmin(abs(shipped.omega - 0.55))
    assert shipped.omega[i] == pytest.approx(0.55, abs=0.03)
    assert db.added_mass[1, 2, 2] == pytest.approx(shipped.added_mass[i, 2, 2], rel=0.0175)
    # the mean drift (tests/hydro/test_drift.py): nothing from 125 km waves, along the waves at 1.05 rad/s
    wall = 0.5 * 1025.0 * 9.81 * 40.0
    assert db.drift.shape == (1, 3, 2) and abs(db.drift[0, 0]).max() < 1e-12 * wall
    assert 0.1 * wall < db.drift[0, 2, 1] < wall and abs(db.drift[0, 2, 0]) < 1e-3 * db.drift[0, 2, 1]


@pytest.mark.parametrize("change, message", [
    (("draft = 2.5", "draft = 4.5"), "box.draft must be less than box.depth"),
    (("kg = 3.0", ""), "mass.kg is missing"),
    (("count = 3", "count = 1"), "a count of 2 or more"),
    (("[box]", "mesh = 'hull.stl'\n[box]"), "one of them"),
])
def test_hull_file_refusals(tmp_path, change, message):
    hull = tmp_path / "hull.toml"
    hull.write_text(HULL.replace(*change))
    with pytest.raises(CraneCosimError, match=message):
        read_hull(hull)


def _box_below_water(path, panels=(13, 4), inward=False):
    """A WAMIT mesh file (.gdf) of the barge's box below the water (40 x 12
    m, 2.5 m draft): ``panels`` along x and y on the bottom and the sides,
    one deep; each panel's vertices counter-clockwise seen from the water,
    or, ``inward``, the sides' the other way round."""
    L, B, T = 40.0, 12.0, 2.5
    xs, ys = np.linspace(-L / 2, L / 2, panels[0] + 1), np.linspace(-B / 2, B / 2, panels[1] + 1)
    quads = []
    for x0, x1 in zip(xs[:-1], xs[1:]):
        quads += [[(x0, y0, -T), (x0, y1, -T), (x1, y1, -T), (x1, y0, -T)] for y0, y1 in zip(ys[:-1], ys[1:])]
        side = [(x0, B / 2, -T), (x0, B / 2, 0), (x1, B / 2, 0), (x1, B / 2, -T)]
        quads += [side, [(x, -y, z) for x, y, z in side[::-1]]]
    for y0, y1 in zip(ys[:-1], ys[1:]):
        end = [(L / 2, y0, -T), (L / 2, y1, -T), (L / 2, y1, 0), (L / 2, y0, 0)]
        quads += [end, [(-x, y, z) for x, y, z in end[::-1]]]
    if inward:
        quads = [q[::-1] if abs(q[0][1]) == B / 2 and q[0][1] == q[1][1] else q for q in quads]
    lines = ["barge below the water", "1.0 9.81", "0 0", str(len(quads))]
    lines += [f"{x:.9f} {y:.9f} {z:.9f}" for q in quads for x, y, z in q]
    path.write_text("\n".join(lines) + "\n")
    return path


MESH_HULL = HULL.replace("""[box]
length = 40.0
beam = 12.0
depth = 4.0
draft = 2.5
[mass]
kg = 3.0""", """mesh = "barge.gdf"
[mass]
cog = [0.0, 0.0, 0.5]""").replace("[panels]\nsize = 3.0\n", "")


def test_a_mesh_hull_has_the_hand_formulas_hydrostatics(tmp_path, hydro):
    """The barge as a mesh file of 13 x 4 panels (3.1 m x 3 m) instead of a
    box: its volume, mass and heave stiffness exact, its roll and pitch
    stiffness rho g (I_wp + V z_B) - m g z_G to round-off (the waterplane's
    moments by two points a direction on each panel; one point, at the
    centre, would give the roll's 9.8% short with 4 panels across), and
    its heave added mass near the shipped barge's (1 m panels; measured
    0.48% apart)."""
    _box_below_water(tmp_path / "barge.gdf")
    (tmp_path / "meshed.toml").write_text(MESH_HULL)
    proc = hydro(tmp_path / "meshed.toml")
    assert proc.returncode == 0, proc.stderr
    db, shipped = read_database(tmp_path / "meshed.nc"), read_database("barge")
    rho_g, V = 1025.0 * 9.81, 40 * 12 * 2.5
    assert db.displaced_volume == pytest.approx(V, rel=1e-12) and db.mass == pytest.approx(1025.0 * V, rel=1e-12)
    z_B, z_G = -1.25, 0.5
    C = db.hydrostatic_stiffness
    assert C[2, 2] == pytest.approx(rho_g * 40 * 12, rel=1e-12)
    assert C[3, 3] == pytest.approx(rho_g * (40 * 12 ** 3 / 12 + V * (z_B - z_G)), rel=1e-12)
    assert C[4, 4] == pytest.approx(rho_g * (12 * 40 ** 3 / 12 + V * (z_B - z_G)), rel=1e-12)
    i = np.argmin(abs(shipped.omega - 0.55))
    assert db.added_mass[1, 2, 2] == pytest.approx(shipped.added_mass[i, 2, 2], rel=0.015)
    # the outline drawn: the bottom's and the corners' folds and the rim at
    # the water where the mesh ends, 4 (L + B) + 4 T, the panels' own edges
    # on the flat sides left out
    pieces = np.split(db.outline, np.flatnonzero(np.isnan(db.outline[:, 0])) + 1)[:-1]
    length = sum(np.linalg.norm(np.diff(piece[:-1], axis=0), axis=1).sum() for piece in pieces)
    assert length == pytest.approx(4 * (40 + 12) + 4 * 2.5, rel=1e-12)


def test_a_mesh_facing_into_the_hull_is_refused(tmp_path, hydro):
    _box_below_water(tmp_path / "barge.gdf", inward=True)
    (tmp_path / "meshed.toml").write_text(MESH_HULL)
    proc = hydro(tmp_path / "meshed.toml")
    assert proc.returncode == 2
    last = proc.stderr.splitlines()[-1]
    assert last.startswith("crane-cosim: error: hull file ") and "Traceback" not in proc.stderr, proc.stderr
    assert "the mesh barge.gdf is not a hull whose panels face the water" in last


def test_without_capytaine_the_extra_is_named(tmp_path, monkeypatch, capsys):
    """A plain install has no Capytaine: one sentence naming the extra, exit 2."""
    monkeypatch.setitem(sys.modules, "capytaine", None)  # import capytaine raises ImportError
    hull = tmp_path / "small.toml"
    hull.write_text(HULL)
    assert main(["hydro", str(hull)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"crane-cosim: error: {HYDRO_MISSING}"
    assert not (tmp_path / "small.nc").exists()


def test_a_missing_mesh_file_is_named(tmp_path):
    (tmp_path / "meshed.toml").write_text(MESH_HULL)
    with pytest.raises(CraneCosimError, match="its mesh file .*barge.gdf does not exist"):
        read_hull(tmp_path / "meshed.toml")


#: what Capytaine 3.0 does as it is imported (capytaine/ui/rich.py,
#: set_logging with force=False): a handler on the standard output unless
#: the program has configured logging; then, here, a warning as its first
#: tabulation logs one, and no Capytaine after all
CAPYTAINE_LOGGING = """import logging, sys
if not logging.root.handlers:
    logging.basicConfig(level="WARNING", stream=sys.stdout, format="%(message)s")
logging.getLogger("capytaine.green_functions.delhommeau").warning("Precomputing tabulation")
raise ImportError("a stand-in")
"""


def test_capytaine_s_warnings_go_to_the_standard_error(tmp_path):
    """The standard output of ``crane-cosim hydro`` holds nothing but the
    database's path (here, none): what Capytaine logs goes to the standard
    error, under the command's name."""
    (tmp_path / "capytaine").mkdir()
    (tmp_path / "capytaine" / "__init__.py").write_text(CAPYTAINE_LOGGING)
    (tmp_path / "small.toml").write_text(HULL)
    proc = subprocess.run([sys.executable, "-m", "crane_cosim.cli", "hydro", str(tmp_path / "small.toml")],
                          env={**os.environ, "PYTHONPATH": str(tmp_path)}, capture_output=True, text=True,
                          timeout=HUNG)
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    assert "hydro: Precomputing tabulation" in proc.stderr.splitlines()
