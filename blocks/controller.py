"""PD controller of eq. (63) of 000_4c348684ef4bc307.txt for the crane joints
q4, q5, q6, regulating each to a set-point that moves by quintic ramps.

``tau_j = kP_j (q_j_ref - q_j) + kD_j (dq_j_ref/dt - u_j)``.  Eq. (63)
regulates to zero (``tau = -kP q - kD dq/dt``); with moving set-points the
error is taken to the set-point and its rate, which reduces to eq. (63) for
a zero set-point.  No gravity compensation (as in the paper), so the joints
settle with an offset of about gravity torque / kP.

Each joint has a start set-point and up to three moves, each a quintic
10-15-6 ramp from the previous set-point to ``target`` during
``[start, start + duration]``; a move with ``duration < 0`` is unused.  The
defaults are the 20 s hoisting sequence of ``examples/crane_on_vessel``
(raise, slew 90 deg, lower; cf. Figs. 5-6).
"""
from __future__ import annotations

import numpy as np

from .block import Block, ParameterError, Variable
from .crane import JOINTS
from .trajectory import ramp_sequence

_P = Variable
MOVES = 3

# (start set-point, [(start, duration, target), ...]) per joint
_DEFAULT_SCHEDULE = {
    4: (0.0, [(6.0, 6.0, np.pi / 2), (0.0, -1.0, 0.0), (0.0, -1.0, 0.0)]),
    5: (0.0, [(1.0, 4.0, 0.6), (13.0, 5.0, 0.1), (0.0, -1.0, 0.0)]),
    6: (0.0, [(1.0, 4.0, -0.3), (13.0, 5.0, 0.0), (0.0, -1.0, 0.0)]),
}
_DEFAULT_GAINS = {4: (2e4, 6e3), 5: (4e4, 6e3), 6: (1e4, 1e3)}


def _parameters():
    out = []
    for j in JOINTS:
        kP, kD = _DEFAULT_GAINS[j]
        out += [_P(f"kP{j}", "N.m/rad", kP, f"Proportional gain of joint {j}"),
                _P(f"kD{j}", "N.m.s/rad", kD, f"Derivative gain of joint {j}")]
    for j in JOINTS:
        start, moves = _DEFAULT_SCHEDULE[j]
        out.append(_P(f"q{j}_ref0", "rad", start, f"Set-point of joint {j} before its first move"))
        for m, (t0, T, target) in enumerate(moves, 1):
            out += [_P(f"q{j}_move{m}_start", "s", t0, f"Start time of move {m} of joint {j}"),
                    _P(f"q{j}_move{m}_duration", "s", T, f"Duration of move {m} of joint {j} (< 0: unused)"),
                    _P(f"q{j}_move{m}_target", "rad", target, f"Set-point of joint {j} after move {m}")]
    return tuple(out)


class Controller(Block):
    model_name = "Controller"
    description = "PD controller (eq. (63)) of the crane joints with quintic set-point ramps."
    parameters = _parameters()
    inputs = (tuple(_P(f"q{j}", "rad", 0.0, f"Measured angle of joint {j}") for j in JOINTS)
              + tuple(_P(f"u{j}", "rad/s", 0.0, f"Measured rate of joint {j}") for j in JOINTS))
    outputs = (tuple(_P(f"tau{j}", "N.m", 0.0, f"Torque demand of joint {j}") for j in JOINTS)
               + tuple(_P(f"q{j}_ref", "rad", 0.0, f"Set-point of joint {j}") for j in JOINTS))
    states = ()

    def setup(self):
        v = self.values
        self.require_positive(*[f"k{x}{j}" for j in JOINTS for x in "PD"], allow_zero=True)
        self.kP = np.array([v[f"kP{j}"] for j in JOINTS])
        self.kD = np.array([v[f"kD{j}"] for j in JOINTS])
        self.schedule = []
        for j in JOINTS:
            moves = []
            for m in range(1, MOVES + 1):
                t0, T, target = (v[f"q{j}_move{m}_{k}"] for k in ("start", "duration", "target"))
                if T >= 0:
                    moves.append((t0, T, target))
            times = sorted(moves)
            for (a0, aT, _), (b0, _, _) in zip(times, times[1:]):
                if b0 < a0 + aT:
                    raise ParameterError(f"Controller: moves of joint {j} overlap (one starts at {b0:g} s "
                                         f"before the previous ends at {a0 + aT:g} s)")
            self.schedule.append((v[f"q{j}_ref0"], moves))

    def reference(self, t: float):
        """Set-points and their rates at time ``t``."""
        ref = [ramp_sequence(t, start, moves) for start, moves in self.schedule]
        return np.array([r[0] for r in ref]), np.array([r[1] for r in ref])

    def output(self, t, x, u):
        q_ref, u_ref = self.reference(t)
        tau = self.kP * (q_ref - u[:3]) + self.kD * (u_ref - u[3:])
        return np.concatenate([tau, q_ref])
