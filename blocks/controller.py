"""The controllers: the PD law of Cibicik & Egeland (2018) for the torque-driven
crane, and PD with gravity compensation of Cibicik & Egeland (2019) for the
knuckle boom crane, each regulating its joints to set-points that move by
quintic ramps (:class:`ScheduledPD`).

Each coordinate has a start set-point and up to three moves, each a quintic
10-15-6 ramp from the previous set-point to ``target`` during
``[start, start + duration]``; a move with ``duration < 0`` is unused.
"""
from __future__ import annotations

import numpy as np

from .block import Block, ParameterError, Variable
from .crane import JOINTS, PAPER_INDEX
from .knuckle_boom import ACTUATION as KB_ACTUATION, COORDINATES as KB_COORDINATES, PAPER_INDEX as KB_PAPER_INDEX
from .trajectory import ramp_sequence

_P = Variable
MOVES = 3
_ACT_UNIT = {"t": "N.m", "F": "N"}
_CYL = {"boom_cyl": "boom cylinder", "jib_cyl": "jib cylinder"}

# (start set-point, [(start, duration, target), ...]) per joint
_DEFAULT_SCHEDULE = {
    "slew": (0.0, [(6.0, 6.0, np.pi / 2), (0.0, -1.0, 0.0), (0.0, -1.0, 0.0)]),
    "boom": (0.0, [(1.0, 4.0, 0.6), (13.0, 5.0, 0.1), (0.0, -1.0, 0.0)]),
    "jib": (0.0, [(1.0, 4.0, -0.3), (13.0, 5.0, 0.0), (0.0, -1.0, 0.0)]),
}
_DEFAULT_GAINS = {"slew": (2e4, 6e3), "boom": (4e4, 6e3), "jib": (1e4, 1e3)}


def schedule_parameters(joints, units, gains, schedule, gain_units):
    """Gains and set-point schedule parameters for the coordinates ``joints``
    (names): ``kP_<j>``, ``kD_<j>``, ``q_<j>_ref0`` and, per move m,
    ``q_<j>_move<m>_start``, ``_duration`` (< 0: unused) and ``_target``.
    ``units[j]`` is the unit of coordinate j, ``gain_units[j]`` the units of
    its two gains."""
    out = []
    for j in joints:
        (kP, kD), (uP, uD) = gains[j], gain_units[j]
        out += [_P(f"kP_{j}", uP, kP, f"Proportional gain of q_{j}", tunable=True),
                _P(f"kD_{j}", uD, kD, f"Derivative gain of q_{j}", tunable=True)]
    for j in joints:
        start, moves = schedule[j]
        out.append(_P(f"q_{j}_ref0", units[j], start, f"Set-point of q_{j} before its first move", tunable=True))
        for m, (t0, T, target) in enumerate(moves, 1):
            out += [_P(f"q_{j}_move{m}_start", "s", t0, f"Start time of move {m} of q_{j}", tunable=True),
                    _P(f"q_{j}_move{m}_duration", "s", T, f"Duration of move {m} of q_{j} (< 0: unused)",
                       tunable=True),
                    _P(f"q_{j}_move{m}_target", units[j], target, f"Set-point of q_{j} after move {m}",
                       tunable=True)]
    return tuple(out)


