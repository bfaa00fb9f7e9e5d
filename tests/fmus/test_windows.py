"""The Windows binary the lean FMUs carry (``binaries/win64``, pythonfmu's,
which runs the block in the host's Python), run by FMPy in a Windows Python
3.11 under Wine (``windows_python.py``): each FMU's DefaultExperiment ends
on the outputs FMPy gives on Linux with the FMU's Linux binary.  The blocks
whose kernels numba compiles are left out: numba compiles them anew on
Windows, for a minute each under Wine.  (The portable FMUs carry no Windows
binary: docs/portable_fmus.md says what it takes.)"""
from __future__ import annotations

import numpy as np
import pytest

from crane_cosim.blocks import BLOCKS
from crane_cosim.blocks.compiled_block import CompiledBlock
from fmpy_hosts import fmpy_final_outputs
from windows_python import find_wine, windows_python

#: the blocks without numba kernels
PLAIN = [model for model, cls in BLOCKS.items() if not issubclass(cls, CompiledBlock)]


@pytest.fixture(scope="session")
def windows(tmp_path_factory):
    wine = find_wine()
    if wine is None:
        pytest.skip("Wine is not installed (Debian: apt-get install wine64)")  # a failure under CI
    return windows_python(tmp_path_factory.mktemp("windows"), wine)


def test_the_lean_fmus_windows_binary_runs_in_a_windows_python(windows, fmu_dir, lean_fmpy_outputs):
    """Every plain block's lean FMU, by FMPy in the Windows Python, to the
    Linux run's outputs at the end of its DefaultExperiment: bit for bit,
    but for the waves' elevation and moments (their sines), to 6 units in
    the last place (2 measured)."""
    assert set(PLAIN) == {"Controller", "KnuckleBoomController", "Signal", "Waves", "PrescribedVessel"}
    fmus = [fmu_dir / f"{model}.fmu" for model in PLAIN]
    for model, got in zip(PLAIN, fmpy_final_outputs(windows.command, fmus, windows.env, windows.path_of)):
        expected = lean_fmpy_outputs[model]
        assert list(got) == list(expected), model
        assert np.count_nonzero(list(expected.values())) >= 1, model
        # the same bits but for the waves' sines, which numpy 1.26 on Windows and numpy 2 here round
        # apart: 2 units in the last place at most (measured)
        np.testing.assert_array_max_ulp(np.array(list(got.values())), np.array(list(expected.values())),
                                        maxulp=6 if model == "Waves" else 0)
