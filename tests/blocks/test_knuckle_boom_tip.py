"""The knuckle boom crane's tip (``blocks/knuckle_boom.py``): a payload's
pull at the outer boom's end carried to the mount and to the cylinders,
against a hand computation of the statics and the virtual work of the
weights; the tip force through the joints at given accelerations, against
its moments about them; the tip's position and velocity against the
geometry and finite differences; the tip force's generalized forces against
the power it delivers."""
import numpy as np
import pytest
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.screw import rot_x, rot_z
from scipy.spatial.transform import Rotation
from test_knuckle_boom import cog_positions, potential
from tip_motion import tip_rate_by_differences

G = 9.81
M_PAYLOAD = 8e3  # kg
OUT = {n: i for i, n in enumerate(KnuckleBoomCrane.output_names())}


def _tip(c, q):
    """The outer boom's end in the mount's axes, from the geometry alone (as
    ``cog_positions``): the jib joint plus l3 along the outer boom."""
    p = c.sym
    a2, a3 = c.loops[0].angles(q[1])[0], c.loops[1].angles(q[2])[0]
    J3 = np.array([0.0, 0.0, p.l1]) + rot_x(a2) @ [0.0, 0.0, p.l2]
    return rot_z(q[0]) @ (J3 + rot_x(a2) @ rot_x(a3) @ [0.0, 0.0, p.l3])


def _values(c, x, u):
    return dict(zip(c.output_names(), c.output(0.0, x, u)))


@pytest.mark.parametrize("q", [(0.0, 0.6, 0.6), (0.8, 1.2, 0.3), (-2.0, 0.1, 1.7)])
def test_a_payload_at_the_tip_is_carried_as_the_hand_computation_says(q):
    """At rest with an 8 t payload hanging at the tip, held by the *_hold
    outputs: no acceleration; the mount carries (36 t + 8 t) g and the
    moments of the weights and of the payload about the mount point; the
    holding cylinder forces are the derivatives of the potential energy with
    the payload's m g z_tip (virtual work, central differences of 1e-6 m:
    measured 2.4e-9 of them); the tip is where the geometry puts it
    (measured 8.9e-16 m), standing still.  Measured: accelerations 3.6e-15
    m/s2 at worst, the weight to 1 ulp, the moments 1.1e-16 of the weight
    times 10 m."""
    c = KnuckleBoomCrane(q_slew_0=q[0], q_boom_cyl_0=q[1], q_jib_cyl_0=q[2])
    x, u = c.initial_state(), c.default_inputs()
    u[27:30] = 0.0, 0.0, -M_PAYLOAD * G
    u[30:33] = 3.0, -4.0, 5.0  # the mount point, Frame 0
    hold = c.holding(x, u)
    u[21:24] = hold
    y = _values(c, x, u)
    assert max(abs(y[f"du_{j}"]) for j in ("slew", "boom_cyl", "jib_cyl")) < 1.1e-14
    assert [y[f"{a}_hold"] for a in ("tau_slew", "F_boom_cyl", "F_jib_cyl")] == pytest.approx(hold, rel=3e-16, abs=1e-9)
    W = np.array([y[f"W_mount_{c_}"] for c_ in ("nx", "ny", "nz", "fx", "fy", "fz")])
    weight = (36e3 + M_PAYLOAD) * G
    assert W[5] == pytest.approx(weight, rel=3e-16)
    assert np.allclose(W[3:5], 0.0, atol=3e-16 * weight)
    tip = _tip(c, q)
    moment = sum(np.cross(r, [0, 0, getattr(c.sym, m) * G]) for m, r in cog_positions(c, q).items())
    moment += np.cross(tip, [0.0, 0.0, M_PAYLOAD * G])
    assert np.allclose(W[:3], moment, rtol=0, atol=4e-16 * weight * 10)
    h = 1e-6
    for k in (1, 2):
        dq = np.zeros(3)
        dq[k] = h

        def V(qq):
            return potential(c, qq) + M_PAYLOAD * G * _tip(c, qq)[2]

        assert hold[k] == pytest.approx((V(np.add(q, dq)) - V(np.subtract(q, dq))) / (2 * h), rel=8e-9)
    assert abs(hold[0]) < 1e-6
    assert [y[f"tip_p_{a}"] for a in "xyz"] == pytest.approx(tip + [3.0, -4.0, 5.0], rel=0, abs=3e-15)
    assert [y[f"tip_v_{a}"] for a in "xyz"] == [0.0, 0.0, 0.0]


