"""Vessel block: cubic springs, Euler-angle gimbal, coupling inputs."""
import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError, sym6_pack
from crane_cosim.blocks.screw import rot_x, rot_y, rot_z
from crane_cosim.blocks.vessel import Vessel


def test_spring_statics_under_a_mount_moment():
    """A roll moment -n on the vessel is held where -k q1^3 = n (Section III-D)."""
    v = Vessel()
    n = 1177.2
    q1 = -(n / 8e7) ** (1 / 3)
    u = v.default_inputs()
    u[21] = n  # p_A_nx: the vessel exerts +n on the crane, so it receives -n
    x = np.array([q1, 0, 0, 0, 0, 0])
    assert np.allclose(v.derivatives(0.0, x, u), 0.0, atol=1e-12)
    # a little less roll and the spring no longer holds it
    assert v.derivatives(0.0, x * 0.9, u)[3] < 0


def test_orientation_and_mount_kinematics(rng):
    """R_1^0 = Rz(q3) Ry(q2) Rx(q1) (eq. (53)); the mount moves as a point at
    [0, 0, l1] of Frame 1, so its velocity is w x r in Frame 1."""
    v = Vessel()
    q, u = rng.normal(scale=0.3, size=3), rng.normal(size=3)
    y = dict(zip(v.output_names(), v.output(0.0, np.concatenate([q, u]), v.default_inputs())))
    R = np.array([[y[f"mount_R_{i}{j}"] for j in (1, 2, 3)] for i in (1, 2, 3)])
    assert np.allclose(R, rot_z(q[2]) @ rot_y(q[1]) @ rot_x(q[0]), atol=1e-14)
    w = np.array([y["mount_w_x"], y["mount_w_y"], y["mount_w_z"]])
    vm = np.array([y["mount_v_x"], y["mount_v_y"], y["mount_v_z"]])
    assert np.allclose(vm, np.cross(w, [0, 0, 5.0]), atol=1e-13)
    # angular velocity from the Euler rates, by finite differences of R
    h = 1e-6
    Rp, Rm = (rot_z(qq[2]) @ rot_y(qq[1]) @ rot_x(qq[0]) for qq in (q + h * u, q - h * u))
    W = R.T @ (Rp - Rm) / (2 * h)
    assert np.allclose(w, [W[2, 1], W[0, 2], W[1, 0]], atol=1e-8)


def test_inertia_coupling_equals_adding_the_load_to_the_mass_matrix(rng):
    """With W = I_A a + p_A the vessel's accelerations solve (M + J^T I_A J) du = ...;
    check that the returned accelerations make the mount wrench consistent:
    the spring/inertia balance holds with W evaluated at the returned mount acceleration."""
    v = Vessel(k_roll=0.0, k_pitch=0.0, k_yaw=0.0)
    A = rng.normal(size=(6, 6))
    I_A = A @ A.T
    p_A = rng.normal(size=6) * 100
    u_in = np.concatenate([sym6_pack(I_A), p_A, np.zeros(3)])  # calm water
    x = np.concatenate([rng.normal(scale=0.2, size=3), rng.normal(size=3)])
    y = dict(zip(v.output_names(), v.output(0.0, x, u_in)))
    acc = np.array([y[n] for n in ("mount_dw_x", "mount_dw_y", "mount_dw_z", "mount_a_x", "mount_a_y", "mount_a_z")])
    W = I_A @ acc + p_A
    # Same vessel, explicit coupling with that wrench: identical accelerations.
    y2 = dict(zip(v.output_names(), v.output(0.0, x, np.concatenate([np.zeros(21), W, np.zeros(3)]))))
    for name in ("du_roll", "du_pitch", "du_yaw"):
        assert y2[name] == pytest.approx(y[name], rel=1e-10, abs=1e-12)


def test_a_wave_moment_is_held_by_the_springs():
    """A steady wave moment M on each angle: the vessel rests where its
    cubic spring gives it back, q = (M / k)**(1/3) (1 deg of roll under
    425 N m, 0.5 deg of pitch under 53 N m, 0.2 deg of yaw), in the numpy
    code and in the compiled kernel (round-off: 1e-16 measured)."""
    q = np.radians([1.0, 0.5, 0.2])
    for numba in (False, True):
        v = Vessel()
        v.prepare(numba=numba)
        u = v.default_inputs()
        u[27:30] = v.k * q ** 3
        x = np.concatenate([q, np.zeros(3)])
        np.testing.assert_allclose(v.derivatives(0.0, x, u), 0.0, rtol=0, atol=1e-13)
        u[27] *= 1.01  # and a larger moment rolls it further
        assert v.derivatives(0.0, x, u)[3] > 0


@pytest.mark.parametrize("name,value", [("m", -1.0), ("l_mount", 0.0), ("r_x", -0.1), ("k_pitch", -5.0)])
def test_bad_parameters_name_the_parameter(name, value):
    with pytest.raises(ParameterError, match=rf"Vessel parameter {name} = .* is invalid"):
        Vessel(**{name: value})


@pytest.mark.parametrize("gravity_on", [False, True])
def test_closed_form_equals_kanes_equations_of_the_chain(rng, gravity_on):
    """The block's closed-form terms (mass matrix, applied forces less velocity
    terms, mount Jacobian, twist and acceleration bias) equal those of Kane's
    equations for the same vessel as a gimbal chain (eqs. (19)-(37) of Cibicik & Egeland (2018),
    chain order q3, q2, q1), at random states, COG off the axes."""
    from crane_cosim.blocks.kane import applied_forces, kinematics, mass_matrix
    from crane_cosim.blocks.screw import cross
    v = Vessel(cog_x=0.4, cog_y=-0.3, cog_z=2.0, r_x=1.1, r_y=1.9, r_z=2.3, c_roll=1e3, c_pitch=2e3, c_yaw=3e3,
               gravity_on=gravity_on)
    for _ in range(5):
        x = np.concatenate([rng.normal(scale=0.4, size=3), rng.normal(size=3)])
        R, M, tau, J, t_m, bias = v._state_terms(x)
        kin = kinematics(v.chain, x[2::-1], x[:2:-1])
        M_ref = mass_matrix(v.chain, kin)[6:, 6:][::-1, ::-1]
        tau_ref = applied_forces(v.chain, kin, v.g0)[6:][::-1] - v.k * x[:3] ** 3 - v.c * x[3:]
        J_ref = kin.marker_Po[0][:, 6:][:, ::-1]
        t_ref = J_ref @ x[3:]
        bias_ref = kin.marker_Pdo[0] @ kin.nu
        bias_ref[3:] += cross(t_ref[:3], t_ref[3:])
        scale = np.abs(M_ref).max()
        assert np.allclose(R, kin.marker_R[0], atol=1e-14)
        assert np.allclose(M, M_ref, atol=1e-12 * scale)
        assert np.allclose(tau, tau_ref, atol=1e-12 * max(scale, np.abs(tau_ref).max()))
        assert np.allclose(J, J_ref, atol=1e-13 * v.p.l_mount)
        assert np.allclose(t_m, t_ref, atol=1e-13)
        assert np.allclose(bias, bias_ref, atol=1e-12)
