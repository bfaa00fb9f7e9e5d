"""Real-time pacing (``--real-time``): the schedule a paced run keeps, checked
on a simulated clock, and the figures a real paced run reports, checked
against each other (no assertion on how long anything took)."""
import json
import os
import sys
import threading

import numpy as np
import pandas as pd
import pytest

from crane_cosim.runtime.observers import pacing
from crane_cosim.cli import main
from crane_cosim.runtime import run_cosim
from crane_cosim.runtime.observers.pacing import Pacer
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.files.results import read_results


#: the schedule these tests count on: Gauss-Seidel at 1 ms, whatever the example's default
GS_1MS = {"step": 1e-3, "algorithm": "gauss-seidel"}


class FakeClock:
    """``time.perf_counter_ns`` and ``time.sleep`` (and, where a test asks,
    ``time.thread_time_ns``) on a clock the test moves: a sleep lasts
    exactly what was asked, plus ``oversleep`` [ns]; a reading of the clock
    while spinning takes ``tick`` [ns] of the thread's CPU time; the first
    reading at or after ``jump_at`` [ns] finds ``jump`` [ns] more passed,
    off the CPU."""

    def __init__(self, oversleep=0, tick=0):
        self.now = 0
        self.cpu = 0
        self.oversleep = oversleep
        self.tick = tick
        self.sleeps = []
        self.jump_at, self.jump = None, 0

    def perf_counter_ns(self):
        self.now += self.tick
        self.cpu += self.tick
        if self.jump_at is not None and self.now >= self.jump_at:
            self.now += self.jump
            self.jump_at = None
        return self.now - self.tick

    def thread_time_ns(self):
        return self.cpu

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += round(seconds * 1e9) + self.oversleep

    def work(self, seconds):
        self.now += round(seconds * 1e9)
        self.cpu += round(seconds * 1e9)


@pytest.fixture
def clock(monkeypatch):
    c = FakeClock()
    monkeypatch.setattr(pacing.time, "perf_counter_ns", c.perf_counter_ns)
    monkeypatch.setattr(pacing.time, "sleep", c.sleep)
    switch = sys.getswitchinterval()  # a test that starts a pacer without stopping it leaves its own
    yield c
    sys.setswitchinterval(switch)


def run_schedule(clock, work, step=1e-3, factor=1.0, spin=0.0):
    """Steps whose computation takes ``work[k]`` [s] each, paced."""
    p = Pacer(len(work), step, factor, spin=spin)
    p.start()
    for k, w in enumerate(work, start=1):
        clock.work(w)
        p.wait(k * step)
    p.stop()
    return p


def test_early_steps_wait_for_their_deadline(clock):
    p = run_schedule(clock, [0.3e-3] * 5)
    assert clock.now == 5_000_000  # the last point at its deadline, 5 ms in
    assert p.compute.tolist() == [300_000] * 5  # each step from its deadline
    assert p.lateness.tolist() == [-700_000] * 5
    assert p.summary()["overruns"] == 0


def test_a_late_step_is_counted_and_the_schedule_catches_up(clock):
    """A step that takes 2.5 budgets: its point is 1.5 ms late, the next
    two steps start at once and are late too, the schedule being absolute;
    the fourth is on time again.  Nothing is skipped."""
    p = run_schedule(clock, [0.2e-3, 2.5e-3, 0.2e-3, 0.2e-3, 0.2e-3, 0.2e-3])
    assert p.lateness.tolist() == [-800_000, 1_500_000, 700_000, -100_000, -800_000, -800_000]
    s = p.summary()
    assert s["steps"] == 6 and s["overruns"] == 2
    assert s["lateness_max_us"] == 1500.0
    assert p.wake.tolist() == [0, -1, -1, 0, 0, 0]  # late points do not wait
    assert clock.now == 6_000_000


def test_over_budget_counts_the_steps_that_took_their_budget_not_the_late_ones(clock):
    """Behind the step of 2.5 budgets two points are late (overruns) but
    only that step took its budget or longer: ``over_budget`` 1, the
    histogram's last bin 1."""
    s = run_schedule(clock, [0.2e-3, 2.5e-3, 0.2e-3, 0.2e-3, 0.2e-3, 0.2e-3]).summary()
    assert s["overruns"] == 2 and s["over_budget"] == 1
    assert s["budget_used_histogram"]["counts"][-1] == 1


def test_factor_two_halves_the_budget(clock):
    p = run_schedule(clock, [0.3e-3] * 4, factor=2.0)
    assert clock.now == 2_000_000
    s = p.summary()
    assert s["budget_us"] == 500.0
    assert s["budget_used"]["mean"] == pytest.approx(0.6)
    assert s["budget_used_histogram"]["counts"] == [0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0]


