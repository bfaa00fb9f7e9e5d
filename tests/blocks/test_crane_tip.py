"""The torque-driven crane's tip (``blocks/crane.py``): a payload's pull at
the jib's end carried to the mount, against a hand computation of the
statics; the tip's position and velocity against the pose and its finite
differences; the tip force's generalized forces against the power it
delivers at the tip."""
import numpy as np
import pytest
from crane_cosim.blocks.crane import Crane
from scipy.spatial.transform import Rotation
from tip_motion import tip_rate_by_differences

G = 9.81
M_PAYLOAD = 500.0  # kg


def _rz(a):
    return np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])


def test_a_payload_at_the_tip_is_carried_to_the_mount_as_the_hand_computation_says():
    """Table I's crane (masses 30 kg, lengths 2 m, COGs 1 m), booms level,
    slewed 0.7 rad, a 500 kg payload hanging at the jib's end (4 m out, 2 m
    up), held by the joint torques g (m3 d3 + m4 (l3 + d4) + m_p (l3 + l4))
    and g (m4 d4 + m_p l4): at rest, the mount carries (m2 + m3 + m4 + m_p) g
    upwards and the moment g (m3 d3 + m4 (l3 + d4) + m_p (l3 + l4)) about
    x2; the jib joint carries (m4 + m_p) g and g (m4 d4 + m_p l4).  Measured:
    round-off, 2.1e-13 rad/s2, 3.6e-12 N m of 9.3 kN m (2 ulp), the jib's
    force and moment to 1 ulp."""
    crane = Crane(q_slew_0=0.7)
    u = crane.default_inputs()
    hold_boom = G * (30 * 1.0 + 30 * 3.0 + M_PAYLOAD * 4.0)
    hold_jib = G * (30 * 1.0 + M_PAYLOAD * 2.0)
    u[22:24] = hold_boom, hold_jib
    u[27:30] = 0.0, 0.0, -M_PAYLOAD * G
    u[30:33] = 3.0, -4.0, 5.0  # the mount point, Frame 0
    y = dict(zip(crane.output_names(), crane.output(0.0, crane.initial_state(), u)))
    assert max(abs(y[f"du_{j}"]) for j in ("slew", "boom", "jib")) < 6e-13
    expected = {"W_king_fz": (90 + M_PAYLOAD) * G, "W_king_nx": hold_boom, "W_king_fx": 0.0, "W_king_fy": 0.0,
                "W_king_ny": 0.0, "W_king_nz": 0.0}
    for name, value in expected.items():
        assert y[name] == pytest.approx(value, abs=1.1e-11), name
    jib_force = np.linalg.norm([y["W_jib_fx"], y["W_jib_fy"], y["W_jib_fz"]])
    assert jib_force == pytest.approx((30 + M_PAYLOAD) * G, rel=7e-16)
    assert y["W_jib_nz"] == pytest.approx(hold_jib, rel=7e-16)
    # the mount's axes are Frame 0's here: W_mount is the same wrench turned by the slew angle
    assert y["W_mount_fz"] == pytest.approx(y["W_king_fz"], rel=1e-15)
    tip = np.array([3.0, -4.0, 5.0]) + _rz(0.7) @ [0.0, 4.0, 2.0]
    assert np.allclose([y["tip_p_x"], y["tip_p_y"], y["tip_p_z"]], tip, rtol=0, atol=1e-14)
    assert [y["tip_v_x"], y["tip_v_y"], y["tip_v_z"]] == [0.0, 0.0, 0.0]


def _moving(rng):
    """A crane of its default build at a random state on a mount turned,
    turning and moving anyhow: ``(crane, x, u)``."""
    crane = Crane()
    x = np.concatenate([rng.uniform(-np.pi, np.pi, 3), rng.uniform(-1.5, 1.5, 3)])
    u = crane.default_inputs()
    u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
    u[9:12], u[15:18] = rng.uniform(-1.0, 1.0, 3), rng.uniform(-3.0, 3.0, 3)  # w, v (Frame 1)
    u[30:33] = rng.uniform(-50.0, 50.0, 3)
    return crane, x, u


def test_the_tips_velocity_is_the_rate_of_its_position(rng):
    """The mount turned by exp(w^ s) (w in Frame 1), moved by R_1^0 v s, the
    joints by u s: the central difference of tip_p over s = +-1e-6 s is
    tip_v to round-off of 50 m over 2e-6 s (measured: 7.1e-9 m/s over 20
    states; 2e-8 here)."""
    for _ in range(5):
        crane, x, u = _moving(rng)
        rate = tip_rate_by_differences(lambda xs, us: crane.output(0.0, xs, us)[-6:-3], x, u)
        assert np.allclose(rate, crane.output(0.0, x, u)[-3:], rtol=0, atol=2e-8)


def test_the_tip_forces_generalized_forces_deliver_its_power_at_the_tip(rng):
    """What the tip force adds to Kane's generalized forces (eq. (32) with
    it), dotted with the speeds nu = [w; v; u], is the power F . v_tip it
    delivers at the tip (Frame 0): to 3e-15 of |F| |v_tip| (measured: 1.1e-15
    over 20 states)."""
    for _ in range(5):
        crane, x, u = _moving(rng)
        loaded = u.copy()
        loaded[27:30] = rng.uniform(-2000.0, 2000.0, 3)
        kin, _, f, _, _, _, _ = crane._dynamics(x, loaded)
        _, _, f0, _, _, _, _ = crane._dynamics(x, u)
        v_tip = crane.output(0.0, x, u)[-3:]
        power = loaded[27:30] @ v_tip
        assert (f - f0) @ kin.nu == pytest.approx(power, abs=3e-15 * np.linalg.norm(loaded[27:30])
                                                  * np.linalg.norm(v_tip))
