"""Hydraulic cylinder: the actuator of the knuckle boom crane of
Cibicik & Egeland (2019) (Section 4.2: an axial force on the piston and the
opposite force on the barrel), either as an ideal force actuator, as in the
paper, or as a valve-controlled hydraulic cylinder.

Hydraulic model (all pressures absolute, Pa):

* chambers A (piston side, area ``A_A = pi bore^2 / 4``) and B (rod side,
  ``A_B = A_A - pi rod^2 / 4``) with volumes ``V_A = V_A0 + A_A x`` and
  ``V_B = V_B0 + A_B (stroke - x)``, ``x`` the piston extension from fully
  retracted;
* pressure build-up ``dp_A/dt = beta / V_A (Q_A - A_A v - Q_L)``,
  ``dp_B/dt = beta / V_B (Q_B + A_B v + Q_L)``;
* a proportional, critically centred, symmetric 4/3 valve with spool command
  ``u`` in [-1, 1]: for ``u > 0`` supply to A and B to tank, for ``u < 0`` the
  reverse; each open edge is an orifice ``Q = K_v |u| sign(dp) sqrt(|dp|)``
  with ``K_v = Q_nom / sqrt(dp_nom)`` (the valve's datasheet rating),
  the square root regularized below ``p_tr`` (laminar transition) so that
  the flow is smooth through zero;
* internal leakage ``Q_L = C_L (p_A - p_B)`` from A to B;
* pressures never below ``p_vap`` (cavitation: the chamber fills with vapour
  instead of going to negative pressure);
* end stops: a stiff spring-damper beyond 0 and ``stroke``.

The piston force, positive extending, is ``F = p_A A_A - p_B A_B + F_end +
F_seal``, the seal friction ``F_seal`` an input: the friction of every
joint of a crane, seals included, comes from one friction block
(``KnuckleBoomFriction``), where one parameter chooses each joint's law
and all bristle states live, so that the cylinder stays a hydraulic model
and an ideal actuator (``hydraulic = false``) gets its seals' friction too.
The pressure dynamics are stiff (``beta / V`` is large, most of all near an
end), so the block integrates them with the backward Euler rule and Newton
iterations, in sub-steps no longer than ``h_max``: stable at any
communication step.  The position and velocity are inputs, held over a
step.

Defaults are sized for the inner cylinder of the crane of Tables 1-2 (36 t):
holding about 1.4 MN at 250 bar needs a bore of about 0.27 m; a 320/200 mm
cylinder with 1.8 m stroke, a valve rated 600 l/min at 35 bar per edge,
effective bulk modulus 1.2 GPa (oil with hoses), 5 l dead volume per side.
"""
from __future__ import annotations

import math

import numpy as np

from .block import ParameterError, Variable
from .compiled_block import CompiledBlock, floats

_P = Variable


