"""Stalls of a paced run: work moved out of the steps into the time they wait, and
what made the slowest steps slow.

What can stall a step paced to the wall clock in Python, and what is done here
(``pacing.py`` calls these):

* **the cyclic garbage collector** runs when enough container objects were
  made, in whatever step that happens, and a collection of the older
  generations takes a millisecond or more.  :class:`Collector` keeps it out of
  the steps: the objects of the set-up are frozen out of its way
  (``gc.freeze``), automatic collection is off for the paced run, and the young
  generations (0 and 1) are collected in the time a step waits, when the cost
  of the last few collections (in CPU time) fits; the oldest generation waits
  for the end of the run.  Garbage that only the oldest generation's collection
  frees (cycles among objects that survived a collection) is held until then.
* **the results' writer** writes a batch of a second's rows in the step that
  records a row when none was written in the waiting time.  The pacer writes
  them in the waiting time instead (:class:`Batches`): every ``BATCH_SECONDS``
  of wall time a batch, in the first wait long enough for what the cheapest of
  the last ones cost (in CPU time), and it never writes in a step.
* **a kernel compiled late** (at its first call with a new signature) is noted:
  the blocks compile theirs in set-up; **the progress bar** moves in the
  waiting time (``pacing.Pacing``).

:class:`Watch` keeps the slowest steps (:data:`SLOWEST`) with the parts of
their time: each component's FMI calls, the master's own work, the observers
before the pacer, collections, compiling, and the time the thread was not on
a CPU; :class:`Waits` the waits that ended latest past their deadline, with
what made them late (its work, a sleep woken late, the core taken);
``summary.json`` gives both under ``"real_time"``, each with its cause.
"""
from __future__ import annotations

import gc
import heapq
import statistics
import sys
import time

__all__ = ["Collector", "Batches", "Costs", "Watch", "Waits", "SLOWEST"]

#: the slowest steps reported
SLOWEST = 5
#: a part of a step named as a cause of its time: at least this share of it ...
CAUSE_SHARE = 0.2
#: ... or at least this long [ns]
CAUSE_NS = 1_000_000
#: wall time between two batches of results written in the waiting time [s]:
#: about a hundred rows of a 1 ms step, a batch that fits in a wait
BATCH_SECONDS = 0.1
#: what a young collection is taken to cost until one is measured [ns]
FIRST_COLLECTION_NS = 200_000
#: what a batch of results is taken to cost until one is measured [ns]
FIRST_BATCH_NS = 300_000
#: the recent costs kept to judge whether a piece of work fits in a wait
_RECENT = 8


class Costs:
    """The CPU time one kind of work done in waiting time took [ns]
    (``time.thread_time_ns``: a run preempted while doing it does not make
    it look dearer): :meth:`fits` says whether one more ends before a
    given time, judged with ``margin`` on the median of the last few, or,
    with ``least=True``, on the least of them (for work whose cost grows
    with how long it was put off: judged on the larger ones, it would be
    put off for good); ``prior`` stands for them until one is measured."""

    def __init__(self, prior_ns: int, margin: float = 1.1, least: bool = False):
        self.recent = []
        self.prior = prior_ns
        self.margin = margin
        self.least = least

    def add(self, ns: int) -> None:
        self.recent.append(ns)
        del self.recent[:-_RECENT]

    def estimate(self) -> float:
        if not self.recent:
            return self.prior
        return min(self.recent) if self.least else statistics.median(self.recent)

    def fits(self, now_ns: int, until_ns: int) -> bool:
        return now_ns + self.margin * self.estimate() <= until_ns


