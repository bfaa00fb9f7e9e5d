"""Vessel of Cibicik & Egeland (2018), Section III: a rigid body turning about
a fixed point (the origin of Frame 0) in roll, pitch and yaw (the paper's
q1, q2, q3; ports ``q_roll``, ``q_pitch``, ``q_yaw``) with
``R_1^0 = Rz(q3) Ry(q2) Rx(q1)`` (eq. (53)), held by cubic rotational springs
``T_i = -k_i q_i^3`` (Section III-D), optional linear damping, and loaded at
the mount by the crane standing on it.

Assumptions the paper leaves open, fixed here:

* The springs' torques ``T_i`` are generalized forces on the angles q_i (the
  paper calls them torques "in roll, pitch and yaw directions").
* The vessel's own weight does not act by default (``gravity_on = false``):
  buoyancy balances it and the springs are the net restoring model.  With a
  COG above the rotation point the weight alone would capsize the vessel.
* Table I gives the vessel mass m1 = 1.2 t (parameter ``m``) and eq. (73)
  the inertia ``m1 l1^2 / 12`` about each axis; the block takes radii of
  gyration (default ``l1 / sqrt(12)``) so the inertia scales with the mass.
* d1 = 2.5 m of Table I is taken as the height of the vessel COG above the
  rotation point (the figure with the geometry is lost); l1 = 5 m (parameter
  ``l_mount``) is the height of the mount above it (``p_21^1 = [0, 0, -l1]``,
  eq. (60)).

Waves (``blocks/waves.py``) act through the inputs ``M_wave_roll``,
``M_wave_pitch`` and ``M_wave_yaw``, generalized forces on q1, q2, q3 beside
the springs' moments; left unconnected they are zero, calm water.

Coupling at the mount (``docs/interfaces/mount.md``): the wrench the vessel
exerts on the crane is ``W = I_A [dw; a] + p_A`` (Frame 1, at the mount),
``I_A`` and ``p_A`` being inputs.  The vessel receives ``-W`` and solves its
acceleration with ``I_A`` implicitly: ``(M + J^T I_A J) du/dt = ...``, the
way the articulated-body algorithm joins a subtree.  With ``I_A = 0`` and
``p_A = W`` this is the plain explicit exchange of wrench and motion.

The hot path (the accelerations and the outputs at one state) is also
compiled by numba, beside the numpy code, its reference, which runs
without numba or with ``prepare(numba=False)``.
"""
from __future__ import annotations

import numpy as np

from .block import ParameterError, Variable, sym6_unpack
from .compiled_block import CompiledBlock
from .interface import MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION
from .kane import Body, Chain, Joint, Marker
from .linalg import solve
from .screw import cross, rot_zyx, zyx_rate_terms

_P = Variable
_R = np.sqrt(12.0)
#: the vessel's coordinates: roll, pitch and yaw are q1, q2, q3 of Cibicik & Egeland (2018)
_AXES = ((1, "roll"), (2, "pitch"), (3, "yaw"))


