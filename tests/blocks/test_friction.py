"""The Dahl and LuGre laws of Jarzębowska, Urbaś & Augustynek (2018), eqs.
(14)-(15), on their own: the exact step against an ODE solver, the steady
states, pre-sliding, and dissipation over closed cycles."""
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from crane_cosim.blocks.friction import Law, advance, bristle_rate, level, steady_level, stribeck

#: Table 1, joint 2 (boom), with a viscous term so that it is tested too
LUGRE = Law("lugre", L_s=0.2, L_k=0.1, sigma0=5.0, sigma1=0.022, sigma2=0.05, v_S=0.0175)
DAHL = Law("dahl", L_s=0.2, L_k=0.1, sigma0=5.0)
#: a seal (forces in N): stiff bristles, which relax within 0.1 ms
SEAL = Law("lugre", L_s=6e3, L_k=4e3, sigma0=5e7, sigma1=1e4, sigma2=2e4, v_S=0.01)
LAWS = {"lugre": LUGRE, "dahl": DAHL, "dahl-1.5": Law("dahl", 0.2, 0.1, 5.0, gamma=1.5),
        "dahl-2": Law("dahl", 0.2, 0.1, 5.0, gamma=2.0), "seal": SEAL}


def _ode(law, v, z0, h):
    """``z(h)`` and ``int level dt`` by an adaptive Runge-Kutta, tightly."""
    sol = solve_ivp(lambda t, y: [bristle_rate(law, v, y[0]), level(law, v, y[0])], (0, h), [z0, 0.0],
                    method="DOP853", rtol=1e-12, atol=1e-14 * max(1.0, law.L_s))
    return sol.y[0, -1], sol.y[1, -1]


@pytest.mark.parametrize("name", sorted(LAWS))
@pytest.mark.parametrize("v", [0.3, -0.004, 1e-9])
@pytest.mark.parametrize("z_frac", [0.0, 0.7, -0.9, 1.3])
def test_the_step_is_the_exact_solution_for_a_held_rate(name, v, z_frac):
    """Against DOP853 at rtol 1e-12, from bristles at rest, bent either way
    and bent beyond saturation (1.3: after a change of parameters), over
    20 ms, for rates far above, below and at zero against the Stribeck
    velocity.  Measured: 3e-12 of the level scale (the solver's error)."""
    law = LAWS[name]
    if name == "seal":
        v *= 0.1  # m/s
    z0 = z_frac * law.L_s / law.sigma0
    z1, integral = advance(law, v, z0, 0.02)
    z_ref, int_ref = _ode(law, v, z0, 0.02)
    assert abs(z1 - z_ref) * law.sigma0 <= 1e-10 * law.L_s
    assert abs(integral - int_ref) <= 1e-10 * law.L_s * 0.02


@pytest.mark.parametrize("name", sorted(LAWS))
def test_one_long_step_equals_many_short_ones(name):
    """Exact stepping: the bristle does not depend on the communication step.
    Measured: 1e-16."""
    law = LAWS[name]
    v = 0.05
    z_long, int_long = advance(law, v, 0.0, 0.05)
    z, total = 0.0, 0.0
    for _ in range(50):
        z, integral = advance(law, v, z, 1e-3)
        total += integral
    assert z == pytest.approx(z_long, rel=1e-12, abs=1e-15)
    assert total == pytest.approx(int_long, rel=1e-11)


@pytest.mark.parametrize("v", [-0.5, -0.03, -0.01, 0.002, 0.0175, 0.05, 0.2, 1.0])
def test_lugre_at_constant_speed_reaches_the_stribeck_curve(v):
    """``mu -> mu_k + (mu_s - mu_k) exp(-(v / v_S)^2) + sigma2 v`` (with the sign
    of v), after sliding many pre-sliding lengths (here 2 rad; the bristle
    settles as exp(-sigma0 |q| / g))."""
    expected = math.copysign(0.1 + 0.1 * math.exp(-(v / 0.0175) ** 2), v) + 0.05 * v
    z, _ = advance(LUGRE, v, 0.0, 2.0 / abs(v))
    assert level(LUGRE, v, z) == pytest.approx(expected, rel=1e-12)
    assert steady_level(LUGRE, v) == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize("gamma", [1.0, 1.5, 2.0])
