"""Model Exchange FMUs integrated by the master (``runtime/model_exchange.py``):
the Modelica Association's Reference FMUs (``tests/reference_builds.py``)
alone against ``fmpy.simulate_fmu``, a bouncing ball against its flight in
closed form, a lag of our own (``tests/typed_fmus/lag2.c``: a state event
and a step event) driven by this project's Signal FMU against the lag's
response in closed form, saved states, and what cannot run them refused by
name."""
import json
import shutil
import zipfile

import fmpy
import numpy as np
import pytest
from scipy.linalg import expm

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.hosts.interfaces import refuse_what_it_cannot_run
from crane_cosim.runtime import RunConfig, System, plan_of, problems_of, run_cosim
from crane_cosim.runtime.loading import open_instance
from crane_cosim.runtime.model import read_model
from crane_cosim.ssp import write_ssd
from misbehaving_fmus import c_fmu
from reference_builds import MODELS, reference_fmu

G, E = 9.81, 0.7           # BouncingBall's gravity [m/s2] and coefficient of restitution [-]
T_LAG, THRESHOLD = 0.5, 0.5  # the lag's time constant [s] and threshold (lag2.c's starts)
STEP_AT = 0.3                # when the Signal steps the lag's input from 0 to 1 [s]


@pytest.fixture(scope="module")
def me_fmus(tmp_path_factory):
    """version -> model -> the Model Exchange build of each Reference FMU."""
    return {v: {m: reference_fmu(m, v, "ModelExchange", tmp_path_factory.mktemp(f"me{v}{m}")) for m in MODELS}
            for v in (2, 3)}


@pytest.fixture(scope="module")
def lag(tmp_path_factory):
    return c_fmu("lag2", tmp_path_factory.mktemp("lag"))


def _alone(path, tmp_path, **config):
    """The FMU at ``path`` run alone through the master at its default
    experiment: its results and that experiment's (stop time, step)."""
    model = fmpy.read_model_description(str(path))
    stop, step = float(model.defaultExperiment.stopTime), float(model.defaultExperiment.stepSize)
    s = System("Alone", stop_time=stop, step=step, algorithm="gauss-seidel", base_dir=path.parent)
    s.add_component("m", path.name)
    run_cosim(s, tmp_path / "run", RunConfig(progress=False, **config))
    return read_results(tmp_path / "run"), stop, step


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("model", MODELS)
def test_reference_fmus_alone_equal_fmpy(me_fmus, tmp_path, version, model):
    """Each output at each communication point equals fmpy's Model
    Exchange run on the same output grid bit for bit: the same CVode, the
    same tolerance and longest step, the same calls (states events, time
    events, the solver started afresh after each).  Stair asks to end the
    simulation at its tenth step of 1 s; the run ends there, where fmpy
    stops a point before."""
    path = me_fmus[version][model]
    df, stop, step = _alone(path, tmp_path)
    outputs = [v.name for v in read_model(path).outputs()]
    ref = fmpy.simulate_fmu(str(path), fmi_type="ModelExchange", stop_time=stop, output_interval=step,
                            output=outputs, record_events=False)
    n = min(len(df), len(ref))
    assert n >= len(ref) - 1 >= 44
    np.testing.assert_allclose(df["time"][:n], ref["time"][:n], rtol=0, atol=1e-12)
    for name in outputs:
        np.testing.assert_array_equal(df[f"m.{name}"][:n], ref[name][:n], err_msg=name)
    if model == "Stair":
        assert df["time"].iloc[-1] == pytest.approx(9.0) and df["m.counter"].iloc[-1] == 10
        assert len(ref) == len(df) - 1


