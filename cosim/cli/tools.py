"""``crane-cosim build-fmus``, ``build-bridge``, ``serve``, ``export-results`` and ``hydro``."""
from __future__ import annotations

import logging
import math
import re
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from ..blocks.block import ParameterError, Variable
from ..blocks.hull_database import read_database, write_database
from ..blocks.radiation_fit import fit_radiation
from ..blocks.registry import BLOCKS
from ..blocks.units import UNITS
from ..blocks.warm_up import warm_up
from ..bridge.packet import read_key
from ..bridge.peer_check import check_peer
from ..bridge.serve import Server, random_drop
from ..bridge.udp_bridge import SIGNAL_TYPES, bridge_block, bridge_of
from ..errors import CraneCosimError
from ..example_sets import example_parameter_sets
from ..files.results import cut_short
from ..files.results_export import export_results
from ..fmus.build import build_all, build_bridge_fmu
from ..fmus.portable import build_portable_fmu
from ..hydro.compute import compute_database, read_hull
from ..reports.listing import component_lines, model_lines, model_of, system_lines
from ..reports.system_drawing import draw_system
from ..runtime.runlog import check_folder, make_folder
from ..ssp.read import open_system
from ..views import animate

__all__ = ["cmd_build", "cmd_build_bridge", "cmd_peer_check", "cmd_serve", "cmd_export_results", "cmd_hydro",
           "stopped_by_signals", "check_stats_file", "block_parameters", "reported"]


def cmd_build(args) -> int:
    # numba loads only where a compiled step runs
    from ..runtime.compiled.master_warm_up import warm_up_master

    unknown = [m for m in args.model if m not in BLOCKS]
    if unknown:
        raise CraneCosimError(f"--model {unknown[0]}: no such block; known: {', '.join(BLOCKS)}")
    make_folder(args.out, "--out")
    if args.no_windows and not args.portable:
        raise CraneCosimError("--no-windows goes with --portable (the lean FMUs carry pythonfmu's Windows binary)")
    if args.portable:
        sets = example_parameter_sets()
        for model in args.model or BLOCKS:
            print(build_portable_fmu(model, args.out, sys.stderr, sets=sets.get(model, ()),
                                     windows=False if args.no_windows else None), flush=True)
        return 0
    paths = build_all(args.out, args.model or None)
    for path in paths:
        print(path)
    if not args.no_compile:  # else the first run of the crane compiles
        warm_up({Path(p).stem for p in paths})
        warm_up_master()
    return 0


def _bridge_ports(text: str, option: str) -> tuple:
    """The ports ``name[:unit][:type],...`` of ``--inputs`` or ``--outputs``
    (the type Real, the default, Integer or Boolean)."""
    what = "input" if option == "--inputs" else "output"
    ports = []
    for item in filter(None, (i.strip() for i in text.split(","))):
        name, *rest = (part.strip() for part in item.split(":"))
        kind = rest.pop() if rest and rest[-1] in SIGNAL_TYPES else "Real"
        if len(rest) > 1:
            raise CraneCosimError(f"{option}: {item!r} is not NAME[:UNIT][:TYPE]: the type is one of "
                                  f"{', '.join(SIGNAL_TYPES)}")
        unit = (rest[0] if rest else "") or "1"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise CraneCosimError(f"{option}: {name!r} is not a port name: use letters, digits and underscores, "
                                  f"not starting with a digit")
        if unit not in UNITS:
            raise CraneCosimError(f"{option}: port {name} has the unit {unit!r}, which is not known; known units: "
                                  f"{', '.join(sorted(UNITS))}")
        ports.append(Variable(name, unit, {"Real": 0.0, "Integer": 0, "Boolean": False}[kind],
                              f"{what.capitalize()} {name} of the peer", type=kind))
    return tuple(ports)


