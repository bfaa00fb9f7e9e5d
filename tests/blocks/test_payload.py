"""The payload on its hoist wire (``blocks/payload.py``) against closed forms:
the static hook load and stretch, the pendulum's and the vertical mode's
periods, the snap load of a mass falling into a taut wire (the energy
balance, and DNV-RP-H103's expression as its stiff limit), the energy kept
without damping and lost with it, a tip moving at constant velocity and a
wire paid out at constant rate carrying the payload unchanged; the tag
lines' damping ratio, the air drag's work."""
import numpy as np
import pytest
from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.payload import Payload

L0 = 20.0
SLACK = Payload.output_names().index("slack")


def _run(block, x, u, h, n):
    """States and outputs of ``n`` steps of ``h`` from ``x`` with ``u`` held."""
    xs, ys, t = [], [], 0.0
    for _ in range(n):
        x = block.advance(t, x, u, h)
        t += h
        xs.append(x)
        ys.append(block.output(t, x, u))
    return np.array(xs), np.array(ys)


def _period(times, signal, level):
    """The mean period of ``signal`` by its upward crossings of ``level``,
    each interpolated linearly between samples."""
    s = signal - level
    k = np.where((s[:-1] < 0) & (s[1:] >= 0))[0]
    crossings = times[k] + (times[k + 1] - times[k]) * -s[k] / (s[k + 1] - s[k])
    assert len(crossings) >= 3
    return float(np.mean(np.diff(crossings)))


def test_at_rest_the_hook_load_is_the_weight_and_the_stretch_m_g_L_over_EA():
    b = Payload()
    m, g, EA = b.p.m_payload, b.p.g, b.p.EA
    x, u = b.initial_state(), b.default_inputs()
    assert x[2] == -(L0 + m * g * L0 / EA)
    y = dict(zip(b.output_names(), b.output(0.0, x, u)))
    # measured: 4.9e-14 of the weight, 4.8e-13 m/s2 (round-off of EA / L times the stretch)
    assert y["T_wire"] == pytest.approx(m * g, rel=1.5e-13)
    assert (y["F_tip_x"], y["F_tip_y"]) == (0.0, 0.0) and y["F_tip_z"] == -y["T_wire"]
    assert np.abs(b.derivatives(0.0, x, u)).max() < 1.5e-12
    assert y["slack"] == 0.0 and y["payload_p_z"] == x[2]


def test_a_small_swing_has_the_pendulums_period_of_the_stretched_wire():
    """2 pi sqrt(l / g), l = L + m g / k the stretched length, times the
    large-amplitude correction 1 + theta^2 / 16 (theta 0.01 rad: 6.25e-6);
    measured with it: 7.7e-8."""
    b = Payload(beta_wire=0.0)
    m, g = b.p.m_payload, b.p.g
    ell = L0 + m * g / b.stiffness(L0)
    theta = 0.01
    x = np.array([ell * np.sin(theta), 0.0, -ell * np.cos(theta), 0.0, 0.0, 0.0])
    xs, _ = _run(b, x, b.default_inputs(), 1e-3, 40_000)
    period = _period(np.arange(1, 40_001) * 1e-3, -xs[:, 0], 0.0)
    assert period / (2 * np.pi * np.sqrt(ell / g) * (1 + theta ** 2 / 16)) - 1 == pytest.approx(0.0, abs=2.5e-7)


def test_a_vertical_oscillation_has_the_springs_period():
    """2 pi sqrt(m / k), k = EA / L; measured: 5e-12."""
    b = Payload(beta_wire=0.0)
    x = b.initial_state()
    rest = x[2]
    x[2] -= 0.01
    xs, _ = _run(b, x, b.default_inputs(), 1e-4, 30_000)
    period = _period(np.arange(1, 30_001) * 1e-4, xs[:, 2], rest)
    assert period == pytest.approx(2 * np.pi * np.sqrt(b.p.m_payload / b.stiffness(L0)), rel=2e-11)