class ScheduledPD(Block):
    """PD law on joints ``joints`` with quintic set-point moves; subclasses
    declare the ports and the law's extra terms."""

    joints: tuple = ()

    def setup(self):
        v = self.values
        self.require_positive(*[f"k{x}_{j}" for j in self.joints for x in "PD"], allow_zero=True)
        self.kP = np.array([v[f"kP_{j}"] for j in self.joints])
        self.kD = np.array([v[f"kD_{j}"] for j in self.joints])
        self.schedule = []
        for j in self.joints:
            moves = []
            for m in range(1, MOVES + 1):
                t0, T, target = (v[f"q_{j}_move{m}_{k}"] for k in ("start", "duration", "target"))
                if T >= 0:
                    moves.append((t0, T, target))
            times = sorted(moves)
            for (a0, aT, _), (b0, _, _) in zip(times, times[1:]):
                if b0 < a0 + aT:
                    raise ParameterError(f"{self.model_name}: moves of q_{j} overlap (one starts at {b0:g} s "
                                         f"before the previous ends at {a0 + aT:g} s)")
            self.schedule.append((v[f"q_{j}_ref0"], times))
        self._gains = [(float(kP), float(kD)) for kP, kD in zip(self.kP, self.kD)]

    def set_points(self, t: float):
        """Set-points and their rates at time ``t``."""
        ref = [ramp_sequence(t, start, moves) for start, moves in self.schedule]
        return np.array([r[0] for r in ref]), np.array([r[1] for r in ref])

    def pd(self, t, q, u):
        """``kP (q_ref - q) + kD (dq_ref/dt - u)``, the set-points and their rates."""
        q_ref, u_ref = self.set_points(t)
        return self.kP * (q_ref - q) + self.kD * (u_ref - u), q_ref, u_ref

    def pd_values(self, t: float, q, u):
        """:meth:`pd` over Python floats (lists ``q``, ``u`` of the joints'
        coordinates and rates): the same operations in the same order, so
        the same bits, without numpy's cost for a few numbers.  Returns
        lists ``(pd, q_ref, u_ref)``."""
        pd, q_ref, u_ref = [], [], []
        for (start, moves), (kP, kD), qj, uj in zip(self.schedule, self._gains, q, u):
            qr, ur, _ = ramp_sequence(t, start, moves)
            pd.append(kP * (qr - qj) + kD * (ur - uj))
            q_ref.append(qr)
            u_ref.append(ur)
        return pd, q_ref, u_ref


class Controller(ScheduledPD):
    """PD control of eq. (63) of Cibicik & Egeland (2018) on the crane's slew,
    boom and jib joints (the paper's q4, q5, q6):
    ``tau_j = kP_j (q_j_ref - q_j) + kD_j (dq_j_ref/dt - u_j)``.  Eq. (63)
    regulates to zero (``tau = -kP q - kD dq/dt``); with moving set-points the
    error is taken to the set-point and its rate, which reduces to eq. (63)
    for a zero set-point.  No gravity compensation (as in the paper), so the
    joints settle with an offset of about gravity torque / kP.

    Each joint has a start set-point and up to three moves, each a quintic
    10-15-6 ramp from the previous set-point to ``target`` during
    ``[start, start + duration]``; a move with ``duration < 0`` is unused.
    The defaults are the 20 s hoisting sequence of ``examples/crane_on_vessel``
    (raise, slew 90 deg, lower; cf. Figs. 5-6 of the paper)."""

    model_name = "Controller"
    symbols_of = "Cibicik & Egeland 2018"
    description = "PD controller (eq. (63)) of the crane joints with quintic set-point ramps."
    reference = (
        "The PD law of eq. (63) of Cibicik & Egeland (2018), tau = kP (q_ref - q) + kD (dq_ref/dt - u), taken "
        "to set-points that move by quintic 10-15-6 ramps (eq. (63) for a zero set-point); no gravity "
        "compensation, as in the paper.")
    validation = ("Its law over Python floats equals the same law in numpy bit for bit (tolerance zero) in "
                  "2000 random cases before, during and after the moves, NaN inputs included; a gain changed "
                  "mid-run is honoured at once, the outputs those of a controller built with it (to 1e-12).")
    joints = JOINTS
    parameters = schedule_parameters(JOINTS, {j: "rad" for j in JOINTS}, _DEFAULT_GAINS, _DEFAULT_SCHEDULE,
                                     {j: ("N.m/rad", "N.m.s/rad") for j in JOINTS})
    inputs = (tuple(_P(f"q_{j}", "rad", 0.0, f"Measured {j} angle (q{PAPER_INDEX[j]})") for j in JOINTS)
              + tuple(_P(f"u_{j}", "rad/s", 0.0, f"Measured {j} rate") for j in JOINTS))
    outputs = (tuple(_P(f"tau_{j}", "N.m", 0.0, f"Torque demand of the {j} joint") for j in JOINTS)
               + tuple(_P(f"q_{j}_ref", "rad", 0.0, f"Set-point of q_{j}") for j in JOINTS))
    # each torque from its own joint's angle and rate; the set-points are
    # functions of time alone
    feedthrough = (("q_*_ref", ()),) + tuple((f"tau_{j}", (f"q_{j}", f"u_{j}")) for j in JOINTS)
    states = ()

    def output(self, t, x, u):
        v = u.tolist()
        tau, q_ref, _ = self.pd_values(t, v[:3], v[3:6])
        return np.array(tau + q_ref)


