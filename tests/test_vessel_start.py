"""Where the spring vessel and the barge rest under the knuckle boom crane
(``cosim/vessel_start.py``)."""
import numpy as np
import pytest

from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.blocks.interface import MOUNT_INERTIA
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.screw import rot_zyx
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.scenarios import SCALED_VESSEL
from crane_cosim.vessel_start import barge_at_rest, held_outputs, held_wrench, vessel_at_rest


def test_at_its_resting_angles_the_vessel_does_not_accelerate():
    """The scaled vessel under the crane held at its start pose: at the
    angles found, its springs balance the crane's wrench (the wrench the
    crane puts on the deck, -W_mount, a load the vessel takes as p_A at
    rest), so its angular acceleration is zero to round-off: within 4e-14
    rad/s2 (measured 1.3e-14; level, the crane's 1.39 MN·m turns it at
    3.9e-2 rad/s2, against 3.6e7 kg m2 about the roll axis)."""
    vessel, crane = Vessel(**SCALED_VESSEL), KnuckleBoomCrane()
    q = vessel_at_rest(vessel, crane)
    assert np.degrees(q[0]) < -1.0  # the crane's weight leans out over the side

    def acceleration(angles):
        inp = crane.default_inputs()
        names = crane.input_names()
        inp[[names.index(f"mount_R_{i}{j}") for i in range(1, 4) for j in range(1, 4)]] = rot_zyx(*angles).ravel()
        inp[[names.index(a) for a in ("tau_slew", "F_boom_cyl", "F_jib_cyl")]] = crane.holding(
            crane.initial_state(), inp)
        outputs = crane.output_names()
        W = crane.output(0.0, crane.initial_state(), inp)[[outputs.index(f"W_mount_{c}")
                                                           for c in ("nx", "ny", "nz", "fx", "fy", "fz")]]
        v_in = vessel.default_inputs()
        v_in[21:27] = W  # p_A, the crane's bias wrench: at rest, the wrench on it
        return vessel.derivatives(0.0, np.concatenate([angles, np.zeros(3)]), v_in)[3:]

    assert np.max(np.abs(acceleration(q))) < 4e-14
    assert np.max(np.abs(acceleration(np.zeros(3)))) > 3e-2


def test_the_barge_floats_at_rest_under_the_crane_and_its_load():
    """The barge under the crane held on the heeled deck with a 2 t load at
    its tip: at the displacements found, the barge's own equations of
    motion (its block, the crane's articulated inertia and bias wrench at
    that pose as inputs) give no acceleration: within 2e-14 (measured
    5.6e-15 rad/s2 in roll).  Solved on a level mount, linear (the crane's
    centre of gravity left out), the barge heels 7.3% less and starts
    rolling at 3.3e-3 rad/s2."""
    vessel, crane, load = HydroVessel(Hs=0.0), KnuckleBoomCrane(), (0.0, 0.0, -2000 * 9.81)
    eta = barge_at_rest(vessel, crane, load)
    names = [v.name for v in MOUNT_INERTIA]

    def acceleration(eta):
        u = vessel.default_inputs()
        u[[vessel.input_names().index(n) for n in names]] = held_outputs(crane, names, rot_zyx(*eta[3:]), load)
        x = vessel.initial_state()
        x[:6] = eta
        return vessel.derivatives(0.0, x, u)[6:12]

    assert np.max(np.abs(acceleration(eta))) < 2e-14
    W = held_wrench(crane, tip_load=load)
    level = np.linalg.solve(vessel.C + vessel.K_moor, -vessel._kinematics(vessel.initial_state())[1].T @ W)
    assert eta[3] / level[3] == pytest.approx(1.073, abs=5e-4)
    assert abs(acceleration(level)[3]) > 3e-3
