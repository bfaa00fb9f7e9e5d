"""What a strict FMI host may rely on: the model's outputs from
fmi2EnterInitializationMode on, parameters and inputs set during
initialization taken into account, tunable parameters honoured between
steps and fixed ones refused, state that round-trips with the parameters."""
import numpy as np
import pytest

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.runtime.loading import open_instance
from fmi_calls import fails


def _open(fmu_dir, tmp_path, model, name="c"):
    inst = open_instance(fmu_dir / f"{model}.fmu", tmp_path, name)
    inst._slave.setupExperiment(startTime=0.0)
    return inst


def _running(fmu_dir, tmp_path, model):
    """The FMU opened and through initialization mode, ready to step."""
    inst = _open(fmu_dir, tmp_path, model)
    inst._slave.enterInitializationMode()
    inst._slave.exitInitializationMode()
    return inst


def _vr(inst, names):
    return [inst.variable(n).value_reference for n in names]


def _outputs(inst, model):
    return np.array(inst._slave.getReal(_vr(inst, BLOCKS[model].output_names())))


def _set(inst, values: dict):
    """Each value by the call of its type: a text (a friction law's name)
    by fmi2SetString, a bool by fmi2SetBoolean, a number by fmi2SetReal."""
    texts = {k: v for k, v in values.items() if isinstance(v, str)}
    flags = {k: v for k, v in values.items() if isinstance(v, bool)}
    numbers = {k: v for k, v in values.items() if k not in texts and k not in flags}
    if texts:
        inst._slave.setString(_vr(inst, list(texts)), list(texts.values()))
    if flags:
        inst._slave.setBoolean(_vr(inst, list(flags)), list(flags.values()))
    inst._slave.setReal(_vr(inst, list(numbers)), [float(v) for v in numbers.values()])


# Non-default parameters and inputs per block, so that the initial outputs
# are not the declared start values (zeros): they must come from the model.
CASES = {
    "Vessel": ({"q_roll_0": 0.05, "u_pitch_0": -0.1}, {"p_A_nx": 2e3, "I_A_11": 50.0}),
    "Crane": ({"q_boom_0": 0.4, "m_jib": 45.0}, {"tau_boom": 500.0, "mount_R_11": 1.0}),
    "Controller": ({"kP_slew": 3e4}, {"q_slew": 0.2, "u_boom": 0.1}),
    "HydraulicCylinder": ({"p_A0": 8e6, "p_B0": 2e6}, {"valve": 0.3, "x": 0.6, "v": 0.01}),
    "KnuckleBoomCrane": ({"q_boom_cyl_0": 0.9}, {"F_boom_cyl": 7e5, "F_jib_cyl": 2e5}),
    "KnuckleBoomController": ({"kx_boom_cyl": 12.0}, {"q_boom_cyl": 0.61, "F_boom_cyl_meas": 4e5}),
    "JointFriction": ({"model_jib": "dahl", "sigma1_boom": 50.0}, {"u_boom": 0.02, "f_boom_n1": 3e4,
                                                                    "f_boom_n2": -1e4, "u_jib": -0.01}),
    "KnuckleBoomFriction": ({"model_boom_cyl": "dahl", "sigma2_jib_cyl": 2e4},
                            {"u_jib_cyl": 0.03, "u_slew": 0.05, "f_slew_n1": 2e5}),
    "FlexibleCrane": ({"programmed": True, "n_rfe": 2.0, "q_boom_0": 0.8},
                      {"tau_slew": -4000.0, "tau_f_boom": 20.0, "mount_p_z": -0.01}),
    # eq. (21) of Jarzębowska et al. (2018), shifted: no inputs
    "Signal": ({"table": "0 -4000; 0.1 0", "interpolation": "previous", "offset": 10.0}, {}),
    "SupportedBase": ({"q_z_0": -3e-4, "u_roll_0": 0.02, "mount_x": 0.4, "c_z": 1e4},
                      {"p_A_fz": 3.8e3, "p_A_ny": -5.6e3, "I_A_11": 40.0, "I_A_66": 390.0}),
}


