"""Fixtures of the FMU tests: an FMU built as on a machine without a C compiler."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def plain_fmu_dir(tmp_path_factory):
    """``Controller.fmu`` built where no C compiler is found: it carries
    pythonfmu's binary alone (``fmus/native.py``).  The warning printed then
    is tested on its own (test_c_host.py)."""
    from crane_cosim.fmus import native
    from crane_cosim.fmus.build import build_fmu
    out = tmp_path_factory.mktemp("plain_fmus")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CC", str(out / "no-such-cc"))
        mp.setattr(native, "_warned", True)
        build_fmu("Controller", out)
    return out
