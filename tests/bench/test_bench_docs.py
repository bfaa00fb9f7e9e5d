"""docs/benchmarks.md leads with the current figures, a table per kind of
measurement with every example the benchmark runs, and its history below
them: every number of the current figures is one the history records (a
figure copied, never made up or rounded anew), each with the date of its
measurement."""
import re
from pathlib import Path

from crane_cosim.scenarios import SCENARIOS

DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
CURRENT, HISTORY = "## Current figures", "\n## History"
#: a number as the document writes it: 17 990, 1.4e-3, 3.11.7, 2026-11-27
NUMBER = r"\d+(?:\.\d+)*(?:e-\d+)?"


def _parts() -> tuple[str, str]:
    text = DOC.read_text()
    assert text.index(CURRENT) < text.index(HISTORY), "the current figures come before the history"
    return text[text.index(CURRENT):text.index(HISTORY)], text[text.index(HISTORY):]


def _joined(text: str) -> str:
    """``text`` with the thousands of a number joined (``17 990`` -> ``17990``)."""
    return re.sub(r"(?<=\d) (?=\d{3}\b)", "", text)


def test_every_current_figure_is_in_the_history():
    current, history = map(_joined, _parts())
    missing = sorted({n for n in re.findall(NUMBER, current)
                      if not re.search(rf"(?<![\d.]){re.escape(n)}(?![\d]|\.\d)", history)})
    assert not missing, f"figures of the current tables that the history does not record: {missing}"


def test_each_example_has_its_current_row_with_its_date():
    """The examples' table has a row for each example ``bench`` runs, each
    figure's measurement dated beside it."""
    current, _ = _parts()
    table = current[current.index("### The examples at their own settings"):].split("\n### ")[0]
    rows = {m[1]: m[0] for m in re.finditer(r"^\| [^|]*\(`(\w+)`\)[^\n]*$", table, re.M)}
    assert sorted(rows) == sorted(SCENARIOS), sorted(rows)
    header = [cell.strip() for cell in table[table.index("| example"):].split("\n")[0].split("|")[1:-1]]
    dated = [k for k, cell in enumerate(header) if cell == "measured"]
    assert len(dated) == 2, header  # the co-simulation's and the monolithic run's
    for name, row in rows.items():
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        assert all(re.match(r"\d{4}-\d\d-\d\d\b", cells[k]) for k in dated), row
