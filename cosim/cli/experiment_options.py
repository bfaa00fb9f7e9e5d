"""The options shared by the commands that run a system (``run``,
``check``, ``sweep``, ``operability``): the experiment and the master's
settings, the values set and the components swapped, the coupling error's
estimate."""
from __future__ import annotations

from ..runtime.algorithms import ALGORITHMS
from ..runtime.coupling import COUPLINGS
from ..runtime.plan import EXTRAPOLATIONS

__all__ = ["add_experiment", "add_values", "add_estimate"]


def add_experiment(p) -> None:
    """The experiment and the master's settings (each overrides the system file's)."""
    p.add_argument("--start-time", type=float, help="start time [s] (default: the system's; 0 in the examples)")
    p.add_argument("--stop-time", type=float, help="stop time [s] (default: the system's)")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="the wall-clock time a run may take from its set-up: then it stops, its results so far on "
                        "disk, and fails (in a sweep, each case)")
    p.add_argument("--fmi-logging", action="store_true",
                   help="show the FMUs' own messages (FMI's logger) on stderr as they come, each after its "
                        "component's name")
    p.add_argument("--step", type=float, help="communication step [s] (default: the system's)")
    p.add_argument("--coupling", choices=COUPLINGS,
                   help="crane-vessel coupling (default: the system file's; inertia if it names none)")
    p.add_argument("--algorithm", choices=tuple(ALGORITHMS),
                   help="master algorithm (default: the system file's: in the examples the one that, at their "
                        "step, keeps every force within 0.1%% of its peak (RMS) of the monolithic run: "
                        "iterated-midpoint, iterated-quadratic for the flexible crane; jacobi if the file names "
                        "none; gauss-seidel is the fastest, first order, about 1%% off at 1 ms; docs/master.md); "
                        "the file's iterations and extrapolation, settings of its own algorithm, do not carry "
                        "over to another")
    p.add_argument("--iterations", type=int, metavar="N",
                   help="with --algorithm iterated-midpoint or iterated-quadratic: re-step passes per step, "
                        "plain ones (default: the system file's, else quasi-Newton passes until the values "
                        "settle, at most 12; docs/master.md)")
    p.add_argument("--extrapolation", choices=EXTRAPOLATIONS,
                   help="inputs held over a step: last sample or mid-step estimate (default: the system "
                        "file's; none if it names none)")
    p.add_argument("--scenario", metavar="FILE",
                   help="a scenario file (OSP's JSON or YAML form): values overridden, biased or reset at given "
                        "times or when a variable crosses a value (docs/master.md)")
    p.add_argument("--input", metavar="FILE",
                   help="a CSV or Parquet table of time and component.variable columns that drives inputs no "
                        "connection drives (units from a second row or '[unit]' in a name; linear for continuous "
                        "Reals, held for the others; docs/master.md)")
    p.add_argument("--relative-tolerance", type=float, metavar="RTOL",
                   help="CVode's relative tolerance for the Model Exchange FMUs the master integrates between "
                        "communication points (default 1e-5, as fmpy; docs/master.md)")
    p.add_argument("--component-step", action="append", default=[], metavar="COMPONENT=H",
                   help="the component's own communication step [s], a multiple of the step: it steps every "
                        "H/step base steps, its inputs held between (repeatable; jacobi and gauss-seidel; "
                        "docs/master.md)")


def add_values(p) -> None:
    p.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a start value: a parameter, an input no connection drives, or another variable "
                        "FMI lets a host set before initialization; an Enumeration by its item's name or value "
                        "(repeatable)")
    p.add_argument("--replace", action="append", default=[], metavar="COMPONENT=FMU",
                   help="swap a component for another FMU with the same ports (repeatable; every connection "
                        "and value is checked against it first)")


def add_estimate(p) -> None:
    p.add_argument("--estimate", action="store_true",
                   help="estimate the coupling error without a monolithic run, from a second run at half the "
                        "step beside this one (about 3x the time): coupling_error.csv, summary.json, and its "
                        "largest printed (docs/coupling-error.md)")
    p.add_argument("--tolerance", type=float, metavar="TOL",
                   help="run at the system's step or the largest of its halves (down to 1/16) whose estimated "
                        "coupling error stays within TOL of each force's peak, e.g. 1e-3 (implies --estimate)")
    p.add_argument("--accuracy", type=float, metavar="FRACTION",
                   help="the accuracy asked of the coupling, a fraction of each force's peak: the iterated "
                        "algorithms step again until their values settle to a hundredth of it (default: the "
                        "tolerance, else 1e-3, the 0.1%% the examples keep at their defaults)")