class Vessel(CompiledBlock):
    model_name = "Vessel"
    symbols_of = "Cibicik & Egeland 2018"
    kernel_module = "vessel_kernels"
    draws = "hull"
    plain_kernels = True
    compile_name = "the vessel"
    compile_time = "7 to 20 s"
    numpy_slowdown = "about 5 times slower"
    method = "rk4"
    description = ("Vessel rotating about a fixed point with cubic restoring springs "
                   "(Cibicik & Egeland 2018, Section III); crane load at the mount via "
                   "articulated inertia I_A and bias wrench p_A.")
    reference = ("The vessel of Cibicik & Egeland (2018), Section III: turning about a fixed point in roll, "
                 "pitch and yaw, R_1^0 = Rz(q3) Ry(q2) Rx(q1) (eq. (53)), held by cubic springs T_i = -k_i "
                 "q_i^3 (Section III-D), with Table I and the inertias of eq. (73); the crane's load is taken "
                 "implicitly through I_A and p_A.")
    validation = ("Its closed-form terms equal Kane's equations of the vessel as a gimbal chain (eqs. "
                  "(19)-(37)) to 1e-12 of their scale. Joined to the crane by I_A and p_A it gives the "
                  "accelerations of the undivided 6-DOF chain to 1e-9, and without damping or control the "
                  "coupled system keeps its energy to 1e-7 of the crane's weight times 7 m over 2 s.")
    parameters = (
        _P("m", "kg", 1200.0, "Vessel mass m1 (Table I of Cibicik & Egeland 2018: 1.2 t)"),
        _P("l_mount", "m", 5.0, "Height l1 of the mount (crane slewing joint) above the rotation point (Table I)"),
        _P("cog_x", "m", 0.0, "Vessel COG in Frame 1, x"),
        _P("cog_y", "m", 0.0, "Vessel COG in Frame 1, y"),
        _P("cog_z", "m", 2.5, "Vessel COG in Frame 1, z (Table I d1)"),
        _P("r_x", "m", 5.0 / _R, "Radius of gyration about the COG, x1 axis (eq. (73): l_mount/sqrt(12))"),
        _P("r_y", "m", 5.0 / _R, "Radius of gyration about the COG, y1 axis (eq. (73): l_mount/sqrt(12))"),
        _P("r_z", "m", 5.0 / _R, "Radius of gyration about the COG, z1 axis (eq. (73): l_mount/sqrt(12))"),
        _P("k_roll", "N.m/rad3", 8e7, "Cubic roll spring k1: moment -k1 q1^3 (q1 = q_roll)"),
        _P("k_pitch", "N.m/rad3", 8e7, "Cubic pitch spring k2: moment -k2 q2^3 (q2 = q_pitch)"),
        _P("k_yaw", "N.m/rad3", 8e7, "Cubic yaw spring k3: moment -k3 q3^3 (q3 = q_yaw)"),
        _P("c_roll", "N.m.s/rad", 0.0, "Linear roll damping: moment -c_roll u_roll", tunable=True),
        _P("c_pitch", "N.m.s/rad", 0.0, "Linear pitch damping: moment -c_pitch u_pitch", tunable=True),
        _P("c_yaw", "N.m.s/rad", 0.0, "Linear yaw damping: moment -c_yaw u_yaw", tunable=True),
        _P("gravity_on", "1", False, "Whether the vessel's own weight acts (default no: buoyancy balances it)", "Boolean"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (classic Runge-Kutta, fourth order; default 1e-3 s)"),
        _P("q_roll_0", "rad", 0.0, "Initial roll"),
        _P("q_pitch_0", "rad", 0.0, "Initial pitch"),
        _P("q_yaw_0", "rad", 0.0, "Initial yaw"),
        _P("u_roll_0", "rad/s", 0.0, "Initial roll rate"),
        _P("u_pitch_0", "rad/s", 0.0, "Initial pitch rate"),
        _P("u_yaw_0", "rad/s", 0.0, "Initial yaw rate"),
    )
    # the crane's load, then the waves' moments (``blocks/waves.py``)
    inputs = MOUNT_INERTIA + tuple(
        _P(f"M_wave_{n}", "N.m", 0.0, f"Wave moment on the {n} (a generalized force on q{i}, as the springs' "
                                      f"moments are); zero in calm water")
        for i, n in _AXES)
    outputs = (
        tuple(_P(f"q_{n}", "rad", 0.0, f"Vessel {n} angle (q{i} of Cibicik & Egeland 2018)") for i, n in _AXES)
        + tuple(_P(f"u_{n}", "rad/s", 0.0, f"Vessel {n} rate d(q_{n})/dt (u{i})") for i, n in _AXES)
        + tuple(_P(f"du_{n}", "rad/s2", 0.0, f"Vessel {n} acceleration d(u_{n})/dt") for i, n in _AXES)
        + MOUNT_MOTION
        + MOUNT_POSITION
    )
    # The angles, rates and the mount's pose and velocity are the state's; the
    # accelerations solve the equations of motion with the crane's I_A, p_A.
    # The mount sits on the vertical through the rotation point, so a
    # vertical force there has no moment about it (p_A_fz and I_A_66 do not
    # act) and its vertical acceleration is centripetal, the state's.
    feedthrough = (tuple((p, ()) for p in ("q_*", "u_*", "mount_R_*", "mount_w_*", "mount_v_*", "mount_a_z",
                                            "mount_p_*"))
                   + (("*", ("I_A_[1-5]?", "p_A_n?", "p_A_f[xy]", "M_wave_*")),))
    states = (
        tuple(_P(f"q_{n}", "rad", 0.0, f"{n} angle") for _, n in _AXES)
        + tuple(_P(f"u_{n}", "rad/s", 0.0, f"{n} rate") for _, n in _AXES)
    )

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("m", "l_mount", "r_x", "r_y", "r_z")
        self.require_positive("k_roll", "k_pitch", "k_yaw", "c_roll", "c_pitch", "c_yaw", allow_zero=True)
        if p.g < 0:
            raise ParameterError(f"Vessel parameter g = {p.g:g} m/s2 is invalid: it must be zero or positive")
        inertia = p.m * np.diag([p.r_x**2, p.r_y**2, p.r_z**2])
        # R_1^0 = Rz(q3) Ry(q2) Rx(q1): a gimbal of yaw, pitch and roll joints
        # with two massless bodies; the chain coordinates are (q3, q2, q1).
        # The block steps in closed form (_state_terms); the chain is the
        # same vessel in the multibody machinery, its reference in the tests.
        self.chain = Chain(
            joints=[Joint(axis=[0, 0, 1]), Joint(axis=[0, 1, 0]), Joint(axis=[1, 0, 0])],
            bodies=[Body(0.0), Body(0.0), Body(p.m, [p.cog_x, p.cog_y, p.cog_z], inertia)],
            markers=[Marker(2, [0.0, 0.0, p.l_mount])],
        )
        self.k = np.array([p.k_roll, p.k_pitch, p.k_yaw])
        self.c = np.array([p.c_roll, p.c_pitch, p.c_yaw])
        self.g0 = np.array([0.0, 0.0, -p.g if p.gravity_on else 0.0])
        self._com = np.array([p.cog_x, p.cog_y, p.cog_z])
        self._r_m = np.array([0.0, 0.0, p.l_mount])
        self._m_g = p.m * self.g0  # weight in Frame 0; @ R gives it in Frame 1
        self._I_O = inertia + p.m * (self._com @ self._com * np.eye(3) - np.outer(self._com, self._com))
        self._cache_key = None
        # the arguments of the compiled twin of derivatives() and output(); the
        # damping is tunable, but the FMU remakes the block when it changes
        self._kernel_args = (self._I_O, self._com, self._m_g, self.k, self.c, float(p.l_mount))

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`Block.outline`: the spring vessel of Cibicik & Egeland
        (2018) has no hull, only a mass and radii of gyration: the uniform
        box of those radii (``r_x**2 = (B**2 + D**2) / 12`` ...) centred on
        its centre of gravity, in Frame 1 about the rotation point, whose
        mount is ``l_mount`` above it."""
        p = self.p
        r2 = np.array([p.r_x, p.r_y, p.r_z]) ** 2
        # the sides L, B, D along x1, y1, z1: L**2 = 6 (r_x**2 + r_y**2 + r_z**2) - 12 r_x**2 ...
        size = np.sqrt(np.maximum(6 * (r2.sum() - 2 * r2), 0.0))
        return box_edges(np.array([p.cog_x, p.cog_y, p.cog_z]), size), np.array([0.0, 0.0, p.l_mount])

    def initial_state(self):
        p = self.p
        return np.array([p.q_roll_0, p.q_pitch_0, p.q_yaw_0, p.u_roll_0, p.u_pitch_0, p.u_yaw_0])

    def _state_terms(self, x):
        """Everything that depends on the state only, cached: the outputs at the
        end of a step and the first derivative of the next share it.

        Closed form for the one body turning about O (the hot path of every
        step; ``tests/blocks/test_vessel.py`` checks it against Kane's
        equations of :attr:`chain`): body angular velocity ``w = E(q) u``,
        ``E = [x, Rx^T y, Rx^T Ry^T z]``, angular acceleration
        ``E du + (dE/dt) u``; ``E^T (I_O dw/dt + w x I_O w - n_O) = T``
        with ``I_O`` the inertia about O and ``n_O`` the moment of gravity
        about O.  Returns ``(R, M, tau, J, t_m, bias_acc)``: orientation,
        mass matrix and applied generalized forces less velocity terms over
        ``u``, the mount's Jacobian, twist and acceleration bias (Frame 1)."""
        key = x.tobytes()
        if self._cache_key != key:
            q = x.tolist()
            R = rot_zyx(*q[:3])
            E, dw_bias = zyx_rate_terms(q[:3], q[3:])
            w = E @ x[3:]
            I_O = self._I_O
            n_O = cross(self._com, self._m_g @ R) - cross(w, I_O @ w) - I_O @ dw_bias
            M = E.T @ I_O @ E
            tau = E.T @ n_O - self.k * x[:3] ** 3 - self.c * x[3:]
            l1 = self.p.l_mount
            J = np.empty((6, 3))  # [dw; a] = J du + bias_acc, a = dw x r_m + ...
            J[:3] = E
            J[3] = l1 * E[1]
            J[4] = -l1 * E[0]
            J[5] = 0.0
            v = cross(w, self._r_m)
            t_m = np.concatenate([w, v])
            bias_acc = np.concatenate([dw_bias, cross(dw_bias, self._r_m) + cross(w, v)])
            self._cache = (R, M, tau, J, t_m, bias_acc)
            self._cache_key = key
        return self._cache

    def _solve(self, x, inp):
        """State terms and the accelerations ``du/dt`` for state ``x`` and
        inputs ``inp``: ``(M + J^T I_A J) du = tau + M_wave - J^T (I_A bias + p_A)``."""
        R, M, tau, J, t_m, bias_acc = self._state_terms(x)
        I_A = sym6_unpack(inp[:21])
        p_A = inp[21:27]
        A = M + J.T @ I_A @ J
        b = tau + inp[27:30] - J.T @ (I_A @ bias_acc + p_A)
        return R, J, t_m, bias_acc, solve(A, b)

    def derivatives(self, t, x, u):
        dx = self._compiled("derivatives", t, x, u)
        if dx is not None:
            return dx
        return np.concatenate([x[3:], self._solve(x, u)[4]])

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        if y is not None:
            return y
        R, J, t_m, bias_acc, du = self._solve(x, u)
        acc = J @ du + bias_acc  # [dw; a] of the mount
        # the mount point sits at [0, 0, l1] in Frame 1, above the fixed rotation point O
        return np.concatenate([x, du, R.ravel(), t_m[:3], acc[:3], t_m[3:], acc[3:], R[:, 2] * self.p.l_mount])


def box_edges(centre, size) -> np.ndarray:
    """The twelve edges of the box of ``size`` (L, B, D) [m] about
    ``centre``, as polylines ended by NaN rows."""
    half = np.asarray(size, float) / 2
    corner = lambda sx, sy, sz: centre + half * [sx, sy, sz]  # noqa: E731
    rows = []
    for z in (-1, 1):
        rows += [corner(-1, -1, z), corner(1, -1, z), corner(1, 1, z), corner(-1, 1, z), corner(-1, -1, z),
                 [np.nan] * 3]
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        rows += [corner(x, y, -1), corner(x, y, 1), [np.nan] * 3]
    return np.array(rows, float)
