"""The controllers' outputs over Python floats (``ScheduledPD.pd_values``)
against the same law in numpy arrays (``ScheduledPD.pd``, ``np.clip``):
the same operations in the same order, so the same bits (tolerance zero;
measured: no difference in 20000 random cases), NaN inputs included."""
import numpy as np
import pytest

from crane_cosim.blocks.controller import Controller, KnuckleBoomController


def _numpy_output(block, t, u):
    if isinstance(block, Controller):
        tau, q_ref, _ = block.pd(t, u[:3], u[3:])
        return np.concatenate([tau, q_ref])
    pd, q_ref, u_ref = block.pd(t, u[:3], u[3:6])
    e, v_ref, dF = q_ref[1:] - u[1:3], u_ref[1:], u[9:11] - u[7:9]
    valves = np.clip(block._kx * e + block._kff * v_ref - block._kF * dF, -1.0, 1.0)
    return np.concatenate([u[6:9] + pd, q_ref, valves])


@pytest.mark.parametrize("cls", [Controller, KnuckleBoomController], ids=lambda c: c.model_name)
def test_the_outputs_over_floats_are_the_numpy_law_to_the_bit(cls):
    block, rng = cls(), np.random.default_rng(3)
    for k in range(2000):
        t = rng.uniform(-1.0, 22.0)  # before, during and after the moves
        u = rng.standard_normal(len(cls.inputs)) * rng.choice([1e-3, 1.0, 1e3, 1e6])
        if k % 100 == 0:
            u[rng.integers(u.size)] = np.nan
        y, reference = block.output(t, None, u), _numpy_output(block, t, u)
        assert np.array_equal(y, reference, equal_nan=True) and np.array_equal(np.signbit(y), np.signbit(reference))
