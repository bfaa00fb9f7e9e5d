"""Kane's equations for a serial chain on a moving base, with twists and
projection matrices (Cibicik & Egeland (2018), eqs. (17)-(38)), and joint
constraint wrenches by auxiliary generalized speeds (eqs. (39)-(50)).

Conventions
-----------
* The chain hangs from a *base frame* b (for a crane: the mount on the vessel).
  The base moves with the twist ``t_b = [omega_b; v_b]`` (base coordinates,
  referenced to the base origin).  The generalized speeds of the chain are
  ``nu = [t_b; u]``: the six base speeds first, then the joint rates
  ``u = dq/dt``.  For a fixed base ``t_b = 0``.  Treating the base twist as six
  extra generalized speeds is the auxiliary-speed idea of eqs. (39)-(42)
  applied to the base joint: the base rows of Kane's equations give the wrench
  the base exerts on the first body, the joint rows the equations of motion.
* Frame k is fixed in body k with its origin on joint k.  Joint k turns (or
  slides) about ``axis`` (Frame-k coordinates, equal in the joint frame before
  and after the motion); ``R_{k-1}^{k}(q) = (rotation @ Rot(axis, q_k))^T``
  (eqs. (53)-(56) are this with ``axis = z``).
* ``P_k`` maps ``nu`` to the twist of body k referenced to its COG in
  Frame-k coordinates, ``t_{0k/m_k}^k = P_k nu`` (eqs. (29)-(30)).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .screw import ad, cross_rows, skew

__all__ = ["Body", "Joint", "Marker", "Chain", "Kinematics", "kinematics",
           "mass_matrix", "coriolis_matrix", "bias_forces", "gravity_forces",
           "constraint_wrench", "with_base_twist", "applied_forces",
           "inertial_wrenches", "gravity_wrenches", "subtree", "kinetic_energy",
           "potential_energy"]


def _vec3(v) -> np.ndarray:
    a = np.asarray(v, dtype=float).reshape(3)
    return a


@dataclass(frozen=True)
class Body:
    """A rigid body.  ``mass`` [kg]; ``com`` [m], position of the COG m_k in
    Frame k; ``inertia`` [kg m^2], 3x3 inertia matrix about the COG in Frame k
    (``M_{m_k}^k`` of eq. (17)).  A massless body (mass and inertia zero) is
    allowed: it carries a joint of a multi-axis connection (a gimbal)."""

    mass: float
    com: np.ndarray = field(default_factory=lambda: np.zeros(3))
    inertia: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))

    def __post_init__(self):
        object.__setattr__(self, "com", _vec3(self.com))
        object.__setattr__(self, "inertia", np.asarray(self.inertia, float).reshape(3, 3))

    @property
    def D(self) -> np.ndarray:
        """``D_k = blockdiag(M_{m_k}^k, m_k I)`` of eq. (35)."""
        out = np.zeros((6, 6))
        out[:3, :3] = self.inertia
        out[3:, 3:] = self.mass * np.eye(3)
        return out


@dataclass(frozen=True)
class Joint:
    """Joint k between body k-1 (the base for k = 1) and body k.

    ``offset`` [m]: origin of Frame k in Frame k-1 at ``q_k = 0``;
    ``rotation``: fixed rotation ``R_{k-1}^{k}`` part before the joint motion,
    i.e. the orientation of Frame k in Frame k-1 at ``q_k = 0``;
    ``axis``: unit vector of the joint axis in Frame k;
    ``kind``: ``"revolute"`` (``q_k`` in rad) or ``"prismatic"`` (``q_k`` in m,
    sliding along ``axis``)."""

    offset: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    axis: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    kind: str = "revolute"

    def __post_init__(self):
        object.__setattr__(self, "offset", _vec3(self.offset))
        object.__setattr__(self, "rotation", np.asarray(self.rotation, float).reshape(3, 3))
        axis = _vec3(self.axis)
        n = np.linalg.norm(axis)
        if not np.isclose(n, 1.0):
            raise ValueError(f"joint axis {axis} is not a unit vector")
        object.__setattr__(self, "axis", axis / n)
        if self.kind not in ("revolute", "prismatic"):
            raise ValueError(f"joint kind must be 'revolute' or 'prismatic', not {self.kind!r}")

    @property
    def screw(self) -> np.ndarray:
        """Joint twist per unit rate in Frame k at its origin (eq. (57))."""
        if self.kind == "revolute":
            return np.concatenate([self.axis, np.zeros(3)])
        return np.concatenate([np.zeros(3), self.axis])


@dataclass(frozen=True)
class Marker:
    """A frame fixed in body ``body`` (index into the chain) at ``offset`` [m]
    in Frame ``body`` with orientation ``rotation`` (its axes in Frame
    ``body``).  Used for points where a wrench acts, such as a crane mount on
    the vessel."""

    body: int
    offset: np.ndarray = field(default_factory=lambda: np.zeros(3))
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))

    def __post_init__(self):
        object.__setattr__(self, "offset", _vec3(self.offset))
        object.__setattr__(self, "rotation", np.asarray(self.rotation, float).reshape(3, 3))


@dataclass(frozen=True)
class Chain:
    """A serial chain, or a tree: ``joints[k]`` connects body ``parents[k]``
    (the base for -1) to ``bodies[k]``.  Without ``parents`` the chain is
    serial (``parents[k] = k - 1``).  Parents come before their children."""

    joints: tuple
    bodies: tuple
    markers: tuple = ()
    parents: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "joints", tuple(self.joints))
        object.__setattr__(self, "bodies", tuple(self.bodies))
        object.__setattr__(self, "markers", tuple(self.markers))
        if len(self.joints) != len(self.bodies):
            raise ValueError("a chain needs one joint per body")
        parents = tuple(range(-1, len(self.joints) - 1)) if self.parents is None else tuple(self.parents)
        if len(parents) != len(self.joints) or any(not -1 <= p < k for k, p in enumerate(parents)):
            raise ValueError(f"parents {parents} must give each body an earlier parent or -1 (the base)")
        object.__setattr__(self, "parents", parents)
        # Constant data, computed once and batched over the joints: the hot path
        # of a co-simulation step evaluates kinematics() at every step.
        def const(name, values):
            object.__setattr__(self, name, np.array(values, dtype=float))
        joints = self.joints
        const("_D", [b.D for b in self.bodies])
        const("_mass", [b.mass for b in self.bodies])
        const("_revolute", [j.kind == "revolute" for j in joints])
        object.__setattr__(self, "_any_prismatic", any(j.kind == "prismatic" for j in joints))
        const("_R0", [j.rotation for j in joints])
        const("_Kb", [skew(j.axis) for j in joints])
        const("_K2b", [skew(j.axis) @ skew(j.axis) for j in joints])
        const("_off0", [j.offset for j in joints])
        const("_slide", [j.rotation @ j.axis * (j.kind == "prismatic") for j in joints])
        const("_S_offb", [skew(-j.offset) for j in joints])
        const("_s", [j.screw for j in joints])
        const("_ad_sb", [ad(j.screw) for j in joints])
        # [Po_0; dPo_0/dt] = [[I_6, 0]; 0]: the base twist is the first six speeds.
        PP0 = np.zeros((12, 6 + len(self.joints)))
        PP0[:6, :6] = np.eye(6)
        object.__setattr__(self, "_PP0", PP0)
        object.__setattr__(self, "_T0", np.eye(4))
        object.__setattr__(self, "_Xm2", [_blockdiag2(_frame_transform(m.rotation, m.offset)) for m in self.markers])
        Uc = np.array([np.eye(6) for _ in self.bodies])
        for k, b in enumerate(self.bodies):
            Uc[k, 3:, :3] = skew(-b.com)
        object.__setattr__(self, "_Uc", Uc)
        object.__setattr__(self, "_Uc2", np.array([_blockdiag2(U) for U in Uc]))

    @property
    def n(self) -> int:
        """Number of joints (generalized coordinates of the chain)."""
        return len(self.joints)


@dataclass
class Kinematics:
    """Kinematic quantities of a chain at one state (see :func:`kinematics`).

    ``R[k]``: orientation of Frame k in the base frame (``R_k^b``);
    ``p[k]``: origin of Frame k in the base frame [m];
    ``Po[k]``, ``Pdo[k]``: projection matrix of the twist of Frame k referenced
    to its origin and its time derivative, 6 x (6+n);
    ``P[k]``, ``Pd[k]``: the same referenced to the COG (eq. (30));
    ``t[k]``: twist of body k at its COG, Frame k (eq. (29));
    ``nu``: generalized speeds ``[t_b; u]``;
    ``marker_Po``/``marker_Pdo``/``marker_R``/``marker_p``: the same for markers.
    """

    q: np.ndarray
    nu: np.ndarray
    R: np.ndarray
    p: np.ndarray
    Po: np.ndarray
    Pdo: np.ndarray
    P: np.ndarray
    Pd: np.ndarray
    t: np.ndarray
    marker_R: list
    marker_p: list
    marker_Po: list
    marker_Pdo: list


_I3 = np.eye(3)


def _blockdiag2(A: np.ndarray) -> np.ndarray:
    """``[[A, 0], [0, A]]``: ``A`` applied to ``[Po; dPo/dt]`` stacked."""
    n = A.shape[0]
    out = np.zeros((2 * n, 2 * n))
    out[:n, :n] = out[n:, n:] = A
    return out


def _frame_transform(Rk: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Twist transform from Frame k-1 (origin) to Frame k (origin), eq. (23):
    ``[[R^T, 0], [R^T p^_{k,k-1}, R^T]]`` with ``p_{k,k-1}^{k-1} = -offset``
    and ``R`` the orientation of Frame k in Frame k-1."""
    RT = Rk.T
    X = np.zeros((6, 6))
    X[:3, :3] = RT
    X[3:, 3:] = RT
    X[3:, :3] = RT @ skew(-offset)
    return X


