"""Every example over its whole run at its own settings (the system file's
algorithm and step) against the monolithic run of the same blocks
(docs/master.md).

The error of a run is the worst, over every recorded force and moment (the
outputs in N and N.m whose reference is not zero but for round-off), of the
difference in four norms: RMS and largest, over the reference's peak and
over its range (max - min), the range showing the error of the part that
moves (a gravity-dominated force spreads over a few percent of its peak).
Each bound is about 3x the figure measured on 2026-11-26 (the passes
accelerated by quasi-Newton steps), written beside
it, and the RMS over the peak is at most the 0.1% the examples promise, so
that a regression (a coupling of lower order, a lost pass, a looser
settling, a one-step spike) fails.
"""
import pytest
from references import monolithic_runs

from crane_cosim.runtime import run_cosim
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.files.results import read_results
from crane_cosim.accuracy.comparison import error_norms, force_columns
from crane_cosim.accuracy.coupling_cases import on_shared_grid
from crane_cosim.scenarios import (crane_on_vessel, crane_on_vessel_friction, flexible_crane, hydro_vessel,
                                   knuckle_boom, offshore_knuckle_boom, offshore_lift)

EXAMPLES = {
    "table1": crane_on_vessel,
    "light vessel": lambda **k: crane_on_vessel(vessel_mass=120.0, **k),
    "knuckle boom": knuckle_boom,
    "offshore knuckle boom": offshore_knuckle_boom,
    "friction": crane_on_vessel_friction,
    "flexible crane": flexible_crane,
    "knuckle boom on the barge": hydro_vessel,
    "offshore lift": offshore_lift,
}
NORMS = ("rms_peak", "max_peak", "rms_range", "max_range")
#: the promise: every force within 0.1% of its peak (RMS) at the defaults
PROMISE = 1e-3
#: example: bounds in the order of NORMS, each about 3x the measured figure
#: in the comment beside it (RMS over the peak: at most PROMISE)
BOUNDS = {
    # measured: 2.2e-5, 9.9e-4, 2.6e-5, 1.1e-3 (the iterated midpoint at 2 ms)
    "table1": (6.7e-5, 3.0e-3, 7.7e-5, 3.4e-3),
    # measured: 2.2e-5, 9.1e-4, 2.4e-5, 1.1e-3 (the same settings, 120 kg;
    # 4.2e-5 RMS while the fit divided its rows by the peaks themselves)
    "light vessel": (6.6e-5, 2.7e-3, 7.3e-5, 3.2e-3),
    # measured: 1.6e-5, 5.1e-5, 1.8e-5, 5.4e-5 (the iterated midpoint at 5 ms)
    "knuckle boom": (4.7e-5, 1.5e-4, 5.3e-5, 1.6e-4),
    # measured: 1.7e-4, 2.4e-3, 1.3e-4, 2.0e-3 (the iterated midpoint at 5 ms)
    "offshore knuckle boom": (5.1e-4, 7.3e-3, 3.8e-4, 6.1e-3),
    # measured: 1.5e-4, 6.8e-3, 1.7e-4, 7.7e-3 (the iterated midpoint at 5 ms;
    # the largest where the friction sticks and slips)
    "friction": (4.4e-4, 2.0e-2, 5.0e-4, 2.3e-2),
    # measured: 7.0e-4, 1.8e-3, 4.4e-4, 1.1e-3 (the iterated quadratic at
    # 1 ms; the RMS bound is the promise, 1.4 times the figure)
    "flexible crane": (1.0e-3, 5.4e-3, 1.3e-3, 3.3e-3),
    # measured: 1.5e-4, 1.8e-3, 9.2e-5, 1.0e-3 (the iterated midpoint at 5 ms,
    # 2026-12-04, the barge's start settled on the heeled deck and its memory
    # passive; the worst the cylinders' seal friction)
    "knuckle boom on the barge": (4.6e-4, 5.4e-3, 2.8e-4, 3.1e-3),
    # measured: 3.4e-4, 8.4e-4, 2.5e-3, 5.9e-3 (the iterated midpoint at 1 ms,
    # 2026-12-04, over 60 s; the worst the wire's tension and pull, whose
    # range the tag lines keep small)
    "offshore lift": (1.0e-3, 2.5e-3, 7.4e-3, 1.8e-2),
}
CASES = list(EXAMPLES)


def _system(fmu_dir, example):
    return EXAMPLES[example](base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name)


@pytest.fixture(scope="session")
def reference(tmp_path_factory, worker_id, fmu_dir):
    """The monolithic run of each example, computed once a session."""
    return monolithic_runs(tmp_path_factory, worker_id, "examples", lambda example: _system(fmu_dir, example))


@pytest.mark.parametrize("example", CASES)
def test_whole_example_at_its_defaults_against_monolithic(example, reference, fmu_dir, tmp_path):
    s = _system(fmu_dir, example)
    assert run_cosim(s, tmp_path, progress=False).status == "completed"
    ref = reference(example)
    err = error_norms(read_results(tmp_path), ref, force_columns(s, ref))
    worst = err.max()
    assert BOUNDS[example][0] <= PROMISE
    for n, bound in zip(NORMS, BOUNDS[example]):
        assert worst[n] < bound, (n, err[n].idxmax(), worst[n])


