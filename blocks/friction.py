"""Joint friction by the bristle models of Dahl and LuGre, as Jarzębowska,
Urbaś & Augustynek (2018) use them in the joints of their crane (Section
"Friction Models for the Crane Joints", eqs. (13)-(15), Table 1).

A law works in *friction levels*: for a revolute joint the level is the
friction coefficient mu (dimensionless; the bristle deflection z in rad, the
bristle stiffness sigma0 in 1/rad, its damping sigma1 and the viscous
coefficient sigma2 in s/rad, the rate v in rad/s); the joint's friction
torque is then ``t_f = mu f_n d / 2`` (eq. 13), ``f_n`` the joint's radial
force and ``d`` its pin diameter.  For a prismatic joint (a cylinder's
seals) the level is the friction force itself, in N (z in m, sigma0 in N/m,
sigma1 and sigma2 in N s/m, v in m/s); the static and kinetic levels are
then the static (breakaway) and Coulomb forces.

* Dahl (eq. 14): ``dz/dt = v (1 - sigma0 z sgn(v) / L_s)^gamma``,
  level ``sigma0 z`` (eq. 15); it saturates at the static level ``L_s``
  (``mu_s``) at any steady speed.  For gamma not 1 the power of a negative
  base is taken as ``sgn(w) |w|^gamma`` (Dahl's own form): a bristle bent
  beyond saturation (after a change of parameters) relaxes back to it.
* LuGre (eq. 14): ``dz/dt = v - sigma0 |v| z / g(v)`` with the Stribeck curve
  ``g(v) = L_k + (L_s - L_k) exp(-(v / v_S)^2)``, level
  ``sigma0 z + sigma1 dz/dt + sigma2 v`` (eq. 15); at a steady speed the
  level is ``g(v) sgn(v) + sigma2 v``.

Both rates are ``v`` times a function of ``w = 1 - sigma0 z sgn(v) / L``
(``L = L_s`` for Dahl, ``g(v)`` for LuGre): ``dz/dt = v w`` (LuGre, Dahl
with gamma = 1) or ``v sgn(w) |w|^gamma``.  With the rate held over a step,
``dw/dt = -k sgn(w) |w|^gamma`` with ``k = sigma0 |v| / L``, which has a
closed-form solution: :func:`advance` steps the bristle exactly, for any
step and however stiff the bristle (a seal's sigma0 of 1e7 N/m relaxes in
well under a millisecond), and integrates the level over the step exactly
too, for the dissipated energy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

#: the model names a joint can take
MODELS = ("none", "dahl", "lugre")


@dataclass(frozen=True)
class Law:
    """One joint's friction law, in friction levels (see the module's
    docstring for units): ``model`` one of :data:`MODELS`; ``L_s``, ``L_k``
    the static and kinetic levels (mu_s, mu_k or F_s, F_c); ``sigma0``,
    ``sigma1``, ``sigma2`` the bristle stiffness, bristle damping and
    viscous coefficients; ``gamma`` Dahl's shape exponent in [1, 2];
    ``v_S`` the Stribeck velocity."""

    model: str
    L_s: float
    L_k: float
    sigma0: float
    sigma1: float = 0.0
    sigma2: float = 0.0
    gamma: float = 1.0
    v_S: float = 1.0


def stribeck(law: Law, v: float) -> float:
    """The level the bristle saturates at for the rate ``v``: ``g(v)`` of
    LuGre (eq. 14), ``L_s`` for Dahl."""
    if law.model == "dahl":
        return law.L_s
    r = abs(v) / law.v_S
    # beyond 40 Stribeck velocities the exponential is below 1e-695: zero
    return law.L_k + (law.L_s - law.L_k) * math.exp(-r * r) if r < 40.0 else law.L_k


def _shape(law: Law, w: float) -> float:
    if law.model == "dahl" and law.gamma != 1.0:
        return math.copysign(abs(w) ** law.gamma, w)
    return w


def bristle_rate(law: Law, v: float, z: float) -> float:
    """``dz/dt`` of eq. (14) at rate ``v`` and bristle deflection ``z``."""
    if law.model == "none" or v == 0.0:
        return 0.0
    w = 1.0 - law.sigma0 * z * math.copysign(1.0, v) / stribeck(law, v)
    return v * _shape(law, w)


def level(law: Law, v: float, z: float) -> float:
    """The friction level (mu, or the force in N) of eq. (15), positive
    along the sliding: Dahl ``sigma0 z``, LuGre ``sigma0 z + sigma1 dz/dt +
    sigma2 v``."""
    if law.model == "none":
        return 0.0
    if law.model == "dahl":
        return law.sigma0 * z
    return law.sigma0 * z + law.sigma1 * bristle_rate(law, v, z) + law.sigma2 * v


def steady_level(law: Law, v: float) -> float:
    """The level at the constant rate ``v`` once the bristle has settled:
    ``g(v) sgn(v) + sigma2 v`` (LuGre), ``L_s sgn(v)`` (Dahl)."""
    if law.model == "none" or v == 0.0:
        return 0.0
    viscous = law.sigma2 * v if law.model == "lugre" else 0.0
    return math.copysign(stribeck(law, v), v) + viscous


def _relax(law: Law, w0: float, k: float, h: float) -> tuple[float, float]:
    """``w(h)`` and ``int_0^h w dt`` for ``dw/dt = -k sgn(w) |w|^gamma``."""
    a0 = abs(w0)
    kh = k * h
    if a0 == 0.0 or kh == 0.0:
        return w0, w0 * h
    gamma = law.gamma if law.model == "dahl" else 1.0
    if gamma == 1.0:
        decay = math.exp(-kh)
        return w0 * decay, -w0 * math.expm1(-kh) / k
    a1 = (a0 ** (1.0 - gamma) + (gamma - 1.0) * kh) ** (1.0 / (1.0 - gamma))
    if kh * a0 ** (gamma - 1.0) < 1e-6:  # the closed form cancels: its series
        integral = a0 * h - 0.5 * k * h * h * a0 ** gamma
    elif gamma == 2.0:
        integral = math.log1p(k * a0 * h) / k
    else:
        integral = (a0 ** (2.0 - gamma) - a1 ** (2.0 - gamma)) / ((2.0 - gamma) * k)
    return math.copysign(a1, w0), math.copysign(integral, w0)


def advance(law: Law, v: float, z: float, h: float) -> tuple[float, float]:
    """The bristle deflection after ``h`` seconds at the constant rate ``v``,
    and the integral of the level over those ``h`` seconds (the work done
    against the friction is ``v`` times it, times ``f_n d / 2`` for a
    revolute joint).  Exact for a held rate (module docstring)."""
    if law.model == "none":
        return z, 0.0
    if v == 0.0:
        return z, h * level(law, 0.0, z)
    s = math.copysign(1.0, v)
    L = stribeck(law, v)
    w0 = 1.0 - law.sigma0 * z * s / L
    w1, w_int = _relax(law, w0, law.sigma0 * abs(v) / L, h)
    z1 = s * L * (1.0 - w1) / law.sigma0
    z_int = s * L * (h - w_int) / law.sigma0
    if law.model == "dahl":
        return z1, law.sigma0 * z_int
    return z1, law.sigma0 * z_int + law.sigma1 * (z1 - z) + law.sigma2 * v * h