def test_the_last_stretch_is_spun_not_slept(clock):
    """With a spin of 200 µs the sleep ends 200 µs before the deadline;
    a sleep that wakes 50 µs late still leaves the point on time."""
    clock.oversleep, clock.tick = 50_000, 1_000
    p = run_schedule(clock, [0.3e-3] * 3, spin=200e-6)
    assert clock.sleeps == pytest.approx([499e-6] * 3, abs=2e-9)  # one clock reading into each step
    assert p.summary()["overruns"] == 0
    assert (p.wake >= 0).all() and (p.wake <= 1_000).all()  # within a reading of the clock
    # without a spin the same oversleep makes every point 50 µs late
    clock.now, clock.sleeps, clock.tick = 0, [], 0
    p = run_schedule(clock, [0.3e-3] * 3, spin=0.0)
    assert p.wake.tolist() == [50_000] * 3


def test_the_latest_waits_say_what_made_them_late(clock, monkeypatch):
    """Steps at 1 ms, a spin of 200 µs: the first wait's sleep returns 0.5
    ms late (0.3 ms past its deadline); in the second the thread is off
    the CPU for 1.5 ms while it spins (at 1.85 ms, 150 µs before its
    deadline), which makes the third late (it does not wait); the fourth
    wait's work (writing results) runs 0.15 ms past its deadline.  The
    latest first, each with its cause."""
    monkeypatch.setattr(pacing.time, "thread_time_ns", clock.thread_time_ns)
    clock.tick = 1_000
    clock.jump_at, clock.jump = 1_850_000, 1_500_000
    p = Pacer(4, 1e-3, 1.0, spin=200e-6)
    p.start()
    try:
        clock.oversleep = 500_000
        clock.work(0.3e-3)
        p.wait(1e-3)
        clock.oversleep = 0
        for k in (2, 3):
            clock.work(0.3e-3)
            p.wait(k * 1e-3)
        clock.work(0.1e-3)
        p.wait(4e-3, idle=lambda until: clock.work(0.4e-3))
    finally:
        p.stop()
    waits = p.summary()["slowest_waits"]
    assert [w["step"] for w in waits] == [2, 1, 4]
    second, first, fourth = waits
    assert fourth["worked_past_deadline_us"] == fourth["wake_up_error_us"] == pytest.approx(150, abs=3)
    assert fourth["cause"] == "the work done in the wait (results written, garbage collected) ended 0.15 ms after " \
                              "the deadline"
    assert first["worked_past_deadline_us"] == second["worked_past_deadline_us"] == 0
    assert first["slept_past_deadline_us"] == first["wake_up_error_us"] == pytest.approx(300, abs=3)
    assert first["off_cpu_spinning_us"] == 0
    assert first["cause"].startswith("the sleep returned 0.30 ms after the deadline: the OS woke the thread late")
    assert second["slept_past_deadline_us"] == 0 and second["off_cpu_spinning_us"] == 1500
    assert second["wake_up_error_us"] == pytest.approx(1350, abs=3)
    assert second["cause"].startswith("the thread was off the CPU for 1.50 ms while spinning to the deadline")


def test_idle_time_is_offered_up_to_a_margin_before_the_deadline(clock):
    clock.tick = 1_000
    offered = []
    p = Pacer(2, 1e-3, 1.0, spin=200e-6)
    p.start()
    clock.work(0.3e-3)
    p.wait(1e-3, idle=lambda until: offered.append(until))
    clock.work(1.2e-3)  # late: no idle time
    p.wait(2e-3, idle=lambda until: offered.append(until))
    assert offered == [1_000_000 - pacing.IDLE_MARGIN_NS]  # work may use the time it would spin
    assert p.lateness[1] > 0 and p.wake[1] == -1


