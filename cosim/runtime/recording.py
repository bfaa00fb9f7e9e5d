"""What a run writes to ``results.arrows``, and how big it will be.

A run records, by default, every output of every component at every
communication point.  ``record`` (``--record``) keeps the outputs matching
``component.variable`` patterns with shell wildcards (``crane.W_mount_*``,
``*.q_*``, ``vessel.q_roll``); ``record_every`` (``--record-every N``) keeps
every N-th communication point.  The ``time`` column, the start point and
the last point are always written.  Recording fewer points or columns never
changes the computation: the values written are those of the full run at
the same points.

Before a run, :func:`estimate_size` gives the size of ``results.arrows`` from
its rows and columns; above :data:`SIZE_LIMIT` the run is refused unless
asked for (``--force``), above :data:`SIZE_WARNING` a warning says so.
"""
from __future__ import annotations

import fnmatch
import numbers
import warnings

from ..errors import CraneCosimError

#: Bytes a value takes in results.arrows: a float64 or int64 takes 8 (a
#: Boolean 1 bit, a String its length); each batch adds about 50 bytes a
#: column, which the estimate does not count (its share measured:
#: docs/benchmarks.md, "Writing the results").
BYTES_PER_VALUE = 8
#: Bytes a column takes in results.arrows besides its values: its field in
#: the schema (about 190, with its unit, type and role) and in the empty
#: first batch and the last (about 50 each), rounded up
COLUMN_BYTES = 300
#: Estimated size of results.arrows above which a run is refused unless forced [bytes]
SIZE_LIMIT = 200e6
#: Estimated size above which a warning is given [bytes]
SIZE_WARNING = 50e6


class ResultsSizeWarning(UserWarning):
    """results.arrows will be large (above :data:`SIZE_WARNING`)."""


class ResultsTooLarge(CraneCosimError):
    """results.arrows would exceed the size limit of the run."""

    def __init__(self, size: float, rows: int, columns: int, limit: float):
        self.size, self.rows, self.columns, self.limit = size, rows, columns, limit
        super().__init__(f"results.arrows would take about {_mb(size)} ({rows} rows of {columns} columns), more "
                         f"than the limit of {_mb(limit)}: record every N-th point (--record-every N) or fewer "
                         f"variables (--record 'component.variable'), take a longer --step, or write it all "
                         f"with --force")


def _mb(size: float) -> str:
    if size >= 1e9:
        return f"{size / 1e9:.1f} GB"
    if size < 0.1e6:
        return f"{size / 1e3:.0f} kB"
    return f"{size / 1e6:.0f} MB" if size >= 10e6 else f"{size / 1e6:.1f} MB"


def select_columns(columns: list[str], patterns) -> list[int]:
    """Indices of the ``columns`` (``component.variable``) that match any of
    ``patterns`` (shell wildcards, case-sensitive), in the columns' order;
    all of them for ``None``.  A pattern that matches nothing is an error
    naming it."""
    if patterns is None:
        return list(range(len(columns)))
    if isinstance(patterns, str):
        patterns = [patterns]
    if not patterns:
        raise CraneCosimError("the --record list is empty: give at least one component.variable pattern")
    chosen = set()
    components = list(dict.fromkeys(c.split(".", 1)[0] for c in columns))
    for pattern in patterns:
        hits = [i for i, c in enumerate(columns) if fnmatch.fnmatchcase(c, pattern)]
        if not hits:
            comp, dot, var = pattern.partition(".")
            if not dot or not var:
                raise CraneCosimError(f"the --record pattern {pattern!r} is not of the form component.variable "
                                      f"(e.g. crane.W_mount_*)")
            if not any(fnmatch.fnmatchcase(c, comp) for c in components):
                raise CraneCosimError(f"the --record pattern {pattern!r} names no component of the system "
                                      f"(components: {', '.join(components)})")
            raise CraneCosimError(f"the --record pattern {pattern!r} matches no output of the system "
                                  f"(outputs are component.variable, such as {columns[0]})")
        chosen.update(hits)
    return sorted(chosen)


def check_every(every) -> None:
    """``record_every`` must be a whole number of at least 1."""
    if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
        raise CraneCosimError(f"--record-every must be a whole number of at least 1, got {every!r}")


def recorded(k: int, n_steps: int, every: int) -> bool:
    """Whether communication point ``k`` (0 = the start, ``n_steps`` = the
    end) is written: every ``every``-th and the last."""
    return k % every == 0 or k == n_steps


def rows_of(n_steps: int, every: int) -> int:
    """Rows of results.arrows for ``n_steps`` steps, every ``every``-th point
    and the last recorded."""
    return n_steps // every + 1 + (n_steps % every != 0)


def estimate_size(rows: int, columns: int) -> float:
    """Estimated size of results.arrows [bytes]: ``rows`` x ``columns`` (with the
    time column) x :data:`BYTES_PER_VALUE`, and :data:`COLUMN_BYTES` a
    column."""
    return columns * (rows * BYTES_PER_VALUE + COLUMN_BYTES)


def check_size(rows: int, columns: int, limit: float | None = SIZE_LIMIT) -> float:
    """The estimated size of results.arrows; raises :class:`ResultsTooLarge`
    above ``limit`` (``None``: no limit), warns (:class:`ResultsSizeWarning`)
    above :data:`SIZE_WARNING`."""
    size = estimate_size(rows, columns)
    if limit is not None and size > limit:
        raise ResultsTooLarge(size, rows, columns, limit)
    if size > SIZE_WARNING:
        warnings.warn(ResultsSizeWarning(
            f"results.arrows will take about {_mb(size)} ({rows} rows of {columns} columns); --record-every N "
            f"and --record 'component.variable' write less"), stacklevel=3)
    return size
