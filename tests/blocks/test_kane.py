"""Kane's equations with projection matrices (Cibicik & Egeland 2018, eqs. (29)-(38)): identities,
energy and statics."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from crane_cosim.blocks.crane import Crane, crane_chain
from crane_cosim.blocks.kane import (Body, Chain, Joint, applied_forces, bias_forces, coriolis_matrix,
                                     gravity_forces, kinematics, kinetic_energy, mass_matrix,
                                     potential_energy)
from crane_cosim.blocks.screw import rot_x, rot_z

G = 9.81


def _random_chain(rng, n=4):
    joints, bodies = [], []
    for k in range(n):
        axis = rng.normal(size=3)
        R0 = rot_z(rng.uniform(-3, 3)) @ rot_x(rng.uniform(-3, 3))
        joints.append(Joint(offset=rng.normal(size=3), rotation=R0, axis=axis / np.linalg.norm(axis),
                            kind="prismatic" if k == 2 else "revolute"))
        A = rng.normal(size=(3, 3))
        bodies.append(Body(rng.uniform(1, 5), rng.normal(size=3), A @ A.T + np.eye(3)))
    return Chain(joints, bodies)


def _pose(chain, q):
    kin = kinematics(chain, q, np.zeros(len(q)))
    return kin.R, kin.p


def _random_tree(rng):
    """Five bodies, two branches from body 0 (parents -1, 0, 1, 0, 3)."""
    base = _random_chain(rng, n=5)
    return Chain(base.joints, base.bodies, parents=(-1, 0, 1, 0, 3))


@pytest.mark.parametrize("make", [_random_chain, _random_tree], ids=["serial", "tree"])
def test_twists_and_their_rates_are_derivatives(rng, make):
    """P_k nu equals the finite-difference twist of each body frame and dP_k/dt
    the finite difference of P_k (ladder step 1), for a chain and a tree."""
    chain = make(rng)
    q, u = rng.normal(size=chain.n), rng.normal(size=chain.n)
    h = 1e-6
    kin = kinematics(chain, q, u)
    (Rp, pp), (Rm, pm) = _pose(chain, q + h * u), _pose(chain, q - h * u)
    for k in range(chain.n):
        W = kin.R[k].T @ (Rp[k] - Rm[k]) / (2 * h)  # body angular velocity, Frame k
        v = kin.R[k].T @ (pp[k] - pm[k]) / (2 * h)  # origin velocity, Frame k
        assert np.allclose(kin.Po[k] @ kin.nu, [W[2, 1], W[0, 2], W[1, 0], *v], atol=1e-7)
    P_plus, P_minus = kinematics(chain, q + h * u, u).P, kinematics(chain, q - h * u, u).P
    assert np.allclose((P_plus - P_minus) / (2 * h), kin.Pd, atol=1e-7)
    if chain.parents[3] == 0:  # in the tree body 3 hangs from body 0: joints 1, 2 do not move it
        assert np.allclose(kin.Po[3][:, 6 + 1], 0) and np.allclose(kin.Po[3][:, 6 + 2], 0)


def test_mass_matrix_spd_and_Mdot_minus_2C_skew(rng):
    """M symmetric positive definite in the joint speeds; Mdot - 2C skew (remark
    below eq. (38)).  The property holds for generalized speeds that are rates
    of coordinates, u = dq/dt, as in the paper's fixed-base system; the base
    twist of a moving base is a quasi-velocity, so the base is fixed here."""
    chain = _random_chain(rng)
    q, u = rng.normal(size=4), rng.normal(size=4)
    base = np.zeros(6)
    kin = kinematics(chain, q, u, base)
    M = mass_matrix(chain, kin)
    assert np.allclose(M, M.T, atol=1e-12)
    assert np.linalg.eigvalsh(M[6:, 6:]).min() > 0
    h = 1e-6
    Mdot = (mass_matrix(chain, kinematics(chain, q + h * u, u, base))
            - mass_matrix(chain, kinematics(chain, q - h * u, u, base))) / (2 * h)
    S = (Mdot - 2 * coriolis_matrix(chain, kin))[6:, 6:]
    # central differences with h = 1e-6: truncation ~h^2, round-off ~1e-16/h ~ 1e-10 relative
    assert np.abs(S + S.T).max() < 1e-7 * np.abs(Mdot).max()
    assert np.allclose(coriolis_matrix(chain, kin) @ kin.nu, bias_forces(chain, kin), atol=1e-10)


def test_energy_is_conserved_without_damping_or_control():
    """Free crane on a fixed mount under gravity: T + V constant (ladder step 2).
    The integrator runs at rtol 1e-11, so the drift bound 1e-8 of the energy
    scale (m g l ~ 2 kJ) tests the equations, not the integrator."""
    crane = Crane(q_boom_0=0.3, q_jib_0=-0.5, u_slew_0=0.8)
    u_in = crane.default_inputs()  # identity orientation, no mount motion, zero torques
    g0 = np.array([0.0, 0.0, -G])

    def energy(x):
        kin = kinematics(crane.chain, x[:3], x[3:])
        return kinetic_energy(crane.chain, kin) + potential_energy(crane.chain, kin, g0)

    sol = solve_ivp(lambda t, x: crane.derivatives(t, x, u_in), (0, 3.0), crane.initial_state(),
                    method="DOP853", rtol=1e-11, atol=1e-12, dense_output=True)
    E = np.array([energy(sol.sol(t)) for t in np.linspace(0, 3.0, 31)])
    scale = 90 * G * 3.0
    assert np.ptp(E) < 1e-8 * scale
    # and the motion is not trivial: the booms swing through a good fraction of a radian
    assert np.ptp(sol.y[1]) > 0.3


def test_statics_horizontal_booms():
    """At rest with horizontal booms the mount carries (m2+m3+m4) g = 882.9 N and
    the moment g (m3 d3 + m4 (l3 + d4)) = 1177.2 N m about x2 (ladder step 3)."""
    crane = Crane()
    u_in = crane.default_inputs()
    kin = kinematics(crane.chain, np.zeros(3), np.zeros(3))
    hold = -gravity_forces(crane.chain, kin, [0, 0, -G])[6:]  # torques that hold the booms
    u_in[21:24] = hold
    y = dict(zip(crane.output_names(), crane.output(0.0, crane.initial_state(), u_in)))
    assert np.allclose([y["du_slew"], y["du_boom"], y["du_jib"]], 0, atol=1e-12)
    assert y["W_king_fz"] == pytest.approx(882.9, abs=1e-9)
    assert y["W_king_nx"] == pytest.approx(1177.2, abs=1e-9)
    for c in ("W_king_fx", "W_king_fy", "W_king_ny", "W_king_nz"):
        assert abs(y[c]) < 1e-9
    # the holding torque of joint 5 is the same moment, of joint 6 m4 g d4
    assert hold[1] == pytest.approx(1177.2, abs=1e-9)
    assert hold[2] == pytest.approx(30 * G * 1.0, abs=1e-9)


def test_applied_forces_are_gravity_less_velocity_terms(rng):
    chain = crane_chain(Crane().p)
    kin = kinematics(chain, rng.normal(size=3), rng.normal(size=3), rng.normal(size=6))
    g = rng.normal(size=3)
    assert np.allclose(applied_forces(chain, kin, g), gravity_forces(chain, kin, g) - bias_forces(chain, kin),
                       atol=1e-10)


def test_paper_five_constraint_components_at_rest():
    """Eqs. (64)-(72): with the auxiliary speeds of eq. (67) (no rotation about
    z2) and the selection N_{1,2} of eq. (72), eq. (50) gives rho_1..rho_5 =
    (n_x, n_y, f_x, f_y, f_z) in Frame 2; at rest with horizontal booms
    (1177.2 N m, 0, 0, 0, 882.9 N), whatever the slew angle."""
    from crane_cosim.blocks.kane import constraint_wrench
    chain = Crane().chain
    E = np.zeros((6, 5))
    E[0, 0] = E[1, 1] = E[3, 2] = E[4, 3] = E[5, 4] = 1.0  # eq. (67) and N_{1,2} of eq. (72)
    for q4 in (0.0, 0.7, -2.0):
        kin = kinematics(chain, [q4, 0.0, 0.0], np.zeros(3))
        rho = constraint_wrench(chain, kin, np.zeros(9), [0, 0, -G], 0, E=E, N=E)
        assert np.allclose(rho, [1177.2, 0, 0, 0, 882.9], atol=1e-9)


def test_tree_energy_and_statics(rng):
    """A free tree under gravity conserves T + V; at rest its root joint
    carries the total weight, and the wrench in a branch joint (auxiliary
    speeds over the subtree) carries that branch's weight only."""
    from crane_cosim.blocks.kane import constraint_wrench
    chain = _random_tree(rng)
    g = np.array([0.0, 0.0, -G])

    def f(t, x):
        kin = kinematics(chain, x[:5], x[5:])
        return np.concatenate([x[5:], np.linalg.solve(mass_matrix(chain, kin)[6:, 6:],
                                                      applied_forces(chain, kin, g)[6:])])

    def energy(x):
        kin = kinematics(chain, x[:5], x[5:])
        return kinetic_energy(chain, kin) + potential_energy(chain, kin, g)

    x0 = np.concatenate([rng.normal(size=5), rng.normal(size=5)])
    sol = solve_ivp(f, (0, 1.0), x0, method="DOP853", rtol=1e-11, atol=1e-12, dense_output=True)
    E = [energy(sol.sol(t)) for t in np.linspace(0, 1, 11)]
    scale = sum(b.mass for b in chain.bodies) * G * 5
    assert np.ptp(E) < 1e-8 * scale
    kin = kinematics(chain, x0[:5], np.zeros(5))
    for joint, bodies in ((0, range(5)), (3, (3, 4))):
        rho = constraint_wrench(chain, kin, np.zeros(11), g, joint)
        weight = sum(chain.bodies[k].mass for k in bodies) * G
        # force in Frame `joint` coordinates: rotate back to the base frame
        assert np.allclose(kin.R[joint] @ rho[3:], [0, 0, weight], atol=1e-9 * weight)
