"""``crane-cosim sweep``, ``fatigue`` and ``bench``."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

from ..bench.animation_bench import bench_animation
from ..errors import CraneCosimError
from ..files.folders import made_folders_undone
from ..files.results import cut_short
from ..runtime.runlog import check_folder
from ..studies.fatigue import UNKNOWN_UNIT, YEAR, lifetime_text, parse_combination, slewing_ring_bolt, study
from ..studies.operability import SeaGrid, Study, operability
from ..studies.sampling import cases_of_sample
from ..studies.sweep import cases_of_ranges, cases_of_table, sweep
from .options import pairs, run_config

__all__ = ["cmd_sweep", "cmd_fatigue", "cmd_bench", "cmd_operability"]


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


def _cases(args) -> list[tuple[str, dict]]:
    """The sweep's cases: from its table, ``--vary``'s product or ``--sample``'s design."""
    given = [args.cases is not None, bool(args.vary), args.sample is not None]
    if sum(given) != 1:
        raise CraneCosimError("give the cases as a table (CASES.csv), as --vary ranges or as a --sample design, "
                              "one of the three")
    if args.range and args.sample is None:
        raise CraneCosimError("--range gives the ranges of a --sample design; without one, use --vary")
    if args.cases is not None:
        return cases_of_table(args.cases)
    if args.vary:
        return cases_of_ranges(args.vary)
    design, count = args.sample
    try:
        count = int(count)
    except ValueError:
        raise CraneCosimError(f"--sample {design} {count}: the number of cases must be a whole number") from None
    return cases_of_sample(design, count, args.range, args.sample_seed)


def cmd_sweep(args) -> int:
    if args.workers is not None and args.workers < 1:
        raise CraneCosimError(f"--workers {args.workers} must be at least 1")
    if args.out is not None:
        check_folder(args.out, "--out")
    cases = _cases(args)
    config = run_config(args).replace(progress=False)
    system = args.system.resolve()
    out = args.out or (system if system.is_dir() else system.parent) / "results" / "sweep"
    summary = sweep(system, cases, out, config, args.scheduler, args.workers, force=args.clear,
                    label="--out" if args.out is not None else "the sweep folder")
    failed = summary[summary["status"] != "completed"]
    print(f"{len(summary) - len(failed)} of {len(summary)} cases completed; summary in {out / 'summary.csv'}")
    for _, row in failed.iterrows():
        print(f"crane-cosim: case {row['case']} failed: {row['reason']}", file=sys.stderr)
    return 1 if len(failed) else 0


def _limits(args) -> dict:
    """The criteria of ``operability``'s options: ``{criterion: limit}``."""
    limits = {"daf": args.daf, "slack": args.slack}
    if args.swl is not None:
        limits["tension"] = args.swl
    for name, text in pairs(args.limit, "--limit", "QUANTITY=VALUE"):
        limits[name] = _numbers(text, f"--limit {name}=", (1,))[0]
    return limits


def _compared(items) -> dict:
    """``{label: limits}`` of the studies ``--compare`` names."""
    others = {}
    for item in items:
        folder, _, label = item.partition("=")
        path = Path(folder) / "limits.csv"
        try:
            others[label or Path(folder).name] = pd.read_csv(path)
        except (OSError, ValueError) as exc:
            raise CraneCosimError(f"--compare {item}: {path} cannot be read ({exc}): give the folder of a study "
                                  f"crane-cosim operability wrote") from None
    return others


