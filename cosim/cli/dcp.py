"""``crane-cosim dcp-slave`` (one of our blocks as a DCP 1.0 slave) and
``build-dcp-bridge`` (an FMU that drives a DCP slave from its slave
description)."""
from __future__ import annotations

import csv
import sys
from pathlib import Path

from ..blocks.registry import BLOCKS
from ..blocks.warm_up import warm_up
from ..bridge.dcp.dcp_bridge import dcp_bridge_of
from ..bridge.dcp.description import DescriptionError, read_description
from ..bridge.dcp.slave_server import SlaveServer
from ..errors import CraneCosimError
from ..fmus.build import build_bridge_fmu
from ..runtime.runlog import check_folder
from .tools import block_parameters, check_stats_file, reported, stopped_by_signals

__all__ = ["cmd_dcp_slave", "cmd_build_dcp_bridge"]


class _Record:
    """``--record``: a CSV line per evaluation of the outputs (time, inputs,
    outputs), flushed as it goes, so that a slave stopped any way leaves
    what it computed on disk."""

    def __init__(self, path: Path, block_cls):
        self.file = open(path, "w", newline="", encoding="utf-8")
        self.writer = csv.writer(self.file)
        self.writer.writerow(["time"] + block_cls.input_names() + block_cls.output_names())
        self.writer.writerow(["s"] + [v.unit for v in block_cls.inputs + block_cls.outputs])

    def __call__(self, t, u, y):
        self.writer.writerow([repr(float(t))] + [repr(float(v)) for v in (*u, *y)])
        self.file.flush()

    def close(self):
        self.file.close()


def cmd_dcp_slave(args) -> int:
    if args.block not in BLOCKS:
        raise CraneCosimError(f"no block named {args.block!r} to serve; known: {', '.join(BLOCKS)}")
    if not 0 <= args.port <= 65535:
        raise CraneCosimError(f"--port {args.port} must be from 0 (any free port) to 65535")
    check_stats_file(args.stats)
    block_cls = BLOCKS[args.block]
    values = block_parameters(block_cls, args.set)
    description = args.description or Path(f"{args.block}.dcp.xml")
    for option, path in (("--description", description), ("--record", args.record)):
        if path is not None:
            check_folder(Path(path).parent, f"{option}'s folder")
    warm_up({args.block})
    try:
        server = SlaveServer(block_cls, args.host, args.port, values, on_notice=lambda message: print(
            f"crane-cosim: warning: {message}", file=sys.stderr, flush=True))
    except OSError as exc:
        raise CraneCosimError(f"cannot serve {args.block} on udp://{args.host}:{args.port}: "
                              f"{exc.strerror or exc}") from None
    record = None
    try:
        Path(description).parent.mkdir(parents=True, exist_ok=True)
        Path(description).write_text(server.description_xml(), encoding="utf-8")
        if args.record is not None:
            record = server.slave.record = _Record(args.record, block_cls)
        print(f"DCP slave {args.block} on {server.stats.address}; its slave description: {description}", flush=True)
        with stopped_by_signals() as stop:
            stats = server.run(stop.is_set)
    except OSError as exc:
        raise CraneCosimError(f"dcp-slave {args.block}: {exc.filename or 'a file'} cannot be written: "
                              f"{exc.strerror or exc}") from None
    finally:
        server.close()
        if record is not None:
            record.close()
    return reported(stats, args.stats)


def cmd_build_dcp_bridge(args) -> int:
    try:
        d = read_description(args.description)
        bridge = dcp_bridge_of(d, args.name, f"slave description {args.description}")
        check_folder(args.out, "--out")
        print(build_bridge_fmu(bridge, args.out))
    except (DescriptionError, ValueError) as exc:
        raise CraneCosimError(str(exc)) from None
    return 0
