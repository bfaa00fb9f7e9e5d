"""Swapping a subsystem (docs/swapping.md): ``crane-cosim check``, ``run
--replace`` and ``System.replace``, with the swaps a user makes: ideal and
hydraulic cylinders, another crane on the vessel, a controller of one's own."""
import textwrap

import numpy as np
import pytest

from crane_cosim.runtime import problems_of, replace_component
from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.scenarios import crane_on_vessel, offshore_knuckle_boom
from crane_cosim.ssp import write_ssd
from crane_cosim.files.results import read_results

KP, KD = 3e4, 8e3


@pytest.fixture(scope="module")
def own_controller(tmp_path_factory):
    """A PD controller as a user might write it with pythonfmu, outside this
    project: the ports of ``Controller`` (no units declared), its own law
    ``tau = -kP q - kD u`` on every joint, no set-point schedule."""
    from pythonfmu.builder import FmuBuilder
    src = tmp_path_factory.mktemp("own_src")
    script = src / "MyPD.py"
    script.write_text(textwrap.dedent(f'''
        from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real

        class MyPD(Fmi2Slave):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                for j in ("slew", "boom", "jib"):
                    for v in ("q", "u", "tau"):
                        setattr(self, f"{{v}}_{{j}}", 0.0)
                    self.register_variable(Real(f"q_{{j}}", causality=Fmi2Causality.input))
                    self.register_variable(Real(f"u_{{j}}", causality=Fmi2Causality.input))
                    self.register_variable(Real(f"tau_{{j}}", causality=Fmi2Causality.output,
                                                getter=lambda j=j: -{KP} * getattr(self, f"q_{{j}}")
                                                                   - {KD} * getattr(self, f"u_{{j}}")))

            def do_step(self, current_time, step_size):
                return True
    '''))
    return FmuBuilder.build_FMU(script, dest=tmp_path_factory.mktemp("own"))


@pytest.fixture
def vessel_system(tmp_path, fmu_dir):
    def make(stop_time=0.5, **kw):
        s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=stop_time, **kw)
        return s, write_ssd(s, tmp_path / "system.ssd")
    return make


