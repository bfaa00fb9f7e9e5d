"""Fatigue of the crane-vessel interface from recorded runs.

Each signal (an interface force or moment: by default the columns whose role is
the interface wrench, ``interface.wrench.*`` in the run's ``summary.json``, the
crane's ``W_mount_*``; or a linear combination of recorded columns, such as the
axial force in a bolt of the slewing ring) is reduced to its cycles by rainflow
counting (ASTM E1049-85, section 5.4.4, by the ``rainflow`` package): ranges,
means and counts, a half cycle counting 0.5.  For an S-N curve of slope ``m``
(``N S**m`` constant, Basquin) the damage of the cycles is proportional to
``D = sum(n_i S_i**m)``, and the damage-equivalent load is the range that,
repeated ``N_ref`` times, does the same damage:

    DEL_m = (D / N_ref) ** (1 / m)

With ``N_ref`` the number of cycles counted in a sinusoid, its DEL is its
range, for every slope.  A run of ``T`` seconds stands for the lifetime
``T_life`` spent in its conditions: the damage scales by ``T_life / T``, and
``DEL_m = (D T_life / (T N_ref)) ** (1 / m)`` is the case's lifetime DEL.  Over
a scatter table of cases, each with the probability ``p_k`` of its conditions
(the fraction of the lifetime spent in them, summing to 1), the damages add:

    DEL_m = (sum_k p_k D_k T_life / (T_k N_ref)) ** (1 / m)
          = (sum_k p_k DEL_{m,k} ** m) ** (1 / m)

Defaults: slopes 3, 4 and 5 (DNV-RP-C203: welded steel details, bolts and base
material), ``N_ref`` = 1e7, ``T_life`` = 20 years.  Assumed: one S-N line (no
knee, no endurance limit, no mean-stress correction), and a run standing for
its conditions after its first ``skip`` seconds.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import CraneCosimError
from ..files.results import read_results, read_summary, results_path
from ..reports.display_units import display_unit
from ..runtime.runlog import make_folder

SLOPES = (3, 4, 5)
N_REF = 1e7
LIFE_YEARS = 20.0
YEAR = 365.25 * 86400.0
#: the signals by default: the columns of this role, the wrench at the
#: crane-vessel interface (the crane's at the mount, Frame 1)
WRENCH_ROLE = "interface.wrench."
#: a term of a combination that names a role, not a column: ``@<role>``
ROLE_MARK = "@"


def cycles(series) -> pd.DataFrame:
    """The rainflow cycles of ``series`` (ASTM E1049-85, 5.4.4): columns
    ``range``, ``mean``, ``count`` (1 or 0.5), ``start`` and ``end`` (sample
    indices)."""
    # rainflow only where cycles are counted
    import rainflow
    rows = list(rainflow.extract_cycles(np.asarray(series, float)))
    return pd.DataFrame(rows, columns=["range", "mean", "count", "start", "end"])


def damage(ranges, counts, m: float) -> float:
    """``sum(n_i S_i**m)``: the damage of the cycles, in load**m (the S-N
    curve's constant left out)."""
    return float(np.sum(np.asarray(counts) * np.asarray(ranges, float) ** m))


def damage_equivalent_load(ranges, counts, m: float, n_ref: float) -> float:
    """The range that, ``n_ref`` times, does the cycles' damage at slope ``m``."""
    return (damage(ranges, counts, m) / n_ref) ** (1.0 / m)


def combined(dels, probabilities, m: float) -> float:
    """Lifetime DELs of cases (same ``N_ref`` and lifetime) combined with
    the probabilities of their conditions: ``(sum p_k DEL_k**m)**(1/m)``."""
    p = np.asarray(probabilities, float)
    return float(np.sum(p * np.asarray(dels, float) ** m) ** (1.0 / m))


@dataclass(frozen=True)
class Combination:
    """A signal ``name`` = ``sum(coefficient * column)`` of recorded columns,
    in ``unit`` (SI, as a results file writes it: "N", "N.m"; None: the
    unit its columns share, :func:`combination_unit`)."""
    name: str
    terms: tuple  # ((coefficient, column), ...)
    unit: str | None = None

    def of(self, df: pd.DataFrame) -> np.ndarray:
        return sum(c * df[col].to_numpy() for c, col in self.terms)


#: the unit of a signal whose unit is not known: a combination of columns
#: of different units, or of a column that carries none
UNKNOWN_UNIT = "1"
_NAME = re.compile(r"\s*([^\[\]=]*?)\s*(?:\[\s*([^\[\]]*?)\s*\])?\s*")
_TERM = re.compile(r"\s*([+-]?)\s*(?:([0-9.eE+-]+)\s*\*\s*)?([A-Za-z_][\w.]*)\s*")


def parse_combination(text: str) -> Combination:
    """``"NAME=EXPR"`` or ``"NAME[UNIT]=EXPR"``, EXPR a sum of
    ``[coefficient*]component.variable`` terms
    (``bolt[N]=2.5e-2*crane.W_mount_fz-0.4*crane.W_mount_nx``); UNIT (SI,
    "N", "N.m") is the combination's, for coefficients that carry units
    (without it, :func:`combination_unit` infers one)."""
    head, eq, expr = text.partition("=")
    named = _NAME.fullmatch(head)
    name, unit = (named.group(1), named.group(2) or None) if named else ("", None)
    if not eq or not name or not expr.strip():
        raise CraneCosimError(f"the combination {text!r} is not NAME=EXPRESSION, e.g. "
                              f"bolt=0.025*crane.W_mount_fz-0.4*crane.W_mount_nx")
    terms, pos, expr = [], 0, expr.strip()
    while pos < len(expr):
        m = _TERM.match(expr, pos)
        if not m or m.end() == pos or (terms and not m.group(1)):
            raise CraneCosimError(f"the combination {text!r} cannot be read at {expr[pos:]!r}: write a sum of "
                                  f"coefficient*component.variable terms")
        try:
            coefficient = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            raise CraneCosimError(f"the combination {text!r} has the coefficient {m.group(2)!r}, not a "
                                  f"number") from None
        terms.append((-coefficient if m.group(1) == "-" else coefficient, m.group(3)))
        pos = m.end()
    return Combination(name, tuple(terms), unit)


def slewing_ring_bolt(n_bolts: int, diameter: float, angle: float = 0.0, prefix: str = ROLE_MARK + WRENCH_ROLE) \
        -> Combination:
    """The axial force [N] (tension positive) in the bolt at ``angle`` [rad]
    from the x1 axis (toward y1) of a slewing ring of ``n_bolts`` bolts on a
    circle of ``diameter`` [m], from ``W_mount``, the wrench of the vessel
    on the crane at the mount (Frame 1, z1 up), which the bolts carry: the
    ring rigid, the bolts alike, their forces linear across the ring, so
    that their sum and moment balance the wrench:
    ``F = -f_z/n + 4 (n_y cos(a) - n_x sin(a)) / (n D)``.  Horizontal forces
    and the slewing torque go to the ring's friction and pins, not the
    bolts; the bolts' preload and the flange's prying are left out.  The
    wrench's components are the columns of the role ``interface.wrench``
    (``prefix``: of those names instead)."""
    n, d = float(n_bolts), float(diameter)
    return Combination(f"bolt_{math.degrees(angle):g}deg", (
        (-1.0 / n, f"{prefix}fz"), (4 * math.cos(angle) / (n * d), f"{prefix}ny"),
        (-4 * math.sin(angle) / (n * d), f"{prefix}nx")), unit="N")


def signals_of(df: pd.DataFrame, patterns=None, combinations=(), roles: dict | None = None) -> dict:
    """The signals of a run: its columns matching ``patterns`` (shell
    wildcards; None: the columns whose role is the interface wrench, from
    ``roles``, the run's column -> role) and the ``combinations``, by name
    (a term ``@<role>`` is the column of that role)."""
    roles = roles or {}
    if patterns is None:
        out = {c: df[c].to_numpy() for c in df.columns if roles.get(c, "").startswith(WRENCH_ROLE)}
        if not out:
            raise CraneCosimError("the run's summary names no column with the role of the interface wrench "
                                  f"({WRENCH_ROLE}*); name the signals to count with --signal")
    else:
        out = {c: df[c].to_numpy() for c in df.columns if c != "time" and any(fnmatchcase(c, p) for p in patterns)}
    for combo in combinations:
        combo = _resolved(combo, roles)
        missing = [col for _, col in combo.terms if col not in df.columns]
        if missing:
            raise CraneCosimError(f"the combination {combo.name} uses {', '.join(missing)}, which the results "
                                  f"do not hold")
        out[combo.name] = combo.of(df)
    if not out:
        raise CraneCosimError(f"no recorded column matches {', '.join(patterns)}")
    return out


def _resolved(combo: Combination, roles: dict) -> Combination:
    """``combo`` with its terms ``@<role>`` replaced by the columns of those
    roles (``roles``: column -> role)."""
    by_role = {role: column for column, role in roles.items()}
    terms = tuple((k, by_role.get(col[len(ROLE_MARK):], col) if col.startswith(ROLE_MARK) else col)
                  for k, col in combo.terms)
    return Combination(combo.name, terms, combo.unit)


def combination_unit(combo: Combination, units: dict, roles: dict | None = None) -> str:
    """The SI unit of ``combo``'s values: its own, when it was given one
    (the bolt force is "N"); else the unit every one of its columns has
    (``units``: column -> unit), the coefficients taken as pure numbers;
    else :data:`UNKNOWN_UNIT`, "1"."""
    if combo.unit:
        return combo.unit
    found = {units.get(col, "") for _, col in _resolved(combo, roles or {}).terms}
    return found.pop() if len(found) == 1 and "" not in found else UNKNOWN_UNIT


def signal_units(signals: dict, combinations=(), units: dict | None = None, roles: dict | None = None) -> dict:
    """The SI unit of each of ``signals`` (names, as :func:`signals_of`
    gives them): a column's from ``units`` (column -> unit, from the
    results file or the run's summary; "" where neither says), a
    combination's by :func:`combination_unit`."""
    units = units or {}
    combos = {c.name: c for c in combinations}
    return {name: combination_unit(combos[name], units, roles) if name in combos else units.get(name, "")
            for name in signals}


def read_table(path: Path, what: str) -> pd.DataFrame:
    """The CSV file ``path`` (``what`` names it in a sentence), or
    :class:`CraneCosimError` when it is empty or not a table."""
    try:
        table = pd.read_csv(path)
    except pd.errors.EmptyDataError:
        raise CraneCosimError(f"{what} {path} is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as exc:
        raise CraneCosimError(f"{what} {path} is not a CSV table: {str(exc).splitlines()[0]}") from None
    return table


def roles_of(folder: Path) -> dict:
    """The roles of a run's columns (its ``summary.json``), or none."""
    return read_summary(folder).get("roles", {})


def units_of(folder: Path, df: pd.DataFrame | None = None) -> dict:
    """The SI units of a run's columns: those its results file carries
    (``df.attrs["units"]``, as :func:`read_run` reads it), over those of its
    ``summary.json`` (a CSV of an earlier version carries none)."""
    return {**read_summary(folder).get("units", {}), **(df.attrs.get("units", {}) if df is not None else {})}


def run_case_name(folder: Path) -> str:
    """The name of the case of one run folder: the run's system and the
    folder, ``"OffshoreKnuckleBoom (results)"``, so that a run written to a
    folder of a general name (``results``, ``out``) says what it is; the
    folder's name alone where it is the system's name (``crane-cosim
    run``'s default, ``results/<system>``) or the run's summary names no
    system."""
    folder = Path(folder).resolve()
    system = str(read_summary(folder).get("system") or "")
    return f"{system} ({folder.name})" if system and system != folder.name else folder.name


def read_run(folder: Path, skip: float = 0.0) -> pd.DataFrame:
    """The results of a run folder (``results.arrows``, a sweep case's
    ``results.parquet``, or the ``results.csv`` of an earlier version's
    run), its first ``skip`` seconds left out."""
    folder = Path(folder)
    path = results_path(folder)
    if not path.is_file():
        raise CraneCosimError(f"{folder} holds no results.arrows (nor results.parquet or results.csv): give the "
                              f"folder of a run")
    df = read_table(path, "the results") if path.suffix == ".csv" else read_results(path)
    if "time" not in df.columns:
        raise CraneCosimError(f"the results {path} have no column 'time': give the results of a run")
    units = df.attrs.get("units", {})
    df = df[df["time"] >= df["time"].iloc[0] + skip].reset_index(drop=True)
    df.attrs["units"] = units
    if len(df) < 2:
        raise CraneCosimError(f"{path} holds fewer than two rows after the first {skip:g} s")
    return df


def case_table(df: pd.DataFrame, signals: dict, n_ref: float = N_REF, life: float = LIFE_YEARS * YEAR,
               slopes=SLOPES, counted: dict | None = None, units: dict | None = None) -> pd.DataFrame:
    """Per signal of one run: its SI unit (``units``: signal -> unit, that
    of the largest range and the DELs), the record's duration [s], the
    cycles counted, the largest range and the lifetime DEL for each slope;
    ``counted``: the signals' :func:`cycles`, if counted already."""
    duration = float(df["time"].iloc[-1] - df["time"].iloc[0])
    rows = []
    for name, series in signals.items():
        c = counted[name] if counted is not None else cycles(series)
        row = {"signal": name, "unit": (units or {}).get(name, ""), "duration_s": duration,
               "cycles": float(c["count"].sum()), "largest_range": float(c["range"].max()) if len(c) else 0.0}
        for m in slopes:
            row[f"DEL_m{m:g}"] = damage_equivalent_load(c["range"], c["count"] * life / duration, m, n_ref)
        rows.append(row)
    return pd.DataFrame(rows)


def read_cases(results: Path) -> list[tuple[str, Path, float, dict]]:
    """The cases of ``results``: a run folder (one case, probability 1), or a
    scatter table, a CSV with a column ``case`` (run folders, relative to
    the table's folder) and a column ``probability`` (the fraction of the
    lifetime in each case's conditions, summing to 1); its other columns
    (Hs, Tp, ...) label the cases.  ``(name, folder, probability, labels)``:
    a table's case is named by its folder's name (its path in the table,
    where two share one), a run folder's by :func:`run_case_name`."""
    results = Path(results)
    if results.is_dir():
        return [(run_case_name(results), results, 1.0, {})]
    if not results.is_file():
        raise CraneCosimError(f"{results} is neither a run folder nor a scatter table (CSV)")
    table = read_table(results, "the scatter table")
    missing = [c for c in ("case", "probability") if c not in table.columns]
    if missing:
        raise CraneCosimError(f"the scatter table {results} has no column {' and '.join(missing)}: give each "
                              f"case's run folder under 'case' and its probability under 'probability'")
    p = pd.to_numeric(table["probability"], errors="coerce")
    if p.isna().any() or (p < 0).any() or abs(p.sum() - 1.0) > 1e-6:
        raise CraneCosimError(f"the probabilities of the scatter table {results} must be numbers of at least 0 "
                              f"summing to 1 (they sum to {p.sum():g})")
    labels = [c for c in table.columns if c not in ("case", "probability")]
    # a case is named by its folder's own name, unless two share one
    names = [Path(str(c)).name for c in table["case"]]
    if len(set(names)) < len(names):
        names = [str(c) for c in table["case"]]
    return [(name, results.parent / str(row["case"]), float(p[k]), {c: row[c] for c in labels})
            for name, (k, row) in zip(names, table.iterrows())]


def study(results, out, patterns=None, combinations=(), skip: float = 0.0, n_ref: float = N_REF,
          life: float = LIFE_YEARS * YEAR, slopes=SLOPES, plots: bool = True,
          say=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rainflow counting and DELs of every case of ``results``
    (:func:`read_cases`) into ``out``: ``fatigue_cases.csv`` (per case and
    signal), ``fatigue_lifetime.csv`` (per signal, over the cases with
    their probabilities), both in SI units, each row's in its column
    ``unit`` ("N", "N.m"; :func:`signal_units`), and, with ``plots``, the figures (per case the
    rainflow matrices and the records with their extremes marked, and the
    DELs of every case).  The tables are written before the figures.
    ``say(text)``, given, is told each stage as it starts (a case read and
    counted, the tables, the figures): a study of many long runs takes a
    minute.  Returns both tables."""
    say = say or (lambda text: None)
    out = make_folder(out, "the fatigue study's folder")
    per_case, records = [], {}
    found = read_cases(results)
    for k, (name, folder, probability, labels) in enumerate(found):
        if len(found) > 1:  # one run is read and counted in a second or two
            say(f"reading and counting case {k + 1} of {len(found)}, {name} ({folder}) ...")
        df = read_run(folder, skip)
        roles = roles_of(folder)
        signals = signals_of(df, patterns, combinations, roles)
        counted = {name: cycles(series) for name, series in signals.items()}
        units = signal_units(signals, combinations, units_of(folder, df), roles)
        table = case_table(df, signals, n_ref, life, slopes, counted, units)
        table.insert(0, "probability", probability)
        table.insert(0, "case", name)
        for label, value in labels.items():
            table[label] = value
        per_case.append(table)
        records[name] = (df["time"].to_numpy(), signals, counted)
    cases = pd.concat(per_case, ignore_index=True)
    say(f"writing the tables in {out} ...")
    cases.to_csv(out / "fatigue_cases.csv", index=False)
    lifetime = pd.DataFrame([{"signal": sig, "unit": g["unit"].iloc[0],
                              **{f"DEL_m{m:g}": combined(g[f"DEL_m{m:g}"], g["probability"], m) for m in slopes}}
                             for sig, g in cases.groupby("signal", sort=False)])
    lifetime.to_csv(out / "fatigue_lifetime.csv", index=False)
    if plots:
        # matplotlib only where the figures are drawn
        from ..reports.fatigue_plots import plot_fatigue
        say(f"drawing the figures of {len(found)} case(s) in {out} (the slowest part; --no-plots leaves them out) "
            f"...")
        plot_fatigue(out, cases, records, slopes)
    return cases, lifetime


def lifetime_text(lifetime: pd.DataFrame, slopes=SLOPES) -> str:
    """The lifetime table as the command prints it: a row per signal, its
    DELs in the unit that keeps them between 1 and 1000 (kN or MN, kN·m or
    MN·m; ``reports/display_units.py``), named in a column of its own."""
    columns = [f"DEL_m{m:g}" for m in slopes]
    rows = []
    for _, row in lifetime.iterrows():
        peak = float(np.nanmax(np.abs(row[columns].to_numpy(float)))) if len(columns) else 0.0
        label, size = display_unit(row["unit"], peak)
        if row["unit"] == UNKNOWN_UNIT:
            label = "1 (unknown)"
        rows.append([row["signal"], label, *(f"{row[c] / size:.4g}" for c in columns)])
    head = ["signal", "unit", *(f"m = {m:g}" for m in slopes)]
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) if k < 2 else cell.rjust(w) for k, (cell, w) in enumerate(zip(r, widths)))
                     .rstrip() for r in [head, *rows])
