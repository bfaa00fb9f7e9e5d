"""Active heave compensation: the winch's speed command that holds the
payload still in the earth frame while the crane's tip heaves with the
vessel.

The crane papers stop short of the load; this is the textbook law of an
active heave compensator (a motion reference unit's measured velocity of
the point the wire leaves, fed forward to the winch, with a correction of
the wire length): the tip's vertical velocity ``w = tip_v_z`` (Frame 0,
the vessel's and the crane's motion at the tip) is integrated into the
tip's heave since the start, ``h``, and

    L_ref = l_wire_0 + v_set t + h,
    v_ref = v_set + w + K_p (L_ref - L),

so that the hook's height ``z_tip - L`` keeps its start, less the set
lowering ``v_set t``.  Switched off (``on`` false) the law holds the set
length ``l_wire_0 + v_set t`` alone.  With the winch of ``blocks/winch.py``
(a speed loop ``G = omega_w / (s + omega_w)``) and no limit reached, the
hook's residual heave per unit heave of the tip is

    E / Z = s^2 / (s^2 + omega_w s + omega_w K_p),

which the tests check; at Tp = 8 s with the default winch (10 rad/s) and
``K_p = 1 1/s`` it is 5%: 95% of the heave compensated.  The wire's
stretch under a changing tension is not measured and not compensated.
"""
from __future__ import annotations

import numpy as np

from .block import Block, Variable

_P = Variable


class HeaveCompensation(Block):
    model_name = "HeaveCompensation"
    description = ("Active heave compensation: the winch's speed command from the crane tip's measured vertical "
                   "velocity, fed forward, and the wire length's error.")
    reference = ("The feed-forward law of an active heave compensator: the winch pays out at the tip's measured "
                 "vertical velocity, corrected by K_p times the error of the wire length against the start's plus "
                 "the tip's heave (no paper's: the crane papers stop short of the load).")
    validation = ("With the winch's speed loop and a tip heaving sinusoidally, the hook's residual heave is "
                  "s^2 / (s^2 + omega_w s + omega_w K_p) of the tip's, to the integrator's error; switched off, "
                  "the wire length is held.")
    parameters = (
        _P("on", "", True, "Compensation on (false: the wire length is held at l_wire_0 + v_set t)", type="Boolean"),
        _P("K_p", "1/s", 1.0, "Gain on the wire length's error (default 1 1/s: the length's error decays in 1 s, "
                              "well below a wave's frequency)"),
        _P("l_wire_0", "m", 20.0, "Paid-out wire length at the start (the winch's; default 20 m)"),
        _P("v_set", "m/s", 0.0, "Set pay-out speed: the payload lowered (positive) or hoisted at it"),
    )
    inputs = (_P("tip_v_z", "m/s", 0.0, "Vertical velocity of the crane's tip, Frame 0 (the motion reference "
                                        "unit's measurement)"),
              _P("l_wire", "m", 20.0, "Paid-out wire length (the winch's)"))
    outputs = (_P("v_ref", "m/s", 0.0, "Commanded pay-out speed of the winch, positive paying out"),
               _P("heave_tip", "m", 0.0, "The tip's heave since the start, h (the integral of tip_v_z)"))
    states = (_P("h", "m", 0.0, "The tip's heave since the start, the integral of tip_v_z"),)
    feedthrough = (("v_ref", ("tip_v_z", "l_wire")), ("heave_tip", ()))
    #: the tip rising at 0.5 m/s: the winch is told to pay out as fast
    reference_experiment = {"tip_v_z": 0.5}
    max_step = 1e-3
    default_stop_time = 5.0
    default_step = 1e-3

    def setup(self):
        self.require_positive("l_wire_0")
        self.require_positive("K_p", allow_zero=True)

    def initial_state(self):
        return np.zeros(1)

    def derivatives(self, t, x, u):
        return np.array([u[0]])

    def output(self, t, x, u):
        p = self.p
        on = float(bool(p.on))
        target = p.l_wire_0 + p.v_set * t + on * x[0]
        return np.array([p.v_set + on * u[0] + p.K_p * (target - u[1]), x[0]])
