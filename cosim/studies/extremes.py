"""The extremes of a sea state from a few short records: the most probable
maximum of a response over the sea state's duration, its confidence
interval from the seeds, the seeds a stated interval needs, and the
probability that a response falls below a level (docs/operability.md).

Each seed's record, ``T_rec`` seconds of the stationary response, gives one
maximum; the largest value of a long record of a stationary process is
Gumbel (Gumbel 1958), ``F(x) = exp(-exp(-(x - mu) / beta))``, fitted here
by moments (``beta = s sqrt(6) / pi``, ``mu = mean - gamma_E beta``, ``s``
the sample standard deviation): steadier than maximum likelihood with a
handful of seeds.  The largest of ``N = T / T_rec`` records is Gumbel of
location ``mu + beta ln N``; its mode, the most probable maximum over ``T``,

    MPM = mu + beta ln N = mean + K s,   K = sqrt(6) / pi (ln N - gamma_E),

is a quantile by the frequency-factor method, of standard error (Kite
1977, Gumbel fitted by moments)

    SE = s / sqrt(n) sqrt(1 + 1.1396 K + 1.1 K^2),

and interval ``MPM -/+ t SE``, Student's ``t`` of ``n - 1`` degrees of
freedom (``s`` comes from the same ``n``; Kite's normal quantile would
make three seeds' interval a third as wide).  Assumed: independent records
(their seeds differ), each long against the response's period.  Minima are
maxima of the negated response: the probability of falling below ``level``
within ``T`` is ``1 - exp(-N exp(-(-level - mu') / beta'))``, ``mu'``,
``beta'`` the fit of the negated minima.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

__all__ = ["Gumbel", "gumbel_of", "mpm", "mpm_interval", "seeds_needed", "probability_below", "frequency_factor",
           "EULER"]

#: Euler's constant, the mean of the standard Gumbel distribution
EULER = 0.5772156649015329
#: the most seeds :func:`seeds_needed` answers (more is no study of ours)
MOST_SEEDS = 10_000


class Gumbel:
    """Gumbel's distribution of location ``mu`` and scale ``beta`` (in the
    response's unit), fitted by moments to ``n`` maxima of ``mean`` and
    sample standard deviation ``s``."""

    def __init__(self, mean: float, s: float, n: int):
        self.mean, self.s, self.n = float(mean), float(s), int(n)
        self.beta = self.s * math.sqrt(6.0) / math.pi
        self.mu = self.mean - EULER * self.beta

    def mode_of_largest(self, records: float) -> float:
        """The mode of the largest of ``records`` (> 0) such maxima."""
        return self.mu + self.beta * math.log(records)

    def cdf_of_largest(self, x: float, records: float) -> float:
        """The probability that the largest of ``records`` maxima is at most ``x``."""
        if self.beta == 0.0:
            return 1.0 if x >= self.mu else 0.0
        return math.exp(-records * math.exp(-(x - self.mu) / self.beta))


def gumbel_of(maxima) -> Gumbel:
    """The Gumbel distribution fitted by moments to ``maxima`` (at least two)."""
    x = np.asarray(maxima, float)
    if x.size < 2:
        raise ValueError(f"a Gumbel fit needs at least two maxima, not {x.size}")
    return Gumbel(float(x.mean()), float(x.std(ddof=1)), x.size)


def frequency_factor(records: float) -> float:
    """``K``: the MPM over ``records`` records is ``mean + K s``."""
    return math.sqrt(6.0) / math.pi * (math.log(records) - EULER)


def mpm(maxima, records: float) -> float:
    """The most probable maximum over ``records`` records (the sea state's
    duration over a record's) from the per-record ``maxima``."""
    return gumbel_of(maxima).mode_of_largest(records)


def _half_width(s: float, n: int, K: float, confidence: float) -> float:
    t = stats.t.ppf(0.5 + confidence / 2.0, n - 1)
    return float(t * s / math.sqrt(n) * math.sqrt(1.0 + 1.1396 * K + 1.1 * K * K))


def mpm_interval(maxima, records: float, confidence: float = 0.9) -> tuple[float, float, float]:
    """``(MPM, low, high)``: the most probable maximum over ``records``
    records and its two-sided interval at ``confidence``."""
    g = gumbel_of(maxima)
    value = g.mode_of_largest(records)
    hw = _half_width(g.s, g.n, frequency_factor(records), confidence)
    return value, value - hw, value + hw


def seeds_needed(maxima, records: float, relative: float, confidence: float = 0.9) -> int:
    """The fewest seeds (at least those given) whose MPM interval's half
    width is at most ``relative`` of the MPM's magnitude, were their
    maxima's spread that of ``maxima``; :data:`MOST_SEEDS` where no
    number up to it is enough."""
    g = gumbel_of(maxima)
    target = relative * abs(g.mode_of_largest(records))
    K = frequency_factor(records)
    if _half_width(g.s, g.n, K, confidence) <= target:
        return g.n
    if _half_width(g.s, MOST_SEEDS, K, confidence) > target:
        return MOST_SEEDS
    low, high = g.n, MOST_SEEDS  # too few, enough: the width falls as the seeds grow
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if _half_width(g.s, mid, K, confidence) <= target else (mid, high)
    return high


def probability_below(minima, level: float, records: float) -> float:
    """The probability that the response falls below ``level`` within
    ``records`` records, from the per-record ``minima`` (the negated
    response's maxima, Gumbel)."""
    g = gumbel_of(-np.asarray(minima, float))
    return 1.0 - g.cdf_of_largest(-level, records)
