"""The arguments of the ``crane-cosim`` commands, declared once: each
command's own, with the experiment's options that ``run``, ``check``,
``sweep`` and ``operability`` share (``experiment_options.py``) and the
studies' commands (``study_options.py``)."""
from __future__ import annotations

import argparse
from importlib import metadata
from pathlib import Path

from ..scenarios import SCENARIOS
from ..views import LIVE_ADDRESS as DEFAULT_VIEW
from .experiment_options import add_estimate, add_experiment, add_values
from .study_options import add_fatigue, add_operability

DEFAULT_FMU_DIR = Path("fmus_build")
DEMO_SCENARIO = "offshore_knuckle_boom"

__all__ = ["parser", "DEFAULT_FMU_DIR", "DEMO_SCENARIO", "split_pair", "LOG_LEVELS", "QUIET", "VERBOSE"]

#: the levels of --log-level, libcosim's names, quietest last
LOG_LEVELS = ("trace", "debug", "info", "warning", "error", "fatal")
#: the levels that show no more than errors, and those that show the FMUs' messages too
QUIET, VERBOSE = ("error", "fatal"), ("trace", "debug")

#: the options whose value is one word NAME=VALUE (the form of each, as its help shows it)
PAIR_OPTIONS = ("--set", "--replace", "--component-step", "--vary", "--combine")


def split_pair(argv, extra) -> str | None:
    """The sentence refusing an option of :data:`PAIR_OPTIONS` whose
    ``NAME=VALUE`` was typed as two words or more (``--set vessel.m 1200``,
    ``--set vessel.m = 1200``), argparse having left ``extra`` (the words it
    did not take) over; None when the first of them follows no such option."""
    argv = list(argv)
    found = None
    for k, word in enumerate(argv):  # where the first stray word follows such an option's value
        if word == (extra[0] if extra else None) and k >= 1:
            before = argv[k - 1].partition("=")
            if before[0] in PAIR_OPTIONS and before[1]:  # --set=vessel.m 1200
                found = (k, before[0], before[2])
            elif k >= 2 and argv[k - 2] in PAIR_OPTIONS:  # --set vessel.m 1200
                found = (k, argv[k - 2], argv[k - 1])
            if found:
                break
    if found is None:
        return None
    k, option, name = found
    rest = []
    for word in argv[k:]:
        if word.startswith("-") and not _number(word):
            break
        rest.append(word)
    typed = " ".join([name, *rest])
    joined = name.rstrip("=") + "=" + "".join(rest).lstrip("=")
    return (f"{option} takes NAME=VALUE as one word, without spaces; {typed!r} was typed: write "
            f"{option} {joined}")


def _number(word: str) -> bool:
    """Whether ``word`` reads as a number (a negative value, not an option)."""
    try:
        float(word)
        return True
    except ValueError:
        return False


def _release() -> str:
    try:
        return metadata.version("crane-cosim")
    except metadata.PackageNotFoundError:  # run from a source tree not installed
        return "(not installed)"


