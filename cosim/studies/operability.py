"""An operability study: in which sea states may a lift go ahead?

The study runs a system (a crane on a vessel with a payload on its wire:
``examples/offshore_lift``) in every sea state of a grid (significant wave
height ``Hs`` [m] x peak period ``Tp`` [s] x heading [deg]) with several
seeds each, as a sweep on Dask (``studies/sweep.py``: a local cluster or
the one whose scheduler is given), and judges each sea state by the
criteria of ``studies/operability_cells.py`` from the most probable
maxima over the sea state's duration (``studies/extremes.py``).

Seeds are added where they are needed: every sea state first runs
``seeds`` seeds (1, 2, ...: the same seeds in every sea state, so that two
sea states differ by their sea, not by their luck); where the interval of
the tension's most probable maximum is wider than ``relative`` of it, the
sea state gets the seeds the interval's width says it needs, up to
``max_seeds``, and so on for at most :data:`ROUNDS` rounds.  The seeds each
sea state ran, and those it would have needed, are in the table.

The sea state is set on one component (``sea``; by default the one that
has the parameters ``Hs``, ``Tp``, ``heading`` and ``seed``: a
``HydroVessel`` or ``Waves``), its heading in rad from the degrees given.
Each run is recorded only in the columns the study reads, unless the
options name others (a lift recorded whole at 1 ms writes some 100 MB a
minute).

``<out>`` holds the runs (``runs/``, a sweep folder: run again, the study
skips the runs that completed), ``seeds.csv`` (each run's extremes),
``operability.csv`` and ``.parquet`` (each sea state's criteria),
``limits.csv`` (the largest safe ``Hs`` per ``Tp`` and heading) and
``operability.json`` (the study's settings and the runs that failed).
"""
from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..errors import CraneCosimError
from ..runtime.config import RunConfig
from ..runtime.model import describe
from ..ssp import open_system
from .operability_cells import SEA, cell_rows, limits_of, quantities_of, seed_row
from .sweep import sweep
from .sweep_folder import CASES, RESULTS

__all__ = ["SeaGrid", "Study", "ROUNDS", "RUNS", "described", "sea_component", "grid_cases", "operability"]

#: the rounds of added seeds at most
ROUNDS = 3
#: the sweep folder inside the study's
RUNS = "runs"
#: the parameters a component that sets the sea state has
SEA_PARAMETERS = ("Hs", "Tp", "heading", "seed")


@dataclass(frozen=True)
class SeaGrid:
    """The sea states of a study: each of ``Hs`` [m] with each of ``Tp``
    [s] and each of ``heading`` [deg, the waves travelling toward, from
    the vessel's x axis toward its y axis]."""
    Hs: tuple
    Tp: tuple
    heading: tuple

    def __post_init__(self):
        for name in SEA:
            values = tuple(float(v) for v in getattr(self, name))
            if not values:
                raise CraneCosimError(f"the sea states need at least one {name}")
            if len(set(values)) != len(values):
                raise CraneCosimError(f"the sea states' {name} values are given twice: {values}")
            if name != "heading" and min(values) <= 0:
                raise CraneCosimError(f"the sea states' {name} values must be above 0, not {min(values):g}")
            object.__setattr__(self, name, values)

    def cells(self) -> list[tuple[float, float, float]]:
        return list(itertools.product(self.Hs, self.Tp, self.heading))


@dataclass(frozen=True)
class Study:
    """How the sea states are judged: their duration ``exposure`` [s] (the
    most probable maxima are over it; default 3 h, the duration over which
    a sea state is taken as stationary); the sea grown from calm over
    ``ramp_periods`` peak periods (the sea component's ``t_ramp``, where it
    has one) and each run's first ``settle`` [s] after that left out, so
    that what is judged is the developed sea's (``tests/blocks/
    test_hydro_vessel_start.py``: three periods and 20 s leave the barge's
    roll within 0.4% of its steady standard deviation);
    ``seeds`` to start with and ``max_seeds`` at most per sea state, the
    interval's ``confidence`` and the ``relative`` half width of the
    tension's interval that asks for more seeds; ``limits``:
    ``{criterion: limit}`` (``operability_cells.py``); ``tension``: the
    column of the wire's tension, None: the one ``*.T_wire``."""
    exposure: float = 10800.0
    settle: float = 20.0
    ramp_periods: float = 3.0
    seeds: int = 3
    max_seeds: int = 10
    confidence: float = 0.9
    relative: float = 0.1
    limits: dict = field(default_factory=lambda: {"daf": None, "slack": 0.01})
    tension: str | None = None

    def __post_init__(self):
        if self.seeds < 2 or self.max_seeds < self.seeds:
            raise CraneCosimError(f"a sea state needs at least 2 seeds (given {self.seeds}), and at most as many as "
                                  f"it starts with or more (given {self.max_seeds})")
        if not 0 < self.confidence < 1 or self.relative <= 0 or self.exposure <= 0 or self.settle < 0 \
                or self.ramp_periods < 0:
            raise CraneCosimError("the confidence must lie between 0 and 1, the interval's relative width and the "
                                  "sea state's duration be above 0, the sea's start and the seconds left out after "
                                  "it at least 0")
        for name, limit in self.limits.items():
            if limit is not None and not (isinstance(limit, (int, float)) and limit > 0 and math.isfinite(limit)):
                raise CraneCosimError(f"the limit on {name} must be a number above 0, not {limit!r}")


