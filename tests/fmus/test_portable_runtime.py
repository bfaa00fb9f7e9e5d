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


def test_what_ldd_found_is_kept_for_later_processes(monkeypatch, tmp_path):
    """The libraries to preload, found by ``ldd`` in one process, are read
    back by the next from the cache folder, without ``ldd``; after the
    loader's cache changes, ``ldd`` is asked again."""
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    files = {f"lib/{p.name}": p for p in sorted(Path(numpy.__file__).parent.rglob("*.so"))[:10]}
    files.update({f"lib/{p.name}": p for p in sorted(Path(portable_runtime._stdlib(), "lib-dynload").glob("*.so"))})
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})
    monkeypatch.setattr(portable_runtime, "_KEPT_READ", False)
    first = portable_runtime._preload_order(files)
    assert (tmp_path / "portable" / portable_runtime.LIBRARIES_FILE).is_file()

    def no_ldd(binaries):
        raise AssertionError(f"ldd asked again for {binaries[0]}")
    monkeypatch.setattr(portable_runtime, "_ldd", no_ldd)
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})  # a process of its own
    monkeypatch.setattr(portable_runtime, "_KEPT_READ", False)
    assert portable_runtime._preload_order(files) == first
    monkeypatch.setattr(portable_runtime, "_loader_state", lambda: "another loader cache")
    monkeypatch.setattr(portable_runtime, "_NEEDED", {})
    monkeypatch.setattr(portable_runtime, "_KEPT_READ", False)
    with pytest.raises(AssertionError, match="ldd asked again"):
        portable_runtime._preload_order(files)
