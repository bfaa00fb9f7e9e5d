"""The ``crane-cosim`` command.

    crane-cosim run SYSTEM [--stop-time T] [--step H] [--out DIR] [--monolithic]
                           [--coupling inertia|explicit] [--algorithm jacobi|gauss-seidel|iterated-midpoint|
                                                                      iterated-quadratic]
                           [--extrapolation midpoint|none] [--iterations N] [--set component.variable=value ...]
                           [--replace component=model.fmu ...]
                           [--record component.variable ...] [--record-every N] [--force]
                           [--real-time [FACTOR]] [--spin SECONDS] [--rt-priority N]
                           [--estimate] [--tolerance TOL]
    crane-cosim check SYSTEM [--set ...] [--replace ...]
    crane-cosim export SYSTEM OUT.ssp [--force] [--set component.variable=value ...]
    crane-cosim build-fmus [--out DIR] [--no-compile]
    crane-cosim build-bridge BLOCK [--out DIR]
    crane-cosim build-bridge --name MODEL --inputs NAME[:UNIT],... --outputs NAME[:UNIT],... [--out DIR]
    crane-cosim serve BLOCK --port P [--host ADDRESS] [--set NAME=VALUE ...] [--drop FRACTION [--seed N]]
                            [--stats FILE]
    crane-cosim demo [--out DIR] [--scenario NAME] [--stop-time T]
    crane-cosim bench [--json] [--stop-time T] [--repeat N] [--scenario NAME] [--sweep CASES]
    crane-cosim sweep SYSTEM [CASES.csv] [--vary component.variable=v1,v2,... ...] [--out DIR] [--workers N]
                             [--scheduler ADDRESS] [--stop-time T] [--step H] [--algorithm A]
                             [--record component.variable ...] [--record-every N]
    crane-cosim fatigue RESULTS [--signal PATTERN ...] [--combine NAME=EXPR ...] [--bolt N,D[,ANGLE]]
                                [--skip S] [--n-ref N] [--life YEARS] [--slopes M,...] [--out DIR] [--no-plots]

Bad input and failed runs end with one sentence on stderr and a non-zero
exit status (2: bad input, 1: the run failed, 130: interrupted by Ctrl-C,
143: terminated by SIGTERM); results computed before a failure or a stop
stay on disk.
"""
from __future__ import annotations

import argparse
import re
import sys
import warnings
from pathlib import Path

