"""The extremes of a sea state from a few records (``cosim/studies/extremes.py``):
the most probable maximum (MPM) from Gumbel's distribution fitted by
moments, its interval from the seeds (Kite 1977), the seeds an interval
needs, the probability of falling below a level; against samples of known
distributions and a Gaussian sea's closed form."""
import math

import numpy as np
import pytest

from crane_cosim.blocks.waves import realisation
from crane_cosim.studies.extremes import frequency_factor, gumbel_of, mpm_interval, probability_below, seeds_needed

MU, BETA, RECORDS = 100.0, 10.0, 50.0
#: the MPM over RECORDS records of Gumbel(MU, BETA) maxima: the mode of their largest
TRUE_MPM = MU + BETA * math.log(RECORDS)


def test_the_mpm_of_many_gumbel_maxima_is_the_mode_of_their_largest():
    x = np.random.default_rng(7).gumbel(MU, BETA, 20000)
    value, low, high = mpm_interval(x, RECORDS)
    # measured 0.49 off; the estimate's standard error (Kite) is 0.30
    assert low < TRUE_MPM < high
    assert value == pytest.approx(TRUE_MPM, abs=0.9)
    assert value == pytest.approx(x.mean() + frequency_factor(RECORDS) * x.std(ddof=1), rel=1e-15)


@pytest.mark.parametrize("seeds, coverage", [(3, 0.854), (20, 0.898)])
def test_the_interval_covers_the_mpm_about_as_often_as_its_confidence(seeds, coverage):
    """90% intervals from ``seeds`` maxima, 4000 times: the fraction that
    holds the true MPM (measured; the binomial spread of 4000 trials is
    0.005): Kite's asymptotic error with Student's t is near 0.9 from 20
    seeds, and optimistic by 5 points with 3."""
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(4000):
        _, low, high = mpm_interval(rng.gumbel(MU, BETA, seeds), RECORDS, 0.9)
        hits += low <= TRUE_MPM <= high
    assert hits / 4000 == pytest.approx(coverage, abs=0.015)


def test_the_mpm_of_a_gaussian_sea_is_near_its_rayleigh_closed_form():
    """The wave elevation of 20 seeds of 600 s of a JONSWAP sea (Hs 4 m,
    Tp 8 s), extrapolated to 3 h, against the narrow-band closed form
    sigma sqrt(2 ln(T / Tz)) (Rayleigh peaks, Tz from the spectral
    moments): inside the interval, and 3.9% above it (measured), as a
    broad-banded sea's maxima are."""
    t = np.arange(0.0, 600.0, 0.2)
    maxima = []
    for seed in range(1, 21):
        w, a, phi = realisation(4.0, 8.0, 3.3, seed, 400)
        maxima.append(float((np.cos(np.outer(t, w) + phi) @ a).max()))
    m0, m2 = float((a ** 2 / 2).sum()), float((a ** 2 / 2 * w ** 2).sum())
    Tz = 2 * math.pi * math.sqrt(m0 / m2)
    closed = math.sqrt(m0) * math.sqrt(2 * math.log(10800.0 / Tz))
    value, low, high = mpm_interval(maxima, 10800.0 / 600.0)
    assert low < closed < high
    assert 0.0 < (value - closed) / closed < 0.06


def test_the_seeds_needed_are_the_fewest_whose_interval_is_narrow_enough():
    x = np.random.default_rng(3).gumbel(MU, BETA, 4)
    n = seeds_needed(x, RECORDS, 0.05)
    g = gumbel_of(x)
    target = 0.05 * g.mode_of_largest(RECORDS)

    def half_width(count):
        """The half width of the interval of ``count`` maxima of this mean and spread."""
        z = np.arange(count) - (count - 1) / 2
        _, low, high = mpm_interval(g.mean + g.s * z / z.std(ddof=1), RECORDS)
        return (high - low) / 2

    assert n > 4
    assert half_width(n) <= target < half_width(n - 1)
    assert seeds_needed(x, RECORDS, 10.0) == 4  # wide enough already: the seeds given


def test_the_probability_below_a_level_is_that_of_the_fitted_minima():
    """Minima of Gumbel's distribution for minima (location 50, scale 5):
    the probability that the least of 30 records falls below 20 is
    1 - (1 - F(20))**30, F that distribution's; from 20000 samples within
    their spread (0.004 measured)."""
    x = np.random.default_rng(5).gumbel(-50.0, 5.0, 20000) * -1.0
    exact = 1.0 - math.exp(-30.0 * math.exp(-(-20.0 + 50.0) / 5.0))
    assert probability_below(x, 20.0, 30.0) == pytest.approx(exact, abs=0.012)
    assert probability_below(np.full(4, 70.0), 20.0, 30.0) == 0.0  # no spread, above the level
