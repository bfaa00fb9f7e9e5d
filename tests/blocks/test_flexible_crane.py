"""The crane with a flexible boom of Jarzębowska, Urbaś & Augustynek (2018):
the rigid crane against the crane of Cibicik & Egeland (2018) and against
Newton-Euler, energy, and the programmed motion of eqs. (17)-(23); the
boom's elements against beam theory and its internal step are in
test_flexible_crane_boom.py."""
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.crane import Crane
from crane_cosim.blocks.flexible_crane import FlexibleCrane
from crane_cosim.blocks.kane import applied_forces, kinematics, mass_matrix

sys.path.insert(0, str(Path(__file__).parent))
from newton_euler import joint_wrenches  # noqa: E402

def _fixed_mount(block):
    """Inputs of a crane on a fixed, level mount at the ground origin."""
    return block.default_inputs()


def _random_mount(rng, u, scale=0.3):
    u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
    u[9:21] = rng.normal(size=12) * scale


# -- the rigid crane ------------------------------------------------------------------

#: the crane of Cibicik & Egeland (2018), Table I, as a FlexibleCrane with one element:
#: a section so thin its own inertias vanish, the column's inertia of eq. (73)
AS_CRANE = {"n_rfe": 1, "l_king": 2.0, "m_king": 30.0, "d_king": 1.0, "r_king": math.sqrt(0.1 * 4 / 12),
            "l_boom": 2.0, "A_boom": 30.0 / (2.0 * 7850.0), "I_z_boom": 1e-30, "I_y_boom": 1e-30, "J_boom": 1e-30,
            "l_jib": 2.0, "m_jib": 30.0, "d_jib": 1.0, "m_load": 0.0}


@pytest.mark.parametrize("seed", range(4))
def test_one_element_equals_the_rigid_crane_of_cibicik_and_egeland(seed):
    rng = np.random.default_rng(seed)
    flex, rigid = FlexibleCrane(**AS_CRANE), Crane()
    x = np.concatenate([rng.uniform(-3, 3, 3), rng.normal(size=3)])
    u = rigid.default_inputs()
    _random_mount(rng, u)
    u[21:27] = rng.normal(size=6) * 200
    u[27:30] = rng.normal(size=3) * 500  # a force at the tip, the flexible crane's end effector E
    u[30:33] = rng.normal(size=3)  # a mount position
    uf = np.concatenate([u[:21], u[30:33], u[21:27], u[27:30]])
    yf = dict(zip(flex.output_names(), flex.output(0.0, x, uf)))
    yr = dict(zip(rigid.output_names(), rigid.output(0.0, x, u)))
    assert np.allclose(flex.derivatives(0.0, x, uf), rigid.derivatives(0.0, x, u), rtol=0, atol=1e-12)
    for name, value in yr.items():
        scale = max(1.0, max(abs(v) for k, v in yr.items() if k[:4] == name[:4]))
        # measured 0: the same chain, built from two descriptions
        assert abs(yf[name] - value) <= 1e-12 * scale, name


def test_stiff_elements_at_rest_equal_one_rigid_boom():
    """The rigid coordinates' mass matrix and forces of four undeformed
    elements are those of the one-element boom: the elements' inertias add
    up to the bar's (parallel axes)."""
    rng = np.random.default_rng(7)
    one, four = FlexibleCrane(n_rfe=1), FlexibleCrane(n_rfe=4)
    n4 = four.chain.n
    rigid = np.array([0, 1, n4 - 1])
    for _ in range(4):
        q, u = rng.uniform(-2, 2, 3), rng.normal(size=3)
        tb = rng.normal(size=6)
        k1 = kinematics(one.chain, q, u, tb)
        q4, u4 = np.zeros(n4), np.zeros(n4)
        q4[rigid], u4[rigid] = q, u
        k4 = kinematics(four.chain, q4, u4, tb)
        idx = np.concatenate([np.arange(6), 6 + rigid])
        g = rng.normal(size=3) * 9.81
        M1, M4 = mass_matrix(one.chain, k1), mass_matrix(four.chain, k4)[np.ix_(idx, idx)]
        f1, f4 = applied_forces(one.chain, k1, g), applied_forces(four.chain, k4, g)[idx]
        # measured 3e-16 relative
        assert np.allclose(M4, M1, rtol=0, atol=1e-14 * np.abs(M1).max())
        assert np.allclose(f4, f1, rtol=0, atol=1e-14 * np.abs(f1).max())


