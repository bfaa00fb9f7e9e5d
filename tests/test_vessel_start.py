"""Where the spring vessel rests under the knuckle boom crane
(``cosim/vessel_start.py``)."""
import numpy as np

from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.screw import rot_zyx
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.scenarios import SCALED_VESSEL
from crane_cosim.vessel_start import vessel_at_rest


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
