"""Where the barge's linear hydrostatics stop holding (``HydroVessel.in_range``,
the output of the role ``model.range``): its deck edge under the water, its
bilge out of it, or a stated angle passed; against the box's geometry by
hand, and a run that leaves the range and comes back, told once by the
master (``runtime/observers/model_range.py``)."""
import json
import math

import numpy as np
import pytest
from scipy.optimize import brentq

from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.cli import main
from crane_cosim.files.results import read_results
from crane_cosim.runtime.system import System
from crane_cosim.ssp import write_ssd

#: the box barge: 40 m x 12 m, its deck 1.5 m above the calm water, its
#: keel 2.5 m below, its centre of gravity 0.5 m above the water
HALF_BEAM, FREEBOARD, DRAFT, COG = 6.0, 1.5, 2.5, 0.5


def _q(**dofs):
    q = np.zeros(6)
    for name, value in dofs.items():
        q[("surge", "sway", "heave", "roll", "pitch", "yaw").index(name)] = value
    return q


def test_the_deck_edge_goes_under_where_the_geometry_says():
    """Heeled about its centre of gravity, the low deck edge's height is
    COG + (FREEBOARD - COG) cos(roll) - HALF_BEAM sin(roll): zero at
    14.2 degrees; sunk, the deck reaches the water at FREEBOARD; lifted,
    the keel leaves it at DRAFT; a wave as high as the deck covers it."""
    v = HydroVessel()
    edge = brentq(lambda r: COG + (FREEBOARD - COG) * math.cos(r) - HALF_BEAM * math.sin(r), 0.1, 0.4)
    assert math.degrees(edge) == pytest.approx(14.2, abs=0.05)
    for sign in (1, -1):
        assert v.in_range(_q(roll=sign * edge * (1 - 1e-9)), 0.0)
        assert not v.in_range(_q(roll=sign * edge * (1 + 1e-9)), 0.0)
    assert v.in_range(_q(heave=-FREEBOARD + 1e-9), 0.0) and not v.in_range(_q(heave=-FREEBOARD - 1e-9), 0.0)
    assert v.in_range(_q(heave=DRAFT - 1e-9), 0.0) and not v.in_range(_q(heave=DRAFT + 1e-9), 0.0)
    assert v.in_range(_q(), FREEBOARD - 1e-9) and not v.in_range(_q(), FREEBOARD + 1e-9)
    # pitched, the bow's deck edge goes under at 4.2 degrees; a stated angle below it bounds the range first
    bow = brentq(lambda r: COG + (FREEBOARD - COG) * math.cos(r) - 20.0 * math.sin(r), 0.01, 0.2)
    assert v.in_range(_q(pitch=bow * (1 - 1e-9)), 0.0) and not v.in_range(_q(pitch=bow * (1 + 1e-9)), 0.0)
    stated = HydroVessel(roll_max=0.05)
    assert stated.in_range(_q(pitch=0.0499), 0.0) and not stated.in_range(_q(pitch=-0.0501), 0.0)
    assert stated.in_range(_q(roll=-0.0499), 0.0) and not stated.in_range(_q(roll=0.0501), 0.0)


def test_the_output_is_the_range_at_the_state_and_the_waves():
    v = HydroVessel(Hs=2.0)
    x, u = v.initial_state(), v.default_inputs()
    names = v.output_names()
    seen = set()
    for t, roll in ((3.0, 0.0), (3.0, 0.3), (7.0, 0.3), (3.0, 0.6)):
        x[3] = roll
        y = v.output(t, x, u)
        assert y[names.index("in_range")] == float(v.in_range(x[:6], y[names.index("eta")]))
        seen.add(y[names.index("in_range")])
    assert seen == {0.0, 1.0}


@pytest.fixture(scope="module")
def heeled(fmu_dir, tmp_path_factory):
    """The barge alone in calm water, let go at 0.3 rad of roll (past its
    deck edge's 0.247), for 8 s: the output and the summary."""
    folder = tmp_path_factory.mktemp("heeled")
    s = System("Heeled", stop_time=8.0, step=0.01, algorithm="iterated-midpoint", base_dir=fmu_dir.parent)
    s.add_component("vessel", f"{fmu_dir.name}/HydroVessel.fmu", q_roll_0=0.3)
    system = write_ssd(s, folder / "Heeled.ssd")
    return system, folder


def test_a_run_that_leaves_the_range_says_so_once(heeled, capsys):
    system, folder = heeled
    assert main(["run", str(system), "--out", str(folder / "run"), "--no-plots"]) == 0
    err = capsys.readouterr().err
    assert err.count("vessel.in_range left the range where its model holds at t = 0 s") == 1, err
    summary = json.loads((folder / "run" / "summary.json").read_text())
    df = read_results(folder / "run")
    out = df["vessel.in_range"].to_numpy() == 0
    entry = summary["model_range"]["vessel.in_range"]
    assert entry["left_at_s"] == 0.0
    # the steps that ended out of the range, as the recorded column says
    assert entry["out_for_s"] == pytest.approx(0.01 * out[1:].sum(), rel=1e-9)
    assert 0 < out.sum() < len(out)  # it rolls back in, and out again
    roll_out = np.abs(df["vessel.q_roll"]) > 0.2475
    assert (out == roll_out).mean() > 0.99  # the roll past the deck edge's angle, but near it


def test_a_run_inside_the_range_says_nothing(fmu_dir, tmp_path):
    s = System("Calm", stop_time=0.5, step=0.01, algorithm="iterated-midpoint", base_dir=fmu_dir.parent)
    s.add_component("vessel", f"{fmu_dir.name}/HydroVessel.fmu")
    system = write_ssd(s, tmp_path / "Calm.ssd")
    assert main(["run", str(system), "--out", str(tmp_path / "run"), "--no-plots"]) == 0
    assert "model_range" not in json.loads((tmp_path / "run" / "summary.json").read_text())
