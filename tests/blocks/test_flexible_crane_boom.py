"""The flexible crane's boom (blocks/flexible_boom.py): the rigid finite
elements of Jarzębowska, Urbaś & Augustynek (2018), eqs. (7)-(12), against
beam theory, and the internal step its springs allow, at rest for every
n_rfe from 1 to 16."""
import math

import numpy as np
import pytest
from scipy.linalg import eigh

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.flexible_boom import RK4_RADIUS, STEP_MARGIN, element_lengths, fastest_eigenvalue
from crane_cosim.blocks.flexible_crane import FlexibleCrane
from crane_cosim.blocks.kane import applied_forces, kinematics, mass_matrix
from crane_cosim.blocks.screw import skew

#: the boom as a bare cantilever: no column load, no jib, no load, no gravity
CANTILEVER = {"m_jib": 1e-9, "l_jib": 1e-3, "d_jib": 0.0, "m_load": 0.0, "g": 0.0, "q_slew_0": 0.0,
              "q_boom_0": 0.0, "q_jib_0": 0.0}


# -- rigid finite elements against beam theory ------------------------------------

def _static_tip(block, wrench_tip=np.zeros(6), gravity=True):
    """The boom's coordinates at rest, the column and both luffing joints held
    (a cantilever clamped at the boom joint), under gravity (``g`` of the
    block) and a wrench ``[n; f]`` at the boom's tip in the tip element's
    axes; Newton's method on the spring coordinates.  Returns the state."""
    chain, n = block.chain, block.chain.n
    flex = np.arange(2, n - 1)
    x = block.initial_state()
    last = n - 2
    r = chain.joints[-1].offset
    g0 = np.array([0.0, 0.0, -block.p.g if gravity else 0.0])

    def residual(qf):
        q = x[:n].copy()
        q[flex] = qf
        kin = kinematics(chain, q, np.zeros(n))
        f = applied_forces(chain, kin, g0)[6:] - block.stiffness * q
        # the tip wrench's generalized forces: Po at the tip point of the last element
        Po_tip = kin.Po[last].copy()
        Po_tip[3:] -= skew(r) @ Po_tip[:3]
        return (f + Po_tip.T[6:] @ wrench_tip)[flex]

    qf = np.zeros(len(flex))
    for _ in range(20 if len(flex) else 0):
        F = residual(qf)
        J = np.empty((len(flex), len(flex)))
        for j in range(len(flex)):
            dq = np.zeros(len(flex))
            dq[j] = 1e-7
            J[:, j] = (residual(qf + dq) - F) / 1e-7
        step = np.linalg.solve(J, -F)
        qf += step
        if np.abs(step).max() < 1e-15:
            break
    x[flex] = qf
    return x


def _deflection(block, x):
    n = block.chain.n
    return block.deflections(kinematics(block.chain, x[:n], np.zeros(n)))[0]


N_RFE = (1, 2, 4, 8, 16)


def _errors(measure, exact):
    return np.array([abs(measure(n) - exact) / abs(exact) for n in N_RFE])


def _falls_steadily(errors, last):
    assert np.all(np.diff(errors) < 0), errors
    assert errors[-1] < last, errors


def test_tip_load_deflection_converges_to_PL3_over_3EI():
    P = 100.0  # N, down the boom's y axis: a few tenths of a mm, linear
    b = FlexibleCrane(**CANTILEVER)
    exact = P * b.p.l_boom**3 / (3 * b.p.E_boom * b.p.I_z_boom)

    def deflection(n):
        blk = FlexibleCrane(**CANTILEVER, n_rfe=n)
        return -_deflection(blk, _static_tip(blk, np.array([0, 0, 0, 0, -P, 0.0])))[1]

    errors = _errors(deflection, exact)
    # the springs sit at the sections' middles: a midpoint rule for the
    # curvature integral, error 1/(4 (n-1)^2): 25%, 2.8%, 0.51%, 0.11%
    # (measured within 1.8e-5 of it: the load's geometric nonlinearity)
    _falls_steadily(errors, 0.02)
    assert errors[1:] == pytest.approx([1 / (4 * (n - 1) ** 2) for n in N_RFE[1:]], rel=6e-5)


