"""Every example over its whole run at a 1 ms step against the monolithic
run of the same blocks (validation ladder step 5, ``docs/master.md``).

The error of a run is the worst, over every recorded force and moment (the
outputs in N and N.m whose reference is not zero but for round-off), of the
difference in four norms: RMS and largest, over the reference's peak and
over its range (max - min), the range showing the error of the part that
moves (a gravity-dominated force spreads over a few percent of its peak).
Each bound is about 3x the figure measured on 2026-11-24, written beside it,
so that a regression (a coupling of lower order, a lost pass, a one-step
spike) fails.  Gauss-Seidel is the examples' default, the iterated midpoint
(passes until the mid-step values settle) the accurate setting; the
flexible crane runs as its example does (one re-step pass), and with the
iterated quadratic, its accurate setting.
"""
import numpy as np
import pytest
from references import monolithic_runs

from crane_cosim.runtime import run_cosim
from crane_cosim.hosts.monolithic import run_monolithic
from crane_cosim.files.results import error_norms, force_columns, read_results
from crane_cosim.scenarios import (crane_on_vessel, crane_on_vessel_friction, flexible_crane, knuckle_boom,
                                   offshore_knuckle_boom)

EXAMPLES = {
    "table1": crane_on_vessel,
    "light vessel": lambda **k: crane_on_vessel(vessel_mass=120.0, **k),
    "knuckle boom": knuckle_boom,
    "offshore knuckle boom": offshore_knuckle_boom,
    "friction": crane_on_vessel_friction,
    "flexible crane": flexible_crane,
}
NORMS = ("rms_peak", "max_peak", "rms_range", "max_range")
#: (example, algorithm): bounds in the order of NORMS, each about 3x the
#: measured figure in the comment beside it
BOUNDS = {
    # measured: 8.6e-3, 4.4e-2, 4.7e-3, 5.0e-2
    ("table1", "gauss-seidel"): (2.6e-2, 0.13, 1.4e-2, 0.15),
    # measured: 5.5e-6, 2.4e-4, 6.3e-6, 2.8e-4
    ("table1", "iterated-midpoint"): (1.7e-5, 7.3e-4, 1.9e-5, 8.4e-4),
    # measured: 1.5e-2, 9.4e-2, 8.0e-3, 4.9e-2
    ("light vessel", "gauss-seidel"): (4.6e-2, 0.28, 2.4e-2, 0.15),
    # measured: 2.5e-5, 2.3e-4, 1.3e-5, 2.6e-4
    ("light vessel", "iterated-midpoint"): (7.4e-5, 6.8e-4, 3.8e-5, 7.9e-4),
    # measured: 2.2e-4, 9.3e-4, 2.1e-4, 1.0e-3
    ("knuckle boom", "gauss-seidel"): (6.7e-4, 2.8e-3, 6.3e-4, 3.1e-3),
    # measured: 6.3e-7, 2.0e-6, 7.3e-7, 2.1e-6
    ("knuckle boom", "iterated-midpoint"): (1.9e-6, 6.1e-6, 2.2e-6, 6.2e-6),
    # measured: 3.9e-3, 4.2e-2, 2.2e-3, 2.5e-2
    ("offshore knuckle boom", "gauss-seidel"): (1.2e-2, 0.13, 6.7e-3, 7.6e-2),
    # measured: 1.2e-5, 1.8e-4, 1.4e-5, 1.1e-4
    ("offshore knuckle boom", "iterated-midpoint"): (3.7e-5, 5.4e-4, 4.3e-5, 3.2e-4),
    # measured: 8.6e-3, 4.4e-2, 5.3e-3, 5.0e-2
    ("friction", "gauss-seidel"): (2.6e-2, 0.13, 1.6e-2, 0.15),
    # measured: 5.5e-6, 2.4e-4, 6.3e-6, 2.8e-4
    ("friction", "iterated-midpoint"): (1.7e-5, 7.3e-4, 1.9e-5, 8.4e-4),
    # measured: 0.15, 0.99, 0.12, 0.97 (first order with a 111 Hz boom at
    # omega h = 0.7; the largest is the step of the drive's torque, read a
    # step late)
    ("flexible crane", "gauss-seidel"): (0.45, 3.0, 0.35, 2.9),
    # measured: 1.4e-2, 3.5e-2, 8.6e-3, 2.1e-2 (the phase drift of the base's
    # undamped 40.7 Hz mode, docs/master.md)
    ("flexible crane", "iterated-midpoint"): (4.1e-2, 0.10, 2.6e-2, 6.3e-2),
    # measured: 7.0e-4, 1.8e-3, 4.4e-4, 1.1e-3; the RMS bound is the 0.1%
    # docs/coupling-error.md promises
    ("flexible crane", "iterated-quadratic"): (1.0e-3, 5.4e-3, 1.3e-3, 3.3e-3),
}
#: every example with both algorithms, and the flexible crane with the
#: iterated quadratic
CASES = [(e, a) for e in EXAMPLES for a in ("gauss-seidel", "iterated-midpoint")] + [
    ("flexible crane", "iterated-quadratic")]


def _system(fmu_dir, example):
    return EXAMPLES[example](base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name)


@pytest.fixture(scope="session")
def reference(tmp_path_factory, fmu_dir):
    """The monolithic run of each example, computed once a session."""
    return monolithic_runs(tmp_path_factory, lambda example: _system(fmu_dir, example))