def cmd_build_bridge(args) -> int:
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
        digest, _ = bridge.signals()
        print(f"crane-cosim: the digest of its signals, which its peer compares in the hello: {digest.hex()} "
              f"(docs/in_the_loop.md)", file=sys.stderr)
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


@contextmanager
def stopped_by_signals():
    """An event that Ctrl-C and SIGTERM set while the block is in force, so
    that a service ends between two datagrams with its statistics whole."""
    stop = threading.Event()
    old = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def reported(stats, path) -> int:
    """Write a service's ``stats`` to ``--stats``' ``path`` (if given), say
    their summary on stderr, and return the exit status, 0."""
    if path is not None:
        try:
            stats.write(path)
        except OSError as exc:
            raise CraneCosimError(f"--stats {path} cannot be written: {exc.strerror or exc}") from None
    print(f"crane-cosim: {stats.summary()}", file=sys.stderr)
    return 0


def check_stats_file(path) -> None:
    """Refuse a ``--stats`` file that cannot be written, before serving."""
    if path is not None:
        if path.is_dir():
            raise CraneCosimError(f"--stats {path} is a folder; name the file to write")
        check_folder(path.parent, "--stats' folder")


def block_parameters(block_cls, items) -> dict:
    """The parameters ``name=value`` of ``--set`` (:func:`_block_parameters`),
    checked by making the block once: one sentence for what it refuses."""
    params = _block_parameters(block_cls, items)
    try:
        block_cls(**params)
    except ParameterError as exc:
        raise CraneCosimError(str(exc)) from None
    return params


def _key(key_file: str) -> bytes | None:
    """The rig's key of ``--key-file`` (or the environment), or None; one
    sentence for one that cannot be used."""
    try:
        return read_key(key_file)
    except ValueError as exc:
        raise CraneCosimError(f"--key-file: {exc}" if key_file else str(exc)) from None


def cmd_peer_check(args) -> int:
    host, _, port = args.address.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise CraneCosimError(f"{args.address!r} is not HOST:PORT with a port from 1 to 65535")
    if (args.block is None) == (not args.inputs and not args.outputs):
        raise CraneCosimError(f"peer-check needs either a block ({', '.join(BLOCKS)}) or --inputs and --outputs, "
                              f"{'not both' if args.block else 'and got neither'}")
    if args.block is not None and args.block not in BLOCKS:
        raise CraneCosimError(f"no block named {args.block!r}; known: {', '.join(BLOCKS)}")
    if not (math.isfinite(args.wait) and args.wait > 0):
        raise CraneCosimError(f"--wait {args.wait:g} must be a positive number of seconds")
    key = _key(args.key_file)
    if args.block is not None:
        inputs, outputs = BLOCKS[args.block].inputs, BLOCKS[args.block].outputs
    else:
        inputs, outputs = _bridge_ports(args.inputs, "--inputs"), _bridge_ports(args.outputs, "--outputs")
    try:
        checks = check_peer(host.strip("[]"), int(port), inputs, outputs, key, args.byte_order == "big", args.wait)
    except OSError as exc:
        raise CraneCosimError(f"cannot reach {args.address}: {exc.strerror or exc}") from None
    for c in checks:
        print(f"{'pass' if c.passed else 'FAIL'}  {c.name}{'' if c.passed else f' (seen: {c.seen})'}")
    failed = sum(not c.passed for c in checks)
    print(f"{len(checks) - failed} of {len(checks)} checks passed")
    return 1 if failed else 0