def test_check_passes_a_system_that_fits(capsys, vessel_system):
    _, ssd = vessel_system()
    assert main(["check", str(ssd)]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith("CraneOnVessel: 3 components, 57 connections: files, connections, types, units, values and "
                                "capabilities check out")


def test_check_names_every_problem_and_runs_nothing(capsys, vessel_system, tmp_path):
    s, _ = vessel_system()
    s.connect("vessel.q_roll", "crane.tau_slew")  # a unit mismatch and a second driver
    s.set_parameter("crane.m_boom", -1.0)
    s.set_parameter("controller.kP_slw", 1.0)
    ssd = write_ssd(s, tmp_path / "broken.ssd")
    assert main(["check", str(ssd)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "crane-cosim: CraneOnVessel does not fit together (4 problems)"
    assert err[:-1] == [
        "crane-cosim: error: connection vessel.q_roll -> crane.tau_slew joins mismatched units: rad to N.m",
        "crane-cosim: error: input crane.tau_slew is driven by two connections: "
        "controller.tau_slew -> crane.tau_slew and vessel.q_roll -> crane.tau_slew",
        "crane-cosim: error: component crane: Crane parameter m_boom = -1 kg is invalid: it must be positive",
        "crane-cosim: error: component controller (Controller.fmu) has no variable 'kP_slw' (did you mean "
        "'kP_slew'?)"]
    assert not (tmp_path / "results").exists()


def test_another_crane_on_the_vessel_names_every_port_that_does_not_fit(capsys, vessel_system, fmu_dir, tmp_path):
    """The knuckle boom crane has the mount's ports (the vessel side fits) and
    a slew joint of the same name, but cylinders where this crane has boom
    and jib joints: every connection it cannot take is named, and nothing
    runs."""
    _, ssd = vessel_system()
    code = main(["run", str(ssd), "--replace", f"crane={fmu_dir / 'KnuckleBoomCrane.fmu'}", "--no-plots"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0] == ("crane-cosim: error: component crane cannot be replaced by KnuckleBoomCrane.fmu: "
                        "2 problems:")
    # the slew joint's ports have the same names and units in both cranes, and
    # the knuckle boom crane outputs its boom and jib angles and rates too;
    # its booms are moved by cylinders, not torques
    missing = sorted(l.split("'")[1] for l in lines[1:])
    assert missing == ["tau_boom", "tau_jib"]
    assert all("mount" not in l and "I_A" not in l and "p_A" not in l for l in lines)
    assert not (tmp_path / "results").exists()


def test_replace_in_python_leaves_the_system_as_it_was_when_the_fmu_does_not_fit(vessel_system, fmu_dir):
    s, _ = vessel_system()
    before = s.component("controller").source
    with pytest.raises(CraneCosimError, match=r"component controller cannot be replaced by Vessel.fmu: \d+ problems"):
        replace_component(s, "controller", fmu_dir / "Vessel.fmu")
    assert s.component("controller").source == before


def test_a_controller_of_ones_own(capsys, vessel_system, own_controller, tmp_path, fmu_dir):
    """A PD controller built outside the project cannot save and restore its
    state (pythonfmu's default), which the example's own algorithm, the
    iterated midpoint, needs: the swap is refused in one sentence that says
    to use Gauss-Seidel, and nothing runs.  With ``--algorithm
    gauss-seidel`` it runs in place of ours: the torques of the run are its
    law's, from the crane's newest state (Gauss-Seidel: the controller steps
    after the crane), and check notes that its ports declare no units."""
    s, ssd = vessel_system()
    before = s.component("controller").source
    with pytest.raises(CraneCosimError, match=r"^component controller cannot be replaced by MyPD\.fmu: component "
                                              r"controller \(MyPD\.fmu\) cannot save and restore its state .*; "
                                              r"use gauss-seidel for this system \(--algorithm gauss-seidel\)$"):
        replace_component(s, "controller", own_controller)
    assert s.component("controller").source == before
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--replace", f"controller={own_controller}", "--out", str(out), "--no-plots"]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("crane-cosim: error: component controller cannot be replaced by MyPD.fmu: component "
                               "controller (MyPD.fmu) cannot save and restore its state (canGetAndSetFMUstate is "
                               "false), which the iterated-midpoint algorithm needs")
    assert lines[0].endswith("; use gauss-seidel for this system (--algorithm gauss-seidel)")
    assert not out.exists()

    s = crane_on_vessel(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.5, algorithm="gauss-seidel")
    replace_component(s, "controller", own_controller)  # the Python API fits it
    assert s.component("controller").source == str(own_controller)
    problems, notes = problems_of(s)
    assert problems == [] and any("controller.q_slew declares no unit; taken to be rad" in n for n in notes)
    assert main(["run", str(ssd), "--replace", f"controller={own_controller}", "--algorithm", "gauss-seidel",
                 "--out", str(out), "--no-plots"]) == 0  # the example's system file, at its 2 ms
    df = read_results(out)
    for j in ("slew", "boom", "jib"):
        law = -KP * df[f"crane.q_{j}"] - KD * df[f"crane.u_{j}"]
        # to the 12 significant digits results.csv keeps
        np.testing.assert_allclose(df[f"controller.tau_{j}"].iloc[1:], law.iloc[1:], rtol=1e-10, atol=1e-9)
    assert "controller.q_slew_ref" not in df.columns  # not our controller
    assert np.abs(df["crane.q_boom"]).max() > 1e-3  # the booms sag under this law: it acts


def test_ideal_cylinders_in_place_of_hydraulic_ones(capsys, tmp_path, fmu_dir):
    """``hydraulic = false`` turns each cylinder into an ideal force actuator
    fed by the controller's force demand (connected in the example): its
    force is the demand of the previous communication point (Gauss-Seidel:
    the cylinders step before the controller) plus the seal friction of
    this one (the friction steps before the cylinders).  The system by
    Gauss-Seidel at 1 ms, whose order this relation is, not the example's
    iterated midpoint at 5 ms."""
    ssd = write_ssd(offshore_knuckle_boom(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=0.5, step=1e-3,
                                          algorithm="gauss-seidel"), tmp_path / "system.ssd")
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--set", "boom_cylinder.hydraulic=false", "--set", "jib_cylinder.hydraulic=false",
                 "--out", str(out), "--no-plots"]) == 0
    df = read_results(out)
    for c, name in (("boom_cyl", "boom_cylinder"), ("jib_cyl", "jib_cylinder")):
        np.testing.assert_allclose((df[f"{name}.F"] - df[f"friction.F_f_{c}"]).iloc[1:].to_numpy(),
                                   df[f"controller.F_{c}"].iloc[:-1].to_numpy(), rtol=1e-11)
        assert (df[f"{name}.Q_A"] == 0).all()  # no oil moves in an ideal actuator


def test_a_spring_supported_base_in_place_of_the_vessel(capsys, vessel_system, fmu_dir, tmp_path):
    """The base of Jarzębowska, Urbaś & Augustynek (2018) offers the crane
    the vessel's mount ports: one ``--replace`` stands the crane on it.  The
    base starts with its springs relaxed and bounces on them under the
    weight; averaged over the run, its eight supports carry the base and the
    crane (measured 0.5 kg off the 2090 kg over 2 s: the bounce's last
    part-period)."""
    from crane_cosim.blocks.crane import Crane
    from crane_cosim.blocks.supported_base import SupportedBase
    _, ssd = vessel_system(stop_time=2.0)
    out = tmp_path / "out"
    assert main(["run", str(ssd), "--replace", f"vessel={fmu_dir / 'SupportedBase.fmu'}", "--out", str(out),
                 "--no-plots"]) == 0
    df = read_results(out)
    crane = Crane()
    mass = SupportedBase().p.m + sum(crane.values[f"m_{b}"] for b in ("king", "boom", "jib"))
    carried = sum(df[f"vessel.F_sup{s}_z"] for s in range(1, 9)).mean() / 9.81
    assert carried == pytest.approx(mass, abs=1.5)


def test_a_floating_vessel_in_place_of_the_spring_vessel(capsys, tmp_path, fmu_dir):
    """``--replace vessel=HydroVessel.fmu`` on the offshore knuckle boom: the
    example's values of the spring vessel (mass, springs) are left out with
    a warning that names them, while a ``--set`` of a variable the new
    vessel lacks is still refused.  The crane's weight sinks the barge from
    its level start: the heave's step response overshoots the static
    sinkage W / C33 (W the crane's mean vertical load, C33 the database's
    heave stiffness) and stays within twice it (measured 1.48 times it: a
    step response 15% damped)."""
    from crane_cosim.blocks.hull_database import read_database
    ssd = write_ssd(offshore_knuckle_boom(base_dir=tmp_path, fmu_dir=str(fmu_dir), stop_time=2.0),
                    tmp_path / "system.ssd")
    swap = ["--replace", f"vessel={fmu_dir / 'HydroVessel.fmu'}"]
    assert main(["run", str(ssd), *swap, "--set", "vessel.k_roll=1", "--no-plots"]) == 2
    assert "component vessel (HydroVessel.fmu) has no variable 'k_roll'" in capsys.readouterr().err
    out = tmp_path / "out"
    assert main(["run", str(ssd), *swap, "--out", str(out), "--no-plots"]) == 0
    assert ("crane-cosim: warning: component vessel: the system's values of m, l_mount, cog_z, r_x, r_y, r_z, "
            "k_roll, k_pitch, k_yaw were the replaced model's; HydroVessel.fmu has no such variables, so they are "
            "left out") in capsys.readouterr().err
    df = read_results(out)
    static = df["crane.W_mount_fz"].mean() / read_database("barge").hydrostatic_stiffness[2, 2]
    assert -2 * static < df["vessel.q_heave"].min() < -static
