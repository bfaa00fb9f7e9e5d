"""Stalls of a paced run (``runtime/observers/stalls.py``): the collector
kept out of the steps, results written in the waiting time, and the
slowest steps reported with their cause.  Nothing here asserts how long
anything took: a step is made slow by what it does (a collection of many
objects, a compilation, time in a component on a simulated clock), and
the report is checked for naming it."""
import gc
import json
import weakref

import pytest

from crane_cosim.files.results import read_results
from crane_cosim.files.results_stream import ResultWriter
from crane_cosim.runtime import run_cosim, runlog
from crane_cosim.runtime.observers import pacing, stalls
from crane_cosim.runtime.observers.pacing import Pacer, describe
from crane_cosim.scenarios import crane_on_vessel


class Instance:
    """A component as the pacer sees it: a name and its time in FMI calls [s]."""

    def __init__(self, name):
        self.name, self.fmi_time = name, 0.0


class Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self):
        self.me = self


@pytest.fixture
def collector_state():
    """The collector as the test found it, whatever the test did."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


def paced(steps, work, step=0.05, instances=()):
    """A pacer of ``steps`` steps of ``step`` [s] at real time, ``work(k)``
    doing step k's computation (1-based); the pacer after the last."""
    p = Pacer(steps, step, 1.0)
    p.start(instances)
    try:
        for k in range(1, steps + 1):
            work(k)
            p.wait(k * step)
    finally:
        p.stop()
    return p


def step_of(p, k):
    return next(x for x in p.summary()["slowest_steps"] if x["step"] == k)


def test_the_collector_is_off_during_a_paced_run_and_back_after(collector_state):
    gc.enable()
    seen = []
    paced(2, lambda k: seen.append((gc.isenabled(), gc.get_freeze_count() > 0)), step=0.01)
    assert seen == [(False, True)] * 2
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()  # a process that had it off keeps it off
    paced(1, lambda k: None, step=0.01)
    assert not gc.isenabled()


def test_young_garbage_is_collected_in_the_waiting_time_not_in_the_steps(collector_state):
    """Cyclic garbage made in a step is freed in the wait after it; no
    collection happens inside a step."""
    refs = []

    def work(k):
        if k == 1:
            for _ in range(2 * gc.get_threshold()[0]):
                refs.append(weakref.ref(Cycle()))

    p = paced(3, work)
    s = p.summary()["collections"]
    assert s["young_in_waiting_time"] >= 1 and s["young_forced"] == 0
    assert s["in_steps"] == 0
    assert all(r() is None for r in refs)


def test_too_much_garbage_is_collected_even_without_the_time_for_it(collector_state):
    """Every step late: no wait has room, yet memory stays bounded."""
    c = stalls.Collector(force=2)
    c.start()
    try:
        keep = [Cycle() for _ in range(3 * c.threshold)]  # pending, and alive: survives
        del keep
        assert c.idle(0)  # the deadline is past
        assert c.forced == 1 and gc.get_count()[0] < c.threshold
    finally:
        c.stop()


def test_a_collection_inside_a_step_is_reported_with_its_generation(collector_state):
    """A component that calls ``gc.collect()`` among many objects: its
    step is among the slowest, with the full collection named."""
    held = []

    def work(k):
        if k == 2:
            held.append([[i] for i in range(300_000)])  # many objects for the collector to walk
            gc.collect()

    p = paced(3, work, step=0.02)
    x = step_of(p, 2)
    assert "garbage collection of generation 2 (" in x["cause"]
    assert x["parts_us"]["collection 2"] > 0
    assert p.summary()["collections"]["in_steps"] == 1


def test_a_kernel_compiled_inside_a_step_is_named(collector_state):
    numba = pytest.importorskip("numba")

    @numba.njit
    def compiled_late(x):
        return x + 1.0

    p = paced(3, lambda k: compiled_late(1.0) if k == 2 else None, step=0.02)
    x = step_of(p, 2)
    assert "numba compiling a kernel (" in x["cause"] and "compiled_late" in x["cause"]
    assert x["parts_us"]["compiling"] > 0


def test_the_time_in_a_component_is_named(monkeypatch):
    """On a simulated clock: step 2 spends 4 ms in the crane (a step of 5 ms),
    the vessel 0.1 ms in each step."""
    from test_pacing import FakeClock
    clock = FakeClock(tick=1_000)  # the spin before each deadline reads the clock
    monkeypatch.setattr(pacing.time, "perf_counter_ns", clock.perf_counter_ns)
    monkeypatch.setattr(pacing.time, "sleep", clock.sleep)
    crane, vessel = Instance("crane"), Instance("vessel")

    def work(k):
        for inst, seconds in ((vessel, 1e-4), (crane, 4e-3 if k == 2 else 1e-4)):
            inst.fmi_time += seconds
            clock.work(seconds)

    p = paced(3, work, step=5e-3, instances=[crane, vessel])
    slowest = p.summary()["slowest_steps"]
    assert slowest[0]["step"] == 2
    x = slowest[0]
    assert x["compute_us"] == pytest.approx(4100, abs=10)  # and a few readings of the clock
    assert "time in component crane (4.00 ms)" in x["cause"]
    assert x["parts_us"]["component crane"] == pytest.approx(4000)
    assert x["parts_us"]["component vessel"] == pytest.approx(100)


