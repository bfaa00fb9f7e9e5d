"""The master's iterated-midpoint algorithm (``runtime/algorithms/midpoint.py``) on small
systems with known solutions: two integrators in a loop (the harmonic
oscillator ``a' = b``, ``b' = -a``: ``a = cos t``, ``b = -sin t``) and a
ramp integrated (``t^2 / 2``).  The integrators' RK4 is exact for a held
input, so these errors are the master's alone."""
import os

import fake_plans as fake
import numpy as np
import pytest

from crane_cosim.runtime.compiled.engine import CompiledMidpoint
from crane_cosim.runtime import run_cosim
from crane_cosim.runtime.algorithms import IteratedMidpoint
from crane_cosim.runtime.algorithms.graph import links_against_order
from crane_cosim.runtime.system import System
from crane_cosim.files.results import read_results


def _oscillator(integrator_fmu, algorithm, step, stop_time=2 * np.pi):
    s = System("Oscillator", stop_time=stop_time, step=step, algorithm=algorithm, base_dir=integrator_fmu.parent)
    s.add_component("a", integrator_fmu.name, x0=1.0, k=1.0)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=-1.0)
    s.connect("b.y", "a.u")
    s.connect("a.y", "b.u")
    return s


def _run(system, folder):
    run_cosim(system, folder, progress=False)
    return read_results(folder)


def _oscillator_error(df):
    t = df["time"].to_numpy()
    return max(np.abs(df["a.y"] - np.cos(t)).max(), np.abs(df["b.y"] + np.sin(t)).max())


@pytest.fixture(scope="module")
def oscillator_errors(integrator_fmu, tmp_path_factory):
    out = tmp_path_factory.mktemp("oscillator")
    return {(alg, h): _oscillator_error(_run(_oscillator(integrator_fmu, alg, h), out / f"{alg}_{h}"))
            for alg in ("iterated-midpoint", "gauss-seidel") for h in (2 * np.pi / 100, 2 * np.pi / 200)}


def test_the_coupling_is_second_order(oscillator_errors):
    """One period of the oscillator: halving the step divides the error by
    4 (measured 4.00; 2.07e-3 at 100 steps a period), where Gauss-Seidel's
    halves (measured 1.99; 3.1e-2)."""
    e = oscillator_errors
    coarse, fine = 2 * np.pi / 100, 2 * np.pi / 200
    assert 3.9 < e["iterated-midpoint", coarse] / e["iterated-midpoint", fine] < 4.1
    assert 1.9 < e["gauss-seidel", coarse] / e["gauss-seidel", fine] < 2.1
    assert e["iterated-midpoint", coarse] < 6.2e-3
    assert e["iterated-midpoint", coarse] < e["gauss-seidel", coarse] / 10


def test_outputs_agree_with_the_inputs_at_each_communication_point(integrator_fmu, tmp_path):
    """s = x + u read at t + h uses the inputs at t + h (the sources' outputs
    there), not the mid-step values the step held (results.csv holds 12
    significant digits).  Gauss-Seidel's a.s holds b at the step's start."""
    df = _run(_oscillator(integrator_fmu, "iterated-midpoint", 0.1, stop_time=1.0), tmp_path / "mid")
    np.testing.assert_allclose(df["a.s"], df["a.y"] + df["b.y"], rtol=0, atol=1e-11)
    np.testing.assert_allclose(df["b.s"], df["b.y"] + df["a.y"], rtol=0, atol=1e-11)
    gs = _run(_oscillator(integrator_fmu, "gauss-seidel", 0.1, stop_time=1.0), tmp_path / "gs")
    assert np.abs(gs["a.s"] - gs["a.y"] - gs["b.y"]).max() > 0.05


def test_a_ramp_is_integrated_exactly(integrator_fmu, fmu_dir, tmp_path):
    """A source before its consumer is read at mid-step: a ramp's integral
    is exact (the midpoint rule), where holding the step's end value (plain
    Gauss-Seidel) is off by t h / 2.  Nothing here is stepped twice."""
    results = {}
    for alg in ("iterated-midpoint", "gauss-seidel"):
        s = System("Ramp", stop_time=1.0, step=0.1, algorithm=alg, base_dir=tmp_path)
        s.add_component("ramp", str(fmu_dir / "Signal.fmu"), table="0 0; 10 10")
        s.add_component("x", str(integrator_fmu))
        s.connect("ramp.y", "x.u")
        results[alg] = _run(s, tmp_path / alg)
    t = results["gauss-seidel"]["time"]
    np.testing.assert_allclose(results["iterated-midpoint"]["x.y"], t ** 2 / 2, rtol=0, atol=1e-14)
    np.testing.assert_allclose(results["gauss-seidel"]["x.y"], t ** 2 / 2 + t * 0.1 / 2, rtol=0, atol=1e-14)


