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

The cosine rule in the triangle (Joint k, B, P_k) gives eqs. (29) and (30);
the rates follow from virtual work, eqs. (37) and (40).  The formulas are in
``blocks/knuckle_boom_kernels.py``, shared with the compiled crane.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .block import ParameterError
from .knuckle_boom_kernels import loop_angles, loop_state
from .screw import rot_x


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
        return loop_angles(q, *self.geometry)

    def rates(self, q: float, u: float) -> tuple[float, float]:
        """``(dalpha/dt, dbeta/dt)`` [rad/s] for extension ``q`` and rate ``u``
        [m/s], eqs. (37) and (40): the gains of :meth:`loop_state` times ``u``."""
        _, _, A_a, A_b, _, _ = self.loop_state(q, u)
        return A_a * u, A_b * u

    def gains(self, q: float) -> tuple[float, float]:
        """``(d alpha/d q, d beta/d q)``: the rates of eqs. (37) and (40) per
        unit piston speed [rad/m]."""
        return self.rates(q, 1.0)

    def gain_rates(self, q: float, u: float) -> tuple[float, float]:
        """Time derivatives of :meth:`gains` along ``dq/dt = u`` [rad/(m s)]."""
        return self.loop_state(q, u)[4:]

    def loop_state(self, q: float, u: float) -> tuple[float, ...]:
        """``(alpha, beta, A_a, A_b, dA_a/dt, dA_b/dt)`` in one pass: the
        angles of eqs. (29)-(30), the gains ``A = d(angle)/dq`` of eqs. (37)
        and (40), and their time derivatives along ``dq/dt = u``
        (:func:`blocks.knuckle_boom_kernels.loop_state`)."""
        self.check(q)
        return loop_state(q, u, *self.geometry)

    def pins(self, q: float):
        """Barrel pin B and piston pin P_k in Frame k-1 [m] (3-vectors), and
        the end of the cylinder reached from B along z_bk: it equals P_k when
        the loop closes."""
        alpha, beta = self.angles(q)
        B = np.array([0.0, self.a_b, -self.e_b])
        P = rot_x(alpha) @ np.array([0.0, self.a_p, self.e_p])
        tip = B + rot_x(beta) @ np.array([0.0, 0.0, self.l_b + q])
        return B, P, tip