def kinematics(chain: Chain, q, u, base_twist=None) -> Kinematics:
    """Poses, projection matrices ``P_k`` and their derivatives for state
    ``(q, u)`` and base twist ``t_b`` (default zero: fixed base).

    The recursion is eqs. (19)-(28) written for matrices:
    ``Po_k = X_k Po_{k-1} + s_k e_k^T`` (origin twists), ``P_k = U(p_{m_k,k}) Po_k``,
    with ``Po_0 = [I_6, 0]`` for the base.  Differentiating,
    ``dPo_k/dt = X_k dPo_{k-1}/dt - ad(s_k u_k) Po_k`` (the transform of joint k
    rotates with the relative twist ``s_k u_k``; ``ad(s_k) s_k = 0``).  Both
    are one product per joint, ``[Po_k; dPo_k/dt] = [[X_k, 0], [-ad(s_k u_k)
    X_k, X_k]] [Po_{k-1}; dPo_{k-1}/dt] + [s_k; 0] e_k^T``, and the pose one
    product of homogeneous transforms; everything else is formed for all
    joints at once: this function is the hot path of every block step.
    """
    n = chain.n
    q = np.asarray(q, float)
    u = np.asarray(u, float)
    N = 6 + n
    nu = np.zeros(N)
    if base_twist is not None:
        nu[:6] = base_twist
    nu[6:] = u
    # Relative orientations R_{k-1}^{k} (as Frame k in Frame k-1) and offsets.
    ang = q * chain._revolute
    T = np.zeros((n, 4, 4))
    T[:, 3, 3] = 1.0
    Rrel = T[:, :3, :3]
    np.matmul(chain._R0, _I3 + np.sin(ang)[:, None, None] * chain._Kb
              + (1.0 - np.cos(ang))[:, None, None] * chain._K2b, out=Rrel)
    if chain._any_prismatic:
        off = chain._off0 + chain._slide * q[:, None]
        S = np.zeros((n, 3, 3))
        S[:, 0, 1], S[:, 0, 2], S[:, 1, 2] = off[:, 2], -off[:, 1], off[:, 0]
        S[:, 1, 0], S[:, 2, 0], S[:, 2, 1] = -off[:, 2], off[:, 1], -off[:, 0]
    else:
        off, S = chain._off0, chain._S_offb
    T[:, :3, 3] = off
    RT = Rrel.transpose(0, 2, 1)
    B = np.zeros((n, 12, 12))
    X = B[:, :6, :6]
    X[:, :3, :3] = RT
    X[:, 3:, 3:] = RT
    X[:, 3:, :3] = RT @ S
    B[:, 6:, 6:] = X
    B[:, 6:, :6] = (chain._ad_sb * -u[:, None, None]) @ X
    # [Po_k; dPo_k/dt] stacked, and the pose of Frame k in the base
    PP = np.empty((n, 12, N))
    Tw = np.empty((n, 4, 4))
    for k, parent in enumerate(chain.parents):
        prev, prev_T = (chain._PP0, chain._T0) if parent < 0 else (PP[parent], Tw[parent])
        np.matmul(B[k], prev, out=PP[k])
        PP[k, :6, 6 + k] = chain._s[k]
        np.matmul(prev_T, T[k], out=Tw[k])
    R, p = Tw[:, :3, :3], Tw[:, :3, 3]
    PPc = chain._Uc2 @ PP
    Po, Pdo, P, Pd = PP[:, :6], PP[:, 6:], PPc[:, :6], PPc[:, 6:]
    t = P @ nu
    mR, mp, mPo, mPdo = [], [], [], []
    for m, Xm in zip(chain.markers, chain._Xm2):
        mR.append(R[m.body] @ m.rotation)
        mp.append(p[m.body] + R[m.body] @ m.offset)
        XPP = Xm @ PP[m.body]
        mPo.append(XPP[:6])
        mPdo.append(XPP[6:])
    return Kinematics(q, nu, R, p, Po, Pdo, P, Pd, t, mR, mp, mPo, mPdo)