def test_beside_our_fmus_they_are_what_fmpy_says(me_fmus, integrator_fmu, tmp_path):
    """An FMI 3.0 VanDerPol and an FMI 2.0 BouncingBall, both Model
    Exchange, beside this project's integrator, which integrates the
    oscillator's x0 (Gauss-Seidel: each step of the integrator takes x0 at
    the step's end): the two are fmpy's runs bit for bit, and the integral
    is the sum of the step times x0 to round-off (measured 4.4e-16, bound
    1.3e-15)."""
    h, stop = 0.01, 2.0
    s = System("Beside", stop_time=stop, step=h, algorithm="gauss-seidel", base_dir=tmp_path)
    s.add_component("vdp", str(me_fmus[3]["VanDerPol"]))
    s.add_component("ball", str(me_fmus[2]["BouncingBall"]))
    s.add_component("sum", str(integrator_fmu))
    s.connect("vdp.x0", "sum.u")
    run_cosim(s, tmp_path / "run", RunConfig(progress=False))
    df = read_results(tmp_path / "run")
    for name, variables in (("vdp", ["x0", "x1"]), ("ball", ["h", "v"])):
        path = me_fmus[3]["VanDerPol"] if name == "vdp" else me_fmus[2]["BouncingBall"]
        ref = fmpy.simulate_fmu(str(path), fmi_type="ModelExchange", stop_time=stop, output_interval=h,
                                output=variables, record_events=False)
        for v in variables:
            np.testing.assert_array_equal(df[f"{name}.{v}"], ref[v], err_msg=f"{name}.{v}")
    x0 = df["vdp.x0"].to_numpy()
    integral = np.concatenate([[0.0], np.cumsum(h * x0[1:])])
    assert np.abs(df["sum.y"].to_numpy() - integral).max() < 1.3e-15


def _ball(t, e=E):
    """BouncingBall's height [m] at times ``t`` [s] in closed form: dropped
    from 1 m, each bounce sending it up at ``e`` times the speed it came
    down."""
    h = np.empty_like(t)
    start, v0, h0 = 0.0, 0.0, 1.0
    landing = np.sqrt(2 * h0 / G)
    while start < t[-1]:
        span = (t >= start) & (t < start + landing)
        tau = t[span] - start
        h[span] = h0 + v0 * tau - G * tau ** 2 / 2
        v_down = v0 - G * landing
        start, v0, h0 = start + landing, -e * v_down, 0.0
        landing = 2 * v0 / G
    return h


@pytest.mark.parametrize("version", [2, 3])
def test_the_ball_bounces_where_its_flight_says(me_fmus, tmp_path, version):
    """State events: at a tight tolerance (``--relative-tolerance 1e-10``)
    the ball's height at each communication point over its first 2.2 s
    (seven bounces, each found by CVode's root finding inside a step)
    equals its flight in closed form to 7.1e-10 m measured, bound 2.2e-9 m."""
    df, _, _ = _alone(me_fmus[version]["BouncingBall"], tmp_path, relative_tolerance=1e-10)
    t = df["time"].to_numpy()
    within = t <= 2.2
    assert np.abs(df["m.h"].to_numpy()[within] - _ball(t[within])).max() < 2.2e-9


@pytest.mark.parametrize("version", [2, 3])
def test_a_scenario_changes_a_tunable_parameter_in_event_mode(me_fmus, tmp_path, version):
    """The ball's coefficient of restitution e, a tunable parameter, set to
    0.5 by a scenario at 0.2 s, in its first fall: every bounce after it
    sends the ball up at half its speed.  Over its first 1.2 s (three
    bounces; at e = 0.5 they close in on 1.35 s) the flight in closed form
    with e = 0.5 to 7.4e-10 m measured (bound 2.2e-9 m), and 0.397 m from
    e = 0.7's at most."""
    scenario = tmp_path / "e.json"
    scenario.write_text(json.dumps({"events": [{"time": 0.2, "model": "m", "variable": "e", "action": "override",
                                                "value": 0.5}]}))
    df, _, _ = _alone(me_fmus[version]["BouncingBall"], tmp_path, relative_tolerance=1e-10, scenario=str(scenario))
    t = df["time"].to_numpy()
    within = t <= 1.2
    h = df["m.h"].to_numpy()[within]
    assert np.abs(h - _ball(t[within], e=0.5)).max() < 2.2e-9
    assert np.abs(h - _ball(t[within])).max() > 0.39


def _lag_system(signal, lag, algorithm="jacobi"):
    s = System("Lag", stop_time=2.0, step=0.01, algorithm=algorithm, base_dir=lag.parent)
    s.add_component("source", str(signal), table=f"0 0; {STEP_AT} 0; {STEP_AT} 1", interpolation="previous")
    s.add_component("lag", lag.name)
    s.connect("source.y", "lag.u")
    return s


