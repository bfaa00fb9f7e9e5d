"""SupportedBase block: statics on the supports, small oscillations, the
paper's small-angle supports against the exact ones, energy, the mount
coupling and bad parameters (Jarzębowska, Urbaś & Augustynek 2018, eqs. 9,
12, 16, 20)."""
import numpy as np
import pytest
import scipy.linalg

from crane_cosim.blocks.block import ParameterError, sym6_pack
from crane_cosim.blocks.screw import rot_x, rot_y, rot_z, skew
from crane_cosim.blocks.supported_base import SupportedBase, paper_U

G = 9.81
#: a crane like the paper's (column, two links, a load: about 390 kg) at its
#: initial pose (eq. 23, links over +x), as the wrench the base exerts on it
#: at the mount: its weight, with its COG 1.5 m out and 2 m up
M_CRANE, RHO_CRANE = 390.0, np.array([1.5, 0.0, 2.0])
W_CRANE = np.concatenate([np.cross(RHO_CRANE, [0.0, 0.0, M_CRANE * G]), [0.0, 0.0, M_CRANE * G]])
#: an off-centre base and mount, for the cases without symmetry
OFF_CENTRE = dict(cog_x=0.25, cog_y=-0.15, cog_z=-0.35, mount_x=0.4, mount_y=-0.3, mount_z=0.2, r_z=1.1)


def _paper_U(r):
    """U^(sup,s) as printed after eq. (16), columns x, y, z, ψ, θ, φ."""
    x, y, z = r
    return np.array([[1, 0, 0, -y, z, 0], [0, 1, 0, x, 0, -z], [0, 0, 1, 0, -x, y]], float)


#: the state's order x, y, z, φ, θ, ψ from the paper's x, y, z, ψ, θ, φ
TO_STATE = [0, 1, 2, 5, 4, 3]


def _R(a):
    return rot_z(a[2]) @ rot_y(a[1]) @ rot_x(a[0])


def _rest(block, W=None):
    """The equilibrium coordinates, the state at rest there, and the inputs
    with the load ``W`` as p_A (I_A = 0)."""
    q = block.equilibrium(W)
    u = block.default_inputs()
    if W is not None:
        u[21:27] = W
    return q, np.concatenate([q, np.zeros(6)]), u


def _outputs(block, x, u):
    return dict(zip(block.output_names(), block.output(0.0, x, u)))


def _fd_jacobian(f, x, h):
    J = np.empty((len(f(x)), len(x)))
    for j in range(len(x)):
        e = np.zeros(len(x))
        e[j] = h
        J[:, j] = (f(x + e) - f(x - e)) / (2 * h)
    return J


# -- 1. statics ------------------------------------------------------------------
@pytest.mark.parametrize("params,W", [({}, None), (OFF_CENTRE, W_CRANE + [300.0, -200.0, 100.0, 400.0, -250.0, 0.0])])
def test_at_rest_the_supports_carry_the_weight_and_the_load(params, W):
    """At ``equilibrium()`` the support forces balance the weight and the
    crane's load (``-W`` at the mount, given as p_A with I_A = 0) in force
    and in moment about any point, by hand in Frame 0, and nothing
    accelerates."""
    b = SupportedBase(**params)
    q, x, u = _rest(b, W)
    y = _outputs(b, x, u)
    R = _R(q[3:])
    F = np.array([[y[f"F_sup{s}_{c}"] for c in "xyz"] for s in range(1, 9)])
    points = q[:3] + b._r_sup @ R.T
    weight = np.array([0.0, 0.0, -b.p.m * G])
    cog = q[:3] + R @ b._com
    Wv = np.zeros(6) if W is None else W
    load_f, load_n = -R @ Wv[3:], -R @ Wv[:3]  # on the base, Frame 0
    mount = np.array([y[f"mount_p_{c}"] for c in "xyz"])
    assert np.allclose(mount, q[:3] + R @ b._r_m, atol=1e-15)
    scale = b.p.m * G + np.abs(Wv[3:]).max()  # N
    # measured: 2.1e-16 of the weight and load at most
    np.testing.assert_allclose(F.sum(0) + weight + load_f, 0.0, atol=6e-16 * scale)
    for P in ([0.0, 0.0, 0.0], [3.0, -2.0, 1.5]):
        moment = (np.cross(points - P, F).sum(0) + np.cross(cog - P, weight) + np.cross(mount - P, load_f) + load_n)
        # measured: 2.7e-16 of the weight and load times 3 m at most
        np.testing.assert_allclose(moment, 0.0, atol=8e-16 * scale * 3.0)
    # measured: |du| 2.5e-16 g at most (m/s2, rad/s2)
    assert np.abs(b.derivatives(0.0, x, u)).max() < 8e-16 * G
    assert F[:, 2].min() > 0  # every support pushes up: the load does not lift the base off any