def _snap(b, drop, h, n):
    """The peak tension of the payload let go at rest ``drop`` [m] above
    where the wire goes taut, and the run's states and outputs."""
    x = np.array([0.0, 0.0, -(L0 - drop), 0.0, 0.0, 0.0])
    xs, ys = _run(b, x, b.default_inputs(), h, n)
    return ys[:, 3].max(), xs, ys


def test_a_mass_falling_into_a_taut_wire_peaks_at_the_energy_balance():
    """Free fall over ``drop``, then the wire stretches until the energy
    m g (drop + x) = k x^2 / 2: T_max = m g + sqrt((m g)^2 + 2 m g drop k);
    measured: 1.7e-7 (the peak between samples of 0.1 ms)."""
    b = Payload(beta_wire=0.0)
    m, g, k, drop = b.p.m_payload, b.p.g, b.stiffness(L0), 0.5
    peak, _, ys = _snap(b, drop, 1e-4, 6000)
    assert peak == pytest.approx(m * g + np.sqrt((m * g) ** 2 + 2 * m * g * drop * k), rel=5e-7)
    assert ys[0, SLACK] == 1.0 and ys[ys[:, 3].argmax(), SLACK] == 0.0  # slack, then taut


def test_dnv_rp_h103s_snap_load_is_the_stiff_wires_limit():
    """DNV-RP-H103 (2011), section 4.7: the snap load v sqrt(k m) (in air,
    no added mass), on top of the static m g.  It leaves out the weight
    during the stretch, worth (m g)^2 / (2 v sqrt(k m)) more: for a wire
    100 times as stiff as the default, 1.098e-4 of the peak by that
    expression, 1.094e-4 in the run (0.4% apart: the expansion's next
    term, and the run's 4e-7 off the energy balance)."""
    b = Payload(beta_wire=0.0, EA=8.8e9)
    m, g, k, drop = b.p.m_payload, b.p.g, b.stiffness(L0), 0.5
    v = np.sqrt(2 * g * drop)
    peak, _, _ = _snap(b, drop, 1e-5, 40_000)
    dnv = m * g + v * np.sqrt(k * m)
    assert peak / dnv - 1 == pytest.approx((m * g) ** 2 / (2 * v * np.sqrt(k * m)) / dnv, rel=0.012)


def test_without_damping_the_energy_is_kept_slack_and_taut():
    """Dropped from 0.5 m of slack, the payload bounces on the wire for 2 s
    (slack and taut in turn): kinetic + gravity + elastic energy kept to
    3.3e-9 of its start (measured), to 1e-8 here."""
    b = Payload(beta_wire=0.0)
    u = b.default_inputs()
    _, xs, ys = _snap(b, 0.5, 1e-4, 20_000)
    assert 0 < ys[:, SLACK].sum() < len(ys)  # it went slack again
    start = sum(b.energy(np.array([0.0, 0.0, -19.5, 0.0, 0.0, 0.0]), u))
    energy = np.array([sum(b.energy(x, u)) for x in xs])
    assert np.abs(energy / start - 1).max() < 1e-8


def test_with_damping_the_energy_only_falls():
    b = Payload()
    u = b.default_inputs()
    _, xs, _ = _snap(b, 0.5, 1e-4, 20_000)
    energy = np.array([sum(b.energy(x, u)) for x in xs])
    assert np.all(np.diff(energy) <= 1e-9 * abs(energy[0]))
    assert energy[-1] < energy[0] - 0.5 * b.p.m_payload * b.p.g * 0.1  # most of the bounce damped out


def test_a_tip_at_constant_velocity_and_a_wire_paid_out_steadily_carry_the_payload_unchanged():
    """Galilean invariance, and a pay-out at dL/dt = c with the payload
    sinking at c: no stretch rate, so the damping adds nothing and the
    payload stays in equilibrium (its acceleration 0 to round-off)."""
    b = Payload(c_tag=500.0)
    x, u = b.initial_state(), b.default_inputs()
    u[3:6] = [1.5, -0.5, 0.2]
    x[3:] = u[3:6]
    assert np.abs(b.derivatives(0.0, x, u)).max() < 1.5e-12
    x, u = b.initial_state(), b.default_inputs()
    u[7], x[5] = 0.8, -0.8  # L grows at 0.8 m/s, the payload sinks at 0.8 m/s
    assert np.abs(b.derivatives(0.0, x, u)[3:]).max() < 1.5e-12
    assert b.output(0.0, x, u)[3] == pytest.approx(b.p.m_payload * b.p.g, rel=1.5e-13)


