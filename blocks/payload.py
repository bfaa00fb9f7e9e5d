"""A payload hanging on an elastic hoist wire from a crane's tip.

The crane papers stop short of the load (Cibicik & Egeland 2019: "it is
straightforward to extend the presented procedure and include the
payload"); this block is the load: a point mass ``m`` on a wire paid out
to the unstretched length ``L`` (an input: the winch's), from the tip at
``p_tip`` (an input, with its velocity ``v_tip``; Frame 0, earth-fixed, z
up, gravity along -z).

The state is the payload's position relative to the tip, ``r = p - p_tip``
(Frame-0 axes), and its velocity ``v`` in Frame 0.  With ``d = |r|``,
``e = r / d`` and the stretch ``s = d - L``, the wire pulls with the
tension

    T = max(0, EA / L (s + beta ds/dt)) where s > 0, else 0,
    ds/dt = e . (v - v_tip) - dL/dt,

a spring of stiffness ``k = EA / L`` (a straight elastic rod, the wire's
mass neglected) with stiffness-proportional damping ``beta`` (Rayleigh's,
a damping ratio ``beta omega / 2`` at the vertical mode's ``omega``), that
never pushes: a slack wire (``s <= 0``) carries nothing, and one that
goes taut again snaps.  ``dr/dt = v - v_tip``,

    m dv/dt = m g - T e + F_tag + F_air,

``F_tag = -c_tag (v - v_tip)_h`` the tag (tugger) lines that steady a
lift, a horizontal damper on the payload's swing (its motion across the
tip's, x0 and y0; a damping ratio ``c_tag / (2 m sqrt(g / l))`` of the
pendulum of length ``l``), held from the deck, which takes their pull (the
tip does not; the vessel's share of it, some hundred newtons, is left
out); ``F_air = -rho_air C_d A |v| v / 2`` the air's drag in still air.
The wire pulls the tip with ``F_tip = T e`` (Frame 0), the hook load is
``T``.  The run starts with the payload hanging at rest below the tip on
the wire paid out to ``l_wire_0``, stretched by ``m g / k``.
"""
from __future__ import annotations

import math

import numpy as np

from .block import Block, Variable, vector
from .interface import TIP_LOAD, TIP_MOTION

_P = Variable