def test_halving_the_step_divides_the_error_by_the_order(fmu_dir, tmp_path):
    """The crane on the Table I vessel, first 4 s (the raise and the start
    of the slew), at 2 ms and 1 ms, on the 20 ms grid both share: the
    iterated midpoint's error falls fourfold (second order; measured
    4.00; its passes settled to 1e-9 of the peaks, so that what is
    measured is the scheme's error, not the remainder of its fixed point),
    Gauss-Seidel's twofold (first order; measured 2.00)."""
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0, step=0.02)
    run_monolithic(s, tmp_path / "mono", progress=False)
    ref = read_results(tmp_path / "mono")
    cols = force_columns(s, ref)
    ratio = {}
    for algorithm in ("iterated-midpoint", "gauss-seidel"):
        e = []
        for h in (2e-3, 1e-3):
            s.step, s.algorithm = h, algorithm
            run_cosim(s, tmp_path / f"{algorithm}_{h}", progress=False, accuracy=1e-7)
            run, r = on_shared_grid(read_results(tmp_path / f"{algorithm}_{h}"), ref)
            e.append(error_norms(run, r, cols)["rms_peak"].max())
        ratio[algorithm] = e[0] / e[1]
    assert 3.6 < ratio["iterated-midpoint"] < 4.4
    assert 1.8 < ratio["gauss-seidel"] < 2.2


#: the first seconds of each example run with the estimate of the coupling
#: error (three runs' time: the run and the one at half the step beside it)
ESTIMATED = 2.5
#: the estimate over the error, RMS and largest alike (measured beside, over
#: the first 2.5 s on 2026-12-03; over 5 s they were the same to 0.03)
ESTIMATE_RATIOS = {
    "table1": (0.8, 1.2),  # 1.00, 1.00
    "light vessel": (0.8, 1.2),  # 1.00, 1.00
    # 1.80, 1.81: the error (1.7e-5 of the peaks over 5 s) is near the
    # passes' settling (1e-5), a remainder that the estimate counts in too
    "knuckle boom": (1.4, 2.2),
    "offshore knuckle boom": (0.8, 1.2),  # 1.03, 1.03
    "friction": (0.8, 1.2),  # 1.02, 1.03
    "flexible crane": (0.8, 1.2),  # 0.99, 0.99 (fourth order)
    "knuckle boom on the barge": (0.8, 1.2),  # 1.01, 0.98
    "offshore lift": (0.8, 1.2),  # 0.99, 1.01
}


@pytest.mark.parametrize("example", CASES)
def test_the_estimate_tracks_the_error_against_the_monolithic_run(example, reference, fmu_dir, tmp_path):
    """The master's estimate of its own coupling error (Richardson
    extrapolation against the run at half the step,
    ``runtime/observers/estimate.py``) over the first 2.5 s of every example
    at its defaults: its largest and its RMS over the peak, the worst over
    the forces, against the same norms of the difference from the
    monolithic run: within a fifth of it (measured: within 3%), but where
    the error is near the passes' settling (:data:`ESTIMATE_RATIOS`)."""
    s = _system(fmu_dir, example)
    s.stop_time = ESTIMATED
    found = run_cosim(s, tmp_path, progress=False, estimate=True).coupling_error
    ref = reference(example)
    ref = ref[ref["time"] <= ESTIMATED + 1e-9].reset_index(drop=True)
    err = error_norms(read_results(tmp_path), ref, force_columns(s, ref)).max()
    low, high = ESTIMATE_RATIOS[example]
    assert low < found["rms"] / err["rms_peak"] < high, (found["rms"], err["rms_peak"])
    assert low < found["largest"] / err["max_peak"] < high, (found["largest"], err["max_peak"])


def test_with_a_tolerance_the_run_meets_it(reference, fmu_dir, tmp_path):
    """The crane on the Table I vessel, first 4 s, Gauss-Seidel at 1 ms, asked
    for 1% of peak in the max norm: at 1 ms the estimate is 4.7%
    (measured), so the first-order coupling needs an eighth of the step;
    at 0.125 ms the estimate (0.59%) and the error against the monolithic
    run (0.47%), on the same recorded points, are within it."""
    s = _system(fmu_dir, "table1")
    s.stop_time, s.step, s.algorithm = 4.0, 1e-3, "gauss-seidel"
    found = run_cosim(s, tmp_path, progress=False, tolerance=1e-2).coupling_error
    assert found["met"] and found["step"] == s.step / 8
    assert [t["step"] for t in found["steps_tried"]] == [s.step]
    ref = reference("table1")
    ref = ref[ref["time"] <= 4.0 + 1e-9].reset_index(drop=True)
    run, ref = on_shared_grid(read_results(tmp_path), ref)
    err = error_norms(run, ref, force_columns(s, ref)).max()
    assert found["largest"] <= 1e-2 and err["max_peak"] <= 1e-2
