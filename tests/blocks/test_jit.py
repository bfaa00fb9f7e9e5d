"""Loading compiled kernels (blocks/jit.py): a copy whose path depends only
on the source, so that numba's cache outlives an FMU's temporary folder."""
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped
from numba.core import event

from crane_cosim.blocks import jit
from limits import HUNG


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


def test_the_temporary_copy_goes_with_the_process(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    script = ("from crane_cosim.blocks import jit; "
              "print(jit._stable_copy('knuckle_boom_kernels', jit._SOURCES['knuckle_boom_kernels'], 'abc'))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HUNG,
                          env={**os.environ, "CRANE_COSIM_CACHE_DIR": str(blocked)})
    assert proc.returncode == 0, proc.stderr
    copy = Path(proc.stdout.strip())
    assert copy.name == "knuckle_boom_kernels.py" and not copy.parent.exists()


def test_one_compiled_module_per_source():
    assert jit.load_kernels("knuckle_boom_kernels") is jit.load_kernels("knuckle_boom_kernels")


# -- telling the user about compilation (kernels_compiled, compile_events) ----------------------------

_TINY = b"""import numpy as np


def _double(x):
    return 2.0 * x


def twice_sum(a):
    return _double(np.sum(a))
"""


@pytest.fixture
def tiny_kernels(monkeypatch, tmp_path):
    """A kernel module that numba compiles in a fraction of a second, in an
    empty cache folder: the machinery of the crane's kernels, fast."""
    monkeypatch.setitem(jit._SOURCES, "tiny_kernels", _TINY)
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "cache"))
    yield "tiny_kernels"
    for name in [n for n in jit.sys.modules if n.startswith("crane_cosim_tiny_kernels_")]:
        del jit.sys.modules[name]


def test_kernel_functions_are_those_numba_compiles(tiny_kernels):
    assert jit.kernel_functions(tiny_kernels) == ["_double", "twice_sum"]
    module = jit.load_kernels("knuckle_boom_kernels")
    compiled = sorted(n for n, v in vars(module).items() if hasattr(v, "py_func"))
    assert sorted(jit.kernel_functions("knuckle_boom_kernels")) == compiled


def test_compiling_reports_each_function_and_fills_the_cache(tiny_kernels):
    import numpy as np
    assert not jit.kernels_compiled(tiny_kernels)  # an empty cache folder
    events = []
    module = jit.load_kernels(tiny_kernels)
    with jit.compile_events(tiny_kernels, lambda kind, fn: events.append((kind, fn))):
        assert module.twice_sum(np.ones(3)) == 6.0
    # numba compiles the callee while compiling its caller: nested events
    assert events == [("start", "twice_sum"), ("start", "_double"), ("end", "_double"), ("end", "twice_sum")]
    assert jit.kernels_compiled(tiny_kernels)


def test_a_function_left_uncompiled_is_not_compiled(tiny_kernels):
    """Only _double compiled (called on its own): the module is not."""
    jit.load_kernels(tiny_kernels)._double(1.0)
    assert not jit.kernels_compiled(tiny_kernels)


def test_the_crane_kernels_are_compiled_once_the_crane_ran():
    from crane_cosim.blocks.knuckle_boom import KnuckleBoomCrane
    KnuckleBoomCrane()  # compiles into the user's cache, or loads from it
    assert jit.kernels_compiled("knuckle_boom_kernels")


def test_without_numba_nothing_is_to_compile(monkeypatch, tmp_path):
    monkeypatch.setenv("CRANE_COSIM_NUMBA", "0")
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))
    assert jit.kernels_compiled("knuckle_boom_kernels")


# -- every compilation said before it starts, whoever triggers it; a cache that cannot be written said once --

def test_a_compilation_nobody_reports_announces_itself_once(tiny_kernels, tmp_path, capsys):
    """A kernel compiled by its first call (no warm-up reporting it): one
    line on stderr before numba starts, that it is once per machine and
    where it is kept; nothing more for its other functions, nor in a
    process that has announced it."""
    jit._ANNOUNCED.discard(tiny_kernels)
    said = []
    module = jit.load_kernels(tiny_kernels)
    with event.install_listener("numba:compile", _Starts(said, capsys)):
        assert module.twice_sum(np.ones(3)) == 6.0
    assert capsys.readouterr().err == ""  # all of it said before the first function started
    assert said[0] == ("twice_sum", f"compiling the kernels (blocks/tiny_kernels.py) with numba (once per machine; "
                                    f"kept in {tmp_path / 'cache'}) ...\n")
    assert said[1:] == [("_double", "")]  # not said again
    assert module._double(1.0) == 2.0 and capsys.readouterr().err == ""


