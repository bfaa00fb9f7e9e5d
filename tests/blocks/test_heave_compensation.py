"""Active heave compensation (``blocks/heave_compensation.py``) with the
winch (``blocks/winch.py``), the tip heaving sinusoidally: the hook's
residual heave against the closed loop's transfer function, and the wire
held when the compensation is off."""
import math

import numpy as np
import pytest
from crane_cosim.blocks.heave_compensation import HeaveCompensation
from crane_cosim.blocks.winch import Winch
from scipy.integrate import solve_ivp

A, T = 1.0, 8.0  # the tip's heave amplitude [m] and period [s]
OMEGA = 2 * math.pi / T


def _hook_heave(control, winch, t_end=60.0):
    """Times and the hook's height change ``z_tip - (L - L0)`` [m] of the
    controller and the winch coupled, the tip at ``A sin(OMEGA t)``."""
    def rates(t, x):
        tip_v = A * OMEGA * math.cos(OMEGA * t)
        v_ref = control.output(t, x[:1], np.array([tip_v, x[1]]))[0]
        return np.concatenate([control.derivatives(t, x[:1], np.array([tip_v, x[1]])),
                               winch.derivatives(t, x[1:], np.array([v_ref, 0.0]))])

    t = np.linspace(t_end - 2 * T, t_end, 801)
    sol = solve_ivp(rates, (0.0, t_end), np.concatenate([control.initial_state(), winch.initial_state()]),
                    method="DOP853", rtol=1e-11, atol=1e-12, t_eval=t)
    return t, A * np.sin(OMEGA * t) - (sol.y[1] - winch.p.l_wire_0)


@pytest.mark.parametrize("omega_w, K_p", [(10.0, 1.0), (4.0, 0.5), (20.0, 2.0)])
def test_the_hooks_residual_heave_is_the_closed_loops(omega_w, K_p):
    """Past the start's transient (poles of s^2 + omega_w s + omega_w K_p,
    the slowest 0.59 1/s: e^-26 after 44 s), the hook heaves as Re[E(i w) A
    e^(i w t) / i] with E(s) = s^2 / (s^2 + omega_w s + omega_w K_p): to the
    transient's remainder and the integrator's tolerance (measured 2.6e-12
    of A at 4 rad/s, 1.9e-13 at the others), within the winch's limits (0.8
    m/s, 0.6 m/s2 asked of 1.5 m/s, 1 m/s2).  At 10 rad/s and 1 1/s the
    residual is 5.0% of the tip's heave: 95% of it compensated."""
    control, winch = HeaveCompensation(K_p=K_p), Winch(omega_w=omega_w)
    t, e = _hook_heave(control, winch)
    s = 1j * OMEGA
    E = s ** 2 / (s ** 2 + omega_w * s + omega_w * K_p)
    assert np.allclose(e, (E * A * np.exp(1j * OMEGA * t) / 1j).real, rtol=0, atol=8e-12 * A)
    if (omega_w, K_p) == (10.0, 1.0):
        assert abs(E) == pytest.approx(0.0504, abs=5e-5)


def test_switched_off_it_holds_the_wire_and_the_hook_heaves_with_the_tip():
    """``on`` false: the wire stays at l_wire_0 (measured: exactly), the hook
    heaves as the tip does."""
    t, e = _hook_heave(HeaveCompensation(on=False), Winch())
    assert np.allclose(e, A * np.sin(OMEGA * t), rtol=0, atol=1e-15)


def test_a_set_speed_lowers_the_hook_at_it():
    """``v_set`` = 0.2 m/s with the compensation on and the tip still: the
    wire is paid out at 0.2 m/s once the loop has settled (measured
    within 1.3e-12 m/s after 30 s)."""
    control, winch = HeaveCompensation(v_set=0.2), Winch()
    x, t = np.concatenate([control.initial_state(), winch.initial_state()]), 0.0
    for _ in range(30000):
        v_ref = control.output(t, x[:1], np.array([0.0, x[1]]))[0]
        x = np.concatenate([control.advance(t, x[:1], np.array([0.0, x[1]]), 1e-3),
                            winch.advance(t, x[1:], np.array([v_ref, 0.0]), 1e-3)])
        t += 1e-3
    assert x[2] == pytest.approx(0.2, abs=4e-12)