def test_a_paced_run_reports_consistent_figures_and_the_same_results(tmp_path, fmu_dir):
    """The crane on the vessel paced at 4 times real time: the same results,
    every value equal, as the run at full speed (the results are written in the
    time it waits); the summary's figures agree with timing.csv and with
    each other; the run cannot have been faster than its schedule."""
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.3, **GS_1MS)
    free = run_cosim(system, tmp_path / "free", progress=False)
    switch = sys.getswitchinterval()
    paced = run_cosim(system, tmp_path / "paced", progress=False, real_time=4.0)
    # the same rows; the file's bytes differ where its batches were cut (the paced run writes while it waits)
    assert read_results(tmp_path / "paced").equals(read_results(tmp_path / "free"))
    assert free.real_time is None
    s = json.loads((tmp_path / "paced" / "summary.json").read_text())["real_time"]
    assert s == paced.real_time
    timing = pd.read_csv(tmp_path / "paced" / "timing.csv")
    assert s["steps"] == len(timing) == 300 == paced.steps
    assert timing["step"].tolist() == list(range(1, 301))
    assert timing["time"].to_numpy() == pytest.approx(np.arange(1, 301) * 1e-3, abs=1e-12)
    late = timing["lateness_us"] > 0
    assert s["overruns"] == int(late.sum())
    assert timing["wake_up_error_us"].isna().tolist() == late.tolist()  # a late point does not wait
    assert (timing["wake_up_error_us"].dropna() >= 0).all()
    assert sum(s["budget_used_histogram"]["counts"]) == 300
    assert s["budget_us"] == 250.0
    assert s["compute_us"]["max"] == pytest.approx(timing["compute_us"].max(), abs=1e-3)
    assert (timing["cpu_us"] >= 0).all()  # the thread's CPU time in each step
    assert s["cpu_us"]["max"] == pytest.approx(timing["cpu_us"].max(), abs=1e-3)
    assert s["lateness_max_us"] == pytest.approx(max(timing["lateness_us"].max(), 0), abs=1e-3)
    assert paced.wall_time >= 0.3 / 4
    assert s["facilities"]["clock"].startswith("CLOCK_MONOTONIC")
    # the switch interval a twentieth of the 250 µs budget while paced, Python's own again after
    assert s["facilities"]["switch_interval_us"] == 20.0
    assert sys.getswitchinterval() == pytest.approx(switch, abs=1e-6)  # (kept in whole µs)


def test_a_run_too_slow_for_its_schedule_skips_nothing(tmp_path, fmu_dir):
    """At 1000 times real time (1 µs a step) every point is late: all are
    counted, all computed and recorded."""
    system = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.05, **GS_1MS)
    result = run_cosim(system, tmp_path / "out", progress=False, real_time=1000.0)
    s = result.real_time
    assert s["overruns"] == s["steps"] == 50
    assert len(read_results(tmp_path / "out")) == 51
    assert s["budget_used_histogram"]["counts"][-1] == 50


def test_the_terminal_shows_the_figures(capsys, tmp_path, fmu_dir):
    from crane_cosim.ssp import write_ssd
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.05, **GS_1MS),
                    tmp_path / "system.ssd")
    assert main(["run", str(ssd), "--no-plots", "--real-time", "2", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "real time x2 (500 µs per step): 50 steps, " in out
    assert "step compute time p50 " in out and "budget used " in out


@pytest.mark.parametrize("args, fragment", [
    (["--real-time", "0"], "--real-time 0.0 is not a positive number"),
    (["--real-time", "nan"], "--real-time nan is not a positive number"),
    (["--spin", "0.001"], "--spin paces a run and needs --real-time"),
    (["--rt-priority", "10"], "--rt-priority paces a run and needs --real-time"),
    (["--real-time", "--rt-priority", "0"], "--rt-priority 0 must be between 1 and 99"),
    (["--real-time", "--spin", "-1"], "--spin -1.0 must be zero or a positive time below 1 s"),
    (["--real-time", "--monolithic"], "a monolithic run has none"),
])
def test_bad_pacing_options(capsys, tmp_path, fmu_dir, args, fragment):
    from crane_cosim.ssp import write_ssd
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.01),
                    tmp_path / "system.ssd")
    assert main(["run", str(ssd), "--no-plots", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("crane-cosim: error: ") and fragment in err[0], err


def test_real_time_priority_raises_the_runs_helpers_one_below_it():
    """With a real-time priority P the threads that work for the run (the
    results' writer) run SCHED_FIFO P - 1 while it is paced, so that no
    ordinary process preempts one while it holds the interpreter's lock a
    step waits for; as they were after."""
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait)
    helper.start()
    p = Pacer(10, 1e-3, 1.0, rt_priority=10)
    try:
        p.start(helpers=[helper.native_id])
        if p.facilities.get("scheduler_refused"):
            pytest.skip(f"SCHED_FIFO refused here ({p.facilities['scheduler_refused']}): run as root, as CI does")
        assert os.sched_getscheduler(helper.native_id) == os.SCHED_FIFO
        assert os.sched_getparam(helper.native_id).sched_priority == 9
        assert p.facilities["helpers_scheduler"] == "SCHED_FIFO 9"
        p.stop()
        assert os.sched_getscheduler(helper.native_id) == os.sched_getscheduler(0) == os.SCHED_OTHER
    finally:
        p.stop()
        stop.set()
        helper.join()
