"""Waves moving the vessel under the crane (``blocks/waves.py``), as FMUs:
the co-simulation against the monolithic run of the same blocks, the same
sea from the same seed, bit for bit, and the vessel's motion recorded and
played back (``blocks/prescribed_vessel.py``)."""
import numpy as np

from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.files.results import read_results
from crane_cosim.accuracy.comparison import error_norms, force_columns
from crane_cosim.scenarios import crane_on_vessel

SEA = {"Hs": 2.0, "Tp": 8.0, "heading": 1.2, "seed": 4.0}


def _system(fmu_dir, **sea):
    return crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0, sea={**SEA, **sea})


def test_waves_move_the_vessel_and_the_cosimulation_follows(fmu_dir, tmp_path):
    """The crane on the Table I vessel in a sea of Hs = 2 m over 4 s at
    1 ms, Gauss-Seidel: the waves roll the vessel up to 0.96 deg away from
    its roll in calm water (measured), and every force is within 0.37% of
    its peak (RMS) of the monolithic run (measured 0.12%, the controller's
    slewing torque), the first-order coupling's error as in calm water."""
    s = _system(fmu_dir)
    assert [c.name for c in s.components][0] == "waves"
    run_monolithic(s, tmp_path / "mono", progress=False)
    run_cosim(s, tmp_path / "co", progress=False)
    ref, co = (read_results(tmp_path / d) for d in ("mono", "co"))
    err = error_norms(co, ref, force_columns(s, ref))
    assert err["rms_peak"].max() < 3.7e-3, err["rms_peak"].idxmax()
    calm = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0)
    run_cosim(calm, tmp_path / "calm", progress=False)
    still = read_results(tmp_path / "calm")
    moved = np.degrees(np.abs(co["vessel.q_roll"] - still["vessel.q_roll"]).max())
    assert 0.86 < moved < 1.06


def test_the_same_seed_gives_the_same_run_bit_for_bit(fmu_dir, tmp_path):
    runs = []
    for k, seed in enumerate((4.0, 4.0, 5.0)):
        s = _system(fmu_dir, seed=seed)
        s.stop_time = 0.5
        run_cosim(s, tmp_path / str(k), progress=False)
        runs.append(read_results(tmp_path / str(k)))  # every value, compared exactly
    assert runs[0].equals(runs[1]) and not runs[0].equals(runs[2])


def test_a_recorded_motion_played_back_gives_the_cranes_wrench(fmu_dir, tmp_path):
    """The run above, its vessel's roll, pitch and yaw recorded at 1 ms and
    played back by a PrescribedVessel in the Vessel's place (``replace``):
    the crane on that motion gives the interface wrench of the run within
    5.6e-4 of its peak (RMS; measured 1.9e-4) and 5.4e-3 at any point
    (measured 1.8e-3).  The difference is in the mount's acceleration: in
    the run the vessel's own, with the crane's load exchanged once a step
    (Gauss-Seidel), in the playback the second derivative of the splined
    angles."""
    from crane_cosim.fmus.build import build_fmu
    s = _system(fmu_dir)
    run_cosim(s, tmp_path / "run", progress=False)
    build_fmu("PrescribedVessel", tmp_path / "fmus")
    play = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0)
    replace_component(play, "vessel", tmp_path / "fmus" / "PrescribedVessel.fmu")
    play.set_parameter("vessel.file", str(tmp_path / "run" / "results.arrows"))  # a run's own results
    for angle in ("roll", "pitch", "yaw"):
        play.set_parameter(f"vessel.{angle}", f"vessel.q_{angle}")
    run_cosim(play, tmp_path / "play", progress=False)
    recorded, played = (read_results(tmp_path / d) for d in ("run", "play"))
    wrench = [c for c in recorded.columns if c.startswith("crane.W_mount_")]
    err = error_norms(played, recorded, wrench).max()
    assert err["rms_peak"] < 5.6e-4 and err["max_peak"] < 5.4e-3, err