from ..errors import CraneCosimError, SimulationError, Terminated
from ..runtime.pacing import describe
from ..scenarios import SCENARIOS
from ..runtime.system import ALGORITHMS, COUPLINGS, EXTRAPOLATIONS, ITERATED

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
    r.add_argument("--algorithm", choices=ALGORITHMS, help="master algorithm (default: the system file's: gauss-seidel in the examples, "
                        "iterated-midpoint for the flexible crane; jacobi if the file names none; "
                        "iterated-quadratic is the most accurate, docs/master.md)")
    r.add_argument("--iterations", type=int, metavar="N",
                   help="with --algorithm iterated-midpoint or iterated-quadratic: re-step passes per step "
                        "(default: the system file's, else until the values settle, at most 12; docs/master.md)")
    r.add_argument("--extrapolation", choices=EXTRAPOLATIONS,
                   help="inputs held over a step: last sample or mid-step estimate (default: the system "
                        "file's; none if it names none)")
    r.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter (repeatable)")
    r.add_argument("--replace", action="append", default=[], metavar="COMPONENT=FMU",
                   help="swap a component for another FMU with the same ports (repeatable; every connection "
                        "and parameter is checked against it first)")
    r.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    r.add_argument("--record", action="append", metavar="COMPONENT.VARIABLE",
                   help="write only the outputs matching this pattern, shell wildcards allowed, e.g. "
                        "'crane.W_mount_*' (repeatable; default: all outputs)")
    r.add_argument("--record-every", type=int, metavar="N",
                   help="write every N-th communication point (and the last; default: every one)")
    r.add_argument("--force", action="store_true",
                   help="run even if results.csv would exceed 200 MB")
    r.add_argument("--real-time", type=float, nargs="?", const=1.0, metavar="FACTOR",
                   help="pace the run to the wall clock, each communication point at its deadline, FACTOR times "
                        "real time (default 1); late steps are counted, never skipped (summary.json, timing.csv)")
    r.add_argument("--spin", type=float, metavar="SECONDS",
                   help="with --real-time: sleep until this long before each deadline and spin on the clock for "
                        "the rest (default 0.0002; 0: sleep only)")
    r.add_argument("--rt-priority", type=int, metavar="N",
                   help="with --real-time: ask for the real-time scheduling class SCHED_FIFO at priority N (1-99; "
                        "needs root or CAP_SYS_NICE, else the run says it did not get it)")
    r.add_argument("--estimate", action="store_true",
                   help="estimate the coupling error without a monolithic run, from a second run at half the "
                        "step beside this one (about 3x the time): coupling_error.csv, summary.json, and its "
                        "largest printed (docs/coupling-error.md)")
    r.add_argument("--tolerance", type=float, metavar="TOL",
                   help="run at the system's step or the largest of its halves (down to 1/16) whose estimated "
                        "coupling error stays within TOL of each force's peak, e.g. 1e-3 (implies --estimate)")

    c = sub.add_parser("check", help="check a system (files, connections, units, parameters) without running it")
    c.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    c.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter (repeatable)")
    c.add_argument("--replace", action="append", default=[], metavar="COMPONENT=FMU",
                   help="swap a component for another FMU (repeatable)")
    c.add_argument("--coupling", choices=COUPLINGS, help="crane-vessel coupling to check (default: the system file's)")

    e = sub.add_parser("export", help="write a system as an SSP archive (.ssp) for other tools")
    e.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    e.add_argument("out", type=Path, help="the .ssp file to write")
    e.add_argument("--force", action="store_true", help="replace OUT if it exists")
    e.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a parameter in the archive (repeatable)")

    b = sub.add_parser("build-fmus", help="build the project's FMUs")
    b.add_argument("--out", type=Path, default=DEFAULT_FMU_DIR, help=f"output folder (default: {DEFAULT_FMU_DIR})")
    b.add_argument("--no-compile", action="store_true",
                   help="do not compile the knuckle boom crane's numba kernels now (else done once per machine)")

    bb = sub.add_parser("build-bridge", help="build a UDP bridge FMU that stands in for a block run by another "
                                             "process (hardware in the loop)")
    bb.add_argument("block", nargs="?", help="the project's block whose ports the bridge has, e.g. Controller "
                                             "(the FMU is <BLOCK>Bridge.fmu)")
    bb.add_argument("--name", help="instead of a block: the model name of a bridge with the ports of --inputs and "
                                   "--outputs")
    bb.add_argument("--inputs", default="", metavar="NAME[:UNIT],...",
                    help="with --name: the bridge's inputs, sent to the peer in this order (unit default 1)")
    bb.add_argument("--outputs", default="", metavar="NAME[:UNIT],...",
                    help="with --name: the bridge's outputs, answered by the peer in this order (unit default 1)")
    bb.add_argument("--out", type=Path, default=DEFAULT_FMU_DIR, help=f"output folder (default: {DEFAULT_FMU_DIR})")

    sv = sub.add_parser("serve", help="run one of the project's blocks as the peer of a UDP bridge")
    sv.add_argument("block", help="the project's block to serve, e.g. Controller")
    sv.add_argument("--port", type=int, required=True,
                    help="UDP port to listen on (0: one the system chooses; the line printed when ready shows it)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every interface)")
    sv.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set a parameter of the block (repeatable)")
    sv.add_argument("--drop", type=float, default=0.0, metavar="FRACTION",
                    help="drop this fraction of the answers, at random, to test how a rig copes with lost "
                         "packets (default 0)")
    sv.add_argument("--seed", type=int, help="seed of --drop's random choices (default: new ones every time)")
    sv.add_argument("--stats", type=Path, metavar="FILE",
                    help="write what was served (requests, answers, the answers dropped, resets, malformed "
                         "packets) to FILE as JSON when stopped")

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
    be.add_argument("--sweep", type=int, metavar="CASES",
                    help="instead: cases per hour of a sweep of CASES cases of --stop-time s, one worker against "
                         "two, and the overhead per case")
    w = sub.add_parser("sweep", help="run a system for many cases (parameter values) on a Dask cluster")
    w.add_argument("system", type=Path, help="the system (.ssd file, folder holding one, or .ssp archive)")
    w.add_argument("cases", type=Path, nargs="?", help="CSV of the cases: a column 'case' (optional) and one "
                                                       "column per component.variable")
    w.add_argument("--vary", action="append", default=[], metavar="COMPONENT.VARIABLE=V1,V2,...",
                   help="instead of a table: the product of these ranges (repeatable)")
    w.add_argument("--out", type=Path, help="sweep folder (default: results/sweep next to the system)")
    w.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    w.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask cluster's scheduler, "
                                                          "e.g. tcp://host:8786, instead of a local one")
    w.add_argument("--stop-time", type=float, help="stop time [s] of every case (default: the system's)")
    w.add_argument("--step", type=float, help="communication step [s] (default: the system's)")
    w.add_argument("--algorithm", choices=ALGORITHMS, help="master algorithm (default: the system file's)")
    w.add_argument("--record", action="append", metavar="PATTERN", help="record only these columns (repeatable)")
    w.add_argument("--record-every", type=int, metavar="N", help="record every Nth communication point")

    f = sub.add_parser("fatigue", help="rainflow counting and damage-equivalent loads of recorded runs")
    f.add_argument("results", type=Path, help="a run folder, or a scatter table (CSV: case = run folder, "
                                              "probability, and labels such as Hs, Tp)")
    f.add_argument("--signal", action="append", metavar="PATTERN",
                   help="recorded columns to count (shell wildcards, repeatable; default: crane.W_mount_*)")
    f.add_argument("--combine", action="append", default=[], metavar="NAME=EXPR",
                   help="a linear combination of columns to count, e.g. "
                        "bolt=0.025*crane.W_mount_fz-0.4*crane.W_mount_nx (repeatable)")
    f.add_argument("--bolt", action="append", default=[], metavar="N,D[,ANGLE]",
                   help="the axial force of the bolt at ANGLE deg (default 0) of a slewing ring of N bolts on a "
                        "circle of D m (repeatable; docs/fatigue.md)")
    f.add_argument("--skip", type=float, default=0.0, help="seconds left out at the start of each run (default: 0)")
    f.add_argument("--n-ref", type=float, default=1e7, help="reference number of cycles of the DELs (default: 1e7)")
    f.add_argument("--life", type=float, default=20.0, help="lifetime [years] the runs stand for (default: 20)")
    f.add_argument("--slopes", default="3,4,5", help="S-N curve slopes (default: 3,4,5)")
    f.add_argument("--out", type=Path, help="output folder (default: RESULTS/fatigue, or fatigue next to the table)")
    f.add_argument("--no-plots", action="store_true", help="write the tables only")
    return p