def test_the_deflection_at_each_spring_element_is_the_midpoint_rules():
    """The outputs ``defl_<r>_*``: under a tip load P, the spring element r
    at s = (r - 1/2) d turns by P (L - s) d / EI, so that the joint at s_j
    sinks by the midpoint rule's sum over the sections before it,
    ``sum_r P (L - s_r) (s_j - s_r) d / EI = P (s_j^2 - d^2/4) (3 L - s_j)
    / (6 EI)`` (summed in closed form), beam theory's ``P s^2 (3 L - s) /
    (6 EI)`` short by ``d^2/4`` in its first factor; nothing moves out of
    the luffing plane, and the rows past the boom's springs are zero.
    Measured within 1.9e-8 of the tip's deflection (the load's geometric
    nonlinearity, as the axial shortening, 6e-8 m)."""
    P = 100.0
    for n in N_RFE[1:]:
        blk = FlexibleCrane(**CANTILEVER, n_rfe=n)
        x = _static_tip(blk, np.array([0, 0, 0, 0, -P, 0.0]))
        N = blk.chain.n
        defl = blk.deflections(kinematics(blk.chain, x[:N], np.zeros(N)))[1]
        p = blk.p
        L, EI, d = p.l_boom, p.E_boom * p.I_z_boom, p.l_boom / (n - 1)
        s = (np.arange(1, n) - 0.5) * d
        tip = P * L**3 / (3 * EI)
        assert np.abs(-defl[:n - 1, 1] - P * (s**2 - d**2 / 4) * (3 * L - s) / (6 * EI)).max() < 6e-8 * tip
        assert np.abs(defl[:n - 1, 0]).max() < 2e-7 and np.abs(defl[:n - 1, 2]).max() < 1e-15
        assert not defl[n - 1:].any()


def test_own_weight_deflection_converges_to_qL4_over_8EI():
    b = FlexibleCrane(**{**CANTILEVER, "g": 9.81})
    q = b.p.rho_boom * b.p.A_boom * 9.81
    exact = q * b.p.l_boom**4 / (8 * b.p.E_boom * b.p.I_z_boom)

    def deflection(n):
        blk = FlexibleCrane(**{**CANTILEVER, "g": 9.81}, n_rfe=n)
        return -_deflection(blk, _static_tip(blk))[1]

    errors = _errors(deflection, exact)
    # the elements' weights lumped at their middles: 1/(2 (n-1)^2) short,
    # 50%, 5.6%, 1.0%, 0.22% (measured within 1.8e-5 of it)
    _falls_steadily(errors, 0.02)
    assert errors[1:] == pytest.approx([1 / (2 * (n - 1) ** 2) for n in N_RFE[1:]], rel=6e-5)


def test_torsion_is_TL_over_GJ():
    T = 50.0  # N m about the boom's axis
    b = FlexibleCrane(**CANTILEVER)
    exact = T * b.p.l_boom / (b.p.G_boom * b.p.J_boom)

    def twist(n):
        blk = FlexibleCrane(**CANTILEVER, n_rfe=n)
        x = _static_tip(blk, np.array([T, 0, 0, 0, 0, 0.0]))
        return x[4:blk.chain.n - 1:3].sum()  # the phi of every spring element

    errors = _errors(twist, exact)
    # springs in series, each a section's G J / d: exact for any division
    # (measured 3e-16); one rigid element cannot twist
    assert errors[0] == 1.0 and np.all(errors[1:] < 1e-14)


def test_first_bending_frequency_converges_to_beam_theory():
    b = FlexibleCrane(**CANTILEVER)
    p = b.p
    exact = 1.875104**2 * math.sqrt(p.E_boom * p.I_z_boom / (p.rho_boom * p.A_boom * p.l_boom**4))

    def frequency(n):
        if n == 1:
            return 0.0
        blk = FlexibleCrane(**CANTILEVER, n_rfe=n)
        N = blk.chain.n
        kin = kinematics(blk.chain, blk.initial_state()[:N], np.zeros(N))
        psi = np.arange(2, N - 1, 3)  # bending in the luffing plane
        M = mass_matrix(blk.chain, kin)[6:, 6:][np.ix_(psi, psi)]
        K = np.diag(blk.stiffness[psi])
        return math.sqrt(eigh(K, M, eigvals_only=True)[0])

    errors = _errors(frequency, exact)
    # measured 100%, 39%, 2.5%, 0.37%, 6e-6
    _falls_steadily(errors, 0.02)


