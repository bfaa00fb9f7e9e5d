"""Shared fixtures: FMUs are built once per test session into a temporary
folder (build outputs are never committed)."""
from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="session")
def fmu_dir(tmp_path_factory):
    from crane_cosim.fmus.build import build_all
    out = tmp_path_factory.mktemp("fmus")
    build_all(out)
    return out


@pytest.fixture(scope="session")
def choice_fmu(tmp_path_factory):
    """``Choice.fmu``: the test-only block with String parameters
    (``tests/choice_block.py``), built from its class, alone in its folder."""
    from choice_block import Choice
    from crane_cosim.fmus.build import build_block_fmu
    return build_block_fmu(Choice, tmp_path_factory.mktemp("choice"))


@pytest.fixture(scope="session")
def integrator_fmu(tmp_path_factory):
    """``Integrator.fmu``: the test-only integrator (``tests/integrator_block.py``),
    built from its class, alone in its folder."""
    from integrator_block import Integrator
    from crane_cosim.fmus.build import build_block_fmu
    return build_block_fmu(Integrator, tmp_path_factory.mktemp("integrator"))


@pytest.fixture
def rng():
    return np.random.default_rng(20181)
