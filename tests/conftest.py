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


@pytest.fixture
def rng():
    return np.random.default_rng(20181)
