"""Compiling the blocks' numba kernels up front, with a word to the user
(blocks/warm_up.py, blocks/compile_word.py): the first run on a machine
must not sit silent."""
import io
import os
import subprocess
import sys

import pytest
import numba  # noqa: F401  # a dependency: without it this module fails, it is not skipped

from crane_cosim.blocks import jit, stepping
from crane_cosim.blocks import warm_up as warmup
from crane_cosim.runtime.compiled import master_warm_up
from limits import HUNG


MESSAGE = "compiling the knuckle boom crane with numba (30 s to 1.5 min, once per machine; kept in "


def test_a_cold_cache_is_announced_in_the_blocks_own_words(monkeypatch):
    """What the word names and how long it promises are the block's own
    declaration (the sentence itself, from a real compile, is the tiny
    block's below; the knuckle boom crane's, from a cold cache, in the slow
    tier)."""
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    said = []
    monkeypatch.setattr(warmup, "compile_with_word",
                        lambda what, duration, module, prepare, stream, functions: said.append((what, duration, module)))
    assert warmup.warm_up({"Controller", "KnuckleBoomCrane"}, io.StringIO()) == ["KnuckleBoomCrane"]
    assert said == [("the knuckle boom crane", "30 s to 1.5 min", "knuckle_boom_kernels")]


def test_a_warm_cache_says_nothing(monkeypatch):
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: True)
    err = io.StringIO()
    assert warmup.warm_up({"KnuckleBoomCrane"}, err) == [] and err.getvalue() == ""
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    assert warmup.warm_up({"Controller", "Signal"}, err) == [] and err.getvalue() == ""  # nothing to compile


def test_blocks_sharing_their_kernels_compile_them_once(monkeypatch):
    monkeypatch.setattr(jit, "kernels_compiled", lambda name: False)
    assert warmup.to_compile({"KnuckleBoomFriction", "JointFriction", "Vessel"}) == ["JointFriction", "Vessel"]


_TINY = b"""def _double(x):
    return 2.0 * x


def quad(x):
    return _double(_double(x))
"""


def test_a_cold_cache_is_announced_and_each_function_named_as_numba_compiles_it(monkeypatch, tmp_path):
    """A real compilation, of a block with a tiny kernel module: the
    sentence says what, how long, that it happens once and where the result
    is kept; off a terminal, a line per function as it is compiled, callees
    first; a closing line gives the time taken."""
    monkeypatch.setitem(jit._SOURCES, "tiny_kernels", _TINY)
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path))

    class Tiny:
        kernel_module = "tiny_kernels"

        def prepare(self):
            assert jit.load_kernels("tiny_kernels").quad(1.0) == 4.0

    monkeypatch.setitem(warmup.COMPILED_BLOCKS, "Tiny", ("the tiny block", "a moment"))
    monkeypatch.setitem(warmup.BLOCKS, "Tiny", Tiny)
    err = io.StringIO()
    try:
        assert warmup.warm_up({"Tiny"}, err) == ["Tiny"]
        assert warmup.warm_up({"Tiny"}, io.StringIO()) == []  # compiled now
    finally:
        for name in [n for n in sys.modules if n.startswith("crane_cosim_tiny_kernels_")]:
            del sys.modules[name]
    lines = err.getvalue().splitlines()
    assert lines[0] == f"compiling the tiny block with numba (a moment, once per machine; kept in {tmp_path}) ..."
    assert [l.split(" (")[0] for l in lines[1:3]] == ["  compiled _double", "  compiled quad"]
    assert lines[1].startswith("  compiled _double (1/2, ") and lines[2].startswith("  compiled quad (2/2, ")
    assert lines[-1].startswith("compiled the tiny block in ") and lines[-1].endswith(" s")


@pytest.mark.slow
def test_first_build_compiles_the_crane_with_progress_then_never_again(tmp_path):
    """With an empty cache folder, ``build-fmus`` compiles every compiled
    block (the knuckle boom crane alone measured 41-63 s on 2 cores) and
    the master's step, naming every kernel function of each; the next
    command finds them compiled and says nothing about it."""
    from crane_cosim.blocks.registry import BLOCKS
    env = {**os.environ, "CRANE_COSIM_CACHE_DIR": str(tmp_path / "cache")}
    exe = os.path.join(os.path.dirname(sys.executable), "crane-cosim")
    first = subprocess.run([exe, "build-fmus", "--out", str(tmp_path / "fmus")], capture_output=True, text=True,
                           env=env, timeout=HUNG)
    assert first.returncode == 0, first.stderr
    assert MESSAGE + f"{tmp_path / 'cache'}) ..." in first.stderr
    compiled = [l.split()[1] for l in first.stderr.splitlines() if l.startswith("  compiled ")]
    modules = {BLOCKS[model].kernel_module for model in warmup.COMPILED_BLOCKS}
    assert sorted(compiled) == sorted([f for module in modules
                                       for f in (*jit.kernel_functions(module), *stepping.step_functions(module))] +
                                      master_warm_up.master_functions()[0])
    for what, _ in [*warmup.COMPILED_BLOCKS.values(), master_warm_up.MASTER_STEP]:
        assert f"compiled {what} in " in first.stderr
    master = f"compiling {master_warm_up.MASTER_STEP[0]} with numba ({master_warm_up.MASTER_STEP[1]}, once per machine; kept in "
    assert master + f"{tmp_path / 'cache'}{os.sep}master-" in first.stderr
    again = subprocess.run([exe, "build-fmus", "--out", str(tmp_path / "fmus")], capture_output=True, text=True,
                           env=env, timeout=HUNG)
    assert again.returncode == 0 and "compil" not in again.stderr, again.stderr


_STEP_ONLY = """
import io
from crane_cosim.blocks import jit, stepping
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.blocks import warm_up as warmup
block = Vessel()
block.kernels, block._prepared = jit.load_kernels("vessel_kernels"), True
block._warm_up(); block._warm_up_shared()  # the kernels compiled, the whole step not
print(jit.kernels_compiled("vessel_kernels"), stepping.step_compiled("vessel_kernels"), warmup.to_compile({"Vessel"}))
err = io.StringIO()
print(warmup.warm_up({"Vessel"}, err))
print(err.getvalue(), end="")
print(stepping.step_compiled("vessel_kernels"), warmup.to_compile({"Vessel"}))
"""


def test_a_whole_step_not_yet_compiled_is_compiled_with_a_word(tmp_path):
    """Kernels in the cache but not the whole step made of them (a new
    version of the step's template): the warm-up compiles the step, saying
    so, where an FMU would have compiled it silently at its initialization."""
    env = {**os.environ, "CRANE_COSIM_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-c", _STEP_ONLY], capture_output=True, text=True, env=env, timeout=HUNG)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "True False ['Vessel']"
    assert lines[1] == "['Vessel']"
    assert lines[2] == (f"compiling the whole step of the vessel with numba (a few seconds, once per machine; kept in "
                        f"{tmp_path / 'cache'}) ...")
    assert sorted(line.split(" (")[0] for line in lines[3:5]) == ["  compiled rate", "  compiled step"]
    assert lines[5].startswith("compiled the whole step of the vessel in ")
    assert lines[6] == "True []"