class Collector:
    """The cyclic garbage collector kept out of the steps of a paced run
    (see the module docstring).  ``force`` [collections' worth]: the young
    generations are collected when this many times generation 0's
    threshold of objects is pending, whether the wait has room or not, so
    that memory stays bounded when no wait is long enough."""

    def __init__(self, force: int = 20):
        self.force = force
        self.in_wait = 0    # young collections done in waiting time
        self.forced = 0     # of those, done without the room for them
        self.in_steps = 0   # collections inside steps
        self.in_steps_max = 0  # the longest of them [ns]
        self.current = []   # those of the step under way: (generation, duration [ns])
        self._mine = False
        self._t0 = 0
        self._was_enabled = False
        self._costs = None

    def start(self) -> None:
        """Collect everything, freeze the survivors, stop automatic
        collection and watch for collections made in steps anyway (by a
        component calling ``gc.collect``)."""
        gc.collect()
        gc.freeze()
        self._was_enabled = gc.isenabled()
        gc.disable()
        self.threshold = max(1, gc.get_threshold()[0])
        self._costs = Costs(FIRST_COLLECTION_NS)
        gc.callbacks.append(self._callback)

    def _callback(self, phase, info) -> None:
        if self._mine:
            return
        if phase == "start":
            self._t0 = time.perf_counter_ns()
        else:
            ns = time.perf_counter_ns() - self._t0
            self.current.append((info["generation"], ns))
            self.in_steps += 1
            self.in_steps_max = max(self.in_steps_max, ns)

    def idle(self, until_ns: int) -> bool:
        """Collect the young generations if enough objects are pending and
        the last collections' cost fits before ``until_ns``
        (``time.perf_counter_ns``), or if too many are pending; whether it
        did."""
        pending = gc.get_count()[0]
        if pending < self.threshold:
            return False
        now = time.perf_counter_ns()
        forced = pending >= self.force * self.threshold
        if not forced and not self._costs.fits(now, until_ns):
            return False
        self._mine = True
        cpu = time.thread_time_ns()
        try:
            gc.collect(1)
        finally:
            self._mine = False
        self._costs.add(time.thread_time_ns() - cpu)
        self.in_wait += 1
        self.forced += forced
        return True

    def stop(self) -> None:
        """Automatic collection as it was, the frozen objects back."""
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)
        if self._was_enabled:
            gc.enable()
        gc.unfreeze()

    def summary(self) -> dict:
        return {"young_in_waiting_time": self.in_wait, "young_forced": self.forced, "in_steps": self.in_steps,
                "in_steps_max_us": self.in_steps_max / 1e3 if self.in_steps else None}


class Batches:
    """The results written in the waiting time, a batch every
    :data:`BATCH_SECONDS` of wall time, with the ``writer``'s own
    ``write_until`` after it.  ``release()`` writes every row held (or,
    written behind, hands them to the writing thread); it is called only
    in a wait that has room for what the cheapest of the last batches cost
    in CPU time (a batch put off holds more rows and costs
    more: judged on those, batches would grow until none fits);
    the first row is written before the clock starts, with the one-off
    costs of a first write."""

    def __init__(self, writer):
        self.writer = writer
        self.written = 0  # batches written in waiting time

    def start(self) -> None:
        self.writer.flush()  # the first row, with what a first write costs once
        self._last = time.perf_counter_ns()
        self._costs = Costs(FIRST_BATCH_NS, least=True)

    def idle(self, until_ns: int) -> None:
        now = time.perf_counter_ns()
        if now - self._last >= BATCH_SECONDS * 1e9 and self._costs.fits(now, until_ns):
            cpu = time.thread_time_ns()
            self.writer.release()
            self._costs.add(time.thread_time_ns() - cpu)
            self._last = time.perf_counter_ns()
            self.written += 1
            now = self._last
        if now < until_ns:
            self.writer.write_until(until_ns)


