"""The offshore lift coupled one way (``scenarios.offshore_lift(one_way=True)``,
``examples/offshore_lift_one_way``): the barge moves as the waves move it
with the crane frozen at its start pose, and nothing the crane or the
payload does reaches it; coupled both ways, the payload's pull does."""
import numpy as np
import pytest
from crane_cosim.blocks.screw import rot_zyx
from crane_cosim.files.results import read_results
from crane_cosim.runtime import run_cosim
from crane_cosim.scenarios import BARGE_SEA, LIFT_PAYLOAD, frozen_crane, offshore_lift, settled_barge

SEA = {"waves": "regular", "Hs": 2.0, "Tp": 8.0}
STOP = 2.0
RECORDED = ["vessel.q_*", "crane.p_A_*", "crane.I_A_*", "payload.T_wire"]


@pytest.fixture(scope="module")
def runs(fmu_dir, tmp_path_factory):
    """``{(one_way, compensation): results}`` of 2 s in a regular beam wave."""
    out = {}
    for key in ((True, True), (True, False), (False, True), (False, False)):
        folder = tmp_path_factory.mktemp("lift")
        s = offshore_lift(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=STOP, sea=SEA,
                          compensation=key[1], one_way=key[0])
        assert run_cosim(s, folder, progress=False, record=RECORDED).status == "completed"
        out[key] = read_results(folder)
    return out


def _motion(df):
    return df[[c for c in df.columns if c.startswith("vessel.q_")]].to_numpy()


def test_one_way_the_barge_moves_alike_whatever_the_winch_does(runs):
    """The compensation changes the wire's tension, and coupled one way not
    a bit of the barge's motion; coupled both ways the tension moves it."""
    one_on, one_off = runs[True, True], runs[True, False]
    assert np.abs(one_on["payload.T_wire"] - one_off["payload.T_wire"]).max() > 10.0  # N
    assert np.array_equal(_motion(one_on), _motion(one_off))
    two = np.abs(_motion(runs[False, True]) - _motion(runs[False, False])).max(axis=0)
    assert two.max() > 1e-7


def test_the_frozen_crane_is_the_crane_at_the_start(runs):
    """The vessel's inputs coupled one way are the crane's articulated
    inertia and bias wrench as the two-way run starts (to the 12
    significant digits the system file keeps)."""
    weight = LIFT_PAYLOAD["m_payload"] * 9.81
    params = {**BARGE_SEA, **SEA}
    start = settled_barge(params, (0.0, 0.0, -weight))
    R = rot_zyx(*(start[f"q_{d}_0"] for d in ("roll", "pitch", "yaw")))
    frozen = frozen_crane((0.0, 0.0, -weight), R)
    first = runs[False, True].iloc[0]
    for name in frozen:
        assert frozen[name] == pytest.approx(first[f"crane.{name}"], rel=1e-11, abs=1e-6), name
