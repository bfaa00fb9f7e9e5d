"""Knuckle boom crane of Cibicik & Egeland (2019): loop closure in the tree,
statics against hand calculations and virtual work, energy."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.kane import kinematics, kinetic_energy
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.screw import rot_x, rot_z

G = 9.81
OUT = {n: i for i, n in enumerate(KnuckleBoomCrane.output_names())}


def cog_positions(c, q):
    """COG of every body in Frame 0, from the geometry alone (loop angles and
    elementary rotations, not the block's kinematics), keyed by the paper's
    mass symbols."""
    p = c.sym
    (a2, b2), (a3, b3) = c.loops[0].angles(q[1]), c.loops[1].angles(q[2])
    Rz, R2, R3 = rot_z(q[0]), rot_x(a2), rot_x(a2) @ rot_x(a3)
    J2 = np.array([0, 0, p.l1])
    J3 = J2 + R2 @ [0, 0, p.l2]
    B2 = np.array([0, p.a_b2, p.l1 - p.e_b2])
    B3 = J2 + R2 @ [0, p.a_b3, p.l2 - p.e_b3]
    Rb2, Rb3 = rot_x(b2), R2 @ rot_x(b3)
    local = {
        "m1": [0, 0, p.d1], "m2": J2 + R2 @ [0, 0, p.d2], "m3": J3 + R3 @ [0, 0, p.d3],
        "m_b2": B2 + Rb2 @ [0, 0, p.d_b2], "m_p2": B2 + Rb2 @ [0, 0, p.l_b2 + q[1] - p.d_p2],
        "m_b3": B3 + Rb3 @ [0, 0, p.d_b3], "m_p3": B3 + Rb3 @ [0, 0, p.l_b3 + q[2] - p.d_p3],
    }
    return {m: Rz @ np.asarray(r, float) for m, r in local.items()}


def potential(c, q):
    return sum(getattr(c.sym, m) * G * r[2] for m, r in cog_positions(c, q).items())


def test_the_pistons_stay_on_their_pins():
    """In the tree the loops are cut at the piston pins; the joint map of eqs.
    (29)-(40) keeps each piston's end on its pin, in position and velocity."""
    c = KnuckleBoomCrane()
    rng = np.random.default_rng(1)
    for _ in range(5):
        x = np.array([rng.uniform(-3, 3), rng.uniform(0, 1.8), rng.uniform(0, 1.8), *rng.normal(size=3)])
        theta, Gm, _ = c.joint_map(x)
        kin = kinematics(c.chain, theta, Gm @ x[3:])
        for piston, boom, (a_p, e_p) in ((4, 1, (c.sym.a_p2, c.sym.e_p2)), (6, 2, (c.sym.a_p3, c.sym.e_p3))):
            pin = kin.p[boom] + kin.R[boom] @ [0, a_p, e_p]
            assert np.linalg.norm(kin.p[piston] - pin) < 1e-12
            # velocities of the two points, base coordinates
            t_b, t_p = kin.Po[boom] @ kin.nu, kin.Po[piston] @ kin.nu
            v_boom = kin.R[boom] @ (t_b[3:] + np.cross(t_b[:3], [0, a_p, e_p]))
            v_piston = kin.R[piston] @ t_p[3:]
            assert np.allclose(v_boom, v_piston, atol=1e-12)


@pytest.mark.parametrize("q", [(0.0, 0.6, 0.6), (0.8, 1.2, 0.3), (-2.0, 0.1, 1.7)])
def test_statics_weight_moments_and_virtual_work(q):
    """At rest, holding the crane: Joint 1 carries 36 t g = 353.16 kN and the
    moment of the weights about the mount; the cylinder forces are the
    derivatives of the potential energy with respect to the piston
    extensions (virtual work), the slewing torque is zero."""
    c = KnuckleBoomCrane(q_slew_0=q[0], q_boom_cyl_0=q[1], q_jib_cyl_0=q[2])
    x = c.initial_state()
    u = c.default_inputs()
    free = c.derivatives(0.0, x, u)[3:]  # accelerations with no actuation
    hold = -c._dynamics(x, u).f[6:]
    u[21:24] = hold
    y = c.output(0.0, x, u)
    assert np.allclose(y[OUT["du_slew"]:OUT["du_jib_cyl"] + 1], 0, atol=1e-9) and np.abs(free).max() > 0.1
    # the *_hold outputs (the controller's gravity compensation) are these forces
    assert np.allclose(y[OUT["tau_slew_hold"]:OUT["F_jib_cyl_hold"] + 1], hold, rtol=1e-12, atol=1e-6)
    W = y[OUT["W_mount_nx"]:OUT["W_mount_fz"] + 1]
    assert W[5] == pytest.approx(36e3 * G, rel=1e-12)
    assert np.allclose(W[3:5], 0, atol=1e-6)
    moment = sum(np.cross(r, [0, 0, getattr(c.sym, m) * G]) for m, r in cog_positions(c, q).items())
    assert np.allclose(W[:3], moment, atol=1e-8 * 36e3 * G * 10)
    h = 1e-6
    for k in (1, 2):
        dq = np.zeros(3)
        dq[k] = h
        dV = (potential(c, np.add(q, dq)) - potential(c, np.subtract(q, dq))) / (2 * h)
        assert hold[k] == pytest.approx(dV, rel=1e-6)
    assert abs(hold[0]) < 1e-6


def test_energy_is_conserved_without_actuation():
    """No cylinder forces, no slewing torque, fixed base: kinetic energy of the
    seven bodies plus their potential energy stays constant while the booms
    fold (over 0.4 s, inside the stroke)."""
    c = KnuckleBoomCrane(q_boom_cyl_0=1.2, q_jib_cyl_0=1.0, u_slew_0=0.3)
    u_in = c.default_inputs()

    def energy(x):
        theta, Gm, _ = c.joint_map(x)
        kin = kinematics(c.chain, theta, Gm @ x[3:])
        return kinetic_energy(c.chain, kin) + potential(c, x[:3])

    sol = solve_ivp(lambda t, x: c.derivatives(t, x, u_in), (0, 0.4), c.initial_state(), method="DOP853",
                    rtol=1e-11, atol=1e-12, dense_output=True)
    E = [energy(sol.sol(t)) for t in np.linspace(0, 0.4, 9)]
    assert np.ptp(E) < 1e-8 * 36e3 * G * 10
    assert np.ptp(sol.y[2]) > 0.05  # the jib cylinder moves a good way


def test_mass_matrix_is_symmetric_positive_definite():
    c = KnuckleBoomCrane(q_boom_cyl_0=0.9, q_jib_cyl_0=1.4)
    _, _, _, _, M = c._state_terms(np.array([0.3, 0.9, 1.4, 0.1, 0.2, -0.1]))
    assert np.allclose(M, M.T, atol=1e-6)
    assert np.linalg.eigvalsh(M[6:, 6:]).min() > 0


@pytest.mark.parametrize("params,fragment", [
    ({"q_boom_cyl_0": 3.0}, "q_boom_cyl_0 = 3 m is outside the stroke 0..1.8 m"),
    ({"stroke_jib_cyl": 2.5}, "stroke_jib_cyl = 2.5 m is invalid: the piston would leave its cylinder"),
    ({"e_boom_cyl_piston": 0.3, "a_boom_cyl_piston": 0.1},
     r"the boom cylinder \(joint 2\) cannot close its loop over the whole stroke"),
    ({"m_boom_cyl_barrel": -1.0}, "m_boom_cyl_barrel = -1 kg is invalid: it must be positive"),
])
def test_bad_geometry_is_named(params, fragment):
    with pytest.raises(ParameterError, match=fragment):
        KnuckleBoomCrane(**params)


def _random_dynamic_state(c, rng, moving_base=False):
    from scipy.spatial.transform import Rotation
    x = np.array([rng.uniform(-3, 3), rng.uniform(0.1, 1.7), rng.uniform(0.1, 1.7), *rng.normal(size=3) * 0.3])
    u = c.default_inputs()
    if moving_base:
        u[:9] = Rotation.random(random_state=rng.integers(1000)).as_matrix().ravel()
        u[9:21] = rng.normal(size=12)
    u[21:24] = [rng.normal() * 1e4, 6e5 + rng.normal() * 2e5, 2e5 + rng.normal() * 1e5]
    u[24:27] = rng.normal(size=3) * 2e4  # friction torques in Joints 1-3
    du = c.derivatives(0.0, x, u)[3:]
    return x, u, du


def test_mount_wrench_is_joint_1_reaction_plus_slewing_torque():
    c = KnuckleBoomCrane()
    rng = np.random.default_rng(7)
    for moving in (False, True):
        x, u, du = _random_dynamic_state(c, rng, moving)
        y = c.output(0.0, x, u)
        J1 = c.reactions(x, u, du)["J1"]
        W2 = y[OUT["W_king_nx"]:OUT["W_king_fz"] + 1]
        # the king takes the slewing torque and the slewing joint's friction
        assert np.allclose(J1 + [0, 0, u[21] + u[24], 0, 0, 0], W2, atol=1e-9 * np.abs(W2).max())


def test_joint_reactions_by_a_second_computation():
    """Eq. (56) sums (links and cylinder support loads, cylinder 3 through its
    supports) against auxiliary generalized speeds over the subtree beyond
    the joint (eqs. 39-50; cylinder 3 as bodies of the subtree, piston 2's
    pin load as the one external load), at random states with joint
    friction, fixed and moving base, to 1e-9 of the wrench scale.  The
    second computation gives the whole wrench through the joint, whose
    moment about the pin axis is the joint's friction torque (the friction
    inside the subtree cancels): the outputs ``W_boom_*``, ``W_jib_*``, to
    3e-14 of the wrench scale (measured 2.6e-15 here, 9.4e-15 at worst over
    30 such states), their moment about the pin axis the friction torque to
    1.5e-14 (measured 2.6e-15, 4.5e-15 at worst); ``reactions()`` leaves out
    the friction couple."""
    from crane_cosim.blocks.kane import constraint_wrench, with_base_twist
    from crane_cosim.blocks.screw import cross, wrench_transform
    c = KnuckleBoomCrane()
    rng = np.random.default_rng(11)
    for moving in (False, True, True):
        x, u, du = _random_dynamic_state(c, rng, moving)
        r = c.reactions(x, u, du)
        R10, w, dw, v, a = u[:9].reshape(3, 3), u[9:12], u[12:15], u[15:18], u[18:21]
        kin, Gt, Gdot_u, _, _ = c._state_terms(x)
        kin = with_base_twist(kin, np.concatenate([w, v]))
        nudot = Gt @ np.concatenate([dw, a - cross(w, v), du])
        nudot[6:] += Gdot_u
        g = R10.T @ [0, 0, -G]
        _, W = c.total_wrenches(x, u, du)
        _, _, f_P, l_c = c.support_loads(x, W)
        y = c.output(0.0, x, u)
        for name, k, fP, barrel, lc, port, tau_f in (("J2", 1, f_P[0], 3, l_c[0], "W_boom", u[25]),
                                                     ("J3", 2, f_P[1], 5, l_c[1], "W_jib", u[26])):
            rho = constraint_wrench(c.chain, kin, nudot, g, k)
            point = kin.p[barrel] + kin.R[barrel] @ [0, 0, lc]
            load = wrench_transform(kin.R[k].T @ kin.R[barrel], kin.R[k].T @ (point - kin.p[k])) @ np.r_[0, 0, 0, fP]
            second = rho - load
            scale = np.abs(second).max()
            assert np.allclose(r[name], second - [tau_f, 0, 0, 0, 0, 0], atol=1e-9 * scale), name
            W = y[OUT[f"{port}_nx"]:OUT[f"{port}_fz"] + 1]
            assert np.allclose(W, second, rtol=0, atol=3e-14 * scale), port
            assert abs(W[0] - tau_f) < 1.5e-14 * scale, port


@pytest.mark.parametrize("friction", [False, True])
def test_the_moment_about_the_pin_axis_in_the_boom_and_jib_joints_is_the_friction_torque(friction):
    """The boom and jib joints (Joints 2 and 3) are pins about x: the pin's
    reaction has no moment about x throughout a dynamic run (the paper's
    observation, Section 6), so the moment the joint passes is its friction
    torque alone.  Both joints turn about the x axis of the frames on either
    side (no fixed rotation), which the friction couples of
    ``total_wrenches`` take for granted."""
    c = KnuckleBoomCrane(q_boom_cyl_0=0.5, q_jib_cyl_0=0.7, u_slew_0=0.2)
    for k in (1, 2):
        assert np.array_equal(c.chain.joints[k].rotation, np.eye(3))
        assert np.array_equal(c.chain.joints[k].axis, [1, 0, 0])
    u = c.default_inputs()
    x = c.initial_state()
    f = c._dynamics(x, u).f
    hold = -f[6:]
    worst, scale = 0.0, 0.0
    x0 = x.copy()
    for k in range(300):
        t = k * 1e-3
        u[21:24] = hold + [5e3 * np.sin(3 * t), 2e5 * np.sin(5 * t), -1e5 * np.cos(4 * t)]
        if friction:
            u[24:27] = [2e3 * np.cos(2 * t), -3e4 * np.sin(4 * t) - 1e4, 1.5e4 * np.cos(6 * t)]
        y = c.output(t, x, u)
        worst = max(worst, abs(y[OUT["W_boom_nx"]] - u[25]), abs(y[OUT["W_jib_nx"]] - u[26]))
        scale = max(scale, np.abs(y[OUT["W_boom_ny"]:OUT["W_boom_nz"] + 1]).max(), abs(y[OUT["W_boom_fz"]]))
        x = c.advance(t, x, u, 1e-3)
    assert worst < 1.5e-14 * scale  # measured 4.1e-15 with and without friction
    assert np.abs(x[:3] - x0[:3]).max() > 1e-3  # the crane did move


def test_massless_cylinders_are_two_force_members():
    """Without cylinder masses the support loads are purely axial: F on the
    piston support, -F on the barrel support (eqs. 53-55 with zero wrenches
    of the cylinder bodies but for the actuation)."""
    c = KnuckleBoomCrane(m_boom_cyl_barrel=1e-9, m_boom_cyl_piston=1e-9, m_jib_cyl_barrel=1e-9,
                         m_jib_cyl_piston=1e-9)
    x = np.array([0.4, 0.9, 1.2, 0.0, 0.0, 0.0])
    u = c.default_inputs()
    u[22:24] = [8e5, 3e5]
    y = c.output(0.0, x, u)
    for c, F in (("boom_cyl", 8e5), ("jib_cyl", 3e5)):
        assert y[OUT[f"{c}_P_fz"]] == pytest.approx(F, rel=1e-9)
        assert y[OUT[f"{c}_B_fz"]] == pytest.approx(-F, rel=1e-9)
        for comp in (f"{c}_P_fx", f"{c}_P_fy", f"{c}_B_fx", f"{c}_B_fy", f"{c}_B_nz"):
            assert abs(y[OUT[comp]]) < 1e-6


def test_controller_valve_commands():
    """Valve commands: position loop with speed feed-forward and feedback of
    the cylinder force beyond the holding force, clipped to [-1, 1]; force
    demands: gravity compensation plus PD."""
    from crane_cosim.blocks.controller import KnuckleBoomController
    k = KnuckleBoomController(kx_boom_cyl=30.0, kx_jib_cyl=20.0, kff_boom_cyl=3.0, kff_jib_cyl=2.0,
                              kF_boom_cyl=1e-6, kF_jib_cyl=2e-6)
    out = {n: i for i, n in enumerate(KnuckleBoomController.output_names())}
    q_ref, u_ref = k.set_points(2.0)
    hold, meas = np.array([5e5, 6e4]), np.array([5.1e5, 5e4])
    inp = np.r_[0.0, q_ref[1] - 0.01, q_ref[2] + 0.002, 0.0, 0.0, 0.0, 1e3, hold, meas]
    y = k.output(2.0, None, inp)
    assert y[out["valve_boom_cyl"]] == pytest.approx(min(1.0, 30.0 * 0.01 + 3.0 * u_ref[1] - 1e-6 * 1e4))
    assert y[out["valve_jib_cyl"]] == pytest.approx(max(-1.0, min(1.0, -20.0 * 0.002 + 2.0 * u_ref[2] + 2e-6 * 1e4)))
    assert y[out["F_boom_cyl"]] == pytest.approx(5e5 + 6e6 * 0.01 + 2.5e6 * u_ref[1])
    at_rest = k.output(0.5, None, np.r_[0.0, k.set_points(0.5)[0][1:], 0.0, 0.0, 0.0, 0.0, hold, hold])
    assert at_rest[out["valve_boom_cyl"]] == 0.0 and at_rest[out["valve_jib_cyl"]] == 0.0  # holding: no correction
    far = k.output(2.0, None, inp - np.r_[0, 1.0, 1.0, np.zeros(8)])
    assert far[out["valve_boom_cyl"]] == 1.0 and far[out["valve_jib_cyl"]] == 1.0


def test_the_power_of_the_friction_torques_is_that_of_their_generalized_forces():
    """Fixed base, no actuation: the generalized forces of the friction
    torques, ``Q = M (du_with - du_without)`` (gravity and the velocity
    terms drop out of the difference), do the work the torques do on their
    joints' rates, ``Q . u = sum tau_f,j omega_j``, omega the rates of q1,
    alpha2, alpha3 (the outputs ``u_slew``, ``u_boom``, ``u_jib``).  To
    1.5e-13 of ``sum |tau_f,j omega_j|`` (measured 1.4e-14 compiled, 4.2e-14
    with the numpy code)."""
    c = KnuckleBoomCrane()
    rng = np.random.default_rng(13)
    for _ in range(10):
        x = np.array([rng.uniform(-3, 3), rng.uniform(0.1, 1.7), rng.uniform(0.1, 1.7), *rng.normal(size=3) * 0.3])
        idle = c.default_inputs()
        u = idle.copy()
        u[24:27] = rng.normal(size=3) * 1e4
        M = c._state_terms(x)[4][6:, 6:]
        Q = M @ (c.derivatives(0.0, x, u)[3:] - c.derivatives(0.0, x, idle)[3:])
        y = c.output(0.0, x, u)
        omega = y[[OUT["u_slew"], OUT["u_boom"], OUT["u_jib"]]]
        assert Q @ x[3:] == pytest.approx(u[24:27] @ omega, rel=0, abs=1.5e-13 * np.abs(u[24:27] * omega).sum())


def test_friction_takes_out_the_energy_it_works():
    """Viscous friction in the three revolute joints, ``tau_f,j = -c_j
    omega_j``, fixed base, no actuation: the kinetic energy of the seven
    bodies plus their potential energy falls by the work the friction
    torques do, ``int sum tau_f,j omega_j dt`` (integrated with the motion),
    over 0.4 s: about 4.5 kJ, to 3e-7 J (measured 1.1e-7 J)."""
    c = KnuckleBoomCrane(q_boom_cyl_0=1.2, q_jib_cyl_0=1.0, u_slew_0=0.3)
    idle = c.default_inputs()
    damping = np.array([2e4, 1e5, 5e4])  # N m s/rad

    def rates(x):
        _, Gm, _ = c.joint_map(x)
        return np.r_[x[3], Gm[1:3] @ x[3:]]

    def energy(x):
        theta, Gm, _ = c.joint_map(x)
        kin = kinematics(c.chain, theta, Gm @ x[3:])
        return kinetic_energy(c.chain, kin) + potential(c, x[:3])

    def rhs(t, z):
        omega = rates(z[:6])
        u = idle.copy()
        u[24:27] = -damping * omega
        return np.r_[c.derivatives(t, z[:6], u), u[24:27] @ omega]

    sol = solve_ivp(rhs, (0, 0.4), np.r_[c.initial_state(), 0.0], method="DOP853", rtol=1e-11, atol=1e-12,
                    dense_output=True)
    z = sol.sol(np.linspace(0, 0.4, 9)).T
    E = np.array([energy(zi[:6]) for zi in z])
    assert np.abs(E - E[0] - z[:, 6]).max() < 3e-7
    assert E[0] - E[-1] > 4e3  # friction took out a good share


def test_luffing_angles_and_rates():
    """``q_boom``, ``q_jib`` are alpha2, alpha3 of the joint map, the angles
    that close the loops: the boom (jib) turned by it about x puts the
    piston pin at ``l_b + q`` from the barrel pin (to 5e-15 m, measured
    1.3e-15 m).  ``u_boom``, ``u_jib`` are their rates: central differences
    of the outputs along a run with friction, 0.1 ms apart, to 3e-8 rad/s
    (measured 9.4e-9 rad/s, the differences' own error)."""
    c = KnuckleBoomCrane(q_boom_cyl_0=1.2, q_jib_cyl_0=1.0, u_slew_0=0.3)
    u = c.default_inputs()
    u[24:27] = [3e3, -2e4, 1e4]
    sol = solve_ivp(lambda t, x: c.derivatives(t, x, u), (0, 0.4), c.initial_state(), method="DOP853",
                    rtol=1e-12, atol=1e-13, dense_output=True)
    h, worst_pin, worst_rate = 1e-4, 0.0, 0.0
    for t in np.linspace(0.05, 0.35, 7):
        x = sol.sol(t)
        y = c.output(t, x, u)
        theta, _, _ = c.joint_map(x)
        angles = y[[OUT["q_boom"], OUT["q_jib"]]]
        assert np.allclose(angles, theta[1:3], rtol=0, atol=1e-15)
        for alpha, loop, q in zip(angles, c.loops, x[1:3]):
            pin = rot_x(alpha) @ [0, loop.a_p, loop.e_p]
            worst_pin = max(worst_pin, abs(np.linalg.norm(pin - [0, loop.a_b, -loop.e_b]) - (loop.l_b + q)))
        later, earlier = c.output(t + h, sol.sol(t + h), u), c.output(t - h, sol.sol(t - h), u)
        for angle, rate in (("q_boom", "u_boom"), ("q_jib", "u_jib")):
            worst_rate = max(worst_rate, abs((later[OUT[angle]] - earlier[OUT[angle]]) / (2 * h) - y[OUT[rate]]))
    assert worst_pin < 5e-15
    assert worst_rate < 3e-8
    assert np.ptp(sol.y[1]) > 0.1 and np.ptp(sol.y[2]) > 0.05  # both cylinders moved