def sea_component(models: dict, name: str | None = None) -> str:
    """The component that sets the sea state: ``name``, or the one whose
    parameters include :data:`SEA_PARAMETERS`; ``models``: each
    component's ``ModelInfo`` by name (:func:`described`)."""
    found = [comp for comp, model in models.items() if all(p in model.variables for p in SEA_PARAMETERS)]
    if name is not None:
        if name not in found:
            raise CraneCosimError(f"--sea {name}: the system has no component of that name with the parameters "
                                  f"{', '.join(SEA_PARAMETERS)} (those that have them: {', '.join(found) or 'none'})")
        return name
    if len(found) != 1:
        raise CraneCosimError(f"the system has {len(found)} components with the sea state's parameters "
                              f"{', '.join(SEA_PARAMETERS)} ({', '.join(found) or 'none'}): name one with --sea")
    return found[0]


def described(system) -> dict:
    """Each component's ``ModelInfo`` (``runtime/model.describe``) by name."""
    return {comp.name: describe(system.source_path(comp)) for comp in system.components}


def _columns_of(models: dict) -> tuple[list[str], dict]:
    """Every output column a run of the components of ``models`` records,
    and their roles."""
    columns, roles = [], {}
    for name, model in models.items():
        for v in model.outputs():
            columns.append(f"{name}.{v.name}")
            if v.role:
                roles[columns[-1]] = v.role
    return columns, roles


def _read_columns(quantities: dict) -> list[str]:
    """The columns the study reads of each run (:func:`quantities_of`'s)."""
    return sorted({c for cols in quantities.values() for c in cols})


def case_name(hs: float, tp: float, heading: float, seed: int) -> str:
    return f"Hs{hs:g}_Tp{tp:g}_h{heading:g}_s{seed}"


def grid_cases(grid: SeaGrid, sea: str, seeds: dict, ramp_periods: float | None = None) -> list[tuple[str, dict]]:
    """The runs of the sea states of ``grid``, ``seeds[cell]`` seeds each:
    ``(name, {component.variable: text})`` as a sweep takes them; the sea
    grown over ``ramp_periods`` peak periods (None: the component has no
    ``t_ramp``)."""
    cases = []
    for cell in grid.cells():
        hs, tp, heading = cell
        values = {f"{sea}.Hs": repr(hs), f"{sea}.Tp": repr(tp), f"{sea}.heading": repr(math.radians(heading))}
        if ramp_periods is not None:
            values[f"{sea}.t_ramp"] = repr(ramp_periods * tp)
        for seed in range(1, seeds[cell] + 1):
            cases.append((case_name(hs, tp, heading, seed), {**values, f"{sea}.seed": str(seed)}))
    return cases


def _seed_rows(runs: Path, grid: SeaGrid, seeds: dict, summary: pd.DataFrame, quantities: dict, skip,
               known: dict) -> tuple[list[dict], list[str]]:
    """The rows of the runs that completed (``known``: those read before,
    by name), each after its first ``skip(Tp)`` seconds, and the sentences
    of those that failed."""
    status = dict(zip(summary["case"], summary["status"]))
    reason = dict(zip(summary["case"], summary.get("reason", pd.Series([""] * len(summary)))))
    rows, failed = [], []
    columns = ["time"] + _read_columns(quantities)
    for (hs, tp, heading) in grid.cells():
        for seed in range(1, seeds[(hs, tp, heading)] + 1):
            name = case_name(hs, tp, heading, seed)
            if status.get(name) != "completed":
                failed.append(f"{name}: {reason.get(name) or status.get(name, 'not run')}")
                continue
            if name not in known:
                path = runs / CASES / name / RESULTS
                try:
                    df = pd.read_parquet(path, columns=columns)
                    known[name] = seed_row(df, quantities, skip(tp))
                except CraneCosimError as exc:
                    raise CraneCosimError(f"run {name} of the study: {exc}") from None
                except (OSError, ValueError, KeyError) as exc:
                    raise CraneCosimError(f"the results of run {name} ({path}) cannot be read: {exc}") from None
            rows.append({"case": name, "Hs": hs, "Tp": tp, "heading": heading, "seed": seed, **known[name]})
    return rows, failed


def _seeds_run(runs: Path, grid: SeaGrid, least: int, force: bool) -> dict:
    """The seeds each sea state starts with: ``least``, or as many as an
    earlier run of the study into ``runs`` gave it (those runs are read,
    not run again), unless ``force`` clears them."""
    seeds = {cell: least for cell in grid.cells()}
    if force or not (runs / CASES).is_dir():
        return seeds
    for cell in seeds:
        while (runs / CASES / case_name(*cell, seeds[cell] + 1)).is_dir():
            seeds[cell] += 1
    return seeds