class _Compiles:
    """Time numba held its compiler lock (compiling, or loading from its
    cache) in each step [ns], and the functions it compiled there; a
    listener registered only when numba is imported."""

    def __init__(self):
        self.by_step = {}
        self.names = {}
        self.step = -1
        self._depth = 0
        self._event = None

    def start(self) -> None:
        if "numba" not in sys.modules:
            return
        # numba only where the run has loaded it (checked above)
        from numba.core import event

        owner = self

        class Lock(event.Listener):
            def on_start(self, ev):
                if owner._depth == 0:
                    owner._t0 = time.perf_counter_ns()
                owner._depth += 1

            def on_end(self, ev):
                owner._depth -= 1
                if owner._depth == 0:
                    owner.by_step[owner.step] = owner.by_step.get(owner.step, 0) + time.perf_counter_ns() - owner._t0

        class Compile(event.Listener):
            def on_start(self, ev):
                owner.names.setdefault(owner.step, []).append(ev.data["dispatcher"].py_func.__name__)

            def on_end(self, ev):
                pass

        self._event = event
        self._listeners = [("numba:compiler_lock", Lock()), ("numba:compile", Compile())]
        for kind, listener in self._listeners:
            event.register(kind, listener)

    def stop(self) -> None:
        if self._event is not None:
            for kind, listener in self._listeners:
                self._event.unregister(kind, listener)
            self._event = None


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms" if ns < 10e6 else f"{ns / 1e6:.0f} ms"


class Watch:
    """The :data:`SLOWEST` steps of a paced run and the parts of their time.

    Per step :meth:`begin` (as the step starts) and :meth:`end` (as its
    point is recorded, with its compute time) read the thread's CPU time
    and the components' time in FMI calls (``fmi_time`` [s] of each
    instance); ``algorithm_done`` (set by :meth:`mark`, an observer ahead
    of the others) splits the master's own work from the observers'.
    ``collector``: the :class:`Collector` whose in-step collections are
    named."""

    def __init__(self, collector: Collector, slowest: int = SLOWEST):
        self.collector = collector
        self.slowest = slowest
        self.compiles = _Compiles()
        self.heap = []  # (compute ns, step index, details): the slowest so far
        self.instances = []
        self.algorithm_done = None

    def start(self, instances) -> None:
        self.instances = list(instances)
        self._fmi = [i.fmi_time for i in self.instances]
        self.compiles.start()
        self.begin(0)

    def mark(self) -> None:
        """The algorithm's step is done (the observers come next)."""
        self.algorithm_done = time.perf_counter_ns()

    def begin(self, k: int) -> None:
        """Step ``k`` (0-based) starts now."""
        self.compiles.step = k
        self.collector.current = []
        self._cpu = time.thread_time_ns()
        self.algorithm_done = None

    def end(self, k: int, t: float, compute_ns: int, start_ns: int, now_ns: int) -> int:
        """Step ``k`` at simulated time ``t`` [s] took ``compute_ns``, from
        ``start_ns`` to ``now_ns`` (``time.perf_counter_ns``); the thread's
        CPU time in it [ns]."""
        cpu = time.thread_time_ns() - self._cpu
        fmi = [i.fmi_time for i in self.instances]
        if len(self.heap) < self.slowest or compute_ns > self.heap[0][0]:
            parts = self._parts(k, compute_ns, cpu, fmi, start_ns, now_ns)
            item = (compute_ns, k, {"step": k + 1, "time": t, "compute_us": compute_ns / 1e3, **parts})
            (heapq.heappush if len(self.heap) < self.slowest else heapq.heapreplace)(self.heap, item)
        self._fmi = fmi
        return cpu

    def _parts(self, k, compute_ns, cpu_ns, fmi, start_ns, now_ns) -> dict:
        components = {i.name: round((b - a) * 1e9) for i, a, b in zip(self.instances, self._fmi, fmi)}
        parts = {}  # name of the part -> (ns, words)
        for name, ns in components.items():
            parts[f"component {name}"] = (ns, f"time in component {name} ({_ms(ns)})")
        if self.algorithm_done is not None and start_ns <= self.algorithm_done <= now_ns:
            master = self.algorithm_done - start_ns - sum(components.values())
            observers = now_ns - self.algorithm_done
            parts["master"] = (master, f"the master's own work ({_ms(master)})")
            parts["observers"] = (observers, f"recording results and the other observers ({_ms(observers)})")
        collections = self.collector.current
        for g in sorted({g for g, _ in collections}):
            ns = sum(d for gg, d in collections if gg == g)
            parts[f"collection {g}"] = (ns, f"garbage collection of generation {g} ({_ms(ns)})")
        compiled = self.compiles.by_step.get(k, 0)
        if compiled:
            names = ", ".join(sorted(set(self.compiles.names.get(k, [])))) or "loaded from the cache"
            parts["compiling"] = (compiled, f"numba compiling a kernel ({_ms(compiled)}: {names})")
        off_cpu = max(0, compute_ns - cpu_ns)
        parts["off_cpu"] = (off_cpu, f"not on a CPU for {_ms(off_cpu)} (preempted by another process, "
                                     f"or waiting on I/O)")
        # what took the time first (a collection, a compilation, the core
        # taken away), then where it was spent, each the longest first
        named = sorted((not name.startswith(("collection", "compiling", "off_cpu")), -ns, words)
                       for name, (ns, words) in parts.items() if ns >= CAUSE_NS or ns >= CAUSE_SHARE * compute_ns)
        return {"cause": "; ".join(words for _, _, words in named) or "unknown",
                "parts_us": {name: ns / 1e3 for name, (ns, _) in parts.items()}}

    def stop(self) -> None:
        self.compiles.stop()

    def report(self) -> list[dict]:
        """The slowest steps, the slowest first."""
        return [details for _, _, details in sorted(self.heap, key=lambda x: -x[0])]