def with_base_twist(kin: Kinematics, base_twist) -> Kinematics:
    """The same kinematics with another base twist (``P_k`` and ``dP_k/dt``
    depend on ``q`` and ``u`` only, eq. (30))."""
    nu = kin.nu.copy()
    nu[:6] = base_twist
    return Kinematics(kin.q, nu, kin.R, kin.p, kin.Po, kin.Pdo, kin.P, kin.Pd, kin.P @ nu,
                      kin.marker_R, kin.marker_p, kin.marker_Po, kin.marker_Pdo)


def mass_matrix(chain: Chain, kin: Kinematics) -> np.ndarray:
    """``M = sum_k P_k^T D_k P_k`` (eq. (38)), (6+n) x (6+n)."""
    PT = kin.P.transpose(0, 2, 1)
    return (PT @ (chain._D @ kin.P)).sum(axis=0)


def coriolis_matrix(chain: Chain, kin: Kinematics) -> np.ndarray:
    """``C`` of eq. (37): ``C = sum_k [P_k^T D_k dP_k/dt + P_k^T G_k P_k]``.

    Eq. (38) writes the gyroscopic factor as ``G_k = W_k D_k``.  Only the
    product ``G_k t_k = [w x M w; w x m v]`` enters the equations of motion,
    and it equals ``G_k t_k`` for the skew-symmetric
    ``G_k = blockdiag(-(M_{m_k} w)^, m_k w^)``, which is used here: with it
    ``dM/dt - 2C`` is skew-symmetric, the property the paper states (with
    ``W_k D_k`` itself it is not, unless every ``M_{m_k}`` is spherical).
    ``C nu`` is the same either way (:func:`bias_forces`)."""
    C = np.zeros((kin.P.shape[2],) * 2)
    for k in range(chain.n):
        D = chain._D[k]
        w = kin.t[k, :3]
        Gk = np.zeros((6, 6))
        Gk[:3, :3] = -skew(D[:3, :3] @ w)
        Gk[3:, 3:] = D[3, 3] * skew(w)
        C += kin.P[k].T @ (D @ kin.Pd[k] + Gk @ kin.P[k])
    return C


