"""Irregular waves of a sea state, and the moments they put on the vessel's
rotations.

The sea state is a JONSWAP spectrum (Hasselmann et al. 1973, in the form of
DNV-RP-C205, section 3.5.5) of significant wave height ``Hs``, peak period
``Tp`` and peak factor ``gamma`` (1: Pierson-Moskowitz), long-crested,
travelling toward ``heading`` (0: along the vessel's x1 axis, pi/2: along
y1, beam seas).  It is realised as a sum of ``n_waves`` regular waves:

    eta(x, y, t) = sum_i a_i cos(w_i t - k_i (x cos b + y sin b) + phi_i)

over ``0.5 wp <= w <= 5 wp`` (``wp = 2 pi / Tp``; 99.8% of the spectrum's
variance for gamma from 1 to 7), cut into ``n_waves`` equal bins, each wave
at a frequency drawn uniformly inside its bin (so the record does not
repeat) with a phase drawn uniformly, both from ``seed`` (numpy's PCG64):
the same parameters give the same sea, bit for bit.  The amplitudes are
``a_i = sqrt(2 S(w_i) dw)``, scaled so that the waves' variance is exactly
``m0 = (Hs / 4)**2``.  Deep water: ``k_i = w_i**2 / g``.

The vessel's excitation is the long-wave (effective slope) transfer: the
vessel is small against the waves (the vessels of the examples are 5 m
and 15 m high, the waves' lengths 50-400 m for Tp of 6-16 s), so the water
under it is a tilted plane, and the moment on each rotation is a gain times
the angle by which that plane turns about the rotation's axis (Frame 0,
z up, at the rotation point x = y = 0):

* roll (about x1): ``M_wave_roll = K_roll * d(eta)/dy``;
* pitch (about y1): ``M_wave_pitch = -K_pitch * d(eta)/dx``;
* yaw: ``M_wave_yaw = K_yaw * sin(2 b) / 2 * s(t)``, ``s`` the slope along
  the waves' direction, the dependence on heading of a slender hull's yaw
  moment in oblique seas; ``K_yaw = 0`` by default (a vessel on dynamic
  positioning or moored holds its heading).

The signs make the vessel heel with the water surface: positive roll lifts
y1 (``R_x``), positive pitch lowers x1.  The moments are generalized forces
on the vessel's angles, as its springs' are (``Vessel`` inputs
``M_wave_*``); the vessel's own angles and the waves' are small, so they
are not projected.  The default gains, 1e4 N.m/rad, roll the vessel of
Table I of Cibicik & Egeland (2018) (its cubic springs 8e7 N.m/rad**3,
undamped) by up to 3.8 deg over 300 s of beam seas of Hs = 2 m, Tp = 8 s;
the scaled vessel of the offshore knuckle boom (springs 1.12e11
N.m/rad**3) takes gains in the same ratio to its springs, 1.4e7 N.m/rad
(``cosim/scenarios.py``).  Radiation damping and added mass are not
modelled: give the vessel its damping ``c_*``.
"""
from __future__ import annotations

import math

import numpy as np

from .block import Block, ParameterError, Variable

_P = Variable
#: the realised band, in multiples of the peak frequency
BAND = (0.5, 5.0)
#: JONSWAP's spectral widths below and above the peak (DNV-RP-C205)
SIGMA = (0.07, 0.09)


def jonswap(w: np.ndarray, Hs: float, Tp: float, gamma: float) -> np.ndarray:
    """The JONSWAP spectral density [m^2 s/rad] at the angular frequencies
    ``w`` [rad/s] (DNV-RP-C205 eq. 3.5.5.5), with the Pierson-Moskowitz
    factor ``1 - 0.287 ln(gamma)`` normalising its variance to about
    ``(Hs/4)**2``."""
    wp = 2 * math.pi / Tp
    sigma = np.where(w <= wp, *SIGMA)
    pm = 5 / 16 * Hs ** 2 * wp ** 4 * w ** -5.0 * np.exp(-1.25 * (wp / w) ** 4)
    return (1 - 0.287 * math.log(gamma)) * pm * gamma ** np.exp(-0.5 * ((w - wp) / (sigma * wp)) ** 2)