@pytest.mark.parametrize("model", sorted(CASES))
@pytest.mark.parametrize("when", ["before", "during"])
def test_outputs_are_the_models_in_initialization_mode(fmu_dir, tmp_path, model, when):
    """Parameters set before or during initialization mode (ecos sets them
    during), and inputs set in it, give the outputs of the block made with
    those parameters, at its initial state, with those inputs: what libcosim
    and ecos read to settle the initial values of a system."""
    params, inputs = CASES[model]
    inst = _open(fmu_dir, tmp_path, model)
    if when == "before":
        _set(inst, params)
    inst._slave.enterInitializationMode()
    if when == "during":
        _outputs(inst, model)  # read once with the defaults: the model is remade on the change
        _set(inst, params)
    _set(inst, inputs)
    y = _outputs(inst, model)
    block = BLOCKS[model](**params)
    u = block.default_inputs()
    for name, value in inputs.items():
        u[block.input_names().index(name)] = value
    expected = block.output(0.0, block.initial_state(), u)
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-9 * np.abs(expected).max())
    assert np.abs(y).max() > 0 and not inst.errors
    inst._slave.exitInitializationMode()
    np.testing.assert_allclose(_outputs(inst, model), expected, rtol=1e-12, atol=1e-9 * np.abs(expected).max())
    inst.free()


def test_the_knuckle_boom_crane_holds_its_weight_from_initialization(fmu_dir, tmp_path):
    """In initialization mode the crane gives the actuation that holds it
    (what the controller feeds back); with it as input, the mount carries
    the crane's weight, 36 t g, and nothing accelerates: a host that settles
    initial values there starts from the right interface wrench."""
    inst = _open(fmu_dir, tmp_path, "KnuckleBoomCrane")
    inst._slave.enterInitializationMode()
    hold = inst._slave.getReal(_vr(inst, ["tau_slew_hold", "F_boom_cyl_hold", "F_jib_cyl_hold"]))
    assert hold[1] > 1e5 and hold[2] > 1e4
    _set(inst, dict(zip(("tau_slew", "F_boom_cyl", "F_jib_cyl"), hold)))
    fz, *du = inst._slave.getReal(_vr(inst, ["W_mount_fz", "du_slew", "du_boom_cyl", "du_jib_cyl"]))
    assert fz == pytest.approx(36e3 * 9.81, rel=1e-12)
    assert np.abs(du).max() < 1e-9
    inst.free()


def test_a_bad_parameter_is_named_in_initialization_mode(fmu_dir, tmp_path):
    """For a model that its parameters do not make, entering initialization
    returns fmi2Warning (a host may still set parameters there), reading the
    outputs and leaving it fmi2Error, with the reason through the logger
    (the status comes from the FMU's binary: pythonfmu's alone says fmi2OK,
    and the outputs are NaN)."""
    from fmpy.fmi2 import fmi2Warning
    inst = _open(fmu_dir, tmp_path, "Crane")
    _set(inst, {"m_king": -3.0})
    assert inst._slave.enterInitializationMode() == fmi2Warning
    assert any("Crane parameter m_king = -3 kg is invalid" in m for m in inst.messages)
    fails(inst._slave.getReal, _vr(inst, BLOCKS["Crane"].output_names()))
    assert any("Crane parameter m_king = -3 kg is invalid" in m for m in inst.errors)
    fails(inst._slave.exitInitializationMode)
    inst.free()


def _run(inst, model, t, steps, h=1e-3):
    for k in range(steps):
        inst._slave.doStep(t + k * h, h)
    return t + steps * h, _outputs(inst, model)


def test_a_tunable_parameter_is_honoured_between_steps(fmu_dir, tmp_path):
    """A gain changed mid-run: the next outputs are those of the controller
    with the new gain (the set-point schedule, a function of time, goes on)."""
    inst = _running(fmu_dir, tmp_path, "Controller")
    _set(inst, {"q_slew": 0.1, "u_slew": 0.05})
    t, before = _run(inst, "Controller", 0.0, 7000)  # into the slew move (6-12 s)
    _set(inst, {"kP_slew": 5e4, "q_slew_move1_target": 1.0})
    after = _outputs(inst, "Controller")
    block = BLOCKS["Controller"](kP_slew=5e4, q_slew_move1_target=1.0)
    u = np.zeros(6)
    u[0], u[3] = 0.1, 0.05
    np.testing.assert_allclose(after, block.output(t, None, u), rtol=1e-12)
    assert after[0] != before[0]
    assert not inst.errors
    inst.free()


def test_a_fixed_parameter_cannot_change_after_initialization(fmu_dir, tmp_path):
    inst = _running(fmu_dir, tmp_path, "Crane")
    _, y0 = _run(inst, "Crane", 0.0, 10)
    fails(_set, inst, {"m_jib": 60.0})
    assert any("parameter m_jib is fixed once the model is initialized" in m for m in inst.errors)
    assert inst._slave.getReal(_vr(inst, ["m_jib"]))[0] == 30.0
    inst.free()


def test_a_tunable_value_the_block_refuses_keeps_the_old_one(fmu_dir, tmp_path):
    inst = _running(fmu_dir, tmp_path, "Vessel")
    fails(_set, inst, {"c_roll": -5.0})
    assert any("parameter c_roll = -5 is refused; c_roll keeps 0" in m for m in inst.errors)
    assert inst._slave.getReal(_vr(inst, ["c_roll"]))[0] == 0.0
    inst.free()


