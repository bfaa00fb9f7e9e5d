"""The hoist winch (``blocks/winch.py``) against closed forms: the speed
loop's first-order response below the limits, the ramp at the rate limit
and the exponential after it, the speed limit, the drum's torque and the
motor's power."""
import numpy as np
import pytest
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.winch import Winch

L0, OMEGA, A_MAX = 20.0, 10.0, 1.0


def _run(block, u, h, n):
    """Times and states of ``n`` steps of ``h`` from the start with ``u`` held."""
    x, t, out = block.initial_state(), 0.0, []
    for _ in range(n):
        x = block.advance(t, x, u, h)
        t += h
        out.append((t, *x))
    return np.array(out).T


def test_below_the_limits_the_speed_follows_a_first_order_lag():
    """A command of 0.05 m/s (omega_w v = 0.5 m/s2, under a_max): v = v_c (1 -
    exp(-omega_w t)), L = L0 + v_c (t - (1 - exp(-omega_w t)) / omega_w), to
    RK4's error at 1 ms (measured 1.5e-12 m/s and 1.4e-13 m over 2 s)."""
    t, L, v = _run(Winch(), np.array([0.05, 0.0]), 1e-3, 2000)
    decay = np.exp(-OMEGA * t)
    assert np.allclose(v, 0.05 * (1 - decay), rtol=0, atol=4.5e-12)
    assert np.allclose(L, L0 + 0.05 * (t - (1 - decay) / OMEGA), rtol=0, atol=4.5e-13)


def test_at_the_rate_limit_the_speed_ramps_then_closes_exponentially():
    """A command of 1 m/s from rest: the loop asks 10 m/s2, the drive gives
    a_max = 1 m/s2, v = a t until t1 = (v_c - a / omega_w) / a = 0.9 s, then
    v = v_c - (a / omega_w) exp(-omega_w (t - t1)); L the integral of both.
    The corner at t1 falls on a step's end, so RK4 keeps its order (measured
    3.1e-12 m/s and 3.2e-13 m over 3 s at 1 ms)."""
    t, L, v = _run(Winch(), np.array([1.0, 0.0]), 1e-3, 3000)
    t1 = (1.0 - A_MAX / OMEGA) / A_MAX
    after = t > t1
    tail = np.exp(-OMEGA * (t - t1))
    v_exact = np.where(after, 1.0 - A_MAX / OMEGA * tail, A_MAX * t)
    L_exact = np.where(after, L0 + A_MAX * t1 ** 2 / 2 + (t - t1) - A_MAX / OMEGA ** 2 * (1 - tail),
                       L0 + A_MAX * t ** 2 / 2)
    assert np.allclose(v, v_exact, rtol=0, atol=9e-12)
    assert np.allclose(L, L_exact, rtol=0, atol=1e-12)


def test_a_command_past_the_speed_limit_is_held_at_it():
    """A command of 5 m/s hauling in: the speed settles at -v_max = -1.5 m/s
    (what is left of the exponential after 3.6 s is 2e-17 m/s: round-off,
    measured 1.1e-14 m/s)."""
    t, L, v = _run(Winch(), np.array([-5.0, 0.0]), 1e-3, 5000)
    assert v[-1] == pytest.approx(-1.5, abs=3e-14)
    assert v.min() >= -1.5 - 3e-14


def test_the_drum_torque_and_the_motors_power():
    """The wire's tension T on the drum of radius r: torque T r; the motor
    delivers -T v, positive hauling in against the load."""
    w = Winch(r_drum=0.6)
    y = w.output(0.0, np.array([25.0, -0.8]), np.array([0.0, 1e5]))
    assert list(y) == [25.0, -0.8, 0.6e5, 0.8e5]


@pytest.mark.parametrize("values, fragment", [
    ({"omega_w": 0.0}, "Winch parameter omega_w = 0 rad/s is invalid: it must be positive"),
    ({"a_max": -1.0}, "Winch parameter a_max = -1 m/s2 is invalid: it must be positive"),
    ({"l_wire_0": 0.0}, "Winch parameter l_wire_0 = 0 m is invalid: it must be positive")])
def test_parameters_it_cannot_use_are_refused_by_name(values, fragment):
    with pytest.raises(ParameterError, match=fragment):
        Winch(**values)