def inertial_wrenches(chain: Chain, kin: Kinematics, nudot=None) -> np.ndarray:
    """Per body ``D_k dt_k/dt + W_k D_k t_k`` (the bracket of eq. (34)) with
    ``dt_k/dt = P_k nudot + dP_k/dt nu`` (eq. (36)); ``nudot=None`` keeps only
    the velocity terms."""
    a = kin.Pd @ kin.nu
    if nudot is not None:
        a += kin.P @ nudot
    D = chain._D
    out = (D @ a[:, :, None])[:, :, 0]
    Dt = (D @ kin.t[:, :, None])[:, :, 0]
    # W_k D_k t_k = [w x (M w); w x (m v)], both cross products in one call
    out += cross_rows(kin.t[:, None, :3], Dt.reshape(-1, 2, 3)).reshape(-1, 6)
    return out


def acceleration_wrenches(chain: Chain, kin: Kinematics, nudot) -> np.ndarray:
    """Per body ``D_k P_k nudot``: the inertial wrench of eq. (34) less its
    velocity terms (``inertial_wrenches(chain, kin)``)."""
    return (chain._D @ (kin.P @ nudot)[:, :, None])[:, :, 0]


def bias_forces(chain: Chain, kin: Kinematics) -> np.ndarray:
    """``C nu`` of eq. (37) without forming ``C``."""
    return project_wrenches(kin.P, inertial_wrenches(chain, kin))