_KB_UNITS = {"slew": "rad", "boom_cyl": "m", "jib_cyl": "m"}
_KB_GAIN_UNITS = {"slew": ("N.m/rad", "N.m.s/rad"), "boom_cyl": ("N/m", "N.s/m"), "jib_cyl": ("N/m", "N.s/m")}
# natural frequency about 5 rad/s, critical damping, for the joint inertias
# reflected to the actuators at mid-stroke (about 1e6 kg m2, 2.5e5 kg, 2e4 kg)
_KB_GAINS = {"slew": (2.5e7, 1e7), "boom_cyl": (6e6, 2.5e6), "jib_cyl": (5e5, 2e5)}
# valve commands (kx, kff, kF), for the cylinders of examples/offshore_knuckle_boom
# (boom cylinder 320/200 mm, 1200 l/min valve; jib cylinder 180/100 mm,
# 300 l/min at 35 bar): a position loop of about 5 rad/s, speed feed-forward
# of the inverse valve gain at about 150 bar drop, and force feedback for a
# time constant near the period of each oil column (30 and 45 rad/s), see
# KnuckleBoomController
_KB_VALVE = {"boom_cyl": (10.0, 2.0, 3e-7), "jib_cyl": (10.0, 2.0, 1.5e-6)}
# hold 1 s at the start pose, raise, slew 90 deg, lower: 20 s
_KB_SCHEDULE = {
    "slew": (0.0, [(6.0, 6.0, np.pi / 2), (0.0, -1.0, 0.0), (0.0, -1.0, 0.0)]),
    "boom_cyl": (0.6, [(1.0, 4.0, 1.4), (13.0, 5.0, 0.8), (0.0, -1.0, 0.0)]),
    "jib_cyl": (0.6, [(1.0, 4.0, 1.2), (13.0, 5.0, 0.9), (0.0, -1.0, 0.0)]),
}


