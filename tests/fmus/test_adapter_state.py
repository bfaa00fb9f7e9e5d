"""The FMU state of the adapter's slave (``fmus/adapter.py``): saved as
copies of its arrays, restored without checks when this slave saved it,
the full checks for a state read back from bytes.  A state restored twice
gives the same run twice (the inputs the host sets in place between do not
reach it), a serialized copy restores the same run, and the input
derivatives' flag comes back with it."""
import numpy as np

from test_fmi_semantics import _outputs, _run, _running, _set, _vr


def test_a_state_restored_twice_and_its_serialized_copy_give_the_same_run(fmu_dir, tmp_path):
    inst = _running(fmu_dir, tmp_path, "Vessel")
    s = inst._slave
    _set(inst, {"p_A_nx": 5e3})
    t, _ = _run(inst, "Vessel", 0.0, 20)
    state = s.getFMUstate()
    copy = s.deSerializeFMUstate(s.serializeFMUstate(state))
    runs = []
    for saved in (state, state, copy):
        s.setFMUstate(saved)
        assert s.getReal(_vr(inst, ["p_A_nx"]))[0] == 5e3  # the input as saved
        _set(inst, {"p_A_nx": -3e3})  # set in place after the restore
        runs.append(_run(inst, "Vessel", t, 30)[1])
    s.freeFMUstate(state)
    s.freeFMUstate(copy)
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])
    inst.free()


def test_the_input_derivatives_come_back_with_the_state(fmu_dir, tmp_path):
    """Saved with no derivatives set, restored after some were: the inputs
    are held again, the run is the one without derivatives."""
    inst = _running(fmu_dir, tmp_path, "Vessel")
    s = inst._slave
    _set(inst, {"p_A_nx": 5e3})
    state = s.getFMUstate()
    _, held = _run(inst, "Vessel", 0.0, 20)
    s.setFMUstate(state)
    s.setRealInputDerivatives(_vr(inst, ["p_A_nx"]), [1], [1e6])
    _, moving = _run(inst, "Vessel", 0.0, 20)
    s.setFMUstate(state)
    _, again = _run(inst, "Vessel", 0.0, 20)
    s.freeFMUstate(state)
    assert not np.array_equal(moving, held) and np.array_equal(again, held)
    assert np.array_equal(_outputs(inst, "Vessel"), held)
    inst.free()
