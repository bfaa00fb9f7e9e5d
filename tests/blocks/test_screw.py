"""Screw identities of Cibicik & Egeland (2018), eqs. (6)-(28) and (46)."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from crane_cosim.blocks.screw import (Pi, Rbar, U, Ubar, V, ad, cross, rot_axis, rot_x, rot_y, rot_z,
                                      skew, twist_transform, unskew, wrench_transform)

TOL = 1e-12  # double precision on O(1) numbers


def test_skew_is_cross_product(rng):
    a, b = rng.normal(size=3), rng.normal(size=3)
    assert np.allclose(skew(a) @ b, np.cross(a, b), atol=TOL)
    assert np.allclose(cross(a, b), np.cross(a, b), atol=TOL)
    assert np.allclose(unskew(skew(a)), a, atol=TOL)
    assert np.allclose(skew(a), -skew(a).T, atol=TOL)


def test_elementary_rotations_match_axis_angle(rng):
    a = rng.uniform(-np.pi, np.pi)
    for R, axis in ((rot_x(a), [1, 0, 0]), (rot_y(a), [0, 1, 0]), (rot_z(a), [0, 0, 1])):
        assert np.allclose(R, Rotation.from_rotvec(a * np.array(axis)).as_matrix(), atol=TOL)
        assert np.allclose(rot_axis(np.array(axis, float), a), R, atol=TOL)


def test_U_and_Ubar_keep_power(rng):
    """Twist and wrench reference transforms are inverse transposes (eq. (46))."""
    p = rng.normal(size=3)
    t, w = rng.normal(size=6), rng.normal(size=6)
    assert np.allclose(Ubar(p), np.linalg.inv(U(p)).T, atol=TOL)
    assert np.isclose((Ubar(p) @ w) @ (U(p) @ t), w @ t, atol=1e-12)
    assert np.allclose(Ubar(p), Pi @ U(p) @ Pi, atol=TOL)


def test_U_moves_the_reference_point(rng):
    """A rigid-body twist referenced at the new point: v_new = v_old + w x (r_old - r_new)."""
    w, v_old = rng.normal(size=3), rng.normal(size=3)
    r_old, r_new = rng.normal(size=3), rng.normal(size=3)
    t_new = U(r_old - r_new) @ np.concatenate([w, v_old])
    # The velocity of the body point at r_new is v_old + w x (r_new - r_old).
    assert np.allclose(t_new[3:], v_old + np.cross(w, r_new - r_old), atol=TOL)


def test_V_is_the_composition_of_eq_26(rng):
    R = Rotation.random(random_state=1).as_matrix()
    p1, p2 = rng.normal(size=3), rng.normal(size=3)
    assert np.allclose(V(R, p1, p2), U(p2) @ U(p1) @ Rbar(R), atol=TOL)
    assert np.allclose(twist_transform(R, p1), V(R, p1), atol=TOL)
    assert np.allclose(wrench_transform(R, p1), np.linalg.inv(twist_transform(R, p1)).T, atol=TOL)


def test_screw_transforms_compose(rng):
    """Transforming a->b then b->c equals the transform of the composite displacement (eqs. (9)-(10))."""
    Ra, Rb = (Rotation.random(random_state=s).as_matrix() for s in (2, 3))
    pa, pb = rng.normal(size=3), rng.normal(size=3)
    # frame b in a: (Ra, pa); frame c in b: (Rb, pb); twist coordinates from a to b use R^T and p from b to a
    Xab = twist_transform(Ra.T, -Ra.T @ pa)
    Xbc = twist_transform(Rb.T, -Rb.T @ pb)
    Rac, pac = Ra @ Rb, pa + Ra @ pb
    Xac = twist_transform(Rac.T, -Rac.T @ pac)
    assert np.allclose(Xbc @ Xab, Xac, atol=1e-12)


def test_ad_is_the_derivative_of_a_rotating_transform(rng):
    """d/dt (X(q) s) = -ad(a u) X s for X = twist transform of Rot(a, q)^T (used for dP_k/dt)."""
    a = rng.normal(size=3)
    a /= np.linalg.norm(a)
    off = rng.normal(size=3)
    s = rng.normal(size=6)
    q, u, h = 0.3, 1.7, 1e-6

    def X(qq):
        R = rot_axis(a, qq)
        return twist_transform(R.T, -R.T @ off)
    fd = (X(q + u * h) - X(q - u * h)) @ s / (2 * h)
    assert np.allclose(fd, -ad(np.concatenate([a * u, np.zeros(3)])) @ X(q) @ s, atol=1e-8)


@pytest.mark.parametrize("p", [np.zeros(3), np.array([1.0, -2.0, 0.5])])
def test_Rbar_is_coordinate_change(p):
    R = rot_z(0.4) @ rot_x(-0.2)
    assert np.allclose(Rbar(R) @ np.concatenate([p, p]), np.concatenate([R @ p, R @ p]), atol=TOL)
