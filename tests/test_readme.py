"""The README says what is so: the Pythons it names are those
``pyproject.toml`` accepts, its example of ``--tolerance`` meets the
tolerance at the step it names, its command run as written, and its
Python example runs, again and again."""
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from limits import HUNG

ROOT = Path(__file__).resolve().parent.parent
#: the README's text, its line breaks and runs of spaces as one space
README = " ".join((ROOT / "README.md").read_text().split())


def test_the_pythons_named_are_those_pyproject_accepts():
    """``requires-python = ">=X.Y"``: the quick start names X.Y and newer."""
    required = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    oldest = re.fullmatch(r">=\s*(\d+\.\d+)", required)
    assert oldest, f"requires-python is {required!r}, not a lower bound alone: say so in the README"
    named = re.findall(r"Python (\d+\.\d+)( or newer)?", README.split("## Quick start")[1].split("##")[0])
    assert named == [(oldest[1], " or newer")], named


def test_the_tolerance_example_meets_it_at_the_step_named(tmp_path, fmu_dir):
    """The README's ``crane-cosim run ... --tolerance 1e-3`` in a copy of the
    example with its FMUs built: the step it ran at is the one the README
    names (2 ms, the example's own: the largest estimate 0.099% of peak,
    measured 2026-12-02), and the tolerance is met."""
    m = re.search(r"`(crane-cosim run examples/crane_on_vessel [^`]*--tolerance ([0-9.e-]+))` meets it at "
                  r"(?:[^,`]*, )?(\d+(?:\.\d+)?) ms", README)
    assert m, "the README's example of --tolerance is not where this test looks for it"
    command, tolerance, step_ms = m[1], float(m[2]), float(m[3])
    example = tmp_path / "examples" / "crane_on_vessel"
    # what a user's runs left in the example (its built FMUs, results) is not the example's
    shutil.copytree(ROOT / "examples" / "crane_on_vessel", example, ignore=shutil.ignore_patterns("fmus", "results"))
    shutil.copytree(fmu_dir, example / "fmus")
    env = os.environ.copy()
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")  # crane-cosim
    ran = subprocess.run(["bash", "-euo", "pipefail", "-c", f"{command} --no-plots --out out"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=HUNG)
    assert ran.returncode == 0, f"{command} failed ({ran.returncode}):\n{ran.stderr[-3000:]}"
    found = json.loads((tmp_path / "out" / "summary.json").read_text())["coupling_error"]
    assert found["met"] and found["tolerance"] == tolerance and found["largest"] <= tolerance, found
    assert found["step"] == pytest.approx(step_ms / 1000, rel=1e-12), (found["step"], step_ms)


def test_the_python_example_runs_twice(tmp_path):
    """The README's Python example, as written, run twice in one folder: both
    runs complete (the second replaces the first's results)."""
    block = re.search(r"From Python:\n\n```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "the README's Python example is not where this test looks for it"
    for attempt in (1, 2):
        ran = subprocess.run([sys.executable, "-c", block[1]], cwd=tmp_path, capture_output=True, text=True,
                             timeout=HUNG)
        assert ran.returncode == 0, f"run {attempt} failed:\n{ran.stderr[-3000:]}"
        assert json.loads((tmp_path / "work" / "results" / "summary.json").read_text())["status"] == "completed"
