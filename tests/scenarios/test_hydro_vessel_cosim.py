"""The knuckle boom crane on the floating barge (``examples/hydro_vessel``):
the crane's interface wrench against the crane alone on the barge's
recorded motion in six degrees of freedom."""
import pytest

from crane_cosim.files.results import read_results
from crane_cosim.accuracy.comparison import error_norms
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.scenarios import hydro_vessel


def test_the_barges_recorded_motion_played_back_gives_the_cranes_wrench(fmu_dir, tmp_path):
    """The example over 3 s in its sea, the barge's surge, sway, heave,
    roll, pitch and yaw recorded at every 5 ms step and played back by a
    PrescribedVessel in its place (the mount 12 m aft of and 2 m above the
    centre of gravity): the crane on that motion gives the run's interface
    wrench within 3.6e-5 of its peak (RMS; measured 1.2e-5; 5.8e-6 over 6
    s) and 5.8e-4 at any point (measured 1.9e-4).  The difference is in the
    mount's acceleration: in the run the barge's own, solved with the
    crane's articulated inertia, in the playback the second derivative of
    the splined record.  The barge's values (its sea, its start) are left
    out of the PrescribedVessel, with a warning."""
    run = hydro_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=3.0)
    run_cosim(run, tmp_path / "run", progress=False)
    play = hydro_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=3.0)
    with pytest.warns(UserWarning, match="the system's values of Hs, Tp, heading, seed, q_surge_0"):
        replace_component(play, "vessel", fmu_dir / "PrescribedVessel.fmu")
    play.set_parameter("vessel.file", str(tmp_path / "run" / "results.arrows"))
    for dof in ("roll", "pitch", "yaw", "surge", "sway", "heave"):
        play.set_parameter(f"vessel.{dof}", f"vessel.q_{dof}")
    for name, value in (("l_mount", 2.0), ("mount_dx", -12.0), ("mount_dy", 0.0)):
        play.set_parameter(f"vessel.{name}", value)
    run_cosim(play, tmp_path / "play", progress=False)
    recorded, played = (read_results(tmp_path / d) for d in ("run", "play"))
    wrench = [c for c in recorded.columns if c.startswith("crane.W_mount_")]
    err = error_norms(played, recorded, wrench)
    assert err.max()["rms_peak"] < 3.6e-5 and err.max()["max_peak"] < 5.8e-4, err
