"""A vessel that floats: six degrees of freedom in the time domain by
Cummins' equation (Cummins 1962) from a hull's hydrodynamic database
(``blocks/hull_database.py``; computed by ``crane-cosim hydro``), in waves
of a sea state, loaded at the mount by the crane standing on it.

Coordinates ``eta = [x, y, z, roll, pitch, yaw]``: the centre of gravity's
displacement from its calm-water position along the axes of Frame 0
(x forward, y to port, z up) [m], and the angles of
``R_1^0 = Rz(yaw) Ry(pitch) Rx(roll)`` [rad] (Frame 1: the hull's axes, its
origin at the centre of gravity); the speeds are their rates ``u``.  The
equations of motion, with the crane's wrench taken implicitly as for the
vessel of Cibicik & Egeland (2018) (``docs/interfaces/mount.md``):

    (M_rb(eta) + A_inf + J^T I_A J) du/dt = tau_rb - C eta - mu - D u
        + F_wave(t) - J^T (I_A b + p_A)

* ``M_rb = diag(m I, E^T I_G E)``, ``tau_rb = [0; -E^T (w x I_G w + I_G
  (dE/dt) u)]``: the rigid body about its centre of gravity (translations
  in Frame 0, rotations as the vessel of Cibicik & Egeland 2018, ``E``
  the map from the angles' rates to the body's angular velocity);
* ``A_inf``, ``C``: the database's added mass at infinite frequency and
  hydrostatic stiffness (the weight's share included); ``mu`` the
  radiation memory ``int K(t - s) u(s) ds`` as the state-space model
  fitted to the database (``blocks/radiation.py``, Perez & Fossen 2008);
* ``D u``: linear viscous roll damping, a fraction ``zeta_roll`` of the
  critical ``2 sqrt(C_44 (I_44 + A_inf,44))``, and a soft horizontal
  restoring with damping in surge, sway and yaw (``T_moor``,
  ``zeta_moor``) that stands for mooring lines or dynamic positioning,
  without which the first-order forces make the vessel drift;
* ``F_wave``: the first-order wave excitation (Froude-Krylov and
  diffraction) of the sea state's regular waves, the Waves block's JONSWAP
  realisation (``waves.realisation``): ``sum a_i Re(X(w_i, heading)
  exp(-i (w_i t + phi_i)))`` for the elevation ``sum a_i cos(w_i t +
  phi_i)`` at the origin of the hull's coordinates, ``X`` interpolated
  linearly (real and imaginary parts) in frequency and heading, zero
  above the database's highest frequency;
* ``F_drift``: the second-order mean wave drift in surge and sway, from
  the database's drift coefficients ``T(w, heading)`` [N/m2] (``drift``,
  Maruo 1960, the far field of a hull that absorbs nothing:
  ``cosim/hydro/drift.py``), interpolated linearly and held beyond the
  database's frequencies (short waves reflect as the shortest computed):
  ``drift = "mean"`` the constant ``sum a_i^2 T_i``; ``"newman"`` (the
  default) that mean and its slow variation by Newman's (1974)
  approximation ``T_ij = (T_i + T_j) / 2``, the difference-frequency force
  ``sum_ij a_i a_j T_ij cos((w_i - w_j) t + phi_i - phi_j)``, which is
  ``Re(Y conj(Z))`` with ``Y = sum a_i T_i e^(i(w_i t + phi_i))`` and ``Z``
  the elevation's ``sum a_i e^(i(w_i t + phi_i))``; it moves a moored
  hull at the mooring's period; ``"none"``.  The sea's start scales it by
  the ramp's square.  No yaw moment (its far field needs the Kochin
  function's derivative; the soft yaw restoring holds the heading);
* ``J``, ``b``: the mount's Jacobian and acceleration bias, its twist
  ``[w; R^T dr/dt + w x r]`` (Frame 1, ``r`` the mount from the centre of
  gravity).

Assumptions written down here: the hydrodynamic forces are linear in
``eta`` and ``u`` and act as generalized forces on ``eta`` (linear
seakeeping: to first order in the angles they are the forces along Frame
0 and the moments about the hull's axes); the mass and inertia are the
database's (the hull file's), so that the weight in ``C`` is the weight
that moves; the crane's weight reaches the vessel through its wrench, and
the buoyancy that carries it through ``C``, so the vessel sinks and trims
under it from the level start.

The hot path (the rates and the outputs at one state) is also compiled by
numba (``hydro_vessel_kernels.py``), beside the numpy code, its reference,
which runs without numba or with ``prepare(numba=False)``.
"""
from __future__ import annotations