def _check_limits(limits: dict, quantities: dict) -> None:
    """Refuse, before anything runs, a limit on what the runs do not record."""
    for name in limits:
        needs = "tension" if name in ("daf", "slack") else name
        if needs not in quantities:
            what = ("no wire tension (*.T_wire; name it with --tension)" if needs == "tension" else
                    f"nothing called {name!r}")
            raise CraneCosimError(f"the limit on {name} judges {what} among what the system records (its "
                                  f"quantities: {', '.join(quantities) or 'none'})")


def _recorded(config: RunConfig, quantities: dict) -> RunConfig:
    """``config`` recording only the study's columns, unless it names its own."""
    if config.record is not None:
        return config
    return config.replace(record=tuple(_read_columns(quantities)))


def operability(system_path, grid: SeaGrid, out, study: Study | None = None, config: RunConfig | None = None,
                sea: str | None = None, scheduler: str | None = None, workers: int | None = None,
                force: bool = False, say=lambda text: None) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """Run the study of the system at ``system_path`` over ``grid`` into
    ``out`` (the module's files): ``(cells, limits, failed)``, the sea
    states' table, the largest safe heights, and a sentence per run that
    failed (its sea state judged from the others).  ``force``: clear the
    runs of an earlier study in ``out`` first."""
    study = study or Study()
    config = config or RunConfig()
    out = Path(out)
    with open_system(system_path) as opened:
        models = described(config.applied_to(opened.system))
    sea = sea_component(models, sea)
    quantities = quantities_of(*_columns_of(models), study.tension)
    grows = "t_ramp" in models[sea].variables
    _check_limits(study.limits, quantities)
    ramped = study.ramp_periods if grows else None

    def skip(tp: float) -> float:
        """The seconds of a run of peak period ``tp`` left out."""
        return (ramped or 0.0) * tp + study.settle

    config = _recorded(config, quantities)
    seeds = _seeds_run(out / RUNS, grid, study.seeds, force)
    known: dict = {}
    for round_ in range(ROUNDS + 1):
        cases = grid_cases(grid, sea, seeds, ramped)
        say(f"round {round_ + 1}: {len(cases)} runs of {len(seeds)} sea states")
        summary = sweep(system_path, cases, out / RUNS, config, scheduler, workers, progress=False,
                        force=force and round_ == 0, label="the study's runs folder")
        rows, failed = _seed_rows(out / RUNS, grid, seeds, summary, quantities, skip, known)
        per_seed = pd.DataFrame(rows)
        cells = _cells(per_seed, study)
        limits = limits_of(cells)
        out.mkdir(parents=True, exist_ok=True)
        _write(out, per_seed, cells, limits, study, grid, sea, ramped, failed)
        more = _more_seeds(cells, seeds, study)
        if not more or round_ == ROUNDS:
            break
        seeds.update(more)
    return cells, limits, failed


def _cells(per_seed: pd.DataFrame, study: Study) -> pd.DataFrame:
    """The sea states' table of the seeds' rows; a sea state of fewer than
    two completed runs is left out (it cannot be judged)."""
    if per_seed.empty:
        raise CraneCosimError("no run of the study completed (their reasons are in runs/summary.csv)")
    counts = per_seed.groupby(list(SEA))["seed"].transform("size")
    judged = per_seed[counts >= 2]
    if judged.empty:
        raise CraneCosimError("no sea state has two completed runs to judge it by (the reasons are in "
                              "runs/summary.csv)")
    return cell_rows(judged.drop(columns=["case", "seed"]), study.exposure, study.limits, study.confidence,
                     study.relative)


def _more_seeds(cells: pd.DataFrame, seeds: dict, study: Study) -> dict:
    """The sea states whose interval asks for more seeds than they ran,
    and the seeds each then runs (at most ``max_seeds``)."""
    if "seeds_needed" not in cells:
        return {}
    more = {}
    for _, row in cells.iterrows():
        cell = (row["Hs"], row["Tp"], row["heading"])
        want = min(int(row["seeds_needed"]), study.max_seeds)
        if want > seeds[cell]:
            more[cell] = want
    return more


def _write(out: Path, per_seed: pd.DataFrame, cells: pd.DataFrame, limits: pd.DataFrame, study: Study,
           grid: SeaGrid, sea: str, ramped: float | None, failed: list[str]) -> None:
    per_seed.to_csv(out / "seeds.csv", index=False)
    cells.to_csv(out / "operability.csv", index=False)
    cells.to_parquet(out / "operability.parquet", index=False)
    limits.to_csv(out / "limits.csv", index=False)
    settings = {"sea_component": sea, "grid": {k: list(getattr(grid, k)) for k in SEA},
                "exposure_s": study.exposure, "ramp_periods": ramped, "settle_s": study.settle, "seeds": study.seeds,
                "max_seeds": study.max_seeds, "confidence": study.confidence, "relative": study.relative,
                "limits": study.limits, "tension": study.tension, "failed": failed}
    (out / "operability.json").write_text(json.dumps(settings, indent=1) + "\n")

