"""What the blocks draw (cosim/views/skeletons.py), against the cranes' own
kinematics: the knuckle boom crane's cylinder pins where its loops close
them, its boom and jib at the angles it outputs; the torque-driven crane's
links by hand; the spring vessel's box of its radii of gyration."""
import numpy as np
import pytest

from crane_cosim.blocks.crane import Crane
from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.views.skeletons import crane_parts, hull_outline_of


def _values(**columns):
    return lambda name: np.atleast_1d(np.asarray(columns[name], float))


def _parts(block, **columns):
    """The parts of ``block`` on a mount at the origin, level."""
    n = len(next(iter(columns.values())))
    pose = (np.broadcast_to(np.eye(3), (n, 3, 3)), np.zeros((n, 3)))
    return {p.name: p.points for p in crane_parts(block, _values(**columns), pose)}


@pytest.fixture(scope="module")
def knuckle_boom():
    crane = KnuckleBoomCrane()
    rng = np.random.default_rng(28)
    x = np.column_stack([rng.uniform(-3, 3, 40), rng.uniform(0, crane.p.stroke_boom_cyl, 40),
                         rng.uniform(0, crane.p.stroke_jib_cyl, 40)])
    return crane, x, _parts(crane, q_slew=x[:, 0], q_boom_cyl=x[:, 1], q_jib_cyl=x[:, 2])


def test_the_cylinders_end_on_the_pins_of_the_links(knuckle_boom):
    """Each cylinder drawn from its pins: the barrel from the pin on the link
    below, l_b long toward the other pin, the piston from the pin on the
    link above, l_p long back into the barrel, the pins at the stroke's
    length apart (l_b + q) where the crane's joint map closed the loop
    (measured: 3.6e-15 m at 40 random poses; bound 1.2e-14 m, well inside
    the 1e-9 m a drawing needs)."""
    crane, x, parts = knuckle_boom
    s = crane.sym
    pins = parts["pin brackets"][:, 1::3]  # the bracket's outer end: barrel 2, piston 2, barrel 3, piston 3
    for k, (cyl, l_b) in enumerate((("boom", s.l_b2), ("jib", s.l_b3))):
        barrel, piston = parts[f"{cyl} cylinder barrel"], parts[f"{cyl} cylinder piston"]
        assert np.abs(barrel[:, 0] - pins[:, 2 * k]).max() < 1.2e-14
        assert np.abs(piston[:, 0] - pins[:, 2 * k + 1]).max() < 1.2e-14
        length = np.linalg.norm(piston[:, 0] - barrel[:, 0], axis=1)
        assert np.abs(length - (l_b + x[:, 1 + k])).max() < 1.2e-14
        # the barrel l_b long from its pin toward the piston's, the piston l_p long back into it
        along = (piston[:, 0] - barrel[:, 0]) / length[:, None]
        l_p = crane.values[f"l_{cyl}_cyl_piston"]
        assert np.abs(barrel[:, 1] - (barrel[:, 0] + l_b * along)).max() < 1.2e-14
        assert np.abs(piston[:, 1] - (piston[:, 0] - l_p * along)).max() < 1.2e-14


def test_boom_and_jib_at_the_angles_the_crane_outputs(knuckle_boom):
    """The angle between the king and the boom drawn, and between the boom
    and the jib, is the crane's own output |q_boom|, |q_jib| (its compiled
    kernel's closed forms of the loops; measured 2.2e-16 rad; bound 7e-16)."""
    crane, x, parts = knuckle_boom
    names = crane.output_names()
    u = crane.default_inputs()

    def axis(segment):
        d = segment[:, 1] - segment[:, 0]
        return d / np.linalg.norm(d, axis=1)[:, None]
    king, boom, jib = (axis(parts[n]) for n in ("king", "boom", "jib"))
    for k, (a, b, name) in enumerate(((king, boom, "q_boom"), (boom, jib, "q_jib"))):
        drawn = np.arccos(np.clip(np.sum(a * b, axis=1), -1, 1))
        out = np.array([crane.output(0.0, np.concatenate([xk, np.zeros(3)]), u)[names.index(name)] for xk in x])
        assert np.abs(drawn - np.abs(out)).max() < 7e-16


