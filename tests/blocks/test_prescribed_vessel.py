"""A vessel playing a motion record (``blocks/prescribed_vessel.py``): the
splined angles against the motion they sample, the mount's motion against
finite differences of its own position and orientation, and the record's
problems named."""
import numpy as np
import pytest

from crane_cosim.blocks.prescribed_vessel import PrescribedVessel
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.blocks.block import ParameterError

#: roll, pitch and yaw [rad] of the recorded motion: a few degrees at wave periods
AMPLITUDE, OMEGA, PHASE = np.array([0.05, 0.03, 0.02]), np.array([0.8, 1.1, 0.5]), np.array([0.0, 0.7, 1.9])


def _exact(t):
    """[q; u; du] of the recorded motion at ``t``."""
    arg = OMEGA * t + PHASE
    return np.concatenate([AMPLITUDE * np.sin(arg), AMPLITUDE * OMEGA * np.cos(arg),
                           -AMPLITUDE * OMEGA ** 2 * np.sin(arg)])


def _record(path, step=0.05, stop=30.0, degrees=False, header=("time", "roll", "pitch", "yaw")):
    t = np.arange(0.0, stop + step / 2, step)
    q = np.array([_exact(ti)[:3] for ti in t])
    np.savetxt(path, np.column_stack([t, np.degrees(q) if degrees else q]), delimiter=",",
               header=",".join(header), comments="", fmt="%.17g")
    return str(path)


def test_the_angles_rates_and_accelerations_follow_the_record(tmp_path):
    """Sampled at 20 Hz, away from the record's ends: the spline's angles
    within 2.2e-9 rad, rates within 1.3e-7 rad/s, accelerations within
    2.7e-5 rad/s^2 of the motion's (measured 7.2e-10, 4.3e-8 and 9.1e-6:
    the spline's errors, of order h^4, h^3 and h^2)."""
    b = PrescribedVessel(file=_record(tmp_path / "motion.csv"))
    for t in np.linspace(2.0, 28.0, 97):
        error = np.abs(b.motion(t) - _exact(t))
        assert error[:3].max() < 2.2e-9 and error[3:6].max() < 1.3e-7 and error[6:].max() < 2.7e-5


def test_angles_in_degrees_and_other_columns(tmp_path):
    """The same motion recorded in degrees, under other column names, gives
    the same outputs (round-off, largest in the accelerations, the spline's
    second derivative: 4.9e-14 measured); a column left empty is zero."""
    rad = PrescribedVessel(file=_record(tmp_path / "rad.csv"))
    deg = PrescribedVessel(file=_record(tmp_path / "deg.csv", degrees=True,
                                        header=("time", "vessel.q_roll", "vessel.q_pitch", "vessel.q_yaw")),
                           angles="deg", roll="vessel.q_roll", pitch="vessel.q_pitch", yaw="vessel.q_yaw")
    u = rad.default_inputs()
    for t in (0.0, 3.3, 17.0, 30.0):
        np.testing.assert_allclose(deg.output(t, None, u), rad.output(t, None, u), rtol=0, atol=1.5e-13)
    no_yaw = PrescribedVessel(file=str(tmp_path / "rad.csv"), yaw="")
    assert np.all(no_yaw.motion(5.0)[[2, 5, 8]] == 0.0)


def test_the_mounts_motion_is_its_positions_and_orientations_rate(tmp_path):
    """The mount's velocity and acceleration (Frame 1) and its angular
    velocity against central differences of its position and orientation
    (Frame 0) over 0.1 ms, between the record's samples (where the
    spline's third derivative is continuous): velocities within 3.6e-9 of
    their scales (measured 1.2e-9, the differences' own error), the
    accelerations within 8e-10 (measured 2.7e-10); and they are the Vessel
    block's kinematics at the same angles and rates."""
    b = PrescribedVessel(file=_record(tmp_path / "motion.csv"), l_mount=7.0)
    names = b.output_names()
    u = b.default_inputs()

    def out(t):
        y = dict(zip(names, b.output(t, None, u)))
        R = np.array([[y[f"mount_R_{i}{j}"] for j in (1, 2, 3)] for i in (1, 2, 3)])
        vec = {k: np.array([y[f"mount_{k}_{c}"] for c in "xyz"]) for k in ("w", "dw", "v", "a", "p")}
        return R, vec

    dt = 1e-4
    for t in (4.02, 11.53, 23.01):
        (Rm, m), (R, c), (Rp, p) = out(t - dt), out(t), out(t + dt)
        v0 = (p["p"] - m["p"]) / (2 * dt)
        np.testing.assert_allclose(R @ c["v"], v0, rtol=0, atol=3.6e-9 * np.abs(v0).max())
        a0 = (Rp @ p["v"] - Rm @ m["v"]) / (2 * dt)
        np.testing.assert_allclose(R @ c["a"], a0, rtol=0, atol=8e-10 * np.abs(a0).max())
        W = R.T @ (Rp - Rm) / (2 * dt)
        np.testing.assert_allclose(c["w"], [W[2, 1], W[0, 2], W[1, 0]], rtol=0, atol=3.6e-9 * np.abs(c["w"]).max())
        dw = (p["w"] - m["w"]) / (2 * dt)
        np.testing.assert_allclose(c["dw"], dw, rtol=0, atol=8e-10 * np.abs(dw).max())
        vessel = Vessel(l_mount=7.0)
        kinematic = dict(zip(names, vessel.output(t, b.motion(t)[:6], vessel.default_inputs())))
        for k in ("mount_R_23", "mount_w_x", "mount_v_y", "mount_p_y"):
            assert kinematic[k] == pytest.approx(dict(zip(names, b.output(t, None, u)))[k], rel=1e-14, abs=1e-16)


