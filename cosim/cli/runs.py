"""``crane-cosim run``, ``check``, ``export`` and ``demo``."""
from __future__ import annotations

import math
import sys
from pathlib import Path

from ..blocks.registry import BLOCKS
from ..blocks.warm_up import warm_up
from ..errors import CraneCosimError
from ..files.folders import NoSpaceLeft, claimed, made_folders_undone, unwritable
from ..files.results import RESULTS_FILE
from ..files.results_export import check_writable, export_format, export_results
from ..fmus.build import build_all, needs_building
from ..monolithic.reference import run_monolithic
from ..runtime.algorithms import ALGORITHMS
from ..runtime.checks import settings_problems
from ..runtime.coupling import COUPLINGS
from ..runtime.model import models_of
from ..runtime.observers.bridges import describe as describe_bridges
from ..runtime.observers.pacing import describe
from ..runtime.plan import EXTRAPOLATIONS, problems_of
from ..runtime.run import run_cosim
from ..runtime.runlog import check_folder, clear_folder
from ..scenarios import SCENARIOS
from ..ssp import open_system, write_ssd, write_ssp
from ..vessel_start import settle_vessel
from ..views import animate
from ..views.live import live_view
from .options import run_config, view_address

__all__ = ["cmd_run", "cmd_check", "cmd_export", "cmd_demo", "describe_estimate", "checked_settings", "fmus_to_build"]


def cmd_check(args) -> int:
    config = run_config(args)
    with open_system(args.system) as opened:
        system = opened.system
        problems, notes = problems_of(system, config)
    for note in notes:
        print(f"note: {note}")
    if problems:
        for p in problems:
            print(f"crane-cosim: error: {p}", file=sys.stderr)
        print(f"crane-cosim: {system.name} does not fit together ({len(problems)} problem"
              f"{'s' if len(problems) > 1 else ''})", file=sys.stderr)
        return 2
    n, m = len(system.components), len(system.connections)
    applied = config.applied_to(system)
    unbuilt = fmus_to_build(applied)
    if not unbuilt:
        print(f"{system.name}: {n} component{'s' * (n != 1)}, {m} connection{'s' * (m != 1)}: "
              f"files, connections, types, units, values and capabilities check out")
        return 0
    several = len(unbuilt) > 1
    stale = any(applied.source_path(applied.component(c)).exists() for c in unbuilt)
    names = ", ".join(unbuilt[:-1]) + " and " + unbuilt[-1] if several else unbuilt[0]
    print(f"{system.name}: {n} component{'s' * (n != 1)}, {m} connection{'s' * (m != 1)}: files, connections, "
          f"types, units, values and capabilities check out, those of {names} against the project's block"
          f"{'s' * several} since {'their FMUs are' if several else 'its FMU is'} not built yet"
          f"{' or built from other sources' if stale else ''} (crane-cosim run builds {'them' if several else 'it'})")
    return 0


def fmus_to_build(system) -> list[str]:
    """The components of ``system`` whose FMU is one of the project's and
    is missing, or was built from other sources: a run builds them first
    (``fmus.build.prepare_fmus``)."""
    names = []
    for comp in system.components:
        path = system.source_path(comp)
        if path.suffix == ".fmu" and path.stem in BLOCKS and needs_building(path, BLOCKS[path.stem]):
            names.append(comp.name)
    return names


def checked_settings(system, config) -> None:
    """Raise :class:`CraneCosimError` with the first problem of the
    experiment's settings (stop time, step, algorithm ...) of ``system``
    run with ``config``: before anything is built, not after."""
    problems = settings_problems(config.applied_to(system), ALGORITHMS, COUPLINGS, EXTRAPOLATIONS)
    if problems:
        raise CraneCosimError(problems[0])


def _write_output_file(out: Path, path: Path) -> None:
    """The run's results in ``out`` also as ``path``; a failure said, never
    the run's own outcome hidden."""
    try:
        export_results(out, out=path, units=True, label="--output-file")
        print(f"the results also in {path}", file=sys.stderr)
    except CraneCosimError as exc:
        print(f"crane-cosim: the --output-file not written: {exc}", file=sys.stderr)


