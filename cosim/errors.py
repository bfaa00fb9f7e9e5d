"""Errors the command line reports as one sentence, without a traceback."""

import difflib


class CraneCosimError(Exception):
    """A problem with the user's input or a simulation failure, explained in
    one sentence that names the file, component or variable at fault."""


class SimulationError(CraneCosimError):
    """A run that stopped before its stop time; the results so far are on disk."""


class Terminated(KeyboardInterrupt):
    """A run stopped by SIGTERM (``kill``, a batch system's time limit).  A
    kind of ``KeyboardInterrupt``, so that whatever cleans up after Ctrl-C
    cleans up after it too."""


def did_you_mean(name: str, known) -> str:
    """What a sentence about the mistyped ``name`` adds from the names
    ``known``: ``" (did you mean 'm'?)"`` with the nearest (difflib's
    likeness, and those within a tenth of it; a name that begins the other;
    case aside), or ``""``."""
    by_lower = {k.lower(): k for k in known}
    typed = name.lower()
    near = difflib.get_close_matches(typed, by_lower, n=3, cutoff=0.6)
    if near:  # the nearest and those almost as near, not every one past the cutoff
        best = difflib.SequenceMatcher(None, typed, near[0]).ratio()
        near = [k for k in near if difflib.SequenceMatcher(None, typed, k).ratio() >= best - 0.1]
    near += sorted(k for k in by_lower if k not in near and k != typed and (typed.startswith(k) or k.startswith(typed)))
    if not near:
        return ""
    return " (did you mean " + " or ".join(repr(by_lower[k]) for k in near[:3]) + "?)"
