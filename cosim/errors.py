"""Errors the command line reports as one sentence, without a traceback."""


class CraneCosimError(Exception):
    """A problem with the user's input or a simulation failure, explained in
    one sentence that names the file, component or variable at fault."""


class SimulationError(CraneCosimError):
    """A run that stopped before its stop time; the results so far are on disk."""


class Terminated(KeyboardInterrupt):
    """A run stopped by SIGTERM (``kill``, a batch system's time limit).  A
    kind of ``KeyboardInterrupt``, so that whatever cleans up after Ctrl-C
    cleans up after it too."""
