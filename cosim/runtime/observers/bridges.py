"""The run's UDP bridges (``bridge/udp_bridge.py``) at its end: each one's
counters, read from its outputs, under ``"bridges"`` in ``summary.json``
with the peer's status, and a warning under ``"warnings"`` for a peer that
never answered, one that was silent while the run went on
(``on_silence = hold``), and datagrams a bridge ignored; the terminal
prints both (``cli/runs.py``, :func:`describe`)."""
from __future__ import annotations

import math

from ...bridge.udp_bridge import PARAMETERS
from ...fmus.build import bridge_spec_of
from . import Observer

__all__ = ["Bridges", "describe", "COUNTER_NAMES"]

#: the counters a bridge outputs, by their names in ``summary.json``
#: (``bridge_<name>`` in results.arrows)
COUNTER_NAMES = ("sent", "answers", "lost", "late", "stale", "held", "safe", "age", "malformed", "unasked")


def _parameter(part, spec_defaults: dict, name: str):
    return part.values.get(name, spec_defaults.get(name))


class Bridges(Observer):
    """Finds the bridges among ``plan``'s components and writes their
    figures into ``log``'s summary when the run ends."""

    def __init__(self, plan, log):
        self.log = log
        self._section = {}
        defaults = {p.name: p.start for p in PARAMETERS}
        self.bridges = []  # (part index, name, {counter: output index}, description)
        for k, part in enumerate(plan.parts):
            at = {v.name: j for j, v in enumerate(part.outputs)}
            if "bridge_sent" not in at or not part.model.built or bridge_spec_of(part.path) is None:
                continue
            counters = {c: at[f"bridge_{c}"] for c in COUNTER_NAMES if f"bridge_{c}" in at}
            host = str(_parameter(part, defaults, "host")).strip()
            port = int(float(_parameter(part, defaults, "port")))
            about = {"peer": f"udp://[{host}]:{port}" if ":" in host else f"udp://{host}:{port}",
                     "mode": _parameter(part, defaults, "mode"),
                     "on_silence": _parameter(part, defaults, "on_silence")}
            self.bridges.append((k, part.name, counters, about))
        self.read = False

    def started(self, execution) -> None:
        self.read = True  # the outputs at the start time are exchanged: the counters are there

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
            peer = f"the peer of {name} at {about['peer']}"
            held, safe = values.get("held", 0), values.get("safe", 0)
            if values.get("answers", 1) == 0:
                entry["status"] = "never answered"
                silent = (f"{peer} never answered: {name}'s outputs were their start values, held at {held} "
                          f"step{'s' if held != 1 else ''}" + (f" and the safe ones at {safe}" if safe else "")
                          + f" ({values.get('sent', 0)} requests sent; on_silence = {about['on_silence']})")
                warnings.append(silent)
                self.log.degraded(silent)
            elif held or safe:
                entry["status"] = "safe outputs" if safe else "held"
                silent = (f"{peer} was silent at times: {name}'s outputs were held at {held} "
                          f"step{'s' if held != 1 else ''}"
                          + (f" and the safe ones at {safe}" if safe else "")
                          + f" (on_silence = {about['on_silence']}; bridge_held and bridge_safe in results.arrows "
                          f"say when)")
                warnings.append(silent)
                self.log.degraded(silent)
            else:
                entry["status"] = "answered"
            ignored = values.get("malformed", 0), values.get("unasked", 0)
            if any(ignored):
                warnings.append(f"{name} ignored {ignored[0]} malformed datagram{'s' if ignored[0] != 1 else ''} "
                                f"and {ignored[1]} answering no request it sent, or one already answered (the peer "
                                f"answering twice or ahead of a request, or another process sending to its port)")
            found[name] = entry
        self._section = {"bridges": found, **({"warnings": warnings} if warnings else {})}

    def summary(self) -> dict:
        """Each bridge's counters and status, and a warning for each peer
        that never answered or was silent at times."""
        return self._section


def describe(bridges: dict) -> list[str]:
    """A line per bridge of ``summary.json``'s ``"bridges"``, for the terminal."""
    words = (("sent", "requests sent"), ("answers", "answered"), ("lost", "lost"), ("late", "late"),
             ("stale", "stale"), ("held", "held"), ("safe", "safe"), ("malformed", "malformed datagrams ignored"),
             ("unasked", "unasked ones ignored"))
    lines = []
    for name, b in bridges.items():
        counts = ", ".join(f"{b[c]} {word}" for c, word in words if c in b)
        lines.append(f"bridge {name} ({b['peer']}, {b['mode']}): {b['status']}" + (f"; {counts}" if counts else ""))
    return lines