def _parse_set(items, kind_of):
    """``(component.variable, value)`` of each ``--set`` item, the value read
    as its variable's FMI type says (``kind_of(target)``: the type, or None
    when the component, variable or FMU is unknown):

    * String: the text as typed;
    * true or false (any case): a Boolean;
    * otherwise a number; a Real or Integer variable refuses anything else
      here, while a text for an unknown variable or a Boolean is passed on,
      for the system's checks to name what is wrong with it."""
    out = []
    for item in items:
        target, eq, value = item.partition("=")
        target = target.strip()
        if not eq:
            raise CraneCosimError(f"--set {item!r} is not of the form component.variable=value")
        kind = kind_of(target)
        if kind == "String":
            out.append((target, value))
        elif value.strip().lower() in ("true", "false"):
            out.append((target, value.strip().lower() == "true"))
        else:
            try:
                out.append((target, float(value)))
            except ValueError:
                if kind in ("Real", "Integer"):
                    raise CraneCosimError(f"--set {item!r}: {value!r} is not a number") from None
                out.append((target, value))
    return out


def _variable_kinds(system, replaced: dict):
    """``target -> FMI type`` of ``component.variable`` in ``system``, from
    the FMU the component will have (its ``--replace`` one, if any); None
    when the component, the variable or its FMU is unknown (the checks of
    the command name that)."""
    from ..runtime.fmu import describe_variables

    described = {}

    def kind_of(target: str):
        comp, _, name = target.partition(".")
        if comp not in described:
            try:
                described[comp] = describe_variables(replaced.get(comp) or system.source_path(system.component(comp)))
            except CraneCosimError:
                described[comp] = {}
        v = described[comp].get(name)
        return v.type if v is not None else None
    return kind_of


