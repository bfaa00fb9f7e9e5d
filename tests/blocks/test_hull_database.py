"""The hydrodynamic database: the shipped barge's hydrostatics against the
hand formulas of a box, its long-wave limit, and the file's round trip and
refusals."""
import numpy as np
import pytest

from crane_cosim.blocks.hull_database import read_database, write_database

#: the shipped barge (examples/hydro_vessel/barge.toml): length, beam, draft, KG [m]
L, B, T, KG = 40.0, 12.0, 2.5, 3.0


@pytest.fixture(scope="module")
def barge():
    return read_database("barge")


def test_box_barge_hydrostatics_against_hand_formulas(barge):
    """Heave rho g A_wp, roll rho g V GM_T and pitch rho g V GM_L, with GM =
    KB + BM - KG, KB = T/2, BM_T = B^2 / (12 T), BM_L = L^2 / (12 T)."""
    rho_g, V = barge.rho * barge.g, L * B * T
    assert barge.displaced_volume == pytest.approx(V, rel=1e-12)
    assert barge.waterplane_area == pytest.approx(L * B, rel=1e-12)
    C = barge.hydrostatic_stiffness
    # measured: 4.3e-8 each (the waterplane's moments by two points a
    # direction on each panel, exact; the same 4.3e-8 in all three)
    assert C[2, 2] == pytest.approx(rho_g * L * B, rel=1.3e-7)
    assert C[3, 3] == pytest.approx(rho_g * V * (T / 2 + B ** 2 / (12 * T) - KG), rel=1.3e-7)
    assert C[4, 4] == pytest.approx(rho_g * V * (T / 2 + L ** 2 / (12 * T) - KG), rel=1.3e-7)
    # no restoring in the horizontal plane, nor couplings of heave, roll and
    # pitch, but for round-off (measured: 5.1e-18 of the largest, C_46)
    off = ~np.eye(6, dtype=bool)
    off[:, [0, 1, 5]] = off[[0, 1, 5], :] = True
    assert np.abs(C[off]).max() <= 1.5e-17 * np.abs(C).max()


def test_long_waves_heave_rao_is_one(barge):
    """A wave far longer than the hull lifts it with the water: the heave
    RAO tends to 1 (measured 3.5e-6 from 1 at 0.05 rad/s, every heading)."""
    assert np.abs(np.abs(barge.rao[:, 0, 2]) - 1).max() < 1e-5


def test_added_mass_is_symmetric_and_damping_positive(barge):
    """Reciprocity (A_ij = A_ji; measured 1.6e-4 of the largest at infinite
    frequency) and a damping that takes energy (B_ii >= 0)."""
    A = barge.added_mass_inf
    assert np.abs(A - A.T).max() < 4e-4 * np.abs(A).max()
    diag = np.diagonal(barge.radiation_damping, axis1=1, axis2=2)
    assert diag.min() > -1e-6 * diag.max()


def test_round_trip(barge, tmp_path):
    path = write_database(barge, tmp_path / "copy.nc")
    again = read_database(path)
    for name in ("omega", "heading", "added_mass", "radiation_damping", "added_mass_inf", "excitation", "rao",
                 "hydrostatic_stiffness", "inertia_matrix"):
        assert np.array_equal(getattr(again, name), getattr(barge, name)), name
    assert (again.mass, again.hull) == (barge.mass, barge.hull)
    assert np.array_equal(again.outline, barge.outline, equal_nan=True)
    for name in ("A", "B", "C"):
        assert np.array_equal(getattr(again.radiation, name), getattr(barge.radiation, name)), name
    assert (again.radiation.orders, again.radiation.errors, again.radiation.states) == (
        barge.radiation.orders, barge.radiation.errors, barge.radiation.states)


def test_refusals_name_the_file(tmp_path):
    with pytest.raises(ValueError, match="no such file.*the shipped ones: barge"):
        read_database(tmp_path / "missing.nc")
    bad = tmp_path / "bad.nc"
    bad.write_text("not NetCDF")
    with pytest.raises(ValueError, match=f"{bad}: not a NetCDF 3 file"):
        read_database(bad)


def test_the_outline_is_the_boxs_twelve_edges(barge):
    """The shipped barge's outline, drawn by the animation: the box's twelve
    edges, 4 (L + B + D) of them in all, each a straight polyline, every
    point a corner."""
    o = barge.outline
    ends = np.flatnonzero(np.isnan(o[:, 0]))
    pieces = np.split(o, ends + 1)[:-1]
    assert len(pieces) == 12 and all(len(p) == 3 for p in pieces)  # two corners and the NaN row
    assert sum(np.linalg.norm(p[1] - p[0]) for p in pieces) == pytest.approx(4 * (L + B + 4.0), rel=1e-12)
    corners = o[np.isfinite(o[:, 0])]
    assert np.allclose(np.abs(corners[:, :2]), [L / 2, B / 2]) and set(np.round(corners[:, 2], 9)) == {-T, 4.0 - T}
