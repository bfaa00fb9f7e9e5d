"""Loading compiled kernels (blocks/jit.py): a copy whose path depends only
on the source, so that numba's cache outlives an FMU's temporary folder."""
import pytest

from crane_cosim.blocks import jit

pytest.importorskip("numba")


def test_the_kernel_copy_lives_where_its_content_says(monkeypatch, tmp_path):
    """The compile cache is kept next to the copy; its path must not depend
    on where the package was imported from (an FMU's temporary folder), only
    on the source, so that every run and FMU finds the compiled code."""
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    text = jit._SOURCES["knuckle_boom_kernels"]
    first = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    again = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    assert first == again == tmp_path / "kernels-abc" / "knuckle_boom_kernels.py"
    assert first.read_bytes() == text
    assert jit._stable_copy("knuckle_boom_kernels", text + b"\n", "abd").parent.name == "kernels-abd"


def test_an_unwritable_cache_folder_falls_back_to_a_temporary_copy(monkeypatch, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(blocked))
    text = jit._SOURCES["knuckle_boom_kernels"]
    path = jit._stable_copy("knuckle_boom_kernels", text, "abc")
    assert blocked not in path.parents and path.read_bytes() == text


def test_one_compiled_module_per_source():
    assert jit.load_kernels("knuckle_boom_kernels") is jit.load_kernels("knuckle_boom_kernels")
