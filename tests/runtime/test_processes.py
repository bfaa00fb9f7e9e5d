"""Components in processes of their own (``crane-cosim run --processes``,
``fmus/portable.py``, ``fmus/native/fmi2_proxy.c``): the same results as in
the master's process, bit for bit; a component's process that is killed or
hangs ends the run with one clear message and the results so far; no
component's process outlives the run, however the master ends."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.ipc as ipc
import pytest

from crane_cosim.blocks.jit import under_ci
from limits import HUNG

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel"
PROGRAM = "crane-cosim-fmu-process"


@pytest.fixture(autouse=True)
def _linux():
    if not sys.platform.startswith("linux"):
        if under_ci():
            pytest.fail("components out of process run on Linux, where CI runs")
        pytest.skip("components out of process run on Linux")


#: the offshore knuckle boom crane, whose two cylinders step at the same time in each pass
KNUCKLE_BOOM = EXAMPLE.parent / "offshore_knuckle_boom"


def _command(out: Path, *options, example: Path = EXAMPLE) -> list[str]:
    return [sys.executable, "-m", "crane_cosim.cli", "run", str(example), "--out", str(out), "--no-plots", *options]


def _results(folder: Path):
    with ipc.open_stream(folder / "results.arrows") as stream:
        return stream.read_pandas()


def _children(pid: int) -> dict[int, str]:
    """The component processes started by process ``pid``: pid -> command line."""
    found = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            try:
                line = Path(f"/proc/{kid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if PROGRAM in line:
                found[kid] = line
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _running(out: Path, *options, example: Path = EXAMPLE, components: int = 3, rows: int = 125):
    """The run started, once its components' processes are up and it has
    recorded ``rows`` rows: (process, component processes)."""
    proc = subprocess.Popen(_command(out, "--stop-time", "20", "--processes", *options, example=example),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HUNG
    while time.monotonic() < deadline and proc.poll() is None:
        children = _children(proc.pid)
        if len(children) == components and (out / "results.arrows").is_file():
            try:
                if len(_results(out)) > rows:
                    return proc, children
            except (OSError, ValueError):
                pass  # a stream being written: not a whole batch yet
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"the run did not get going: {proc.communicate()[1][-2000:]}")


def _component(children: dict, name: str) -> int:
    return next(pid for pid, line in children.items() if f"/{name}/binaries/" in line)


def _ended(proc) -> tuple[int, str, float]:
    """The run's exit code, its stderr and how long it took to end [s]."""
    t0 = time.monotonic()
    _, err = proc.communicate(timeout=HUNG)
    return proc.returncode, err, time.monotonic() - t0


def _cut_short(folder: Path) -> bool:
    """Whether the run in ``folder`` ended before its stop time (20 s): it
    ended on what happened to a component, not by stepping on to the end."""
    return float(_results(folder)["time"].iloc[-1]) < 20


def _none_left(children: dict) -> None:
    deadline = time.monotonic() + 60  # a process whose channel closed ends in well under this, at any load
    while time.monotonic() < deadline and any(map(_alive, children)):
        time.sleep(0.05)
    assert not [pid for pid in children if _alive(pid)], "a component's process outlived the run"


def test_a_run_out_of_process_equals_the_run_in_process(tmp_path):
    """The crane on the vessel over 2 s, each component in a process of its
    own: every recorded value the same bits as the run in one process."""
    for folder, options in (("in", ()), ("out", ("--processes",))):
        proc = subprocess.run(_command(tmp_path / folder, "--stop-time", "2", *options), capture_output=True,
                              text=True, timeout=HUNG)
        assert proc.returncode == 0, proc.stderr[-3000:]
    inside, outside = _results(tmp_path / "in"), _results(tmp_path / "out")
    assert list(inside.columns) == list(outside.columns) and len(inside) == 1001
    np.testing.assert_array_equal(outside.to_numpy(), inside.to_numpy())