class KnuckleBoomController(ScheduledPD):
    """PD control with gravity compensation (Section 6 of Cibicik & Egeland
    2019) of the knuckle boom crane's slew angle ``q_slew`` and the
    extensions of its boom and jib cylinders ``q_boom_cyl``, ``q_jib_cyl``
    (the paper's q1, q2, q3):
    ``tau_slew, F_boom_cyl, F_jib_cyl = hold(q) + kP (q_ref - q) + kD (dq_ref/dt - u)``,
    where ``hold`` is the actuation that balances gravity at the present
    pose, an input (the crane outputs it from its own model:
    ``tau_slew_hold``, ``F_boom_cyl_hold``, ``F_jib_cyl_hold``).  Set-points
    move by quintic ramps; the defaults hold the start pose for 1 s, then
    raise, slew 90 deg and lower over 20 s (``examples/knuckle_boom``): a
    start set-point and up to three moves per coordinate, each a quintic
    10-15-6 ramp from the previous set-point to ``target`` during
    ``[start, start + duration]`` (``duration < 0``: unused).

    Outputs both kinds of demand for the cylinders: forces ``F_boom_cyl``,
    ``F_jib_cyl`` for ideal actuators, and valve commands ``valve_boom_cyl``,
    ``valve_jib_cyl`` for hydraulic cylinders, a position loop around each
    cylinder c with speed feed-forward and force feedback,
    ``valve_c = clip(kx_c (q_c_ref - q_c) + kff_c dq_c_ref/dt - kF_c (F_c_meas - F_c_hold), -1, 1)``.
    The oil column is a stiff spring (eigenfrequencies of 5-15 Hz for the
    crane of Tables 1-2) that a closed, critically centred valve does not
    damp; feeding back the cylinder force beyond what holds the crane against
    gravity makes the valve bleed off the oscillating part of the force, a
    damper in series with the oil spring (time constant
    ``A_A / (kF k_oil K_q)``, best near the oil-column period), and it
    leaves no steady error, since at rest the cylinder force is the holding
    force.  Wire whichever demand the actuator takes (and ``F_c_meas`` from
    the hydraulic cylinder's force)."""

    model_name = "KnuckleBoomController"
    symbols_of = "Cibicik & Egeland 2019"
    description = ("PD with gravity compensation for the knuckle boom crane (Cibicik & Egeland 2019): "
                   "slewing torque, cylinder forces and valve commands.")
    reference = (
        "PD with gravity compensation of Cibicik & Egeland (2019), Section 6, on the slew angle and the "
        "cylinder extensions q1, q2, q3, with quintic set-point ramps; the valve commands for hydraulic "
        "cylinders (position loop, speed feed-forward, force feedback) are the project's own.")
    validation = ("Its force demands are hold + PD and its valve commands kx e + kff dq_ref/dt - kF (F_meas - "
                  "F_hold), clipped to [-1, 1], as computed by hand (to 1e-6), and bit for bit the numpy law "
                  "in 2000 random cases. Driving the crane, it holds the start pose to 1e-12 for the first "
                  "second and the cylinders follow their set-points within 2 cm.")
    joints = KB_COORDINATES
    parameters = schedule_parameters(KB_COORDINATES, _KB_UNITS, _KB_GAINS, _KB_SCHEDULE, _KB_GAIN_UNITS) + tuple(
        v for c, (kx, kff, kF) in _KB_VALVE.items() for v in (
            _P(f"kx_{c}", "1/m", kx, f"Valve command of the {_CYL[c]} per metre of position error", tunable=True),
            _P(f"kff_{c}", "s/m", kff, f"Valve command of the {_CYL[c]} per m/s of set-point speed", tunable=True),
            _P(f"kF_{c}", "1/N", kF, f"Valve command of the {_CYL[c]} per newton of force beyond the holding force",
               tunable=True)))
    inputs = (tuple(_P(f"q_{j}", _KB_UNITS[j], 0.0, f"Measured q_{j} (q{KB_PAPER_INDEX[j]} of Cibicik & Egeland 2019)")
                    for j in KB_COORDINATES)
              + tuple(_P(f"u_{j}", _KB_UNITS[j] + "/s", 0.0, f"Measured rate of q_{j}") for j in KB_COORDINATES)
              + tuple(_P(f"{a}_hold", _ACT_UNIT[a[0]], 0.0, f"{a} that balances gravity and the tip load at the present pose")
                      for a in KB_ACTUATION)
              + tuple(_P(f"F_{c}_meas", "N", 0.0, f"Measured force of the {_CYL[c]} (hydraulic mode only)")
                      for c in _KB_VALVE))
    outputs = (tuple(_P(a, _ACT_UNIT[a[0]], 0.0, f"Demand {a}") for a in KB_ACTUATION)
               + tuple(_P(f"q_{j}_ref", _KB_UNITS[j], 0.0, f"Set-point of q_{j}") for j in KB_COORDINATES)
               + tuple(_P(f"valve_{c}", "1", 0.0, f"Valve command of the {_CYL[c]}, -1..1") for c in _KB_VALVE))
    # each demand from its own coordinate, rate and holding actuation; each
    # valve from its cylinder's position error and force (the speed
    # feed-forward is the set-point's); the set-points are functions of time
    feedthrough = ((("q_*_ref", ()),)
                   + tuple((a, (f"q_{j}", f"u_{j}", f"{a}_hold")) for a, j in zip(KB_ACTUATION, KB_COORDINATES))
                   + tuple((f"valve_{c}", (f"q_{c}", f"F_{c}_meas", f"F_{c}_hold")) for c in _KB_VALVE))
    states = ()

    def output(self, t, x, u):
        v = u.tolist()
        pd, q_ref, u_ref = self.pd_values(t, v[:3], v[3:6])
        out = [hold + p for hold, p in zip(v[6:9], pd)] + q_ref
        for c, (kx, kff, kF) in enumerate(self._valve_gains):
            # clip to -1..1 as np.clip does (a NaN stays NaN)
            out.append(min(max(kx * (q_ref[1 + c] - v[1 + c]) + kff * u_ref[1 + c] - kF * (v[9 + c] - v[7 + c]),
                               -1.0), 1.0))
        return np.array(out)

    def setup(self):
        super().setup()
        v = self.values
        self.require_positive(*[f"{g}_{c}" for g in ("kx", "kff", "kF") for c in _KB_VALVE], allow_zero=True)
        self._kx, self._kff, self._kF = (np.array([v[f"{g}_{c}"] for c in _KB_VALVE]) for g in ("kx", "kff", "kF"))
        self._valve_gains = [tuple(float(v[f"{g}_{c}"]) for g in ("kx", "kff", "kF")) for c in _KB_VALVE]
