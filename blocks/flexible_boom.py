"""The flexible crane's chain (:class:`blocks.flexible_crane.FlexibleCrane`):
its boom cut into rigid finite elements by the rigid finite element method
(RFEM) of Jarzębowska, Urbaś & Augustynek (2018), eqs. (7)-(8) and (12),
and the internal step its springs allow.

RFEM (eqs. 7-8): the boom of length ``l_boom`` is cut into ``n_rfe`` rigid
elements: for ``n_rfe = 1`` one rigid link; otherwise the primary division
into ``n_rfe - 1`` sections of length ``d = l_boom / (n_rfe - 1)`` gives
end elements of length ``d/2`` and inner ones of length ``d`` (eq. 7),
joined by ``n_rfe - 1`` spring elements at the sections' middles.  Element
r turns relative to element r-1 by ``Rz(ψ) Ry(θ) Rx(φ)`` (eq. 12,
T̃^(c,2,r)), three revolute joints through two massless bodies, with
rotational springs (the paper's S^(c,2,s), eq. 20)::

    s_ψ = E I_z / d   (bending in the luffing plane, about the element's z)
    s_θ = E I_y / d   (bending out of it, about y)
    s_φ = G J / d     (torsion, about x)

the stiffness of a section of length d of an Euler-Bernoulli beam
(Wittbrodt et al. 2013).  An element of length l has mass ``rho A l``, its
COG at its middle, and inertia about it
``diag(rho (I_y + I_z) l, rho I_y l + m l^2/12, rho I_z l + m l^2/12)``
(a uniform bar with the section's rotary inertia).

The internal step (:func:`stable_step`).  The springs grow stiffer as
``1/d``, the elements lighter as ``d``: the boom's fastest mode, the
torsion of its inner elements, rings faster the more elements there are
(angular frequency, measured: 6.4e3 rad/s at n_rfe = 4, 1.7e4 at 8, 5.3e4
at 16), and the classic Runge-Kutta step (RK4) must keep ``h lambda``
inside RK4's stability region for every eigenvalue ``lambda`` of the
linearised boom, or the run diverges within milliseconds.  The step is
chosen from the generalized eigenvalues ``omega^2`` of the springs'
stiffness ``K`` and the joints' mass matrix ``M_jj`` (the revolute joints
free: zero stiffness), at the initial pose and with the jib folded along
the boom either way (``q_jib = 0, pi``), where the jib's inertia about the
boom's axis is least and the outer element's torsion fastest: over a
24 x 24 grid of boom and jib angles the highest frequency is that of these
poses to 4 digits (at n_rfe = 2 it is 5 times the initial pose's, at 4 1.12
times, at 16 the same).  With the springs' damping ``c_rfe K`` (the modes
are the undamped ones) a mode's eigenvalues are the roots of
``lambda^2 + c_rfe omega^2 lambda + omega^2 = 0``, of modulus ``omega``
while underdamped and up to ``c_rfe omega^2`` when overdamped.  RK4's
region holds the left half-disc ``|z| <= 2.61`` (its boundary comes
nearest, 2.616, at arg z = 122 degrees; 2.83 on the imaginary axis, 2.79 on
the negative real axis), whatever the damping; the step asks
``h |lambda| <= STEP_MARGIN * RK4_RADIUS``, a margin for the springs'
deflections and the mount's motion, which move the eigenvalues by under 1%
(measured with 3 mrad deflections at random poses), and for the
nonlinearity.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.linalg import eigh

from .block import ParameterError
from .kane import Body, Chain, Joint, Marker, kinematics, mass_matrix
from .screw import rot_x, rot_z

#: the radius of the left half-disc inside classic RK4's stability region
#: ``|1 + z + z^2/2 + z^3/6 + z^4/24| <= 1`` (2.616, rounded down)
RK4_RADIUS = 2.6
#: the fraction of :data:`RK4_RADIUS` the chosen step gives the fastest
#: eigenvalue: ``h |lambda| <= 1.82``
STEP_MARGIN = 0.7
#: the internal step of Jarzębowska, Urbaś & Augustynek (2018) [s], the
#: longest the block chooses (for accuracy: at n_rfe = 4 it is already
#: within the springs' bound)
PAPER_STEP = 2.5e-4


def element_lengths(l: float, n_rfe: int) -> np.ndarray:
    """Lengths of the rigid finite elements of a link of length ``l`` [m],
    eq. (7): ``d/2, d, ..., d, d/2`` with ``d = l / (n_rfe - 1)``; one
    element of length ``l`` for ``n_rfe = 1``."""
    if n_rfe == 1:
        return np.array([l])
    d = l / (n_rfe - 1)
    return np.array([d / 2] + [d] * (n_rfe - 2) + [d / 2])


def section_stiffness(p, n_rfe: int) -> np.ndarray:
    """Rotational stiffnesses ``[s_psi, s_theta, s_phi]`` [N m/rad] of each
    spring element of the boom: ``E I_z / d``, ``E I_y / d``, ``G J / d``
    for sections of length ``d = l_boom / (n_rfe - 1)``."""
    d = p.l_boom / (n_rfe - 1)
    return np.array([p.E_boom * p.I_z_boom, p.E_boom * p.I_y_boom, p.G_boom * p.J_boom]) / d


def flexible_chain(p, n_rfe: int) -> tuple[Chain, np.ndarray]:
    """The column, the boom's rigid finite elements and the jib with its
    load, as a chain on the mount (eq. 12), and the stiffness of every
    coordinate (zero for the three revolute joints) [N m/rad]."""
    def bar(m, l, J_x, J_y, J_z):  # uniform bar along x from the frame's origin
        return Body(m, [l / 2, 0.0, 0.0], np.diag([J_x, J_y + m * l * l / 12, J_z + m * l * l / 12]))

    joints = [Joint(), Joint(offset=[0.0, 0.0, p.l_king], rotation=rot_z(np.pi / 2) @ rot_x(np.pi / 2))]
    bodies = [Body(p.m_king, [0.0, 0.0, p.d_king],
                   np.diag([p.l_king**2 / 12, p.l_king**2 / 12, p.r_king**2]) * p.m_king)]
    stiffness = [0.0, 0.0]
    lengths = element_lengths(p.l_boom, n_rfe)
    rho = p.rho_boom
    for r, l in enumerate(lengths):
        if r > 0:
            s = section_stiffness(p, n_rfe)
            # T~^(c,2,r) = Rz(psi) Ry(theta) Rx(phi): two massless bodies between the elements
            joints += [Joint(offset=[lengths[r - 1], 0.0, 0.0]), Joint(axis=[0, 1, 0]), Joint(axis=[1, 0, 0])]
            bodies += [Body(0.0), Body(0.0)]
            stiffness += list(s)
        bodies.append(bar(rho * p.A_boom * l, l, rho * (p.I_y_boom + p.I_z_boom) * l, rho * p.I_y_boom * l,
                          rho * p.I_z_boom * l))
    joints.append(Joint(offset=[lengths[-1], 0.0, 0.0]))
    # the jib, a slender bar, with the load at E
    m = p.m_jib + p.m_load
    com = (p.m_jib * p.d_jib + p.m_load * p.l_jib) / m
    J = p.m_jib * p.l_jib**2 / 12 + p.m_jib * (p.d_jib - com) ** 2 + p.m_load * (p.l_jib - com) ** 2
    bodies.append(Body(m, [com, 0.0, 0.0], np.diag([0.0, J, J])))
    stiffness.append(0.0)
    chain = Chain(joints=joints, bodies=bodies, markers=[Marker(len(bodies) - 1, [p.l_jib, 0.0, 0.0])])
    return chain, np.array(stiffness)


def boom_deflections(kin, chain: Chain, l_boom: float, n_rfe: int) -> np.ndarray:
    """``(n_rfe, 3)`` [m]: the displacement of each spring element's joint
    (r = 1 .. n_rfe - 1, between the elements (c,2,r-1) and (c,2,r), the
    origin of its ψ joint) and last of the boom's tip from where a rigid
    boom at the same boom angle has them, in the boom-root axes (c,2,0),
    from the kinematics ``kin`` of the chain of :func:`flexible_chain`,
    whose spring elements' ψ joints are its joints 2, 5, 8, ... (after the
    slew and boom joints, three a spring element: ψ, θ, φ)."""
    root, last = 1, chain.n - 2
    points = [kin.p[3 * r - 1] for r in range(1, n_rfe)] + [kin.p[last] + kin.R[last] @ chain.joints[-1].offset]
    along = np.cumsum(element_lengths(l_boom, n_rfe))
    rigid = np.column_stack([along, np.zeros(n_rfe), np.zeros(n_rfe)])
    return (np.array(points) - kin.p[root]) @ kin.R[root] - rigid


def highest_frequency(chain: Chain, stiffness: np.ndarray, q: np.ndarray) -> float:
    """The highest natural angular frequency [rad/s] of the chain's springs
    at the coordinates ``q`` on a fixed mount, the joints of zero stiffness
    free: the square root of the largest generalized eigenvalue of
    ``diag(stiffness)`` and the joints' mass matrix ``M_jj``; 0 without
    springs."""
    if not np.any(stiffness > 0):
        return 0.0
    n = chain.n
    M = mass_matrix(chain, kinematics(chain, q, np.zeros(n)))[6:, 6:]
    w2 = eigh(np.diag(stiffness), M, eigvals_only=True, subset_by_index=[n - 1, n - 1])[0]
    return math.sqrt(max(w2, 0.0))


def fastest_eigenvalue(omega: float, c_rfe: float) -> float:
    """The largest modulus [1/s] of the eigenvalues of a mode of angular
    frequency ``omega`` [rad/s] with the springs' stiffness-proportional
    damping ``c_rfe`` [s]: the roots of ``lambda^2 + c_rfe omega^2 lambda +
    omega^2 = 0``, ``omega`` while the damping ratio ``zeta = c_rfe omega /
    2`` is at most 1, ``omega (zeta + sqrt(zeta^2 - 1))`` beyond."""
    zeta = 0.5 * c_rfe * omega
    return omega if zeta <= 1.0 else omega * (zeta + math.sqrt(zeta * zeta - 1.0))


def stable_step(chain: Chain, stiffness: np.ndarray, q0: np.ndarray, jib: int, c_rfe: float) -> tuple[float, float]:
    """``(h, omega)``: the longest classic Runge-Kutta step [s] that keeps
    the boom's fastest eigenvalue within ``STEP_MARGIN`` of the half-disc
    RK4 is stable on (module docstring; infinite without springs), and the
    highest natural angular frequency it was found from [rad/s], the
    largest at the initial coordinates ``q0`` and with the jib (coordinate
    ``jib``) folded along the boom either way."""
    omega = 0.0
    for q_jib in (q0[jib], 0.0, math.pi):
        q = np.array(q0, dtype=float)
        q[jib] = q_jib
        omega = max(omega, highest_frequency(chain, stiffness, q))
    lam = fastest_eigenvalue(omega, c_rfe)
    return (STEP_MARGIN * RK4_RADIUS / lam if lam > 0 else math.inf), omega


def chosen_step(chain: Chain, stiffness: np.ndarray, q0: np.ndarray, jib: int, c_rfe: float,
                h_max: float) -> tuple[float, float, float]:
    """``(h, h_stable, omega)``: the internal step [s], ``h_max`` or with
    ``h_max = 0`` the paper's step or the longest the boom's springs allow
    (:func:`stable_step`), whichever is shorter; the longest they allow [s]
    and their highest angular frequency [rad/s].  An ``h_max`` longer than
    the springs allow is refused, with the step they need."""
    h_stable, omega = stable_step(chain, stiffness, q0, jib, c_rfe)
    if h_max == 0.0:
        return min(PAPER_STEP, h_stable), h_stable, omega
    if h_max > h_stable:
        n_rfe = chain.n // 3  # the slew and boom joints, three a spring element, the jib joint
        raise ParameterError(f"FlexibleCrane parameter h_max = {h_max:g} s is invalid: with n_rfe = {n_rfe} the "
                             f"boom's fastest mode ({omega / (2 * math.pi):.0f} Hz) needs a Runge-Kutta step of at "
                             f"most {_down(h_stable):.3g} s (h_max = 0 chooses it)")
    return h_max, h_stable, omega


def _down(x: float) -> float:
    """``x`` > 0 rounded down to three significant digits."""
    scale = 10.0 ** (math.floor(math.log10(x)) - 2)
    return math.floor(x / scale) * scale
