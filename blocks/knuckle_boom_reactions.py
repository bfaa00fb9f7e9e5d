"""The reaction wrenches of the knuckle boom crane of Cibicik & Egeland
(2019), Section 4: the total wrench of every body (eq. 49), the loads of
each cylinder on its two supports (eqs. 51-55) and the reactions in Joints
1-3 (eq. 56), for :class:`blocks.knuckle_boom.KnuckleBoomCrane` (a base
class of it: these read its kinematics and Kane's terms).  The compiled
twin is in ``knuckle_boom_kernels.outputs``."""
from __future__ import annotations

import numpy as np

from .kane import acceleration_wrenches
from .screw import cross_rows

#: bodies whose frames the rows of reactions() are in: king, inner boom, outer
#: boom, then barrel 2 (its loads on the king and on the inner boom) and
#: barrel 3 (on the inner and outer booms)
ROWS = [0, 1, 2, 3, 3, 5, 5]


class KnuckleBoomReactions:
    """Reaction wrenches, Section 4 of Cibicik & Egeland (2019)."""

    def _prepare_reactions(self, bodies) -> None:
        """The constants of the reactions: the points of the rows in their
        bodies' frames (the piston pin's distance along the barrel is set per
        call), the cylinders' pin distances and COGs, and the rows beyond
        Joint k: the links k.. and the pins on them (barrel 2 on the king,
        piston 2 and barrel 3 on the inner boom, piston 3 on the outer)."""
        self._row_points = np.zeros((7, 3))
        self._row_points[:3] = [b.com for b in bodies[:3]]
        on_link = np.array([0, 1, 2, 0, 1, 1, 2])
        self._l_b = np.array([loop.l_b for loop in self.loops])
        self._d_b = np.array([bodies[3].com[2], bodies[5].com[2]])
        self._d_p = np.array([bodies[4].com[2], bodies[6].com[2]])
        self._carried_by = np.array([on_link >= k for k in range(3)], dtype=float)
        #: the reactions' arguments of the compiled outputs
        self._reaction_args = (np.array(ROWS, dtype=np.int64), self._row_points, self._carried_by,
                               self._d_b, self._d_p)

    def total_wrenches(self, x, inp, du, dynamics=None):
        """Kinematics and the total wrench ``W_t = W_e - W_in`` (eq. 49) of every
        body at its COG, body coordinates ``[n; f]``: gravity and the tip load, the slewing
        torque on the king, the cylinder forces on barrel (-F) and piston (+F)
        (eqs. 67-68) and the joints' friction torques, less the inertial
        wrench of eq. (48).  ``dynamics``:
        this state's and inputs' ``_dynamics``, if at hand."""
        d = dynamics or self._dynamics(x, inp)
        _, Gt, Gdot_u, _, _ = self._state_terms(x)
        nudot = Gt @ np.concatenate([d.tb_dot, du])
        nudot[6:] += Gdot_u
        W = d.W_g - d.W_v - acceleration_wrenches(self.chain, d.kin, nudot)
        T1, F2, F3, tf1, tf2, tf3 = inp[21:27]
        # friction couples about the joint axes (z1; x of Frames 1 and 2 for
        # Joints 2 and 3, which turn about x with no fixed rotation)
        W[0, 2] += T1 + tf1
        W[1, 0] += tf2 - tf3
        W[0, 0] -= tf2
        W[2, 0] += tf3
        W[3, 5] -= F2
        W[4, 5] += F2
        W[5, 5] -= F3
        W[6, 5] += F3
        return d.kin, W

    def support_loads(self, x, W):
        """Loads of each cylinder on its supports (eqs. 51-55).  The cylinder
        (barrel + piston) is in equilibrium under its total wrenches and the
        support loads; the axial load of each body goes to its own support
        and the supports carry no bending moment, the barrel support the
        torsion (the paper's assumptions, Section 4.2).

        Returns ``(f_B, n_Bz, f_P, l_c)``, rows for cylinders 2 and 3: the
        force on the barrel support at B [N] and the torsion about the axis
        [N m], the force on the piston support at P [N], in the cylinder
        frame, and the pin distance [m]."""
        lc = self._l_b + x[1:3]
        r_p = lc + self._d_p  # piston COG from B along the axis
        nb, fb, npi, fp = W[[3, 5], :3], W[[3, 5], 3:], W[[4, 6], :3], W[[4, 6], 3:]
        # loads of the supports on the cylinder, from its moments about B (x, y)
        # and the piston's axial balance; its loads on the supports are opposite
        f_P = np.empty((2, 3))
        f_P[:, 0] = (nb[:, 1] + npi[:, 1] + self._d_b * fb[:, 0] + r_p * fp[:, 0]) / lc
        f_P[:, 1] = -(nb[:, 0] + npi[:, 0] - self._d_b * fb[:, 1] - r_p * fp[:, 1]) / lc
        f_P[:, 2] = fp[:, 2]
        f_B = fb + fp - f_P
        return f_B, nb[:, 2] + npi[:, 2], f_P, lc

    def reactions(self, x, inp, du, dynamics=None):
        """Reaction wrenches in Joints 1-3 (eq. 56) and the support loads.

        The reaction in Joint k balances the total wrenches of the links
        beyond it and the loads the cylinders put on those links, all moved
        to the origin of Frame k (``Ubar`` and ``Rbar`` of eq. 56):
        ``J_k = -sum W_t,j - sum (cylinder loads)``.  ``J1`` is the constraint
        part of the mount wrench (without the slewing torque).

        The sums are formed once in base coordinates, as force and moment
        about the base origin of each wrench; moving a sum to ``p_k`` is then
        ``n_k = n_O - p_k x f`` (eq. 56 with the transforms applied to the sum,
        which is linear in the wrenches).  Returns ``J1``, ``J2``, ``J3`` and
        ``supports``, the outputs ``B2_*, P2_*, B3_*, P3_*`` in order."""
        kin, W = self.total_wrenches(x, inp, du, dynamics)
        f_B, n_Bz, f_P, lc = self.support_loads(x, W)
        R, p = kin.R, kin.p
        # rows: the links' total wrenches at their COGs, then the cylinder
        # loads on the links' pins, [n; f] in the frame of body ROWS[i]
        local = np.zeros((7, 2, 3))
        local[:3] = W[:3].reshape(3, 2, 3)
        local[3::2, 0, 2], local[3::2, 1], local[4::2, 1] = n_Bz, f_B, f_P
        point = self._row_points.copy()
        point[4::2, 2] = lc
        Rr = R[ROWS]
        nf = (Rr[:, None] @ local[..., None])[..., 0]
        at = p[ROWS] + (Rr @ point[..., None])[..., 0]
        n_O = nf[:, 0] + cross_rows(at, nf[:, 1])
        F, N = self._carried_by @ nf[:, 1], self._carried_by @ n_O
        RT = R[:3].transpose(0, 2, 1)
        J = np.empty((3, 6))
        J[:, :3] = -(RT @ (N - cross_rows(p[:3], F))[..., None])[..., 0]
        J[:, 3:] = -(RT @ F[..., None])[..., 0]
        supports = np.empty(14)
        supports[[0, 1, 2, 7, 8, 9]] = f_B.ravel()
        supports[[3, 10]] = n_Bz
        supports[[4, 5, 6, 11, 12, 13]] = f_P.ravel()
        return {"J1": J[0], "J2": J[1], "J3": J[2], "supports": supports}