def test_which_components_step_twice():
    """Those that read a later component (or one stepped twice) step
    twice; a source before them steps once."""
    names = ["signal", "base", "crane", "friction", "drive"]
    p = fake.plan([fake.model(n) for n in names],
                  {"base": [2], "crane": [0, 1, 3, 4], "friction": [2]}, iterations=1)
    step = IteratedMidpoint(p, fake.instances(p))
    assert [names[k] for k in step.again] == ["base", "crane", "friction"]
    halves = {(q, names[k]): h for q, k, h, last in step.pass_steps}
    # read later in the step: in halves; the last of the second pass is read by no one after it
    assert halves[0, "signal"] and halves[0, "drive"] and halves[1, "base"]
    assert not halves[1, "friction"]
    last = {(q, names[k]): last for q, k, h, last in step.pass_steps}
    # a first step that is rolled back ends at mid-step
    assert not last[0, "base"] and last[1, "base"] and last[0, "signal"]
    # and every step of theirs that a rollback may follow says so to the FMU
    assert [inst.may_roll_back for inst in step.instances] == [False, True, True, True, False]


def test_a_step_that_nothing_reads_is_not_taken():
    """A component reading a later one steps again; its first step, which
    no one reads, is left out."""
    p = fake.plan([fake.model("sink"), fake.model("source")], {"sink": [1]}, iterations=1)
    step = IteratedMidpoint(p, fake.instances(p))
    assert [(q, k) for q, k, h, last in step.pass_steps] == [(0, 1), (1, 0)]


def test_passes_follow_the_links_against_the_order():
    """The links of direct feedthrough that run against the stepping order
    on one path: none in a chain a -> b -> c; one where c feeds a whose
    output is its state's; two where the chain runs backwards (a reads b,
    b reads c, c reads a, only a's output not feedthrough); a loop of
    feedthrough is gone round once: the link into it and its one link
    against the order."""
    chain = {"b": [0], "c": [1]}
    closed = dict(chain, a=[2])
    backwards = {"a": [1], "b": [2], "c": [0]}

    def links(routes, feedthrough_a=True):
        return links_against_order(fake.plan([fake.model("a", feedthrough=feedthrough_a), fake.model("b"),
                                              fake.model("c")], routes))

    assert links(chain) == 0
    assert links(closed, feedthrough_a=False) == 1
    assert links(backwards, feedthrough_a=False) == 2
    assert links(closed) == 2
    p = fake.plan([fake.model("a", feedthrough=False), fake.model("b"), fake.model("c")], backwards)
    assert IteratedMidpoint(p, fake.instances(p)).point_passes == 3


def test_a_component_that_cannot_roll_back_is_named():
    p = fake.plan([fake.model("vessel", can_roll_back=False), fake.model("crane")], {"vessel": [1], "crane": [0]})
    assert [s for s, _ in IteratedMidpoint.problems(p)] == [
        "component vessel (vessel.fmu) cannot save and restore its state (canGetAndSetFMUstate is false), which the "
        "iterated-midpoint algorithm needs to step it twice: it reads the output of a component after it in the "
        "system's order, or of one stepped again (putting its sources before it may do without); use gauss-seidel "
        "for this system (--algorithm gauss-seidel)"]


def test_no_extrapolation_with_it():
    from crane_cosim.runtime import problems_of
    problems, _ = problems_of(System("S", algorithm="iterated-midpoint", extrapolation="midpoint"))
    assert problems == ["the iterated-midpoint algorithm gives every input its mid-step value or its quadratic over "
                        "the step and takes no input extrapolation ('midpoint'); use extrapolation none with it"]


def test_no_components_of_their_own_steps_with_it():
    p = fake.plan([fake.model("vessel"), fake.model("crane")], {"vessel": [1], "crane": [0]}, every={"vessel": 5})
    assert [s for s, _ in IteratedMidpoint.problems(p)] == [
        "the iterated-midpoint algorithm steps every component over the same step, rolling some back together, and "
        "component vessel steps every 5 steps: use gauss-seidel or jacobi with components of their own steps"]


