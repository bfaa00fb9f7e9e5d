"""A hoist winch: the drum that pays the wire out and hauls it in, driven by
a motor under a speed loop.

The crane papers have no winch (Cibicik & Egeland 2019 leave the payload
out); this is the simplest winch a heave compensation can be judged with:
the motor's speed loop follows the commanded pay-out speed ``v_ref`` as a
first-order lag of bandwidth ``omega_w`` (the closed loop of a speed
controller on a drive much faster than the wire's dynamics), its speed
limited to ``v_max`` and its acceleration to ``a_max`` (the drive's torque
limit, felt as a rate limit):

    v_c = clip(v_ref, -v_max, v_max),
    dv/dt = clip(omega_w (v_c - v), -a_max, a_max),
    dL/dt = v,

``L`` the paid-out wire length (unstretched) and ``v`` the pay-out speed,
positive paying out (lowering the load).  The wire's tension ``T_wire``
reaches the drum as the torque ``T r_drum`` and asks the power ``-T v``
of the motor (positive hauling in against the load, negative while paying
out, where the drive brakes): what a compensation costs.  The drum's
inertia, the wire's layers and the motor's torque under load are not
modelled: the speed loop is taken to hold whatever the load (an
assumption of a stiff drive; a drive whose torque limit the load reaches
shows as a lower ``a_max``).
"""
from __future__ import annotations

import numpy as np

from .block import Block, Variable

_P = Variable


class Winch(Block):
    model_name = "Winch"
    description = ("A hoist winch: the paid-out wire length and speed from a commanded speed, through a speed "
                   "loop of finite bandwidth with speed and acceleration limits.")
    reference = ("A drum under a speed loop, as a first-order lag of bandwidth omega_w with a speed limit "
                 "v_max and a rate limit a_max (no paper's: the crane papers stop short of the winch).")
    validation = ("A step of the commanded speed below the limits is followed as v_c (1 - exp(-omega_w t)), the "
                  "length as its integral; above the rate limit the speed ramps at a_max and then closes "
                  "exponentially, both to the integrator's error; a command past v_max is held at it; the drum "
                  "torque and power are T r_drum and -T v.")
    parameters = (
        _P("l_wire_0", "m", 20.0, "Paid-out wire length at the start, unstretched (default 20 m)"),
        _P("v_wire_0", "m/s", 0.0, "Pay-out speed at the start"),
        _P("omega_w", "rad/s", 10.0, "Bandwidth of the speed loop: the drive follows the commanded speed as "
                                     "1 / (1 + s / omega_w) (default 10 rad/s, a time constant of 0.1 s)"),
        _P("v_max", "m/s", 1.5, "Largest pay-out or haul-in speed (default 1.5 m/s, an offshore crane's "
                                "main winch at full load)"),
        _P("a_max", "m/s2", 1.0, "Largest acceleration of the wire (default 1 m/s2: the drive's torque limit)"),
        _P("r_drum", "m", 0.5, "Drum radius to the wire's layer (default 0.5 m)"),
    )
    inputs = (_P("v_ref", "m/s", 0.0, "Commanded pay-out speed, positive paying out (lowering the load)"),
              _P("T_wire", "N", 0.0, "Wire tension at the drum (a Payload's T_wire)"))
    outputs = (_P("l_wire", "m", 20.0, "Paid-out wire length, unstretched, L"),
               _P("dl_wire", "m/s", 0.0, "Pay-out speed, dL/dt, positive paying out"),
               _P("tau_drum", "N.m", 0.0, "Torque of the wire on the drum, T r_drum"),
               _P("P_winch", "W", 0.0, "Power the winch's motor delivers to the wire, -T dL/dt (positive hauling "
                                       "in against the load)"))
    states = (_P("l_wire", "m", 20.0, "Paid-out wire length"), _P("v_wire", "m/s", 0.0, "Pay-out speed"))
    feedthrough = (("l_wire", ()), ("dl_wire", ()), ("*", ("T_wire",)))
    #: a command of 1 m/s from rest: the speed loop's lag, then the rate limit
    reference_experiment = {"v_ref": 1.0}
    max_step = 1e-3
    default_stop_time = 5.0
    default_step = 1e-3

    def setup(self):
        self.require_positive("l_wire_0", "omega_w", "v_max", "a_max", "r_drum")

    def initial_state(self):
        return np.array([self.p.l_wire_0, self.p.v_wire_0])

    def commanded_speed(self, v_ref: float) -> float:
        """The speed the loop follows [m/s]: ``v_ref`` held within ``v_max``."""
        return min(max(v_ref, -self.p.v_max), self.p.v_max)

    def derivatives(self, t, x, u):
        p = self.p
        dv = p.omega_w * (self.commanded_speed(u[0]) - x[1])
        return np.array([x[1], min(max(dv, -p.a_max), p.a_max)])

    def output(self, t, x, u):
        return np.array([x[0], x[1], u[1] * self.p.r_drum, -u[1] * x[1]])