def cmd_run(args) -> int:
    if args.output_file is not None:  # refused before anything runs, as the export after it would
        export_format(args.output_file, "--output-file")
        check_writable(args.output_file, "--output-file")
    if args.out is not None:
        # refused before anything runs; replaced (with --force) when the run starts
        check_folder(args.out, "--out") if args.force else clear_folder(args.out, False, "--out", "--force")
    config = run_config(args, monolithic=args.monolithic)
    # an .ssp archive is extracted into a temporary folder that lives for the run
    with open_system(args.system) as opened:
        checked_settings(opened.system, config)
        unbuilt = [] if args.monolithic else fmus_to_build(config.applied_to(opened.system))
        if unbuilt:  # seconds to a minute that would be silent
            print(f"building the FMU{'s' * (len(unbuilt) > 1)} of {', '.join(unbuilt)} ...", file=sys.stderr,
                  flush=True)
        return _run(args, config, opened.system, opened.folder)


def _run(args, config, system, folder: Path) -> int:
    out = args.out or folder / "results" / (system.name + ("_monolithic" if args.monolithic else ""))
    if args.out is None:  # the system's own results folder holds its latest run
        config = config.replace(replace_run=True)
    # the folder is this run's, its plots' and its animation's alone until they are written
    with claimed(out, "--out" if args.out is not None else "the results folder"):
        return _run_in(args, config, system, out)


def _plot_chosen(out: Path, patterns) -> str | None:
    """The chosen variables' figure (``--plot``), said as it is written; the
    sentence of a pattern no column answers, or None."""
    from ..reports.plots import plot_chosen  # matplotlib, a second to import: where plots are drawn
    try:
        print(f"writing {Path(out) / 'plots' / 'chosen.png'} ...", file=sys.stderr, flush=True)
        plot_chosen(out, patterns)
    except CraneCosimError as exc:
        return str(exc)
    return None


def _run_in(args, config, system, out: Path) -> int:
    full = False  # a full disk takes no plots
    wrong_plot = None
    try:
        if args.monolithic:
            result = run_monolithic(config.applied_to(system), out, config.progress, size_limit=config.size_limit,
                                    record=config.record, record_every=config.record_every,
                                    replace_run=config.replace_run, timeout=config.timeout)
        else:
            view = view_address(getattr(args, "view", None))
            result = run_cosim(system, out, config, observers=[live_view(view)] if view is not None else [])
    except NoSpaceLeft:
        full = True
        raise
    finally:
        if not full and not args.no_plots and (Path(out) / RESULTS_FILE).exists():
            try:
                from ..reports.plots import plot_run  # matplotlib, a second to import: where plots are drawn
                print(f"writing the plots in {Path(out) / 'plots'} ...", file=sys.stderr, flush=True)
                plot_run(out)
            except Exception as exc:  # plots must never hide the run's own outcome
                print(f"crane-cosim: plots not written: {exc}", file=sys.stderr)
        if not full and getattr(args, "animate", False) and (Path(out) / RESULTS_FILE).exists():
            _animate(out)
        if not full and getattr(args, "output_file", None) is not None and (Path(out) / RESULTS_FILE).exists():
            _write_output_file(out, args.output_file)
        if not full and getattr(args, "plot", None) and (Path(out) / RESULTS_FILE).exists():
            wrong_plot = _plot_chosen(out, args.plot)
    print(f"{system.name}: simulated {result.end_time - system.start_time:g} s in {result.wall_time:.2f} s "
          f"(real-time factor {result.real_time_factor:.2f}); results in {out}")
    if result.status == "ended":
        print(f"crane-cosim: note: the run ended before its stop time: {result.reason}")
    if result.bridges:
        print("\n".join(describe_bridges(result.bridges)))
    for warning in result.warnings or ():
        print(f"crane-cosim: warning: {warning}", file=sys.stderr)
    if result.real_time is not None:
        print(describe(result.real_time))
    if result.coupling_error is not None:
        print(describe_estimate(result.coupling_error))
    if result.status == "degraded":
        print("crane-cosim: error: the run is degraded, not completed: a bridge's peer was silent and the run went "
              "on with held or safe outputs (the warnings above say which and how long)", file=sys.stderr)
        return 1
    if wrong_plot is not None:
        print(f"crane-cosim: error: {wrong_plot}", file=sys.stderr)
        return 2
    return 0