def cmd_operability(args) -> int:
    # matplotlib, a second to import: where the diagram is drawn
    from ..reports.limit_diagram import write_limit_diagram
    if args.workers is not None and args.workers < 1:
        raise CraneCosimError(f"--workers {args.workers} must be at least 1")
    if args.start_time:
        raise CraneCosimError(f"--start-time {args.start_time:g}: the study's runs start at 0 s, from which the sea's "
                              f"growth and the transient left out are counted")
    grid = SeaGrid(_numbers(args.hs, "--hs"), _numbers(args.tp, "--tp"), _numbers(args.heading, "--heading"))
    study = Study(exposure=args.hours * 3600.0, settle=args.settle, ramp_periods=args.ramp_periods, seeds=args.seeds,
                  max_seeds=args.max_seeds, confidence=args.confidence, relative=args.interval, limits=_limits(args),
                  tension=args.tension)
    others = _compared(args.compare)
    config = run_config(args).replace(progress=False)
    system = args.system.resolve()
    out = args.out or (system if system.is_dir() else system.parent) / "results" / "operability"
    cells, limits, failed = operability(system, grid, out, study, config, args.sea, args.scheduler, args.workers,
                                        force=args.clear,
                                        say=lambda text: print(f"operability: {text}", file=sys.stderr, flush=True))
    figure = write_limit_diagram(out / "limit_diagram.png", cells, limits, others=others, label=args.label)
    safe = int(cells["safe"].sum())
    print(f"{safe} of {len(cells)} sea states safe; table {out / 'operability.csv'}, limits {out / 'limits.csv'}, "
          f"diagram {figure}")
    for sentence in failed:
        print(f"crane-cosim: run {sentence}", file=sys.stderr)
    return 1 if failed else 0


def cmd_fatigue(args) -> int:
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
    if (note := cut_short(args.results)) is not None:
        print(f"crane-cosim: note: {note}", file=sys.stderr)
    with made_folders_undone(out):  # a refused study leaves no folder it made
        cases, lifetime = study(args.results, out, tuple(args.signal) if args.signal else None, combinations,
                                args.skip, args.n_ref, args.life * YEAR, slopes, plots=not args.no_plots,
                                say=lambda text: print(f"fatigue: {text}", file=sys.stderr, flush=True))
    print(lifetime_text(lifetime, slopes))
    print(f"lifetime DELs ({args.life:g} years, {args.n_ref:g} cycles) of {cases['case'].nunique()} case(s): "
          f"{out / 'fatigue_lifetime.csv'} (in N and N.m)")
    for name in lifetime.loc[lifetime["unit"] == UNKNOWN_UNIT, "signal"]:
        print(f"crane-cosim: note: the unit of {name} is not known (its columns' units differ or are not "
              f"recorded); its values are as computed: give it as NAME[UNIT]=EXPR", file=sys.stderr)
    return 0


def cmd_bench(args) -> int:
    # the benchmarks load numba: only where they run
    from ..bench.rates import main as bench_main
    if args.sweep is not None:
        from ..bench.rates import bench_sweep  # as above
        if args.sweep < 2:
            raise CraneCosimError(f"--sweep {args.sweep}: give at least 2 cases")
        r = bench_sweep(args.sweep, args.stop_time, args.out)
        print(f"sweep of {r['cases']} cases of {r['stop_time']:g} s: {r['cases_per_hour_1']:.0f} cases/h with one "
              f"worker, {r['cases_per_hour_2']:.0f} with two ({r['speedup']:.2f} times); overhead per case "
              f"{r['overhead_s_per_case_1']:.2f} s (one worker), {r['overhead_s_per_case_2']:.2f} s (two)")
        return 0
    if args.animation:
        return _bench_animation(args)
    if args.hosts:
        # the benchmarks load numba: only where they run
        from ..bench.bench_hosts import hosts_main
        return hosts_main(args)
    return bench_main(args)


def _bench_animation(args) -> int:
    """``bench --animation``: the records as JSON, or a line each."""
    def say(r):
        if args.json:
            print(json.dumps(r))
            return
        mp4 = "no MP4 (the optional extra video)" if r["mp4_s"] is None else f"MP4 {r['mp4_s']:.1f} s"
        print(f"{r['scenario']}, {r['stop_time']:g} s run: page {r['page_s']:.1f} s ({r['page_mb']:.1f} MB; "
              f"{r['page_50fps_mb']:.1f} MB at 50 frames a second), {mp4}, GIF {r['gif_s']:.1f} s", flush=True)
    bench_animation(args.scenario or ["offshore_knuckle_boom"], args.stop_time, args.out, on_record=say)
    return 0