@pytest.mark.parametrize("n_rfe", [1, 4])
def test_joint_torques_equal_newton_euler(n_rfe):
    """On a fixed base, the accelerations the block computes for given
    torques are those for which recursive Newton-Euler needs exactly these
    torques: the actuators' and friction's in the three joints, the
    springs' in the boom's elements."""
    rng = np.random.default_rng(n_rfe)
    b = FlexibleCrane(n_rfe=n_rfe)
    n = b.chain.n
    for _ in range(4):
        x = b.initial_state()
        x[:n] += rng.normal(size=n) * np.where(b.stiffness > 0, 1e-3, 1.0)
        x[n:] = rng.normal(size=n)
        u = _fixed_mount(b)
        u[24:30] = rng.normal(size=6) * 500
        du = b.derivatives(0.0, x, u)[n:]
        W = joint_wrenches(b.chain, x[:n], x[n:], du, np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3),
                           np.array([0, 0, -b.p.g]))
        tau_ne = np.array([w[:3] @ j.axis for w, j in zip(W, b.chain.joints)])
        tau = -b.stiffness * x[:n]
        tau[b.joint_index] += u[24:27] + u[27:30]
        # measured 6e-15 (one element) and 5e-12 (four: stiff springs) of the largest torque
        assert np.allclose(tau_ne, tau, rtol=0, atol=2e-11 * np.abs(tau).max())


# -- energy --------------------------------------------------------------------------

def _run(block, x, u, t_end, h=1e-3, inputs=None):
    """States at every ``h`` from 0 to ``t_end`` by the block's own integrator,
    the inputs ``u`` (or ``inputs(t)``) held over each step."""
    xs = [x]
    for k in range(int(round(t_end / h))):
        t = k * h
        x = block.advance(t, x, u if inputs is None else inputs(t), h)
        xs.append(x)
    return np.array(xs)


def test_energy_is_conserved_without_friction():
    """The crane swinging freely under gravity, its boom flexing: kinetic +
    gravity + spring energy stays constant (no damping, as in the paper)."""
    b = FlexibleCrane()
    n = b.chain.n
    x = b.initial_state()
    x[n:][b.joint_index] = [0.5, 0.3, -0.4]
    u = _fixed_mount(b)
    xs = _run(b, x, u, 0.5)
    E = np.array([sum(b.energy(xi, u)) for xi in xs])
    swing = np.ptp([b.energy(xi, u)[1] for xi in xs])
    # RK4 at 2.5e-4 s: measured drift 2.4e-9 of the exchanged energy (1.7 kJ)
    assert np.ptp(E) < 1e-8 * swing


def test_the_springs_damping_takes_out_its_work():
    """With the springs' damping (``c_rfe``: each spring's damping is c_rfe
    times its stiffness), the crane's energy falls by the work of the damping
    torques, the integral of c_rfe s u^2 over the spring coordinates
    (trapezoidal rule; RK4 and the rule at 2.5e-5 s, a tenth of the usual
    step, which would damp the boom's 1 kHz torsion by itself)."""
    b = FlexibleCrane(c_rfe=3e-5, h_max=2.5e-5)
    n = b.chain.n
    x = b.initial_state()
    x[n:][b.joint_index] = [0.5, 0.3, -0.4]
    x[2:n - 1] = 2e-3  # the boom bent and twisted: its modes ring
    u = _fixed_mount(b)
    h = 2.5e-5
    xs = _run(b, x, u, 0.5, h=h)
    E = np.array([sum(b.energy(xi, u)) for xi in xs])
    P = (b.p.c_rfe * b.stiffness * xs[:, n:] ** 2).sum(axis=1)
    W = np.concatenate([[0.0], np.cumsum(0.5 * h * (P[1:] + P[:-1]))])
    assert W[-1] > 5.0  # J: 8.1 J, most of what the bent and twisted boom stored
    # measured 6.6e-6 of the work
    assert np.abs(E - E[0] + W).max() < 2e-5 * W[-1]


