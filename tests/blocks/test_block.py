"""The base block's integration of its state over a step (``Block.advance``)
with inputs held and with inputs on a polynomial (``Block.advance_along``,
the input derivatives a master gives an FMU), and the reference and the
validation every block names."""
import re

import numpy as np
import pytest
from integrator_block import Integrator

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.block import Block
from crane_cosim.blocks.compiled_block import CompiledBlock


class FineIntegrator(Integrator):
    """The integrator in sub-steps of 0.1 s."""
    max_step = 0.1


class OwnStep(Integrator):
    """An integrator with its own step (as friction and cylinders have):
    the exact integral of the input held over the step."""

    def advance(self, t, x, u, h):
        return x + h * self.p.k * u[0]


def _polynomial(h, u0, d1, d2, k):
    """The integral over [0, h] of k (u0 + d1 s + d2 s**2 / 2)."""
    return k * (u0 * h + d1 * h ** 2 / 2 + d2 * h ** 3 / 6)


@pytest.mark.parametrize("block", [Integrator, FineIntegrator])
def test_an_input_on_a_quadratic_is_integrated_exactly(block):
    """RK4 is Simpson's rule for dx/dt = k u(t): exact for a quadratic u,
    in one step or in sub-steps (round-off: 1e-16 measured)."""
    b = block(k=2.0)
    du = np.array([[3.0], [-5.0]])
    x = b.advance_along(0.3, np.array([1.0]), np.array([0.5]), du, 0.7)
    assert x[0] == pytest.approx(1.0 + _polynomial(0.7, 0.5, 3.0, -5.0, 2.0), rel=0, abs=1e-14)


def test_zero_derivatives_are_the_held_input_bit_for_bit():
    b = FineIntegrator(k=-1.5)
    x0, u = np.array([0.2]), np.array([0.8])
    held = b.advance(0.0, x0, u, 0.35)
    assert np.array_equal(b.advance_along(0.0, x0, u, np.zeros((2, 1)), 0.35), held)


def test_a_block_with_its_own_step_holds_the_mid_step_value():
    """The midpoint rule: exact for a ramp, off by k d2 h**3 / 24 for the
    quadratic's curvature."""
    b = OwnStep(k=1.0)
    h, u0, d1, d2 = 0.4, 1.0, 2.0, 3.0
    x = b.advance_along(0.0, np.zeros(1), np.array([u0]), np.array([[d1], [d2]]), h)
    assert x[0] == pytest.approx(_polynomial(h, u0, d1, d2, 1.0) - d2 * h ** 3 / 24, rel=0, abs=1e-15)
    ramp = b.advance_along(0.0, np.zeros(1), np.array([u0]), np.array([[d1], [0.0]]), h)
    assert ramp[0] == pytest.approx(_polynomial(h, u0, d1, 0.0, 1.0), rel=0, abs=1e-15)


#: the blocks that follow no publication: their ``reference`` says what
#: they follow instead, and names no year
FOLLOW_NO_PUBLICATION = {"Signal", "Winch", "HeaveCompensation"}


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_every_block_names_its_reference_and_its_validation(name):
    """``reference`` and ``validation``, non-empty texts a block sets itself
    (or a base class of its own sets): ``Block`` declares them without a
    value.  The reference names the year of the publication the model
    follows, but for the blocks that follow none."""
    assert FOLLOW_NO_PUBLICATION <= set(BLOCKS)
    cls = BLOCKS[name]
    for attribute in ("reference", "validation"):
        owner = next((c for c in cls.__mro__ if attribute in vars(c)), Block)
        assert owner is not Block, f"{name} sets no {attribute}"
        text = getattr(cls, attribute)
        assert isinstance(text, str) and text.strip(), f"{name}.{attribute} is empty"
    year = re.search(r"\b\d{4}\b", cls.reference)
    if name in FOLLOW_NO_PUBLICATION:
        assert year is None, f"{name} follows a publication after all: {cls.reference!r}"
    else:
        assert year is not None, f"{name}.reference names no year: {cls.reference!r}"


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_the_reference_experiment_sets_real_inputs_and_parameters(name):
    """The values a block's reference experiment sets name Real inputs or
    parameters of the block (the portable FMU applies them by name)."""
    cls = BLOCKS[name]
    real = {v.name for v in (*cls.inputs, *cls.parameters) if v.type == "Real"}
    assert set(cls.reference_experiment) <= real
    assert all(isinstance(v, float) for v in cls.reference_experiment.values())


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_what_a_block_declares_it_can_do(name):
    """What a block declares of itself, the rest of the package reads
    without a list of its own: the view draws a ``"crane"`` by its
    skeleton and a ``"hull"`` or ``"supports"`` by its outline (and the
    outline is there), a ``"load"`` by its recorded position (its outputs
    ``payload_p_*``); a compiled block names its compile, with a time."""
    cls = BLOCKS[name]
    assert cls.draws in (None, "crane", "hull", "supports", "load")
    if cls.draws == "load":
        assert {f"payload_p_{c}" for c in "xyz"} <= {v.name for v in cls.outputs}
    assert (cls.skeleton is not Block.skeleton) == (cls.draws == "crane")
    assert (cls.outline is not Block.outline) == (cls.draws in ("hull", "supports"))
    if cls.draws in ("hull", "supports"):
        outline, mount = cls().outline()
        assert outline.ndim == 2 and outline.shape[1] == 3 and mount.shape == (3,)
    if issubclass(cls, CompiledBlock):
        assert cls.compile_name.startswith("the ") and cls.compile_name != "the block"
        assert any(unit in cls.compile_time for unit in ("second", " s", "min"))
