"""What the master reads of an FMU (``runtime/model.py``): FMI 2.0 and 3.0
descriptions, the roles this project's FMUs declare, and what is refused
by name before anything runs (clocks, an FMU without co-simulation)."""
import zipfile

import pytest

from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import System, problems_of
from crane_cosim.runtime.model import read_model

FMI3_CS = '''<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="{name}" instantiationToken="{{0}}">
  {interface}
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    {variables}
  </ModelVariables>
  <ModelStructure/>
</fmiModelDescription>
'''


def _fmu(path, text):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("modelDescription.xml", text)
    return path


def test_an_fmi3_fmu_with_clocks_is_refused_by_name(tmp_path):
    _fmu(tmp_path / "Clocked.fmu", FMI3_CS.format(
        name="Clocked", interface='<CoSimulation modelIdentifier="Clocked" hasEventMode="true"/>',
        variables='<Clock name="tick" valueReference="1" causality="input" intervalVariability="constant" '
                  'intervalDecimal="0.1"/>'))
    s = System("S", stop_time=1.0, step=0.1, base_dir=tmp_path)
    s.add_component("c", "Clocked.fmu")
    problems, _ = problems_of(s)
    assert problems == ["component c (Clocked.fmu) cannot run here: it has clocks (tick), which need event mode, "
                        "and crane-cosim runs FMI 3.0 co-simulation without event mode"]


@pytest.mark.parametrize("version, interface, sentence", [
    ("3.0", '<ScheduledExecution modelIdentifier="S"/>',
     "is not a co-simulation FMU (it offers scheduled execution only); crane-cosim runs co-simulation FMUs"),
    ("3.0", '<ModelExchange modelIdentifier="S"/>',
     "is not a co-simulation FMU (it offers model exchange only); crane-cosim runs co-simulation FMUs"),
])
def test_an_fmu_without_co_simulation_is_refused_by_name(tmp_path, version, interface, sentence):
    path = _fmu(tmp_path / "S.fmu", FMI3_CS.format(name="S", interface=interface, variables=""))
    with pytest.raises(CraneCosimError) as exc:
        read_model(path)
    assert str(exc.value) == f"FMU {path} {sentence}"


def test_the_types_of_fmi2_and_fmi3_are_read(typed_fmus):
    c2, c3 = read_model(typed_fmus / "Counter2.fmu"), read_model(typed_fmus / "Counter3.fmu")
    assert (c2.fmi_version, c3.fmi_version) == ("2.0", "3.0")
    assert c2.variables["mode"].items == c3.variables["mode"].items == (("off", 1), ("slow", 2), ("fast", 3))
    assert (c2.variables["increment"].min, c2.variables["increment"].max) == (0, 100)
    assert c2.variables["count"].initial == "exact" and c2.variables["running"].initial == "calculated"
    assert c3.variables["offset"].start == 10_000_000_000 and c3.variables["history"].shape == (3,)
    assert c2.dependencies["running"] is None  # pythonfmu declares none: every input
    assert not c3.capabilities.can_interpolate_inputs and c3.capabilities.can_get_and_set_state


def test_this_projects_fmus_say_what_their_interface_ports_are_for(fmu_dir):
    roles = read_model(fmu_dir / "Crane.fmu").with_roles()
    assert roles["W_mount_fx"] == "interface.wrench.fx" and roles["p_A_nz"] == "interface.bias.nz"
    assert roles["I_A_46"] == "interface.inertia.46" and "W_king_fx" not in roles
    assert read_model(fmu_dir / "Vessel.fmu").with_roles()["p_A_fz"] == "interface.bias.fz"