# -- 2. small oscillations ---------------------------------------------------------
def _gravity_hessian(m, c, a):
    """Hessian of m g (R c)_z (the weight's potential, R = Rz Ry Rx) over
    (φ, θ, ψ) at the angles ``a``: (R c)_z = -sθ c_x + cθ sφ c_y + cθ cφ c_z."""
    s1, c1, s2, c2 = np.sin(a[0]), np.cos(a[0]), np.sin(a[1]), np.cos(a[1])
    H = np.zeros((3, 3))
    H[0, 0] = -c2 * s1 * c[1] - c2 * c1 * c[2]
    H[1, 1] = s2 * c[0] - c2 * s1 * c[1] - c2 * c1 * c[2]
    H[0, 1] = H[1, 0] = -s2 * c1 * c[1] + s2 * s1 * c[2]
    return m * G * H


def _block_frequencies(b, x, u):
    """Natural frequencies [rad/s] of the block at rest at ``x``, from the
    finite-difference Jacobian of its accelerations over its coordinates
    (M^-1 K: the velocity terms are quadratic and vanish at rest)."""
    A = _fd_jacobian(lambda z: b.derivatives(0.0, np.concatenate([z, np.zeros(6)]), u)[6:], x[:6], 1e-7)
    return np.sort(np.sqrt(np.linalg.eigvals(-A).real))


def _paper_K(b):
    """sum U^T S U over the supports, by the paper's U (eq. 20), in the state's order."""
    S = np.diag([b.p.s_x, b.p.s_y, b.p.s_z])
    return sum(_paper_U(r)[:, TO_STATE].T @ S @ _paper_U(r)[:, TO_STATE] for r in b._r_sup)


def test_small_oscillations_of_the_small_angle_supports_are_the_papers():
    """Off-centre COG, small-angle supports: K = sum U^T S U with the
    paper's U plus the weight's Hessian, M the block's mass matrix at
    equilibrium; the frequencies of eigh(K, M) are the block's."""
    b = SupportedBase(small_angle=True, **OFF_CENTRE)
    q, x, u = _rest(b)
    K = _paper_K(b)
    K[3:, 3:] += _gravity_hessian(b.p.m, b._com, q[3:])
    expected = np.sqrt(scipy.linalg.eigh(K, b.mass_matrix(x), eigvals_only=True))
    found = _block_frequencies(b, x, u)
    # measured: 6.4e-14 relative at most (without the weight's Hessian they differ by 4e-5)
    np.testing.assert_allclose(found, expected, rtol=2e-13)
    assert 19 < expected[0] and expected[-1] < 320  # from sway near 20 rad/s to pitch near 310 rad/s


def test_small_oscillations_of_the_exact_supports_level_base():
    """COG on the vertical through the supports' centroid, exact supports:
    the base rests level, sunk by m g / sum s_z; K adds to the paper's
    sum U^T S U the weight's Hessian and the springs' preload (sum s_z d_z
    times d2(R r_s)_z/dφ2 = -z_s, the same in θ), and the heave is
    sqrt(sum s_z / m) by hand."""
    b = SupportedBase()
    q, x, u = _rest(b)
    sag = b.p.m * G / (8 * b.p.s_z)
    np.testing.assert_allclose(q, [0, 0, -sag, 0, 0, 0], atol=1e-16)
    K = _paper_K(b)
    K[3:, 3:] += _gravity_hessian(b.p.m, b._com, q[3:])
    preload = -b.p.s_z * sag * -b._r_sup[:, 2].sum()  # sum s_z d_z (-z_s), d_z = -sag
    K[3, 3] += preload
    K[4, 4] += preload
    expected = np.sqrt(scipy.linalg.eigh(K, b.mass_matrix(x), eigvals_only=True))
    found = _block_frequencies(b, x, u)
    # measured: 6.1e-14 relative at most
    np.testing.assert_allclose(found, expected, rtol=2e-13)
    heave = np.sqrt(8 * b.p.s_z / b.p.m)  # 200 rad/s
    assert np.min(np.abs(found - heave)) <= 1e-14 * heave  # measured: equal to the last bit


