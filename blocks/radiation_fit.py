"""The radiation memory fitted to a hull's database: each pair on its own,
each coupled group refined together, the whole made passive (the method:
:mod:`.radiation`)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .radiation import (COUPLING_THRESHOLD, MAX_ORDER, TOLERANCE, RadiationFit, fitted_pairs, frequency_response,
                        groups, memory_response)
from .radiation_groups import refine_group
from .radiation_pairs import fit_pair
from .radiation_passivity import enforce_passivity, scale_of

__all__ = ["fit_radiation", "assembled"]


def fit_radiation(omega, added_mass, radiation_damping, added_mass_inf, tolerance=TOLERANCE,
                  max_order=MAX_ORDER, threshold=COUPLING_THRESHOLD) -> RadiationFit:
    """The memory of the database's arrays (``omega`` [rad/s] (n,),
    ``added_mass`` and ``radiation_damping`` (n, 6, 6), ``added_mass_inf``
    (6, 6), SI): each pair the lowest order within ``tolerance`` (a pair
    that misses it keeps its best order); each coupled group refined
    together, and while its passive model misses ``tolerance`` its pairs
    fitted again an order higher each (up to ``max_order``; the best kept);
    the whole model made passive; each pair's error measured on the grid at
    the end."""
    K = memory_response(omega, added_mass, radiation_damping, added_mass_inf)
    pairs = fitted_pairs(radiation_damping, threshold)
    targets = {(i, j): (K[:, i, j] + K[:, j, i]) / 2 for i, j in pairs}
    fits = {(i, j): fit_pair(omega, targets[(i, j)], tolerance, max_order, passive=i == j) for i, j in pairs}
    scale = scale_of(omega, added_mass, radiation_damping, added_mass_inf)
    for group in groups(pairs):
        if len(group) > 1:
            fits.update(_group_fitted(group, fits, targets, omega, scale, tolerance, max_order))
    asymmetry = {}
    for i, j in pairs:
        if i != j:
            asymmetry[(i, j)] = asymmetry[(j, i)] = float(
                np.abs(K[:, i, j] - K[:, j, i]).max() / np.abs(targets[(i, j)]).max())
    fit = enforce_passivity(assembled(fits, asymmetry, tolerance), omega, scale)
    return replace(fit, errors=_errors(fit, targets, omega))


def _group_fitted(group, fits, targets, omega, scale, tolerance, max_order) -> dict:
    """The pairs of ``group`` refined together (:mod:`.radiation_groups`),
    an order higher each while the group's passive model misses
    ``tolerance``: the orders with the least largest error."""
    pairs = [p for p in fits if p[0] in group and p[1] in group]
    best, trial = None, {p: fits[p] for p in pairs}
    while True:
        refined = refine_group(group, trial, targets, omega, scale, tolerance)
        passive = enforce_passivity(assembled(refined, {}, tolerance), omega, scale)
        worst = max(_errors(passive, targets, omega).values())
        if best is None or worst < best[0]:
            best = (worst, refined)
        if worst <= tolerance or max(f.order for f in trial.values()) >= max_order:
            return best[1]
        trial = {(i, j): fit_pair(omega, targets[(i, j)], tolerance, max_order, passive=i == j,
                                  min_order=trial[(i, j)].order + 1) for i, j in pairs}


def _errors(fit, targets, omega) -> dict:
    """Each pair's largest ``|K_fit - K|`` on the grid over its largest ``|K|``."""
    response = frequency_response(fit, omega)
    return {(i, j): float(np.abs(response[:, i, j] - targets[tuple(sorted((i, j)))]).max()
                          / np.abs(targets[tuple(sorted((i, j)))]).max()) for i, j in fit.orders}


def assembled(fits, asymmetry, tolerance) -> RadiationFit:
    """The block-diagonal model of the pairs' fits, a coupling's block twice
    (``(i, j)`` and ``(j, i)``)."""
    blocks, orders = [], {}
    for (i, j), pair in fits.items():
        a, b, c = pair.realisation()
        for p in dict.fromkeys([(i, j), (j, i)]):
            blocks.append((p, a, b, c))
            orders[p] = pair.order
    N = sum(a.shape[0] for _, a, _, _ in blocks)
    A, B, C, states, m = np.zeros((N, N)), np.zeros((N, 6)), np.zeros((6, N)), {}, 0
    for (i, j), a, b, c in blocks:
        s = slice(m, m + a.shape[0])
        A[s, s], B[s, j], C[i, s], states[(i, j)], m = a, b, c, s, s.stop
    return RadiationFit(A, B, C, orders, {p: fits[tuple(sorted(p))].error for p in orders}, states, asymmetry,
                        float(tolerance))