def _chain(integrator_fmu, step, iterations, stop_time=1.0):
    """Three integrators where a mid-step value reaches ``a`` through two
    links of direct feedthrough: ``a' = b.s``, ``b.s = x_b + c.s``,
    ``c.s = x_c + x_a``; ``b' = -c.s``, ``c' = -a``.  Linear, with the
    exact solution ``expm(A t) x0``."""
    s = System("Chain", stop_time=stop_time, step=step, algorithm="iterated-midpoint", iterations=iterations,
               base_dir=integrator_fmu.parent)
    s.add_component("a", integrator_fmu.name, x0=1.0, k=1.0)
    s.add_component("b", integrator_fmu.name, x0=0.0, k=-1.0)
    s.add_component("c", integrator_fmu.name, x0=0.5, k=-1.0)
    s.connect("b.s", "a.u")
    s.connect("c.s", "b.u")
    s.connect("a.y", "c.u")
    return s


def _chain_error(df):
    import scipy.linalg
    A = np.array([[1.0, 1.0, 1.0],     # a' = x_b + x_c + x_a
                  [-1.0, 0.0, -1.0],   # b' = -(x_c + x_a)
                  [-1.0, 0.0, 0.0]])   # c' = -x_a
    x0 = np.array([1.0, 0.0, 0.5])
    exact = np.array([scipy.linalg.expm(A * t) @ x0 for t in df["time"]])
    return np.abs(df[["a.y", "b.y", "c.y"]].to_numpy() - exact).max()


def test_a_feedthrough_chain_needs_a_pass_per_link(integrator_fmu, tmp_path):
    """Through two links of direct feedthrough one re-step pass leaves the
    coupling first order (halving the step halves the error: measured
    1.98), two passes make it second order (measured 3.96) and 43 times
    more accurate at h = 0.02 (2.5e-4 against 1.06e-2)."""
    e = {(n, h): _chain_error(_run(_chain(integrator_fmu, h, n), tmp_path / f"{n}_{h}"))
         for n in (1, 2) for h in (0.02, 0.01)}
    assert 1.9 < e[1, 0.02] / e[1, 0.01] < 2.1
    assert 3.8 < e[2, 0.02] / e[2, 0.01] < 4.1
    assert e[2, 0.02] < 7.4e-4 < e[1, 0.02] / 14


def test_iterations_on_the_command_line_need_the_iterated_midpoint(tmp_path, integrator_fmu, capsys):
    from crane_cosim.cli import main
    from crane_cosim.ssp import write_ssd
    s = _chain(integrator_fmu, 0.1, None)
    path = write_ssd(s, tmp_path / "chain.ssd")
    assert main(["run", str(path), "--algorithm", "gauss-seidel", "--iterations", "2", "--no-plots"]) == 2
    assert ("--iterations 2 sets the re-step passes of the iterated-midpoint and iterated-quadratic "
            "algorithms; the gauss-seidel algorithm steps each component once") in capsys.readouterr().err


def test_iterations_are_kept_in_the_system_file(tmp_path, integrator_fmu):
    from crane_cosim.ssp import read_ssd, write_ssd
    s = _chain(integrator_fmu, 0.1, 3)
    assert read_ssd(write_ssd(s, tmp_path / "chain.ssd")).iterations == 3
    s.iterations = None  # the default, chosen from the FMUs, is not written
    assert "iterations" not in write_ssd(s, tmp_path / "auto.ssd").read_text()
    assert read_ssd(tmp_path / "auto.ssd").iterations is None
    from crane_cosim.runtime import problems_of
    s.algorithm = "gauss-seidel"  # a file's passes do not stop another algorithm
    assert problems_of(s)[0] == []
    s.algorithm, s.iterations = "iterated-midpoint", 0
    assert problems_of(s)[0] == ["iterations must be a whole number of at least 1, got 0"]


def test_by_default_the_passes_go_on_until_the_values_settle(integrator_fmu, tmp_path):
    """The chain with the default passes: each step re-steps until no
    value read before it is produced moves, in a pass, by more than a
    hundredth of the accuracy asked (0.1% by default: 1e-5 of its peak).
    The passes after the first are quasi-Newton steps (IQN-ILS), whose
    secant model of a linear chain is exact once it has seen a step: one
    re-step pass in 49 steps of 50 (measured; the first step takes 3), and
    the result agrees with twelve plain passes to round-off (measured
    2.5e-14; bound 1e-13); the summary says how many passes the steps
    took."""
    import json
    from crane_cosim.runtime.algorithms.midpoint import MAX_PASSES
    auto = _run(_chain(integrator_fmu, 0.02, None), tmp_path / "auto")
    full = _run(_chain(integrator_fmu, 0.02, MAX_PASSES), tmp_path / "full")
    cols = ["a.y", "b.y", "c.y"]
    passes = {int(p): c for p, c in json.loads((tmp_path / "auto" / "summary.json").read_text())
              ["re_step_passes"].items()}
    assert sum(passes.values()) == 50
    assert passes.get(1, 0) >= 49 and max(passes) <= 3
    assert np.abs(auto[cols] - full[cols]).to_numpy().max() < 1e-13
    assert json.loads((tmp_path / "full" / "summary.json").read_text())["re_step_passes"] == {"12": 50}