# -- 3. exact against small-angle --------------------------------------------------
def test_the_papers_U_is_the_first_order_expansion_of_the_exact_deflection(rng):
    """U^(sup,s) q~(b) = p + a x r_s (a = [φ, θ, ψ]), and the exact
    ``p + R r_s - r_s`` differs from it by O(|a|^2)."""
    for r in rng.normal(size=(4, 3)):
        np.testing.assert_array_equal(paper_U(r), _paper_U(r))
        p, a = rng.normal(size=3), rng.normal(size=3)
        np.testing.assert_allclose(_paper_U(r) @ np.concatenate([p, a[::-1]]), p + np.cross(a, r), atol=1e-14)
        J = _fd_jacobian(lambda z: z[:3] + _R(z[3:]) @ r - r, np.zeros(6), 1e-6)
        np.testing.assert_allclose(J, _paper_U(r)[:, TO_STATE], atol=1e-9)


def test_exact_and_small_angle_support_forces_differ_by_second_order():
    """At angles t n the support forces of the two forms differ by O(t^2):
    halving t quarters the difference."""
    exact, small = SupportedBase(), SupportedBase(small_angle=True)
    n = np.array([0.5, 1.0, -0.7])

    def difference(t):
        x = np.concatenate([[1e-3, -2e-3, 5e-4], t * n, np.zeros(6)])
        return np.linalg.norm(exact.support_forces(x) - small.support_forces(x))

    ratio = difference(0.02) / difference(0.01)
    assert ratio == pytest.approx(4.0, rel=2e-4)  # measured: 4.00026 (at 0.1 and 0.05 rad: 4.0065)
    # under the paper's stiffnesses and the crane's weight the two forms' equilibria
    # differ by 6.4e-9 m and 1.1e-8 rad (against a sag of 2.9e-4 m and a pitch of 6.6e-5 rad)
    q_exact, q_small = exact.equilibrium(W_CRANE), small.equilibrium(W_CRANE)
    assert np.abs(q_exact[:3] - q_small[:3]).max() < 2e-8
    assert np.abs(q_exact[3:] - q_small[3:]).max() < 3.3e-8


# -- 4. energy ------------------------------------------------------------------
START = np.array([2e-3, -1e-3, 4e-4, 4e-3, -3e-3, 0.05, 0.03, -0.02, 0.04, 0.2, -0.3, 1.0])


def _energy_history(b, seconds=2.0, h=1e-2):
    x, u = START.copy(), b.default_inputs()
    energies = [b.energy(x)]
    for k in range(round(seconds / h)):
        x = b.advance(k * h, x, u, h)
        energies.append(b.energy(x))
    return np.array(energies)


def _drift(h_max):
    """Largest change of the total energy over 2 s, relative to the energy
    above rest (4.3 kJ), undamped, from ``START``."""
    b = SupportedBase(h_max=h_max)
    E = _energy_history(b)
    return np.abs(E - E[0]).max() / (E[0] - b.energy(np.concatenate([b.equilibrium(), np.zeros(6)])))


def test_energy_is_conserved_without_damping():
    """No crane, no damping, a displaced and spinning start (yaw at 1 rad/s,
    every mode excited): RK4 at h_max = 1e-3 s keeps the total energy
    (kinetic, gravity, springs) over 2 s; the loss is RK4's, it falls as
    h^5 (amplitude loss (omega h)^6 / 144 a step), so the model itself
    conserves energy."""
    drift = _drift(1e-3)
    # measured: 4.4e-3, RK4 damping the 291 rad/s roll and pitch modes by 4.2e-6
    # of their amplitude a step (a damping ratio of 1.4e-5)
    assert drift < 1.3e-2
    assert drift / _drift(5e-4) == pytest.approx(32, rel=0.05)  # measured: 31.5 (1.4e-4 at 5e-4 s)


def test_energy_only_falls_with_damping():
    b = SupportedBase(c_x=2e3, c_y=2e3, c_z=5e4)
    E = _energy_history(b) - b.energy(np.concatenate([b.equilibrium(), np.zeros(6)]))
    assert np.all(np.diff(E) < 0)  # measured: every 10 ms step loses at least 8e-9 J
    assert E[-1] < 2.2e-9 * E[0]  # measured: 7.3e-10 of the 4.3 kJ left after 2 s


def test_the_generalized_forces_are_the_gradient_of_the_energy(rng):
    """At rest anywhere, the block's accelerations are -M^-1 dV/dq with V
    from ``energy``, for both forms of the supports."""
    for small_angle in (False, True):
        b = SupportedBase(small_angle=small_angle, **OFF_CENTRE)
        for _ in range(3):
            q = np.concatenate([rng.normal(scale=1e-3, size=3), rng.normal(scale=0.2, size=3)])
            grad = _fd_jacobian(lambda z: np.array([b.energy(np.concatenate([z, np.zeros(6)]))]), q, 1e-6)[0]
            x = np.concatenate([q, np.zeros(6)])
            du = b.derivatives(0.0, x, b.default_inputs())[6:]
            # measured: 6.3e-11 of the largest generalized force (the finite differences)
            np.testing.assert_allclose(b.mass_matrix(x) @ du, -grad, atol=2e-10 * np.abs(grad).max())


