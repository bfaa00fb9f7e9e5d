"""The friction block in a crane's joints: its ports, its parameter checks,
breakaway, a crane coasting to a stop, and the energy balance of a crane
with friction."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.crane import Crane
from crane_cosim.blocks.friction import stribeck
from crane_cosim.blocks.joint_friction import JointFriction, KnuckleBoomFriction
from crane_cosim.blocks.kane import kinematics, kinetic_energy, potential_energy


def _inputs(block, **values):
    u = block.default_inputs()
    for name, value in values.items():
        u[block.input_names().index(name)] = value
    return u


def _out(block, y, name):
    return y[block.output_names().index(name)]


def test_torque_is_mu_times_radial_force_times_half_the_pin_and_opposes_sliding():
    """eq. (13): ``t_f = mu f_n d / 2``, ``f_n = hypot(f_n1, f_n2)``; the
    output torque is along the joint coordinate, against the rate, and the
    power it takes out is positive."""
    b = JointFriction()
    u = _inputs(b, u_boom=0.4, f_boom_n1=300.0, f_boom_n2=-400.0)
    x = b.initial_state()
    x = b.advance(0.0, x, u, 5.0)  # 2 rad of sliding: the bristle has settled
    y = b.output(5.0, x, u)
    mu = _out(b, y, "mu_boom")
    assert mu == pytest.approx(0.1, rel=1e-9)  # mu_k far above the Stribeck velocity
    assert _out(b, y, "tau_f_boom") == pytest.approx(-mu * 500.0 * 0.03 / 2, rel=1e-14)
    assert _out(b, y, "P_f_boom") == pytest.approx(mu * 500.0 * 0.015 * 0.4, rel=1e-14)
    assert _out(b, y, "P_f") == _out(b, y, "P_f_boom")
    # the other joints neither move nor carry load: no friction
    assert _out(b, y, "tau_f_slew") == 0.0 and _out(b, y, "z_jib") == 0.0
    # the energy state integrates the power (constant once settled)
    x2 = b.advance(5.0, x, u, 1.0)
    assert _out(b, b.output(6.0, x2, u), "E_f_boom") - _out(b, y, "E_f_boom") == pytest.approx(
        _out(b, y, "P_f_boom"), rel=1e-9)


def test_a_seal_is_a_force_of_its_own_levels():
    b = KnuckleBoomFriction()
    u = _inputs(b, u_boom_cyl=-0.05)
    x = b.advance(0.0, b.initial_state(), u, 1.0)
    y = b.output(1.0, x, u)
    # Coulomb 4 kN plus viscous 2e4 N s/m x 0.05 m/s, pushing the piston out
    assert _out(b, y, "F_f_boom_cyl") == pytest.approx(5e3, rel=1e-9)
    assert _out(b, y, "z_boom_cyl") == pytest.approx(-4e3 / 5e7, rel=1e-9)


def test_model_none_is_no_friction():
    b = JointFriction(model_slew="none")
    u = _inputs(b, u_slew=0.3, f_slew_n1=1e4)
    x = b.advance(0.0, b.initial_state(), u, 1.0)
    y = b.output(1.0, x, u)
    assert _out(b, y, "tau_f_slew") == 0.0 and _out(b, y, "E_f_slew") == 0.0


@pytest.mark.parametrize("params, fragment", [
    ({"mu_k_boom": 0.3}, "parameter mu_k_boom = 0.3 is invalid: the kinetic coefficient must not exceed the "
                         "static one, mu_s_boom = 0.2"),
    ({"sigma0_jib": 0.0}, "parameter sigma0_jib = 0 1/rad is invalid: it must be positive"),
    ({"sigma0_slew": -3.0}, "parameter sigma0_slew = -3 1/rad is invalid"),
    ({"d_boom": -0.03}, "parameter d_boom = -0.03 m is invalid: it must be positive"),
    ({"model_jib": "coulomb"}, "parameter model_jib = 'coulomb' is invalid: it must be one of 'none', 'dahl', "
                               "'lugre'"),
    ({"gamma_slew": 2.5}, "gamma_slew = 2.5 is invalid: Dahl's shape exponent must be between 1 and 2"),
    ({"F_c_jib_cyl": 5e3}, "F_c_jib_cyl = 5000 is invalid: the Coulomb force must not exceed the static one"),
])
def test_bad_parameters_are_named(params, fragment):
    cls = KnuckleBoomFriction if "jib_cyl" in "".join(params) else JointFriction
    with pytest.raises(ParameterError, match="^" + cls.model_name) as err:
        cls(**params)
    assert fragment in str(err.value)


def test_lugre_breaks_away_at_the_static_torque():
    """A loaded joint (the boom joint: inertia 50 kg m^2, f_n = 10 kN, d =
    30 mm, so mu_s f_n d/2 = 30 N m) under a torque rising at 0.1 N m/s,
    friction alone holding it: it creeps in pre-sliding, then breaks away
    when the torque reaches the static level.  The breakaway torque is the
    largest the friction reaches, up to a rate of ten Stribeck velocities.
    LuGre breaks away a little below mu_s under a ramp: quasi-statically
    ``dz/dt = r / sigma0`` (``r`` the ramp in mu per second), so the creep
    rate ``v = r / (sigma0 (1 - mu / g(v)))`` grows as the bristle nears
    saturation and the Stribeck curve falls as it does: the friction peaks
    at ``max_v g(v) (1 - r / (sigma0 v))``, which tends to mu_s as the ramp
    slows (here 2.6% below it).  The run breaks away between that and the
    static torque (measured 2.2% below: the joint's inertia delays the
    creep, so the bristle bends a little further)."""
    J, f_n, ramp = 50.0, 1e4, 0.03
    b = JointFriction()
    T_s = 0.2 * f_n * b.p.d_boom / 2

    def rhs(t, s):
        u = _inputs(b, u_boom=s[1], f_boom_n1=f_n)
        y = b.output(t, s[2:], u)
        return [s[1], (ramp * t + _out(b, y, "tau_f_boom")) / J, *b.derivatives(t, s[2:], u)]

    def sliding(t, s):
        return s[1] - 0.175
    sliding.terminal = True
    sol = solve_ivp(rhs, (0, 2 * T_s / ramp), np.zeros(8), events=sliding, rtol=1e-10, atol=1e-12, max_step=0.2)
    assert sol.t_events[0].size == 1
    T_break = max(-_out(b, b.output(t, s[2:], _inputs(b, u_boom=s[1], f_boom_n1=f_n)), "tau_f_boom")
                  for t, s in zip(sol.t, sol.y.T))
    from scipy.optimize import minimize_scalar
    law, lever = b.laws[1], f_n * b.p.d_boom / 2
    r = ramp / lever
    peak = -minimize_scalar(lambda v: -stribeck(law, v) * (1 - r / (law.sigma0 * v)), bounds=(r / law.sigma0, 0.0175),
                            method="bounded", options={"xatol": 1e-12}).fun
    assert peak * lever < T_break < T_s
    assert peak * lever > (1 - 0.03) * T_s


def _slewing_crane():
    """The crane of Cibicik & Egeland (2018) without gravity, booms horizontal
    and in line: slewing is then an equilibrium motion (the booms' loads
    pass through their joint axes), with a constant inertia about the slew
    axis."""
    crane = Crane(g=0.0)
    x = np.zeros(6)
    M = crane._state_terms(x)[1]
    return crane, M[6, 6]


def test_a_slewing_crane_coasts_to_a_stop_where_and_when_the_hand_calculation_says():
    """The slewing crane (inertia J about the slew axis) at 0.5 rad/s, left to
    friction in its slewing joint under a constant radial force (f_n = 2 kN,
    d = 0.2 m; LuGre with a stiff bristle, 1e3/rad, so that it follows its
    steady curve): ``J dw/dt = -mu(w) f_n d / 2`` gives the stopping time
    ``J / (f_n d / 2) int_0^w0 dw / mu(w)`` and angle ``... int w dw / mu(w)``,
    mu(w) the Stribeck curve (with Coulomb friction alone, ``J w0 / T_k`` and
    ``J w0^2 / (2 T_k)``, 1% and 1e-4 longer).  Crane and friction blocks
    integrated together by an adaptive Runge-Kutta; the stop is the rate's
    first zero.  Measured: 1.2e-4 in time, 4e-6 in angle: the bristle must
    bend a further ``(mu_s - mu_k) / sigma0`` to reach the static level,
    which at the Stribeck velocity takes 0.6 ms."""
    crane, J = _slewing_crane()
    fric = JointFriction(sigma0_slew=1e4, sigma1_slew=1.0)
    f_n, w0 = 2e3, 0.5
    lever = f_n * fric.p.d_slew / 2

    def rhs(t, s):
        x, z = s[:6], s[6:]
        yf = fric.output(t, z, _inputs(fric, u_slew=x[3], f_slew_n1=f_n))
        dx = crane.derivatives(t, x, _inputs(crane, tau_f_slew=yf[0]))
        return [*dx, *fric.derivatives(t, z, _inputs(fric, u_slew=x[3], f_slew_n1=f_n))]

    def stopped(t, s):
        return s[3]
    stopped.terminal, stopped.direction = True, -1
    s0 = np.zeros(12)
    s0[3] = w0
    # the bristle starts settled on the sliding curve
    s0[6] = fric.laws[0].L_k / fric.laws[0].sigma0 * (1 + math.exp(-(w0 / 0.0175) ** 2))
    sol = solve_ivp(rhs, (0, 60), s0, events=stopped, rtol=1e-10, atol=1e-12, method="DOP853", max_step=0.05)
    t_stop, angle = sol.t_events[0][0], sol.y_events[0][0][0]

    from scipy.integrate import quad
    law = fric.laws[0]

    def mu(w):
        return law.L_k + (law.L_s - law.L_k) * math.exp(-(w / law.v_S) ** 2)
    t_hand = J / lever * quad(lambda w: 1 / mu(w), 0, w0, points=[law.v_S], epsabs=1e-13)[0]
    angle_hand = J / lever * quad(lambda w: w / mu(w), 0, w0, points=[law.v_S], epsabs=1e-13)[0]
    assert t_stop == pytest.approx(t_hand, rel=4e-4)
    assert angle == pytest.approx(angle_hand, rel=1.5e-5)
    # and the crane's other joints stayed where they were
    assert np.abs(sol.y_events[0][0][1:3]).max() < 1e-9


def test_energy_balance_of_a_crane_with_friction():
    """Crane of Cibicik & Egeland (2018) on a fixed base, gravity on, driven by
    sinusoidal actuator torques, LuGre friction (Table 1) in all three
    joints driven by the crane's own joint reactions: over 1.5 s the change
    of kinetic plus potential energy equals the actuators' work less the
    energy the friction took out (its E_f), to 1e-11 of the energy scale
    (the largest of the three; measured 1e-12 with the integrator at
    rtol 1e-11; the friction's share is 3%)."""
    crane, fric = Crane(q_boom_0=0.3, q_jib_0=-0.4), JointFriction()
    amp = np.array([300.0, 900.0, 300.0])

    def tau(t):
        return amp * np.sin(np.array([2.0, 3.0, 5.0]) * t) + np.array([0.0, 520.0, 150.0])

    def split(s):
        return s[:6], s[6:12], s[12]

    def friction_inputs(y_crane):
        names = crane.output_names()
        values = {}
        for j, w in (("slew", "W_king"), ("boom", "W_boom"), ("jib", "W_jib")):
            values[f"u_{j}"] = y_crane[names.index(f"u_{j}")]
            values[f"f_{j}_n1"] = y_crane[names.index(f"{w}_fx")]
            values[f"f_{j}_n2"] = y_crane[names.index(f"{w}_fy")]
        return _inputs(fric, **values)

    def crane_inputs(t, tau_f):
        u = crane.default_inputs()
        u[21:24], u[24:27] = tau(t), tau_f
        return u

    def rhs(t, s):
        x, z, _ = split(s)
        # the friction torque depends on the reactions, which depend on it:
        # solved by fixed-point iteration (the loop gain is about 1e-3)
        tau_f = np.zeros(3)
        for _ in range(30):
            y_c = crane.output(t, x, crane_inputs(t, tau_f))
            u_f = friction_inputs(y_c)
            new = fric.output(t, z, u_f)[[0, 5, 10]]
            if np.array_equal(new, tau_f):
                break
            tau_f = new
        dx = crane.derivatives(t, x, crane_inputs(t, tau_f))
        return [*dx, *fric.derivatives(t, z, u_f), float(tau(t) @ x[3:])]

    s0 = np.concatenate([crane.initial_state(), fric.initial_state(), [0.0]])
    sol = solve_ivp(rhs, (0, 1.5), s0, method="DOP853", rtol=1e-11, atol=1e-11)
    g = np.array([0.0, 0.0, -crane.p.g])

    def energy(x):
        kin = kinematics(crane.chain, x[:3], x[3:])
        return kinetic_energy(crane.chain, kin) + potential_energy(crane.chain, kin, g)

    x_end, z_end, work = split(sol.y[:, -1])
    E_f = float(z_end[1::2].sum())
    scale = max(abs(energy(x_end) - energy(s0[:6])), abs(work), E_f)
    assert E_f > 1e-3 * scale  # the friction matters
    error = energy(x_end) - energy(s0[:6]) - (work - E_f)
    assert abs(error) <= 1e-11 * scale