def _stepped(control, winch, tip_z, t_end, h=1e-3):
    """The loop stepped at ``h`` (each block's own integration, inputs
    held over the step), the tip at ``tip_z(t)`` [m]: times, the hook's
    height change [m], the length's correction [m/s] and the winch's
    acceleration [m/s2] at each step."""
    n = int(round(t_end / h))
    t = np.arange(n + 1) * h
    z = tip_z(t)
    w = np.gradient(z, h, edge_order=2)
    xc, xw = control.initial_state(), winch.initial_state()
    hook, trim, accel = np.empty(n + 1), np.empty(n + 1), np.empty(n + 1)
    for k in range(n + 1):
        v_ref = control.output(t[k], xc, np.array([w[k], xw[0]]))[0]
        hook[k] = z[k] - (xw[0] - winch.p.l_wire_0)
        trim[k] = v_ref - w[k]
        accel[k] = winch.derivatives(t[k], xw, np.array([v_ref, 0.0]))[1]
        xc = control.advance(t[k], xc, np.array([w[k], xw[0]]), h)
        xw = winch.advance(t[k], xw, np.array([v_ref, 0.0]), h)
    return t, hook, trim, accel


def test_the_correction_stays_below_its_limit_while_the_winch_follows():
    """A tip heaving from rest on three periods (6, 8 and 11 s), its
    acceleration 0.9 of the winch's a_max at most: the winch follows (its
    acceleration measured at most 0.92 of a_max), the length's correction
    stays below a_max / omega_w (measured 0.065 m/s of 0.1), as the loop's positive
    impulse response bounds it, so the default v_trim changes nothing:
    the hook's motion is that of a correction without limit, bit for bit."""
    periods, weights = np.array([6.0, 8.0, 11.0]), np.array([0.5, 0.3, 0.2])
    omegas = 2 * np.pi / periods
    amplitudes = 0.9 * 1.0 * weights / omegas ** 2  # sum of accelerations: 0.9 m/s2 at most

    def tip_z(t):
        return (1.0 - np.cos(np.outer(t, omegas))) @ amplitudes

    winch = Winch()
    t, hook, trim, accel = _stepped(HeaveCompensation(), winch, tip_z, 60.0)
    assert np.max(np.abs(accel)) < winch.p.a_max
    assert np.max(np.abs(trim)) < winch.p.a_max / winch.p.omega_w
    _, hook_free, _, _ = _stepped(HeaveCompensation(v_trim=1e9), Winch(), tip_z, 60.0)
    assert np.array_equal(hook, hook_free)


def test_past_the_winchs_acceleration_limit_the_hook_heaves_less_than_the_tip():
    """A regular heave at 6 s of 1.3 times the amplitude the winch's
    acceleration limit follows (a_max / omega^2 = 0.91 m): with the
    correction unlimited the rate-limited loop falls into a limit cycle
    and the hook heaves 1.22 times as much as the tip (measured over the
    last three of ten periods); with the default v_trim 0.35 of it.
    The bounds lie a tenth from each measure."""
    omega = 2 * np.pi / 6.0
    amplitude = 1.3 * 1.0 / omega ** 2

    def ratio(control):
        t, hook, _, _ = _stepped(control, Winch(), lambda t: amplitude * np.sin(omega * t), 60.0)
        last = hook[t >= 42.0]
        return (last.max() - last.min()) / 2 / amplitude

    assert ratio(HeaveCompensation(v_trim=1e9)) > 1.1
    assert ratio(HeaveCompensation()) < 0.38