import math

import numpy as np

from .block import ParameterError, Variable, sym6_unpack
from .compiled_block import CompiledBlock, floats
from .hull_database import DOFS, drift_at, excitation_at, read_database, resolve_database
from .interface import MODEL_RANGE, MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION
from .linalg import solve
from .screw import cross, rot_zyx, skew, zyx_rate_terms
from .waves import REALISATION, SPECTRUM, ramp, realisation, require_sea_state

__all__ = ["HydroVessel"]

_P = Variable
_UNIT = {"surge": "m", "sway": "m", "heave": "m", "roll": "rad", "pitch": "rad", "yaw": "rad"}
#: the drift's forms (``drift``)
DRIFT = ("newman", "mean", "none")
#: how many times' wave forces the kernel keeps (``hydro_vessel_kernels._waves``):
#: the five a step's stages and outputs ask of an interval stepped whole or
#: in halves, and the next step's start
WAVE_TIMES = 8
_FORCE = {d: "N" if u == "m" else "N.m" for d, u in _UNIT.items()}


def _per_dof(prefix, unit_of, description):
    return tuple(_P(f"{prefix}_{d}", unit_of(d), 0.0, description.format(d=d)) for d in DOFS)


class HydroVessel(CompiledBlock):
    model_name = "HydroVessel"
    kernel_module = "hydro_vessel_kernels"
    draws = "hull"
    calm_water = True
    compile_name = "the hydrodynamic vessel"
    compile_time = "10 to 30 s"
    numpy_slowdown = "about 20 times slower"
    description = ("Six-degree-of-freedom vessel by Cummins' equation from a hull's hydrodynamic database "
                   "(added mass, radiation memory, hydrostatics, wave excitation), in a JONSWAP sea state; "
                   "crane load at the mount via articulated inertia I_A and bias wrench p_A.")
    reference = ("Cummins' equation (Cummins 1962) in six degrees of freedom, with added mass, hydrostatics "
                 "and wave excitation from a hull database computed by Capytaine's linear potential-flow panel "
                 "method, the radiation memory a state-space fit (Perez & Fossen 2008), in a JONSWAP sea.")
    validation = ("In regular waves its periodic motion keeps Capytaine's frequency-domain RAO to 2% of the "
                  "largest motion; free heave and roll decays swing at the periods of the linear system's "
                  "eigenvalues (to 1.35e-2 and 3e-5); without waves or damping the energy it loses is the "
                  "radiation memory's work to 3e-5 of the initial energy.")
    method = "rk4"
    parameters = (
        _P("database", "", "barge", "The hull's hydrodynamic database: a shipped one by name (barge: the box barge "
                                    "40 m x 12 m, 2.5 m draft) or the path of a file crane-cosim hydro wrote",
           "String"),
        _P("mount_x", "m", -12.0, "Mount (crane slewing joint) in hull coordinates (origin midships on the "
                                  "centreline in the calm-water plane), x forward"),
        _P("mount_y", "m", 0.0, "Mount in hull coordinates, y to port"),
        _P("mount_z", "m", 2.5, "Mount in hull coordinates, z up (the barge's deck 1.5 m above the water, a 1 m "
                                "pedestal)"),
        _P("zeta_roll", "1", 0.05, "Viscous roll damping as a fraction of the critical 2 sqrt(C44 (I44 + A44(inf)))",
           tunable=True),
        _P("T_moor", "s", 100.0, "Natural period of the soft restoring in surge, sway and yaw that stands for "
                                 "mooring or dynamic positioning (0: none, the vessel drifts)"),
        _P("zeta_moor", "1", 0.3, "Damping of that restoring as a fraction of its critical damping", tunable=True),
        _P("Hs", "m", 0.0, "Significant wave height, 4 sqrt(m0), of a regular wave its height (0: calm water)"),
        *SPECTRUM,
        _P("heading", "rad", math.pi / 2, "Direction the waves travel toward, from x1 toward y1 (0: following "
                                          "seas, pi/2: beam seas from starboard); within the database's headings"),
        *REALISATION,
        _P("drift", "", "newman", "Second-order wave drift in surge and sway from the database's drift "
                                  "coefficients: newman (the mean and its slow variation, Newman 1974), mean (the "
                                  "mean alone) or none", "String"),
        _P("roll_max", "rad", 0.0, "Largest roll or pitch the linear hydrostatics are taken to hold to, beside "
                                   "the deck edge and the bilge (in_range; 0: no stated angle)"),
        _P("h_max", "s", 5e-3, "Longest internal integration step (classic Runge-Kutta, fourth order)"),
    ) + tuple(_P(f"q_{d}_0", _UNIT[d], 0.0, f"Initial {d}") for d in DOFS) + tuple(
        _P(f"u_{d}_0", _UNIT[d] + "/s", 0.0, f"Initial {d} rate") for d in DOFS)
    inputs = MOUNT_INERTIA
    outputs = (
        _per_dof("q", lambda d: _UNIT[d], "Vessel {d} (the centre of gravity's displacement, or the angle)")
        + _per_dof("u", lambda d: _UNIT[d] + "/s", "Vessel {d} rate")
        + _per_dof("du", lambda d: _UNIT[d] + "/s2", "Vessel {d} acceleration")
        + MOUNT_MOTION + MOUNT_POSITION
        + (_P("eta", "m", 0.0, "Wave elevation at the origin of the hull's coordinates (its calm-water position)"),)
        + _per_dof("F_wave", lambda d: _FORCE[d], "First-order wave excitation on the {d}")
        + _per_dof("F_rad", lambda d: _FORCE[d], "Radiation memory force on the {d}, -mu (the fitted "
                                                  "int K(t - s) u(s) ds, with its sign as it acts)")
        + tuple(_P(f"F_drift_{d}", "N", 0.0, f"Second-order wave drift force on the {d} (drift)")
                for d in DOFS[:2])
        + (_P("in_range", "1", True, "The linear hydrostatics hold: the deck's edge above the water and the "
                                     "bilge under it (the outline's highest and lowest points against the wave "
                                     "elevation at the hull's origin), the roll and pitch within roll_max where "
                                     "it is stated", type="Boolean", role=MODEL_RANGE),)
    )
    feedthrough = ((tuple((p, ()) for p in ("q_*", "u_*", "mount_R_*", "mount_w_*", "mount_v_*", "mount_p_*",
                                            "eta", "F_wave_*", "F_rad_*", "F_drift_*",
                                            "in_range")))
                   + (("*", ("I_A_*", "p_A_*")),))
    default_stop_time = 60.0
    default_step = 5e-3

    def setup(self):
        p = self.p
        self.require_positive("h_max")
        self.max_step = p.h_max
        self.require_positive("zeta_roll", "T_moor", "zeta_moor", "Hs", allow_zero=True)
        require_sea_state(self)
        try:
            db, self.fit = _database_and_fit(p.database)
        except ValueError as e:
            raise ParameterError(f"HydroVessel parameter database: {e}") from None
        self.db = db
        if p.drift not in DRIFT:
            raise ParameterError(f"HydroVessel parameter drift = {p.drift!r} is none of {', '.join(DRIFT)}")
        if p.drift != "none" and db.drift is None:
            raise ParameterError(f"HydroVessel parameter database: {p.database} carries no drift coefficients: "
                                 f"compute it again with `crane-cosim hydro`, or set drift = none")
        if not db.heading.min() - 1e-9 <= p.heading <= db.heading.max() + 1e-9:
            raise ParameterError(f"HydroVessel parameter heading = {p.heading:g} rad is outside the database's "
                                 f"headings, {db.heading.min():g} to {db.heading.max():g} rad")
        n_r = self.fit.A.shape[0]
        self.states = (_per_dof("q", lambda d: _UNIT[d], "{d}") + _per_dof("u", lambda d: _UNIT[d] + "/s", "{d} rate")
                       + tuple(_P(f"x_rad_{k}", "1", 0.0, f"radiation memory state {k}") for k in range(n_r)))
        self.m = db.inertia_matrix[0, 0]
        self.I_G = db.inertia_matrix[3:, 3:]
        # reciprocity makes A(inf) symmetric; what the panels leave of asymmetry
        # (1e-4 of the largest on the barge) would create energy
        self.A_inf = (db.added_mass_inf + db.added_mass_inf.T) / 2
        self.C = db.hydrostatic_stiffness
        self.r_m = np.array([p.mount_x, p.mount_y, p.mount_z]) - db.cog
        self.D, self.K_moor = self._damping()
        self.require_positive("roll_max", allow_zero=True)
        self.deck, self.bilge = _extremes_of(db.outline)
        self._waves()

    def _damping(self):
        """The linear damping and restoring of the module's docstring: ``(D,
        K)`` on ``u`` and ``eta``."""
        p = self.p
        D, K = np.zeros((6, 6)), np.zeros((6, 6))
        inertia = np.diag(self.db.inertia_matrix) + np.diag(self.A_inf)
        D[3, 3] = 2 * p.zeta_roll * math.sqrt(max(self.C[3, 3], 0.0) * inertia[3])
        if p.T_moor > 0:
            for i in (0, 1, 5):
                K[i, i] = inertia[i] * (2 * math.pi / p.T_moor) ** 2
                D[i, i] = 2 * p.zeta_moor * math.sqrt(K[i, i] * inertia[i])
        return D, K

    def _waves(self):
        """The sea state's regular waves and their excitation's complex
        amplitudes per unit wave amplitude, ``self.X`` (n_waves, 6)."""
        p, db = self.p, self.db
        if p.Hs == 0:
            self.set_waves(np.zeros(0), np.zeros(0), np.zeros(0), np.zeros((0, 6), complex))
            return
        w, a, phi = realisation(p.Hs, p.Tp, p.gamma, int(p.seed), int(p.n_waves), p.waves)
        self.set_waves(w, a, phi, excitation_at(db.omega, db.heading, db.excitation, w, p.heading))

    def set_waves(self, w, a, phi, X):
        """Make the sea the regular waves of angular frequencies ``w``
        [rad/s], amplitudes ``a`` [m] and phases ``phi`` [rad] (the
        elevation at the origin ``sum a cos(w t + phi)``), of excitations
        ``X`` (len(w), 6) per unit amplitude [N/m, N.m/m]: the sea state's,
        or one regular wave of a test; their drift coefficients ``T``
        (len(w), 2) [N/m2] the database's (``drift``)."""
        self.w, self.a, self.phi, self.X = (floats(w), floats(a), floats(phi), np.asarray(X, complex))
        self.T = (np.zeros((self.w.size, 2)) if self.p.drift == "none"
                  else drift_at(self.db.omega, self.db.heading, self.db.drift, self.w, self.p.heading))
        # the arguments of the compiled twin of derivatives() and output()
        self._kernel_args = (float(self.m), floats(self.I_G), floats(self.A_inf), floats(self.C + self.K_moor),
                             floats(self.D), floats(self.r_m), floats(self.db.cog), floats(self.fit.A),
                             floats(self.fit.B), floats(self.fit.C), self._memory_blocks(), self.w, self.a, self.phi,
                             floats(self.X.real), floats(self.X.imag), floats(self.T),
                             float(self.p.drift == "newman"), np.full((WAVE_TIMES, 10), np.nan),
                             np.full((2, 1 + 2 * self.w.size), np.nan), _anchor_spacing(self.w),
                             float(self.p.t_ramp))

    def _memory_blocks(self) -> np.ndarray:
        """The bounds of the memory model's diagonal blocks, one per pair
        (``fit.states``), in order: the kernel multiplies block by block."""
        bounds = sorted({b for s in self.fit.states.values() for b in (s.start, s.stop)} | {0, self.fit.A.shape[0]})
        return np.array(bounds, np.int64)

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`Block.outline`: its database's outline in hull coordinates
        (the calm-water plane at z = 0), the mount at ``mount_x, y, z``."""
        outline = self.db.outline if self.db.outline is not None else np.zeros((0, 3))
        p = self.p
        return outline, np.array([p.mount_x, p.mount_y, p.mount_z])

    def initial_state(self):
        q = [self.values[f"q_{d}_0"] for d in DOFS]
        u = [self.values[f"u_{d}_0"] for d in DOFS]
        return np.concatenate([q, u, np.zeros(self.fit.A.shape[0])])

    def wave_force(self, t: float) -> np.ndarray:
        """The first-order wave excitation at ``t`` [s] on the six degrees of
        freedom [N, N.m]."""
        phase = self.w * t + self.phi
        full = (self.a * np.cos(phase)) @ self.X.real + (self.a * np.sin(phase)) @ self.X.imag
        return ramp(t, self.p.t_ramp) * full

    def drift_force(self, t: float) -> np.ndarray:
        """The second-order wave drift at ``t`` [s] on the surge and sway [N]
        (module docstring)."""
        if self.p.drift == "mean":
            full = self.a ** 2 @ self.T
        else:
            phase = self.w * t + self.phi
            c, s = self.a * np.cos(phase), self.a * np.sin(phase)
            full = (c @ self.T) * c.sum() + (s @ self.T) * s.sum()
        return ramp(t, self.p.t_ramp) ** 2 * full

    def elevation(self, t: float) -> float:
        """The wave elevation [m] at the hull coordinates' origin at ``t`` [s]."""
        return ramp(t, self.p.t_ramp) * float(self.a @ np.cos(self.w * t + self.phi))

    def _kinematics(self, x):
        """``(R, J, t_m, b)``: the orientation ``R_1^0``, the mount's Jacobian
        (6, 6) from ``u`` to its twist ``[w; v]``, the twist and its
        acceleration bias (Frame 1, at the mount)."""
        q, u = x[:6], x[6:12]
        R = rot_zyx(*q[3:6])
        E, dw_bias = zyx_rate_terms(q[3:6], u[3:6])
        w = E @ u[3:6]
        r = self.r_m
        J = np.zeros((6, 6))
        J[:3, 3:] = E
        J[3:, :3] = R.T
        J[3:, 3:] = -skew(r) @ E
        t_m = J @ u
        b = np.concatenate([dw_bias, cross(dw_bias, r) + cross(w, cross(w, r))])
        return R, J, t_m, b, E, dw_bias, w

    def _solve(self, t, x, inp):
        """The kinematics and the accelerations ``du/dt`` at ``(t, x, inp)``."""
        q, u, xr = x[:6], x[6:12], x[12:]
        R, J, t_m, b, E, dw_bias, w = self._kinematics(x)
        M = np.zeros((6, 6))
        M[:3, :3] = self.m * np.eye(3)
        M[3:, 3:] = E.T @ self.I_G @ E
        tau = np.zeros(6)
        tau[3:] = -E.T @ (cross(w, self.I_G @ w) + self.I_G @ dw_bias)
        tau += -self.C @ q - self.K_moor @ q - self.fit.C @ xr - self.D @ u + self.wave_force(t)
        tau[:2] += self.drift_force(t)
        I_A = sym6_unpack(inp[:21])
        A = M + self.A_inf + J.T @ I_A @ J
        rhs = tau - J.T @ (I_A @ b + inp[21:27])
        return R, J, t_m, b, solve(A, rhs)

    def derivatives(self, t, x, u):
        dx = self._compiled("derivatives", t, x, u)
        if dx is not None:
            return dx
        du = self._solve(t, x, u)[4]
        return np.concatenate([x[6:12], du, self.fit.A @ x[12:] + self.fit.B @ x[6:12]])

    def output(self, t, x, u):
        y = self._compiled("outputs", t, x, u)
        if y is None:
            R, J, t_m, b, du = self._solve(t, x, u)
            acc = J @ du + b
            p_m = self.db.cog + x[:3] + R @ self.r_m
            y = np.concatenate([x[:12], du, R.ravel(), t_m[:3], acc[:3], t_m[3:], acc[3:], p_m, [self.elevation(t)],
                                self.wave_force(t), -self.fit.C @ x[12:], self.drift_force(t)])
        return np.append(y, float(self.in_range(x[:6], y[42])))

    def in_range(self, q, eta: float) -> bool:
        """Whether the linear hydrostatics hold at the displacements ``q``
        (``eta`` of the module's docstring) in water at ``eta`` [m] (the
        elevation at the hull's origin, the waves long against the hull):
        every point of the deck's edge above it, every point of the bilge
        under it, and the roll and pitch within ``roll_max`` where stated."""
        roll_max = self.p.roll_max
        if roll_max > 0 and max(abs(q[3]), abs(q[4])) > roll_max:
            return False
        up = rot_zyx(*q[3:6])[2]  # Frame 0's z of the hull's axes
        deck = self.db.cog[2] + q[2] + (self.deck - self.db.cog) @ up
        bilge = self.db.cog[2] + q[2] + (self.bilge - self.db.cog) @ up
        return bool(np.all(deck > eta) and np.all(bilge < eta))


