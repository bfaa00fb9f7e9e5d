"""docs/in_the_loop.md's steps for putting a real controller in place of
ours run as written: the bridge built by its ``build-bridge`` command, our
controller served by its ``serve`` command, and the example run by its
``run`` command against that server (its port the one the system gave the
server, the run cut to a fifth of a second).  The commands are read from the
document, so that the document and this test cannot drift apart."""
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from crane_cosim.files.results import read_results
from limits import HUNG

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "in_the_loop.md"
SECTION = "## Putting a real controller in place of ours"
STOP = 0.2  # s: a short run; the document's runs to the example's end


def _commands() -> dict[str, str]:
    """The commands of the section's numbered steps (indented code, a line
    ending in a backslash continued on the next), by subcommand: build-bridge,
    serve, run."""
    text = DOC.read_text()
    section = text[text.index(SECTION):]
    found = re.findall(r"^ {7}(crane-cosim (\S+)(?:[^\n]*\\\n)*[^\n]*)$", section, re.M)
    commands = {}
    for command, sub in found:
        commands.setdefault(sub, command)  # the first of each: the bridge of our Controller
    return commands


COMMANDS = _commands()


def _env() -> dict:
    env = os.environ.copy()
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")  # crane-cosim
    return env


def test_the_steps_give_every_command():
    assert sorted(COMMANDS) == ["build-bridge", "run", "serve"], COMMANDS
    assert COMMANDS["build-bridge"] == "crane-cosim build-bridge Controller"
    assert re.fullmatch(r"crane-cosim serve Controller --port 5000", COMMANDS["serve"]), COMMANDS["serve"]
    assert "controller.port=5000" in COMMANDS["run"], COMMANDS["run"]


def test_the_documented_bridged_run_runs(tmp_path, fmu_dir):
    """In a copy of the example with its FMUs built (as `run` builds them),
    the three steps, the server on a free port: the run completes (exit 0)
    and its controller's outputs are the served controller's answers, every
    request answered."""
    example = tmp_path / "examples" / "crane_on_vessel"
    # what a user's runs left in the example (its built FMUs, results) is not the example's
    shutil.copytree(REPO / "examples" / "crane_on_vessel", example, ignore=shutil.ignore_patterns("fmus", "results"))
    shutil.copytree(fmu_dir, example / "fmus")
    env = _env()
    built = subprocess.run(["bash", "-euo", "pipefail", "-c", COMMANDS["build-bridge"]], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=HUNG)
    assert built.returncode == 0, built.stderr[-3000:]
    assert (tmp_path / "fmus_build" / "ControllerBridge.fmu").is_file()
    # the port the system chooses (--port 0), not 5000, which another program may hold
    serve = COMMANDS["serve"].replace("--port 5000", "--port 0")
    server = subprocess.Popen(["bash", "-c", f"exec {serve}"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline() if select.select([server.stdout], [], [], 120)[0] else ""
        m = re.fullmatch(r"serving Controller on udp://127\.0\.0\.1:(\d+)\n", line)
        assert m, (line, server.poll())
        run = COMMANDS["run"].replace("controller.port=5000", f"controller.port={m[1]}")
        ran = subprocess.run(["bash", "-euo", "pipefail", "-c",
                              f"{run} --stop-time {STOP} --no-plots --out out"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HUNG)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=HUNG)
    assert ran.returncode == 0, f"the documented run failed ({ran.returncode}):\n{run}\n{ran.stderr[-3000:]}"
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["status"] == "completed" and summary["bridges"]["controller"]["status"] == "answered", summary
    df = read_results(tmp_path / "out")
    assert df["time"].iloc[-1] == pytest.approx(STOP) and (df["controller.bridge_answers"].diff().iloc[1:] == 1).all()
