"""Scenarios: values changed during a run, in OSP's scenario format (the
JSON or YAML files libcosim's scenario manager reads), so that a set-point
step at 5 s or a failure injected at 12 s is a file beside the system.

    {"description": "the boom's set-point stepped, then its sensor biased",
     "defaults": {"model": "controller", "action": "override"},
     "events": [{"time": 5.0, "variable": "q_boom_ref", "value": 0.4},
                {"time": 12.0, "model": "crane", "variable": "q_boom", "action": "bias", "value": 0.01},
                {"when": {"model": "crane", "variable": "q_jib", "above": 0.3},
                 "model": "controller", "variable": "enabled", "value": false}],
     "end": 20.0}

Each event acts on one variable of one component (``model``): ``override``
(the value becomes ``value``), ``bias`` (``value`` is added to it) or
``reset`` (the variable's change is undone).  On an input (connected or
not) or a tunable parameter, the FMU is given the changed value from then
on; on an output, the master reads the changed value (what it passes on and
records).  An event acts at the first communication point at or after its
``time``, as libcosim's does (before the step that starts there); an event
of ours may instead say ``when`` (a variable of a component ``above`` or
``below`` a value, looked at every communication point), acting at the
first point where it holds.  At ``end`` [s] every change is undone; without
``end`` they last to the run's end (libcosim undoes them at the step after
its last event).  The run's ``summary.json`` lists what acted and when.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..errors import CraneCosimError

__all__ = ["ACTIONS", "Event", "Scenario", "read_scenario", "write_scenario"]

ACTIONS = ("override", "bias", "reset")
_CONDITIONS = ("above", "below")


@dataclass(frozen=True)
class Event:
    """One change: ``action`` on ``model``.``variable`` (``value`` for an
    override or a bias), at ``time`` [s] or ``when`` =
    ``(model, variable, "above"|"below", threshold)`` holds."""
    model: str
    variable: str
    action: str
    value: object = None
    time: float | None = None
    when: tuple | None = None

    def said(self) -> str:
        what = "reset" if self.action == "reset" else f"{self.action} {_text(self.value)}"
        trigger = (f"at t = {self.time:g} s" if self.time is not None else
                   f"when {self.when[0]}.{self.when[1]} is {self.when[2]} {self.when[3]:g}")
        return f"{self.model}.{self.variable} {what} {trigger}"


@dataclass(frozen=True)
class Scenario:
    """The events of a scenario file, its ``end`` [s] (None: the run's) and
    ``description``; ``path``: the file read, for the sentences."""
    events: tuple
    end: float | None = None
    description: str = ""
    path: str = ""


def _text(value) -> str:
    return json.dumps(value) if isinstance(value, (bool, str)) else f"{value:g}"


def read_scenario(path) -> Scenario:
    """The scenario in the JSON or YAML file ``path`` (OSP's format, with
    ``when`` events of ours); each fault named in one sentence."""
    path = Path(path)
    if not path.is_file():
        raise CraneCosimError(f"scenario file {path} does not exist")
    text = path.read_text(errors="replace")
    try:
        data = yaml.safe_load(text) if path.suffix.lower() in (".yml", ".yaml") else json.loads(text)
    except (ValueError, yaml.YAMLError) as exc:
        kind = "YAML" if path.suffix.lower() in (".yml", ".yaml") else "JSON"
        raise CraneCosimError(f"scenario file {path} is not valid {kind}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict) or not isinstance(data.get("events"), list):
        raise CraneCosimError(f"scenario file {path} has no list of events (OSP's form: {{\"events\": [...]}})")
    defaults = data.get("defaults") or {}
    events = tuple(_event(path, k, e, defaults) for k, e in enumerate(data["events"], start=1))
    end = data.get("end")
    if end is not None and not _number(end):
        raise CraneCosimError(f"scenario file {path}: its end {end!r} is not a time in seconds")
    return Scenario(events, None if end is None else float(end), str(data.get("description") or ""), str(path))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _event(path: Path, k: int, e, defaults: dict) -> Event:
    where = f"scenario file {path}: event {k}"
    if not isinstance(e, dict):
        raise CraneCosimError(f"{where} is not an object of time, model, variable, action and value")

    def given(key: str):
        value = e.get(key, defaults.get(key))
        if value is None:
            raise CraneCosimError(f"{where} gives no {key}, and the defaults give none")
        return str(value)
    model, variable, action = given("model"), given("variable"), given("action")
    if action not in ACTIONS:
        raise CraneCosimError(f"{where} has the action {action!r}; OSP's are {', '.join(ACTIONS)}")
    value = e.get("value")
    if action != "reset" and (value is None or not (_number(value) or isinstance(value, (bool, str)))):
        raise CraneCosimError(f"{where} ({action} of {model}.{variable}) gives no value, or one that is not a number, "
                              f"a boolean or a text")
    if ("time" in e) == ("when" in e):
        raise CraneCosimError(f"{where} must give either a time or a when (a variable above or below a value)")
    if "time" in e:
        if not _number(e["time"]):
            raise CraneCosimError(f"{where} has the time {e['time']!r}, which is not a time in seconds")
        return Event(model, variable, action, value, time=float(e["time"]))
    return Event(model, variable, action, value, when=_condition(where, e["when"]))


def _condition(where: str, when) -> tuple:
    kinds = [k for k in _CONDITIONS if isinstance(when, dict) and k in when]
    if not isinstance(when, dict) or not when.get("model") or not when.get("variable") or len(kinds) != 1 \
            or not _number(when[kinds[0]]):
        raise CraneCosimError(f"{where}: its when must name a model and a variable and give one of above or below, "
                              f"a number")
    return str(when["model"]), str(when["variable"]), kinds[0], float(when[kinds[0]])


def write_scenario(scenario: Scenario, path) -> Path:
    """``scenario`` written to ``path`` as JSON, in OSP's form."""
    events = []
    for e in scenario.events:
        item = {"model": e.model, "variable": e.variable, "action": e.action}
        if e.action != "reset":
            item["value"] = e.value
        if e.time is not None:
            item["time"] = e.time
        else:
            item["when"] = {"model": e.when[0], "variable": e.when[1], e.when[2]: e.when[3]}
        events.append(item)
    data = {"description": scenario.description, "events": events}
    if scenario.end is not None:
        data["end"] = scenario.end
    path = Path(path)
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path