def _peaks(signal):
    """The maxima of ``signal``, each refined by the parabola through it and
    its neighbours."""
    i = np.where((signal[1:-1] > signal[:-2]) & (signal[1:-1] >= signal[2:]))[0] + 1
    y0, y1, y2 = signal[i - 1], signal[i], signal[i + 1]
    return y1 - 0.125 * (y0 - y2) ** 2 / (y0 - 2 * y1 + y2)


def test_tag_lines_damp_the_swing_at_the_damping_ratio_they_are_given():
    """Tag lines of c_tag = 2 zeta m sqrt(g / l) swing the pendulum down at
    the damping ratio zeta = 0.05: each period's logarithmic decrement
    2 pi zeta / sqrt(1 - zeta^2) (measured: zeta within 1.9e-5 of it over
    four periods, the wire's stretch coupling the swing to the vertical);
    the swing output is the payload's horizontal distance from under the tip."""
    b = Payload(beta_wire=0.0)
    m, g = b.p.m_payload, b.p.g
    ell = L0 + m * g / b.stiffness(L0)
    b = Payload(beta_wire=0.0, c_tag=2 * 0.05 * m * np.sqrt(g / ell))
    theta = 0.01
    x = np.array([ell * np.sin(theta), 0.0, -ell * np.cos(theta), 0.0, 0.0, 0.0])
    xs, ys = _run(b, x, b.default_inputs(), 1e-3, 40_000)
    peaks = _peaks(xs[:, 0])
    decrement = np.log(peaks[:-1] / peaks[1:])
    assert len(peaks) == 4
    assert np.abs(decrement / np.sqrt(4 * np.pi ** 2 + decrement ** 2) / 0.05 - 1).max() < 6e-5
    assert np.array_equal(ys[:, b.output_names().index("swing")], np.hypot(xs[:, 0], xs[:, 1]))


def test_the_air_s_drag_takes_the_energy_its_work_says():
    """A swing of 0.3 rad in still air, drag area 20 m2, no other damping:
    over 20 s the energy lost (8% of the swing's) is the drag's work
    int rho_air C_d A |v|^3 / 2 dt (trapezoids on the 1 ms steps; measured
    3.9e-9 apart)."""
    b = Payload(beta_wire=0.0, CdA=20.0)
    m, g = b.p.m_payload, b.p.g
    ell = L0 + m * g / b.stiffness(L0)
    u, h = b.default_inputs(), 1e-3
    x0 = np.array([ell * np.sin(0.3), 0.0, -ell * np.cos(0.3), 0.0, 0.0, 0.0])
    xs = np.vstack([x0, _run(b, x0, u, h, 20_000)[0]])
    energy = np.array([sum(b.energy(x, u)) for x in xs])
    power = 0.5 * b.p.rho_air * 20.0 * np.linalg.norm(xs[:, 3:], axis=1) ** 3
    work = np.sum(power[1:] + power[:-1]) * h / 2
    assert energy[0] - energy[-1] == pytest.approx(work, rel=1.2e-8)
    assert energy[0] - energy[-1] > 0.07 * m * g * ell * (1 - np.cos(0.3))


@pytest.mark.parametrize("values,fragment", [
    ({"m_payload": 0.0}, "m_payload"), ({"EA": -1.0}, "EA"), ({"beta_wire": -0.1}, "beta_wire"),
    ({"l_wire_0": 0.0}, "l_wire_0"), ({"c_tag": -1.0}, "c_tag"), ({"CdA": -1.0}, "CdA"),
])
def test_parameters_it_cannot_use_are_refused_by_name(values, fragment):
    with pytest.raises(ParameterError, match=f"Payload parameter {fragment}"):
        Payload(**values)
