"""Rigid crane base on spring supports, after Jarzębowska, Urbaś & Augustynek
(2018): six coordinates ``q~(b) = [x, y, z, ψ, θ, φ]`` (eq. 9) with
``T~(b)`` of eq. (12), gravity on, held by ``n_s = 8`` linear springs, and
loaded at the mount by the crane standing on it through the same interface
as the vessel (``docs/interfaces/mount.md``): any crane of the project
stands on it instead of the vessel.

Frames: Frame 0 is inertial, z0 up, gravity along -z0; Frame 1 is fixed in
the base, its origin O at ``p = [x, y, z]`` (Frame 0) and
``R_1^0 = Rz(ψ) Ry(θ) Rx(φ)`` (eq. 12, T~(b); the vessel's convention).
Ports name the angles ``q_roll`` (φ), ``q_pitch`` (θ) and ``q_yaw`` (ψ); the
state is ``[x, y, z, φ, θ, ψ]`` and their time derivatives, which are the
generalized speeds ``u``.

Supports (the E_p,sup of eq. 16 and f_sup of eq. 20): spring s is fixed to
the ground and to the base at ``r_s`` (Frame 1), acts along the Frame-0
axes with ``S = diag(s_x, s_y, s_z)`` and is relaxed at the pose q = 0.
Its deflection is, exactly, ``d_s = p + R r_s - r_s`` (Frame 0) or, with
``small_angle`` on, the paper's ``d_s = U^(sup,s) q~(b)``, the first-order
expansion ``p + a x r_s`` with ``a = [φ, θ, ψ]``.  Either way the force on
the base at the support point is ``F_s = -S d_s - C dd_s/dt`` (the damping
``C = diag(c_x, c_y, c_z)`` is an option the paper omits, default zero), the
potential energy is ``1/2 sum d_s^T S d_s`` and the generalized forces are
its exact gradient (with the small-angle deflection, ``U^T F_s``, which is
the paper's ``-s_sup`` of eq. 20).

Equations of motion: Newton-Euler about O in Frame 1 with classical
accelerations, ``[n_O; f] = M_O [dw; a_O] + [w x I_O w; m w x (w x c)]``,
``M_O = [[I_O, m c^], [-m c^, m I]]``, projected on the generalized speeds
by ``[w; v_O] = J u`` (``w = E [dφ, dθ, dψ]`` as in the vessel,
``v_O = R^T dp/dt``).  The crane's wrench on the base is ``-W`` with
``W = I_A [dw; a] + p_A`` at the mount (Frame 1), solved implicitly as the
vessel does: ``(J^T M_O J + J_m^T I_A J_m) du/dt = tau - J_m^T (I_A b_m +
p_A)``, ``J_m = X_m J``, ``X_m = [[I, 0], [-r_m^, I]]``, ``b_m`` the mount's
velocity-dependent acceleration.  This hot path is also compiled by numba
(``supported_base_kernels.py``), beside the numpy code, its reference.

The springs are stiff: 8 x 1e7 N/m vertically, heave at 200 rad/s and roll
and pitch at 291 rad/s for the base alone, lower with a crane on it (heave
near 180 rad/s under about 2.4 t).  The block integrates by classic
Runge-Kutta at ``h_max = 1e-3`` s, where ``omega h <= 0.29``, far inside
RK4's stability limit (2.8) and accurate: a step loses ``(omega h)^6 / 144``
= 4.2e-6 of the fastest mode's amplitude (a numerical damping ratio of
1.4e-5) and its frequency is 5.8e-5 low.  A displaced, spinning base with
every mode excited keeps its energy to 4.4e-3 over 2 s, 1.4e-4 at
``h_max = 5e-4`` s (``tests/blocks/test_supported_base.py``).

Choices the paper leaves open (it gives the support stiffnesses alone,
s_x = s_y = 1e5 N/m and s_z = 1e7 N/m for every support, and puts the
column's joint at the base frame's origin, eq. 12.2; its Fig. 2 with the
geometry is lost), for a pedestal under a small loader crane (a 200 kg,
1.5 m column and two 2.15 m links, a few hundred kg in all):

* all supports share the three stiffnesses (the paper's values are the same
  for every support), and the damping coefficients;
* a steel frame of 2.4 m x 2.4 m, 2000 kg, five times the crane: every
  support stays in compression (as real supports must; the linear springs
  would also pull) with the crane's 390 kg anywhere up to 3.5 m out from the
  slewing axis; its COG 0.3 m below the slewing bearing, which sits at O
  (``mount_* = 0``, eq. 12.2);
* radii of gyration of a uniform 2.4 m x 2.4 m x 0.6 m block:
  ``sqrt((2.4^2 + 0.6^2) / 12)`` about x1 and y1, ``sqrt(2 * 2.4^2 / 12)``
  about z1;
* eight supports at the four corners and the four mid-sides of the 2.4 m
  square, 0.6 m below the bearing, numbered counter-clockwise from the +x1
  mid-side.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.linalg

from .block import WRENCH_COMPONENTS, ParameterError, Variable, sym6_unpack
from .compiled_block import CompiledBlock
from .interface import MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION
from .linalg import solve
from .screw import cross, cross_rows, rot_zyx, skew, zyx_rate_terms

_P = Variable
#: number of supports, the paper's n_s
N_SUPPORTS = 8
#: the angular coordinates, port name and the paper's symbol (eq. 9)
_ANGLES = (("roll", "φ"), ("pitch", "θ"), ("yaw", "ψ"))
_HALF = 1.2  # half the side of the base's square frame [m] (chosen)
#: support points in Frame 1 [m]: the mid-sides and corners of the square,
#: counter-clockwise from the +x1 mid-side, 0.6 m below the bearing (chosen)
_SUPPORTS = ((_HALF, 0.0, -0.6), (_HALF, _HALF, -0.6), (0.0, _HALF, -0.6), (-_HALF, _HALF, -0.6),
             (-_HALF, 0.0, -0.6), (-_HALF, -_HALF, -0.6), (0.0, -_HALF, -0.6), (_HALF, -_HALF, -0.6))
_BLOCK = (2.4, 2.4, 0.6)  # the base as a uniform block [m], for its radii of gyration (chosen)
_RADII = (math.sqrt((_BLOCK[1] ** 2 + _BLOCK[2] ** 2) / 12), math.sqrt((_BLOCK[0] ** 2 + _BLOCK[2] ** 2) / 12),
          math.sqrt((_BLOCK[0] ** 2 + _BLOCK[1] ** 2) / 12))
#: columns of the paper's U^(sup,s) (order x, y, z, ψ, θ, φ) in the state's order (x, y, z, φ, θ, ψ)
_PAPER_TO_STATE = [0, 1, 2, 5, 4, 3]


def paper_U(r) -> np.ndarray:
    """The paper's ``U^(sup,s)`` (Jarzębowska, Urbaś & Augustynek 2018, after
    eq. 16) of a support at ``r = [x, y, z]`` (Frame 1, m): 3x6, columns for
    ``q~(b) = [x, y, z, ψ, θ, φ]``, so that ``d = U q~(b)`` is the support's
    small-angle deflection (m, Frame 0)."""
    x, y, z = r
    return np.array([[1.0, 0.0, 0.0, -y, z, 0.0],
                     [0.0, 1.0, 0.0, x, 0.0, -z],
                     [0.0, 0.0, 1.0, 0.0, -x, y]])


def rotation_minus_identity(phi: float, theta: float, psi: float) -> np.ndarray:
    """``R_1^0 - I`` without the cancellation of ``1 - cos`` (``2 sin^2(a/2)``):
    ``Rz Ry (Rx - I) + Rz (Ry - I) + (Rz - I)``.  The supports' deflections
    ``(R - I) r_s`` are then exact to round-off relative to themselves,
    not to ``r_s``: a 0.25 mm sag beside a 1.2 m lever keeps its digits."""
    def minus_identity(a, i, j):
        D = np.zeros((3, 3))
        s, vers = math.sin(a), -2.0 * math.sin(0.5 * a) ** 2
        D[i, i] = D[j, j] = vers
        D[j, i], D[i, j] = s, -s
        return D
    Dx, Dy, Dz = minus_identity(phi, 1, 2), minus_identity(theta, 2, 0), minus_identity(psi, 0, 1)
    Rz = np.eye(3) + Dz
    return Rz @ ((np.eye(3) + Dy) @ Dx + Dy) + Dz


def _support_parameters():
    """``x_sup1, y_sup1, z_sup1, ... z_sup8``: the support points, Frame 1."""
    out = []
    for s, r in enumerate(_SUPPORTS, start=1):
        corner = "a corner" if abs(r[0]) == abs(r[1]) else "a mid-side"
        for c, v in zip("xyz", r):
            where = "0.6 m below the slewing bearing" if c == "z" else f"{corner} of the 2.4 m square"
            out.append(_P(f"{c}_sup{s}", "m", v, f"Support {s} point, Frame-1 {c} (default {v:g} m: {where}; "
                                                  f"chosen, the paper gives no geometry)"))
    return tuple(out)


class SupportedBase(CompiledBlock):
    model_name = "SupportedBase"
    symbols_of = "Jarzębowska et al. 2018"
    kernel_module = "supported_base_kernels"
    draws = "supports"
    plain_kernels = True
    compile_name = "the spring-supported base"
    compile_time = "10 to 30 s"
    numpy_slowdown = "about 15 times slower"
    method = "rk4"
    description = ("Rigid crane base on eight linear spring supports, six coordinates, gravity on "
                   "(Jarzebowska, Urbas & Augustynek 2018); crane load at the mount via articulated "
                   "inertia I_A and bias wrench p_A, as the vessel.")
    reference = ("The spring-supported crane base of Jarzębowska, Urbaś & Augustynek (2018): six coordinates "
                 "(eqs. (9), (12)), eight linear supports (eqs. (16), (20)) with exact or small-angle "
                 "deflections, gravity on; the crane's load taken through I_A and p_A as for the vessel of "
                 "Cibicik & Egeland (2018).")
    validation = ("At equilibrium the supports balance weight and load to 8e-16 of them; its natural "
                  "frequencies are those of sum U^T S U (the paper's U, eq. (20)) plus the weight's Hessian to "
                  "2e-13; undamped, RK4 at 1 ms keeps the energy to 1.3e-2 over 2 s, the drift falling as h^5; "
                  "carrying a rigid body through I_A and p_A it moves with it as one body to 2.5e-13.")
    parameters = (
        _P("m", "kg", 2000.0, "Base mass (default 2000 kg; chosen: a steel pedestal, five times a small crane)"),
        _P("cog_x", "m", 0.0, "Base COG in Frame 1, x (default 0 m; chosen)"),
        _P("cog_y", "m", 0.0, "Base COG in Frame 1, y (default 0 m; chosen)"),
        _P("cog_z", "m", -0.3, "Base COG in Frame 1, z (default -0.3 m; chosen: 0.3 m below the slewing bearing)"),
        _P("r_x", "m", _RADII[0], f"Radius of gyration about the COG, x1 axis (default {_RADII[0]:.4f} m; chosen: "
                                  f"a 2.4 x 2.4 x 0.6 m block)"),
        _P("r_y", "m", _RADII[1], f"Radius of gyration about the COG, y1 axis (default {_RADII[1]:.4f} m; chosen: "
                                  f"a 2.4 x 2.4 x 0.6 m block)"),
        _P("r_z", "m", _RADII[2], f"Radius of gyration about the COG, z1 axis (default {_RADII[2]:.4f} m; chosen: "
                                  f"a 2.4 x 2.4 x 0.6 m block)"),
        _P("mount_x", "m", 0.0, "Mount point (the crane's slewing joint) in Frame 1, x (default 0 m; paper eq. 12.2)"),
        _P("mount_y", "m", 0.0, "Mount point (the crane's slewing joint) in Frame 1, y (default 0 m; paper eq. 12.2)"),
        _P("mount_z", "m", 0.0, "Mount point (the crane's slewing joint) in Frame 1, z (default 0 m; paper eq. 12.2)"),
        _P("s_x", "N/m", 1e5, "Stiffness of every support along x0 (default 1e5 N/m; paper)"),
        _P("s_y", "N/m", 1e5, "Stiffness of every support along y0 (default 1e5 N/m; paper)"),
        _P("s_z", "N/m", 1e7, "Stiffness of every support along z0 (default 1e7 N/m; paper)"),
        _P("c_x", "N.s/m", 0.0, "Damping of every support along x0 (default 0; the paper omits damping)",
           tunable=True),
        _P("c_y", "N.s/m", 0.0, "Damping of every support along y0 (default 0; the paper omits damping)",
           tunable=True),
        _P("c_z", "N.s/m", 0.0, "Damping of every support along z0 (default 0; the paper omits damping)",
           tunable=True),
        *_support_parameters(),
        _P("small_angle", "1", False, "Whether the supports' deflection is the paper's small-angle U^(sup,s) q "
                                      "(default false: the exact p + R r_s - r_s)", "Boolean"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration, along -z0 (default 9.81 m/s2)"),
        _P("h_max", "s", 1e-3, "Longest internal integration step (classic Runge-Kutta; default 1e-3 s)"),
        *(_P(f"q_{c}_0", "m", 0.0, f"Initial position of the base origin, Frame 0, {c} (default 0 m: springs "
                                   f"relaxed)") for c in "xyz"),
        *(_P(f"q_{n}_0", "rad", 0.0, f"Initial {n} angle {s} (default 0 rad)") for n, s in _ANGLES),
        *(_P(f"u_{c}_0", "m/s", 0.0, f"Initial velocity of the base origin, Frame 0, {c}") for c in "xyz"),
        *(_P(f"u_{n}_0", "rad/s", 0.0, f"Initial {n} rate d{s}/dt") for n, s in _ANGLES),
        _P("settled", "1", False, "Whether the base starts at rest where the supports carry its weight and the "
                                  "load_* wrench (the q_*_0 and u_*_0 are then not used; default false)",
           "Boolean"),
        *(_P(f"load_{c}", "N.m" if c[0] == "n" else "N", 0.0,
             f"With settled: the wrench the base exerts on the crane at the start, at the mount, Frame 1, {c} "
             f"(the crane's weight and its moment; default 0)") for c in WRENCH_COMPONENTS),
    )
    inputs = MOUNT_INERTIA
    outputs = (
        tuple(_P(f"q_{c}", "m", 0.0, f"Position of the base origin O, Frame 0, {c} ({c}^(b) of eq. 9)")
              for c in "xyz")
        + tuple(_P(f"q_{n}", "rad", 0.0, f"Base {n} angle {s}^(b) (eq. 12: R_1^0 = Rz(ψ) Ry(θ) Rx(φ))")
                for n, s in _ANGLES)
        + tuple(_P(f"u_{c}", "m/s", 0.0, f"Velocity of O, Frame 0, {c}: d(q_{c})/dt") for c in "xyz")
        + tuple(_P(f"u_{n}", "rad/s", 0.0, f"Base {n} rate d(q_{n})/dt") for n, _ in _ANGLES)
        + tuple(_P(f"du_{c}", "m/s2", 0.0, f"Acceleration of O, Frame 0, {c}: d(u_{c})/dt") for c in "xyz")
        + tuple(_P(f"du_{n}", "rad/s2", 0.0, f"Base {n} acceleration d(u_{n})/dt") for n, _ in _ANGLES)
        + MOUNT_MOTION
        + MOUNT_POSITION
        + tuple(_P(f"F_sup{s}_{c}", "N", 0.0, f"Force of support {s} on the base at its point, Frame 0, {c} "
                                              f"(spring and damper)")
                for s in range(1, N_SUPPORTS + 1) for c in "xyz")
    )
    # Coordinates, rates, the mount's pose and velocity and the support
    # forces are the state's; the accelerations solve the equations of
    # motion with the crane's I_A and p_A, all of which act in general.
    feedthrough = (tuple((p, ()) for p in ("q_*", "u_*", "mount_R_*", "mount_w_*", "mount_v_*", "mount_p_*",
                                            "F_sup*"))
                   + (("*", ("I_A_*", "p_A_*")),))
    states = (
        tuple(_P(f"q_{c}", "m", 0.0, f"position {c}") for c in "xyz")
        + tuple(_P(f"q_{n}", "rad", 0.0, f"{n} angle") for n, _ in _ANGLES)
        + tuple(_P(f"u_{c}", "m/s", 0.0, f"velocity {c}") for c in "xyz")
        + tuple(_P(f"u_{n}", "rad/s", 0.0, f"{n} rate") for n, _ in _ANGLES)
    )
    default_stop_time = 5.0

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("m", "r_x", "r_y", "r_z")
        self.require_positive("s_x", "s_y", "s_z", "c_x", "c_y", "c_z", "g", allow_zero=True)
        self._S = np.array([p.s_x, p.s_y, p.s_z])
        self._C = np.array([p.c_x, p.c_y, p.c_z])
        self._r_sup = np.array([[self.values[f"{c}_sup{s}"] for c in "xyz"] for s in range(1, N_SUPPORTS + 1)])
        self._check_supports_hold()
        self._com = np.array([p.cog_x, p.cog_y, p.cog_z])
        self._r_m = np.array([p.mount_x, p.mount_y, p.mount_z])
        self._g0 = np.array([0.0, 0.0, -p.g])
        I_c = p.m * np.diag([p.r_x**2, p.r_y**2, p.r_z**2])
        I_O = I_c + p.m * (self._com @ self._com * np.eye(3) - np.outer(self._com, self._com))
        mc = p.m * skew(self._com)
        # spatial inertia at O, Frame 1, [w; v] order (classical accelerations)
        self._M_O = np.block([[I_O, mc], [-mc, p.m * np.eye(3)]])
        self._I_O = I_O
        self._X_m = np.block([[np.eye(3), np.zeros((3, 3))], [-skew(self._r_m), np.eye(3)]])
        self._cache_key = None
        # the arguments of the compiled twin of derivatives() and output()
        self._kernel_args = (self._M_O, self._com, self._r_m, self._r_sup, self._S, self._C,
                             np.array([p.m, p.g, float(bool(p.small_angle))]))

    def _check_supports_hold(self):
        """One sentence unless the supports' small-deflection stiffness
        matrix (sum U^T S U, eq. 20) is regular: a base they cannot hold
        would drift without bound."""
        for c in "xyz":
            if self.values[f"s_{c}"] == 0:
                raise ParameterError(
                    f"SupportedBase parameter s_{c} = 0 N/m is invalid: with no support stiff along {c}0 the "
                    f"supports cannot hold the base (their stiffness matrix is singular)")
        # scale the angles by the supports' extent so that every entry is a stiffness in N/m
        L = max(np.abs(self._r_sup).max(), 1e-300)
        D = np.diag([1.0, 1.0, 1.0, 1 / L, 1 / L, 1 / L])
        K = D @ self.stiffness_matrix() @ D
        eig = np.linalg.eigvalsh(K)
        if eig[0] <= 1e-9 * eig[-1]:
            # with every stiffness positive, only a rigid motion that moves no support point escapes them
            raise ParameterError(
                "SupportedBase parameters x_sup1 to z_sup8 are invalid: the support points lie on one line, so the "
                "supports cannot hold the base against a rotation about it (their stiffness matrix is singular)")

    def stiffness_matrix(self) -> np.ndarray:
        """``sum_s U_s^T S U_s`` (the paper's ``s_sup = (...) q~(b)``, eq. 20),
        6x6, rows and columns in the state's order x, y, z, φ, θ, ψ (N/m, N,
        N.m/rad): the supports' stiffness at q = 0."""
        K = np.zeros((6, 6))
        S = np.diag(self._S)
        for r in self._r_sup:
            U = paper_U(r)[:, _PAPER_TO_STATE]
            K += U.T @ S @ U
        return K

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`Block.outline`: the polygon of the support points of
        Jarzębowska, Urbaś & Augustynek (2018) and a spoke from the mount to
        each, in Frame 1."""
        supports = self._r_sup
        nan = np.full((1, 3), np.nan)
        mount = np.array([self.p.mount_x, self.p.mount_y, self.p.mount_z])
        rows = [supports, supports[:1], nan]
        for point in supports:
            rows += [mount[None], point[None], nan]
        return np.concatenate(rows), mount

    def initial_state(self):
        if self.p.settled:
            # the paper starts from a static analysis: a crane on a base that
            # sags under it would otherwise start with a drop
            load = np.array([self.values[f"load_{c}"] for c in WRENCH_COMPONENTS])
            return np.concatenate([self.equilibrium(load), np.zeros(6)])
        return np.array([self.values[f"{k}_0"] for k in
                         ("q_x", "q_y", "q_z", "q_roll", "q_pitch", "q_yaw",
                          "u_x", "u_y", "u_z", "u_roll", "u_pitch", "u_yaw")])

    # -- the supports ------------------------------------------------------------
    def _deflections(self, q, dq, R, w):
        """Deflections ``d_s`` [m] and their rates [m/s] of every support, (8, 3),
        Frame 0, at coordinates ``q`` and rates ``dq`` (orientation ``R``,
        angular velocity ``w``, Frame 1): exact ``p + R r_s - r_s``, or the
        paper's small-angle ``U^(sup,s) q~(b) = p + a x r_s``."""
        r = self._r_sup
        if self.p.small_angle:
            return q[:3] + cross_rows(q[3:], r), dq[:3] + cross_rows(dq[3:], r)
        return q[:3] + r @ rotation_minus_identity(*q[3:]).T, dq[:3] + cross_rows(w, r) @ R.T

    def support_forces(self, x) -> np.ndarray:
        """Force of each support on the base [N], (8, 3), Frame 0:
        ``F_s = -S d_s - C dd_s/dt``."""
        return self._state_terms(x)[6]

    def _support_generalized_forces(self, F, R, E):
        """Generalized forces [N; N.m] of the support forces ``F`` (8, 3) on
        the coordinates x, y, z, φ, θ, ψ: the exact gradient of the springs'
        energy (and the dampers' virtual power) for the deflection used."""
        if self.p.small_angle:
            # d_s = p - r_s^ a, so Q = sum U^T F_s = [sum F_s; sum r_s x F_s]
            return np.concatenate([F.sum(0), cross_rows(self._r_sup, F).sum(0)])
        F1 = F @ R  # rows R^T F_s: Frame-1 components
        n_O = cross_rows(self._r_sup, F1).sum(0)
        return np.concatenate([F.sum(0), E.T @ n_O])

    # -- the equations of motion -------------------------------------------------
    def _state_terms(self, x):
        """Everything that depends on the state only, cached: the outputs at
        the end of a step and the first derivative of the next share it.

        Returns ``(R, M, tau, J_m, t_m, b_m, F)``: orientation; mass matrix
        ``J^T M_O J``; applied generalized forces (gravity, supports) less the
        velocity terms; the mount's Jacobian ``[dw; a_m] = J_m du/dt + b_m``
        (Frame 1); its twist ``[w; v_m]`` (Frame 1); its acceleration bias;
        the support forces (8, 3), Frame 0."""
        key = x.tobytes()
        if self._cache_key != key:
            q, dq = x[:6], x[6:]
            R = rot_zyx(*q[3:])
            E, dw_bias = zyx_rate_terms(q[3:], dq[3:])
            w = E @ dq[3:]
            J = np.zeros((6, 6))  # [w; v_O] = J u, Frame 1
            J[:3, 3:] = E
            J[3:, :3] = R.T
            M_O, I_O, c, m = self._M_O, self._I_O, self._com, self.p.m
            # M_O [dw; a_O] + [w x I_O w; m w x (w x c)] = wrench at O; the
            # angular acceleration's part dw_bias is the state's
            h = np.concatenate([cross(w, I_O @ w), m * cross(w, cross(w, c))]) + M_O[:, :3] @ dw_bias
            f_g = m * (self._g0 @ R)  # weight, Frame 1, at the COG
            w_g = np.concatenate([cross(c, f_g), f_g])
            d, dd = self._deflections(q, dq, R, w)
            F = -d * self._S - dd * self._C
            tau = J.T @ (w_g - h) + self._support_generalized_forces(F, R, E)
            M = J.T @ M_O @ J
            J_m = self._X_m @ J
            v_m = R.T @ dq[:3] + cross(w, self._r_m)
            t_m = np.concatenate([w, v_m])
            b_m = np.concatenate([dw_bias, cross(dw_bias, self._r_m) + cross(w, cross(w, self._r_m))])
            self._cache = (R, M, tau, J_m, t_m, b_m, F)
            self._cache_key = key
        return self._cache

    def mass_matrix(self, x) -> np.ndarray:
        """``J^T M_O J`` at the state ``x``: the base's mass matrix over the
        speeds ``[dx, dy, dz, dφ, dθ, dψ]`` (kg, kg.m, kg.m2)."""
        return self._state_terms(np.asarray(x, float))[1]

    def _solve(self, x, inp):
        """State terms and the accelerations ``du/dt`` for state ``x`` and
        inputs ``inp``: ``(M + J_m^T I_A J_m) du = tau - J_m^T (I_A b_m + p_A)``."""
        R, M, tau, J_m, t_m, b_m, F = self._state_terms(x)
        I_A = sym6_unpack(inp[:21])
        p_A = inp[21:27]
        A = M + J_m.T @ I_A @ J_m
        b = tau - J_m.T @ (I_A @ b_m + p_A)
        return R, J_m, t_m, b_m, F, solve(A, b)

    def derivatives(self, t, x, u):
        dx = self._compiled("derivatives", t, x, u)
        if dx is not None:
            return dx
        return np.concatenate([x[6:], self._solve(x, u)[5]])

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        if y is not None:
            return y
        R, J_m, t_m, b_m, F, du = self._solve(x, u)
        acc = J_m @ du + b_m  # [dw; a] of the mount, Frame 1
        mount_p = x[:3] + R @ self._r_m
        return np.concatenate([x, du, R.ravel(), t_m[:3], acc[:3], t_m[3:], acc[3:], mount_p, F.ravel()])

    # -- energy and statics -----------------------------------------------------
    def energy(self, x) -> float:
        """Total mechanical energy [J] of the base at the state ``x``: kinetic
        ``1/2 t^T M_O t`` (``t = [w; v_O]``, Frame 1), gravity ``m g`` times
        the COG's height in Frame 0, and the springs' ``1/2 sum d_s^T S
        d_s`` (exact or small-angle, as the block's)."""
        x = np.asarray(x, float)
        q, dq = x[:6], x[6:]
        R = rot_zyx(*q[3:])
        w = zyx_rate_terms(q[3:], dq[3:])[0] @ dq[3:]
        t = np.concatenate([w, R.T @ dq[:3]])
        kinetic = 0.5 * t @ self._M_O @ t
        gravity = -self.p.m * self._g0 @ (q[:3] + R @ self._com)
        d = self._deflections(q, dq, R, w)[0]
        return float(kinetic + gravity + 0.5 * np.sum(d * d * self._S))

    def _static_residual(self, q, W):
        """Generalized forces [N; N.m] on the base at rest at ``q`` under
        gravity, the supports and ``-W`` at the mount."""
        x = np.concatenate([q, np.zeros(6)])
        _, _, tau, J_m, _, _, _ = self._state_terms(x)
        return tau - J_m.T @ W

    def equilibrium(self, W=None) -> np.ndarray:
        """The coordinates ``[x, y, z, φ, θ, ψ]`` (m, rad) at which the base
        rests under gravity and a constant wrench ``W = [n; f]`` (N.m, N)
        that the base exerts on the crane at the mount, Frame 1 (the base
        receives ``-W``; default zero), on the block's own (exact or
        small-angle) equations.

        Newton's method with the Jacobian by central differences, from
        q = 0, until a step is below 1e-12 of the coordinates (the
        residual is nearly linear in q: two or three steps)."""
        W = np.zeros(6) if W is None else np.asarray(W, float)
        q = np.zeros(6)
        L = max(np.abs(self._r_sup).max(), np.abs(self._r_m).max(), 1.0)
        # steps: 1 um and 1 um over the base's extent, small beside the sag, large beside round-off
        h = np.array([1e-6, 1e-6, 1e-6, 1e-6 / L, 1e-6 / L, 1e-6 / L])
        for _ in range(50):
            r = self._static_residual(q, W)
            K = np.empty((6, 6))
            for j in range(6):
                e = np.zeros(6)
                e[j] = h[j]
                K[:, j] = (self._static_residual(q + e, W) - self._static_residual(q - e, W)) / (2 * h[j])
            step = scipy.linalg.solve(K, -r)
            q = q + step
            if np.abs(step).max() <= 1e-12 * np.abs(q).max():
                return q
        raise ParameterError(f"SupportedBase finds no equilibrium under the wrench W = {W.tolist()} (N.m, N): "
                             f"the supports cannot hold the base there")
