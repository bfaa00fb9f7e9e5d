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
    v_ref = v_set + w + clip(K_p (L_ref - L), -v_trim, v_trim),

so that the hook's height ``z_tip - L`` keeps its start, less the set
lowering ``v_set t``.  Switched off (``on`` false) the law holds the set
length ``l_wire_0 + v_set t`` alone.  With the winch of ``blocks/winch.py``
(a speed loop ``G = omega_w / (s + omega_w)``) and no limit reached, the
hook's residual heave per unit heave of the tip is

    E / Z = s^2 / (s^2 + omega_w s + omega_w K_p),

which the tests check; at Tp = 8 s with the default winch (10 rad/s) and
``K_p = 1 1/s`` it is 5%: 95% of the heave compensated.  The wire's
stretch under a changing tension is not measured and not compensated.

The length's correction is held within ``v_trim`` because a winch at its
acceleration limit ``a_max`` falls behind the tip, and an unlimited
correction, late, then drives the rate-limited loop into a limit cycle in
which the hook heaves more than the tip (a regular heave 1.3 times past
the limit: 1.2 times the tip's).  Where the winch can follow, the
correction never reaches ``a_max / omega_w``: in the loop above it is
``K_p / (s^2 + omega_w s + omega_w K_p)`` times the tip's acceleration,
whose impulse response is positive (real poles, ``omega_w >= 4 K_p``)
with integral ``1 / omega_w``, so a tip accelerating within ``a_max``
asks at most ``a_max / omega_w`` of it.  The default ``v_trim`` is that
bound for the default winch (1 m/s2 over 10 rad/s): the law above
unchanged wherever the winch can follow, the correction limited to
taking out the slow drift of the length where it cannot.
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
                  "the wire length is held; the correction stays below a_max / omega_w while the winch follows, "
                  "and past the winch's acceleration limit the hook heaves less than the tip.")
    parameters = (
        _P("on", "", True, "Compensation on (false: the wire length is held at l_wire_0 + v_set t)", type="Boolean"),
        _P("K_p", "1/s", 1.0, "Gain on the wire length's error (default 1 1/s: the length's error decays in 1 s, "
                              "well below a wave's frequency)"),
        _P("l_wire_0", "m", 20.0, "Paid-out wire length at the start (the winch's; default 20 m)"),
        _P("v_set", "m/s", 0.0, "Set pay-out speed: the payload lowered (positive) or hoisted at it"),
        _P("v_trim", "m/s", 0.1, "Largest speed of the length's correction K_p (L_ref - L) (default 0.1 m/s, "
                                 "the default winch's a_max / omega_w: never reached while the winch follows; "
                                 "it keeps a winch at its acceleration limit out of a limit cycle)"),
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
        self.require_positive("l_wire_0", "v_trim")
        self.require_positive("K_p", allow_zero=True)

    def initial_state(self):
        return np.zeros(1)

    def derivatives(self, t, x, u):
        return np.array([u[0]])

    def output(self, t, x, u):
        p = self.p
        on = float(bool(p.on))
        target = p.l_wire_0 + p.v_set * t + on * x[0]
        trim = min(max(p.K_p * (target - u[1]), -p.v_trim), p.v_trim)
        return np.array([p.v_set + on * u[0] + trim, x[0]])
