"""The rigid-body payload (``blocks/rigid_payload.py``) against closed forms:
at rest the hook load is the weight; small swings in a plane at the two
frequencies of the compound double pendulum; the energy kept without
damping, slack and taut; with its lift point at its centre of gravity it
is ``Payload``'s point mass, bit for bit."""
import numpy as np
import pytest
import scipy.linalg

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.payload import Payload
from crane_cosim.blocks.rigid_payload import RigidPayload, rotation


def _run(block, x, u, h, n):
    """States of ``n`` steps of ``h`` from ``x`` with ``u`` held."""
    xs, t = [], 0.0
    for _ in range(n):
        x = block.advance(t, x, u, h)
        t += h
        xs.append(x)
    return np.array(xs)


def _period(times, signal):
    """The mean period of ``signal`` by its upward crossings of zero."""
    k = np.where((signal[:-1] < 0) & (signal[1:] >= 0))[0]
    crossings = times[k] + (times[k + 1] - times[k]) * -signal[k] / (signal[k + 1] - signal[k])
    assert len(crossings) >= 3
    return float(np.mean(np.diff(crossings)))


def test_at_rest_it_hangs_level_below_its_lift_point_and_the_hook_load_is_the_weight():
    b = RigidPayload()
    m, g = b.p.m_payload, b.p.g
    x, u = b.initial_state(), b.default_inputs()
    y = dict(zip(b.output_names(), b.output(0.0, x, u)))
    # measured: 4.9e-14 of the weight, 4.8e-13 m/s2 (the stretch's round-off, as Payload's)
    assert y["T_wire"] == pytest.approx(m * g, rel=1.5e-13)
    assert np.abs(b.derivatives(0.0, x, u)).max() < 1.5e-12
    assert y["payload_p_z"] == pytest.approx(-(b.p.l_wire_0 + m * g / b.stiffness(b.p.l_wire_0) + b.p.h_hook),
                                             rel=1e-15)
    assert [y[f"payload_R_{i}{j}"] for i in (1, 2, 3) for j in (1, 2, 3)] == np.eye(3).ravel().tolist()


def _mode(b, mode):
    """The compound double pendulum of ``b`` in the x-z plane, the wire (of
    its stretched length l) at theta from the vertical, the body at phi,
    small: kinetic energy (m (l theta' - h phi')^2 + I_yy phi'^2) / 2,
    potential m g (l theta^2 + h phi^2) / 2; the angular frequency of its
    ``mode`` (0 the slower) and the state of that mode at 1 mrad."""
    m, g, I, h = b.p.m_payload, b.p.g, b.p.I_yy, b.p.h_hook
    ell = b.p.l_wire_0 + m * g / b.stiffness(b.p.l_wire_0)
    mass = np.array([[m * ell ** 2, -m * ell * h], [-m * ell * h, m * h * h + I]])
    w2, shapes = scipy.linalg.eigh(np.diag([m * g * ell, m * g * h]), mass)
    theta, phi = shapes[:, mode] / np.abs(shapes[:, mode]).max() * 1e-3
    hook = ell * np.array([np.sin(theta), 0.0, -np.cos(theta)])
    centre = hook - h * np.array([np.sin(phi), 0.0, np.cos(phi)])
    quaternion = [np.cos(phi / 2), 0.0, np.sin(phi / 2), 0.0]
    return np.sqrt(w2[mode]), np.concatenate([centre, np.zeros(3), quaternion, np.zeros(3)])


@pytest.mark.parametrize("mode, measured", [(0, 6.0e-8), (1, 1.9e-6)])
def test_small_swings_are_the_compound_double_pendulum_s(mode, measured):
    """Started in one of the two modes of the wire and the body swinging in
    a plane (the default 10 t box, 3 m below its lift point on 20 m of
    wire: 9.64 s and 1.52 s), it swings at that mode's period alone
    (measured beside); undamped its energy stays within 1e-9 of m g l times
    the swing's 1e-6 rad^2."""
    b = RigidPayload(beta_wire=0.0)
    w, x = _mode(b, mode)
    period = 2 * np.pi / w
    n = round(6 * period / 1e-3)
    xs = _run(b, x, b.default_inputs(), 1e-3, n)
    assert _period(np.arange(1, n + 1) * 1e-3, xs[:, 0]) / period - 1 == pytest.approx(0.0, abs=3 * measured)
    energy = np.array([sum(b.energy(s, b.default_inputs())) for s in xs])
    scale = b.p.m_payload * b.p.g * b.p.l_wire_0 * 1e-6
    assert (energy.max() - energy.min()) < 3e-9 * scale


def test_without_damping_the_energy_is_kept_slack_and_taut():
    """Let go 0.5 m above where the wire goes taut, tilted 0.2 rad and
    spinning: it falls, snaps the wire taut, bounces and rocks for 2 s;
    translation, rotation, gravity and the wire's energy kept to 7.0e-9
    of the start (measured)."""
    b = RigidPayload(beta_wire=0.0)
    u = b.default_inputs()
    x = b.initial_state()
    x[2] += 0.5 + b.p.m_payload * b.p.g / b.stiffness(b.p.l_wire_0)
    x[6:10] = [np.cos(0.1), np.sin(0.1), 0.0, 0.0]
    x[10:13] = [0.0, 0.1, 0.05]
    x[:3] += b.hook - rotation(x[6:10]) @ b.hook  # the lift point where it was
    xs = _run(b, x, u, 1e-4, 20_000)
    slack = [b.output(0.0, s, u)[b.output_names().index("slack")] for s in xs]
    assert 0 < sum(slack) < len(slack)
    start = sum(b.energy(x, u))
    energy = np.array([sum(b.energy(s, u)) for s in xs])
    assert np.abs(energy - start).max() < 2.1e-8 * abs(start)


def test_with_its_lift_point_at_its_centre_of_gravity_it_is_the_point_mass():
    """No moment reaches the body: its centre of gravity moves as
    Payload's point mass bit for bit, spinning or not, the tip moving, the
    tag lines and the air at work."""
    rigid, point = RigidPayload(h_hook=0.0, c_tag=300.0, CdA=5.0), Payload(c_tag=300.0, CdA=5.0)
    x, u = rigid.initial_state(), rigid.default_inputs()
    x[10:13] = [0.1, 0.2, 0.3]
    u[3] = 0.5
    assert np.array_equal(_run(rigid, x, u, 1e-3, 3000)[:, :6], _run(point, point.initial_state(), u, 1e-3, 3000))


@pytest.mark.parametrize("values, fragment", [({"I_xx": 0.0}, "I_xx"), ({"h_hook": -1.0}, "h_hook")])
def test_parameters_it_cannot_use_are_refused_by_name(values, fragment):
    with pytest.raises(ParameterError, match=f"RigidPayload parameter {fragment}"):
        RigidPayload(**values)
