"""The run's bridges, UDP (``bridge/udp_bridge.py``) and DCP
(``bridge/dcp/dcp_bridge.py``): each one's counters, read from its outputs
at the end, and its link's round trips, taken at every step that brought
an answer, under ``"bridges"`` in ``summary.json`` with the peer's status;
a warning under ``"warnings"`` for a peer that never answered, one that
was silent while the run went on (``on_silence = hold``, the run then
degraded), datagrams a bridge ignored, and a DCP slave's data missed; the
terminal prints both (``cli/runs.py``, :func:`describe`)."""
from __future__ import annotations

import math
from array import array

import numpy as np

from ...bridge.dcp.description import read_description_text
from ...bridge.udp_bridge import PARAMETERS
from ...fmus.build import bridge_spec_of
from . import Observer

__all__ = ["Bridges", "describe", "COUNTER_NAMES"]

#: the counters a bridge outputs, by their names in ``summary.json``
#: (``bridge_<name>`` in results.arrows)
COUNTER_NAMES = ("sent", "answers", "lost", "late", "stale", "held", "safe", "age", "malformed", "forged", "unasked")
#: the counters a DCP bridge outputs, by their names in ``summary.json`` (``dcp_<name>``)
DCP_COUNTER_NAMES = ("steps", "missed")


def _parameter(part, spec_defaults: dict, name: str):
    return part.values.get(name, spec_defaults.get(name))


class Bridges(Observer):
    """Finds the bridges among ``plan``'s components, keeps their round
    trips step by step and writes their figures into ``log``'s summary when
    the run ends (:attr:`bridges` empty: none to watch)."""

    batched = True

    def __init__(self, plan, log):
        self.log = log
        self._section = {}
        defaults = {p.name: p.start for p in PARAMETERS}
        self.bridges = []  # (part index, name, {counter: output index}, description)
        self._watch = []  # (part index, answers' output index, round trip's, its column in a batch's rows)
        self._trips: dict[int, array] = {}  # part index -> round trips of the steps that brought an answer [s]
        self._answers: dict[int, float] = {}
        column = 1  # a batch's rows: the time, then every component's outputs in turn
        for k, part in enumerate(plan.parts):
            first, column = column, column + len(part.outputs)
            at = {v.name: j for j, v in enumerate(part.outputs)}
            spec = bridge_spec_of(part.path) if part.model.built else None
            if spec is not None and spec.get("protocol") == "dcp" and "dcp_steps" in at:
                self._add_dcp(k, part, at, spec, first)
                continue
            if "bridge_sent" not in at or spec is None:
                continue
            counters = {c: at[f"bridge_{c}"] for c in COUNTER_NAMES if f"bridge_{c}" in at}
            host = str(_parameter(part, defaults, "host")).strip()
            port = int(float(_parameter(part, defaults, "port")))
            about = {"peer": f"udp://[{host}]:{port}" if ":" in host else f"udp://{host}:{port}",
                     "mode": _parameter(part, defaults, "mode"),
                     "on_silence": _parameter(part, defaults, "on_silence")}
            self.bridges.append((k, part.name, counters, about))
            if "bridge_round_trip" in at:
                self._watch.append((k, at["bridge_answers"], at["bridge_round_trip"], first))
                self._trips[k], self._answers[k] = array("d"), 0.0
        self.read = False

    def _add_dcp(self, k: int, part, at: dict, spec: dict, first: int) -> None:
        """Watch the DCP bridge ``part``: its slave's address (the parameters
        set, else the slave description's), its steps and missed data, and
        its round trips at every step (``dcp_round_trip``)."""
        d = read_description_text(spec["slave_description"], f"the slave description in {part.path}")
        host = str(part.values.get("host", "")).strip() or d.host
        port = int(float(part.values.get("port", 0))) or d.port
        counters = {c: at[f"dcp_{c}"] for c in DCP_COUNTER_NAMES if f"dcp_{c}" in at}
        self.bridges.append((k, part.name, counters, {"peer": f"udp://{host}:{port}", "protocol": "DCP 1.0",
                                                      "mode": "non-real-time lock-step"}))
        if "dcp_round_trip" in at:
            self._watch.append((k, at["dcp_steps"], at["dcp_round_trip"], first))
            self._trips[k], self._answers[k] = array("d"), 0.0

    def started(self, execution) -> None:
        self.read = True  # the outputs at the start time are exchanged: the counters are there
        for k, answers, trip, _ in self._watch:
            self._took(k, execution.instances[k].y[answers], execution.instances[k].y[trip])

    def _took(self, k: int, answers: float, trip: float) -> None:
        if answers > self._answers[k]:
            self._answers[k] = answers
            self._trips[k].append(trip)

    def step_complete(self, execution) -> None:
        for k, answers, trip, _ in self._watch:
            y = execution.instances[k].y
            self._took(k, y[answers], y[trip])

    def rows_complete(self, execution, rows) -> None:
        for k, answers, trip, first in self._watch:
            for a, r in zip(rows[:, first + answers], rows[:, first + trip]):
                self._took(k, a, r)

    def finished(self, execution, error) -> None:
        if not self.bridges:
            return
        found, warnings = {}, []
        for k, name, counters, about in self.bridges:
            entry = dict(about)
            y = execution.instances[k].y if k < len(execution.instances) else None
            values = {c: float(y[j]) for c, j in counters.items()} if self.read and y is not None else {}
            if not values or not all(math.isfinite(v) for v in values.values()):
                entry["status"] = "not read: the run stopped before the bridge's outputs were"
                found[name] = entry
                continue
            values = {c: int(v) for c, v in values.items()}
            entry.update(values, time=execution.t)
            if self._trips.get(k):
                entry["round_trip_us"] = round_trips(self._trips[k])
            if about.get("protocol") == "DCP 1.0":  # lock-step: a silent slave fails the step; no other status
                entry["status"] = "stepped"
                if values.get("missed"):
                    warnings.append(f"{name} missed {values['missed']} data PDU{'s' if values['missed'] != 1 else ''} "
                                    f"of the DCP slave at {about['peer']} (gaps in their sequence numbers)")
                found[name] = entry
                continue
            peer = f"the peer of {name} at {about['peer']}"
            held, safe = values.get("held", 0), values.get("safe", 0)
            kept = f"held at {held} step{'s' if held != 1 else ''}" + (f" and the safe ones at {safe}" if safe else "")
            silent = None
            if values.get("answers", 1) == 0:
                entry["status"] = "never answered"
                silent = (f"{peer} never answered: {name}'s outputs were their start values, {kept} "
                          f"({values.get('sent', 0)} requests sent; on_silence = {about['on_silence']})")
            elif held or safe:
                entry["status"] = "safe outputs" if safe else "held"
                silent = (f"{peer} was silent at times: {name}'s outputs were {kept} (on_silence = "
                          f"{about['on_silence']}; bridge_held and bridge_safe in results.arrows say when)")
            else:
                entry["status"] = "answered"
            if silent is not None:
                warnings.append(silent)
                self.log.degraded(silent)
            ignored = values.get("malformed", 0), values.get("unasked", 0)
            if any(ignored):
                warnings.append(f"{name} ignored {ignored[0]} malformed datagram{'s' if ignored[0] != 1 else ''} "
                                f"and {ignored[1]} answering no request it sent, or one already answered (the peer "
                                f"answering twice or ahead of a request, or another process sending to its port)")
            if values.get("forged", 0):
                warnings.append(f"{name} refused {values['forged']} datagram{'s' if values['forged'] != 1 else ''} "
                                f"for their tag, not made with its key (a peer with another key, or another "
                                f"process sending to its port)")
            found[name] = entry
        self._section = {"bridges": found, **({"warnings": warnings} if warnings else {})}

    def summary(self) -> dict:
        """Each bridge's counters and status, and a warning for each peer
        that never answered or was silent at times."""
        return self._section