def parser(description: str) -> argparse.ArgumentParser:
    """The arguments of every command."""
    p = argparse.ArgumentParser(prog="crane-cosim", description=description)
    p.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    p.add_argument("--log-level", choices=LOG_LEVELS, default="warning", metavar="LEVEL",
                   help="what is shown besides results and errors, by libcosim's names: error or fatal, nothing "
                        "else (no warnings, no progress bar); info or warning, the warnings and notes (the "
                        "default); debug or trace, the FMUs' own messages as well (--fmi-logging) and the "
                        "tracebacks of internal errors (--debug)")
    p.add_argument("--version", action="version", version=f"%(prog)s {_release()}")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a system (.ssd file, folder holding one, or .ssp archive)")
    r.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    r.add_argument("--out", type=Path, help="results folder, refused if it holds an earlier run unless --force "
                                            "(default: results/<system name> next to the .ssd or .ssp, which "
                                            "holds the system's latest run)")
    r.add_argument("--plot", nargs="+", action="extend", default=[], metavar="COMPONENT.VARIABLE",
                   help="draw these recorded variables over time (shell wildcards allowed), an axes per unit, in "
                        "plots/chosen.png of the results folder")
    r.add_argument("--output-file", type=Path, metavar="FILE",
                   help="the results also as FILE, the format its suffix names: .csv (a second row of units), "
                        ".mat (MATLAB: a struct per component) or .parquet")
    r.add_argument("--monolithic", action="store_true", help="run the blocks in-process as one ODE instead")
    add_experiment(r)
    add_values(r)
    r.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    r.add_argument("--view", nargs="?", const=f"{DEFAULT_VIEW[0]}:{DEFAULT_VIEW[1]}", metavar="[HOST:]PORT",
                   help="serve a live view of the run at http://HOST:PORT/ while it goes (default "
                        f"{DEFAULT_VIEW[0]}:{DEFAULT_VIEW[1]}: this machine only; port 0: any free one)")
    r.add_argument("--animate", action="store_true", help="also write the run's 3-D animation, animation.html, "
                                                          "beside the plots (crane-cosim animate)")
    r.add_argument("--record", action="append", metavar="COMPONENT.VARIABLE",
                   help="write only the outputs matching this pattern, shell wildcards allowed, e.g. "
                        "'crane.W_mount_*' (repeatable; default: all outputs)")
    r.add_argument("--record-every", type=int, metavar="N",
                   help="write every N-th communication point (and the last; default: every one)")
    r.add_argument("--force", action="store_true",
                   help="replace an earlier run in --out (its files removed first), and run even if results.arrows "
                        "would exceed 200 MB")
    r.add_argument("--real-time", type=float, nargs="?", const=1.0, metavar="FACTOR",
                   help="pace the run to the wall clock, each communication point at its deadline, FACTOR times "
                        "real time (default 1); late steps are counted, never skipped (summary.json, timing.csv)")
    r.add_argument("--spin", type=float, metavar="SECONDS",
                   help="with --real-time: sleep until this long before each deadline and spin on the clock for "
                        "the rest (default 0.0002; 0: sleep only)")
    r.add_argument("--rt-priority", type=int, metavar="N",
                   help="with --real-time: ask for the real-time scheduling class SCHED_FIFO at priority N (1-99; "
                        "needs root or CAP_SYS_NICE, else the run says it did not get it)")
    r.add_argument("--processes", action="store_true",
                   help="run each FMI 2.0 component in a process of its own (Linux): one that crashes ends the run "
                        "with a message and the results so far, not the master")
    r.add_argument("--call-timeout", type=float, metavar="SECONDS",
                   help="with --processes: the longest one FMI call may take once the components are initialized; "
                        "a component's process that does not answer in time is killed and the run ends")
    add_estimate(r)

    c = sub.add_parser("check", help="check a system (files, connections, types, units, values, the capabilities "
                                      "its algorithm needs) without running it")
    c.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    add_experiment(c)
    add_values(c)
    add_estimate(c)

    i = sub.add_parser("inspect", help="list an FMU's (or one of the project's blocks') variables and capabilities, "
                                       "or a system's components and connections")
    i.add_argument("target", help="an .fmu file, a block's name (such as Payload), or a system (.ssd file, folder "
                                  "holding one, or .ssp archive)")
    i.add_argument("--component", metavar="NAME", help="a system's component whose variables to list")

    dr = sub.add_parser("draw", help="draw a system's components and connections (SVG, PDF or PNG through "
                                     "Graphviz, or its DOT text)")
    dr.add_argument("system", help="the system (.ssd file, folder holding one, or .ssp archive)")
    dr.add_argument("--out", type=Path, help="the file to write, .svg, .pdf, .png or .dot (default: the system's "
                                             "name with .svg, in the working folder)")

    e = sub.add_parser("export", help="write a system as an SSP archive (.ssp) for other tools")
    e.add_argument("system", help=".ssd file, a folder holding one, or an .ssp archive")
    e.add_argument("out", type=Path, help="the archive to write; its name must end in .ssp")
    e.add_argument("--force", action="store_true", help="replace OUT if it exists")
    e.add_argument("--set", action="append", default=[], metavar="COMPONENT.VARIABLE=VALUE",
                   help="set a start value in the archive (repeatable)")

    b = sub.add_parser("build-fmus", help="build the project's FMUs")
    b.add_argument("--out", type=Path, default=DEFAULT_FMU_DIR, help=f"output folder (default: {DEFAULT_FMU_DIR})")
    b.add_argument("--no-compile", action="store_true",
                   help="do not compile the knuckle boom crane's numba kernels now (else done once per machine)")
    b.add_argument("--portable", action="store_true",
                   help="FMUs that carry their own Python and run each instance in a process of their own: for "
                        "machines without Python and hosts that run another Python (Linux x86-64, and Windows x64 "
                        "where the MinGW-w64 cross compiler is installed; larger and slower to build; "
                        "docs/portable_fmus.md)")
    b.add_argument("--no-windows", action="store_true",
                   help="with --portable: leave the Windows binary out (else built where the cross compiler is "
                        "installed, its runtime downloaded once from the package index)")
    b.add_argument("--model", action="append", default=[], metavar="MODEL",
                   help="build only this block's FMU (repeatable; default: every block)")

    bb = sub.add_parser("build-bridge", help="build a UDP bridge FMU that stands in for a block run by another "
                                             "process (hardware in the loop)")
    bb.add_argument("block", nargs="?", help="the project's block whose ports the bridge has, e.g. Controller "
                                             "(the FMU is <BLOCK>Bridge.fmu)")
    bb.add_argument("--name", help="instead of a block: the model name of a bridge with the ports of --inputs and "
                                   "--outputs")
    bb.add_argument("--inputs", default="", metavar="NAME[:UNIT][:TYPE],...",
                    help="with --name: the bridge's inputs, sent to the peer in this order (unit default 1; type "
                         "Real, the default, Integer or Boolean)")
    bb.add_argument("--outputs", default="", metavar="NAME[:UNIT][:TYPE],...",
                    help="with --name: the bridge's outputs, answered by the peer in this order (unit default 1; "
                         "type Real, the default, Integer or Boolean)")
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
    sv.add_argument("--idle", type=float, default=5.0, metavar="SECONDS",
                    help="a run whose bridge has sent no new request for this long (a request sent again does not "
                         "count) may be followed by another before its bridge ends it (default 5); until then "
                         "another run's requests are ignored")
    sv.add_argument("--key-file", default="", metavar="FILE",
                    help="file holding the key shared with the bridges (their key_file): only datagrams tagged "
                         "with it are read, and the answers are tagged (default: the environment variable "
                         "CRANE_COSIM_BRIDGE_KEY if set, else no key)")
    sv.add_argument("--stats", type=Path, metavar="FILE",
                    help="write what was served (runs, requests, answers, the answers dropped, the datagrams "
                         "ignored) to FILE as JSON when stopped")

    ds = sub.add_parser("dcp-slave", help="run one of the project's blocks as a DCP 1.0 slave over UDP/IPv4 "
                                          "(docs/in_the_loop.md)")
    ds.add_argument("block", help="the project's block to serve, e.g. Controller")
    ds.add_argument("--port", type=int, required=True,
                    help="UDP port of the slave's control endpoint (0: one the system chooses; the line printed when "
                         "ready and the slave description show it)")
    ds.add_argument("--host", default="127.0.0.1",
                    help="IPv4 address to listen on, written into the slave description (default 127.0.0.1: this "
                         "machine only)")
    ds.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="set a parameter of the block (repeatable); a DCP master may set its Real, Integer and Boolean "
                         "parameters too (CFG_parameter)")
    ds.add_argument("--description", type=Path, metavar="FILE",
                    help="where to write the slave description a master reads (default: <BLOCK>.dcp.xml here)")
    ds.add_argument("--record", type=Path, metavar="FILE",
                    help="write every evaluation of the outputs (time, inputs, outputs) to FILE as CSV, a line "
                         "each, as it goes")
    ds.add_argument("--stats", type=Path, metavar="FILE",
                    help="write what the slave did (PDUs, steps, refusals, missed data, late steps) to FILE as JSON "
                         "when stopped")

    db = sub.add_parser("build-dcp-bridge", help="build an FMU that drives a DCP 1.0 slave (a device, or "
                                                 "dcp-slave) from its slave description")
    db.add_argument("description", type=Path, help="the slave's description (dcpSlaveDescription XML)")
    db.add_argument("--name", help="the FMU's model name (default: the slave's dcpSlaveName)")
    db.add_argument("--out", type=Path, default=DEFAULT_FMU_DIR, help=f"output folder (default: {DEFAULT_FMU_DIR})")

    pc = sub.add_parser("peer-check", help="drive a device (any peer of a UDP bridge) through the peer's rules and "
                                           "say which it follows (docs/in_the_loop.md)")
    pc.add_argument("address", metavar="HOST:PORT", help="where the device listens")
    pc.add_argument("block", nargs="?", help="the project's block whose bridge the device stands behind (its "
                                             "signals), e.g. Controller; or --inputs and --outputs")
    pc.add_argument("--inputs", default="",
                    help="the bridge's inputs, as build-bridge takes them: NAME[:UNIT][:TYPE],...")
    pc.add_argument("--outputs", default="", help="the bridge's outputs, as build-bridge takes them")
    pc.add_argument("--key-file", default="", metavar="FILE",
                    help="the rig's key (default: the environment variable CRANE_COSIM_BRIDGE_KEY if set, else none)")
    pc.add_argument("--byte-order", choices=("little", "big"), default="little",
                    help="the byte order the bridge sends in (default little)")
    pc.add_argument("--wait", type=float, default=0.5, metavar="SECONDS",
                    help="how long a reply is waited for, and the silence a rule asks for (default 0.5)")

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
    be.add_argument("--animation", action="store_true",
                    help="instead: the time crane-cosim animate takes to draw a run of each --scenario (default: "
                         "offshore_knuckle_boom) of --stop-time s, as a page, an MP4 and a GIF, and the page's size")
    be.add_argument("--sweep", type=int, metavar="CASES",
                    help="instead: cases per hour of a sweep of CASES cases of --stop-time s, one worker against "
                         "two, and the overhead per case")
    be.add_argument("--hosts", action="store_true",
                    help="instead: the same system and FMUs under crane-cosim, OSP libcosim and NTNU Ålesund's ecos, steps per "
                         "second side by side (--scenario, default crane_on_vessel)")
    be.add_argument("--portable", action="store_true",
                    help="instead: each FMU portable beside lean, its size and µs a step under FMPy, and the crane "
                         "on the vessel in the master lean, portable and with --processes (docs/portable_fmus.md)")
    be.add_argument("--model", action="append", default=[], metavar="MODEL",
                    help="with --portable: this block's FMU only (repeatable; default: every block)")
    w = sub.add_parser("sweep", help="run a system for many cases (parameter values) on a Dask cluster")
    w.add_argument("system", type=Path, help="the system (.ssd file, folder holding one, or .ssp archive)")
    w.add_argument("cases", type=Path, nargs="?", help="CSV of the cases: a column 'case' (optional) and one "
                                                       "column per component.variable")
    w.add_argument("--vary", action="append", default=[], metavar="COMPONENT.VARIABLE=V1,V2,...",
                   help="instead of a table: the product of these ranges (repeatable)")
    w.add_argument("--sample", nargs=2, metavar=("DESIGN", "N"),
                   help="instead of a table: N cases by design of experiments over the --range ranges: lhs (a Latin "
                        "hypercube) or sobol (a scrambled Sobol sequence, N a power of two)")
    w.add_argument("--range", action="append", default=[], metavar="COMPONENT.VARIABLE=LOW,HIGH",
                   help="a range --sample draws from (repeatable)")
    w.add_argument("--sample-seed", type=int, default=0, metavar="N",
                   help="the seed of the design (default: 0; the same seed, the same cases)")
    w.add_argument("--out", type=Path, help="sweep folder (default: results/sweep next to the system); run again "
                                            "with the same cases and options, it skips those that completed, and "
                                            "a folder of another sweep is refused unless --force")
    w.add_argument("--force", dest="clear", action="store_true",
                   help="clear the cases of an earlier sweep in --out and run every case anew")
    w.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    w.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask cluster's scheduler, "
                                                          "e.g. tcp://host:8786, instead of a local one")
    add_experiment(w)
    w.add_argument("--record", action="append", metavar="PATTERN", help="record only these columns (repeatable)")
    w.add_argument("--record-every", type=int, metavar="N", help="record every Nth communication point")

    add_operability(sub)

    x = sub.add_parser("export-results", help="write a run's results (results.arrows) as CSV, Parquet or MAT")
    x.add_argument("results", type=Path, help="a run folder, or its results.arrows")
    x.add_argument("--csv", action="store_true", help="write CSV: time first, reals to 12 significant digits "
                                                      "(the default when no format is given)")
    x.add_argument("--parquet", action="store_true", help="write Parquet (zstd), the units in its metadata")
    x.add_argument("--units", action="store_true", help="the CSV's second row the columns' units")
    x.add_argument("--out", type=Path, help="the file to write, .csv, .parquet or .mat (MATLAB), the format its "
                                            "suffix names (default: results.csv and results.parquet beside the "
                                            "results)")

    hy = sub.add_parser("hydro", help="compute a hull's hydrodynamic database with Capytaine (the optional extra "
                                      "hydro) for the HydroVessel")
    hy.add_argument("hull", type=Path, help="the hull file (TOML: shape, mass properties, frequencies, headings, "
                                            "water; examples/hydro_vessel/barge.toml is one), or with --refit a "
                                            "database")
    hy.add_argument("--refit", action="store_true", help="fit the radiation memory of the database HULL names "
                                                         "again, passive (a database from elsewhere, or older), "
                                                         "and write it (default: in place)")
    hy.add_argument("--out", type=Path, help="the database to write (NetCDF; default: the hull file's name with "
                                             ".nc, beside it)")

    an = sub.add_parser("animate", help="draw a run's crane, vessel and interface wrench in 3-D, as a page that "
                                        "plays, pauses and scrubs")
    an.add_argument("results", type=Path, help="a run folder (results.arrows and summary.json)")
    an.add_argument("--out", type=Path, help="the file to write: .html (default: animation.html in the run folder), "
                                             ".mp4 (needs the optional extra video) or .gif, a video")
    an.add_argument("--speed", type=float, default=1.0, help="times real time it plays at (default: 1)")
    an.add_argument("--fps", type=float, help="the page's frames a second of simulated time (default: 25; a video "
                                             "has 25 of its own)")

    add_fatigue(sub)
    return p