def test_state_round_trips_with_the_tunable_parameters(fmu_dir, tmp_path):
    """Save, retune, step; restore, step: the restored run is the untuned one."""
    inst = _running(fmu_dir, tmp_path, "Vessel")
    _set(inst, {"p_A_nx": 5e3})
    t, _ = _run(inst, "Vessel", 0.0, 20)
    state = inst._slave.getFMUstate()
    _, plain = _run(inst, "Vessel", t, 50)
    inst._slave.setFMUstate(state)
    _set(inst, {"c_roll": 1e6})
    _, damped = _run(inst, "Vessel", t, 50)
    inst._slave.setFMUstate(state)
    assert inst._slave.getReal(_vr(inst, ["c_roll"]))[0] == 0.0
    _, again = _run(inst, "Vessel", t, 50)
    inst._slave.freeFMUstate(state)
    assert np.array_equal(again, plain) and not np.array_equal(damped, plain)
    inst.free()


def _integrator(integrator_fmu, tmp_path):
    inst = open_instance(integrator_fmu, tmp_path, "i")
    inst._slave.setupExperiment(startTime=0.0)
    inst._slave.enterInitializationMode()
    inst._slave.exitInitializationMode()
    return inst


def test_the_fmus_take_input_derivatives(integrator_fmu, fmu_dir):
    """canInterpolateInputs where the FMU's Linux binary is the project's
    (it passes the derivatives on), as in every FMU built here."""
    from crane_cosim.runtime.model import read_model
    from crane_cosim.fmus.native import shim_unavailable_reason
    assert shim_unavailable_reason() is None
    for path in [integrator_fmu, *sorted(fmu_dir.glob("*.fmu"))]:
        assert read_model(path).capabilities.can_interpolate_inputs, path.name


def test_inputs_follow_their_derivatives_over_the_steps(integrator_fmu, tmp_path):
    """u = 1 + 2 s + 6 s**2 / 2 from t = 0, set once: x = k (s + s**2 + s**3)
    exactly (RK4, Simpson's rule), in two steps as in one, and the input
    read after a step is the polynomial's value there."""
    inst = _integrator(integrator_fmu, tmp_path)
    u, y = _vr(inst, ["u"])[0], _vr(inst, ["y"])[0]
    inst._slave.setReal([u], [1.0])
    inst._slave.setRealInputDerivatives([u, u], [1, 2], [2.0, 6.0])
    state = inst._slave.getFMUstate()
    inst._slave.doStep(0.0, 0.5)
    assert inst._slave.getReal([y, u]) == pytest.approx([0.5 + 0.25 + 0.125, 1 + 1 + 0.75], rel=0, abs=1e-15)
    inst._slave.doStep(0.5, 0.5)
    two = inst._slave.getReal([y, u])
    assert two == pytest.approx([3.0, 6.0], rel=0, abs=1e-14)
    # the derivatives are part of the state
    inst._slave.setFMUstate(state)
    inst._slave.doStep(0.0, 1.0)
    assert inst._slave.getReal([y, u]) == pytest.approx(two, rel=0, abs=1e-14)
    inst._slave.freeFMUstate(state)
    inst.free()


def test_derivatives_the_fmu_does_not_take_are_refused_by_name(integrator_fmu, tmp_path):
    """Each refusal is fmi2Error, which leaves the instance in FMI's error
    state; the state saved before brings it back each time."""
    inst = _integrator(integrator_fmu, tmp_path)
    u, y = _vr(inst, ["u", "y"])
    state = inst._slave.getFMUstate()
    fails(inst._slave.setRealInputDerivatives, [u], [3], [1.0])
    assert "derivative of order 3 of value reference" in inst.errors[-1]
    inst._slave.setFMUstate(state)
    fails(inst._slave.setRealInputDerivatives, [y], [1], [1.0])
    assert f"value reference {y} is not a Real input" in inst.errors[-1]
    inst._slave.setFMUstate(state)
    # a value reference that is none of the FMU's is an error, not a crash
    fails(inst._slave.setReal, [1000], [1.0])
    assert "value reference 1000 is none of this FMU's" in inst.errors[-1]
    fails(inst._slave.doStep, 0.0, 0.1)  # the error state: the host must intervene
    assert "fmi2DoStep is not allowed in state error" in inst.errors[-1]
    inst._slave.setFMUstate(state)
    inst._slave.freeFMUstate(state)
    inst._slave.doStep(0.0, 0.1)  # usable again
    inst.free()