def test_friction_takes_out_what_the_crane_loses():
    """With LuGre friction in its three joints (each joint's friction torque
    from its radial reaction, eq. 13, an algebraic loop solved to round-off
    at every evaluation), the crane's energy falls by the friction's work:
    E_crane(t) + E_f(t) = E_crane(0), integrated as one ODE (DOP853).
    The bristles give back some of what they store, so the balance is the
    work, not a monotone loss.  The pins are small (eq. 13's lever d/2):
    0.57 J in 0.5 s, which a lost factor or sign would miss by itself."""
    from scipy.integrate import solve_ivp
    from crane_cosim.blocks.joint_friction import JointFriction
    from crane_cosim.scenarios import FLEXIBLE_CRANE_PINS
    b, fr = FlexibleCrane(), JointFriction(**FLEXIBLE_CRANE_PINS)
    n, nf = b.chain.n, len(fr.states)
    u0 = _fixed_mount(b)
    outs = b.output_names()
    pairs = [("slew", "W_king"), ("boom", "W_boom"), ("jib", "W_jib")]
    rate = [outs.index(f"u_{j}") for j, _ in pairs]
    radial = [(outs.index(f"{w}_fx"), outs.index(f"{w}_fy")) for _, w in pairs]

    def coupled(t, X):
        xc, xf = X[:2 * n], X[2 * n:]
        u, tau = u0.copy(), np.zeros(3)
        for _ in range(60):
            u[27:30] = tau
            y = b.output(t, xc, u)
            uf = np.ravel([[y[r], y[a], y[c]] for r, (a, c) in zip(rate, radial)])
            new = fr.output(t, xf, uf)[[0, 5, 10]]
            if np.array_equal(new, tau):
                break
            tau = new
        u[27:30] = tau
        return b.derivatives(t, xc, u), fr.derivatives(t, xf, uf), u

    x = b.initial_state()
    x[n:][b.joint_index] = [0.5, 0.3, -0.4]
    X0 = np.concatenate([x, fr.initial_state()])
    # a stage of a trial step too long can make the loop diverge there: the
    # integrator rejects the step (not-a-number) and tries a shorter one
    with np.errstate(over="ignore", invalid="ignore"):
        sol = solve_ivp(lambda t, X: np.concatenate(coupled(t, X)[:2]), (0.0, 0.5), X0, method="DOP853",
                        rtol=1e-10, atol=1e-10, t_eval=np.linspace(0.0, 0.5, 51))
    assert sol.success
    E = np.array([sum(b.energy(X[:2 * n], u0)) for X in sol.y.T])
    E_f = sol.y[2 * n + 1::2].sum(axis=0)
    assert E_f[-1] > 0.5  # J: the friction's work, against a swing of 1.7 kJ
    # measured 2.0e-11 J (3.5e-11 of the work)
    assert np.abs(E + E_f - E[0]).max() < 1e-10 * E_f[-1]


# -- programmed motion ------------------------------------------------------------------

T_DR = -4000.0  # N m for 0.1 s, eq. (21)


def _programme_run(t_end, **params):
    b = FlexibleCrane(programmed=True, **params)
    u0 = _fixed_mount(b)

    def inputs(t):
        u = u0.copy()
        u[24] = T_DR if t < 0.1 - 1e-12 else 0.0
        return u

    xs = _run(b, b.initial_state(), None, t_end, inputs=inputs)
    ts = np.arange(len(xs)) * 1e-3
    ys = np.array([b.output(t, x, inputs(t)) for t, x in zip(ts, xs)])
    return b, ts, xs, ys, inputs


@pytest.fixture(scope="module")
def rigid_programme():
    return _programme_run(2.0, n_rfe=1)


def test_programmed_path_is_met_after_1_25_s(rigid_programme):
    b, ts, xs, ys, _ = rigid_programme
    names = b.output_names()
    path, height = ys[:, names.index("path_error")], ys[:, names.index("height_error")]
    assert path[0] == pytest.approx(0.0403, abs=5e-4)  # E starts 4 cm outside the ellipse
    late = ts >= 1.25
    # measured 0.34 mm and 2e-14 m at most after 1.25 s
    assert np.abs(path[late]).max() < 1e-3 and np.abs(height[late]).max() < 1e-3
    # the column turns, E goes round the ellipse
    assert abs(xs[-1, 0] - xs[0, 0]) > 0.1