def _parse_replace(items):
    out = []
    for item in items:
        name, eq, path = item.partition("=")
        if not eq or not name.strip() or not path.strip():
            raise CraneCosimError(f"--replace {item!r} is not of the form component=path/to/model.fmu")
        out.append((name.strip(), Path(path.strip()).resolve()))
    return out


def _apply_options(args, system, strict_replace: bool = True):
    """``system`` changed by the command-line options that change it
    (experiment, coupling, algorithm, --set, --replace).  ``strict_replace``:
    a swapped component that does not fit is an error at once (else
    ``check`` reports it with the rest)."""
    for attr in ("stop_time", "step", "coupling", "algorithm", "extrapolation", "iterations"):
        value = getattr(args, attr, None)
        if value is not None:
            setattr(system, attr, value)
    if getattr(args, "iterations", None) is not None and system.algorithm not in ITERATED:
        raise CraneCosimError(f"--iterations {args.iterations} sets the re-step passes of the "
                              f"iterated-midpoint and iterated-quadratic algorithms; the {system.algorithm} "
                              f"algorithm steps each component once (add --algorithm iterated-midpoint, or "
                              f"leave --iterations out)")
    replacements = _parse_replace(getattr(args, "replace", []))
    for target, value in _parse_set(args.set, _variable_kinds(system, dict(replacements))):
        system.set_parameter(target, value)
    for name, path in replacements:
        if strict_replace:
            system.replace(name, path)
        else:
            system.component(name).source = str(path)
    return system


def cmd_check(args) -> int:
    from ..runtime.check import check_system
    from ..files.ssp import open_system

    with open_system(args.system) as opened:
        system = _apply_options(args, opened.system, strict_replace=False)
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
    from ..runtime.runlog import check_folder
    from ..files.ssp import open_system

    if args.out is not None:
        check_folder(args.out, "--out")
    # an .ssp archive is extracted into a temporary folder that lives for the run
    with open_system(args.system) as opened:
        return _run(args, opened.system, opened.folder)


