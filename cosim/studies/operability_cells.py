"""What an operability study computes from its runs (docs/operability.md):
each seed's extremes (:func:`seed_row`), each sea state's criteria with
their intervals (:func:`cell_rows`), and the largest safe significant wave
height per peak period and heading (:func:`limits_of`).

The quantities (:func:`quantities_of`): ``tension``, the hoist wire's
tension [N] (a ``T_wire`` column; its value as the run starts, the payload
hanging still in calm water, the static hook load; its minimum the
slack); ``tip_heave``, the crane tip's vertical excursion from its mean
[m]; ``payload_heave``, the payload's vertical excursion from its mean
[m]; ``payload_swing``, its swing [m], the horizontal distance from the
vertical through the tip (the payload's ``swing``; a payload without it:
the horizontal distance from its mean position); each interface wrench column (role ``interface.wrench.``),
its magnitude [N, N.m].  A seed gives each one's largest value after the
first ``skip`` seconds, a sea state its most probable maximum (MPM) over
its duration (``studies/extremes.py``).

The criteria are utilisations (value over limit; a sea state is safe where
each is at most 1): ``tension``, the tension's MPM against the crane's safe
working load; ``daf``, the tension's MPM over the static hook load against
the rigging's dynamic amplification factor (default: :func:`rigging_daf`);
``slack``, the probability of a tension below :data:`SLACK_FRACTION` of
the static hook load within the sea state's duration; any other
quantity's MPM against a limit given.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..errors import CraneCosimError
from ..runtime.coupling import columns_of_role
from .extremes import mpm_interval, probability_below, seeds_needed

__all__ = ["SEA", "quantities_of", "seed_row", "cell_rows", "limits_of", "rigging_daf", "SLACK_FRACTION"]

#: the columns that name a sea state: significant height [m], peak period [s], heading [deg]
SEA = ("Hs", "Tp", "heading")
#: the tension below which, as a fraction of the static hook load, the wire counts as slack
#: (the slack-sling criterion of DNV-RP-H103 (2011): the hoist line kept above a tenth of the static weight)
SLACK_FRACTION = 0.1
#: the interface wrench's role (``summary.json``)
WRENCH_ROLE = "interface.wrench."
G = 9.80665


def rigging_daf(static_load: float) -> float:
    """The dynamic amplification factor an offshore lift's rigging is
    designed for, GL Noble Denton (2016), 0027/ND, Table 5-1, offshore
    column, for the static hook load ``static_load`` [N]."""
    tonnes = static_load / G / 1000.0
    if tonnes <= 100.0:
        return 1.0 + 0.25 * math.sqrt(100.0 / max(tonnes, 3.0))
    for upto, daf in ((300.0, 1.25), (1000.0, 1.20), (2500.0, 1.15)):
        if tonnes <= upto:
            return daf
    return 1.10


def quantities_of(columns, roles: dict, tension: str | None = None) -> dict:
    """``{quantity: columns}`` of a run's recorded ``columns``: the wire's
    tension (``tension``, else the one column named ``*.T_wire``), the tip's
    height (``*.tip_p_z``), the payload's position and swing (the
    tension's component's ``payload_p_*``, ``swing``), each interface
    wrench column (``roles``)."""
    columns = list(columns)
    if tension is None:
        found = [c for c in columns if c.endswith(".T_wire")]
        if len(found) > 1:
            raise CraneCosimError(f"the runs record {len(found)} wire tensions ({', '.join(found)}): name the "
                                  f"one to judge with --tension")
        tension = found[0] if found else None
    elif tension not in columns:
        raise CraneCosimError(f"--tension {tension}: the runs record no column of that name")
    out = {}
    if tension is not None:
        out["tension"] = [tension]
        owner = tension.rpartition(".")[0]
        payload = [f"{owner}.payload_p_{c}" for c in "xyz"]
        if all(c in columns for c in payload):
            out["payload_heave"], out["payload_swing"] = payload[2:], payload[:2]
        if f"{owner}.swing" in columns:
            out["payload_swing"] = [f"{owner}.swing"]
    tips = [c for c in columns if c.endswith(".tip_p_z")]
    if len(tips) == 1:
        out["tip_heave"] = tips
    for c in columns_of_role(roles, WRENCH_ROLE):
        if c in columns:
            out[c] = [c]
    return out


def seed_row(df: pd.DataFrame, quantities: dict, skip: float) -> dict:
    """One seed's extremes from its run ``df`` (``time`` and the columns of
    ``quantities``), after its first ``skip`` seconds: each quantity's
    largest value (``<q>_max``), the tension's least and mean
    (``tension_min``, ``tension_mean``) and its first value, the static hook
    load as the run starts at rest in a calm sea (``tension_static``), and
    the record's length (``record_s``)."""
    window = df[df["time"] >= skip]
    if len(window) < 2:
        raise CraneCosimError(f"the run holds nothing after the first {skip:g} s that are left out "
                              f"(it ends at {float(df['time'].iloc[-1]) if len(df) else 0.0:g} s)")
    row = {"record_s": float(window["time"].iloc[-1] - window["time"].iloc[0])}
    for q, cols in quantities.items():
        x = window[cols].to_numpy(float)
        if q == "tension":
            row.update(tension_max=float(x.max()), tension_min=float(x.min()), tension_mean=float(x.mean()),
                       tension_static=float(df[cols[0]].iloc[0]))
        elif q in ("tip_heave", "payload_heave"):
            row[f"{q}_max"] = float(np.abs(x - x.mean()).max())
        elif q == "payload_swing" and len(cols) == 1:
            row[f"{q}_max"] = float(x.max())
        elif q == "payload_swing":
            row[f"{q}_max"] = float(np.sqrt(((x - x.mean(axis=0)) ** 2).sum(axis=1)).max())
        else:
            row[f"{q}_max"] = float(np.abs(x).max())
    return row