def _moving(rng):
    """A crane at a random state on a mount turned, turning and moving
    anyhow: ``(crane, x, u)``."""
    c = KnuckleBoomCrane()
    x = np.array([rng.uniform(-3, 3), rng.uniform(0.1, 1.7), rng.uniform(0.1, 1.7), *rng.normal(size=3) * 0.4])
    u = c.default_inputs()
    u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
    u[9:12], u[15:18] = rng.uniform(-0.5, 0.5, 3), rng.uniform(-3.0, 3.0, 3)  # w, v (Frame 1)
    u[12:15], u[18:21] = rng.uniform(-0.5, 0.5, 3), rng.uniform(-3.0, 3.0, 3)  # dw, a
    u[21:27] = [rng.normal() * 1e4, 6e5 + rng.normal() * 2e5, 2e5 + rng.normal() * 1e5, *rng.normal(size=3) * 1e4]
    u[30:33] = rng.uniform(-50.0, 50.0, 3)
    return c, x, u


def test_the_tip_force_passes_the_joints_as_its_moments_about_them(rng):
    """At the same state and the same accelerations, adding a force F at the
    tip changes the wrench through Joints 1-3 (``reactions``: eq. (56) with
    the total wrenches of eq. (49)) by F and its moment about the joint's
    origin, in the joint's frame (the links beyond each joint carry the tip;
    the cylinders' own loads do not change): to 5e-15 of |F| times the 19 m
    reach (measured 1.4e-15 over 20 states)."""
    for _ in range(5):
        c, x, u = _moving(rng)
        du = c.derivatives(0.0, x, u)[3:]
        loaded = u.copy()
        loaded[27:30] = F0 = rng.uniform(-5e4, 5e4, 3)
        R10 = u[:9].reshape(3, 3)
        kin = c._state_terms(x)[0]
        r0, r1 = c.reactions(x, u, du), c.reactions(x, loaded, du)
        tip = kin.p[2] + kin.R[2] @ c._tip  # Frame 1
        F = R10.T @ F0
        for k, name in enumerate(("J1", "J2", "J3")):
            R = kin.R[k]
            expected = -np.concatenate([R.T @ np.cross(tip - kin.p[k], F), R.T @ F])
            assert np.allclose(r1[name] - r0[name], expected, rtol=0, atol=5e-15 * 19 * np.linalg.norm(F0)), name


def test_the_tips_velocity_is_the_rate_of_its_position(rng):
    """The mount turned by exp(w^ s) (w in Frame 1), moved by R_1^0 v s, the
    coordinates by u s: the central difference of tip_p over s = +-1e-6 s is
    tip_v to the round-off of 60 m over 2e-6 s (measured: 8.4e-9 m/s over 20
    states)."""
    tip_p = slice(OUT["tip_p_x"], OUT["tip_p_z"] + 1)
    for _ in range(5):
        c, x, u = _moving(rng)
        rate = tip_rate_by_differences(lambda xs, us: c.output(0.0, xs, us)[tip_p], x, u)
        tip_v = c.output(0.0, x, u)[OUT["tip_v_x"]:OUT["tip_v_z"] + 1]
        assert np.allclose(rate, tip_v, rtol=0, atol=2.5e-8)


def test_the_tip_forces_generalized_forces_deliver_its_power_at_the_tip(rng):
    """What the tip force adds to Kane's generalized forces in the crane's
    speeds (eq. (46) with it), dotted with the speeds nu = [w; v; u], is the
    power F . v_tip it delivers at the tip (Frame 0): to 1e-14 of |F| |v_tip|
    (measured: 3.5e-15 over 20 states)."""
    for _ in range(5):
        c, x, u = _moving(rng)
        loaded = u.copy()
        loaded[27:30] = rng.uniform(-5e4, 5e4, 3)
        f, f0 = c._dynamics(x, loaded).f, c._dynamics(x, u).f
        nu = np.concatenate([u[9:12], u[15:18], x[3:]])
        v_tip = c.output(0.0, x, u)[OUT["tip_v_x"]:OUT["tip_v_z"] + 1]
        assert (f - f0) @ nu == pytest.approx(loaded[27:30] @ v_tip, abs=1e-14 * np.linalg.norm(loaded[27:30])
                                              * np.linalg.norm(v_tip))
