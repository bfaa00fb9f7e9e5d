"""The cases the coupling studies compare (``coupling_study.py``,
``multirate_study.py``) and the page shows (``coupling_page.py``): the
examples, the master's variants, the steps, and the monolithic reference
run on the grid all steps share."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..files.results import read_results
from ..fmus.build import prepare_fmus
from ..monolithic.reference import run_monolithic
from ..scenarios import crane_on_vessel, crane_on_vessel_friction, flexible_crane, knuckle_boom, offshore_knuckle_boom

STEPS = (1e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2)
VESSELS = {"Table I vessel (1200 kg)": 1200.0, "light vessel (120 kg)": 120.0}
#: (coupling, algorithm, input extrapolation); the first is the example's default
VARIANTS = (("inertia", "gauss-seidel", "none"), ("inertia", "iterated-midpoint", "none"),
            ("inertia", "jacobi", "none"), ("inertia", "jacobi", "midpoint"), ("explicit", "gauss-seidel", "none"))
COMPARE_EVERY = 0.02
#: every example (the crane on the vessel on both vessels), with the
#: algorithms compared on each
EXAMPLES = {"crane on the Table I vessel": crane_on_vessel,
            "crane on the light vessel (120 kg)": lambda **k: crane_on_vessel(vessel_mass=120.0, **k),
            "crane on the vessel with friction": crane_on_vessel_friction,
            "knuckle boom crane": knuckle_boom,
            "offshore knuckle boom": offshore_knuckle_boom,
            "flexible crane": flexible_crane}
EXAMPLE_ALGORITHMS = ("gauss-seidel", "iterated-midpoint", "iterated-quadratic")
#: the step at which each example's run also estimates its own error
ESTIMATE_STEP = 1e-3
#: the interface wrench: the outputs of this role (``runtime/coupling.py``)
WRENCH_ROLE = "interface.wrench."


def on_shared_grid(run: pd.DataFrame, ref: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of ``run`` and ``ref`` at the points of the ``COMPARE_EVERY``
    grid that both recorded, in the same order: runs at different steps
    compared point by point."""
    def on_grid(df):
        k = df["time"] / COMPARE_EVERY
        df = df[np.abs(k - np.round(k)) < 1e-6]
        return df.set_index(np.round(df["time"] / COMPARE_EVERY).astype(int))
    run, ref = on_grid(run), on_grid(ref)
    ref = ref.loc[ref.index.intersection(run.index)]
    run = run.loc[ref.index]
    return run.reset_index(drop=True), ref.reset_index(drop=True)


def reference_run(system, folder: Path) -> pd.DataFrame:
    """The monolithic run of ``system`` into ``folder`` (its FMUs built when
    missing or out of date), read back: the reference of a study."""
    prepare_fmus(system)
    run_monolithic(system, folder, progress=False, replace_run=True)
    return read_results(folder)