def _animate(out: Path, stream=None) -> Path | None:
    """The run's animation beside its plots, or None: a failure to draw it is
    said, never the run's own outcome hidden.  What it makes is said first,
    on ``stream`` (default stderr): it takes seconds."""
    print(f"writing the 3-D animation page in {out} ...", file=stream or sys.stderr, flush=True)
    try:
        return animate(out)
    except (CraneCosimError, OSError, ValueError) as exc:
        print(f"crane-cosim: animation not written: {exc}", file=sys.stderr)
        return None


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


def cmd_export(args) -> int:
    out = Path(args.out)
    if out.is_dir():
        raise CraneCosimError(f"{out} is a folder; name the .ssp file to write")
    if out.exists() and not args.force:
        raise CraneCosimError(f"{out} already exists; pass --force to replace it")
    config = run_config(args)
    # a refused export leaves no folder it made
    with open_system(args.system) as opened, made_folders_undone(out.parent):
        try:
            write_ssp(config.applied_to(opened.system), out)
        except OSError as exc:  # a read-only folder, under the archive or beside the system's FMUs
            raise unwritable(exc, f"cannot write the archive {out}") from None
    print(f"{opened.system.name}: wrote {out}")
    return 0


def cmd_demo(args) -> int:
    # matplotlib, then numba: where the demo draws and runs
    from ..reports.plots import plot_run
    from ..runtime.compiled.master_warm_up import warm_up_master

    out = Path(args.out)
    # everything the user typed is checked before the minutes of building
    # and compiling
    system = SCENARIOS[args.scenario](base_dir=out)
    if args.stop_time is not None:
        system.stop_time = args.stop_time
        if system.start_time < args.stop_time < system.start_time + system.step:  # the demo has no --step
            raise CraneCosimError(f"--stop-time {args.stop_time:g} s is shorter than the example's step of "
                                  f"{system.step:g} s")
    problems = settings_problems(system, ALGORITHMS, COUPLINGS, EXTRAPOLATIONS)
    if problems:
        raise CraneCosimError(problems[0])
    for folder in (out, out / "fmus", out / "results"):
        check_folder(folder, "--out" if folder == out else "the demo's folder")
    print(f"building FMUs in {out / 'fmus'} ...", flush=True)
    build_all(out / "fmus", only_stale=True)
    # compiled here, each block with its word and bar, not silently in the
    # vessel's settling below, which calls the crane's kernels
    warm_up(models_of(system))
    warm_up_master(for_algorithm=system.algorithm)
    # the example's vessel starts level, as the papers' runs do; the demo's
    # starts at rest under the crane, so that what it shows is the lift's,
    # not the springs' swing about their resting angles
    start = settle_vessel(system)
    ssd = write_ssd(system, out / f"{system.name}.ssd")
    if start:
        angles = ", ".join(f"{name[2:-2]} {math.degrees(v):.2f} deg" for name, v in start.items())
        print(f"the vessel starts at rest under the crane at its start pose: {angles}", flush=True)
    print(f"running {ssd} ({system.stop_time:g} s, step {system.step:g} s, {system.coupling} coupling) ...",
          flush=True)
    result = run_cosim(system, out / "results", replace_run=True)  # the demo's folder holds its latest run
    print(f"writing the plots in {out / 'results' / 'plots'} ...", flush=True)
    plots = plot_run(out / "results")
    page = _animate(out / "results", sys.stdout)
    print(f"simulated {system.stop_time:g} s in {result.wall_time:.2f} s (real-time factor "
          f"{result.real_time_factor:.2f})")
    print(f"system file: {ssd}")
    print(f"results:     {out / 'results' / RESULTS_FILE}")
    print(f"summary:     {out / 'results' / 'summary.json'}")
    for p in plots:
        print(f"plot:        {p}")
    if page is not None:
        print(f"animation:   {page} (open it in a browser)")
    return 0
