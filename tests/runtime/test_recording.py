"""Recording a chosen subset (runtime/recording.py): the columns and rows asked
for, the values of the full run at those points, a smaller file; and the
size estimate that refuses a run that would fill the disk."""
import json
import warnings

import numpy as np
import pandas as pd
import pytest

from crane_cosim.runtime import recording
from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import run_cosim
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.scenarios import crane_on_vessel
from crane_cosim.files.results import read_results, read_table
from crane_cosim.files.results_stream import HEADER_KEY

def _at_1ms(system):
    """``system`` by Gauss-Seidel at 1 ms, the grid these tests count rows on
    (the examples' own steps are 2 to 5 ms)."""
    system.algorithm, system.step = "gauss-seidel", 1e-3
    return system


COLUMNS = ["vessel.q_roll", "vessel.q_pitch", "crane.q_slew", "crane.W_mount_fz", "crane.W_mount_nx",
           "controller.tau_slew"]


@pytest.mark.parametrize("patterns,expected", [
    (None, COLUMNS),
    (["crane.W_*"], ["crane.W_mount_fz", "crane.W_mount_nx"]),
    # the system's order, each column once, whatever the patterns' order
    (["crane.W_mount_fz", "vessel.*", "*.q_roll"], ["vessel.q_roll", "vessel.q_pitch", "crane.W_mount_fz"]),
    ("*.q_?????", ["vessel.q_pitch"]),
])
def test_select_columns(patterns, expected):
    assert [COLUMNS[i] for i in recording.select_columns(COLUMNS, patterns)] == expected


@pytest.mark.parametrize("patterns,fragment", [
    (["crane.W_*", "crane.zzz*"], "the --record pattern 'crane.zzz*' matches no output of the system"),
    (["nobody.q_roll"], "the --record pattern 'nobody.q_roll' names no component of the system "
                        "(components: vessel, crane, controller)"),
    (["crane"], "the --record pattern 'crane' is not of the form component.variable"),
    (["Crane.W_*"], "names no component"),  # case-sensitive, as the names are
    ([], "the --record list is empty"),
])
def test_patterns_that_match_nothing(patterns, fragment):
    with pytest.raises(CraneCosimError, match=None) as info:
        recording.select_columns(COLUMNS, patterns)
    assert fragment in str(info.value)


@pytest.mark.parametrize("n_steps,every,rows", [(10, 1, 11), (10, 2, 6), (10, 3, 5), (10, 10, 2), (10, 11, 2),
                                                (1, 5, 2)])
def test_rows(n_steps, every, rows):
    points = [k for k in range(n_steps + 1) if recording.recorded(k, n_steps, every)]
    assert len(points) == recording.rows_of(n_steps, every) == rows
    assert points[0] == 0 and points[-1] == n_steps  # the start and the last point always


def test_size_limit_and_warning():
    cols = 85
    rows = int(recording.SIZE_LIMIT / recording.BYTES_PER_VALUE / cols) + 1
    with pytest.raises(recording.ResultsTooLarge) as info:
        recording.check_size(rows, cols)
    assert str(info.value).startswith(f"results.arrows would take about 200 MB ({rows} rows of 85 columns), more "
                                      "than the limit of 200 MB: record every N-th point (--record-every N) or "
                                      "fewer variables (--record")
    assert "--force" in str(info.value)
    with pytest.warns(recording.ResultsSizeWarning):  # no limit: the run goes on, with a warning
        assert recording.check_size(rows, cols, limit=None) > recording.SIZE_LIMIT
    with pytest.warns(recording.ResultsSizeWarning, match=r"results.arrows will take about 60 MB"):
        recording.check_size(int(60e6 / recording.BYTES_PER_VALUE / cols), cols)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        recording.check_size(int(40e6 / recording.BYTES_PER_VALUE / cols), cols)  # below: quiet


@pytest.fixture(scope="module")
def full_runs(fmu_dir, tmp_path_factory):
    """Full runs of the crane on the vessel, co-simulation and monolithic."""
    out = tmp_path_factory.mktemp("full")
    runs = {}
    for mode, runner in (("cosim", run_cosim), ("monolithic", run_monolithic)):
        system = _at_1ms(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=STOP))
        runner(system, out / mode, progress=False)
        runs[mode] = out / mode
    return runs


#: 0.6 s: a chunk boundary of the monolithic run (0.5 s) inside, and a last
#: step that is not a multiple of record_every (600 = 7 * 85 + 5)
STOP = 0.6


