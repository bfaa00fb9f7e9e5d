"""The ``crane-cosim`` command.

    crane-cosim run SYSTEM [--stop-time T] [--step H] [--out DIR] [--monolithic]
                           [--coupling inertia|explicit] [--algorithm jacobi|gauss-seidel]
                           [--extrapolation midpoint|none] [--set component.variable=value ...]
    crane-cosim export SYSTEM OUT.ssp [--force] [--set component.variable=value ...]
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

    r = sub.add_parser("run", help="run a system (.ssd file, folder holding one, or .ssp archive)")
    r.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    r.add_argument("--stop-time", type=float, help="stop time [s] (default: the system's)")
    r.add_argument("--step", type=float, help="communication step [s] (default: the system's)")
    r.add_argument("--out", type=Path, help="results folder (default: results/<system name> next to the .ssd or .ssp)")
    r.add_argument("--monolithic", action="store_true", help="run the blocks in-process as one ODE instead")
    r.add_argument("--coupling", choices=COUPLINGS, help="crane-vessel coupling (default: the system file's; inertia if it names none)")
    r.add_argument("--algorithm", choices=ALGORITHMS, help="master algorithm (default: the system file's, gauss-seidel in every example; "
                        "jacobi if the file names none)")
    r.add_argument("--extrapolation", choices=EXTRAPOLATIONS,
                   help="inputs held over a step: last sample or mid-step estimate (default: the system "
                        "file's; none if it names none)")
    r.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter (repeatable)")
    r.add_argument("--no-plots", action="store_true", help="skip the PNG plots")

    e = sub.add_parser("export", help="write a system as an SSP archive (.ssp) for other tools")
    e.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    e.add_argument("out", type=Path, help="the .ssp file to write")
    e.add_argument("--force", action="store_true", help="replace OUT if it exists")
    e.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter in the archive (repeatable)")

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


def cmd_run(args) -> int:
    from .ssp import open_system

    # an .ssp archive is extracted into a temporary folder that lives for the run
    with open_system(args.system) as opened:
        return _run(args, opened.system, opened.folder)


def _run(args, system, folder: Path) -> int:
    from .master import run_cosim
    from .monolithic import run_monolithic
    from .plots import plot_run

    if args.stop_time is not None:
        system.stop_time = args.stop_time
    if args.step is not None:
        system.step = args.step
    if args.coupling:
        system.coupling = args.coupling
    if args.algorithm:
        system.algorithm = args.algorithm
    if args.extrapolation:
        system.extrapolation = args.extrapolation
    for target, value in _parse_set(args.set):
        system.set_parameter(target, value)
    out = args.out or folder / "results" / (system.name + ("_monolithic" if args.monolithic else ""))
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


def cmd_export(args) -> int:
    from .ssp import open_system, write_ssp

    out = Path(args.out)
    if out.is_dir():
        raise CraneCosimError(f"{out} is a folder; name the .ssp file to write")
    if out.exists() and not args.force:
        raise CraneCosimError(f"{out} already exists; pass --force to replace it")
    with open_system(args.system) as opened:
        for target, value in _parse_set(args.set):
            opened.system.set_parameter(target, value)
        write_ssp(opened.system, out)
    print(f"{opened.system.name}: wrote {out}")
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
    commands = {"run": cmd_run, "export": cmd_export, "build-fmus": cmd_build, "demo": cmd_demo, "bench": cmd_bench}
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