# -- 5. the mount ----------------------------------------------------------------
def _hung_body(rng):
    """A rigid body on the mount: mass, COG from the mount (Frame 1) and
    inertia about its COG (Frame 1, with products of inertia)."""
    A = rng.normal(size=(3, 3))
    return 400.0, np.array([1.2, 0.5, 1.8]), 30.0 * (A @ A.T) + 20.0 * np.eye(3)


def _hung_body_inputs(m_c, rho, I_c, R, w):
    """I_A and p_A of the body fixed to the mount: W = I_A [dw; a] + p_A is
    the wrench the mount exerts on it (Newton-Euler about the mount point,
    classical acceleration, Frame 1)."""
    I_m = I_c + m_c * (rho @ rho * np.eye(3) - np.outer(rho, rho))
    I_A = np.block([[I_m, m_c * skew(rho)], [-m_c * skew(rho), m_c * np.eye(3)]])
    f_g = m_c * R.T @ [0.0, 0.0, -G]
    p_A = np.concatenate([np.cross(w, I_m @ w) - np.cross(rho, f_g), m_c * np.cross(w, np.cross(w, rho)) - f_g])
    return np.concatenate([sym6_pack(I_A), p_A])


def _one_rigid_body(b, m_c, rho, I_c, x):
    """Accelerations of the base and the body as one rigid body, by
    Newton-Euler at the combined COG (force in Frame 0, moment in Frame 1),
    supports and dampers by hand; E's rate by finite differences."""
    q, dq = x[:6], x[6:]
    R = _R(q[3:])

    def E_of(a):
        return np.array([[1, 0, -np.sin(a[1])], [0, np.cos(a[0]), np.sin(a[0]) * np.cos(a[1])],
                         [0, -np.sin(a[0]), np.cos(a[0]) * np.cos(a[1])]])
    w = E_of(q[3:]) @ dq[3:]
    m = b.p.m + m_c
    c = (b.p.m * b._com + m_c * (b._r_m + rho)) / m
    I = (I_c + b.p.m * np.diag([b.p.r_x, b.p.r_y, b.p.r_z]) ** 2)
    for mass, at in ((b.p.m, b._com), (m_c, b._r_m + rho)):
        r = at - c
        I = I + mass * (r @ r * np.eye(3) - np.outer(r, r))
    S, C = np.diag([b.p.s_x, b.p.s_y, b.p.s_z]), np.diag([b.p.c_x, b.p.c_y, b.p.c_z])
    force, moment = np.array([0.0, 0.0, -m * G]), np.zeros(3)
    for r in b._r_sup:
        F = -S @ (q[:3] + R @ r - r) - C @ (dq[:3] + R @ np.cross(w, r))
        force += F
        moment += np.cross(R @ (r - c), F)
    a_c = force / m
    dw = np.linalg.solve(I, R.T @ moment - np.cross(w, I @ w))
    ddp = a_c - R @ (np.cross(dw, c) + np.cross(w, np.cross(w, c)))
    h = 1e-7
    dE = (E_of(q[3:] + h * dq[3:]) - E_of(q[3:] - h * dq[3:])) / (2 * h)
    dda = np.linalg.solve(E_of(q[3:]), dw - dE @ dq[3:])
    return np.concatenate([ddp, dda]), dw, R.T @ ddp + np.cross(dw, b._r_m) + np.cross(w, np.cross(w, b._r_m))


def test_a_rigid_body_on_the_mount_moves_with_the_base_as_one(rng):
    """With I_A and p_A of a rigid body fixed to the mount, the base's
    accelerations and the mount's are those of one rigid body of the
    combined mass and inertia (exact supports, with damping, moving)."""
    b = SupportedBase(c_x=3e3, c_y=1e3, c_z=2e4, **OFF_CENTRE)
    m_c, rho, I_c = _hung_body(rng)
    for _ in range(4):
        x = np.concatenate([rng.normal(scale=1e-3, size=3), rng.normal(scale=0.1, size=3),
                            rng.normal(scale=0.05, size=3), rng.normal(scale=0.5, size=3)])
        free = _outputs(b, x, np.zeros(27))
        w = np.array([free[f"mount_w_{c}"] for c in "xyz"])
        y = _outputs(b, x, _hung_body_inputs(m_c, rho, I_c, _R(x[3:6]), w))
        du, dw, a_m = _one_rigid_body(b, m_c, rho, I_c, x)
        got = np.array([y[n] for n in ("du_x", "du_y", "du_z", "du_roll", "du_pitch", "du_yaw")])
        scale = np.abs(du).max()
        # measured: 8e-14 of the largest acceleration (the finite-difference rate of E)
        np.testing.assert_allclose(got, du, atol=2.5e-13 * scale)
        # measured: 3.6e-16 and 4.5e-16
        np.testing.assert_allclose([y[f"mount_dw_{c}"] for c in "xyz"], dw, atol=1.5e-15 * scale)
        np.testing.assert_allclose([y[f"mount_a_{c}"] for c in "xyz"], a_m, atol=1.5e-15 * scale)