def project_wrenches(P: np.ndarray, wrenches: np.ndarray) -> np.ndarray:
    """``sum_k P_k^T w_k`` (eq. (32) for any set of body wrenches)."""
    return (wrenches[:, None, :] @ P).sum(axis=0)[0]


def gravity_wrenches(chain: Chain, kin: Kinematics, g_base) -> np.ndarray:
    """Gravity wrench ``[0; m_k g]`` of every body at its COG in Frame k."""
    g_k = np.asarray(g_base, float) @ kin.R
    out = np.zeros((chain.n, 6))
    out[:, 3:] = chain._mass[:, None] * g_k
    return out


def gravity_forces(chain: Chain, kin: Kinematics, g_base) -> np.ndarray:
    """Generalized gravity forces ``sum_k P_k^T [0; m_k g^k]`` (eq. (32)), with
    ``g_base`` the gravitational acceleration in base coordinates [m/s^2]."""
    return project_wrenches(kin.P, gravity_wrenches(chain, kin, g_base))


def applied_forces(chain: Chain, kin: Kinematics, g_base) -> np.ndarray:
    """``tau_g - C nu``: generalized gravity forces (eq. (32)) less the
    velocity terms of eq. (37), in one projection."""
    return project_wrenches(kin.P, gravity_wrenches(chain, kin, g_base) - inertial_wrenches(chain, kin))


def constraint_wrench(chain: Chain, kin: Kinematics, nudot, g_base, joint: int,
                      E=None, N=None) -> np.ndarray:
    """Constraint wrench in ``joint`` by auxiliary generalized speeds, eq. (50).

    The auxiliary speeds ``u_c`` give body ``joint`` the extra twist ``E u_c``
    (Frame ``joint`` coordinates, referenced to its origin; eqs. (65)-(67)),
    which every later body inherits rigidly, so
    ``P_ck = U(p_{m_k,k}) X_k ... X_{joint+1} E`` for ``k >= joint`` and zero
    before (eq. (42)).  The unknown wrench acts on body ``joint`` at the origin
    of its frame, selected from ``rho_c`` by ``N`` (eq. (45)).  Then
    ``rho_c = [sum_k P_ck^T Ubar N]^{-1} [M_f nudot + C_f nu - tau_f]`` with
    ``M_f nudot + C_f nu = sum_k P_ck^T (D_k dt_k/dt + W_k D_k t_k)`` (eqs.
    (47)-(49)) and ``tau_f`` from gravity (eq. (44)).  In a tree the
    auxiliary twist reaches the subtree beyond ``joint``.

    Defaults ``E = N = I_6``: ``rho_c`` is then the full wrench ``[n; f]`` that
    body ``joint - 1`` (or the base) exerts on body ``joint``, at the origin of
    Frame ``joint``, in Frame-``joint`` coordinates.  Joint actuator torques are
    internal to the subtree except the one of ``joint`` itself, which is part
    of that wrench: its moment about the joint axis equals the actuator torque.
    The paper's five components of eq. (64) are ``E = N`` = the 6x5 selection
    of eq. (67); the rows ``rho`` then exclude the actuated axis.
    """
    net = inertial_wrenches(chain, kin, nudot) - gravity_wrenches(chain, kin, g_base)
    return _constraint_wrench(chain, kin, net, joint, E, N)