def _extremes_of(outline) -> tuple[np.ndarray, np.ndarray]:
    """The points of a hull's ``outline`` (hull coordinates, NaN rows
    between its lines) at its highest and its lowest: the deck's edge and
    the bilge's (the box barge's four corners of each); none without an
    outline."""
    if outline is None or not np.isfinite(outline).any():
        return np.zeros((0, 3)), np.zeros((0, 3))
    points = np.unique(outline[np.isfinite(outline).all(axis=1)], axis=0)
    top, bottom = points[:, 2].max(), points[:, 2].min()
    return points[points[:, 2] >= top - 1e-9], points[points[:, 2] <= bottom + 1e-9]


def _anchor_spacing(w) -> float:
    """The spacing [s] of the anchor times from which the compiled kernel
    turns the waves of angular frequencies ``w`` [rad/s]
    (``hydro_vessel_kernels._waves``): the largest power of two at which no
    wave turns by more than 0.1 rad, where its Taylor polynomial is exact
    to round-off."""
    return 2.0 ** math.floor(math.log2(0.1 / w.max())) if w.size and w.max() > 0 else 1.0


#: the databases read and their radiation fits, by name or by the file's
#: path and modification time: an FMU remakes its block when a parameter changes
_FITS = {}


def _database_and_fit(database: str):
    """The database ``database`` names and its radiation memory's fit (the
    database's own: fitting takes seconds and the fitting code, scipy's
    optimisers, has no place in a vessel's FMU)."""
    key = resolve_database(database)[1]
    if key not in _FITS:
        db = read_database(database)
        if db.radiation is None:
            raise ValueError(f"{database} carries no fitted radiation memory: `crane-cosim hydro --refit "
                             f"{database}` fits it")
        _FITS[key] = db, db.radiation
    return _FITS[key]