def test_luffing_torques_equal_the_inverse_dynamics_of_the_recorded_motion(rigid_programme):
    """Newton-Euler, from the recorded coordinates, rates and accelerations,
    gives the joint torques the motion needs: in the boom and jib joints,
    the programme's; in the column, the drive's plus the programme's."""
    b, ts, xs, ys, inputs = rigid_programme
    names = b.output_names()
    n = b.chain.n
    col = {k: names.index(k) for k in names}
    for k in range(0, len(ts), 97):
        du = ys[k, [col["du_slew"], col["du_boom"], col["du_jib"]]]
        # Newton-Euler with gravity alone: the torques the joints must give
        W = joint_wrenches(b.chain, xs[k, :n], xs[k, n:], du, np.zeros(3), np.zeros(3), np.zeros(3),
                           np.zeros(3), np.array([0, 0, -b.p.g]))
        tau_ne = np.array([w[:3] @ j.axis for w, j in zip(W, b.chain.joints)])
        tau_prog = ys[k, [col["tau_prog_slew"], col["tau_prog_boom"], col["tau_prog_jib"]]]
        drive = np.array([inputs(ts[k])[24], 0.0, 0.0])
        scale = np.abs(tau_ne).max() + 1.0
        # measured 7e-16 of the largest torque
        assert np.allclose(tau_ne, drive + tau_prog, rtol=0, atol=1e-14 * scale), (ts[k], tau_ne, tau_prog)
    # and the recorded accelerations are those of the recorded rates
    u_rec = xs[:, n:][:, b.joint_index]
    du_rec = ys[:, [col["du_slew"], col["du_boom"], col["du_jib"]]]
    fd = (u_rec[2:] - u_rec[:-2]) / 2e-3
    ok = ts[1:-1] > 0.3  # away from the drive's jump at 0.1 s and the fast start
    # central differences at 1 ms: measured 9.6e-4 rad/s2 at most (the
    # accelerations reach 10.6 rad/s2 at the start, 0.38 after 0.3 s)
    assert np.abs(fd[ok] - du_rec[1:-1][ok]).max() < 3e-3


def test_guide_force_is_normal_to_the_path(rigid_programme):
    """The programme acts as a frictionless guide: its force on E has no
    component along the ellipse's tangent in the ground plane."""
    b, ts, xs, ys, _ = rigid_programme
    names = b.output_names()
    p = ys[:, [names.index(f"tip_p_{c}") for c in "xy"]]
    F = ys[:, [names.index(f"F_prog_{c}") for c in "xy"]]
    tangent = np.stack([-p[:, 1] / b.p.b_E**2, p[:, 0] / b.p.a_E**2], axis=1)
    tangent /= np.linalg.norm(tangent, axis=1)[:, None]
    # measured 1e-17 of the largest force
    assert np.abs((F * tangent).sum(axis=1)).max() < 1e-15 * np.abs(F).max()


# -- bad input ------------------------------------------------------------------------

@pytest.mark.parametrize("params, message", [
    ({"n_rfe": 0}, "parameter n_rfe = 0 is invalid: it must be a whole number"),
    ({"n_rfe": 2.5}, "parameter n_rfe = 2.5 is invalid"),
    ({"n_rfe": 17}, "parameter n_rfe = 17 is invalid: it must be a whole number of rigid finite elements from 1 "
                    "to 16"),
    ({"E_boom": 0.0}, "parameter E_boom = 0 Pa is invalid: it must be positive"),
    ({"G_boom": -8e10}, "parameter G_boom = -8e+10 Pa is invalid: it must be positive"),
    ({"J_boom": 0.0}, "parameter J_boom = 0 m4 is invalid"),
    ({"I_y_boom": -1.0}, "parameter I_y_boom = -1 m4 is invalid"),
    ({"programmed": True, "alpha": 0.0}, "parameter alpha = 0 1/s is invalid: it must be positive"),
    ({"programmed": True, "beta": -20.0}, "parameter beta = -20 1/s is invalid"),
    ({"programmed": True, "a_E": 5.0}, "parameter a_E = 5 m is invalid: the programmed path passes 5 m from "
                                       "the boom joint, beyond the crane's reach of 4.3 m"),
    ({"programmed": True, "b_E": 0.1, "l_jib": 1.5}, "parameter b_E = 0.1 m is invalid: the programmed path "
                                                      "passes 0.47 m from the boom joint, inside the crane's least "
                                                      "reach of 0.65 m"),
])
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ParameterError, match="FlexibleCrane " + message.replace("(", r"\(").replace("+", r"\+")):
        FlexibleCrane(**params)


def test_an_unreachable_path_is_refused_only_when_programmed():
    FlexibleCrane(a_E=5.0)  # the programme is off: nothing to reach