def test_a_reported_compilation_is_not_announced_twice(tiny_kernels, capsys):
    jit._ANNOUNCED.discard(tiny_kernels)
    module = jit.load_kernels(tiny_kernels)
    with jit.compile_events(tiny_kernels, lambda kind, fn: None):
        module.twice_sum(np.ones(3))
    assert capsys.readouterr().err == ""


def test_the_announcement_names_the_block():
    assert jit.blocks_of("knuckle_boom_kernels") == ["KnuckleBoomCrane"]
    assert jit.blocks_of("joint_friction_kernels") == ["JointFriction", "KnuckleBoomFriction"]
    assert jit.announcement("knuckle_boom_kernels").startswith(
        "compiling the kernels of KnuckleBoomCrane (blocks/knuckle_boom_kernels.py) with numba (once per machine; "
        "kept in ")


class _Starts(event.Listener):
    """A numba compile listener noting, as each function starts compiling,
    what stderr received since the last one; numba's own functions left
    out (the implementations of numpy's calls a kernel makes, compiled once
    a process, where no earlier test compiled them)."""

    def __init__(self, said, capsys):
        self.said, self.capsys = said, capsys

    def on_start(self, ev):
        function = ev.data["dispatcher"].py_func
        if not function.__module__.startswith("numba."):
            self.said.append((function.__name__, self.capsys.readouterr().err))

    def on_end(self, ev):
        pass


@pytest.mark.parametrize("where, reason", [
    ("file/cache", "{tmp}/file is a file, not a folder"),
    ("/proc/crane-cosim-cache", None),  # what the system says (no such file or directory on Linux)
])
def test_a_cache_folder_that_cannot_be_written_is_said_once(tiny_kernels, monkeypatch, tmp_path, where, reason):
    """CRANE_COSIM_CACHE_DIR under a file, or where no folder can be made:
    one warning saying so, why and what to set; the compile messages say
    the kernels are compiled in every run, not "once per machine"."""
    (tmp_path / "file").write_text("not a folder")
    folder = tmp_path / where if not where.startswith("/") else where
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(folder))
    jit._ANNOUNCED.discard(tiny_kernels)
    expected = reason.format(tmp=tmp_path) if reason else jit.cache_problem()
    assert expected and jit.cache_problem() == expected
    assert jit.kept_where() == (f"again in every run: the cache folder {folder} cannot be written ({expected}); set "
                                f"CRANE_COSIM_CACHE_DIR to a folder that can")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jit.load_kernels(tiny_kernels)
        jit.kernels_compiled(tiny_kernels)
    assert [str(w.message) for w in caught] == [
        f"the cache folder {folder} cannot be written ({expected}): numba's kernels are compiled again in every run, "
        f"for tens of seconds; set CRANE_COSIM_CACHE_DIR to a folder that can be written"]
    assert jit.announcement(tiny_kernels) == f"compiling the kernels (blocks/tiny_kernels.py) with numba ({jit.kept_where()}) ..."


def test_a_writable_cache_folder_is_kept_once_per_machine(tmp_path, monkeypatch):
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "new"))
    assert jit.cache_problem() is None and (tmp_path / "new").is_dir() and not list((tmp_path / "new").iterdir())
    assert jit.kept_where() == f"once per machine; kept in {tmp_path / 'new'}"


def _problems_read_only(folder: Path) -> list[str]:
    """What ``jit.cache_problem`` says of ``folder`` and of a folder to be
    made in it, ``folder`` bound read-only in a mount namespace of its own
    (root writes wherever permissions forbid it; a read-only file system
    stops it too)."""
    code = "from crane_cosim.blocks import jit; print(jit.cache_problem())"
    script = ('mount --bind -o ro "$1" "$1" && CRANE_COSIM_CACHE_DIR="$1" "$2" -c "$3" && '
              'CRANE_COSIM_CACHE_DIR="$1/crane-cosim" "$2" -c "$3"')
    proc = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "ro", str(folder),
                           sys.executable, code], capture_output=True, text=True, timeout=HUNG)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_a_read_only_cache_folder_says_why(tmp_path, monkeypatch):
    """A folder that exists and cannot be written (a read-only home), and
    one that cannot be made in it: the system's reason (for root, whom
    permissions do not stop, a folder on a read-only file system)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        assert _problems_read_only(folder) == ["Read-only file system", "it cannot be made: Read-only file system"]
        return
    folder.chmod(0o500)
    try:
        monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(folder))
        assert jit.cache_problem() == "Permission denied"
        monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(folder / "crane-cosim"))
        assert jit.cache_problem() == "it cannot be made: Permission denied"
    finally:
        folder.chmod(0o700)
