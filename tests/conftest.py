"""Shared fixtures: FMUs are built once per test session into a temporary
folder (build outputs are never committed)."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from made_once import made_once
from crane_cosim.example_sets import example_parameter_sets
from crane_cosim.fmus.portable import build_portable_fmu


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker per core and one more.  Some tests wait on
    what no worker's CPU time shows (Wine's server, a compiler, a peer over
    a socket, another worker making a shared fixture), and with a worker
    per core the cores then stand idle: about a tenth of the suite's time
    on two cores (docs/benchmarks.md)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Under continuous integration (``CI`` set) a test that skips fails,
    unless marked ``may_skip``: a test that must run never skips silently
    there."""
    outcome = yield
    report = outcome.get_result()
    from crane_cosim.blocks.jit import under_ci
    if report.skipped and under_ci() and item.get_closest_marker("may_skip") is None \
            and not hasattr(report, "wasxfail"):
        reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped under CI, where every test must run: {reason}"


@pytest.fixture(scope="session")
def fmu_dir(tmp_path_factory):
    from crane_cosim.fmus.build import build_all
    out = tmp_path_factory.mktemp("fmus")
    build_all(out)
    return out


@pytest.fixture(scope="session")
def portable_fmu(tmp_path_factory, worker_id, fmu_dir):
    """``portable_fmu(model)``: the block's portable FMU (``fmus/portable.py``),
    with the examples' parameter sets as ``crane-cosim build-fmus
    --portable`` writes them, built from its lean FMU once for the whole
    session (:func:`made_once`), where a test first asks for it: 119 to
    236 MB (its Windows binary too).  The tests only read it."""
    def get(model: str) -> Path:
        folder = made_once(tmp_path_factory, worker_id, f"portable-{model}",
                           lambda out: build_portable_fmu(model, out, lean=fmu_dir / f"{model}.fmu",
                                                          sets=example_parameter_sets().get(model, ())))
        return folder / f"{model}.fmu"
    return get


@pytest.fixture(scope="session")
def choice_fmu(tmp_path_factory):
    """``Choice.fmu``: the test-only block with String parameters
    (``tests/choice_block.py``), built from its class, alone in its folder."""
    from choice_block import Choice
    from crane_cosim.fmus.build import build_block_fmu
    return build_block_fmu(Choice, tmp_path_factory.mktemp("choice"))


@pytest.fixture(scope="session")
def integrator_fmu(tmp_path_factory):
    """``Integrator.fmu``: the test-only integrator (``tests/integrator_block.py``),
    built from its class, alone in its folder."""
    from integrator_block import Integrator
    from crane_cosim.fmus.build import build_block_fmu
    return build_block_fmu(Integrator, tmp_path_factory.mktemp("integrator"))


@pytest.fixture
def rng():
    return np.random.default_rng(20181)


@pytest.fixture(scope="session")
def typed_fmus(tmp_path_factory):
    """The folder of ``Pulse2.fmu`` and ``Counter2.fmu`` (FMI 2.0, built with
    pythonfmu) and ``Counter3.fmu`` (FMI 3.0, built with pythonfmu3): test
    FMUs with inputs and outputs of every type, ``Stepper2.fmu``, one
    that cannot vary its step, and ``Quitter2.fmu``, one that discards its
    steps from a time on (``tests/typed_fmus``), built by their tools'
    own command lines, each in a process of its own."""
    import subprocess
    import sys
    from pathlib import Path
    out = tmp_path_factory.mktemp("typed")
    src = Path(__file__).parent / "typed_fmus"
    for tool, script, extra, options in (("pythonfmu", "pulse2.py", ["typed_fmi2.py"], []),
                                         ("pythonfmu", "counter2.py", ["typed_fmi2.py"], []),
                                         ("pythonfmu3", "counter3.py", [], []),
                                         ("pythonfmu", "stepper2.py", [], ["--no-variable-step"]),
                                         ("pythonfmu", "quitter2.py", [], [])):
        subprocess.run([sys.executable, "-m", tool, "build", "-f", str(src / script), *(str(src / e) for e in extra),
                        "-d", str(out), "--handle-state", "--no-external-tool", *options], check=True,
                       capture_output=True)
    return out