def test_the_torque_driven_crane_by_hand():
    """At q = 0 king up, boom and jib along the king's y axis (Cibicik &
    Egeland 2018, eqs. 54-56); the boom raised by pi/2 points up."""
    crane = Crane(l_king=2.0, l_boom=3.0, l_jib=1.5)
    parts = _parts(crane, q_slew=[0.0, 0.0], q_boom=[0.0, np.pi / 2], q_jib=[0.0, 0.0])
    assert np.allclose(parts["king"][0], [[0, 0, 0], [0, 0, 2]], atol=1e-12)
    assert np.allclose(parts["jib"][0], [[0, 3, 2], [0, 4.5, 2]], atol=1e-12)
    assert np.allclose(parts["jib"][1], [[0, 0, 5], [0, 0, 6.5]], atol=1e-12)


def test_the_spring_vessel_is_the_box_of_its_radii_of_gyration():
    vessel = Vessel(r_x=3.0, r_y=5.0, r_z=5.5, cog_z=2.0, l_mount=6.0)
    outline, mount = hull_outline_of(vessel)
    corners = outline[np.isfinite(outline[:, 0])]
    L, B, D = corners.max(axis=0) - corners.min(axis=0)
    assert np.allclose([(B**2 + D**2) / 12, (L**2 + D**2) / 12, (L**2 + B**2) / 12], [9.0, 25.0, 30.25])
    assert np.allclose((corners.max(axis=0) + corners.min(axis=0)) / 2, [0, 0, 2.0]) and np.allclose(mount, [0, 0, 6])



@pytest.mark.parametrize("n_rfe", [1, 2, 4, 16])
def test_the_flexible_crane_from_its_outputs(n_rfe):
    """The flexible crane of Jarzębowska et al. (2018) at states whose
    springs are bent: the boom drawn from its chain's root through the
    joints of its elements (each its spring element's ψ joint) to its tip,
    where their recorded deflections put them, are the chain's own points
    (measured 8.9e-16 m; bound 2.7e-15 m, far inside the 1e-9 m a drawing
    needs), and the jib from there to the recorded E, the jib's length
    l_jib apart (measured 1.8e-15 m at n_rfe = 16, E through the chain's
    46 coordinates)."""
    from crane_cosim.blocks.flexible_crane import FlexibleCrane
    from crane_cosim.blocks.kane import kinematics
    crane = FlexibleCrane(n_rfe=n_rfe)
    n, names = crane.chain.n, crane.output_names()
    rng = np.random.default_rng(4)
    u = crane.default_inputs()
    for _ in range(5):
        x = np.zeros(2 * n)
        x[:n] = rng.normal(scale=0.01, size=n)  # the springs bent by up to a few hundredths of a radian
        x[crane.joint_index] = rng.uniform(-1.5, 1.5, 3)
        y = dict(zip(names, crane.output(0.0, x, u)))
        parts = _parts(crane, **{k: [y[k]] for k in names if k.startswith(("q_", "defl_", "tip_p_"))})
        kin = kinematics(crane.chain, x[:n], np.zeros(n))
        chain = [kin.p[1]] + [kin.p[3 * r - 1] for r in range(1, n_rfe)] + [kin.p[n - 2] + kin.R[n - 2] @ crane._tip]
        boom, jib = parts["boom (its elements)"][0], parts["jib"][0]
        assert len(boom) == n_rfe + 1
        assert np.abs(boom - np.array(chain)).max() < 2.7e-15
        assert np.linalg.norm(jib[1] - jib[0]) == pytest.approx(crane.p.l_jib, abs=5.4e-15)
