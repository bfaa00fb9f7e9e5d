"""The FMUs' own messages shown as they come (``--fmi-logging``, as FMPy's
``--fmi-logging``): each line a component logs through FMI's logger
callback, on stderr, prefixed with the component's name.  Without it the
messages are kept for the sentence of a call that fails."""
from __future__ import annotations

import sys

from . import Observer

__all__ = ["FmiMessages"]


class FmiMessages(Observer):
    """Writes the messages the instances logged since the last look, every
    ``period`` steps and at the end, with ``say`` (default: a line on stderr)."""

    period = 200

    def __init__(self, say=None):
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.seen: dict[str, int] = {}

    def _look(self, execution) -> None:
        for inst in execution.instances:
            new = inst.messages[self.seen.get(inst.name, 0):]
            self.seen[inst.name] = len(inst.messages)
            for message in new:
                for line in message.splitlines() or [""]:
                    self.say(f"fmu {inst.name}: {line}")

    def instantiated(self, execution) -> None:
        self._look(execution)

    def step_complete(self, execution) -> None:
        self._look(execution)

    def finished(self, execution, error) -> None:
        self._look(execution)
