"""The coupling error estimate by Richardson extrapolation (its arithmetic
on series of known error, and what the command says about it).  Against
the monolithic run of every example: ``test_example_accuracy.py``."""
import json

import numpy as np
import pandas as pd
import pytest

from crane_cosim.cli import main
from crane_cosim.runtime.observers.estimate import FLOOR, CouplingEstimate
from crane_cosim.runtime import run_cosim
from crane_cosim.files.results import read_results
from crane_cosim.accuracy.comparison import error_norms
from crane_cosim.scenarios import crane_on_vessel

COLUMNS = ["crane.W_fx", "crane.W_nz", "crane.q1", "crane.W_fy", "vessel.F"]
UNITS = ["N", "N.m", "rad", "N", "N"]


def series(order, h, times):
    """Outputs whose error at step h is exactly C h^order g(t): the exact
    ones, and those of the runs at h and at h/2."""
    exact = np.stack([1e4 * np.sin(times), 3e3 * np.cos(2 * times), times, 0.0 * times, 50 + 0 * times], axis=1)
    shape = np.stack([np.cos(3 * times), times, np.sin(times), 0.0 * times, np.sin(times)], axis=1)
    return exact, exact + 7.0 * h ** order * shape, exact + 7.0 * (h / 2) ** order * shape


@pytest.mark.parametrize("order", [1, 2])
def test_the_estimate_is_the_error_of_a_series_whose_error_is_c_h_to_the_order(order):
    """Where the error is C h^p exactly, (y_h - y_{h/2}) 2^p / (2^p - 1) is
    it, to round-off; the largest and the RMS over the run are the max and
    RMS norms over the peak of :func:`comparison.error_norms`."""
    times = np.linspace(0.01, 5, 500)
    exact, y, y_half = series(order, 0.01, times)
    rating = CouplingEstimate(COLUMNS, UNITS, order)
    for t, a, b, e in zip(times, y, y_half, exact):
        rating.update(t, a, b)
        np.testing.assert_allclose(rating.error, (a - e)[rating.index], rtol=1e-9, atol=1e-9)
    found = rating.summary()
    run = pd.DataFrame(y, columns=COLUMNS).assign(time=times)
    # the force that stays zero aside (its error is zero); the estimate
    # scales by the run's peak, the norms by the reference's
    moving = [n for n in rating.names if n != "crane.W_fy"]
    norms = error_norms(run, pd.DataFrame(exact, columns=COLUMNS).assign(time=times), moving)
    peak_ratio = np.abs(pd.DataFrame(exact, columns=COLUMNS)[moving]).max() / np.abs(run[moving]).max()
    by = found["by_output"]
    np.testing.assert_allclose([by[n]["rms"] for n in moving], norms["rms_peak"] * peak_ratio, rtol=1e-9)
    np.testing.assert_allclose([by[n]["largest"] for n in moving], norms["max_peak"] * peak_ratio, rtol=1e-9)
    assert by["crane.W_fy"] == {"largest": 0.0, "rms": 0.0}
    assert found["largest"] == pytest.approx((norms["max_peak"] * peak_ratio).max(), rel=1e-9)
    assert found["rms"] == pytest.approx((norms["rms_peak"] * peak_ratio).max(), rel=1e-9)
    assert found["order"] == order


def test_the_forces_and_moments_are_estimated_and_an_output_zero_throughout_is_not_divided_by_zero():
    rating = CouplingEstimate(COLUMNS, UNITS, 1)
    assert rating.names == ["crane.W_fx", "crane.W_nz", "crane.W_fy", "vessel.F"]
    y = np.array([100.0, 10.0, 0.5, 0.0, 50.0])
    rating.update(0.001, y, y - np.array([1.0, 0.0, 0.0, 1e-7, 0.0]))
    by = rating.summary()["by_output"]
    assert by["crane.W_fx"]["largest"] == pytest.approx(2 * 1.0 / 100.0)
    # W_fy is zero: its error is measured against FLOOR of crane's largest force
    assert by["crane.W_fy"]["largest"] == pytest.approx(2 * 1e-7 / (FLOOR * 100.0))
    assert CouplingEstimate(["a.x", "a.y"], ["m", "rad"], 1).names == ["a.x", "a.y"]  # no force: every output


def test_the_order_is_the_algorithms_where_it_converges():
    from crane_cosim.runtime.algorithms import ALGORITHMS
    assert {name: cls.order for name, cls in ALGORITHMS.items()} == {
        "jacobi": 1, "gauss-seidel": 1, "iterated-midpoint": 2, "iterated-quadratic": 4}


