"""The waves of a sea state (``blocks/waves.py``): the realised spectrum
against the JONSWAP target, the same sea from the same seed, the moments'
directions and signs against the water surface's slope, and the motion
they give the vessel of Table I of Cibicik & Egeland (2018)."""
import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.signal import welch

from crane_cosim.blocks.vessel import Vessel
from crane_cosim.blocks.waves import Waves
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.waves import BAND, jonswap

#: three hours at 4 Hz, a long record
RECORD = np.arange(0.0, 3 * 3600.0, 0.25)


@pytest.mark.parametrize("gamma", [1.0, 3.3])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_realised_spectrum_is_the_target(seed, gamma):
    """Hs = 4 sqrt(m0) of the record's spectrum (Welch, 128 s segments)
    within 2% (measured: 0.6% at most), its peak in the frequency bin of
    1/Tp or the next (measured: the same bin in 5 of 6, the next in one)."""
    w = Waves(Hs=2.0, Tp=8.0, gamma=gamma, seed=seed)
    f, S = welch(w.elevation(RECORD), fs=4.0, nperseg=512)
    assert 4 * math.sqrt(np.trapezoid(S, f)) == pytest.approx(2.0, rel=0.02)
    assert abs(f[np.argmax(S)] - 1 / 8.0) <= f[1]


def test_the_waves_variance_is_exactly_the_sea_states():
    w = Waves(Hs=3.5, Tp=11.0, n_waves=57)
    assert np.sum(w.a ** 2) / 2 == pytest.approx((3.5 / 4) ** 2, rel=1e-14)


@pytest.mark.parametrize("gamma, within", [(1.0, 1e-6), (3.3, 0.008), (5.0, 1e-5), (7.0, 0.05)])
def test_the_jonswap_spectrum_holds_the_sea_states_variance(gamma, within):
    """DNV-RP-C205's normalisation 1 - 0.287 ln(gamma) makes the variance
    (Hs/4)**2, approximately (measured: exact to 2e-7 at gamma 1, 0.24% over
    at 3.3, 2.6e-6 at 5, 1.75% under at 7; the block scales its waves to
    the exact variance), and the realised band holds 99.8% of it."""
    whole = quad(lambda x: jonswap(np.array(x), 2.0, 8.0, gamma), 0.05, 40, limit=400)[0]
    assert whole == pytest.approx(0.25, rel=within)
    wp = 2 * math.pi / 8.0
    band = quad(lambda x: jonswap(np.array(x), 2.0, 8.0, gamma), BAND[0] * wp, BAND[1] * wp, limit=400)[0]
    assert band / whole > 0.998


def test_the_same_seed_gives_the_same_sea_bit_for_bit():
    t = np.linspace(0.0, 1200.0, 997)
    runs = [np.array([Waves(seed=s, heading=0.5).output(ti, None, None) for ti in t]) for s in (7, 7, 8)]
    assert np.array_equal(runs[0], runs[1])
    assert not np.allclose(runs[0], runs[2])


def _slope_std(gamma=3.3):
    """The standard deviation of the water surface's slope along the waves,
    sqrt(m4) / g from the spectrum's fourth moment (deep water)."""
    m4 = quad(lambda x: x ** 4 * jonswap(np.array(x), 2.0, 8.0, gamma), 0.5 * math.pi / 4, 5 * math.pi / 4,
              limit=400)[0]
    return math.sqrt(m4) / 9.81


@pytest.mark.parametrize("heading", [0.0, math.pi / 6, math.pi / 2])
def test_the_moments_follow_the_slope_under_the_vessel(heading):
    """The moments' standard deviations are the gains times the slope's,
    sqrt(m4)/g, times sin and cos of the heading (measured within 0.3%)."""
    w = Waves(heading=heading, K_roll=2e4, K_pitch=3e4)
    y = np.array([w.output(t, None, None) for t in RECORD[::4]])
    b = heading
    assert y[:, 1].std() == pytest.approx(2e4 * abs(math.sin(b)) * _slope_std(), rel=0.01, abs=1e-9)
    assert y[:, 2].std() == pytest.approx(3e4 * abs(math.cos(b)) * _slope_std(), rel=0.01, abs=1e-9)
    assert np.all(y[:, 3] == 0.0)  # no yaw moment by default


