"""Signal.fmu in a host: the points set as a String parameter (a table, or a
file in the host's working folder), y read at communication points
stepped as the project's master steps them."""
import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime.loading import open_instance

H = 1e-3


def _signal(fmu_dir, tmp_path, parameters):
    inst = open_instance(fmu_dir / "Signal.fmu", tmp_path / "unzipped", "drive", outputs=["y"], values=parameters)
    inst.initialize(0.0)
    return inst


def _samples(inst, steps):
    """y at t_k = k H, k = 0..steps, each step from t_(k-1) to t_k."""
    out = [float(inst.get_outputs()[0])]
    for k in range(1, steps + 1):
        inst.do_step((k - 1) * H, k * H - (k - 1) * H)
        out.append(float(inst.get_outputs()[0]))
    return out


def test_the_drive_torque_of_eq_21_set_as_a_table(fmu_dir, tmp_path):
    """Eq. (21) of Jarzębowska, Urbaś & Augustynek (2018) with the value
    after the jump at 0.1 s: held over each step, its impulse is the
    paper's -4000 N m x 0.1 s."""
    inst = _signal(fmu_dir, tmp_path, {"table": "0 -4000; 0.1 -4000; 0.1 0"})
    y = _samples(inst, 5000)
    assert [y[k] for k in (0, 50, 99, 100, 101, 5000)] == [-4000.0, -4000.0, -4000.0, 0.0, 0.0, 0.0]
    assert sum(y[:-1]) * H == pytest.approx(-400.0, rel=1e-12)
    assert inst._slave.getString([inst.variable("table").value_reference]) == [b"0 -4000; 0.1 -4000; 0.1 0"]
    assert not inst.errors
    inst.free()


def test_points_from_a_file_in_the_hosts_working_folder(fmu_dir, tmp_path, monkeypatch):
    (tmp_path / "results.csv").write_text("time,crane.q_slew,drive.y\n0,0,1\n0.002,0.5,2\n0.004,1,3\n")
    monkeypatch.chdir(tmp_path)
    inst = _signal(fmu_dir, tmp_path, {"file": "results.csv", "column": "drive.y", "interpolation": "previous",
                                       "scale": 10.0})
    assert _samples(inst, 5) == [10.0, 10.0, 20.0, 20.0, 30.0, 30.0]
    inst.free()
    bad = open_instance(fmu_dir / "Signal.fmu", tmp_path / "unzipped-bad", "drive",
                        values={"file": "results.csv", "column": "y"})
    with pytest.raises(CraneCosimError) as exc:
        bad.initialize(0.0)
    assert str(exc.value) == (
        "component drive (Signal.fmu) failed to initialize: Signal (drive): cannot initialize: Signal parameter "
        "column = 'y' is invalid for file 'results.csv': the file has no such column; its columns are 'time' "
        "(the time), 'crane.q_slew', 'drive.y'")
    bad.free()
