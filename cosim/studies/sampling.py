"""A sweep's cases sampled by design of experiments, beside a table's and a
product of ranges: a Latin hypercube or a scrambled Sobol sequence over
``component.variable=lo,hi`` ranges (``scipy.stats.qmc``, reproducible
from a seed), as ``sweep --sample lhs|sobol N --range ...`` asks."""
from __future__ import annotations

import math

from scipy.stats import qmc

from ..errors import CraneCosimError

__all__ = ["SAMPLERS", "cases_of_sample"]

#: the designs ``--sample`` names: a Latin hypercube (each range cut into N
#: equal strata, one point in each), a scrambled Sobol sequence (balanced
#: for a power of two points)
SAMPLERS = ("lhs", "sobol")


def _range(text: str) -> tuple[str, float, float]:
    """``(component.variable, lo, hi)`` of ``component.variable=lo,hi``."""
    target, eq, bounds = text.partition("=")
    parts = bounds.split(",")
    try:
        lo, hi = (float(p) for p in parts) if len(parts) == 2 else (math.nan, math.nan)
    except ValueError:
        lo = hi = math.nan
    if not eq or "." not in target or not (math.isfinite(lo) and math.isfinite(hi)):
        raise CraneCosimError(f"--range {text!r} is not of the form component.variable=low,high (two numbers)")
    if not lo < hi:
        raise CraneCosimError(f"--range {text!r}: the low end must lie below the high end")
    return target.strip(), lo, hi


def cases_of_sample(method: str, count: int, ranges, seed: int = 0) -> list[tuple[str, dict]]:
    """``count`` cases ``(name, {component.variable: text})`` drawn by
    ``method`` (one of :data:`SAMPLERS`) over ``ranges``
    (``component.variable=lo,hi`` each), the same for the same ``seed``."""
    if method not in SAMPLERS:
        raise CraneCosimError(f"--sample {method!r} is none of the designs: {', '.join(SAMPLERS)}")
    if count < 1:
        raise CraneCosimError(f"--sample {method} {count}: the number of cases must be at least 1")
    if not ranges:
        raise CraneCosimError(f"--sample {method} needs the ranges it samples (--range component.variable=low,high)")
    axes = [_range(text) for text in ranges]
    targets = [a[0] for a in axes]
    if len(set(targets)) < len(targets):
        twice = next(t for t in targets if targets.count(t) > 1)
        raise CraneCosimError(f"--range {twice} is given twice")
    if method == "sobol":
        if count & (count - 1):
            below = 1 << (count.bit_length() - 1)
            raise CraneCosimError(f"--sample sobol {count}: a Sobol sequence is balanced only for a power of two "
                                  f"points; ask {below} or {2 * below}")
        unit = qmc.Sobol(len(axes), scramble=True, seed=seed).random_base2(count.bit_length() - 1)
    else:
        unit = qmc.LatinHypercube(len(axes), seed=seed).random(count)
    points = qmc.scale(unit, [a[1] for a in axes], [a[2] for a in axes])
    return [(f"case{k + 1:04d}", {t: repr(float(v)) for t, v in zip(targets, row)}) for k, row in enumerate(points)]
