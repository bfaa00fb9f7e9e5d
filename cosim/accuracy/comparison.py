"""Comparing runs: how far a run's outputs are from a reference run's, on
the same time grid (DataFrames of :func:`~files.results.read_results`),
and which of a system's outputs are the forces to compare."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..runtime.model import describe
from ..runtime.observers.estimate import FORCE_UNITS

__all__ = ["relative_rms", "force_columns", "error_norms"]


def _check_same_grid(run, reference) -> None:
    if len(run) != len(reference) or not np.allclose(run["time"].to_numpy(), reference["time"].to_numpy(),
                                                     rtol=0, atol=1e-9):
        raise ValueError("the runs to compare do not share their time grid")


def relative_rms(run, reference, columns) -> dict[str, float]:
    """Per column, the RMS of ``run - reference`` over the run divided by the peak
    ``|reference|``.  Both are DataFrames on the same time grid."""
    _check_same_grid(run, reference)
    return {c: float(np.sqrt(np.mean((run[c].to_numpy() - reference[c].to_numpy()) ** 2))
                     / np.abs(reference[c].to_numpy()).max()) for c in columns}


def force_columns(system, reference) -> list[str]:
    """The columns a co-simulation's error is measured on: the outputs of
    ``system``'s components in N or N.m whose peak in ``reference`` (a
    DataFrame of them) is above 1e-6 of the largest such peak of their
    component (a reaction that is zero but for round-off is left out)."""
    columns = []
    for comp in system.components:
        variables = describe(system.source_path(comp)).variables
        mine = [f"{comp.name}.{v.name}" for v in variables.values()
                if v.causality == "output" and v.unit in FORCE_UNITS]
        if mine:
            peaks = reference[mine].abs().max()
            columns += [c for c in mine if peaks[c] > 1e-6 * peaks.max()]
    return columns


def error_norms(run, reference, columns) -> pd.DataFrame:
    """Per column (rows), the difference ``run - reference`` in four norms:
    its RMS and its largest magnitude, each over the reference's peak
    ``|reference|`` and over its range (max - min; NaN for a constant).  The
    range shows the error of the part that moves: a gravity-dominated force
    whose spread is a few percent of its peak.  Both are DataFrames on the
    same time grid."""
    _check_same_grid(run, reference)
    rows = {}
    for c in columns:
        r = reference[c].to_numpy()
        d = run[c].to_numpy() - r
        rms, worst, peak, spread = np.sqrt(np.mean(d ** 2)), np.abs(d).max(), np.abs(r).max(), r.max() - r.min()
        rows[c] = {"rms_peak": rms / peak, "max_peak": worst / peak,
                   "rms_range": rms / spread if spread > 0 else np.nan,
                   "max_range": worst / spread if spread > 0 else np.nan}
    return pd.DataFrame.from_dict(rows, orient="index")
