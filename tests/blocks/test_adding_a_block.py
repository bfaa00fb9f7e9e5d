"""A block added as docs/master.md ("Adding a block") says, and nothing
else: the test-only first-order lag (``lag_block.py``) in ``BLOCKS`` runs
as an FMU in a co-simulation and in the monolithic reference, is drawn as
nothing, and has its section in the FMUs' page."""
import numpy as np
import pytest
from lag_block import Lag

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.files.results import read_results
from crane_cosim.fmus.build import build_block_fmu
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.reports.docgen import fmus_markdown
from crane_cosim.runtime import System, run_cosim

T = 0.5
#: the co-simulation's largest difference from the monolithic run (the
#: iterated midpoint at 10 ms on two lags in series: the second's input held
#: at the first's mid-step value; measured 6.1e-6), and the monolithic run's
#: from the exact response (its integrator's tolerances; measured 1.6e-9)
COSIM_TOL, MONOLITHIC_TOL = 2e-5, 5e-9


@pytest.fixture
def lag(monkeypatch, tmp_path):
    monkeypatch.setitem(BLOCKS, "Lag", Lag)
    return build_block_fmu(Lag, tmp_path / "fmus")


def _series(fmu) -> System:
    """Two lags in series, the first's input a unit step at t = 0."""
    s = System("TwoLags", stop_time=2.0, step=0.01, algorithm="iterated-midpoint", base_dir=fmu.parent.parent)
    s.add_component("first", f"{fmu.parent.name}/{fmu.name}", T=T)
    s.add_component("second", f"{fmu.parent.name}/{fmu.name}", T=T)
    s.connect("first.y", "second.u")
    return s


def test_an_added_block_runs_in_both_masters_to_its_exact_response(lag, tmp_path):
    """``y1 = 1 - exp(-t/T)``, ``y2 = 1 - (1 + t/T) exp(-t/T)``."""
    s = _series(lag)
    assert run_cosim(s, tmp_path / "cosim", progress=False).status == "completed"
    run_monolithic(s, tmp_path / "mono", progress=False)
    co, mono = read_results(tmp_path / "cosim"), read_results(tmp_path / "mono")
    t = mono["time"].to_numpy()
    exact = {"first.y": 1 - np.exp(-t / T), "second.y": 1 - (1 + t / T) * np.exp(-t / T)}
    for column, y in exact.items():
        assert np.abs(mono[column].to_numpy() - y).max() < MONOLITHIC_TOL, column
        assert np.abs(co[column].to_numpy() - mono[column].to_numpy()).max() < COSIM_TOL, column


def test_an_added_block_is_on_the_fmus_page_and_drawn_as_nothing(lag):
    page = fmus_markdown()
    assert "## Lag.fmu" in page and Lag.description in page and Lag.reference in page
    assert Lag.draws is None and Lag.symbols_of is None
