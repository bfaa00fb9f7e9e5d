"""A vessel whose motion is given: a record of its roll, pitch and yaw over
time (a ship's motion sensor, a seakeeping code, or the ``results.arrows``
of another run) played as the motion of the crane's mount.

The record is a CSV file with a header row, or a run's ``results.arrows``
(read as ``blocks/signal.py`` reads it): the time [s] in the column
``time`` (else the first), strictly increasing, and the angles in the
columns ``roll``, ``pitch`` and ``yaw`` (parameters naming them; an empty
name leaves that angle zero), in rad or deg (``angles``).  They are the
angles q1, q2, q3 of Cibicik & Egeland (2018), ``R_1^0 = Rz(q3) Ry(q2)
Rx(q1)`` (eq. (53)), as the ``Vessel`` block's outputs ``q_*`` are, so a
run's ``vessel.q_roll``, ``vessel.q_pitch``, ``vessel.q_yaw`` play back
as they were.

Between the samples each angle follows the not-a-knot cubic spline through
them (``scipy.interpolate.CubicSpline``), whose rates and accelerations,
the spline's first and second derivatives, are continuous: the crane on
the mount takes the accelerations, so a record sampled at 10 Hz or finer
is what this needs (a measured record's noise shows in its second
derivative: filter it first).  Outside the record the block has no
motion to give and a step there fails, naming the record's span.  With no
file the vessel stays at rest, upright (a fixed base with a vessel's
ports).

The outputs are the ``Vessel`` block's, computed by its kinematics (the
mount at ``l_mount`` above the rotation point, on the vertical of Frame
1): the angles, rates, accelerations and the mount's orientation,
velocities, accelerations and position, so that this block takes a
Vessel's place in a system (``--replace vessel=PrescribedVessel.fmu``).
Its inputs are the Vessel's too, so every connection still fits, but the
motion is prescribed: the crane's inertia and bias wrench and the waves'
moments are taken and not used, and the crane's wrench on the mount is
the crane's output ``W_mount_*`` as before.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.interpolate import CubicSpline

from .block import Block, ParameterError, Variable
from .signal import PointsError, points_of_rows, read_rows
from .vessel import _AXES, Vessel

_P = Variable
ANGLE_UNITS = ("rad", "deg")


class PrescribedVessel(Block):
    # no docstring of its own: the module's is the model's notes (docs/fmus.md)
    model_name = "PrescribedVessel"
    description = ("Vessel whose roll, pitch and yaw follow a recorded motion (a CSV of time and angles, "
                   "splined), with the Vessel block's outputs and inputs: the mount's motion for the crane.")
    parameters = (
        _P("file", "", "", "CSV file of the motion record: a header row, the time [s] in column 'time' (else "
                           "the first), strictly increasing (a relative path is from the working folder); "
                           "empty: the vessel at rest, upright", "String"),
        _P("roll", "", "roll", "Column of the roll angle q1 (empty: zero)", "String"),
        _P("pitch", "", "pitch", "Column of the pitch angle q2 (empty: zero)", "String"),
        _P("yaw", "", "yaw", "Column of the yaw angle q3 (empty: zero)", "String"),
        _P("angles", "", "rad", "Unit of the angles in the file: rad or deg", "String"),
        _P("l_mount", "m", 5.0, "Height of the mount above the rotation point (the Vessel's l_mount; Table I "
                                "of Cibicik & Egeland 2018: 5 m)"),
    )
    inputs = Vessel.inputs
    outputs = Vessel.outputs
    feedthrough = (("*", ()),)  # a function of time alone
    states = ()

    def setup(self):
        p = self.p
        self.require_positive("l_mount")
        self.require_one_of("angles", ANGLE_UNITS)
        self._kinematics = Vessel(l_mount=p.l_mount)
        if not p.file:  # no record: at rest, upright, at any time
            self._splines, self.span = [None] * 3, (-math.inf, math.inf)
            return
        factor = math.pi / 180 if p.angles == "deg" else 1.0
        splines, times, rows = [], None, None
        for _, name in _AXES:
            column = self.values[name]
            if not column:
                splines.append(None)
                continue
            try:
                rows = rows or read_rows(p.file)  # the file read once for its three columns
                t, q = points_of_rows(rows, column)
            except PointsError as exc:
                blamed = exc.parameter and name
                raise ParameterError(f"PrescribedVessel parameter {blamed or 'file'} = "
                                     f"{self.values[blamed or 'file']!r} is invalid for file {p.file!r}: "
                                     f"{exc}") from None
            t = np.asarray(t)
            if len(t) < 4 or np.any(np.diff(t) <= 0):
                raise ParameterError(f"PrescribedVessel parameter file = {p.file!r} is invalid: the motion record "
                                     f"needs at least 4 samples at strictly increasing times")
            times = t
            splines.append(CubicSpline(t, factor * np.asarray(q)))
        if times is None:
            raise ParameterError("PrescribedVessel parameters roll, pitch and yaw are all empty: name at least "
                                 "one column of the motion record")
        self._splines, self.span = splines, (float(times[0]), float(times[-1]))

    def motion(self, t: float) -> np.ndarray:
        """``[q; u; du]``: the angles [rad], rates [rad/s] and accelerations
        [rad/s^2] at ``t`` [s]; ``ValueError`` outside the record."""
        t0, t1 = self.span
        if not t0 - 1e-9 <= t <= t1 + 1e-9:
            raise ValueError(f"t = {t:g} s is outside the motion record of file {self.p.file!r}, which covers "
                             f"{t0:g} s to {t1:g} s")
        out = np.zeros((3, 3))
        for i, spline in enumerate(self._splines):
            if spline is not None:
                out[:, i] = [spline(t, nu) for nu in (0, 1, 2)]
        return out.ravel()

    def output(self, t, x, u):
        q_u_du = self.motion(t)
        R, _, _, J, t_m, bias_acc = self._kinematics._state_terms(q_u_du[:6])
        acc = J @ q_u_du[6:] + bias_acc  # [dw; a] of the mount
        return np.concatenate([q_u_du, R.ravel(), t_m[:3], acc[:3], t_m[3:], acc[3:], R[:, 2] * self.p.l_mount])
