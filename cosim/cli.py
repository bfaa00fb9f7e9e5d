"""The ``crane-cosim`` command.

    crane-cosim run SYSTEM [--stop-time T] [--step H] [--out DIR] [--monolithic]
                           [--coupling inertia|explicit] [--algorithm jacobi|gauss-seidel]
                           [--extrapolation midpoint|none] [--set component.variable=value ...]
                           [--replace component=model.fmu ...]
    crane-cosim check SYSTEM [--set ...] [--replace ...]
    crane-cosim build-fmus [--out DIR]
    crane-cosim demo [--out DIR]
    crane-cosim bench [--json] [--stop-time T] [--scenario NAME]

Bad input and failed runs end with one sentence on stderr and a non-zero
exit status (2: bad input, 1: the run failed, 130: interrupted); results
computed before a failure stay on disk.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import CraneCosimError, SimulationError
from .scenarios import SCENARIOS
from .system import ALGORITHMS, COUPLINGS, EXTRAPOLATIONS

DEFAULT_FMU_DIR = Path("fmus_build")
DEMO_SCENARIO = "offshore_knuckle_boom"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="crane-cosim", description=__doc__.split("\n")[0])
    p.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a system (.ssd file or folder holding one)")
    r.add_argument("system", help=".ssd file, or a folder holding one")
    r.add_argument("--stop-time", type=float, help="stop time [s] (default: the system's)")
    r.add_argument("--step", type=float, help="communication step [s] (default: the system's)")
    r.add_argument("--out", type=Path, help="results folder (default: results/<system name> next to the .ssd)")
    r.add_argument("--monolithic", action="store_true", help="run the blocks in-process as one ODE instead")
    r.add_argument("--coupling", choices=COUPLINGS, help="crane-vessel coupling (default: the system file's; inertia if it names none)")
    r.add_argument("--algorithm", choices=ALGORITHMS, help="master algorithm (default: the system file's, gauss-seidel in every example; "
                        "jacobi if the file names none)")
    r.add_argument("--extrapolation", choices=EXTRAPOLATIONS,
                   help="inputs held over a step: last sample or mid-step estimate (default: the system "
                        "file's; none if it names none)")
    r.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter (repeatable)")
    r.add_argument("--replace", action="append", default=[], metavar="COMPONENT=FMU",
                   help="swap a component for another FMU with the same ports (repeatable; every connection "
                        "and parameter is checked against it first)")
    r.add_argument("--no-plots", action="store_true", help="skip the PNG plots")

    c = sub.add_parser("check", help="check a system (files, connections, units, parameters) without running it")
    c.add_argument("system", help=".ssd file, or a folder holding one")
    c.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter (repeatable)")
    c.add_argument("--replace", action="append", default=[], metavar="COMPONENT=FMU",
                   help="swap a component for another FMU (repeatable)")
    c.add_argument("--coupling", choices=COUPLINGS, help="crane-vessel coupling to check (default: the system file's)")

    b = sub.add_parser("build-fmus", help="build the project's FMUs")
    b.add_argument("--out", type=Path, default=DEFAULT_FMU_DIR, help=f"output folder (default: {DEFAULT_FMU_DIR})")

    d = sub.add_parser("demo", help="build the FMUs and run the richest example")
    d.add_argument("--out", type=Path, default=Path("crane-cosim-demo"), help="output folder (default: crane-cosim-demo)")
    d.add_argument("--scenario", choices=sorted(SCENARIOS), default=DEMO_SCENARIO,
                   help=f"example to run (default: {DEMO_SCENARIO}, the hydraulic knuckle boom crane on the vessel)")
    d.add_argument("--stop-time", type=float, help="stop time [s] (default: the example's, 20 s)")

    be = sub.add_parser("bench", help="measure real-time factors and master overhead")
    be.add_argument("--json", action="store_true", help="print JSON records instead of a table")
    be.add_argument("--stop-time", type=float, default=5.0, help="simulated seconds per run (default: 5)")
    be.add_argument("--out", type=Path, default=None, help="working folder (default: a temporary one)")
    be.add_argument("--repeat", type=int, default=3, help="co-simulation runs, the fastest counts (default: 3)")
    be.add_argument("--scenario", action="append", choices=sorted(SCENARIOS),
                    help="benchmark this scenario only (repeatable; default: all)")
    return p


def _parse_set(items):
    out = []
    for item in items:
        target, eq, value = item.partition("=")
        if not eq:
            raise CraneCosimError(f"--set {item!r} is not of the form component.variable=value")
        if value.strip().lower() in ("true", "false"):
            out.append((target.strip(), value.strip().lower() == "true"))
            continue
        try:
            out.append((target.strip(), float(value)))
        except ValueError:
            raise CraneCosimError(f"--set {item!r}: {value!r} is not a number") from None
    return out


def _parse_replace(items):
    out = []
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not name.strip() or not path.strip():
            raise CraneCosimError(f"--replace {item!r} is not of the form component=path/to/model.fmu")
        out.append((name.strip(), Path(path.strip()).resolve()))
    return out


def _load_system(args, strict_replace: bool = True):
    """The system named on the command line with the options that change it
    (experiment, coupling, algorithm, --set, --replace).  ``strict_replace``:
    a swapped component that does not fit is an error at once (else
    ``check`` reports it with the rest)."""
    from .ssp import read_ssd

    system = read_ssd(args.system)
    for attr in ("stop_time", "step", "coupling", "algorithm", "extrapolation"):
        value = getattr(args, attr, None)
        if value is not None:
            setattr(system, attr, value)
    for target, value in _parse_set(args.set):
        system.set_parameter(target, value)
    for name, path in _parse_replace(args.replace):
        if strict_replace:
            system.replace(name, path)
        else:
            system.component(name).source = str(path)
    return system


def cmd_check(args) -> int:
    from .check import check_system
    system = _load_system(args, strict_replace=False)
    problems, notes = check_system(system)
    for note in notes:
        print(f"note: {note}")
    if problems:
        for p in problems:
            print(f"crane-cosim: error: {p}", file=sys.stderr)
        print(f"crane-cosim: {system.name} does not fit together ({len(problems)} problem"
              f"{'s' if len(problems) > 1 else ''})", file=sys.stderr)
        return 2
    print(f"{system.name}: {len(system.components)} components, {len(system.connections)} connections: "
          f"files, connections, units and parameters check out")
    return 0


def cmd_run(args) -> int:
    from .master import run_cosim
    from .monolithic import run_monolithic
    from .plots import plot_run
    from .ssp import find_ssd

    system = _load_system(args)
    ssd = find_ssd(args.system)
    out = args.out or ssd.parent / "results" / (system.name + ("_monolithic" if args.monolithic else ""))
    runner = run_monolithic if args.monolithic else run_cosim
    try:
        result = runner(system, out)
    finally:
        if not args.no_plots and (Path(out) / "results.csv").exists():
            try:
                plot_run(out)
            except Exception as exc:  # plots must never hide the run's own outcome
                print(f"crane-cosim: plots not written: {exc}", file=sys.stderr)
    print(f"{system.name}: simulated {result.end_time - system.start_time:g} s in {result.wall_time:.2f} s "
          f"(real-time factor {result.real_time_factor:.2f}); results in {out}")
    return 0


def cmd_build(args) -> int:
    from .fmus.build import build_all
    for path in build_all(args.out):
        print(path)
    return 0


def cmd_demo(args) -> int:
    from .master import run_cosim
    from .plots import plot_run
    from .ssp import write_ssd
    from .fmus.build import build_all

    out = Path(args.out)
    print(f"building FMUs in {out / 'fmus'} ...")
    build_all(out / "fmus", only_stale=True)
    system = SCENARIOS[args.scenario](base_dir=out)
    if args.stop_time is not None:
        system.stop_time = args.stop_time
    system.check_settings()
    ssd = write_ssd(system, out / f"{system.name}.ssd")
    print(f"running {ssd} ({system.stop_time:g} s, step {system.step:g} s, {system.coupling} coupling) ...")
    result = run_cosim(system, out / "results")
    plots = plot_run(out / "results")
    print(f"simulated {system.stop_time:g} s in {result.wall_time:.2f} s (real-time factor "
          f"{result.real_time_factor:.2f})")
    print(f"system file: {ssd}")
    print(f"results:     {out / 'results' / 'results.csv'}")
    print(f"summary:     {out / 'results' / 'summary.json'}")
    for p in plots:
        print(f"plot:        {p}")
    return 0


def cmd_bench(args) -> int:
    from .bench import main as bench_main
    return bench_main(args)


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    commands = {"run": cmd_run, "check": cmd_check, "build-fmus": cmd_build, "demo": cmd_demo, "bench": cmd_bench}
    try:
        return commands[args.command](args)
    except SimulationError as exc:
        print(f"crane-cosim: error: {exc}", file=sys.stderr)
        return 1
    except CraneCosimError as exc:
        print(f"crane-cosim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crane-cosim: interrupted; the results computed so far are on disk", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"crane-cosim: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
