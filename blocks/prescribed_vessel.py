"""A vessel whose motion is given: a record of its roll, pitch and yaw, and
if given its surge, sway and heave, over time (a ship's motion sensor, a
seakeeping code, or the ``results.arrows`` of another run) played as the
motion of the crane's mount.

The record is a CSV file with a header row, or a run's ``results.arrows``
(read as ``blocks/signal.py`` reads it): the time [s] in the column
``time`` (else the first), strictly increasing, and the angles in the
columns ``roll``, ``pitch`` and ``yaw`` (parameters naming them; an empty
name leaves that angle zero), in rad or deg (``angles``).  They are the
angles q1, q2, q3 of Cibicik & Egeland (2018), ``R_1^0 = Rz(q3) Ry(q2)
Rx(q1)`` (eq. (53)), as the ``Vessel`` block's outputs ``q_*`` are, so a
run's ``vessel.q_roll``, ``vessel.q_pitch``, ``vessel.q_yaw`` play back
as they were.

The translations, if named (``surge``, ``sway``, ``heave``: columns of the
reference point's displacement along Frame 0's axes [m], as the
``HydroVessel``'s ``q_surge``, ``q_sway``, ``q_heave`` of its centre of
gravity), move the reference point; the mount is then at ``[mount_dx,
mount_dy, l_mount]`` from it in Frame 1.  Without them, the vessel turns
about a fixed point, as the ``Vessel`` does.

Between the samples each angle follows the not-a-knot cubic spline through
them (``scipy.interpolate.CubicSpline``), whose rates and accelerations,
the spline's first and second derivatives, are continuous: the crane on
the mount takes the accelerations, so a record sampled at 10 Hz or finer
is what this needs (a measured record's noise shows in its second
derivative: filter it first).  Outside the record the block has no
motion to give and a step there fails, naming the record's span.  With no
file the vessel stays at rest, upright (a fixed base with a vessel's
ports).

The outputs are the ``Vessel`` block's (the mount's velocity ``R^T dr/dt +
w x r_m`` and acceleration ``R^T d2r/dt2 + dw x r_m + w x (w x r_m)``,
Frame 1, ``r`` the reference point, ``r_m`` the mount from it): the
angles, rates, accelerations and the mount's orientation,
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
from .screw import cross, rot_zyx, zyx_rate_terms
from .vessel import Vessel

_P = Variable
ANGLE_UNITS = ("rad", "deg")


class PrescribedVessel(Block):
    # no docstring of its own: the module's is the model's notes (docs/fmus.md)
    model_name = "PrescribedVessel"
    symbols_of = "Cibicik & Egeland 2018"
    description = ("Vessel whose roll, pitch and yaw follow a recorded motion (a CSV of time and angles, "
                   "splined), with the Vessel block's outputs and inputs: the mount's motion for the crane.")
    reference = ("No dynamic model: a recorded motion through not-a-knot cubic splines, its angles those of "
                 "R_1^0 = Rz(q3) Ry(q2) Rx(q1), eq. (53) of Cibicik & Egeland (2018), as the Vessel's, with "
                 "the mount's velocity and acceleration the derivatives of its position.")
    validation = ("Sampled at 20 Hz, the splines give the motion's angles, rates and accelerations to 2.2e-9 "
                  "rad, 1.3e-7 rad/s and 2.7e-5 rad/s^2; the mount's velocity and acceleration equal finite "
                  "differences of its position to 3.6e-9 and 8e-10 of their scale; replaying a run's vessel, "
                  "it gives the crane's mount wrench to 5.6e-4 of its peak (RMS).")
    parameters = (
        _P("file", "", "", "CSV file of the motion record: a header row, the time [s] in column 'time' (else "
                           "the first), strictly increasing (a relative path is from the working folder); "
                           "empty: the vessel at rest, upright", "String"),
        _P("roll", "", "roll", "Column of the roll angle q1 (empty: zero)", "String"),
        _P("pitch", "", "pitch", "Column of the pitch angle q2 (empty: zero)", "String"),
        _P("yaw", "", "yaw", "Column of the yaw angle q3 (empty: zero)", "String"),
        _P("angles", "", "rad", "Unit of the angles in the file: rad or deg", "String"),
        _P("surge", "", "", "Column of the reference point's displacement along x0 [m] (empty: zero)", "String"),
        _P("sway", "", "", "Column of the reference point's displacement along y0 [m] (empty: zero)", "String"),
        _P("heave", "", "", "Column of the reference point's displacement along z0 [m] (empty: zero)", "String"),
        _P("l_mount", "m", 5.0, "Height of the mount above the rotation point (the Vessel's l_mount; Table I "
                                "of Cibicik & Egeland 2018: 5 m), along z1"),
        _P("mount_dx", "m", 0.0, "The mount's offset from the reference point along x1"),
        _P("mount_dy", "m", 0.0, "The mount's offset from the reference point along y1"),
    )
    inputs = Vessel.inputs
    outputs = Vessel.outputs
    feedthrough = (("*", ()),)  # a function of time alone
    states = ()

    def setup(self):
        p = self.p
        self.require_positive("l_mount")
        self.require_one_of("angles", ANGLE_UNITS)
        self.r_m = np.array([p.mount_dx, p.mount_dy, p.l_mount])
        if not p.file:  # no record: at rest, upright, at any time
            self._splines, self.span = [None] * 6, (-math.inf, math.inf)
            return
        factor = math.pi / 180 if p.angles == "deg" else 1.0
        splines, times, rows = [], None, None
        for name in ("roll", "pitch", "yaw", "surge", "sway", "heave"):
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
            splines.append(CubicSpline(t, (factor if len(splines) < 3 else 1.0) * np.asarray(q)))
        if times is None:
            raise ParameterError("PrescribedVessel parameters roll, pitch and yaw are all empty: name at least "
                                 "one column of the motion record")
        self._splines, self.span = splines, (float(times[0]), float(times[-1]))

    def motion(self, t: float) -> np.ndarray:
        """``[q; u; du]``: the angles [rad], rates [rad/s] and accelerations
        [rad/s^2] at ``t`` [s]; ``ValueError`` outside the record."""
        return self._samples(t)[:, :3].ravel()

    def _samples(self, t: float) -> np.ndarray:
        """(3, 6): the angles [rad] then the translations [m] (columns), their
        values, rates and accelerations (rows) at ``t`` [s]; ``ValueError``
        outside the record."""
        t0, t1 = self.span
        if not t0 - 1e-9 <= t <= t1 + 1e-9:
            raise ValueError(f"t = {t:g} s is outside the motion record of file {self.p.file!r}, which covers "
                             f"{t0:g} s to {t1:g} s")
        out = np.zeros((3, 6))
        for i, spline in enumerate(self._splines):
            if spline is not None:
                out[:, i] = [spline(t, nu) for nu in (0, 1, 2)]
        return out

    def output(self, t, x, u):
        m = self._samples(t)
        R = rot_zyx(*m[0, :3])
        E, dw_bias = zyx_rate_terms(m[0, :3], m[1, :3])
        w, dw = E @ m[1, :3], E @ m[2, :3] + dw_bias
        r = self.r_m
        v = R.T @ m[1, 3:] + cross(w, r)
        a = R.T @ m[2, 3:] + cross(dw, r) + cross(w, cross(w, r))
        return np.concatenate([m[:, :3].ravel(), R.ravel(), w, dw, v, a, m[0, 3:] + R @ r])