def test_a_lag_driven_by_our_signal_follows_its_response(fmu_dir, lag, tmp_path):
    """An input from this project's Signal FMU (a step at 0.3 s, Jacobi: the
    lag sees it from the step that starts there), a state event and a step
    event at every communication point (the solver started afresh after
    each): x(t) = 1 - exp(-(t - 0.3)/T) to 1.9e-7 measured at rtol 1e-9
    (bound 5.6e-7); the threshold crossed once, at 0.3 + T ln 2 s to 6.7e-8 s
    (bound 2e-7 s); held, the state latched at each step event, equal to x
    at every point."""
    run_cosim(_lag_system(fmu_dir / "Signal.fmu", lag), tmp_path, RunConfig(progress=False, relative_tolerance=1e-9))
    df = read_results(tmp_path)
    t = df["time"].to_numpy()
    expected = np.where(t > STEP_AT, 1 - np.exp(-(t - STEP_AT) / T_LAG), 0.0)
    assert np.abs(df["lag.x"].to_numpy() - expected).max() < 5.6e-7
    assert df["lag.crossings"].iloc[-1] == 1
    assert df["lag.crossed_at"].iloc[-1] == pytest.approx(STEP_AT + T_LAG * np.log(2), abs=2e-7)
    np.testing.assert_array_equal(df["lag.held"], df["lag.x"])


def _loop(integrator, lag, algorithm):
    """This project's integrator and the lag in a loop: a' = -x, x' = (a - x)/T,
    a(0) = 1, x(0) = 0."""
    s = System("Loop", stop_time=2.0, step=0.01, algorithm=algorithm, base_dir=lag.parent)
    s.add_component("a", str(integrator), x0=1.0, k=-1.0)
    s.add_component("lag", lag.name)
    s.connect("a.y", "lag.u")
    s.connect("lag.x", "a.u")
    return s


def _loop_closed_form(t):
    """(a, x) of :func:`_loop` at times ``t`` [s]: the linear system's
    matrix exponential."""
    A = np.array([[0.0, -1.0], [1 / T_LAG, -1 / T_LAG]])
    return np.array([expm(A * tk) @ [1.0, 0.0] for tk in t])


def test_the_iterated_midpoint_rolls_it_back(integrator_fmu, lag, tmp_path):
    """In a loop with this project's integrator, the iterated midpoint
    restores the lag's saved state and steps it again, pass after pass (its
    solver started afresh from the restored states), in the Python
    algorithm, which names why: the loop's (a, x) are the closed form's to
    the second order of the step, 1.3e-5 measured (bound 3.9e-5), where
    Jacobi's first order is 4.0e-3 off; the step event latches held = x at
    every point of either."""
    config = RunConfig(progress=False, relative_tolerance=1e-9)
    errors = {}
    for algorithm in ("iterated-midpoint", "jacobi"):
        run_cosim(_loop(integrator_fmu, lag, algorithm), tmp_path / algorithm, config)
        df = read_results(tmp_path / algorithm)
        exact = _loop_closed_form(df["time"].to_numpy())
        errors[algorithm] = np.abs(df[["a.y", "lag.x"]].to_numpy() - exact).max()
        np.testing.assert_array_equal(df["lag.held"], df["lag.x"])
    summary = json.loads((tmp_path / "iterated-midpoint" / "summary.json").read_text())
    assert summary["master_step"] == "python (component lag is a Model Exchange FMU, integrated by the master)"
    assert summary["fmi_steps_by_component"]["lag"] > 2 * 200   # passes again: restored states
    assert errors["iterated-midpoint"] < 3.9e-5 and errors["jacobi"] > 3e-3


def test_a_restored_state_steps_again_to_the_same_values(me_fmus, tmp_path):
    """Over a step that holds a bounce (0.44 s to 0.46 s; the ball lands at
    0.4515 s), a state saved before it and restored steps again to the same
    height and speed bit for bit each time (the solver started afresh from
    the restored states), and to those of the first step to the solver's
    tolerance (which went on with CVode's history): 5.5e-5 measured (of a
    speed of 3.0 m/s), bound 1.7e-4."""
    inst = open_instance(me_fmus[2]["BouncingBall"], tmp_path, outputs=["h", "v"])
    try:
        inst.may_roll_back = True
        inst.initialize(0.0)
        for k in range(44):
            inst.do_step(k * 0.01, 0.01)
        saved = inst.save_state()
        steps = []
        for _ in range(3):
            inst.do_step(0.44, 0.02)
            steps.append(inst.get_outputs().copy())
            inst.restore_state(saved)
        inst.free_state(saved)
    finally:
        inst.free()
    first, again, third = steps
    assert first[1] > 0   # bounced: going up
    np.testing.assert_array_equal(third, again)
    np.testing.assert_allclose(again, first, rtol=0, atol=1.7e-4)