class HydraulicCylinder(CompiledBlock):
    model_name = "HydraulicCylinder"
    description = ("Cylinder actuator: ideal axial force, or valve-controlled hydraulic cylinder with "
                   "chamber pressures, 4/3 proportional valve, leakage, cavitation and end stops.")
    reference = ("The cylinder actuator of Cibicik & Egeland (2019), Section 4.2 (an axial force on piston and "
                 "barrel), ideal as in the paper or valve-controlled: chamber pressure build-up through the "
                 "bulk modulus, a critically centred 4/3 orifice valve, leakage, cavitation and end stops (the "
                 "project's own lumped model).")
    validation = ("A locked piston builds pressure at beta / V_A times the valve's flow (to 1e-12) and a "
                  "closed valve holds a 60 t load within 0.1 mm for 5 s; over a driven second the supply "
                  "energy equals the mechanical, compression and loss energies to 0.5%; at a 1 ms step the "
                  "pressures follow a 1 us reference within 2% of the transient, the error halving with the "
                  "step.")
    stiff = True
    parameters = (
        _P("hydraulic", "1", True, "Hydraulic model (true) or ideal force actuator F = F_demand (false)",
           "Boolean"),
        _P("bore", "m", 0.32, "Piston (bore) diameter"),
        _P("rod", "m", 0.20, "Rod diameter"),
        _P("stroke", "m", 1.8, "Stroke: the piston extension x runs from 0 to stroke"),
        _P("V_A0", "m3", 5e-3, "Dead volume of chamber A (piston side) at x = 0, hoses included"),
        _P("V_B0", "m3", 5e-3, "Dead volume of chamber B (rod side) at x = stroke, hoses included"),
        _P("beta", "Pa", 1.2e9, "Effective bulk modulus of the oil"),
        _P("p_S", "Pa", 25e6, "Supply pressure (absolute)", tunable=True),
        _P("p_T", "Pa", 1e5, "Tank pressure (absolute)", tunable=True),
        _P("p_vap", "Pa", 5e3, "Vapour pressure: the lowest a chamber pressure can go"),
        _P("Q_nom", "m3/s", 0.01, "Valve nominal flow per edge at full opening and dp_nom (600 l/min)"),
        _P("dp_nom", "Pa", 3.5e6, "Pressure drop per edge at which Q_nom is rated (35 bar)"),
        _P("p_tr", "Pa", 1e5, "Pressure drop below which the orifice flow turns laminar (regularization)"),
        _P("C_L", "m3/(s.Pa)", 2e-13, "Internal leakage coefficient, A to B"),
        _P("k_end", "N/m", 1e9, "End-stop stiffness"),
        _P("c_end", "N.s/m", 1e7, "End-stop damping"),
        _P("p_A0", "Pa", 1e5, "Initial pressure in chamber A"),
        _P("p_B0", "Pa", 1e5, "Initial pressure in chamber B"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (backward Euler; stable at any step, "
                                 "accurate while it is short against the oil-column period)"),
    )
    inputs = (
        _P("valve", "1", 0.0, "Valve spool command, -1 (B to supply) .. 1 (A to supply); clipped"),
        _P("F_demand", "N", 0.0, "Force demand, used by the ideal actuator only"),
        _P("x", "m", 0.0, "Piston extension from fully retracted"),
        _P("v", "m/s", 0.0, "Piston extension rate"),
        _P("F_seal", "N", 0.0, "Friction force of the seals on the piston, positive extending (from a friction "
                               "block: it opposes the extension rate)"),
    )
    outputs = (
        _P("F", "N", 0.0, "Axial force on the piston, positive extending (the barrel gets -F): oil, end stops "
                          "and seal friction"),
        _P("p_A", "Pa", 1e5, "Pressure in chamber A (piston side)"),
        _P("p_B", "Pa", 1e5, "Pressure in chamber B (rod side)"),
        _P("Q_A", "m3/s", 0.0, "Flow from the valve into chamber A"),
        _P("Q_B", "m3/s", 0.0, "Flow from the valve into chamber B"),
        _P("Q_S", "m3/s", 0.0, "Flow drawn from the supply"),
        _P("Q_T", "m3/s", 0.0, "Flow returned to the tank"),
        _P("P_supply", "W", 0.0, "Hydraulic power in, p_S Q_S - p_T Q_T"),
        _P("P_loss", "W", 0.0, "Power lost in the valve orifices and the internal leakage"),
    )
    states = (_P("p_A", "Pa", 1e5, "pressure in chamber A"), _P("p_B", "Pa", 1e5, "pressure in chamber B"))
    # the pressures are the state; the flows and powers follow from them and
    # the valve; the force adds the end stops (piston position and speed) and,
    # for the ideal actuator, is the demand itself
    feedthrough = (("F", ("F_demand", "x", "v", "F_seal")), ("p_*", ()), ("Q_*", ("valve",)), ("P_*", ("valve",)))
    #: the compiled twin of the outputs, rates and stiff step, the same bits
    #: as the numpy code below, its reference
    kernel_module = "hydraulics_kernels"
    compile_name = "the hydraulic cylinder"
    numpy_slowdown = "its steps about twenty times slower"

    def setup(self):
        p = self.p
        self.require_positive("bore", "rod", "stroke", "V_A0", "V_B0", "beta", "p_S", "p_T", "Q_nom", "dp_nom",
                              "p_tr", "h_max")
        self.max_step = p.h_max
        self.require_positive("p_vap", "C_L", "k_end", "c_end", allow_zero=True)
        if p.rod >= p.bore:
            raise ParameterError(f"HydraulicCylinder parameter rod = {p.rod:g} m is invalid: it must be "
                                 f"smaller than the bore, {p.bore:g} m (the annulus area would be zero or negative)")
        if not p.p_vap <= p.p_T < p.p_S:
            raise ParameterError(f"HydraulicCylinder pressures are inconsistent: need p_vap <= p_T < p_S, "
                                 f"got {p.p_vap:g}, {p.p_T:g}, {p.p_S:g} Pa")
        for name in ("p_A0", "p_B0"):
            if self.values[name] < p.p_vap:
                raise ParameterError(f"HydraulicCylinder parameter {name} = {self.values[name]:g} Pa is invalid: "
                                     f"it must not be below p_vap = {p.p_vap:g} Pa")
        self.K_v = p.Q_nom / math.sqrt(p.dp_nom)
        self.A_A = math.pi * p.bore**2 / 4
        self.A_B = self.A_A - math.pi * p.rod**2 / 4
        # the kernels' parameters, in the order of hydraulics_kernels' indices
        self._kernel_args = (np.array([float(p.hydraulic), self.K_v, p.p_S, p.p_T, p.p_tr, p.C_L, p.beta, p.V_A0,
                                       p.V_B0, self.A_A, self.A_B, p.stroke, p.p_vap, p.k_end, p.c_end]),)

    def _warm_up(self):
        x0, u0 = self.initial_state(), self.default_inputs()
        self._compiled("outputs", 0.0, x0, u0)
        self._compiled("rates", 0.0, x0, u0)
        self._compiled_advance(x0, u0, self.max_step)

    def _compiled_advance(self, x, u, h):
        """The compiled stiff step (``None`` without numba or where its
        result is not finite)."""
        n = max(1, math.ceil(h / self.max_step - 1e-9))
        return self._compiled_call("advance", floats(x), floats(u), float(h), n)

    def initial_state(self):
        return np.array([self.p.p_A0, self.p.p_B0])

    # -- the model, on plain floats: two states, called in a Newton loop ------
    def _orifice(self, dp: float) -> float:
        """``sign(dp) sqrt(|dp|)``, made linear below ``p_tr`` (``dp / sqrt(p_tr)``
        at zero), and its derivative."""
        ptr = self.p.p_tr
        r = (dp * dp + ptr * ptr) ** 0.25
        return dp / r, (1.0 - 0.5 * dp * dp / (r**4)) / r

    def _valve(self, u: float, pA: float, pB: float):
        """Flows into A and B, supply and tank flows, and d(Q_A)/d(p_A), d(Q_B)/d(p_B)."""
        p = self.p
        u = min(1.0, max(-1.0, u))
        k = self.K_v * abs(u)
        if u >= 0.0:  # P -> A, B -> T
            fa, da = self._orifice(p.p_S - pA)
            fb, db = self._orifice(pB - p.p_T)
            QA, QB = k * fa, -k * fb
            return QA, QB, QA, -QB, -k * da, -k * db
        fa, da = self._orifice(pA - p.p_T)  # A -> T, P -> B
        fb, db = self._orifice(p.p_S - pB)
        QA, QB = -k * fa, k * fb
        return QA, QB, QB, -QA, -k * da, -k * db

    def _rates(self, pA: float, pB: float, u: float, x: float, v: float):
        """dp_A/dt, dp_B/dt and the diagonal of their Jacobian (the coupling
        through the leakage is added by the caller)."""
        p = self.p
        VA = p.V_A0 + self.A_A * min(max(x, 0.0), p.stroke)
        VB = p.V_B0 + self.A_B * (p.stroke - min(max(x, 0.0), p.stroke))
        QA, QB, _, _, dQA, dQB = self._valve(u, pA, pB)
        QL = p.C_L * (pA - pB)
        kA, kB = p.beta / VA, p.beta / VB
        return (kA * (QA - self.A_A * v - QL), kB * (QB + self.A_B * v + QL),
                kA * (dQA - p.C_L), kB * (dQB - p.C_L), kA * p.C_L, kB * p.C_L)

    def derivatives(self, t, x, u):
        dx = self._compiled("rates", t, x, u)
        return dx if dx is not None else self._derivatives(x, u)

    def advance(self, t, x, u, h):
        """Backward Euler with Newton iterations on the two pressures, in
        sub-steps of at most ``h_max``; pressures are kept at or above
        ``p_vap`` (compiled; :meth:`_advance` the reference)."""
        x1 = self._compiled_advance(x, u, h)
        return x1 if x1 is not None else self._advance(x, u, h)

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        return y if y is not None else self._output(x, u)

    # -- the numpy code: the reference of the kernels ---------------------------
    def _derivatives(self, x, u):
        if not self.p.hydraulic:
            return np.zeros(2)
        dA, dB, *_ = self._rates(x[0], x[1], u[0], u[2], u[3])
        # a chamber at vapour pressure cannot go lower
        if x[0] <= self.p.p_vap and dA < 0:
            dA = 0.0
        if x[1] <= self.p.p_vap and dB < 0:
            dB = 0.0
        return np.array([dA, dB])

    def _advance(self, x, u, h):
        if not self.p.hydraulic:
            return x
        n = max(1, math.ceil(h / self.max_step - 1e-9))
        dt = h / n
        uv, xp, vp = float(u[0]), float(u[2]), float(u[3])
        pA, pB = float(x[0]), float(x[1])
        pmin = self.p.p_vap
        for _ in range(n):
            a0, b0 = pA, pB
            for _ in range(30):
                fA, fB, jAA, jBB, jAB, jBA = self._rates(pA, pB, uv, xp, vp)
                # residual r = p - p0 - dt f(p); Jacobian I - dt df/dp
                rA, rB = pA - a0 - dt * fA, pB - b0 - dt * fB
                m11, m12, m21, m22 = 1.0 - dt * jAA, -dt * jAB, -dt * jBA, 1.0 - dt * jBB
                det = m11 * m22 - m12 * m21
                dA = (rA * m22 - rB * m12) / det
                dB = (m11 * rB - m21 * rA) / det
                pA, pB = max(pA - dA, pmin), max(pB - dB, pmin)
                if abs(dA) < 1e-9 * (abs(pA) + 1.0) and abs(dB) < 1e-9 * (abs(pB) + 1.0):
                    break
        return np.array([pA, pB])

    def _output(self, x, u):
        p = self.p
        xp, vp = float(u[2]), float(u[3])
        over = xp - p.stroke if xp > p.stroke else (xp if xp < 0.0 else 0.0)
        if p.k_end * abs(over) > 10.0 * p.p_S * self.A_A:
            # No load the cylinder can meet pushes the end stop this far: the
            # piston position comes from a crane whose stroke is not this one's.
            raise ValueError(f"the piston position input x = {xp:g} m is {abs(over):g} m beyond the stroke "
                             f"0..{p.stroke:g} m, farther than ten times the cylinder's stall force "
                             f"(p_S A_A) would push the end stop; does parameter stroke match the crane's?")
        F_end = -p.k_end * over - (p.c_end * vp if over != 0.0 else 0.0)
        if not p.hydraulic:
            return np.array([float(u[1]) + F_end + float(u[4]), x[0], x[1], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        pA, pB = float(x[0]), float(x[1])
        QA, QB, QS, QT, _, _ = self._valve(float(u[0]), pA, pB)
        QL = p.C_L * (pA - pB)
        P_supply = p.p_S * QS - p.p_T * QT
        # losses: what the supply delivers beyond the power into the chambers, plus leakage
        P_loss = P_supply - (pA * QA + pB * QB) + (pA - pB) * QL
        F = pA * self.A_A - pB * self.A_B + F_end + float(u[4])
        return np.array([F, pA, pB, QA, QB, QS, QT, P_supply, P_loss])
