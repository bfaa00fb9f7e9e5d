"""The ``crane-cosim`` command.

Its commands and their options are declared once, in ``parser.py`` (the
options the commands that run a system share in ``experiment_options.py``,
the studies' in ``study_options.py``):
``crane-cosim --help`` lists the commands, ``crane-cosim COMMAND --help``
a command's options (the README shows them at work).

Bad input and failed runs end with one sentence on stderr and a non-zero
exit status (2: bad input, 1: the run failed or is degraded, 130: interrupted by Ctrl-C,
143: terminated by SIGTERM); results computed before a failure or a stop
stay on disk.
"""
from __future__ import annotations

import signal
import sys
import threading
import warnings

from ..errors import CraneCosimError, SimulationError, Terminated
from .dcp import cmd_build_dcp_bridge, cmd_dcp_slave
from .parser import QUIET, VERBOSE, parser, split_pair
from .runs import cmd_check, cmd_demo, cmd_export, cmd_run
from .studies import cmd_bench, cmd_fatigue, cmd_operability, cmd_sweep
from .tools import (cmd_animate, cmd_build, cmd_build_bridge, cmd_draw, cmd_export_results, cmd_hydro, cmd_inspect,
                    cmd_peer_check, cmd_serve)

__all__ = ["main"]


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line, without the source line Python would show."""
    print(f"crane-cosim: warning: {message}", file=sys.stderr)


#: SIGTERMs the command's own handler took
_TERMINATED: list[int] = []


def _terminate(signum, frame):
    # noted as well as raised: raised inside a destructor (an FMU's slave
    # freed), Python prints the exception and drops it
    _TERMINATED.append(signum)
    raise Terminated()


def main(argv=None) -> int:
    # the help is plain text: the docstring's first line without its markup
    p = parser(__doc__.split("\n")[0].replace("``", ""))
    args, extra = p.parse_known_args(argv)
    if extra:
        wrong = split_pair(sys.argv[1:] if argv is None else argv, extra)
        if wrong is None:
            p.error(f"unrecognized arguments: {' '.join(extra)}")
        print(f"crane-cosim: error: {wrong}", file=sys.stderr)
        return 2
    commands = {"run": cmd_run, "check": cmd_check, "export": cmd_export, "build-fmus": cmd_build,
                "build-bridge": cmd_build_bridge, "serve": cmd_serve, "dcp-slave": cmd_dcp_slave,
                "build-dcp-bridge": cmd_build_dcp_bridge, "peer-check": cmd_peer_check, "demo": cmd_demo,
                "bench": cmd_bench, "fatigue": cmd_fatigue, "sweep": cmd_sweep, "operability": cmd_operability,
                "export-results": cmd_export_results, "inspect": cmd_inspect, "draw": cmd_draw,
                "hydro": cmd_hydro, "animate": cmd_animate}
    # SIGTERM (kill, a batch system's time limit) ends the command like
    # Ctrl-C: results so far and the summary on disk, one sentence, exit 143
    # (a run defers it to the end of a step, runtime/observers/progress.py)
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _terminate)
    _TERMINATED.clear()
    if args.log_level in VERBOSE:
        args.debug = True
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            if args.log_level in QUIET:
                warnings.simplefilter("ignore")
            code = commands[args.command](args)
        if _TERMINATED:
            raise Terminated()
        return code
    except SimulationError as exc:
        print(f"crane-cosim: error: {exc}", file=sys.stderr)
        return 1
    except CraneCosimError as exc:
        print(f"crane-cosim: error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        print("crane-cosim: terminated (SIGTERM); the results computed so far are on disk", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("crane-cosim: interrupted; the results computed so far are on disk", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"crane-cosim: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)",
              file=sys.stderr)
        return 3
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