def realisation(Hs: float, Tp: float, gamma: float, seed: int, n_waves: int, kind: str = "irregular"):
    """The regular waves of the module's sea state: their angular
    frequencies [rad/s], amplitudes [m] and phases [rad] (``w``, ``a``,
    ``phi``; the elevation at the origin ``sum a cos(w t + phi)``), each
    frequency drawn inside its bin and each phase from ``seed``, the
    amplitudes scaled to the variance ``(Hs / 4)**2``.  ``kind`` "regular":
    one regular wave of height ``Hs`` (crest to trough) and period ``Tp``,
    a crest at the origin at t = 0."""
    wp = 2 * math.pi / Tp
    if kind == "regular":
        return np.array([wp]), np.array([Hs / 2]), np.zeros(1)
    edges = np.linspace(BAND[0] * wp, BAND[1] * wp, n_waves + 1)
    dw = edges[1] - edges[0]
    rng = np.random.default_rng(seed)
    w = edges[:-1] + dw * rng.random(n_waves)
    phi = 2 * math.pi * rng.random(n_waves)
    a = np.sqrt(2 * jonswap(w, Hs, Tp, gamma) * dw)
    return w, a * (Hs / 4) / math.sqrt(np.sum(a ** 2) / 2), phi


#: the spectrum's shape and its realisation, the parameters every block
#: that realises the sea state declares beside its Hs and heading (this
#: one and the hydrodynamic vessel, which turns the same waves into forces)
SPECTRUM = (
    _P("waves", "", "irregular", "irregular: a JONSWAP sea of Hs and Tp; regular: one regular wave of height Hs "
                                 "(crest to trough) and period Tp, a crest at the origin at t = 0", "String"),
    _P("Tp", "s", 8.0, "Peak period (of a regular wave: its period)"),
    _P("gamma", "1", 3.3, "JONSWAP peak factor (1: Pierson-Moskowitz; DNV-RP-C205: 1 to 7)"),
)
REALISATION = (
    _P("seed", "1", 1.0, "Random seed of the waves' frequencies and phases (a whole number >= 0): the "
                         "same seed, the same sea"),
    _P("n_waves", "1", 400.0, "Number of regular waves summed (a whole number >= 1)"),
    _P("t_ramp", "s", 0.0, "Duration of the sea's start: the waves grow from calm to full height as "
                           "(1 - cos(pi t / t_ramp)) / 2 over it, so that a vessel starting at rest meets them "
                           "gradually and its transient leaves no free motion behind (0: the sea at full height "
                           "from t = 0)"),
)


def ramp(t: float, t_ramp: float) -> float:
    """The sea's height at ``t`` [s] as a fraction of its full height, over a
    start of ``t_ramp`` [s] (:data:`REALISATION`): ``(1 - cos(pi t /
    t_ramp)) / 2``, whose rate is zero at both ends."""
    if t >= t_ramp:
        return 1.0
    return 0.5 * (1.0 - math.cos(math.pi * max(t, 0.0) / t_ramp))


def require_sea_state(block: Block) -> None:
    """Raise :class:`ParameterError` unless ``block``'s :data:`SPECTRUM` is
    positive and its :data:`REALISATION` whole numbers (the seed from 0, the
    waves from 1, both below 2**63, numpy's seeds)."""
    block.require_positive("Tp", "gamma")
    block.require_positive("t_ramp", allow_zero=True)
    block.require_one_of("waves", ("irregular", "regular"))
    for name, least in (("seed", 0), ("n_waves", 1)):
        value = block.values[name]
        if value != math.floor(value) or value < least or value >= 2 ** 63:
            raise ParameterError(f"{block.model_name} parameter {name} = {value!r} is invalid: it must be a whole "
                                 f"number of at least {least}")


