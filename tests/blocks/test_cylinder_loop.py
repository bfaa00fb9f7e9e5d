"""Closed-loop kinematics of a cylinder-driven joint, eqs. (29)-(40) of
Cibicik & Egeland (2019)."""
import numpy as np
import pytest

from crane_cosim.blocks.block import ParameterError
from crane_cosim.blocks.cylinder_loop import CylinderLoop
from crane_cosim.blocks.knuckle_boom import cylinder_loops


@pytest.mark.parametrize("loop", cylinder_loops(), ids=["boom", "jib"])
def test_loop_closes(loop):
    """Eqs. (29)-(30) put the end of the cylinder (barrel pin + (l_b + q) z_bk)
    on the piston pin of the link, to 1e-12 m, over the whole stroke."""
    for q in np.linspace(0.0, 1.8, 37):
        B, P, tip = loop.pins(q)
        assert np.linalg.norm(tip - P) < 1e-12
        assert np.linalg.norm(P - B) == pytest.approx(loop.l_b + q, abs=1e-12)


@pytest.mark.parametrize("loop", cylinder_loops(), ids=["boom", "jib"])
def test_rates_are_derivatives_of_the_angles(loop):
    """Eqs. (37) and (40) equal central differences of eqs. (29) and (30)
    (h = 1e-6 m: truncation ~1e-12, round-off ~1e-10 rad/s per m/s)."""
    h = 1e-6
    for q in np.linspace(0.05, 1.75, 18):
        a_p, b_p = loop.angles(q + h)
        a_m, b_m = loop.angles(q - h)
        alpha_dot, beta_dot = loop.rates(q, 1.0)
        assert alpha_dot == pytest.approx((a_p - a_m) / (2 * h), abs=1e-8)
        assert beta_dot == pytest.approx((b_p - b_m) / (2 * h), abs=1e-8)


def test_extension_raises_the_boom():
    """Extending the boom cylinder turns the boom up: alpha increases (the
    rate of eq. (37) is positive) over the stroke."""
    inner, _ = cylinder_loops()
    alphas = [inner.angles(q)[0] for q in np.linspace(0, 1.8, 10)]
    assert np.all(np.diff(alphas) > 0)


def test_a_loop_that_cannot_close_is_named():
    loop = CylinderLoop(2.3, 1.0, 2.5, 0.5, 2.5, "boom cylinder (joint 2)")
    with pytest.raises(ParameterError, match=r"boom cylinder \(joint 2\): a piston extension of 3.5 m makes "
                                             r"the pin distance 5.8 m, outside"):
        loop.angles(3.5)


@pytest.mark.parametrize("loop", cylinder_loops(), ids=["boom", "jib"])
def test_gain_rates_are_derivatives_of_the_gains(loop):
    h = 1e-6
    for q in np.linspace(0.05, 1.75, 12):
        ga_p, gb_p = loop.gains(q + h)
        ga_m, gb_m = loop.gains(q - h)
        da, db = loop.gain_rates(q, 0.7)
        assert da == pytest.approx(0.7 * (ga_p - ga_m) / (2 * h), abs=1e-7)
        assert db == pytest.approx(0.7 * (gb_p - gb_m) / (2 * h), abs=1e-7)


@pytest.mark.parametrize("loop", cylinder_loops(), ids=["boom", "jib"])
def test_the_screws_solve_to_the_closed_forms_of_eqs_37_and_40(loop):
    """The virtual-work equations (35) and (39), solved, are the paper's
    closed forms: dalpha/dq = 1 / (a_p c - e_p s) and dbeta/dq = (e_p c +
    a_p s) / ((l_b + q)(a_p c - e_p s)) with c, s of alpha - beta, to
    round-off (measured 3.3e-16 of the gain)."""
    for q in np.linspace(0.0, 1.8, 19):
        alpha, beta = loop.angles(q)
        c, s = np.cos(alpha - beta), np.sin(alpha - beta)
        den = loop.a_p * c - loop.e_p * s
        A_a, A_b = loop.gains(q)
        assert A_a == pytest.approx(1 / den, rel=1e-15)
        assert A_b == pytest.approx((loop.e_p * c + loop.a_p * s) / ((loop.l_b + q) * den), rel=1e-15)
