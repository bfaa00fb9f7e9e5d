"""One process at a time compiles the same kernels (``blocks/compile_lock.py``):
a process that finds the cache without them waits for the one compiling
them and loads what it wrote; one that finds them all in the cache takes
no lock.  Shown with a tiny kernel module in an empty cache folder, by a
second process and this one holding the lock as a compiling process does."""
import contextlib
import fcntl
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from crane_cosim.blocks import compiled_block, jit, stepping
from crane_cosim.blocks.compile_lock import LOCK_FILE
from limits import HUNG
from tiny_block import TINY, tiny_block

#: a process that prepares the tiny block and prints how many of its
#: functions numba compiled (none: loaded from the cache) and its outputs
_PREPARE = textwrap.dedent(f"""
    import sys
    sys.path.insert(0, {str(Path(__file__).parent)!r})
    from numba.core import event
    from crane_cosim.blocks import jit
    from tiny_block import TINY, tiny_block
    jit._SOURCES["tiny_kernels"] = TINY
    compiled = []

    class Count(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__name__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Count())
    block = tiny_block("tiny_kernels")()
    block.prepare()
    print(len(compiled), block.kernels is not None, block._step is not None)
""")


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    """The tiny kernel module, its cache folder empty; its lock file's folder."""
    monkeypatch.setitem(jit._SOURCES, "tiny_kernels", TINY)
    monkeypatch.setenv("CRANE_COSIM_CACHE_DIR", str(tmp_path / "cache"))
    folder = jit._stable_copy("tiny_kernels", TINY, jit._digest("tiny_kernels")).parent
    yield folder
    for name in [n for n in sys.modules if n.startswith("crane_cosim_tiny_kernels_")]:
        del sys.modules[name]
    for name in [n for n in stepping._STEPS if n.startswith("crane_cosim_tiny_kernels_")]:
        del stepping._STEPS[name]


def _compile_here(monkeypatch):
    """The tiny block prepared in this process, past the lock (this process holds it)."""
    with monkeypatch.context() as m:
        m.setattr(compiled_block, "compiling_alone", lambda dispatchers: contextlib.nullcontext())
        block = tiny_block("tiny_kernels")()
        block.prepare()
    assert block.kernels is not None and block._step is not None


def _waits_for_the_lock(pid: int) -> bool:
    """Whether the process ``pid`` waits for a ``flock`` (Linux: ``/proc/locks``)."""
    return any(line.split()[1:3] == ["->", "FLOCK"] and line.split()[5] == str(pid)
               for line in Path("/proc/locks").read_text().splitlines())


def _start():
    return subprocess.Popen([sys.executable, "-c", _PREPARE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=os.environ.copy())


def test_a_process_that_would_compile_waits_for_the_one_compiling_and_loads_its_work(tiny, monkeypatch):
    with open(tiny / LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a process compiling the kernels holds it
        proc = _start()
        deadline = time.monotonic() + HUNG
        while not _waits_for_the_lock(proc.pid):
            assert proc.poll() is None, f"it did not wait for the lock: {proc.communicate()}"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        _compile_here(monkeypatch)
    out, err = proc.communicate(timeout=HUNG)
    assert proc.returncode == 0, err
    assert out.split() == ["0", "True", "True"], err  # nothing compiled: the kernels and the step loaded


def test_a_process_that_finds_every_kernel_in_the_cache_takes_no_lock(tiny, monkeypatch):
    _compile_here(monkeypatch)
    with open(tiny / LOCK_FILE, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        proc = _start()
        deadline = time.monotonic() + HUNG
        while proc.poll() is None:
            assert not _waits_for_the_lock(proc.pid), "it waits for the lock"
            assert time.monotonic() < deadline
            time.sleep(0.05)
    out, err = proc.communicate()
    assert out.split() == ["0", "True", "True"], err