def test_the_passes_settle_to_a_tenth_of_the_accuracy_asked(integrator_fmu):
    """The accuracy a plan carries is the tolerance asked (``--tolerance``),
    else 0.1%; the passes settle to a hundredth of it."""
    from crane_cosim.runtime import RunConfig
    from crane_cosim.runtime.plan import plan_of
    s = _chain(integrator_fmu, 0.02, None)
    assert plan_of(s).settings.accuracy == 1e-3
    assert plan_of(s, RunConfig(tolerance=1e-5)).settings.accuracy == 1e-5


def test_the_passes_counted_are_the_passes_made(integrator_fmu, tmp_path):
    """A sink before the source it reads, whose own mid-step value no one
    reads, asked for three passes: it is stepped again once a step, from
    the source's mid-step value, and once is what summary.json counts (the
    passes in which no step would be read are not taken).  By default the
    source, constant, is predicted exactly: no step is taken again."""
    import json
    s = System("Sink", stop_time=0.5, step=0.1, algorithm="iterated-midpoint", base_dir=integrator_fmu.parent)
    s.add_component("sink", integrator_fmu.name)
    s.add_component("source", integrator_fmu.name, x0=1.0)
    s.connect("source.y", "sink.u")
    s.iterations = 3
    _run(s, tmp_path / "three")
    assert json.loads((tmp_path / "three" / "summary.json").read_text())["re_step_passes"] == {"1": 5}
    s.iterations = None
    _run(s, tmp_path / "default")
    assert json.loads((tmp_path / "default" / "summary.json").read_text())["re_step_passes"] == {"0": 5}


