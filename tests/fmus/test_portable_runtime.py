"""The portable FMUs' Python runtime (``fmus/portable_runtime.py``): which
shared libraries it must carry beside the interpreter."""
from pathlib import Path

import numpy
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.fmus import portable_runtime


def test_one_ldd_over_many_binaries_finds_what_one_per_binary_finds(monkeypatch):
    """The libraries each of numpy's and the interpreter's extension modules
    needs, asked of ``ldd`` for all of them at once, are those it gives
    asked for each alone (its output then has no heading per file)."""
    binaries = sorted(Path(numpy.__file__).parent.rglob("*.so"))[:20]
    binaries += sorted(Path(portable_runtime._stdlib(), "lib-dynload").glob("*.so"))[:20]
    assert len(binaries) > 20
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})
    portable_runtime._ldd(binaries)
    together = dict(portable_runtime._NEEDED)
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})
    for binary in binaries:
        portable_runtime._ldd([binary])
    assert together == portable_runtime._NEEDED
    assert any(together.values())  # some need libraries beyond the system's (numpy's OpenBLAS)


def test_a_binary_ldd_cannot_run_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no ldd
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})
    with pytest.raises(CraneCosimError, match=r"cannot list the libraries .* needs \(ldd\)"):
        portable_runtime._needed_libraries(Path(numpy.__file__))
