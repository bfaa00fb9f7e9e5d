"""The options of the studies' commands that read runs or run many:
``fatigue`` (rainflow counting and damage-equivalent loads of recorded
runs) and ``operability`` (the sea states a lift may go ahead in)."""
from __future__ import annotations

from pathlib import Path

from .experiment_options import add_experiment, add_values

__all__ = ["add_fatigue", "add_operability"]


def add_fatigue(sub) -> None:
    """Declare the ``fatigue`` command among the subcommands ``sub``."""
    f = sub.add_parser("fatigue", help="rainflow counting and damage-equivalent loads of recorded runs")
    f.add_argument("results", type=Path, help="a run folder, or a scatter table (CSV: case = run folder, "
                                              "probability, and labels such as Hs, Tp)")
    f.add_argument("--signal", action="append", metavar="PATTERN",
                   help="recorded columns to count (shell wildcards, repeatable; default: the interface wrench, "
                        "the columns whose role is interface.wrench: the crane's W_mount_*)")
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


def add_operability(sub) -> None:
    """Declare the ``operability`` command among the subcommands ``sub``."""
    o = sub.add_parser("operability", help="the sea states in which a lift may go ahead: a grid of Hs x Tp x "
                                           "heading, several seeds each, on a Dask cluster (docs/operability.md)")
    o.add_argument("system", type=Path, help="the system (.ssd file, folder holding one, or .ssp archive)")
    o.add_argument("--hs", required=True, metavar="M,M,...", help="significant wave heights [m]")
    o.add_argument("--tp", required=True, metavar="S,S,...", help="peak periods [s]")
    o.add_argument("--heading", default="90", metavar="DEG,...",
                   help="headings the waves travel toward [deg], from the vessel's x axis toward y (default: 90, "
                        "beam seas)")
    o.add_argument("--sea", metavar="COMPONENT", help="the component that sets the sea state (default: the one "
                                                      "with the parameters Hs, Tp, heading and seed)")
    o.add_argument("--seeds", type=int, default=3, help="seeds each sea state runs first (default: 3)")
    o.add_argument("--max-seeds", type=int, default=10,
                   help="seeds a sea state runs at most, where its interval asks for more (default: 10)")
    o.add_argument("--interval", type=float, default=0.1,
                   help="half width of the tension MPM's interval, as a fraction of it, that more seeds are run "
                        "for (default: 0.1)")
    o.add_argument("--confidence", type=float, default=0.9, help="the intervals' confidence (default: 0.9)")
    o.add_argument("--hours", type=float, default=3.0,
                   help="the sea state's duration [h], over which the most probable maxima are (default: 3)")
    o.add_argument("--ramp-periods", type=float, default=3.0,
                   help="peak periods over which the sea grows from calm at the start of each run, where the sea's "
                        "component can (its t_ramp; default: 3; 0: at full height from the start)")
    o.add_argument("--settle", type=float, default=20.0,
                   help="seconds after the sea's growth left out of each run, for the transient (default: 20)")
    o.add_argument("--swl", type=float, metavar="N", help="the crane's safe working load [N]: the tension's MPM "
                                                          "must not exceed it")
    o.add_argument("--daf", type=float, help="the dynamic amplification the rigging is designed for (default: GL "
                                             "Noble Denton 0027/ND, Table 5-1, offshore)")
    o.add_argument("--slack", type=float, default=0.01,
                   help="the accepted probability of a slack wire (tension below a tenth of the static hook load) "
                        "in the sea state's duration (default: 0.01)")
    o.add_argument("--limit", action="append", default=[], metavar="QUANTITY=VALUE",
                   help="a limit on another quantity's MPM, in SI units: payload_swing, payload_heave, tip_heave "
                        "[m], or an interface wrench column such as crane.W_mount_nx [N.m] (repeatable)")
    o.add_argument("--tension", metavar="COLUMN", help="the wire's tension (default: the column *.T_wire)")
    o.add_argument("--compare", action="append", default=[], metavar="FOLDER[=LABEL]",
                   help="another study's folder whose limits the diagram draws beside (repeatable)")
    o.add_argument("--label", default="this study", help="this study's limit in the diagram's legend")
    o.add_argument("--out", type=Path, help="study folder (default: results/operability next to the system); run "
                                            "again, it skips the runs that completed")
    o.add_argument("--force", dest="clear", action="store_true", help="clear the runs of an earlier study in --out")
    o.add_argument("--workers", type=int, help="worker processes of the local cluster (default: one per core)")
    o.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask cluster's scheduler instead of a local one")
    add_experiment(o)
    add_values(o)
    o.add_argument("--record", action="append", metavar="PATTERN",
                   help="record these columns (repeatable; default: only those the study reads)")
    o.add_argument("--record-every", type=int, metavar="N", help="record every Nth communication point")