def constraint_wrenches(chain: Chain, kin: Kinematics, nudot, g_base, joints, external=None) -> np.ndarray:
    """The full wrenches (``E = N = I_6``) of :func:`constraint_wrench` in
    several joints, one row each, the bodies' inertial and gravity wrenches
    computed once for all of them.  ``external``: further applied wrenches,
    one row per body, at its COG in Frame k (such as a guide's force on an
    end effector); they enter eq. (44) beside gravity."""
    net = inertial_wrenches(chain, kin, nudot) - gravity_wrenches(chain, kin, g_base)
    if external is not None:
        net = net - external
    return np.array([_constraint_wrench(chain, kin, net, j, None, None) for j in joints])


def _constraint_wrench(chain: Chain, kin: Kinematics, net, joint: int, E, N) -> np.ndarray:
    """Eq. (50) with ``net`` the per-body ``D_k dt_k/dt + W_k D_k t_k`` less
    the external (gravity) wrench."""
    full = E is None  # E = N = I_6: the products with them are skipped
    E = np.eye(6) if E is None else np.asarray(E, float)
    N = E if N is None else np.asarray(N, float)
    rhs = np.zeros(E.shape[1])
    A = np.zeros((E.shape[1], N.shape[1]))
    for k in subtree(chain, joint):
        # the auxiliary twist E u_c of body `joint`, carried rigidly to body k
        R_rel = kin.R[joint].T @ kin.R[k]
        p_rel = kin.R[joint].T @ (kin.p[k] - kin.p[joint])
        Pc = chain._Uc[k] @ _frame_transform(R_rel, p_rel)
        if not full:
            Pc = Pc @ E
        rhs += Pc.T @ net[k]
        if k == joint:
            # Constraint wrench at the origin of Frame `joint`, moved to the COG (eq. (46)).
            Ubar = np.eye(6)
            Ubar[:3, 3:] = skew(-chain.bodies[k].com)
            A += Pc.T @ Ubar if full else Pc.T @ Ubar @ N
    return np.linalg.solve(A, rhs)


def subtree(chain: Chain, k: int) -> list[int]:
    """Body ``k`` and every body beyond it (its descendants)."""
    out = [k]
    for j in range(k + 1, chain.n):
        if chain.parents[j] in out:
            out.append(j)
    return out


def kinetic_energy(chain: Chain, kin: Kinematics) -> float:
    """``1/2 sum_k t_k^T D_k t_k`` [J]."""
    return 0.5 * float(np.einsum("ka,kab,kb->", kin.t, chain._D, kin.t))


def potential_energy(chain: Chain, kin: Kinematics, g_base) -> float:
    """Gravitational potential ``-sum_k m_k g . r_{m_k}`` [J] in the base frame
    (valid when the base does not rotate)."""
    g = np.asarray(g_base, float)
    e = 0.0
    for k, b in enumerate(chain.bodies):
        r = kin.p[k] + kin.R[k] @ b.com
        e -= b.mass * float(g @ r)
    return e


def point_on(kin: Kinematics, body: int, local) -> np.ndarray:
    """The point ``local`` [m] of Frame ``body`` in the chain's base frame,
    at the pose ``kin``."""
    return kin.p[body] + kin.R[body] @ np.asarray(local, float)