def _run(args, system, folder: Path) -> int:
    from ..runtime.master import run_cosim
    from ..hosts.monolithic import run_monolithic
    from ..reports.plots import plot_run
    from ..runtime.recording import SIZE_LIMIT

    _apply_options(args, system)
    if args.record is not None:
        system.record = args.record
    if args.record_every is not None:
        system.record_every = args.record_every
    out = args.out or folder / "results" / (system.name + ("_monolithic" if args.monolithic else ""))
    options = _pacing_options(args)
    if args.estimate or args.tolerance is not None:
        if args.monolithic:
            raise CraneCosimError("--estimate and --tolerance concern the coupling of a co-simulation; a "
                                  "monolithic run has none (leave out --monolithic)")
        options.update(estimate=True, tolerance=args.tolerance)
    runner = run_monolithic if args.monolithic else run_cosim
    try:
        result = runner(system, out, size_limit=None if args.force else SIZE_LIMIT, **options)
    finally:
        if not args.no_plots and (Path(out) / "results.csv").exists():
            try:
                plot_run(out)
            except Exception as exc:  # plots must never hide the run's own outcome
                print(f"crane-cosim: plots not written: {exc}", file=sys.stderr)
    print(f"{system.name}: simulated {result.end_time - system.start_time:g} s in {result.wall_time:.2f} s "
          f"(real-time factor {result.real_time_factor:.2f}); results in {out}")
    if result.real_time is not None:
        print(describe(result.real_time))
    if result.coupling_error is not None:
        print(describe_estimate(result.coupling_error))
        if result.coupling_error.get("met") is False:
            print(f"crane-cosim: error: the estimated coupling error {result.coupling_error['largest']:.2g} of "
                  f"peak ({result.coupling_error['largest_output']}) is over --tolerance {args.tolerance:g} even "
                  f"at the smallest step tried, {result.coupling_error['step']:g} s; the results at that step "
                  f"are in {out}", file=sys.stderr)
            return 1
    return 0


def describe_estimate(found: dict) -> str:
    """One line of the coupling error estimate of a run (``summary.json``'s
    ``coupling_error``)."""
    if "largest_output" not in found:
        return "coupling error estimate: no output to estimate"
    text = (f"coupling error estimate: at most {found['largest']:.2g} of peak ({found['largest_output']} at "
            f"t = {found['largest_at_time']:g} s), RMS {found['rms']:.2g} of peak ({found['rms_output']})")
    if "tolerance" in found:
        tried = ", ".join(f"{t['step']:g} s ({t['largest']:.2g})" for t in found["steps_tried"])
        text += f"; step {found['step']:g} s for the tolerance {found['tolerance']:g}"
        if tried:
            text += f" after {tried}"
    return text


def _pacing_options(args) -> dict:
    """``run_cosim``'s pacing arguments from ``--real-time``, ``--spin`` and
    ``--rt-priority``, each checked; empty without ``--real-time``."""
    from ..runtime.pacing import SPIN, check_factor

    if args.real_time is None:
        for name in ("spin", "rt_priority"):
            if getattr(args, name) is not None:
                raise CraneCosimError(f"--{name.replace('_', '-')} paces a run and needs --real-time")
        return {}
    if args.monolithic:
        raise CraneCosimError("--real-time paces the communication points of a co-simulation; a monolithic run "
                              "has none (leave out --monolithic)")
    check_factor(args.real_time)
    spin = SPIN if args.spin is None else args.spin
    if not (spin >= 0 and spin < 1):
        raise CraneCosimError(f"--spin {args.spin!r} must be zero or a positive time below 1 s")
    if args.rt_priority is not None and not 1 <= args.rt_priority <= 99:
        raise CraneCosimError(f"--rt-priority {args.rt_priority} must be between 1 and 99")
    return {"real_time": args.real_time, "spin": spin, "rt_priority": args.rt_priority}


def cmd_export(args) -> int:
    from ..files.ssp import open_system, write_ssp

    out = Path(args.out)
    if out.is_dir():
        raise CraneCosimError(f"{out} is a folder; name the .ssp file to write")
    if out.exists() and not args.force:
        raise CraneCosimError(f"{out} already exists; pass --force to replace it")
    with open_system(args.system) as opened:
        write_ssp(_apply_options(args, opened.system), out)
    print(f"{opened.system.name}: wrote {out}")
    return 0


def cmd_build(args) -> int:
    from ..fmus.build import build_all
    from ..runtime.runlog import check_folder
    from ..fmus.warmup import warm_up

    check_folder(args.out, "--out")
    paths = build_all(args.out)
    for path in paths:
        print(path)
    if not args.no_compile:  # else the first run of the crane compiles
        warm_up({Path(p).stem for p in paths})
    return 0