def test_element_lengths_are_those_of_eq_7():
    assert element_lengths(3.0, 1) == pytest.approx([3.0])
    assert element_lengths(3.0, 4) == pytest.approx([0.5, 1.0, 1.0, 0.5])
    assert element_lengths(3.0, 2) == pytest.approx([1.5, 1.5])



# -- the internal step ------------------------------------------------------------------

def _held_at_rest(block):
    """The crane at rest under gravity on a fixed mount: the state at the
    static equilibrium (the boom sagging, its springs carrying its weight,
    the joints at their initial angles) and the inputs whose joint torques
    hold the three joints there."""
    n = block.chain.n
    x = _static_tip(block)
    kin = kinematics(block.chain, x[:n], np.zeros(n))
    f = applied_forces(block.chain, kin, np.array([0.0, 0.0, -block.p.g]))[6:]
    u = block.default_inputs()
    u[24:27] = -f[block.joint_index]
    return x, u


def _nudged_run(block, t_end, h=1e-3, nudge=1e-6, seed=0):
    """From rest (:func:`_held_at_rest`) with every spring coordinate nudged
    by ``nudge`` [rad] (random, so that every mode of the boom rings, the
    fastest too), the block's own steps of ``h`` for ``t_end``: returns the
    energy gained at each step over the nudge's energy (the holding torques'
    work counted: the energy the exact motion keeps) and the largest
    distance of any coordinate from the equilibrium [rad]; it stops at a
    state not finite (infinite gain)."""
    n = block.chain.n
    x_eq, u = _held_at_rest(block)

    def energy(x):
        return sum(block.energy(x, u)) - u[24:27] @ x[block.joint_index]

    x = x_eq.copy()
    springs = block.stiffness > 0
    x[:n][springs] += np.random.default_rng(seed).normal(size=springs.sum()) * nudge
    E0, E_nudge = energy(x), energy(x) - energy(x_eq)
    gain, far = [], 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(int(round(t_end / h))):
            x = block.advance(k * h, x, u, h)
            if not np.isfinite(x).all():
                return np.array(gain + [np.inf]), np.inf
            gain.append((energy(x) - E0) / E_nudge if E_nudge > 0 else 0.0)
            far = max(far, np.abs(x[:n] - x_eq[:n]).max())
    return np.array(gain), far


#: the step the block chooses (h_max = 0) [s]: the paper's 2.5e-4 s up to
#: n_rfe = 4, then what the boom's fastest mode allows (its frequency over
#: the poses, in Hz, beside it)
CHOSEN_STEP = {1: 2.5e-4, 2: 2.5e-4, 3: 2.5e-4, 4: 2.5e-4, 5: 1.888e-4, 6: 1.499e-4, 7: 1.245e-4, 8: 1.065e-4,
               9: 9.30e-5, 10: 7.70e-5, 11: 6.45e-5, 12: 5.52e-5, 13: 4.81e-5, 14: 4.25e-5, 15: 3.80e-5,
               16: 3.43e-5}  # 0, 277, 723, 1134, 1535, 1932, 2327, 2721, ..., 8445 Hz


@pytest.mark.parametrize("n_rfe", range(1, 17))
def test_at_rest_the_crane_stays_at_rest_at_the_step_it_chooses(n_rfe):
    """Held at rest, its springs nudged by 1e-6 rad, the crane stays at rest
    for 0.5 s at a 1 ms macro step, whatever the number of elements: its
    energy never rises above the start (an unstable mode would feed on the
    round-off and the nudge; at the paper's step 2.5e-4 s the state of
    n_rfe = 6 is no longer finite after 17 ms, that of n_rfe = 8 after 3 ms),
    and no coordinate strays further than the nudge's vibration takes it.
    RK4 takes energy out of the fastest modes (30-86% of the nudge's over
    0.5 s from n_rfe = 4 on)."""
    block = FlexibleCrane(n_rfe=n_rfe)
    assert block.max_step == pytest.approx(CHOSEN_STEP[n_rfe], rel=1e-3)
    gain, far = _nudged_run(block, 0.5)
    # measured: a gain of 6.3e-5 of the nudge's 2.9e-8 J at n_rfe = 2, the
    # round-off of the crane's energies (1e4 J), none at the others; the
    # farthest 5.4e-6 rad at n_rfe = 7 (up to 5 times the nudge: the nudges
    # of many springs add up in a mode), zero for the rigid boom
    assert gain.max() < 2e-4
    assert far < 1.6e-5