class Payload(Block):
    model_name = "Payload"
    description = ("A payload on an elastic hoist wire from the crane's tip: a point mass, the wire a spring "
                   "with damping that never pushes (slack, and the snap when it goes taut again); tag lines damp "
                   "its swing, the air drags it.")
    reference = ("The payload Cibicik & Egeland (2019) leave out, as a point mass on an elastic wire: "
                 "tension EA / L (stretch + beta stretch rate) while taut, zero while slack; the snap load of a "
                 "mass falling into a taut wire as DNV-RP-H103 (2011), section 4.7, writes it in its limit of a "
                 "stiff wire.")
    validation = ("At rest below a fixed tip the hook load is m g and the stretch m g L / EA (to round-off); "
                  "small swings have the pendulum's period 2 pi sqrt((L + m g / k) / g) and vertical ones "
                  "2 pi sqrt(m / k); a mass falling into a taut wire from slack peaks at the energy balance's "
                  "m g + sqrt((m g)^2 + 2 m g h k) (DNV-RP-H103's v sqrt(k m) its stiff limit); without damping "
                  "the energy is kept over a run, slack and taut; tag lines damp the swing at the damping ratio "
                  "c_tag / (2 m sqrt(g / l)); the air's drag takes the energy its work says.")
    parameters = (
        _P("m_payload", "kg", 10000.0, "Payload mass, m (default 10 t)"),
        _P("EA", "N", 8.8e7, "Axial stiffness of the wire, E A (default: a 40 mm steel wire rope, metallic "
                             "area 0.7 of its circle, rope modulus 100 GPa: 8.8e7 N)"),
        _P("beta_wire", "s", 0.005, "Stiffness-proportional (Rayleigh) damping of the wire, beta: the damping "
                                    "force beta k ds/dt (default 0.005 s: a damping ratio of 5% at a vertical "
                                    "mode of 20 rad/s, as a steel rope with its internal friction)",
           tunable=True),
        _P("c_tag", "N.s/m", 0.0, "Tag (tugger) lines: horizontal damping of the payload's swing, the force "
                                  "-c_tag (v - v_tip) along x0 and y0, the lines' pull taken by the deck (a damping "
                                  "ratio c_tag / (2 m sqrt(g / l)) of the pendulum of length l; 0: none)", tunable=True),
        _P("CdA", "m2", 0.0, "Drag area of the payload in air, C_d A (the drag rho_air C_d A |v| v / 2 in still "
                             "air; 0: none)", tunable=True),
        _P("rho_air", "kg/m3", 1.225, "Density of the air"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0"),
        _P("l_wire_0", "m", 20.0, "Paid-out wire length at the start (unstretched), where the payload hangs at "
                                  "rest; a system whose winch drives l_wire sets it to the winch's first length "
                                  "(default 20 m)"),
    )
    inputs = (TIP_MOTION
              + (_P("l_wire", "m", 20.0, "Paid-out wire length, unstretched, L (the winch's; default 20 m, as "
                                         "l_wire_0)"),
                 _P("dl_wire", "m/s", 0.0, "Pay-out rate, dL/dt (the winch's)")))
    outputs = (TIP_LOAD
               + (_P("T_wire", "N", 0.0, "Wire tension, the hook load T"),)
               + vector("payload_p", "m", "Position of the payload, Frame 0, {c}")
               + vector("payload_v", "m/s", "Velocity of the payload, Frame 0, {c}")
               + (_P("swing", "m", 0.0, "The payload's swing: its horizontal distance from the vertical through "
                                        "the tip"),
                  # the Boolean after every Real: the compiled master step exchanges them so
                  _P("slack", "1", False, "The wire is slack (its length between tip and payload not over L)",
                     type="Boolean")))
    states = (vector("r", "m", "Payload's position relative to the tip, p - p_tip, Frame-0 axes, {c}")
              + vector("v", "m/s", "Payload's velocity, Frame 0, {c}"))
    feedthrough = (("payload_p_*", ("tip_p_*",)), ("payload_v_*", ()), ("slack", ("l_wire",)), ("swing", ()),
                   ("*", (("tip_v_*",), "l_wire", "dl_wire")))
    #: the tip moving sideways at 0.5 m/s from rest: the payload lags and swings
    reference_experiment = {"tip_v_x": 0.5}
    draws = "load"
    max_step = 1e-3
    default_stop_time = 10.0
    default_step = 1e-3

    def setup(self):
        p = self.p
        self.require_positive("m_payload", "EA", "g", "l_wire_0")
        self.require_positive("beta_wire", "c_tag", "CdA", "rho_air", allow_zero=True)
        self.gravity = np.array([0.0, 0.0, -p.g])

    def stiffness(self, L: float) -> float:
        """The wire's stiffness ``k = EA / L`` [N/m] at the unstretched length ``L``."""
        return self.p.EA / L

    def initial_state(self):
        p = self.p
        hang = p.l_wire_0 + p.m_payload * p.g / self.stiffness(p.l_wire_0)
        return np.array([0.0, 0.0, -hang, 0.0, 0.0, 0.0])

    @staticmethod
    def _dot(a, b) -> float:
        """``a . b`` of two 3-vectors, summed in a fixed order: a BLAS dot
        (numpy's ``@``) sums in an order its build picks, which moves the
        last bits between platforms, and the wire's stiffness grows those
        into a different run."""
        return float(a[0] * b[0] + a[1] * b[1] + a[2] * b[2])

    def tension(self, x, u) -> tuple[float, np.ndarray]:
        """``(T, e)``: the wire's tension [N] and its direction from the tip
        to the payload (Frame 0) at state ``x`` and inputs ``u``."""
        return self._pull(x[:3], x[3:6], u)

    def _pull(self, end, end_v, u) -> tuple[float, np.ndarray]:
        """``(T, e)`` of the module's docstring for the wire's end at ``end``
        from the tip (Frame-0 axes) moving at ``end_v`` (Frame 0), with the
        inputs ``u``: the payload's, or a rigid payload's lift point."""
        L, dL = u[6], u[7]
        d = math.sqrt(self._dot(end, end))
        e = end / d if d > 0.0 else np.array([0.0, 0.0, -1.0])
        s = d - L
        if s <= 0.0:
            return 0.0, e
        rate = self._dot(e, end_v - u[3:6]) - dL
        return max(0.0, self.stiffness(L) * (s + self.p.beta_wire * rate)), e

    def damping(self, x, u) -> np.ndarray:
        """The tag lines' and the air's force on the payload [N] (Frame 0) at
        state ``x`` and inputs ``u``: ``F_tag + F_air`` of the module's
        docstring."""
        p, v = self.p, x[3:6]
        relative = v - u[3:6]
        force = np.array([-p.c_tag * relative[0], -p.c_tag * relative[1], 0.0])
        return force - 0.5 * p.rho_air * p.CdA * math.sqrt(self._dot(v, v)) * v

    def derivatives(self, t, x, u):
        T, e = self.tension(x, u)
        m = self.p.m_payload
        return np.concatenate([x[3:] - u[3:6], self.gravity + (self.damping(x, u) - T * e) / m])

    def output(self, t, x, u):
        T, e = self.tension(x, u)
        slack = float(math.sqrt(self._dot(x, x)) <= u[6])
        return np.concatenate([T * e, [T], u[:3] + x[:3], x[3:], [math.hypot(x[0], x[1]), slack]])

    def energy(self, x, u) -> tuple[float, float, float]:
        """``(kinetic, gravity, elastic)`` energy [J] at state ``x``: the
        payload's ``m |v|^2 / 2``, its ``m g z`` about the tip's height, and
        the wire's ``k s^2 / 2`` while taut (the damping's work apart:
        the wire's, the tag lines', the air's)."""
        m, r, v = self.p.m_payload, x[:3], x[3:]
        s = math.sqrt(self._dot(r, r)) - u[6]
        return 0.5 * m * float(v @ v), m * self.p.g * float(r[2]), 0.5 * self.stiffness(u[6]) * max(s, 0.0) ** 2