def test_what_cannot_run_it_is_refused_by_name(me_fmus, tmp_path):
    ball = me_fmus[2]["BouncingBall"]
    s = System("Ball", stop_time=1.0, step=0.01, base_dir=ball.parent)
    s.add_component("ball", ball.name)
    problems, _ = problems_of(s, RunConfig(processes=True))
    assert problems == ["component ball: --processes runs FMI 2.0 co-simulation FMUs in processes of their own; "
                        "BouncingBall.fmu is an FMI 2.0 Model Exchange FMU"]
    with pytest.raises(CraneCosimError) as exc:
        refuse_what_it_cannot_run(plan_of(s), "libcosim")
    assert str(exc.value) == ("libcosim runs co-simulation FMUs only, and component ball (BouncingBall.fmu) is a "
                              "Model Exchange FMU; crane-cosim's own master integrates it (run without the other "
                              "host)")


def test_an_algorithm_that_needs_what_it_lacks_is_refused_by_name(lag, tmp_path):
    """Two lags in a loop, one whose description does not declare
    canGetAndSetFMUstate: the iterated algorithms cannot step it again,
    and the quadratic cannot give either the input derivatives a Model
    Exchange FMU never takes; each said, naming the component."""
    stateless = tmp_path / "Stateless.fmu"
    with zipfile.ZipFile(lag) as src, zipfile.ZipFile(stateless, "w") as out:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "modelDescription.xml":
                data = data.replace(b'canGetAndSetFMUstate="true"', b"")
            out.writestr(item, data)
    shutil.copy(lag, tmp_path / lag.name)
    found = {}
    for algorithm in ("iterated-midpoint", "iterated-quadratic"):
        s = System("Loop", stop_time=1.0, step=0.01, algorithm=algorithm, base_dir=tmp_path)
        s.add_component("a", lag.name)
        s.add_component("b", stateless.name)
        s.connect("a.x", "b.u")
        s.connect("b.x", "a.u")
        found[algorithm] = [p.split(",")[0].split(" which")[0] for p in problems_of(s)[0]]
    assert found == {
        "iterated-midpoint": ["component b (Stateless.fmu) cannot save and restore its state (canGetAndSetFMUstate "
                              "is false)"],
        "iterated-quadratic": ["component b (Stateless.fmu) cannot save and restore its state (canGetAndSetFMUstate "
                               "is false)",
                               "component a (Lag2.fmu) does not take input derivatives (canInterpolateInputs is false)",
                               "component b (Stateless.fmu) does not take input derivatives (canInterpolateInputs is "
                               "false)"]}


def test_relative_tolerance_on_the_command_line(me_fmus, tmp_path, capsys):
    """``--relative-tolerance`` reaches the integration (a looser one moves
    the ball's landing: its heights differ) and a bad one is one sentence."""
    ball = me_fmus[3]["BouncingBall"]
    s = System("Ball", stop_time=1.0, step=0.01, algorithm="gauss-seidel", base_dir=tmp_path)
    s.add_component("ball", str(ball))
    ssd = write_ssd(s, tmp_path / "ball.ssd")
    for name, rtol in (("tight", "1e-10"), ("loose", "1e-3")):
        assert main(["run", str(ssd), "--out", str(tmp_path / name), "--no-plots",
                     "--relative-tolerance", rtol]) == 0
    tight, loose = read_results(tmp_path / "tight"), read_results(tmp_path / "loose")
    assert np.abs(tight["ball.h"] - loose["ball.h"]).max() > 1e-4
    assert main(["run", str(ssd), "--out", str(tmp_path / "bad"), "--relative-tolerance", "2"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "crane-cosim: error: --relative-tolerance 2.0 must be a number between 0 and 1 (1e-5, FMPy's default)")