def round_trips(trips) -> dict:
    """The figures of a link's round trips ``trips`` [s], one per step that
    brought an answer, in µs: ``p50``, ``p99``, ``max``, and ``jitter``,
    the mean difference between one round trip and the next (the
    interarrival jitter of RFC 3550, section 6.4.1, unsmoothed)."""
    us = np.frombuffer(trips, dtype=float) * 1e6
    jitter = float(np.mean(np.abs(np.diff(us)))) if len(us) > 1 else 0.0
    return {"answers_timed": len(us), "p50": round(float(np.percentile(us, 50)), 1),
            "p99": round(float(np.percentile(us, 99)), 1), "max": round(float(us.max()), 1),
            "jitter": round(jitter, 1)}


def describe(bridges: dict) -> list[str]:
    """A line per bridge of ``summary.json``'s ``"bridges"``, for the terminal."""
    words = (("sent", "requests sent"), ("answers", "answered"), ("lost", "lost"), ("late", "late"),
             ("stale", "stale"), ("held", "held"), ("safe", "safe"), ("malformed", "malformed datagrams ignored"),
             ("forged", "forged ones refused"), ("unasked", "unasked ones ignored"), ("steps", "steps"),
             ("missed", "data PDUs missed"))
    lines = []
    for name, b in bridges.items():
        counts = ", ".join(f"{b[c]} {word}" for c, word in words if c in b)
        trips = b.get("round_trip_us")
        if trips:
            counts += (f"; round trip {trips['p50']:g} µs (p50), {trips['p99']:g} µs (p99), {trips['max']:g} µs "
                       f"(max), jitter {trips['jitter']:g} µs")
        lines.append(f"bridge {name} ({b['peer']}, {b['mode']}): {b['status']}" + (f"; {counts}" if counts else ""))
    return lines
