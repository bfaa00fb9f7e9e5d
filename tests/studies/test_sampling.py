"""Cases by design of experiments (``studies/sampling.py``): the Latin
hypercube's strata, the Sobol sequence's balance, the same cases for the
same seed, and bad ranges refused in one sentence."""
import numpy as np
import pytest
from crane_cosim.errors import CraneCosimError
from crane_cosim.studies.sampling import cases_of_sample

RANGES = ["vessel.m=1000,1400", "vessel.k_roll=4e5,6e5", "crane.m_boom=-1,1"]
BOUNDS = {"vessel.m": (1000.0, 1400.0), "vessel.k_roll": (4e5, 6e5), "crane.m_boom": (-1.0, 1.0)}


def _unit(cases):
    """The cases' values mapped onto [0, 1) by their ranges: (cases x ranges)."""
    return np.array([[(float(values[t]) - lo) / (hi - lo) for t, (lo, hi) in BOUNDS.items()] for _, values in cases])


def test_a_latin_hypercube_puts_one_case_in_each_stratum_of_each_range():
    cases = cases_of_sample("lhs", 20, RANGES, seed=3)
    assert [name for name, _ in cases] == [f"case{k:04d}" for k in range(1, 21)]
    strata = np.floor(_unit(cases) * 20).astype(int)
    for column in strata.T:
        assert sorted(column) == list(range(20))


def test_a_sobol_sequence_is_balanced_in_every_half_and_quarter():
    """16 points: each range's halves hold 8, its quarters 4, and each pair
    of ranges' 2 x 2 cells 4 (a (t, m, s)-net's property at t = 0 for the
    first two dimensions)."""
    u = _unit(cases_of_sample("sobol", 16, RANGES, seed=1))
    for column in u.T:
        assert np.bincount(np.floor(column * 2).astype(int)).tolist() == [8, 8]
        assert np.bincount(np.floor(column * 4).astype(int)).tolist() == [4, 4, 4, 4]
    cells = np.floor(u[:, 0] * 2).astype(int) * 2 + np.floor(u[:, 1] * 2).astype(int)
    assert np.bincount(cells).tolist() == [4, 4, 4, 4]


@pytest.mark.parametrize("design", ["lhs", "sobol"])
def test_the_same_seed_gives_the_same_cases_and_another_others(design):
    assert cases_of_sample(design, 8, RANGES, seed=5) == cases_of_sample(design, 8, RANGES, seed=5)
    assert cases_of_sample(design, 8, RANGES, seed=5) != cases_of_sample(design, 8, RANGES, seed=6)


@pytest.mark.parametrize("design, count, ranges, fragment", [
    ("lhs", 4, ["vessel.m=1400,1000"], "--range 'vessel.m=1400,1000': the low end must lie below the high end"),
    ("lhs", 4, ["vessel.m=1000"], "--range 'vessel.m=1000' is not of the form component.variable=low,high"),
    ("lhs", 4, ["m=1,2"], "--range 'm=1,2' is not of the form component.variable=low,high"),
    ("lhs", 4, ["vessel.m=a,2"], "--range 'vessel.m=a,2' is not of the form"),
    ("lhs", 4, ["vessel.m=1,2", "vessel.m=3,4"], "--range vessel.m is given twice"),
    ("lhs", 4, [], "--sample lhs needs the ranges it samples"),
    ("lhs", 0, ["vessel.m=1,2"], "--sample lhs 0: the number of cases must be at least 1"),
    ("sobol", 10, ["vessel.m=1,2"], "--sample sobol 10: a Sobol sequence is balanced only for a power of two points; "
                                    "ask 8 or 16"),
    ("random", 4, ["vessel.m=1,2"], "--sample 'random' is none of the designs: lhs, sobol"),
])
def test_a_bad_design_is_refused_in_one_sentence(design, count, ranges, fragment):
    with pytest.raises(CraneCosimError) as error:
        cases_of_sample(design, count, ranges)
    assert fragment in str(error.value)