def test_mount_kinematics():
    """R_1^0 = Rz(ψ) Ry(θ) Rx(φ) (eq. 12); the mount point moves with the
    base: its velocity (Frame 1) and position (Frame 0) by finite
    differences of p + R r_m."""
    b = SupportedBase(**OFF_CENTRE)
    x = np.array([1e-3, -2e-3, 3e-4, 0.1, -0.2, 0.7, 0.05, 0.02, -0.03, 0.4, -0.6, 0.9])
    y = _outputs(b, x, b.default_inputs())
    R = np.array([[y[f"mount_R_{i}{j}"] for j in (1, 2, 3)] for i in (1, 2, 3)])
    np.testing.assert_allclose(R, _R(x[3:6]), atol=5e-17)  # measured: 1.4e-17
    p_m = np.array([y[f"mount_p_{c}"] for c in "xyz"])

    def mount_point(t):
        z = x[:6] + t * x[6:]
        return z[:3] + _R(z[3:]) @ b._r_m
    np.testing.assert_allclose(p_m, mount_point(0.0), atol=1e-16)  # measured: 0
    v = (mount_point(1e-6) - mount_point(-1e-6)) / 2e-6
    # measured: 3.6e-11 m/s (the finite differences)
    np.testing.assert_allclose([y[f"mount_v_{c}"] for c in "xyz"], R.T @ v, atol=1.1e-10)


# -- 6. bad parameters -------------------------------------------------------------
@pytest.mark.parametrize("params,sentence", [
    ({"s_z": -1e7}, "SupportedBase parameter s_z = -1e+07 N/m is invalid: it must be zero or positive"),
    ({"m": 0.0}, "SupportedBase parameter m = 0 kg is invalid: it must be positive"),
    ({"c_x": -5.0}, "SupportedBase parameter c_x = -5 N.s/m is invalid: it must be zero or positive"),
    ({"s_y": 0.0}, "SupportedBase parameter s_y = 0 N/m is invalid: with no support stiff along y0 the supports "
                   "cannot hold the base (their stiffness matrix is singular)"),
])
def test_a_bad_parameter_is_one_sentence_naming_it(params, sentence):
    with pytest.raises(ParameterError) as exc:
        SupportedBase(**params)
    assert str(exc.value) == sentence


def test_supports_on_one_line_cannot_hold_the_base():
    line = {f"y_sup{s}": 0.0 for s in range(1, 9)} | {f"z_sup{s}": -0.6 for s in range(1, 9)}
    with pytest.raises(ParameterError) as exc:
        SupportedBase(**line)
    message = str(exc.value)
    assert message.startswith("SupportedBase parameters x_sup1 to z_sup8 are invalid: the support points lie on "
                              "one line") and "singular" in message and "\n" not in message


def test_a_settled_base_starts_at_rest_under_its_load():
    """``settled``: the initial state is the equilibrium under gravity and
    the ``load_*`` wrench (the crane's weight), whatever the supports'
    stiffness: the accelerations vanish there with that wrench applied."""
    load = np.array([120.0, -4500.0, 0.0, 0.0, 0.0, 3800.0])  # a crane's weight 1.2 m out along x
    for s_z in (1e5, 1e7):
        base = SupportedBase(settled=True, s_z=s_z, q_z_0=0.5,
                             **{f"load_{c}": v for c, v in zip(("nx", "ny", "nz", "fx", "fy", "fz"), load)})
        x = base.initial_state()
        assert np.array_equal(x[6:], np.zeros(6)) and x[2] < 0  # sags, q_z_0 not used
        u = np.zeros(27)
        u[21:] = load  # p_A: the crane's constant wrench, I_A = 0
        # measured 3e-16 of g
        assert np.abs(base.derivatives(0.0, x, u)[6:]).max() < 1e-15 * 9.81