class Waits:
    """The waits for a deadline that ended latest past it (:data:`SLOWEST`),
    each with what made it late: the work done in the wait (results
    written, garbage collected) running past the deadline, the sleep
    returning after it (the OS woke the thread late), or the thread off
    the CPU while it spun to it (the core taken away)."""

    def __init__(self):
        self._latest = []  # a heap of (wake-up error, step, time, worked, slept past, off the CPU), ns

    def add(self, k: int, t: float, late_ns: int, worked_past_ns: int, slept_past_ns: int, off_cpu_ns: int) -> None:
        """The wait after step ``k`` (0-based; point at ``t`` [s]) ended
        ``late_ns`` after its deadline; its work ended ``worked_past_ns``
        after it, its sleep returned ``slept_past_ns`` after it, and the
        thread was ``off_cpu_ns`` off the CPU while spinning."""
        if late_ns <= 0:
            return
        item = (late_ns, k, t, worked_past_ns, slept_past_ns, off_cpu_ns)
        if len(self._latest) < SLOWEST:
            heapq.heappush(self._latest, item)
        elif item > self._latest[0]:
            heapq.heapreplace(self._latest, item)

    def report(self) -> list[dict]:
        """The latest waits, latest first: ``step`` (1-based), ``time`` [s],
        ``wake_up_error_us``, ``worked_past_deadline_us``,
        ``slept_past_deadline_us``, ``off_cpu_spinning_us`` and the
        ``cause`` in words."""
        out = []
        for late, k, t, worked, slept, off in sorted(self._latest, reverse=True):
            if worked > 0 and worked >= max(slept, off):
                cause = (f"the work done in the wait (results written, garbage collected) ended {_ms(worked)} "
                         f"after the deadline")
            elif slept >= off and slept > 0:
                cause = (f"the sleep returned {_ms(slept)} after the deadline: the OS woke the thread late (its "
                         f"timer, the scheduler or the hypervisor)")
            elif off > 0:
                cause = (f"the thread was off the CPU for {_ms(off)} while spinning to the deadline: another "
                         f"process or the hypervisor took the core")
            else:
                cause = "the spin's last reading of the clock, past the deadline"
            out.append({"step": k + 1, "time": t, "wake_up_error_us": late / 1e3,
                        "worked_past_deadline_us": worked / 1e3, "slept_past_deadline_us": slept / 1e3,
                        "off_cpu_spinning_us": off / 1e3, "cause": cause})
        return out
