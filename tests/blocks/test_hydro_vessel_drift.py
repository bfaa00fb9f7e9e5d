"""The barge's second-order wave drift (``HydroVessel``, ``drift``): the
mean force of a regular wave and the offset it holds the moored barge at,
Newman's slow drift against its double sum, the mean in a sea against the
spectrum's integral, the sea's start, and the refusals."""
import math

import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.hull_database import drift_at, excitation_at, read_database, write_database
from crane_cosim.blocks.hydro_vessel import HydroVessel
from crane_cosim.blocks.waves import BAND, jonswap, ramp

SURGE, SWAY = 0, 1
BEAM = math.pi / 2


def _regular(block, w, a):
    """Make ``block``'s sea one beam wave of amplitude ``a`` [m] and angular
    frequency ``w`` [rad/s]."""
    db = block.db
    block.set_waves([w], [a], [0.0], excitation_at(db.omega, db.heading, db.excitation, np.array([w]), BEAM))


def test_a_regular_wave_pushes_by_its_amplitude_squared_and_the_mooring_holds_it_off():
    """A beam wave of 0.5 m at 1.2 rad/s pushes the barge by a^2 T(w) along
    the waves (the database's coefficient, 0.45 of the wall's rho g L / 2,
    Longuet-Higgins 1977), and the soft mooring holds it off by that force
    over its stiffness: the mean sway over 19 wave periods after 500 s
    (the mooring's transient e^-9 of the offset), against the hand
    computation F / K_sway (measured 7.0e-5 of it), the surge's and the
    heave's means 3.5e-5 of it or less."""
    v = HydroVessel(drift="mean")
    _regular(v, 1.2, 0.5)
    T = drift_at(v.db.omega, v.db.heading, v.db.drift, np.array([1.2]), BEAM)[0]
    F = v.drift_force(0.0)
    assert np.array_equal(F, 0.25 * T)
    assert F[SWAY] / 0.25 == pytest.approx(0.450 * 0.5 * 1025.0 * 9.81 * 40.0, rel=1e-3)
    assert abs(F[SURGE]) < 1e-4 * F[SWAY]
    offset = F[SWAY] / v.K_moor[SWAY, SWAY]
    period = 2 * math.pi / 1.2
    h = period / 100
    x, u = v.initial_state(), v.default_inputs()
    n0, n = math.ceil(500.0 / h), 19 * 100
    q = []
    for i in range(n0 + n):
        x = v.advance(i * h, x, u, h)
        if i >= n0:
            q.append(x[:6])
    mean = np.mean(q, axis=0)
    assert mean[SWAY] == pytest.approx(offset, rel=2.1e-4)
    assert np.all(np.abs(mean[[SURGE, 2]]) < 1e-4 * offset)


def test_newman_s_slow_drift_is_the_double_sum_of_the_mean_coefficients():
    """Newman's (1974) approximation, sum_ij a_i a_j (T_i + T_j) / 2
    cos((w_i - w_j) t + phi_i - phi_j), summed by hand over five waves,
    is the vessel's drift at any time to round-off; its mean over a long
    record is the mean drift sum a_i^2 T_i (the difference frequencies
    averaged out; measured 8.0e-5 of it over 2000 s of five waves)."""
    slow, mean = (HydroVessel(Hs=2.0, n_waves=5.0, seed=3.0, drift=d) for d in ("newman", "mean"))
    a, w, phi, T = slow.a, slow.w, slow.phi, slow.T
    pairs = (T[:, None, :] + T[None, :, :]) / 2
    for t in (0.0, 3.7, 41.0, 377.5):
        phase = (w[:, None] - w[None, :]) * t + phi[:, None] - phi[None, :]
        by_hand = np.einsum("i,j,ij,ijk->k", a, a, np.cos(phase), pairs)
        assert np.abs(slow.drift_force(t) - by_hand).max() < 1e-13 * np.abs(by_hand).max()
    assert np.array_equal(mean.drift_force(10.0), (a * a) @ T)
    record = np.array([slow.drift_force(t) for t in np.arange(0.0, 2000.0, 0.5)])
    assert record.mean(axis=0)[SWAY] == pytest.approx(mean.drift_force(0.0)[SWAY], rel=2.4e-4)