def _bridge_ports(text: str, option: str) -> tuple:
    """The ports ``name[:unit],...`` of ``--inputs`` or ``--outputs``."""
    from ..blocks.block import Variable
    from ..blocks.units import UNITS

    what = "input" if option == "--inputs" else "output"
    ports = []
    for item in filter(None, (i.strip() for i in text.split(","))):
        name, _, unit = (part.strip() for part in item.partition(":"))
        unit = unit or "1"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise CraneCosimError(f"{option}: {name!r} is not a port name: use letters, digits and underscores, "
                                  f"not starting with a digit")
        if unit not in UNITS:
            raise CraneCosimError(f"{option}: port {name} has the unit {unit!r}, which is not known; known units: "
                                  f"{', '.join(sorted(UNITS))}")
        ports.append(Variable(name, unit, 0.0, f"{what.capitalize()} {name} of the peer"))
    return tuple(ports)


def cmd_build_bridge(args) -> int:
    from ..blocks import BLOCKS
    from ..blocks.udp_bridge import bridge_block, bridge_of
    from ..fmus.build import build_bridge_fmu
    from ..runtime.runlog import check_folder

    if (args.block is None) == (args.name is None):
        raise CraneCosimError(f"build-bridge needs either a block ({', '.join(BLOCKS)}) or --name with --inputs "
                              f"and --outputs, {'not both' if args.block else 'and got neither'}")
    try:
        if args.block is not None:
            if args.inputs or args.outputs:
                raise CraneCosimError(f"--inputs and --outputs go with --name; the bridge of {args.block} has "
                                      f"{args.block}'s ports")
            if args.block not in BLOCKS:
                raise CraneCosimError(f"no block named {args.block!r}; known: {', '.join(BLOCKS)}")
            bridge = bridge_of(BLOCKS[args.block])
        else:
            inputs, outputs = _bridge_ports(args.inputs, "--inputs"), _bridge_ports(args.outputs, "--outputs")
            if not outputs:
                raise CraneCosimError(f"--outputs names no port; the bridge {args.name} needs at least one "
                                      f"output, answered by the peer")
            bridge = bridge_block(args.name, inputs, outputs)
        check_folder(args.out, "--out")
        print(build_bridge_fmu(bridge, args.out))
    except ValueError as exc:
        raise CraneCosimError(str(exc)) from None
    return 0


def _block_parameters(block_cls, items) -> dict:
    """The parameters ``name=value`` of ``serve --set``, each read as its
    type says (a String as typed, a Boolean true or false, a Real a
    number); an unknown name is left to the block to name."""
    kinds = {p.name: p.type for p in block_cls.parameters}
    params = {}
    for item in items:
        name, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not name:
            raise CraneCosimError(f"--set {item!r} is not of the form name=value")
        kind = kinds.get(name)
        if kind == "String":
            params[name] = value
        elif kind == "Boolean":
            if value.lower() not in ("true", "false"):
                raise CraneCosimError(f"--set {item!r}: {block_cls.model_name} parameter {name} is true or false, "
                                      f"not {value!r}")
            params[name] = value.lower() == "true"
        else:
            try:
                params[name] = float(value)
            except ValueError:
                if kind is not None:
                    raise CraneCosimError(f"--set {item!r}: {value!r} is not a number") from None
                params[name] = value
    return params


