"""FMI 1.0 co-simulation FMUs (``runtime/fmi1.py``; OSP's public demo cases
are FMI 1.0): a spring written for the tests (``tests/typed_fmus/spring1.c``)
driven by this project's Signal FMU, against a hand computation and
against OSP libcosim running the same OSP system file; what a host may
not do with one refused by name."""
import numpy as np
import pytest

import libcosimpy  # noqa: F401  # a missing test dependency is an error, not a skip

from crane_cosim.files.results import read_results
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import RunConfig, System, problems_of, run_cosim
from crane_cosim.ssp import open_system
from misbehaving_fmus import c_fmu

H, K, X0 = 0.1, 2.0, 0.5   # step [s], stiffness [N/m], the spring's rest length [m]

OSP = """<?xml version="1.0" encoding="UTF-8"?>
<OspSystemStructure xmlns="http://opensimulationplatform.com/MSMI/OSPSystemStructure" version="0.1">
  <StartTime>0.0</StartTime>
  <EndTime>1.0</EndTime>
  <BaseStepSize>0.1</BaseStepSize>
  <Algorithm>fixedStep</Algorithm>
  <Simulators>
    <Simulator name="ramp" source="Signal.fmu">
      <InitialValues><InitialValue variable="table"><String value="0 0; 10 10"/></InitialValue></InitialValues>
    </Simulator>
    <Simulator name="spring" source="Spring1.fmu">
      <InitialValues>
        <InitialValue variable="k"><Real value="2.0"/></InitialValue>
        <InitialValue variable="x0"><Real value="0.5"/></InitialValue>
        <InitialValue variable="enabled"><Boolean value="{enabled}"/></InitialValue>
      </InitialValues>
    </Simulator>
  </Simulators>
  <Connections>
    <VariableConnection><Variable simulator="spring" name="x"/><Variable simulator="ramp" name="y"/></VariableConnection>
  </Connections>
</OspSystemStructure>
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory, fmu_dir):
    out = tmp_path_factory.mktemp("fmi1")
    c_fmu("spring1", out)
    (out / "Signal.fmu").write_bytes((fmu_dir / "Signal.fmu").read_bytes())
    for enabled in ("true", "false"):
        (out / f"Spring{enabled}.xml").write_text(OSP.format(enabled=enabled))
    return out


def _hand(enabled: bool) -> tuple:
    """(f, W) at each point: Jacobi passes the ramp's value of a step's start,
    so the spring holds x_j = (j - 1) h over step j, f_k = -K (x_k - X0) with
    x_k the value it holds at t_k (the ramp's at t_{k-1}; at the start, its
    start 0), W_k = sum over j <= k of f_j (x_j - x_{j-1})."""
    n = 11
    x = np.concatenate([[0.0], (np.arange(1, n) - 1) * H])
    f = -K * (x - X0) if enabled else np.zeros(n)
    w = np.concatenate([[0.0], np.cumsum(f[1:] * np.diff(x))])
    return f, w


@pytest.mark.parametrize("enabled", [True, False])
def test_a_spring_of_fmi1_follows_the_hand_computation_and_libcosim(folder, tmp_path, enabled):
    """Its parameters (Real and Boolean) set before fmiInitializeSlave, its
    input each step, its Real and Integer outputs read: f, W and the step
    count are the hand computation's to round-off (measured 2.2e-16, bound
    6.7e-16), and libcosim on the same OSP system file gives them to
    round-off too (its times are whole nanoseconds: the ramp it samples at
    0.3 s is ours at 0.30000000000000004 s; measured 2.2e-16, bound
    6.7e-16)."""
    system_file = folder / f"Spring{str(enabled).lower()}.xml"
    with open_system(system_file) as opened:
        assert problems_of(opened.system)[0] == []
        run_cosim(opened.system, tmp_path / "ours", RunConfig(progress=False))
    ours = read_results(tmp_path / "ours")
    f, w = _hand(enabled)
    assert np.abs(ours["spring.f"].to_numpy() - f).max() < 6.7e-16
    assert np.abs(ours["spring.W"].to_numpy() - w).max() < 6.7e-16
    assert list(ours["spring.count"]) == list(range(11))
    theirs = run_libcosim(str(system_file), outputs=["spring.f", "spring.W"])
    for c in ("spring.f", "spring.W"):
        assert np.abs(theirs[c].to_numpy() - ours[c].to_numpy()).max() < 6.7e-16, c


def test_what_a_host_may_not_do_with_it_is_named(folder):
    s = System("S", stop_time=1.0, step=H, base_dir=folder)
    s.add_component("spring", "Spring1.fmu", f=1.0)
    problems, _ = problems_of(s, RunConfig(processes=True))
    assert problems == [
        "spring.f is an output, and an FMI 1.0 host sets parameters and inputs only",
        "component spring: --processes runs FMI 2.0 co-simulation FMUs in processes of their own; Spring1.fmu is an "
        "FMI 1.0 co-simulation FMU"]
