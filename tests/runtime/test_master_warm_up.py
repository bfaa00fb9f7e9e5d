"""Compiling the master's compiled step up front, with a word to the user
(runtime/compiled/master_warm_up.py), where the run's algorithm has a compiled
twin."""
import io

import pytest

from crane_cosim.runtime.algorithms import ALGORITHMS
from crane_cosim.runtime.compiled import master_warm_up

WORD, DURATION = master_warm_up.MASTER_STEP


def test_the_masters_step_compiles_with_a_word_where_the_run_needs_it(monkeypatch):
    """A run of an algorithm with a compiled twin asks for the master's
    compiled step: compiled with a word where the cache does not hold it,
    silently where it does, not at all for an algorithm without one."""
    compiled = []
    monkeypatch.setattr(master_warm_up, "compile_master", lambda: compiled.append("master"))
    monkeypatch.setattr(master_warm_up, "master_to_compile", lambda: True)
    err = io.StringIO()
    assert master_warm_up.warm_up_master(err) and compiled == ["master"]
    lines = err.getvalue().splitlines()
    assert lines[0].startswith(f"compiling {WORD} with numba ({DURATION}, once per machine; kept in ")
    assert lines[-1].startswith(f"compiled {WORD} in ")
    assert not master_warm_up.warm_up_master(io.StringIO(), for_algorithm="gauss-seidel") and compiled == ["master"]
    monkeypatch.setattr(master_warm_up, "master_to_compile", lambda: False)
    err = io.StringIO()
    assert master_warm_up.warm_up_master(err) is False and err.getvalue() == ""


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_with_a_compiled_twin_announces_its_compile(algorithm, monkeypatch):
    """The iterated quadratic (the flexible crane's default) runs the
    compiled step as the iterated midpoint does: its compile is announced
    too; the explicit algorithms have none and compile nothing."""
    compiled = []
    monkeypatch.setattr(master_warm_up, "compile_master", lambda: compiled.append(algorithm))
    monkeypatch.setattr(master_warm_up, "master_to_compile", lambda: True)
    err = io.StringIO()
    twin = algorithm in ("iterated-midpoint", "iterated-quadratic")
    assert ALGORITHMS[algorithm].compiled_twin == twin
    assert master_warm_up.warm_up_master(err, for_algorithm=algorithm) == twin
    assert compiled == ([algorithm] if twin else []) and err.getvalue().startswith(f"compiling {WORD}") == twin