@pytest.mark.parametrize("v", [-0.3, 0.001, 2.0])
def test_dahl_reaches_the_static_coefficient(gamma, v):
    """Dahl's steady state is ``mu_s sgn(v)`` at any speed (eq. 14: dz/dt = 0
    at sigma0 z = mu_s sgn(v)).  From a relaxed bristle, after sliding a
    distance q, eq. (14) integrates by hand to ``mu / mu_s = 1 - exp(-k q)``
    (gamma = 1) or ``1 - (1 + (gamma - 1) k q)^(-1 / (gamma - 1))``, with
    ``k = sigma0 / mu_s``: the step matches it to round-off, and after
    400 rad the level is within 1e-4 of mu_s (gamma = 2 converges as 1/q)."""
    law = Law("dahl", 0.2, 0.1, 5.0, gamma=gamma)
    q, k = 400.0, 25.0
    z, _ = advance(law, v, 0.0, q / abs(v))
    deficit = math.exp(-k * q) if gamma == 1.0 else (1 + (gamma - 1) * k * q) ** (-1 / (gamma - 1))
    assert level(law, v, z) == pytest.approx(math.copysign(0.2 * (1 - deficit), v), rel=1e-13)
    assert level(law, v, z) == pytest.approx(math.copysign(0.2, v), rel=1e-4)


def test_stribeck_curve_levels():
    assert stribeck(LUGRE, 0.0) == 0.2 and stribeck(LUGRE, 10.0) == pytest.approx(0.1, abs=1e-15)
    assert stribeck(DAHL, 1.0) == 0.2


@pytest.mark.parametrize("name", ["lugre", "dahl"])
def test_pre_sliding_hysteresis_starts_with_slope_sigma0(name):
    """A small slow sinusoidal motion ``q = A sin(w t)`` (A = 1e-3 rad, far
    below the pre-sliding range mu_s / sigma0 = 0.04 rad; 0.01 Hz) from a
    relaxed bristle: the level first rises with slope sigma0 in q (eq. 15;
    the secant at q = A / 10 differs by the bristle's bending and for LuGre
    by the damping sigma1 dz/dt: measured 0.15%); every period's loop
    encloses a positive area, the dissipation, small against the elastic
    swing ``sigma0 A^2 / 2`` (pre-sliding is nearly elastic: 7% of it,
    measured, about ``sigma0 A / mu_s``)."""
    law = Law(name, 0.2, 0.1, 5.0, sigma1=0.022, v_S=0.0175)  # Table 1, joint 2
    A, w, n = 1e-3, 2 * math.pi * 0.01, 4000
    h = 2 * math.pi / w / n
    z, qs, mus, work = 0.0, [], [], [0.0, 0.0, 0.0]
    for k in range(3 * n):  # three periods, the rate held per step at its mid-step value
        v = A * w * math.cos(w * (k + 0.5) * h)
        z, integral = advance(law, v, z, h)
        work[k // n] += v * integral
        qs.append(A * math.sin(w * (k + 1) * h))
        mus.append(level(law, v, z))
    first = next(k for k, q in enumerate(qs) if q >= 0.1 * A)
    assert mus[first] / qs[first] == pytest.approx(law.sigma0, rel=5e-3)
    elastic = 0.5 * law.sigma0 * A**2
    assert all(0 < wk < 0.2 * elastic for wk in work)


@pytest.mark.parametrize("name", sorted(LAWS))
@pytest.mark.parametrize("seed", range(4))
def test_friction_dissipates_over_every_closed_cycle(name, seed):
    """Passivity: a periodic motion of random amplitude (inside and far
    beyond pre-sliding) and frequency, run until the bristle's cycle repeats;
    the work the friction does on the joint over each later period is
    negative (the dissipated energy positive), and so is the work from the
    start whenever the bristle is back at rest (z = 0 at the start)."""
    law = LAWS[name]
    rng = np.random.default_rng(seed)
    scale = 1e-3 if name == "seal" else 1.0
    A = scale * 10 ** rng.uniform(-3, 0.5)
    f = 10 ** rng.uniform(-1, 1)
    n = 400
    h = 1 / (f * n)
    z, per_period = 0.0, []
    for period in range(6):
        work = 0.0
        for k in range(n):
            v = A * 2 * math.pi * f * math.cos(2 * math.pi * (k + 0.5) / n)
            z, integral = advance(law, v, z, h)
            work += v * integral
        per_period.append(work)
    assert min(per_period[1:]) > 0, per_period