def cmd_serve(args) -> int:
    import signal
    import threading

    from ..blocks import BLOCKS
    from ..blocks.block import ParameterError
    from ..runtime.runlog import check_folder
    from ..hosts.serve import Server, random_drop
    from ..fmus.warmup import warm_up

    if args.block not in BLOCKS:
        raise CraneCosimError(f"no block named {args.block!r} to serve; known: {', '.join(BLOCKS)}")
    if not 0 <= args.port <= 65535:
        raise CraneCosimError(f"--port {args.port} must be from 0 (any free port) to 65535")
    if not 0 <= args.drop <= 1:
        raise CraneCosimError(f"--drop {args.drop:g} must be a fraction from 0 to 1")
    if args.stats is not None:
        if args.stats.is_dir():
            raise CraneCosimError(f"--stats {args.stats} is a folder; name the file to write")
        check_folder(args.stats.parent, "--stats' folder")
    block_cls = BLOCKS[args.block]
    try:
        block = block_cls(**_block_parameters(block_cls, args.set))
    except ParameterError as exc:
        raise CraneCosimError(str(exc)) from None
    warm_up({args.block})
    block.prepare()
    failed = []

    def on_failure(message):
        if not failed:  # the first says what; the summary counts the rest
            print(f"crane-cosim: warning: {message}; answered with NaN", file=sys.stderr, flush=True)
        failed.append(message)
    try:
        server = Server(block, args.host, args.port, drop=random_drop(args.drop, args.seed), on_failure=on_failure)
    except OSError as exc:
        raise CraneCosimError(f"cannot serve {args.block} on udp://{args.host}:{args.port}: "
                              f"{exc.strerror or exc}") from None
    # Ctrl-C and SIGTERM end the service between two requests, so that the
    # statistics are complete
    stop = threading.Event()
    old = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, lambda signum, frame: stop.set())
    try:
        print(f"serving {block.model_name} on {server.address}", flush=True)
        stats = server.run(stop.is_set)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        server.close()
    if args.stats is not None:
        try:
            stats.write(args.stats)
        except OSError as exc:
            raise CraneCosimError(f"--stats {args.stats} cannot be written: {exc.strerror or exc}") from None
    print(f"crane-cosim: {stats.summary()}", file=sys.stderr)
    return 0


def cmd_demo(args) -> int:
    from ..runtime.master import run_cosim
    from ..reports.plots import plot_run
    from ..runtime.runlog import check_folder
    from ..files.ssp import write_ssd
    from ..fmus.build import build_all
    from ..fmus.warmup import models_of, warm_up

    out = Path(args.out)
    # everything the user typed is checked before the minutes of building
    # and compiling
    system = SCENARIOS[args.scenario](base_dir=out)
    if args.stop_time is not None:
        system.stop_time = args.stop_time
        if system.start_time < args.stop_time < system.start_time + system.step:  # the demo has no --step
            raise CraneCosimError(f"--stop-time {args.stop_time:g} s is shorter than the example's step of "
                                  f"{system.step:g} s")
    system.check_settings()
    for folder in (out, out / "fmus", out / "results"):
        check_folder(folder, "--out" if folder == out else "the demo's folder")
    print(f"building FMUs in {out / 'fmus'} ...", flush=True)
    build_all(out / "fmus", only_stale=True)
    warm_up(models_of(system))
    ssd = write_ssd(system, out / f"{system.name}.ssd")
    print(f"running {ssd} ({system.stop_time:g} s, step {system.step:g} s, {system.coupling} coupling) ...",
          flush=True)
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