@pytest.mark.parametrize("n_rfe", [8, 16])
def test_the_step_limit_is_the_fastest_mode_s(n_rfe):
    """The highest natural frequency the block finds is the one that limits
    RK4: held at rest, a sub-step 5% beyond RK4's limit on the imaginary
    axis (omega h = 2.83) diverges, 5% within it stays at rest (the run
    stays at the initial pose, whose fastest mode is 1.9% (n_rfe = 8) or
    0.01% (16) below the one the block takes, with the jib folded)."""
    block = FlexibleCrane(n_rfe=n_rfe)
    limit = 2 * math.sqrt(2) / block.omega_max
    block.max_step = h = 1.05 * limit
    gain, _ = _nudged_run(block, 0.05, h=h)
    assert not gain[-1] < 1e3  # measured: not finite after 13 ms (n_rfe = 8), 3 ms (16)
    block.max_step = h = 0.95 * limit
    gain, _ = _nudged_run(block, 0.05, h=h)
    assert gain.max() < 2e-4  # measured: none


def test_an_overdamped_fastest_mode_shortens_the_step():
    """With heavy damping of the springs (c_rfe = 3e-4 s: the fastest mode's
    damping ratio 2.6 at n_rfe = 8), the mode's fast eigenvalue is real and
    4.9 times its frequency: the block's step is shorter by as much, and the
    undamped boom's step diverges where it stays at rest."""
    damped, undamped = FlexibleCrane(n_rfe=8, c_rfe=3e-4), FlexibleCrane(n_rfe=8)
    w = damped.omega_max
    lam = max(abs(np.roots([1.0, damped.p.c_rfe * w * w, w * w])))
    assert fastest_eigenvalue(w, damped.p.c_rfe) == pytest.approx(lam, rel=1e-12)
    assert damped.max_step == pytest.approx(STEP_MARGIN * RK4_RADIUS / lam, rel=1e-12)
    assert damped.max_step < undamped.max_step / 4.5  # measured 4.9 times shorter
    gain, _ = _nudged_run(damped, 0.05)
    assert gain.max() < 2e-4  # measured: none (it loses 75% of the nudge's energy)
    damped.max_step = undamped.max_step
    assert not _nudged_run(damped, 0.05)[0][-1] < 1e3  # measured: not finite after the first 1 ms


@pytest.mark.parametrize("n_rfe, h_max, message", [
    (8, 2.5e-4, "h_max = 0.00025 s is invalid: with n_rfe = 8 the boom's fastest mode (2721 Hz) needs a "
                "Runge-Kutta step of at most 0.000106 s (h_max = 0 chooses it)"),
    (16, 1e-4, "h_max = 0.0001 s is invalid: with n_rfe = 16 the boom's fastest mode (8445 Hz) needs a "
               "Runge-Kutta step of at most 3.43e-05 s"),
])
def test_a_step_longer_than_the_springs_allow_is_refused(n_rfe, h_max, message):
    with pytest.raises(ParameterError, match="FlexibleCrane parameter " + message.replace("(", r"\(")
                       .replace(")", r"\)").replace("+", r"\+")):
        FlexibleCrane(n_rfe=n_rfe, h_max=h_max)


def test_a_step_the_springs_allow_is_taken_as_given():
    assert FlexibleCrane(n_rfe=8, h_max=1e-4).max_step == 1e-4
    # the quoted step is rounded down, so that it is accepted
    assert FlexibleCrane(n_rfe=8, h_max=0.000106).max_step == 0.000106
    assert FlexibleCrane(n_rfe=1, h_max=1e-3).max_step == 1e-3  # a rigid boom: no springs to limit it