def test_with_no_record_the_vessel_is_at_rest():
    b = PrescribedVessel()
    y = dict(zip(b.output_names(), b.output(1e4, None, b.default_inputs())))
    assert y["mount_p_z"] == 5.0 and y["mount_R_11"] == 1.0
    assert all(v == 0.0 for k, v in y.items() if k.startswith(("q_", "u_", "du_", "mount_w", "mount_a")))


def test_outside_the_record_a_step_fails_naming_its_span(tmp_path):
    b = PrescribedVessel(file=_record(tmp_path / "motion.csv", stop=10.0))
    with pytest.raises(ValueError, match=r"t = 10.5 s is outside the motion record of file .*motion.csv', "
                                         r"which covers 0 s to 10 s"):
        b.output(10.5, None, b.default_inputs())


def test_a_bad_record_is_named(tmp_path):
    path = _record(tmp_path / "motion.csv")
    with pytest.raises(ParameterError, match=r"PrescribedVessel parameter pitch = 'heave' is invalid for file"):
        PrescribedVessel(file=path, pitch="heave")
    with pytest.raises(ParameterError, match=r"parameter angles = 'grad' is invalid"):
        PrescribedVessel(file=path, angles="grad")
    (tmp_path / "repeated.csv").write_text("time,roll,pitch,yaw\n0,0,0,0\n1,0,0,0\n1,0.1,0,0\n2,0,0,0\n3,0,0,0\n")
    with pytest.raises(ParameterError, match="at least 4 samples at strictly increasing times"):
        PrescribedVessel(file=str(tmp_path / "repeated.csv"))
    with pytest.raises(ParameterError, match="roll, pitch and yaw are all empty"):
        PrescribedVessel(file=path, roll="", pitch="", yaw="")


def test_a_six_degree_of_freedom_record_moves_the_mount_with_the_reference_point(tmp_path):
    """Surge, sway and heave as well (a metre at wave periods), the mount
    off the reference point in x1 and y1 too: the mount's velocity and
    acceleration (Frame 1) are the derivatives of its position (Frame 0),
    turned into Frame 1 (central differences of 1 ms; measured 2.6e-7 m/s
    and 1.3e-5 m/s^2 of velocities and accelerations of about 1 m/s and 1
    m/s^2: the spline's errors through samples 50 ms apart, as above)."""
    t = np.arange(0.0, 30.0 + 0.025, 0.05)
    q = np.array([_exact(ti)[:3] for ti in t])
    xyz = np.column_stack([np.sin(0.7 * t), 0.5 * np.cos(0.9 * t + 0.3), 0.8 * np.sin(1.2 * t + 1.0)])
    path = tmp_path / "six.csv"
    np.savetxt(path, np.column_stack([t, q, xyz]), delimiter=",", header="time,roll,pitch,yaw,x,y,z",
               comments="", fmt="%.17g")
    b = PrescribedVessel(file=str(path), surge="x", sway="y", heave="z", l_mount=2.0, mount_dx=-12.0, mount_dy=3.0)
    names = b.output_names()

    def at(ti):
        y = dict(zip(names, b.output(ti, None, b.default_inputs())))
        R = np.array([[y[f"mount_R_{i}{j}"] for j in (1, 2, 3)] for i in (1, 2, 3)])
        return (R, np.array([y[f"mount_p_{c}"] for c in "xyz"]), np.array([y[f"mount_v_{c}"] for c in "xyz"]),
                np.array([y[f"mount_a_{c}"] for c in "xyz"]))
    h, worst_v, worst_a = 1e-3, 0.0, 0.0
    for ti in np.linspace(5.0, 25.0, 9):
        R, p, v, a = at(ti)
        (Rm, pm, vm, _), (Rp, pp, vp, _) = at(ti - h), at(ti + h)
        worst_v = max(worst_v, np.abs(R.T @ (pp - pm) / (2 * h) - v).max())
        worst_a = max(worst_a, np.abs(R.T @ (Rp @ vp - Rm @ vm) / (2 * h) - a).max())
    assert worst_v < 8e-7 and worst_a < 4e-5, (worst_v, worst_a)