def test_components_that_step_together_give_the_bits_of_the_run_in_process(tmp_path, monkeypatch):
    """The offshore knuckle boom crane over 0.5 s with --processes: its two
    cylinders, which read nothing of each other, step at the same time in
    every pass, each in its process (the other components one after
    another, each reading the one before it); every recorded value the same
    bits as the run in one process, and as the run with every component
    stepped one after another (``CRANE_COSIM_STEP_TOGETHER=0``)."""
    from crane_cosim.ssp import open_system
    from crane_cosim.runtime import run_cosim
    from crane_cosim.runtime.compiled import engine
    from crane_cosim.runtime.config import RunConfig

    together = []
    plan_of = engine._together

    def spy(alg):
        rows = plan_of(alg)
        together.append({alg.instances[k].name for (_, k, _, _), joins in zip(alg.pass_steps, rows) if joins})
        return rows
    monkeypatch.setattr(engine, "_together", spy)
    results = {}
    for name, processes, env in (("in", False, "1"), ("out", True, "1"), ("one_by_one", True, "0")):
        monkeypatch.setenv(engine.TOGETHER_SWITCH, env)
        with open_system(KNUCKLE_BOOM) as opened:
            opened.system.stop_time = 0.5
            result = run_cosim(opened.system, tmp_path / name, RunConfig(progress=False, processes=processes))
        assert result.status == "completed"
        results[name] = _results(tmp_path / name).to_numpy()
    # in process no component takes its calls in one crossing; out of process the jib cylinder joins the boom's
    assert together == [set(), {"jib_cylinder"}, set()]
    assert results["in"].shape[0] == 101
    np.testing.assert_array_equal(results["out"], results["in"])
    np.testing.assert_array_equal(results["one_by_one"], results["in"])


def test_a_component_killed_while_stepping_together_ends_the_run(tmp_path):
    """The jib cylinder's process killed while the run goes, the boom
    cylinder's stepping at the same time: the run ends with one sentence
    naming the jib cylinder and how its process ended, the results so far
    on disk, no process left."""
    proc, children = _running(tmp_path, example=KNUCKLE_BOOM, components=6, rows=20)
    rows = len(_results(tmp_path))
    os.kill(_component(children, "jib_cylinder"), signal.SIGKILL)
    code, err, _ = _ended(proc)
    assert code != 0 and _cut_short(tmp_path)
    message = err.strip().splitlines()[-1]
    assert message.startswith("crane-cosim: error: component jib_cylinder (HydraulicCylinder.fmu) "), message
    assert "the FMU's process (pid " in message and "was killed by signal 9" in message
    assert len(_results(tmp_path)) >= rows
    _none_left(children)


def test_a_killed_component_ends_the_run_with_the_results_so_far(tmp_path):
    """The crane's process killed (SIGKILL) while the run goes: the run ends
    at once with one sentence naming the component, the call and how its
    process ended; the rows recorded before are on disk; no process is
    left."""
    proc, children = _running(tmp_path)
    rows = len(_results(tmp_path))
    os.kill(_component(children, "crane"), signal.SIGKILL)
    code, err, _ = _ended(proc)
    assert code != 0 and _cut_short(tmp_path)
    message = err.strip().splitlines()[-1]
    assert message.startswith("crane-cosim: error: component crane (Crane.fmu) ")
    assert "the FMU's process (pid " in message and "was killed by signal 9" in message
    assert "the results up to t = " in message
    assert len(_results(tmp_path)) >= rows
    _none_left(children)


def test_a_component_that_hangs_ends_the_run_after_the_call_timeout(tmp_path):
    """The vessel's process stopped (SIGSTOP, as a process that hangs):
    with --call-timeout 1 the run ends a second later, saying so; the
    stopped process is killed; the results so far are on disk.  (The
    initialization, which may load or compile the kernels for longer, is
    not bounded: a cold cache takes seconds there.)"""
    proc, children = _running(tmp_path, "--call-timeout", "1")
    os.kill(_component(children, "vessel"), signal.SIGSTOP)
    code, err, took = _ended(proc)
    assert code != 0 and took > 0.9 and _cut_short(tmp_path)
    message = err.strip().splitlines()[-1]
    assert "component vessel (Vessel.fmu)" in message and "did not answer within 1 s" in message
    assert "was killed by signal 9" in message
    assert len(_results(tmp_path)) > 125
    _none_left(children)


def test_no_component_process_outlives_a_killed_master(tmp_path):
    """The master killed (SIGKILL, no handler runs): each component's
    process sees its end of the channel close and ends."""
    proc, children = _running(tmp_path)
    proc.kill()
    proc.communicate(timeout=HUNG)
    _none_left(children)


def test_the_master_knows_the_version_of_the_proxy_it_builds(tmp_path):
    """The master calls the proxy's own entry points (one saved state, a
    step's calls in one crossing) only from a proxy of the version it
    knows, so that a portable FMU built by another version of the project
    is called through the FMI functions alone: the proxy built here is of
    that version."""
    import ctypes

    from crane_cosim.fmus.native import proxy_binary
    from crane_cosim.runtime.fmi2 import PROXY_VERSION, _proxy_version

    path = tmp_path / "proxy.so"
    path.write_bytes(proxy_binary())
    assert _proxy_version(ctypes.CDLL(str(path))) == PROXY_VERSION
    assert _proxy_version(ctypes.CDLL(None)) is None