def cell_rows(seeds: pd.DataFrame, exposure: float, limits: dict, confidence: float = 0.9,
              relative: float = 0.1) -> pd.DataFrame:
    """One row per sea state (``SEA``) of the per-seed rows ``seeds``
    (:func:`seed_row`'s, beside ``Hs``, ``Tp``, ``heading``): for each
    quantity its MPM over ``exposure`` seconds with the interval at
    ``confidence`` (``<q>_mpm``, ``_low``, ``_high``); the static hook load,
    dynamic amplification and slack probability; each criterion's
    utilisation (``limits``: ``{criterion: limit}``, a limit None taking
    its default) and the largest (``utilisation``, ``governs``,
    ``safe``); the seeds run and those the tension's MPM needs for an
    interval within ``relative`` of it (``seeds``, ``seeds_needed``)."""
    quantities = [c[:-4] for c in seeds.columns if c.endswith("_max")]
    rows = []
    for sea, group in seeds.groupby(list(SEA), sort=True):
        records = exposure / float(group["record_s"].mean())
        row = dict(zip(SEA, sea), seeds=len(group))
        for q in quantities:
            row[f"{q}_mpm"], row[f"{q}_low"], row[f"{q}_high"] = mpm_interval(group[f"{q}_max"], records,
                                                                               confidence)
        if "tension" in quantities:
            _tension_criteria(row, group, records, relative, confidence)
        _judged(row, limits)
        rows.append(row)
    return pd.DataFrame(rows)


def _tension_criteria(row: dict, group: pd.DataFrame, records: float, relative: float, confidence: float) -> None:
    static = float(group["tension_static"].mean())
    row["tension_static"] = static
    for end in ("mpm", "low", "high"):
        row[f"daf_{end}"] = row[f"tension_{end}"] / static
    row["slack_p"] = probability_below(group["tension_min"], SLACK_FRACTION * static, records)
    row["slack_seeds"] = float((group["tension_min"] < SLACK_FRACTION * static).mean())
    row["seeds_needed"] = seeds_needed(group["tension_max"], records, relative, confidence)


def _judged(row: dict, limits: dict) -> None:
    """Each criterion's utilisation in ``row``, the largest and its name."""
    utilisation = {}
    for name, limit in limits.items():
        if name == "daf":
            if "daf_mpm" in row:
                limit = rigging_daf(row["tension_static"]) if limit is None else limit
                utilisation[name] = row["daf_mpm"] / limit
        elif name == "slack":
            if "slack_p" in row:
                utilisation[name] = row["slack_p"] / limit
        elif f"{name}_mpm" in row:
            utilisation[name] = row[f"{name}_mpm"] / limit
        else:
            raise CraneCosimError(f"the limit on {name!r} judges nothing the runs record (their quantities: "
                                  f"{', '.join(k[:-4] for k in row if k.endswith('_mpm'))})")
        row[f"util_{name}"] = utilisation[name]
    if not utilisation:
        raise CraneCosimError("no criterion to judge the sea states by: give a limit (--swl, --limit ...)")
    governs = max(utilisation, key=utilisation.get)
    row["utilisation"], row["governs"] = utilisation[governs], governs
    row["safe"] = bool(utilisation[governs] <= 1.0)


def limits_of(cells: pd.DataFrame) -> pd.DataFrame:
    """The largest safe ``Hs`` [m] per peak period and heading: where the
    largest utilisation crosses 1 between two heights of the grid, the
    height there by linear interpolation (``limit``: ``interpolated``);
    the grid's largest where every height is safe (``at least``); where
    even its smallest is not, that smallest (``below``: the limit lies
    under it).  The heights above the first unsafe one are not looked at."""
    rows = []
    for (tp, heading), group in cells.groupby(["Tp", "heading"], sort=True):
        g = group.sort_values("Hs")
        hs, u = g["Hs"].to_numpy(float), g["utilisation"].to_numpy(float)
        over = np.flatnonzero(u > 1.0)
        if not over.size:
            rows.append({"Tp": tp, "heading": heading, "Hs_limit": hs[-1], "limit": "at least"})
        elif over[0] == 0:
            rows.append({"Tp": tp, "heading": heading, "Hs_limit": hs[0], "limit": "below"})
        else:
            k = over[0]
            hs_limit = hs[k - 1] + (1.0 - u[k - 1]) / (u[k] - u[k - 1]) * (hs[k] - hs[k - 1])
            rows.append({"Tp": tp, "heading": heading, "Hs_limit": hs_limit, "limit": "interpolated",
                         "governs": g["governs"].iloc[k]})
    return pd.DataFrame(rows)