def _numbers(text: str, what: str, count=None) -> list[float]:
    """The numbers of a comma-separated option value (``count``: how many
    are allowed)."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or (count and len(values) not in count):
        need = f"{' or '.join(map(str, count))} numbers" if count else "numbers"
        raise CraneCosimError(f"{what} {text!r} is not {need} separated by commas")
    return values


def cmd_sweep(args) -> int:
    from ..studies.sweep import cases_of_ranges, cases_of_table, sweep
    if (args.cases is None) == (not args.vary):
        raise CraneCosimError("give the cases as a table (CASES.csv) or as --vary ranges, one of the two")
    if args.workers is not None and args.workers < 1:
        raise CraneCosimError(f"--workers {args.workers} must be at least 1")
    cases = cases_of_table(args.cases) if args.cases is not None else cases_of_ranges(args.vary)
    options = []
    for flag, value in (("--stop-time", args.stop_time), ("--step", args.step), ("--algorithm", args.algorithm),
                        ("--record-every", args.record_every)):
        if value is not None:
            options += [flag, str(value)]
    for pattern in args.record or ():
        options += ["--record", pattern]
    system = args.system.resolve()
    out = args.out or (system if system.is_dir() else system.parent) / "results" / "sweep"
    summary = sweep(system, cases, out, options, args.scheduler, args.workers)
    failed = summary[summary["status"] != "completed"]
    print(f"{len(summary) - len(failed)} of {len(summary)} cases completed; summary in {out / 'summary.csv'}")
    for _, row in failed.iterrows():
        print(f"crane-cosim: case {row['case']} failed: {row['reason']}", file=sys.stderr)
    return 1 if len(failed) else 0


def cmd_fatigue(args) -> int:
    import math
    from ..studies.fatigue import DEFAULT_SIGNALS, YEAR, parse_combination, slewing_ring_bolt, study
    combinations = [parse_combination(c) for c in args.combine]
    for text in args.bolt:
        n, d, *angle = _numbers(text, "--bolt", (2, 3))
        if n < 1 or n != int(n) or d <= 0:
            raise CraneCosimError(f"--bolt {text!r} needs a whole number of bolts of at least 1 and a diameter "
                                  f"above 0 m")
        combinations.append(slewing_ring_bolt(int(n), d, math.radians(angle[0] if angle else 0.0)))
    slopes = _numbers(args.slopes, "--slopes")
    if any(m <= 0 for m in slopes) or args.n_ref <= 0 or args.life <= 0 or args.skip < 0:
        raise CraneCosimError("the slopes, --n-ref and --life must be above 0, and --skip at least 0")
    out = args.out or (args.results / "fatigue" if args.results.is_dir() else args.results.parent / "fatigue")
    cases, lifetime = study(args.results, out, tuple(args.signal or DEFAULT_SIGNALS), combinations, args.skip,
                            args.n_ref, args.life * YEAR, slopes, plots=not args.no_plots)
    print(lifetime.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    print(f"lifetime DELs ({args.life:g} years, {args.n_ref:g} cycles) of {cases['case'].nunique()} case(s): "
          f"{out / 'fatigue_lifetime.csv'}")
    return 0


def cmd_bench(args) -> int:
    from ..studies.bench import main as bench_main
    if args.sweep is not None:
        from ..studies.bench import bench_sweep
        if args.sweep < 2:
            raise CraneCosimError(f"--sweep {args.sweep}: give at least 2 cases")
        r = bench_sweep(args.sweep, args.stop_time, args.out)
        print(f"sweep of {r['cases']} cases of {r['stop_time']:g} s: {r['cases_per_hour_1']:.0f} cases/h with one "
              f"worker, {r['cases_per_hour_2']:.0f} with two ({r['speedup']:.2f} times); overhead per case "
              f"{r['overhead_s_per_case_1']:.2f} s (one worker), {r['overhead_s_per_case_2']:.2f} s (two)")
        return 0
    return bench_main(args)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A warning as one line, without the source line Python would show."""
    print(f"crane-cosim: warning: {message}", file=sys.stderr)


def _terminate(signum, frame):
    raise Terminated()


def main(argv=None) -> int:
    import signal
    import threading

    args = _parser().parse_args(argv)
    commands = {"run": cmd_run, "check": cmd_check, "export": cmd_export, "build-fmus": cmd_build,
                "build-bridge": cmd_build_bridge, "serve": cmd_serve, "demo": cmd_demo, "bench": cmd_bench,
                "fatigue": cmd_fatigue, "sweep": cmd_sweep}
    # SIGTERM (kill, a batch system's time limit) ends the command like
    # Ctrl-C: results so far and the summary on disk, one sentence, exit 143
    # (a run defers it to the end of a step, cosim/master.py)
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _terminate)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return commands[args.command](args)
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


