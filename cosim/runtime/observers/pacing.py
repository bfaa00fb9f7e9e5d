"""Real-time pacing of a co-simulation: each communication point at its
wall-clock deadline, every late one counted, none skipped.

Communication point k (simulated time ``t_k``) is due at the wall-clock
deadline ``wall_0 + (t_k - t_0) / factor``: ``factor`` 1 is real time, 2
twice as fast.  The schedule is absolute: after a late step the next ones
run back to back until they catch up, so that simulated time keeps tracking
the wall clock, as a hardware-in-the-loop rig needs.

What a Python process can do for its timing on Linux, and what
:class:`Pacer` does (``docs/in_the_loop.md`` has the jitter each gives):

* the clock is ``CLOCK_MONOTONIC`` (``time.perf_counter_ns``); the
  interpreter's switch interval a twentieth of the budget (the results'
  writing thread never holds a step up long);
* the thread's *timer slack* is set to 1 ns (``prctl(PR_SET_TIMERSLACK)``):
  by default Linux lets a sleeping thread wake up to 50 µs late, to batch
  wake-ups;
* it sleeps (``clock_nanosleep``, through ``time.sleep``) until ``spin``
  before the deadline and spins on the clock for the rest, which trades up
  to ``spin`` of CPU time per step for a wake-up within a microsecond or
  two, the scheduler's wake-up latency being what a sleep alone gives;
* the cyclic garbage collector is kept out of the steps: the objects made
  during set-up are frozen out of its way (``gc.freeze``), automatic
  collection is off, and the young generations are collected in the time
  a step waits (``stalls.py``, which also keeps the slowest steps and what
  they spent their time on);
* on request (``rt_priority``), ``SCHED_FIFO``: no ordinary process then
  preempts the run (with the privilege, root or ``CAP_SYS_NICE``; without
  it the run goes on in the normal class and says so).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import os
import sys
import time

import numpy as np

from ...errors import CraneCosimError
from ...files.results import TIMING_FILE
from . import Observer
from .progress import Progress
from .stalls import Batches, Collector, Costs, Waits, Watch

__all__ = ["Pacer", "Pacing", "check_factor", "describe"]

#: default spin before each deadline [s]: above the wake-up latency of a
#: sleeping thread on a loaded desktop or VM (tens of µs, occasionally a few
#: hundred), far below a 1 ms step
SPIN = 200e-6
#: compute time of a step as a share of its budget: the edges of the
#: histogram in the summary (the last bin holds the steps that took their
#: budget or longer, ``over_budget``; a step can be late, an overrun, within
#: its budget, when it started late behind a late one)
SHARE_EDGES = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, math.inf)
#: the interpreter's switch interval in a paced run: this share of the
#: budget, at least SWITCH_MIN [s] (below it, the switches cost more than
#: they save)
SWITCH_SHARE, SWITCH_MIN = 0.05, 20e-6
_PR_SET_TIMERSLACK, _PR_GET_TIMERSLACK = 29, 30
#: how long before a deadline the work done in the waiting time must end [ns]
IDLE_MARGIN_NS = 50_000
#: steps between two moves of the progress bar (as the unpaced run's)
PROGRESS_EVERY = Progress.period


def check_factor(factor) -> None:
    """One sentence for a real-time factor the pacer cannot keep."""
    if not (isinstance(factor, (int, float)) and math.isfinite(factor) and factor > 0):
        raise CraneCosimError(f"--real-time {factor!r} is not a positive number (1 = real time, 2 = twice as fast)")


def _set_timer_slack(ns: int) -> int | None:
    """Set this thread's timer slack [ns]; the value it had, or None if the
    system did not take it (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        old = libc.prctl(_PR_GET_TIMERSLACK, 0, 0, 0, 0)
        if old < 0 or libc.prctl(_PR_SET_TIMERSLACK, ctypes.c_ulong(ns), 0, 0, 0) != 0:
            return None
        return old
    except (OSError, AttributeError):
        return None


class Pacer:
    """Holds each communication point to its deadline and keeps the figures.

    ``steps``: communication steps of the run; ``step`` [s]: the
    communication step; ``t0`` [s]: the start time; ``spin`` [s]: how long before a
    deadline sleeping stops and spinning starts (0: sleep only);
    ``rt_priority``: 1-99 to ask for ``SCHED_FIFO`` at that priority.

    Call :meth:`start` when the first step begins and :meth:`wait` with each
    point's simulated time as soon as the point is computed and recorded.
    """

    def __init__(self, steps: int, step: float, factor: float, t0: float = 0.0, spin: float = SPIN,
                 rt_priority: int | None = None):
        self.factor = factor
        self.t0 = t0
        self.budget = step / factor
        self.spin_ns = int(spin * 1e9)
        self.rt_priority = rt_priority
        # per step: compute time (from the step's start to its point being
        # recorded) and lateness (that moment less the deadline), ns; the
        # wake-up error of the steps that waited (wake-up less deadline), ns
        self.compute = np.zeros(steps, dtype=np.int64)
        self.lateness = np.zeros(steps, dtype=np.int64)
        self.wake = np.full(steps, -1, dtype=np.int64)
        # per step: the thread's CPU time in it, ns (less than its compute
        # time by the time the process was preempted or waited on I/O)
        self.cpu = np.zeros(steps, dtype=np.int64)
        self.t = np.zeros(steps)
        self.n = 0
        self.facilities = {}
        self._restore = []
        self.collector = Collector()
        self.watch = Watch(self.collector)
        self.waits = Waits()

    def start(self, instances=(), helpers=()) -> None:
        """Take the OS facilities and start the clock: step 1 begins now.
        ``instances``: the components (``fmi_time`` [s] each), whose time
        the slowest steps are split into; ``helpers``: the native ids of
        threads that work for the run (the results' writer), raised with it
        to ``SCHED_FIFO`` one priority below its own, so that no ordinary
        process preempts one while it holds what a step waits for."""
        self.facilities = {"clock": "CLOCK_MONOTONIC (time.perf_counter_ns)",
                           "spin_us": self.spin_ns / 1e3}
        old = _set_timer_slack(1)
        # None: the system's default (50 µs on Linux) stays
        self.facilities["timer_slack_ns"] = None if old is None else 1
        if old is not None:
            self._restore.append(lambda: _set_timer_slack(old))
        self.collector.start()
        self._restore.append(self.collector.stop)
        self._restore.append(self.watch.stop)
        # the results' writing thread (and a bridge's heartbeat) hold the
        # interpreter's lock between their calls into pyarrow; a step that
        # needs it waits for the switch interval at most, a fraction of the
        # budget here instead of Python's 5 ms
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, max(SWITCH_MIN, self.budget * SWITCH_SHARE)))
        self.facilities["switch_interval_us"] = round(sys.getswitchinterval() * 1e6, 1)
        self._restore.append(lambda: sys.setswitchinterval(switch))
        self.facilities["scheduler"] = "SCHED_OTHER (normal)"
        if self.rt_priority is not None:
            self.facilities["scheduler"] = self._real_time_class()
            if not self.facilities.get("scheduler_refused"):
                self._raise_helpers(helpers)
        self.watch.start(instances)
        self.wall0 = self.step_start = time.perf_counter_ns()

    def _real_time_class(self) -> str:
        """Ask for SCHED_FIFO; what the run got, in words."""
        try:
            old = (os.sched_getscheduler(0), os.sched_getparam(0))
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(self.rt_priority))
        except (OSError, AttributeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.facilities["scheduler_refused"] = reason
            return f"SCHED_OTHER (normal; SCHED_FIFO {self.rt_priority} refused: {reason})"
        self._restore.append(lambda: os.sched_setscheduler(0, *old))
        return f"SCHED_FIFO {self.rt_priority}"

    def _raise_helpers(self, helpers) -> None:
        priority = max(1, self.rt_priority - 1)
        for tid in helpers:
            try:
                old = (os.sched_getscheduler(tid), os.sched_getparam(tid))
                os.sched_setscheduler(tid, os.SCHED_FIFO, os.sched_param(priority))
            except OSError:  # the thread gone, or no privilege for it: it stays as it was
                continue
            # (stop() passes over the OSError of a thread ended meanwhile)
            self._restore.append(lambda tid=tid, old=old: os.sched_setscheduler(tid, *old))
            self.facilities["helpers_scheduler"] = f"SCHED_FIFO {priority}"

    def wait(self, t: float, idle=None) -> None:
        """The point at simulated time ``t`` [s] is computed: count it, and
        sleep until its deadline if it is early.  ``idle(until_ns)``, if
        given, is called first to do deferred work (writing results) that
        ends before ``until_ns`` (``time.perf_counter_ns``),
        :data:`IDLE_MARGIN_NS` (or ``spin``, if shorter) before the
        deadline, after the young garbage is collected if it is due and
        fits.  Work needs no margin for a late wake-up, as a sleep does: it
        may use the time the pacer would spin."""
        now = time.perf_counter_ns()
        deadline = self.wall0 + round((t - self.t0) / self.factor * 1e9)
        k = self.n
        self.t[k] = t
        self.compute[k] = now - self.step_start
        self.lateness[k] = now - deadline
        self.n += 1
        self.cpu[k] = self.watch.end(k, t, now - self.step_start, self.step_start, now)
        spin = self.spin_ns
        if now >= deadline:
            self.collector.idle(now)  # only if too much is pending to wait longer
            self.step_start = time.perf_counter_ns()  # late: the next step starts at once
            self.watch.begin(k + 1)
            return
        until = deadline - min(spin, IDLE_MARGIN_NS)
        worked_past = 0
        if until > now:
            collected = self.collector.idle(until)
            if idle is not None:
                idle(until)
            if collected or idle is not None:
                now = time.perf_counter_ns()
                worked_past = max(0, now - deadline)
        slept_past = 0
        spinning = None  # (wall, thread CPU time) where the spin began, ns
        while True:
            remaining = deadline - now
            if remaining <= 0:
                break
            if remaining > spin:
                time.sleep((remaining - spin) * 1e-9)
                now = time.perf_counter_ns()
                slept_past = max(0, now - deadline)
                continue
            if spinning is None:
                spinning = (now, time.thread_time_ns())
            now = time.perf_counter_ns()
        off_cpu = 0
        if spinning is not None:
            off_cpu = max(0, now - spinning[0] - (time.thread_time_ns() - spinning[1]))
        self.wake[k] = now - deadline
        self.waits.add(k, t, now - deadline, worked_past, slept_past, off_cpu)
        self.step_start = now
        self.watch.begin(k + 1)

    def stop(self) -> None:
        """Give back what :meth:`start` took (the scheduling class, the
        collector)."""
        while self._restore:
            try:
                self._restore.pop()()
            except OSError:
                pass

    def write(self, path) -> None:
        """The steps done so far, one row each, to the CSV file ``path``:
        communication point, its simulated time [s], compute time,
        lateness and wake-up error [µs] (empty: the step was late and did
        not wait), and the thread's CPU time in the step [µs]."""
        if not hasattr(self, "wall0"):
            return  # never started: nothing was paced
        n = self.n
        with open(path, "w") as fh:
            fh.write("step,time,compute_us,lateness_us,wake_up_error_us,cpu_us\n")
            for k in range(n):
                wake = "" if self.wake[k] < 0 else f"{self.wake[k] / 1e3:.3f}"
                fh.write(f"{k + 1},{self.t[k]:.9g},{self.compute[k] / 1e3:.3f},"
                         f"{self.lateness[k] / 1e3:.3f},{wake},{self.cpu[k] / 1e3:.3f}\n")

    def summary(self) -> dict:
        """The figures of the steps done so far (times in µs)."""
        n = self.n
        budget_us = self.budget * 1e6
        compute = self.compute[:n] / 1e3
        late = np.maximum(self.lateness[:n], 0) / 1e3
        wake = self.wake[:n][self.wake[:n] >= 0] / 1e3
        cpu = self.cpu[:n] / 1e3
        share = compute / budget_us if n else compute
        counts = np.histogram(share, bins=SHARE_EDGES)[0] if n else np.zeros(len(SHARE_EDGES) - 1, dtype=int)

        def pct(a, q):
            return float(np.percentile(a, q)) if len(a) else None

        return {
            "factor": self.factor,
            "budget_us": budget_us,
            "steps": n,
            "overruns": int((self.lateness[:n] > 0).sum()),
            "over_budget": int((share >= 1.0).sum()) if n else 0,
            "lateness_max_us": float(late.max()) if n else None,
            "lateness_p99_us": pct(late, 99),
            "compute_us": {"mean": float(compute.mean()) if n else None, "p50": pct(compute, 50),
                           "p90": pct(compute, 90), "p99": pct(compute, 99),
                           "max": float(compute.max()) if n else None},
            "cpu_us": {"p50": pct(cpu, 50), "p99": pct(cpu, 99), "max": float(cpu.max()) if n else None},
            "budget_used": {"mean": float(share.mean()) if n else None, "p99": pct(share, 99),
                            "max": float(share.max()) if n else None},
            "budget_used_histogram": {"edges": [e if math.isfinite(e) else None for e in SHARE_EDGES],
                                      "counts": [int(c) for c in counts]},
            "wake_up_error_us": {"p50": pct(wake, 50), "p99": pct(wake, 99),
                                 "max": float(wake.max()) if len(wake) else None},
            "facilities": self.facilities,
            "slowest_steps": self.watch.report(),
            "slowest_waits": self.waits.report(),
            "collections": self.collector.summary(),
        }


def describe(s: dict) -> str:
    """The summary's figures in a few lines for the terminal."""
    if not s["steps"]:
        return f"real time x{s['factor']:g}: no step completed"
    c, b, w = s["compute_us"], s["budget_used"], s["wake_up_error_us"]
    lines = [
        f"real time x{s['factor']:g} ({s['budget_us']:.0f} µs per step): {s['steps']} steps, "
        f"{s['overruns']} overrun{'s' if s['overruns'] != 1 else ''} ({100 * s['overruns'] / s['steps']:.2f}%"
        + (f"; {s['over_budget']} took their budget or longer, the others started late behind them"
           if s['overruns'] else "")
        + f"); lateness max {s['lateness_max_us']:.0f} µs, p99 {s['lateness_p99_us']:.0f} µs",
        f"  step compute time p50 {c['p50']:.0f} µs, p99 {c['p99']:.0f} µs, max {c['max']:.0f} µs; "
        f"budget used {100 * b['mean']:.0f}% on average, {100 * b['p99']:.0f}% at p99",
    ]
    if w["p50"] is not None:
        lines.append(f"  wake-up after the deadline p50 {w['p50']:.1f} µs, p99 {w['p99']:.1f} µs, "
                     f"max {w['max']:.1f} µs ({s['facilities']['scheduler']})")
    slowest = s.get("slowest_steps") or []
    if slowest and slowest[0]["compute_us"] >= s["budget_us"]:
        x = slowest[0]
        lines.append(f"  slowest step: {x['step']} (t = {x['time']:g} s), {x['compute_us']:.0f} µs: {x['cause']}")
    return "\n".join(lines)


class Pacing(Observer):
    """Holds each communication point to its wall-clock deadline with
    ``pacer`` (a :class:`Pacer`), doing in the time it waits what would
    otherwise stall a step: the young garbage collected, the results
    written (a batch every ``stalls.BATCH_SECONDS``, then the writer's
    ``write_until``), and, when ``step`` [s] is given, the progress bar of
    ``log`` moved (which the :class:`~.progress.Progress` observer does in
    an unpaced run).  The figures go to ``summary.json`` under
    ``"real_time"`` and, a row a step, to ``timing.csv`` in ``out_dir``.
    :meth:`marker` is an observer to put ahead of all others: it tells the
    pacer when the algorithm's step is done, so that the slowest steps'
    time is split between the master and the observers."""

    def __init__(self, pacer: Pacer, log, out_dir, step: float | None = None):
        self.pacer, self.log, self.out_dir = pacer, log, out_dir
        self.step = step
        self._section = {}
        self.batches = None
        self._steps = 0  # steps the progress bar has not been moved for

    def marker(self) -> Observer:
        watch = self.pacer.watch

        class Marker(Observer):
            def step_complete(self, execution) -> None:
                watch.mark()

        return Marker()

    def started(self, execution) -> None:
        self.batches = Batches(self.log.writer)
        self.batches.start()
        self._progress = Costs(100_000)
        tid = self.log.writer.thread_id  # the results' writing thread, if they are written behind
        self.pacer.start(execution.instances, [tid] if tid is not None else [])

    def step_complete(self, execution) -> None:
        self._steps += 1
        self.pacer.wait(execution.t, self._idle)

    def _idle(self, until_ns: int) -> None:
        self.batches.idle(until_ns)
        if self.step is not None and self._steps >= PROGRESS_EVERY:
            if self._progress.fits(time.perf_counter_ns(), until_ns):
                cpu = time.thread_time_ns()
                self.log.advanced(self._steps * self.step)
                self._steps = 0
                self._progress.add(time.thread_time_ns() - cpu)

    def finished(self, execution, error) -> None:
        self.pacer.stop()
        summary = self.pacer.summary()
        summary["results_batches_in_waiting_time"] = self.batches.written if self.batches is not None else 0
        self._section = {"real_time": summary}
        self.pacer.write(self.out_dir / TIMING_FILE)

    def summary(self) -> dict:
        """The pacing's figures: deadlines met and missed, waits, stalls."""
        return self._section