def test_the_vessel_heels_with_the_water_surface():
    """One regular wave travelling toward +y, eta = a cos(w t + phi) at the
    vessel: the surface's slope under it is d(eta)/dy = -(k / w) d(eta)/dt,
    so M_wave_roll = -K_roll (w / g) d(eta)/dt, positive (lifting y1) while
    the water there falls; toward +x, M_wave_pitch = +K_pitch (w / g)
    d(eta)/dt, lowering x1 (d(eta)/dt by central differences of 0.1 ms,
    whose error (w dt)**2 / 6 is 8e-9 of the moment's amplitude, measured)."""
    t, dt = np.linspace(0.0, 60.0, 601), 1e-4
    for heading, column, sign in ((math.pi / 2, 1, -1.0), (0.0, 2, 1.0)):
        w = Waves(heading=heading, n_waves=1, K_roll=2e4, K_pitch=3e4)
        rate = (w.elevation(t + dt) - w.elevation(t - dt)) / (2 * dt)
        moment = np.array([w.output(ti, None, None)[column] for ti in t])
        gain = 2e4 if column == 1 else 3e4
        expected = sign * gain * w.w[0] / 9.81 * rate
        np.testing.assert_allclose(moment, expected, rtol=0, atol=2.4e-8 * np.abs(expected).max())


def test_beam_seas_roll_the_table_i_vessel_a_few_degrees():
    """300 s of beam seas, Hs = 2 m, Tp = 8 s, the default gains, the
    undamped vessel of Table I: its largest roll 3.8 deg (measured), its
    pitch nothing."""
    waves, vessel = Waves(), Vessel(h_max=0.01)
    vessel.prepare()
    x, u, h = vessel.initial_state(), vessel.default_inputs(), 0.01
    q = []
    for i in range(30000):
        u[27:30] = waves.output(i * h, None, None)[1:]
        x = vessel.advance(i * h, x, u, h)
        q.append(x[:3].copy())
    q = np.degrees(np.array(q))
    assert 3.4 < np.abs(q[:, 0]).max() < 4.2
    assert np.abs(q[:, 1:]).max() < 1e-9


@pytest.mark.parametrize("name, value", [("seed", -1.0), ("seed", 1.5), ("n_waves", 0.0), ("Hs", 0.0),
                                         ("Tp", -8.0), ("K_roll", -1.0), ("t_ramp", -1.0)])
def test_a_bad_parameter_is_named(name, value):
    with pytest.raises(ParameterError, match=f"Waves parameter {name} = "):
        Waves(**{name: value})


def test_a_regular_wave_is_the_cosine_of_its_height_and_period():
    """``waves = regular``: the elevation H/2 cos(2 pi t / T), a crest at the
    origin at t = 0, and the roll moment K_roll k H/2 sin(b) sin(2 pi t / T)
    (the slope of that wave, k = w^2 / g, deep water): to round-off (the
    same operations: measured equal)."""
    H, T, b = 3.0, 8.0, 1.1
    w = Waves(waves="regular", Hs=H, Tp=T, heading=b, K_roll=2e4)
    t = np.linspace(0.0, 40.0, 401)
    y = np.array([w.output(ti, None, None) for ti in t])
    omega = 2 * math.pi / T
    assert np.allclose(y[:, 0], H / 2 * np.cos(omega * t), rtol=0, atol=4e-16 * H)
    slope = omega ** 2 / 9.81 * H / 2
    assert np.allclose(y[:, 1], 2e4 * math.sin(b) * slope * np.sin(omega * t), rtol=0, atol=4e-16 * 2e4 * slope)


def test_a_sea_of_another_kind_is_refused():
    with pytest.raises(ParameterError, match="Waves parameter waves = 'swell' is invalid: it must be one of "
                                             "'irregular', 'regular'"):
        Waves(waves="swell")


def test_the_sea_grows_from_calm_over_its_start():
    """With ``t_ramp``, the elevation and the moments are the full sea's times
    (1 - cos(pi t / t_ramp)) / 2, then the full sea's."""
    grown, full = Waves(t_ramp=16.0), Waves()
    x, u = np.zeros(0), np.zeros(0)
    for t in (0.0, 4.0, 8.0, 15.0, 16.0, 40.0):
        share = 1.0 if t >= 16.0 else (1 - math.cos(math.pi * t / 16.0)) / 2
        assert grown.output(t, x, u) == pytest.approx(share * full.output(t, x, u), rel=1e-15, abs=1e-300)