def test_the_mean_drift_in_a_sea_is_the_spectrum_s_integral():
    """In beam seas of Hs 2 m, Tp 8 s the barge's mean drift, the sum over
    the realisation's 400 waves, is 2 int S(w) T(w) dw over the realised
    band (trapezoids on 20001 points; measured 6.9e-4 apart for the
    default seed, up to 0.9% for others, the waves' frequencies drawn
    within their bins): 17.1 kN, 3.0 m on the soft mooring (a coarse
    estimate for a barge this size was 15 kN, 2.6 m)."""
    v = HydroVessel(Hs=2.0, Tp=8.0, drift="mean")
    wp = 2 * math.pi / 8.0
    w = np.linspace(BAND[0] * wp, BAND[1] * wp, 20001)
    T = drift_at(v.db.omega, v.db.heading, v.db.drift, w, BEAM)
    S = jonswap(w, 2.0, 8.0, v.p.gamma)
    integral = np.trapezoid(2 * S[:, None] * T, w, axis=0)
    F = v.drift_force(0.0)
    assert F[SWAY] == pytest.approx(integral[SWAY], rel=2.1e-3)
    assert F[SWAY] / v.K_moor[SWAY, SWAY] == pytest.approx(3.0, abs=0.02)


def test_the_drift_grows_with_the_sea_s_height_squared():
    grown, full = HydroVessel(Hs=2.0, t_ramp=24.0), HydroVessel(Hs=2.0)
    for t in (0.0, 6.0, 12.0, 30.0):
        assert np.array_equal(grown.drift_force(t), ramp(t, 24.0) ** 2 * full.drift_force(t))


def test_the_drift_s_outputs_are_its_force():
    v = HydroVessel(Hs=2.0)
    y = dict(zip(v.output_names(), v.output(12.5, v.initial_state(), v.default_inputs())))
    assert [y["F_drift_surge"], y["F_drift_sway"]] == pytest.approx(v.drift_force(12.5), rel=1e-13, abs=1e-9)
    assert not np.any(HydroVessel(Hs=2.0, drift="none").drift_force(12.5))


@pytest.mark.parametrize("values, message", [
    ({"drift": "slow"}, "HydroVessel parameter drift = 'slow' is none of newman, mean, none"),
])
def test_a_drift_that_is_none_of_the_forms_is_refused(values, message):
    with pytest.raises(ParameterError, match=message):
        HydroVessel(**values)


def test_a_database_without_drift_coefficients_is_named(tmp_path):
    """A database computed before the drift was: one sentence naming it and
    the two ways on, its waves' first order as before with ``drift = none``."""
    db = read_database("barge")
    db.drift = None
    path = write_database(db, tmp_path / "old.nc")
    with pytest.raises(ParameterError, match=r"old\.nc carries no drift coefficients: compute it again with "
                                             r"`crane-cosim hydro`, or set drift = none"):
        HydroVessel(database=str(path))
    HydroVessel(database=str(path), drift="none", Hs=1.0)


def test_the_barge_s_drift_coefficients_are_those_of_a_wall_in_short_waves():
    """The shipped barge's drift (``crane-cosim hydro``, the far field on its
    RAOs): long waves (0.05 to 0.45 rad/s) push it by nothing (measured
    2.3e-7 of a wall's rho g L / 2 at most: it moves with them); short
    waves (3 rad/s and up) by nearly a wall's push, in beam seas 0.91 to
    0.93 of rho g L / 2, in head seas 0.92 to 0.96 of the bow's rho g B / 2,
    along the waves and not across them (below 1e-3)."""
    db = read_database("barge")
    wall = 0.5 * 1025.0 * 9.81 * np.array([40.0, 12.0])
    head, beam = list(np.round(np.degrees(db.heading))).index(0), list(np.round(np.degrees(db.heading))).index(90)
    assert np.abs(db.drift[:, db.omega <= 0.45]).max() < 7e-7 * wall[0]
    short = db.omega >= 3.0
    assert db.drift[beam, short, SWAY] / wall[0] == pytest.approx(0.92, abs=0.01)
    assert db.drift[head, short, SURGE] / wall[1] == pytest.approx(0.94, abs=0.02)
    assert np.abs(db.drift[beam, short, SURGE]).max() < 1e-3 * wall[0]
    assert np.abs(db.drift[head, short, SWAY]).max() < 1e-3 * wall[1]
