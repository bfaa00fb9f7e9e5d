"""The barge's start in a sea (``HydroVessel``, ``t_ramp``): each seed's
run against the steady response of the same realisation, the linear
model's frequency response to each of its waves (the fitted radiation
memory's included), summed.  Started from rest in a sea at full height the
first 20 s roll a quarter too little and the soft mooring's slow sway
swamps the waves' own; grown over three peak periods and left 20 s more,
the next 20 s are the developed sea's."""
import numpy as np
import pytest

from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.blocks.waves import ramp

SEEDS = range(1, 11)
SWAY, ROLL = 1, 3
TP = 8.0


def steady(block, t) -> np.ndarray:
    """The linear model's steady response (times, 6) to ``block``'s waves at
    the times ``t`` [s]: per wave ``Re(q exp(i w t))`` with ``Z(w) q = a
    exp(i phi) conj(X)``, ``Z = -w^2 (M + A_inf) + i w D + C + K_moor +
    C_r (i w - A_r)^-1 B_r i w`` (the calm-water position, the angles'
    rates their body rates)."""
    M = np.zeros((6, 6))
    M[:3, :3], M[3:, 3:] = block.m * np.eye(3), block.I_G
    M, K, fit = M + block.A_inf, block.C + block.K_moor, block.fit
    q = np.zeros((t.size, 6))
    for w, a, phi, X in zip(block.w, block.a, block.phi, block.X):
        memory = fit.C @ np.linalg.solve(1j * w * np.eye(fit.A.shape[0]) - fit.A, fit.B) * 1j * w
        amplitude = np.linalg.solve(-w * w * M + 1j * w * block.D + K + memory, a * np.exp(1j * phi) * np.conj(X))
        q += np.real(np.outer(np.exp(1j * w * t), amplitude))
    return q


def _window(t_ramp: float, settle: float, h: float = 0.05):
    """Per seed of a beam sea of Hs 2 m, Tp 8 s, started over ``t_ramp``
    [s]: the 20 s after ``t_ramp + settle``, the run's motion and the
    steady response's."""
    out = []
    for seed in SEEDS:
        block = HydroVessel(Hs=2.0, Tp=TP, seed=seed, t_ramp=t_ramp, drift="none")
        start, u, x = t_ramp + settle, block.default_inputs(), block.initial_state()
        n = round((start + 20.0) / h)
        qs = [x[:6]]
        for i in range(n):
            x = block.advance(i * h, x, u, h)
            qs.append(x[:6])
        t = np.arange(n + 1) * h
        kept = t >= start - 1e-9
        out.append((np.array(qs)[kept], steady(block, t[kept])))
    return out


def _ratios(windows, dof):
    """Per seed: the run's standard deviation over the steady one's, and
    the transient's RMS (run less steady) over the steady standard deviation."""
    std = np.array([q[:, dof].std() / s[:, dof].std() for q, s in windows])
    transient = np.array([np.sqrt(np.mean((q[:, dof] - s[:, dof]) ** 2)) / s[:, dof].std() for q, s in windows])
    return std, transient


def test_the_sea_grows_over_its_start():
    block, full = HydroVessel(Hs=2.0, t_ramp=24.0), HydroVessel(Hs=2.0)
    for t in (0.0, 6.0, 12.0, 23.9, 24.0, 30.0):
        assert ramp(t, 24.0) == (1.0 if t >= 24.0 else pytest.approx((1 - np.cos(np.pi * t / 24.0)) / 2, rel=1e-15))
        assert np.array_equal(block.wave_force(t), ramp(t, 24.0) * full.wave_force(t))
        assert block.elevation(t) == ramp(t, 24.0) * full.elevation(t)
    assert ramp(5.0, 0.0) == 1.0


def test_from_rest_in_a_sea_at_full_height_the_first_20_s_are_no_developed_sea():
    """Measured over the 10 seeds: roll 0.74 of the steady standard
    deviation (0.54 to 1.07), the sway's transient 7.8 times the waves' sway."""
    windows = _window(0.0, 0.0)
    assert _ratios(windows, ROLL)[0].mean() < 0.8
    assert _ratios(windows, SWAY)[1].mean() > 3.0


def test_grown_over_three_periods_the_sea_is_developed_20_s_later():
    """Measured over the 10 seeds: the roll's standard deviation 1.004 of the
    steady one (0.93 to 1.09), its transient 0.078 of it, the sway's 0.117."""
    windows = _window(3 * TP, 20.0)
    std, roll = _ratios(windows, ROLL)
    assert std.mean() == pytest.approx(1.0, abs=0.015)
    assert roll.mean() < 0.25
    assert _ratios(windows, SWAY)[1].mean() < 0.35
