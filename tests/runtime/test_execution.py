"""The execution's loop (``runtime/execution.py``): where the algorithm
makes several steps a call (the compiled step), the observers are told
what one step a call tells them, to the bit, and a run stopped inside a
call keeps every row before the failure."""
import json

import numpy as np
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.runtime.compiled.engine import CompiledMidpoint
from crane_cosim.runtime import plan_of, run_cosim
from crane_cosim.runtime.execution import BATCH, Execution
from crane_cosim.runtime.observers import Observer
from crane_cosim.scenarios import System


class _Rows(Observer):
    """The time and every output after each step, told a step at a time
    (``batched`` False) or in the rows of a call."""

    def __init__(self, batched):
        self.batched, self.rows, self.calls = batched, [], 0

    def step_complete(self, execution):
        self.rows.append(np.concatenate([[execution.t], *(inst.y for inst in execution.instances)]))

    def rows_complete(self, execution, rows):
        self.calls += 1
        self.rows.extend(rows.copy())
        assert execution.t == rows[-1, 0]


class _Every(Observer):
    """The steps and times at which an observer of ``period`` is told."""

    def __init__(self, period):
        self.period, self.told = period, []

    def step_complete(self, execution):
        self.told.append((execution.k, execution.t))


def _growth(integrator_fmu, stop_time, k=1.0, x0=1.0, step=0.01):
    """Two integrators in a loop, ``a' = k b``, ``b' = k a``, from ``a = x0``."""
    s = System("Growth", stop_time=stop_time, step=step, algorithm="iterated-midpoint",
               base_dir=integrator_fmu.parent)
    s.add_component("a", integrator_fmu.name, x0=x0, k=k)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=k)
    s.connect("b.y", "a.u")
    s.connect("a.y", "b.u")
    return s


def _observed(system, folder, batched, period):
    rows, every = _Rows(batched), _Every(period)
    execution = Execution(plan_of(system), folder)
    execution.run([rows, every])
    assert isinstance(execution.algorithm, CompiledMidpoint)
    return execution, np.array(rows.rows), every.told, rows.calls


def test_steps_made_several_a_call_tell_the_observers_what_single_steps_tell_them(integrator_fmu, tmp_path,
                                                                                   monkeypatch):
    """2.37 s at 10 ms (237 steps, the last one shorter): the rows told
    in calls of up to ``BATCH`` steps are those told a step at a time, to
    the bit, and an observer of period 40 is told at the same steps."""
    monkeypatch.delenv("CRANE_COSIM_MASTER", raising=False)
    s = _growth(integrator_fmu, stop_time=2.37, k=-0.5)
    single, rows1, told1, _ = _observed(s, tmp_path / "single", False, 40)
    batched, rows2, told2, calls = _observed(s, tmp_path / "batched", True, 40)
    assert rows2.shape == (237, 5) and np.array_equal(rows1, rows2)
    assert told1 == told2 and [k for k, _ in told2] == [40, 80, 120, 160, 200]
    assert calls >= 237 / BATCH and (batched.k, batched.t) == (single.k, single.t) == (237, 2.37)
    assert single.algorithm.summary() == batched.algorithm.summary()


@pytest.mark.parametrize("every", [1, 7])
def test_a_run_stopped_inside_a_call_keeps_every_row_before_the_failure(integrator_fmu, tmp_path, monkeypatch,
                                                                        every):
    """At a gain of 1000/s from 1e293 the loop, its 10 ms steps unstable,
    overflows in its step from 0.61 s (the 62nd, in the second call of
    50): the compiled run stops with the Python algorithm's sentence and
    leaves the rows the Python algorithm leaves, recording every point or
    every 7th."""
    s = _growth(integrator_fmu, stop_time=2.0, k=1e3, x0=1e293)
    said, results = {}, {}
    for master in ("compiled", "python"):
        monkeypatch.setenv("CRANE_COSIM_MASTER", master)
        with pytest.raises(CraneCosimError) as failed:
            run_cosim(s, tmp_path / master, progress=False, record_every=every)
        said[master] = str(failed.value).replace(str(tmp_path / master), "OUT")
        results[master] = read_results(tmp_path / master)
        summary = json.loads((tmp_path / master / "summary.json").read_text())
        assert summary["master_step"].startswith(master) and summary["status"] == "failed"
    assert said["compiled"] == said["python"], said
    assert results["compiled"].equals(results["python"])
    last = results["compiled"]["time"].iloc[-1]
    assert last == (0.61 if every == 1 else 0.56) and said["compiled"].endswith(f"the results up to t = {last:g} s are in OUT"), said
