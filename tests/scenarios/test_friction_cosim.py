"""Joint friction in the loop, co-simulated at each example's default
(the iterated midpoint at 5 ms, ``DEFAULTS`` in cosim/scenarios.py) against the monolithic run
of the same blocks (where the friction takes each joint's reaction at the
same instant, an algebraic loop solved to round-off): the friction torques
and forces, the joint coordinates and the interface wrench within their
bounds (RMS over the run, over each quantity's peak; components that
vanish by the mechanism, below 3e-7 of their group's largest, are left
out).  The default run covers the first 3 s (the booms' raise, friction in
the boom and jib joints and in the seals); the full 20 s, slew included,
is marked slow (`pytest -m slow`)."""
import numpy as np
import pytest

from crane_cosim.runtime import run_cosim
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.studies.friction_study import group_errors as errors
from crane_cosim.scenarios import DEFAULTS, crane_on_vessel_friction, offshore_knuckle_boom
from crane_cosim.files.results import read_results
from crane_cosim.runtime.algorithms.base import ACCURACY, SETTLE


def _runs(tmp_path, fmu_dir, scenario, stop_time):
    s = scenario(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=stop_time)
    run_cosim(s, tmp_path / "co", progress=False)
    run_monolithic(s, tmp_path / "mono", progress=False)
    return read_results(tmp_path / "co"), read_results(tmp_path / "mono")


#: bounds, about 3x the errors measured over the first 3 s by Gauss-Seidel at 1 ms, the
#: examples' default before (0.15%, 0.018%, 0.10% on the vessel of Table I; 0.15%, 0.0018%,
#: 0.075% for the knuckle boom crane); at the defaults now, the iterated midpoint at 5 ms,
#: measured 0.0056%, 0.00053%, 0.026% on the vessel and 0.018%, 0.000085%, 0.0078% for the
#: knuckle boom crane (the bounds kept as they were)
BOUNDS = {"crane_on_vessel_friction": {"friction": 5e-3, "coordinates": 6e-4, "wrench": 3e-3},
          "offshore_knuckle_boom": {"friction": 5e-3, "coordinates": 6e-5, "wrench": 2.5e-3}}
SCENARIOS = {"crane_on_vessel_friction": crane_on_vessel_friction, "offshore_knuckle_boom": offshore_knuckle_boom}


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def runs(request, tmp_path_factory, fmu_dir):
    name = request.param
    return name, *_runs(tmp_path_factory.mktemp(name), fmu_dir, SCENARIOS[name], 3.0)


def test_cosimulated_friction_matches_monolithic(runs):
    name, co, mono = runs
    found = errors(co, mono)
    print(name, found)
    for group, bound in BOUNDS[name].items():
        assert found[group] < bound, (group, found)


def test_the_friction_works_and_dissipates(runs):
    """The friction takes energy out, the same in both runs (measured 4.8e-4
    and 6.4e-4 apart after 3 s by Gauss-Seidel at 1 ms; 8.3e-7 and 4.7e-6
    at the defaults, the iterated midpoint at 5 ms).  (Not at every instant: a bristle springing back
    gives a little of what it stored.)"""
    name, co, mono = runs
    for df in (co, mono):
        E = df["friction.E_f"].to_numpy()
        assert E[-1] > 0 and E[-1] > E[len(E) // 2] > 0
    assert co["friction.E_f"].iloc[-1] == pytest.approx(mono["friction.E_f"].iloc[-1], rel=2e-3)


@pytest.mark.parametrize("runs", ["offshore_knuckle_boom"], indirect=True)  # the crane with passive joints
def test_the_joint_passes_the_friction_torque(runs):
    """The wrench through the boom and jib joints of the knuckle boom crane
    has, about the joint's pin, the friction torque alone: the crane's
    moment about the pin is the friction torque it was given.

    Which friction torque the crane holds at a communication point is the
    exchange's: by Gauss-Seidel (the crane steps first) the friction
    block's output of the step before (measured to 4.5e-15 of the joint's
    peak force, 3 s at 1 ms); by the iterated midpoint, the example's
    default, the one at the same instant, to the bound its rounds settle
    to at the point (the torque read and the torque produced in the last
    round within SETTLE x ACCURACY = 1e-5 of the torque's peak so far:
    measured 9.4e-6 of the peak on the boom, 5.3e-6 on the jib, 3 s at
    5 ms), where one step apart they differ by 0.76% and 0.69% of it.  So this runs
    at the default, pairing the same instants, holds the difference to
    the bound the rounds guarantee, and the pairing one step apart
    beyond a hundred times it."""
    name, co, _ = runs
    assert DEFAULTS["OffshoreKnuckleBoom"][0] == "iterated-midpoint"  # the pairing below is that algorithm's
    bound = SETTLE * ACCURACY
    for j in ("boom", "jib"):
        passed, friction = co[f"crane.W_{j}_nx"].to_numpy(), co[f"friction.tau_f_{j}"].to_numpy()
        peak = np.abs(friction).max()
        assert peak > 100.0
        assert np.abs(passed - friction).max() <= bound * peak
        assert np.abs(passed[1:] - friction[:-1]).max() > 100 * bound * peak