@pytest.mark.parametrize("example, algorithm", CASES)
def test_whole_example_against_monolithic(example, algorithm, reference, fmu_dir, tmp_path):
    s = _system(fmu_dir, example)
    if s.algorithm != algorithm:
        s.algorithm, s.iterations = algorithm, None
    assert run_cosim(s, tmp_path, progress=False).status == "completed"
    ref = reference(example)
    err = error_norms(read_results(tmp_path), ref, force_columns(s, ref))
    worst = err.max()
    for n, bound in zip(NORMS, BOUNDS[example, algorithm]):
        assert worst[n] < bound, (n, err[n].idxmax(), worst[n])


def test_halving_the_step_divides_the_error_by_the_order(fmu_dir, tmp_path):
    """The crane on the Table I vessel, first 4 s (the raise and the start
    of the slew), at 2 ms and 1 ms, on the 20 ms grid both share: the
    iterated midpoint's error falls fourfold (second order; measured
    4.00), Gauss-Seidel's twofold (first order; measured 2.00)."""
    from crane_cosim.studies.coupling_study import on_shared_grid
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0, step=0.02)
    run_monolithic(s, tmp_path / "mono", progress=False)
    ref = read_results(tmp_path / "mono")
    cols = force_columns(s, ref)
    ratio = {}
    for algorithm in ("iterated-midpoint", "gauss-seidel"):
        e = []
        for h in (2e-3, 1e-3):
            s.step, s.algorithm = h, algorithm
            run_cosim(s, tmp_path / f"{algorithm}_{h}", progress=False)
            run, r = on_shared_grid(read_results(tmp_path / f"{algorithm}_{h}"), ref)
            e.append(error_norms(run, r, cols)["rms_peak"].max())
        ratio[algorithm] = e[0] / e[1]
    assert 3.6 < ratio["iterated-midpoint"] < 4.4
    assert 1.8 < ratio["gauss-seidel"] < 2.2


#: the first seconds of each example run with the estimate of the coupling
#: error (three runs' time: the run and the one at half the step beside it)
ESTIMATED = 5.0


@pytest.mark.parametrize("example, algorithm", CASES)
def test_the_estimate_tracks_the_error_against_the_monolithic_run(example, algorithm, reference, fmu_dir,
                                                                  tmp_path):
    """The master's estimate of its own coupling error (Richardson
    extrapolation against the run at half the step,
    ``runtime/observers/estimate.py``) over the first 5 s of every example
    at 1 ms: its largest and its RMS over the peak, the worst over the
    forces, against the same norms of the difference from the monolithic
    run.  Measured ratios: RMS 0.90 (the flexible crane, Gauss-Seidel), 0.96
    (the offshore knuckle boom, iterated midpoint), 0.99-1.00 for the rest;
    largest 0.96-1.08, but for the flexible crane with Gauss-Seidel: 0.35,
    whose largest error is the one-step spike where the drive's torque
    steps and is read a step late, an error that does not scale with the
    step as the estimate assumes.  The flexible crane with the iterated
    midpoint makes the one re-step pass of its example, fewer than the
    links of direct feedthrough against its order: the estimate takes
    first order, which the passes guarantee, and is 1.48 of the error
    (RMS; conservative: at 1 ms its error still halves about as fast
    as a second-order one's).  The flexible crane with the iterated
    quadratic: 0.99 and 0.99."""
    s = _system(fmu_dir, example)
    if s.algorithm != algorithm:
        s.algorithm, s.iterations = algorithm, None
    s.stop_time = ESTIMATED
    found = run_cosim(s, tmp_path, progress=False, estimate=True).coupling_error
    ref = reference(example)
    ref = ref[ref["time"] <= ESTIMATED + 1e-9].reset_index(drop=True)
    err = error_norms(read_results(tmp_path), ref, force_columns(s, ref)).max()
    conservative = (example, algorithm) == ("flexible crane", "iterated-midpoint")
    low, high = (1.3, 1.7) if conservative else (0.7, 1.3)
    assert low < found["rms"] / err["rms_peak"] < high, (found["rms"], err["rms_peak"])
    low, high = {("flexible crane", "gauss-seidel"): (0.25, 0.5)}.get((example, algorithm),
                                                                    (1.3, 1.7) if conservative else (0.75, 1.25))
    assert low < found["largest"] / err["max_peak"] < high, (found["largest"], err["max_peak"])


def test_with_a_tolerance_the_run_meets_it(reference, fmu_dir, tmp_path):
    """The crane on the Table I vessel, first 4 s, Gauss-Seidel, asked for
    1% of peak in the max norm: at the example's 1 ms the estimate is 4.7%
    (measured), so the first-order coupling needs an eighth of the step;
    at 0.125 ms the estimate (0.59%) and the error against the monolithic
    run (0.47%), on the same recorded points, are within it."""
    s = _system(fmu_dir, "table1")
    s.stop_time = 4.0
    found = run_cosim(s, tmp_path, progress=False, tolerance=1e-2).coupling_error
    assert found["met"] and found["step"] == s.step / 8
    assert [t["step"] for t in found["steps_tried"]] == [s.step]
    ref = reference("table1")
    ref = ref[ref["time"] <= 4.0 + 1e-9].reset_index(drop=True)
    err = error_norms(read_results(tmp_path), ref, force_columns(s, ref)).max()
    assert found["largest"] <= 1e-2 and err["max_peak"] <= 1e-2
