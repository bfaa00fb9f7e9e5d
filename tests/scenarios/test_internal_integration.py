"""The multibody FMUs' own integration (classic Runge-Kutta, ``h_max`` =
1 ms by default) is accurate enough that a co-simulation's error is the
coupling's: over the whole 20 s of an example at a 1 ms macro step, every
output agrees with the same run at half the internal step to well within
1e-6 of its peak.  The macro steps, and so the inputs held over each, are
the same in both runs, and their passes settle to a hundredth of the
accuracy asked, 1e-9 of the peaks on the light vessel and 1e-11 on the
knuckle boom crane, so that only the FMUs' integration differs (on the
knuckle boom crane, whose integration error is smaller still, the
difference measured is that settling's).  Halving a fourth-order step divides its error
by 16, so the difference is 15/16 of the default's own error."""
import numpy as np
import pytest

from crane_cosim.runtime import RunConfig, run_cosim
from crane_cosim.scenarios import crane_on_vessel, knuckle_boom
from crane_cosim.files.results import read_results


def _run(system, folder, accuracy):
    assert run_cosim(system, folder, RunConfig(accuracy=accuracy, progress=False)).status == "completed"
    return read_results(folder)


def largest_relative_difference(run, reference) -> float:
    """max over outputs of max|run - reference| / peak|reference|, leaving
    out outputs zero but for round-off (peak below 1e-8 of the largest of
    their component's outputs of the same kind)."""
    worst = 0.0
    columns = [c for c in reference.columns if c != "time"]
    scale = {}
    for c in columns:
        scale[c.split(".")[0]] = max(scale.get(c.split(".")[0], 0.0), np.abs(reference[c]).max())
    for c in columns:
        peak = np.abs(reference[c]).max()
        if peak > 1e-8 * scale[c.split(".")[0]]:
            worst = max(worst, np.abs(run[c] - reference[c]).max() / peak)
    return worst


@pytest.mark.parametrize("example, multibody, accuracy, measured", [
    (lambda d: crane_on_vessel(d.parent, d.name, vessel_mass=120.0), ("vessel", "crane"), 1e-7, 8.8e-8),
    (lambda d: knuckle_boom(d.parent, d.name), ("crane",), 1e-9, 2.4e-11),
], ids=["crane on the light vessel", "knuckle boom"])
def test_internal_integration_error_is_far_below_the_coupling_error(fmu_dir, tmp_path, example, multibody,
                                                                    accuracy, measured):
    runs = []
    for h_max in (1e-3, 5e-4):
        s = example(fmu_dir)
        for name in multibody:
            s.set_parameter(f"{name}.h_max", h_max)
        runs.append(_run(s, tmp_path / f"h_max_{h_max}", accuracy))
    assert largest_relative_difference(*runs) < 3 * measured  # measured: beside each case
