"""A payload on a hoist wire from the tip of the crane on the vessel
(``scenarios.add_payload``), as FMUs: the co-simulation against the
monolithic run of the same blocks."""
from crane_cosim.accuracy.comparison import error_norms, force_columns
from crane_cosim.files.results import read_results
from crane_cosim.monolithic.reference import run_monolithic
from crane_cosim.runtime import replace_component, run_cosim
from crane_cosim.scenarios import crane_on_vessel

#: 20 kg on 1.5 m of a soft wire (EA 20 kN: 13 kN/m, 26 rad/s vertically) under the 90 kg crane of Table I
PAYLOAD = {"m_payload": 20.0, "EA": 2e4, "l_wire_0": 1.5, "beta_wire": 0.01}


def test_a_payload_on_the_crane_cosimulates_as_the_monolithic_run(fmu_dir, tmp_path):
    """The crane on the vessel with the payload over 4 s at the example's
    defaults (iterated midpoint, 2 ms): the crane's booms sag at the start
    (its PD law holds no weight), throwing the wire slack, and the payload
    snaps it taut again (tension 0 to 283 N against a weight of 196 N);
    every force is within 0.16% of its peak (RMS) of the monolithic run
    (measured 0.054%, the wire's pull on the tip) and 2.8% at any point
    (measured 0.92%, at a snap)."""
    s = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=4.0, payload=PAYLOAD)
    assert run_monolithic(s, tmp_path / "mono", progress=False).status == "completed"
    assert run_cosim(s, tmp_path / "co", progress=False).status == "completed"
    ref, co = (read_results(tmp_path / d) for d in ("mono", "co"))
    assert ref["payload.slack"].max() == 1.0 and ref["payload.T_wire"].max() > 1.4 * 20.0 * 9.81
    err = error_norms(co, ref, force_columns(s, ref))
    assert err["rms_peak"].max() < 1.6e-3, err["rms_peak"].idxmax()
    assert err["max_peak"].max() < 2.8e-2, err["max_peak"].idxmax()


def test_a_rigid_payload_swaps_in_for_the_point_mass(fmu_dir, tmp_path):
    """``RigidPayload.fmu`` in the point mass's place, with the same
    parameters: with its lift point at its centre of gravity the run is the
    point mass's bit for bit (every column the two share); a 20 kg box of
    0.3 m hanging 0.2 m below its lift point co-simulates as its monolithic
    run: every force within 0.23% of its peak (RMS; measured 0.076%, the
    wire's pull) and 2.8% at any point (measured 0.92%, at a snap).  Here
    the payload bounces on its wire without swinging, so its rotation stays
    at rest (tests/blocks/test_rigid_payload.py swings it)."""
    point = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=2.0, payload=PAYLOAD)
    run_cosim(point, tmp_path / "point", progress=False)
    rigid = crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=2.0, payload=PAYLOAD)
    replace_component(rigid, "payload", fmu_dir / "RigidPayload.fmu")
    rigid.set_parameter("payload.h_hook", 0.0)
    run_cosim(rigid, tmp_path / "rigid", progress=False)
    a, b = (read_results(tmp_path / d) for d in ("point", "rigid"))
    shared = [c for c in a.columns if c in b.columns]
    assert len(shared) == len(a.columns) and a[shared].equals(b[shared])
    for name, value in (("h_hook", 0.2), ("I_xx", 0.3), ("I_yy", 0.3), ("I_zz", 0.3)):
        rigid.set_parameter(f"payload.{name}", value)
    assert run_monolithic(rigid, tmp_path / "mono", progress=False).status == "completed"
    assert run_cosim(rigid, tmp_path / "co", progress=False).status == "completed"
    ref, co = (read_results(tmp_path / d) for d in ("mono", "co"))
    err = error_norms(co, ref, force_columns(rigid, ref))
    assert err["rms_peak"].max() < 2.3e-3, err["rms_peak"].idxmax()
    assert err["max_peak"].max() < 2.8e-2, err["max_peak"].idxmax()