@pytest.mark.parametrize("mode", ["cosim", "monolithic"])
def test_subset_is_the_full_run_at_the_recorded_points(full_runs, fmu_dir, tmp_path, mode):
    system = _at_1ms(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=STOP))
    runner = run_cosim if mode == "cosim" else run_monolithic
    patterns = ["crane.W_mount_*", "vessel.q_roll"]
    result = runner(system, tmp_path, progress=False, record=patterns, record_every=7)
    full = read_results(full_runs[mode])
    sub = read_results(tmp_path)
    wanted = ["time", "vessel.q_roll"] + [f"crane.W_mount_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")]
    assert list(sub.columns) == wanted and result.columns == wanted[1:]
    rows = list(range(0, 601, 7)) + [600]
    assert len(sub) == len(rows) == recording.rows_of(600, 7)
    # the same numbers, to the last digit written: recording does not touch
    # the computation (the monolithic run's integrator takes the same steps)
    expected = full.iloc[rows][wanted].reset_index(drop=True)
    pd.testing.assert_frame_equal(sub, expected, check_exact=True)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["record"] == patterns and summary["record_every"] == 7 and summary["rows"] == len(rows)
    assert summary["units"] == {"time": "s", "vessel.q_roll": "rad", **{
        f"crane.W_mount_{c}": ("N.m" if c[0] == "n" else "N") for c in ("nx", "ny", "nz", "fx", "fy", "fz")}}
    assert summary["end_time"] == pytest.approx(STOP) and summary["status"] == "completed"
    # the file shrinks with rows and columns (88 of 601 rows, 8 of 100 columns): 8 bytes a value, and
    # the schema, about 190 bytes a column, and each batch's metadata, about 50 (an empty first batch and
    # a second one at most here), and once the run's summary as it started (its settings and components)
    for frame, folder in ((sub, tmp_path), (full, full_runs[mode])):
        size = (folder / "results.arrows").stat().st_size
        header = len(read_table(folder)[0].schema.metadata.get(HEADER_KEY.encode(), b""))
        assert 8 * frame.size < size < 8 * frame.size + 400 * len(frame.columns) + header


def test_a_run_configuration_carries_recording_settings(fmu_dir, tmp_path):
    from crane_cosim.runtime import RunConfig
    system = _at_1ms(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.05))
    run_cosim(system, tmp_path, RunConfig(record=["controller.tau_*"], record_every=10, progress=False))
    df = read_results(tmp_path)
    assert list(df.columns) == ["time", "controller.tau_slew", "controller.tau_boom", "controller.tau_jib"]
    assert np.allclose(df["time"], [0.0, 0.01, 0.02, 0.03, 0.04, 0.05])


@pytest.mark.parametrize("every", [0, -3, 2.5, True])
def test_bad_record_every(fmu_dir, tmp_path, every):
    system = _at_1ms(crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.05))
    with pytest.raises(CraneCosimError, match=r"--record-every must be a whole number of at least 1, got "):
        run_cosim(system, tmp_path, progress=False, record_every=every)
    assert not (tmp_path / "results.arrows").exists()


def test_estimate_against_the_written_size(full_runs):
    """The estimate counts :data:`BYTES_PER_VALUE` per value, 8, a float64's,
    and :data:`COLUMN_BYTES` a column for the schema and the first and last
    batches' metadata (about 190 and 50 each; a 0.6 s run's 601 rows make it
    5% of the file).  The estimate must not fall short by more than a few
    percent (it guards the disk) nor overshoot by more than a third."""
    for path in full_runs.values():
        df = read_results(path)
        actual = (path / "results.arrows").stat().st_size
        estimate = recording.estimate_size(len(df), len(df.columns))
        assert 0.75 * estimate < actual < 1.05 * estimate, (actual, estimate)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["crane_on_vessel", "crane_on_vessel_friction", "knuckle_boom",
                                      "offshore_knuckle_boom"])
def test_bytes_per_value_of_the_examples(fmu_dir, tmp_path, scenario):
    """The figures behind :data:`BYTES_PER_VALUE`: the examples' 20 s runs at
    1 ms write 8 bytes a value and their files' metadata, the schema's about
    190 bytes a column and a batch's about 50 at least every second: under
    1% more, 3% allowed."""
    from crane_cosim.scenarios import SCENARIOS
    system = _at_1ms(SCENARIOS[scenario](base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name))
    run_cosim(system, tmp_path, progress=False)
    df = read_results(tmp_path)
    size = (tmp_path / "results.arrows").stat().st_size
    assert recording.BYTES_PER_VALUE < size / df.size <= 1.03 * recording.BYTES_PER_VALUE
    if scenario == "offshore_knuckle_boom":  # docs/results.md: 20 001 rows, 165 outputs, 27 MB
        assert df.shape == (20001, 166) and 26.5 < size / 1e6 < 27.4


def test_the_example_of_the_docs(fmu_dir, tmp_path):
    """docs/results.md: ``--record 'crane.W_mount_*' --record-every 2`` on
    the offshore knuckle boom crane at its own step, 5 ms: 7 columns at every
    10 ms instead of 172 at every 5 ms (here over 0.1 s of the 20 s)."""
    from crane_cosim.scenarios import offshore_knuckle_boom
    system = offshore_knuckle_boom(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.1)
    assert system.step == 0.005
    full = run_cosim(system, tmp_path / "full", progress=False)
    assert len(full.columns) + 1 == 172
    run_cosim(system, tmp_path / "thin", progress=False, record=["crane.W_mount_*"], record_every=2)
    df = read_results(tmp_path / "thin")
    assert list(df.columns) == ["time"] + [f"crane.W_mount_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")]
    assert np.allclose(df["time"], np.arange(11) * 0.01)
    # 20 s: 2001 rows of 7 values, about 0.1 MB by the estimate; 4001 of 172, 5.6 MB
    assert round(recording.estimate_size(recording.rows_of(4000, 2), 7) / 1e6, 1) == 0.1
    assert round(recording.estimate_size(recording.rows_of(4000, 1), 172) / 1e6, 1) == 5.6