def cmd_serve(args) -> int:
    if args.block not in BLOCKS:
        raise CraneCosimError(f"no block named {args.block!r} to serve; known: {', '.join(BLOCKS)}")
    if not 0 <= args.port <= 65535:
        raise CraneCosimError(f"--port {args.port} must be from 0 (any free port) to 65535")
    if not 0 <= args.drop <= 1:
        raise CraneCosimError(f"--drop {args.drop:g} must be a fraction from 0 to 1")
    if not (math.isfinite(args.idle) and args.idle > 0):
        raise CraneCosimError(f"--idle {args.idle:g} must be a positive number of seconds")
    check_stats_file(args.stats)
    key = _key(args.key_file)
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
        server = Server(block, args.host, args.port, drop=random_drop(args.drop, args.seed), on_failure=on_failure,
                        idle=args.idle, key=key, on_notice=lambda message: print(f"crane-cosim: warning: {message}",
                                                                        file=sys.stderr, flush=True))
    except OSError as exc:
        raise CraneCosimError(f"cannot serve {args.block} on udp://{args.host}:{args.port}: "
                              f"{exc.strerror or exc}") from None
    try:
        print(f"serving {block.model_name} on {server.address}", flush=True)
        with stopped_by_signals() as stop:
            stats = server.run(stop.is_set)
    finally:
        server.close()
    return reported(stats, args.stats)


def cmd_export_results(args) -> int:
    for path in export_results(args.results, args.csv, args.parquet, args.out, args.units):
        print(path)
    return 0


def cmd_hydro(args) -> int:
    """Compute the hull file's database with Capytaine and write it; with
    ``--refit``, fit a database's radiation memory again and write it."""
    if args.refit:
        return _refit(args.hull, args.out or args.hull)
    spec = read_hull(args.hull)
    out = args.out or args.hull.with_suffix(".nc")
    # the standard output holds the database's path alone, for a script to
    # take; Capytaine (3.0 on) sends its warnings to a handler on the
    # standard output unless the program has configured logging itself
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="hydro: %(message)s")
    start = time.perf_counter()
    print(f"hydro: {spec['description']}: {spec['frequencies']['count']} frequencies, "
          f"{len(spec['headings']['degrees'])} headings ...", file=sys.stderr, flush=True)
    db = compute_database(spec, progress=sys.stderr.isatty())
    write_database(db, out)
    print(f"hydro: {db.computed_by}, in {time.perf_counter() - start:.0f} s; a HydroVessel takes it by its path: "
          f"--set vessel.database={Path(out).resolve()}", file=sys.stderr)
    print(out)
    return 0


def _refit(path: Path, out: Path) -> int:
    """The database at ``path`` with its radiation memory fitted again,
    written at ``out``."""
    try:
        db = read_database(path)
        fit = fit_radiation(db.omega, db.added_mass, db.radiation_damping, db.added_mass_inf)
    except (OSError, ValueError) as e:
        raise CraneCosimError(f"hydro --refit {path}: {e}") from None
    write_database(replace(db, radiation=fit), out)
    print(f"hydro: {path}'s radiation memory fitted again: {fit.n_states} states, passive, every pair within "
          f"{max(fit.errors.values()):.1%} of its largest |K|", file=sys.stderr)
    print(out)
    return 0


def cmd_animate(args) -> int:
    """Write the run's animation."""
    if (note := cut_short(args.results)) is not None:
        print(f"crane-cosim: note: {note}", file=sys.stderr)
    print(animate(args.results, args.out, args.speed, args.fps))
    return 0


def cmd_inspect(args) -> int:
    """Print an FMU's, a block's or a system's listing (``reports/listing.py``)."""
    target = Path(args.target)
    if target.suffix.lower() == ".fmu" or not target.exists():
        if args.component:
            raise CraneCosimError(f"--component {args.component}: {args.target} is not a system, whose components "
                                  f"it would name")
        lines = model_lines(model_of(args.target))
    else:
        with open_system(target) as opened:
            system = opened.system
            lines = component_lines(system, args.component) if args.component else system_lines(system)
    print("\n".join(lines))
    return 0


def cmd_draw(args) -> int:
    """Draw the system's components and connections (``reports/system_drawing.py``)."""
    with open_system(args.system) as opened:
        path = draw_system(opened.system, args.out or Path(f"{opened.system.name}.svg"))
    print(path)
    return 0