def test_a_component_that_cannot_roll_back_is_bad_input_before_anything_runs(integrator_fmu, tmp_path, capsys):
    """The oscillator with an integrator whose modelDescription says it cannot
    save its state: check names it and the run refuses it (exit 2), writing
    nothing."""
    import zipfile
    from crane_cosim.cli import main
    from crane_cosim.ssp import write_ssd
    stateless = tmp_path / "Stateless.fmu"
    with zipfile.ZipFile(integrator_fmu) as zin, zipfile.ZipFile(stateless, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "modelDescription.xml":
                data = data.replace(b'canGetAndSetFMUstate="true"', b'canGetAndSetFMUstate="false"')
            zout.writestr(item, data)
    s = _oscillator(integrator_fmu, "iterated-midpoint", 0.1, stop_time=1.0)
    s.component("a").source = str(stateless)
    ssd = write_ssd(s, integrator_fmu.parent / f"{tmp_path.name}.ssd")
    assert main(["check", str(ssd)]) == 2
    assert "component a (Stateless.fmu) cannot save and restore its state" in capsys.readouterr().err
    assert main(["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots"]) == 2
    assert not (tmp_path / "out").exists()


def _flags_of_a_step(system, folder) -> dict:
    """The ``noSetFMUStatePriorToCurrentPoint`` each component's FMU is given
    in the first step of ``system`` (by the compiled step: the flags its
    table of the components holds, and which it passes)."""
    from crane_cosim.runtime import plan_of
    from crane_cosim.runtime.compiled import layout
    from crane_cosim.runtime.execution import Execution
    execution = Execution(plan_of(system), folder)
    execution.instantiate()
    execution.start()
    flags = {}
    compiled = execution.algorithm if isinstance(execution.algorithm, CompiledMidpoint) else None
    assert (compiled is None) == (os.environ.get("CRANE_COSIM_MASTER") == "python")
    if compiled is not None:
        table = compiled.args[0]
        execution.close()
        return {inst.name: {int(table[k, layout.NO_PRIOR])} for k, inst in enumerate(execution.instances)}
    for inst in execution.instances:
        do_step = inst._do_step
        inst._do_step = lambda c, t, h, flag, inst=inst, do_step=do_step: (
            flags.setdefault(inst.name, set()).add(flag), do_step(c, t, h, flag))[1]
    execution.step()
    execution.close()
    return flags


@pytest.mark.parametrize("master", ["compiled", "python"])
def test_a_step_a_rollback_may_follow_tells_the_fmu_so(integrator_fmu, tmp_path, monkeypatch, master):
    """``noSetFMUStatePriorToCurrentPoint`` is false for every step of a
    component that the iterated midpoint may roll back (the oscillator's
    two), true for the others (a source before its reader; FMI 2.0 section
    4.2.3), by the compiled step and by the Python algorithm."""
    monkeypatch.setenv("CRANE_COSIM_MASTER", master)
    assert _flags_of_a_step(_oscillator(integrator_fmu, "iterated-midpoint", 0.1, stop_time=0.2),
                            tmp_path / "loop") == {"a": {0}, "b": {0}}
    s = System("Chain", stop_time=0.2, step=0.1, algorithm="iterated-midpoint", base_dir=integrator_fmu.parent)
    s.add_component("source", integrator_fmu.name, x0=1.0)
    s.add_component("sink", integrator_fmu.name)
    s.connect("source.y", "sink.u")
    assert _flags_of_a_step(s, tmp_path / "chain") == {"source": {1}, "sink": {1}}


def test_at_a_communication_point_each_component_is_read_once_its_inputs_are_final():
    """The schedule of reads at t + h follows the outputs' dependencies: a
    chain a -> b -> c reads b, then c (a's output is its state's, read
    first); the chain backwards (a reads b, b reads c, c reads a, a's output
    its state's) reads c then b, where passes in order would take three; a
    loop of direct feedthrough is one group, read round until it settles;
    Strings exchanged leave the passes to it."""
    from crane_cosim.runtime.algorithms.graph import point_schedule

    def schedule(routes, feedthrough_a=False):
        return point_schedule(fake.plan([fake.model("a", feedthrough=feedthrough_a), fake.model("b"),
                                         fake.model("c")], routes))

    assert schedule({"b": [0], "c": [1]}) == ([((1,), False), ((2,), False)], [0])
    assert schedule({"a": [1], "b": [2], "c": [0]}) == ([((2,), False), ((1,), False)], [0])
    assert schedule({"a": [2], "b": [0], "c": [1]}, feedthrough_a=True) == ([((0, 1, 2), True)], [0, 1, 2])
    p = fake.plan([fake.model("a"), fake.model("b")], {"b": [0]})
    p.string_routes[1].append(fake.route(0))
    assert point_schedule(p) is None


def test_reading_along_the_schedule_is_reading_in_passes(fmu_dir, tmp_path, monkeypatch):
    """The crane on the vessel read at each communication point along the
    schedule (controller, crane, vessel, crane: four reads) and in three
    passes in order (eight): the same run, bit for bit."""
    from crane_cosim import scenarios
    from crane_cosim.files.results import read_results
    from crane_cosim.runtime.algorithms import midpoint

    def run(out):
        s = scenarios.crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.2)
        run_cosim(s, out, progress=False)
        return read_results(out)

    scheduled = run(tmp_path / "scheduled")
    monkeypatch.setattr(midpoint, "point_schedule", lambda plan: None)
    passes = run(tmp_path / "passes")
    assert scheduled.equals(passes)


def test_a_state_is_saved_into_the_last_where_the_fmu_says_it_can(fmu_dir, tmp_path, monkeypatch):
    """Our FMUs' binary (its marker ``crane_cosim_fmi2_shim``) overwrites a
    state given back to fmi2GetFMUstate (FMI 2.0 section 2.1.8): each
    component the iterated midpoint rolls back keeps one state, saved into
    step after step and freed with the instance, and the run is the one in
    which every step saves a new state and frees it, bit for bit."""
    from crane_cosim import scenarios
    from crane_cosim.runtime import fmi2

    freed = []
    free = fmi2.FMUInstance.free_state
    monkeypatch.setattr(fmi2.FMUInstance, "free_state", lambda self, state: (freed.append(self.name), free(self, state)))

    def run(out):
        s = scenarios.crane_on_vessel(base_dir=fmu_dir.parent, fmu_dir=fmu_dir.name, stop_time=0.1)
        run_cosim(s, out, progress=False)
        return read_results(out)

    kept = run(tmp_path / "kept")
    assert freed == []  # 50 steps, three components rolled back: no state freed in the steps
    monkeypatch.setattr(fmi2, "_exports", lambda dll, name: False)
    fresh = run(tmp_path / "fresh")
    assert len(freed) == 3 * 50
    assert kept.equals(fresh)