@pytest.mark.parametrize("algorithm, iterations, order", [
    ("iterated-midpoint", 1, 1), ("iterated-midpoint", 2, 2), ("iterated-midpoint", None, 2),
    ("iterated-quadratic", 1, 1), ("iterated-quadratic", 2, 2), ("iterated-quadratic", 4, 3),
    ("iterated-quadratic", 6, 4), ("iterated-quadratic", None, 4),
])
def test_the_order_comes_from_the_passes_made(tmp_path, integrator_fmu, algorithm, iterations, order):
    """Three integrators where a value reaches the first through two links
    of direct feedthrough (``test_iterated_midpoint._chain``): a sweep of
    two passes gains an order, up to the algorithm's, and the estimate
    takes the order of the passes the run made."""
    from test_iterated_midpoint import _chain
    s = _chain(integrator_fmu, 0.02, iterations, stop_time=0.2)
    s.algorithm = algorithm
    result = run_cosim(s, tmp_path / "out", progress=False, estimate=True)
    assert result.coupling_error["order"] == order


@pytest.mark.parametrize("iterations, order", [(1, 1), (2, 2), (4, 3), (6, 4)])
def test_the_iterated_quadratics_passes_give_the_order_taken(tmp_path, integrator_fmu, iterations, order):
    """On the same chain over 1 s, halving the step from 0.04 s divides
    the error by 2**order: measured 1.94, 3.95, 7.87 and 15.95, within 3%
    of it."""
    from test_iterated_midpoint import _chain, _chain_error, _run
    errors = []
    for h in (0.04, 0.02):
        s = _chain(integrator_fmu, h, iterations)
        s.algorithm = "iterated-quadratic"
        errors.append(_chain_error(_run(s, tmp_path / f"h{h}")))
    assert errors[0] / errors[1] == pytest.approx(2 ** order, rel=0.05)


def test_the_estimate_is_on_disk_and_in_the_summary(tmp_path, fmu_dir):
    system = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.2)
    result = run_cosim(system, tmp_path / "out", progress=False, estimate=True)
    errors = pd.read_csv(tmp_path / "out" / "coupling_error.csv")
    results = read_results(tmp_path / "out")
    # the same points: coupling_error.csv keeps 12 significant digits, results.arrows every bit
    np.testing.assert_allclose(errors["time"], results["time"], rtol=1e-12, atol=0)
    assert "crane.W_mount_fx" in errors.columns and "crane.q1" not in errors.columns
    assert (errors.iloc[0, 1:] == 0).all() and (errors.iloc[1:, 1:] != 0).any().any()
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["estimate"] is True and summary["coupling_error"] == result.coupling_error
    largest = max(v["largest"] for v in result.coupling_error["by_output"].values())
    assert result.coupling_error["largest"] == largest > 0


def test_the_command_prints_the_estimate(capsys, tmp_path, fmu_dir):
    from crane_cosim.ssp import write_ssd

    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.2), tmp_path / "s.ssd")
    assert main(["run", str(ssd), "--estimate", "--no-plots", "--out", str(tmp_path / "out")]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())["coupling_error"]
    assert line.startswith(f"coupling error estimate: at most {summary['largest']:.2g} of peak "
                           f"({summary['largest_output']} at t = "), line


@pytest.mark.parametrize("options, fragment", [
    (["--tolerance", "0"], "the tolerance 0.0 must be a fraction of peak between 0 and 1"),
    (["--tolerance", "2"], "the tolerance 2.0 must be a fraction of peak between 0 and 1"),
    (["--tolerance", "1e-3", "--real-time"], "a tolerance may run the system again at a smaller step"),
    (["--estimate", "--monolithic"], "--estimate, --tolerance and --accuracy concern the coupling of a co-simulation"),
])
def test_the_command_refuses_an_estimate_it_cannot_make(capsys, tmp_path, fmu_dir, options, fragment):
    from crane_cosim.ssp import write_ssd

    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.2), tmp_path / "s.ssd")
    assert main(["run", str(ssd), "--no-plots", "--out", str(tmp_path / "out"), *options]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("crane-cosim: error: ") and fragment in err, err
    assert not (tmp_path / "out" / "results.arrows").exists()


def test_a_tolerance_not_met_at_the_smallest_step_keeps_the_results_and_says_so(capsys, tmp_path, fmu_dir,
                                                                                 monkeypatch):
    from crane_cosim.runtime import run
    from crane_cosim.ssp import write_ssd

    monkeypatch.setattr(run, "HALVINGS", 1)
    ssd = write_ssd(crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.2, step=1e-3,
                                    algorithm="gauss-seidel"), tmp_path / "s.ssd")
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--tolerance", "1e-9", "--no-plots", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("crane-cosim: error: the estimated coupling error "), err
    assert "is over the tolerance 1e-09 even at the smallest step tried, 0.0005 s" in err and str(out) in err
    summary = json.loads((out / "summary.json").read_text())
    # the status says what the exit says: what was asked is not met
    assert summary["status"] == "failed" and "over the tolerance 1e-09" in summary["error"]
    assert summary["step"] == 0.0005 and summary["end_time"] == 0.2
    found = summary["coupling_error"]
    assert found["met"] is False and [t["step"] for t in found["steps_tried"]] == [0.001]
    # the points recorded are the system's step's
    assert len(read_results(out)) == 201
