"""``crane-cosim hydro``: a small box computed by Capytaine from its hull
file, its database against the hand formulas and the shipped barge's, and
the hull file's refusals."""
import numpy as np
import pytest

from crane_cosim.blocks.hull_database import read_database
from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.hydro.compute import read_hull

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


def test_hydro_command_writes_a_database(tmp_path, capsys):
    hull = tmp_path / "small.toml"
    hull.write_text(HULL)
    assert main(["hydro", str(hull)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "small.nc")
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