class Waves(Block):
    # no docstring of its own: the module's is the model's notes (docs/fmus.md)
    model_name = "Waves"
    description = ("Irregular long-crested waves of a JONSWAP sea state (Hs, Tp, gamma, heading, seed) and "
                   "the moments they put on a vessel's roll, pitch and yaw (effective wave slope).")
    reference = ("Linear (Airy) deep-water waves summed to a long-crested JONSWAP sea state (Hasselmann et al. "
                 "1973, in the form of DNV-RP-C205, section 3.5.5); the moments on the vessel by the long-wave "
                 "effective slope, a gain times the water surface's tilt under it.")
    validation = ("The realised 3 h record has Hs = 4 sqrt(m0) within 2% of its target and its peak within a "
                  "frequency bin of 1/Tp, the waves' variance is (Hs/4)^2 to 1e-14, and the moments follow the "
                  "surface slope to 2.4e-8 of their amplitude; beam seas of Hs = 2 m, Tp = 8 s roll the Table "
                  "I vessel by 3.4 to 4.2 deg.")
    parameters = (
        _P("Hs", "m", 2.0, "Significant wave height, 4 sqrt(m0) (of a regular wave: its height)"),
        *SPECTRUM,
        _P("heading", "rad", math.pi / 2, "Direction the waves travel toward, from the vessel's x1 axis toward "
                                          "y1 (0: along x1, head or following seas; pi/2: beam seas)"),
        *REALISATION,
        _P("K_roll", "N.m/rad", 1e4, "Roll moment per radian of the water surface's slope about x1"),
        _P("K_pitch", "N.m/rad", 1e4, "Pitch moment per radian of the water surface's slope about y1"),
        _P("K_yaw", "N.m/rad", 0.0, "Yaw moment per radian of slope along the waves, times sin(2 heading)/2"),
        _P("g", "m/s2", 9.81, "Gravitational acceleration (deep-water dispersion k = w^2/g)"),
    )
    outputs = (
        _P("eta", "m", 0.0, "Wave elevation at the vessel's rotation point"),
        _P("M_wave_roll", "N.m", 0.0, "Wave moment on the vessel's roll"),
        _P("M_wave_pitch", "N.m", 0.0, "Wave moment on the vessel's pitch"),
        _P("M_wave_yaw", "N.m", 0.0, "Wave moment on the vessel's yaw"),
    )
    feedthrough = (("*", ()),)  # functions of time alone
    states = ()
    default_stop_time = 1200.0
    default_step = 0.05

    def setup(self):
        p = self.p
        self.require_positive("Hs")
        require_sea_state(self)
        self.require_positive("g")
        self.require_positive("K_roll", "K_pitch", "K_yaw", allow_zero=True)
        self.w, self.a, self.phi = realisation(p.Hs, p.Tp, p.gamma, int(p.seed), int(p.n_waves), p.waves)
        b = p.heading
        slope = self.a * self.w ** 2 / p.g  # a_i k_i
        # the moments' amplitudes on sin(w t + phi): d(eta)/dx = sum a k cos(b) sin(...)
        self._gains = np.stack([p.K_roll * math.sin(b) * slope, -p.K_pitch * math.cos(b) * slope,
                                p.K_yaw * math.sin(2 * b) / 2 * slope])

    def elevation(self, t) -> np.ndarray:
        """The wave elevation [m] at the rotation point at the times ``t`` [s]."""
        return np.cos(np.multiply.outer(np.asarray(t, float), self.w) + self.phi) @ self.a

    def output(self, t, x, u):
        phase = self.w * t + self.phi
        return ramp(t, self.p.t_ramp) * np.concatenate([[np.cos(phase) @ self.a], self._gains @ np.sin(phase)])