class Writer:
    """A results writer that notes its calls."""

    def __init__(self):
        self.calls = []

    def flush(self):
        self.calls.append("flush")

    def release(self):
        self.calls.append("release")

    def write_until(self, until_ns):
        self.calls.append("write_until")


def test_results_are_written_in_batches_in_the_time_a_step_waits(monkeypatch):
    monkeypatch.setattr(stalls, "BATCH_SECONDS", 0.0)
    w = Writer()
    b = stalls.Batches(w)
    b.start()
    assert w.calls == ["flush"]  # the first row, before the clock starts
    now = stalls.time.perf_counter_ns()
    b.idle(now)  # no room: nothing written
    assert w.calls == ["flush"]
    b.idle(now + 10**9)  # a wait with room: a batch, then the writer's own write_until
    assert w.calls == ["flush", "release", "write_until"] and b.written == 1


def test_a_paced_run_reports_its_slowest_steps(tmp_path, fmu_dir, collector_state, monkeypatch):
    """The crane on the vessel paced at 4 times real time: the five slowest
    steps in summary.json, slowest first, each split into its components'
    time, the master's, the observers', and named; the collector is back
    on after the run; the results were written while the steps waited,
    by the results' own thread (written behind), every row, that thread
    raised to real-time priority with the run."""
    behind = []

    class Noted(ResultWriter):
        def __init__(self, *args, **kwargs):
            behind.append(kwargs.get("behind"))
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(runlog, "ResultWriter", Noted)
    gc.enable()
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.3)
    result = run_cosim(system, tmp_path / "paced", progress=False, real_time=4.0, rt_priority=10)
    assert gc.isenabled()
    summary = json.loads((tmp_path / "paced" / "summary.json").read_text())
    s, h = summary["real_time"], summary["step"]
    slowest = s["slowest_steps"]
    assert len(slowest) == stalls.SLOWEST
    assert [x["compute_us"] for x in slowest] == sorted((x["compute_us"] for x in slowest), reverse=True)
    assert slowest[0]["compute_us"] == pytest.approx(s["compute_us"]["max"], abs=1e-3)
    for x in slowest:
        assert 1 <= x["step"] <= s["steps"] and x["time"] == pytest.approx(x["step"] * h, abs=1e-12)
        assert {"component vessel", "component crane", "component controller", "master", "observers",
                "off_cpu"} <= set(x["parts_us"])
        assert isinstance(x["cause"], str) and x["cause"]
    assert s["collections"]["in_steps"] == 0
    assert s["results_batches_in_waiting_time"] >= 0
    assert result.real_time == s
    # written off the steps' thread, whole
    assert behind == [True] and len(read_results(tmp_path / "paced")) == round(0.3 / h) + 1
    # the writing thread raised with the run, one priority below it
    if "scheduler_refused" in s["facilities"]:
        pytest.skip(f"SCHED_FIFO refused here ({s['facilities']['scheduler_refused']}): run as root, as CI does")
    assert s["facilities"]["scheduler"] == "SCHED_FIFO 10", s["facilities"]
    assert s["facilities"]["helpers_scheduler"] == "SCHED_FIFO 9"


def test_the_terminal_names_the_cause_of_the_slowest_step_over_budget():
    s = {"factor": 1.0, "budget_us": 1000.0, "steps": 10, "overruns": 1, "over_budget": 1,
         "lateness_max_us": 500.0, "lateness_p99_us": 450.0,
         "compute_us": {"p50": 200.0, "p99": 1400.0, "max": 1500.0}, "budget_used": {"mean": 0.3, "p99": 1.4},
         "wake_up_error_us": {"p50": None}, "facilities": {},
         "slowest_steps": [{"step": 7, "time": 0.007, "compute_us": 1500.0,
                            "cause": "garbage collection of generation 2 (1.20 ms)"}]}
    assert describe(s).splitlines()[-1] == ("  slowest step: 7 (t = 0.007 s), 1500 µs: "
                                            "garbage collection of generation 2 (1.20 ms)")
    s["slowest_steps"][0]["compute_us"] = 900.0  # within its budget: not worth a line
    assert "slowest step" not in describe(s)


def test_the_progress_bar_moves_in_a_wait_with_room_for_it():
    """A paced run's bar moves every 200 steps in the time the pacer waits,
    by the simulated time of the steps since it last moved; not in a wait
    without room."""
    class Log:
        moves = []

        def advanced(self, dt):
            self.moves.append(dt)

    p = pacing.Pacing(Pacer(1000, 1e-3, 1.0), Log(), None, step=1e-3)
    p.batches = stalls.Batches(Writer())
    p.batches.start()
    p._progress = stalls.Costs(100_000)
    p._steps = pacing.PROGRESS_EVERY
    now = stalls.time.perf_counter_ns()
    p._idle(now)  # no room
    assert Log.moves == []
    p._steps += 1
    p._idle(now + 10**9)
    assert Log.moves == [pytest.approx((pacing.PROGRESS_EVERY + 1) * 1e-3)] and p._steps == 0
