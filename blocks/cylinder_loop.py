"""Closed-loop kinematics of a joint driven by a cylinder, the two-link unit
of Fig. 2 of Cibicik & Egeland (2019) (Section 3.1): Link k turns about the
x axis of Joint k, a cylinder pinned to Link k-1 at B and to Link k at P_k
sets the angle through its length ``l_c = l_b + q`` (barrel length plus
piston extension).

Geometry (Fig. 2 is lost from the text; read off eqs. (29)-(32), (58), (70),
(72) and (74), see ``docs/knuckle_boom.md``): everything lies in the y-z
plane of Frame k-1, rotations are about x.  With Joint k at the origin,

* the barrel pin B is at ``[0, a_b, -e_b]`` in Frame k-1 (below the joint,
  offset a_b sideways: ``p_{1,b2} = [0, a_b2, l1 - e_b2]`` in eq. (70));
* the piston pin P_k is at ``[0, a_p, e_p]`` in Frame k (``p_{2,P2}`` in
  eq. (72));
* Frame k is turned by ``alpha`` about x (``R_k^{k-1} = Rx(alpha)``) and the
  barrel frame bk, at B, by ``beta`` (``R_bk^{k-1} = Rx(beta)``), its z axis
  pointing from B to P_k: the piston slides along z_bk (eq. (33)).

The cosine rule in the triangle (Joint k, B, P_k) gives the angles, eqs.
(29) and (30).  The rates follow from the paper's virtual work on the
screws of the loop, written out here as the paper states them (Section
3.1): the joint line of Link k referenced to P_k, ``L_alpha`` of eq. (31),
the cylinder's joint line ``L_beta`` of eq. (32) and the piston's screw
``S_q`` of eq. (33), with the unit wrenches ``W_1`` (eq. 34) and ``W_2``
(eq. 38) along z_bk and y_bk, the interchange ``Pi`` (eq. 36) and the
screw transform ``Rbar`` (eq. 21) from Frame k to the barrel frame bk::

    W_i^T Pi (L_beta dbeta/dt + S_q dq/dt) = W_i^T Pi Rbar_k^bk L_alpha dalpha/dt,   i = 1, 2

(eqs. 35 and 39), two linear equations solved here for the rates per unit
piston speed, the gains ``A = d(angle)/dq``.  Their closed forms are eqs.
(37) and (40); the gains' time derivatives (the ``dG/dt u`` of the crane's
joint map) come from the time derivative of the same two equations, whose
screws move with ``q`` (``L_beta``) and ``alpha - beta`` (``Rbar``).

This is the numpy reference of the crane (``KnuckleBoomCrane.joint_map``);
the compiled crane (``blocks/knuckle_boom_kernels.py``) uses the closed
forms (37), (40) and their derivatives, and the tests hold the two to each
other.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .block import ParameterError
from .linalg import solve
from .screw import Pi, Rbar, cross, rot_x, skew

#: the unit wrenches of eqs. (34) and (38) in the barrel frame bk, as rows
#: times the interchange Pi (eq. 36): through the virtual work ``W^T Pi t``
#: they pick the z and y components of the velocity of P_k in a twist ``t``
#: referenced to P_k
_W_PI = np.array([[0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]]) @ Pi
_X = np.array([1.0, 0.0, 0.0])
_S_Q = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 1.0])  # eq. (33)


@dataclass(frozen=True)
class CylinderLoop:
    """One cylinder-driven joint.  Lengths in m: ``l_b`` pin distance of the
    fully retracted cylinder (the barrel length of Table 1), ``a_b``, ``e_b``
    the barrel pin offsets, ``a_p``, ``e_p`` the piston pin offsets;
    ``name`` labels error messages."""

    l_b: float
    a_b: float
    e_b: float
    a_p: float
    e_p: float
    name: str = "cylinder"

    @property
    def geometry(self) -> tuple[float, float, float, float, float]:
        """``(l_b, a_b, e_b, a_p, e_p)`` [m], the arguments of the loop formulas."""
        return self.l_b, self.a_b, self.e_b, self.a_p, self.e_p

    @property
    def b1(self) -> float:
        """Distance from Joint k to the barrel pin [m]."""
        return math.hypot(self.a_b, self.e_b)

    @property
    def b2(self) -> float:
        """Distance from Joint k to the piston pin [m]."""
        return math.hypot(self.a_p, self.e_p)

    def extension_range(self) -> tuple[float, float]:
        """Piston extensions [m] for which the triangle closes (strictly: the
        rate of eq. (37) is finite only inside)."""
        return abs(self.b1 - self.b2) - self.l_b, self.b1 + self.b2 - self.l_b

    def check(self, q: float) -> None:
        lo, hi = self.extension_range()
        if not lo < q < hi:
            raise ParameterError(
                f"{self.name}: a piston extension of {q:g} m makes the pin distance {self.l_b + q:g} m, "
                f"outside ({abs(self.b1 - self.b2):g}, {self.b1 + self.b2:g}) m where the loop of joint, "
                f"barrel pin and piston pin can close")

    def angles(self, q: float) -> tuple[float, float]:
        """``(alpha, beta)`` [rad] for the piston extension ``q`` [m], eqs. (29), (30)."""
        self.check(q)
        lc, b1, b2 = self.l_b + q, self.b1, self.b2
        alpha = (math.acos((lc**2 - b1**2 - b2**2) / (-2 * b1 * b2)) + math.atan(self.a_b / self.e_b)
                 + math.atan(self.a_p / self.e_p) - math.pi)
        beta = -math.acos((b2**2 - b1**2 - lc**2) / (-2 * b1 * lc)) - math.atan(self.e_b / self.a_b) + math.pi / 2
        return alpha, beta

    def screws(self, q: float, alpha: float, beta: float):
        """The loop's screws referenced to the piston pin P_k: ``L_alpha`` in
        Frame k (eq. 31), ``L_beta`` and ``S_q`` in the barrel frame bk (eqs.
        32, 33), and ``Rbar_k^bk`` (eq. 21), the screw transform from Frame k
        to bk, ``R_k^bk = Rx(alpha - beta)``."""
        P_k = np.array([0.0, self.a_p, self.e_p])  # the piston pin from Joint k, Frame k
        P_bk = np.array([0.0, 0.0, self.l_b + q])  # and from the barrel pin B, frame bk
        L_alpha = np.concatenate([_X, cross(_X, P_k)])  # [x; x x r]: P_k's velocity per unit rate
        L_beta = np.concatenate([_X, cross(_X, P_bk)])
        return L_alpha, L_beta, _S_Q, Rbar(rot_x(alpha - beta))

    def loop_state(self, q: float, u: float) -> tuple[float, ...]:
        """``(alpha, beta, A_a, A_b, dA_a/dt, dA_b/dt)``: the angles of eqs.
        (29)-(30), the gains ``A = d(angle)/dq`` [rad/m] from the virtual-work
        equations (35) and (39) (module docstring), and the gains' time
        derivatives along ``dq/dt = u`` [rad/(m s)], from those equations'
        time derivative at a unit piston speed with no piston acceleration:
        the angles' accelerations then are ``dA/dq``, and ``dA/dt = u dA/dq``."""
        alpha, beta = self.angles(q)
        L_alpha, L_beta, S_q, Rb = self.screws(q, alpha, beta)
        # W_i Pi (Rbar L_alpha dalpha - L_beta dbeta) = W_i Pi S_q dq, i = 1, 2: the columns of dalpha, dbeta
        A = np.column_stack([_W_PI @ (Rb @ L_alpha), -(_W_PI @ L_beta)])
        A_a, A_b = solve(A, _W_PI @ S_q)
        # d/dt at dq/dt = 1, d2q/dt2 = 0: Rbar turns at (dalpha - dbeta) about x,
        # L_beta's lever (l_b + q) grows at dq/dt
        dRb = Rbar(rot_x(alpha - beta) @ skew(_X) * (A_a - A_b))
        dL_beta = np.array([0.0, 0.0, 0.0, 0.0, -1.0, 0.0]) * A_b
        dA_a, dA_b = solve(A, -(_W_PI @ (dRb @ L_alpha * A_a - dL_beta)))
        return alpha, beta, A_a, A_b, dA_a * u, dA_b * u

    def rates(self, q: float, u: float) -> tuple[float, float]:
        """``(dalpha/dt, dbeta/dt)`` [rad/s] for extension ``q`` and rate ``u``
        [m/s], eqs. (35) and (39): the gains of :meth:`loop_state` times ``u``."""
        _, _, A_a, A_b, _, _ = self.loop_state(q, u)
        return A_a * u, A_b * u

    def gains(self, q: float) -> tuple[float, float]:
        """``(d alpha/d q, d beta/d q)``: the rates per unit piston speed [rad/m]."""
        return self.rates(q, 1.0)

    def gain_rates(self, q: float, u: float) -> tuple[float, float]:
        """Time derivatives of :meth:`gains` along ``dq/dt = u`` [rad/(m s)]."""
        return self.loop_state(q, u)[4:]

    def pins(self, q: float):
        """Barrel pin B and piston pin P_k in Frame k-1 [m] (3-vectors), and
        the end of the cylinder reached from B along z_bk: it equals P_k when
        the loop closes."""
        alpha, beta = self.angles(q)
        B = np.array([0.0, self.a_b, -self.e_b])
        P = rot_x(alpha) @ np.array([0.0, self.a_p, self.e_p])
        tip = B + rot_x(beta) @ np.array([0.0, 0.0, self.l_b + q])
        return B, P, tip
