"""What the master reads of an FMU (``runtime/model.py``): FMI 2.0 and 3.0
descriptions, the roles this project's FMUs declare, and what is refused
by name before anything runs (clocks, an FMU without co-simulation)."""
import zipfile

import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.ssp import write_ssd
from crane_cosim.runtime import System, problems_of
from crane_cosim.runtime.loading import open_instance
from crane_cosim.runtime.model import models_of, read_model
from crane_cosim.scenarios import crane_on_vessel, offshore_knuckle_boom

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


def _fmu(path, text, binaries=("x86_64-linux",)):
    """An FMU at ``path`` of the modelDescription ``text`` and an (empty)
    library of its file's name for each platform of ``binaries``."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("modelDescription.xml", text)
        for platform in binaries:
            z.writestr(f"binaries/{platform}/{path.stem}{'.dll' if 'win' in platform else '.so'}", b"")
    return path


def test_an_fmi3_fmu_with_clocks_is_refused_by_name(tmp_path):
    _fmu(tmp_path / "Clocked.fmu", FMI3_CS.format(
        name="Clocked", interface='<CoSimulation modelIdentifier="Clocked" hasEventMode="true"/>',
        variables='<Clock name="tick" valueReference="1" causality="input" intervalVariability="constant" '
                  'intervalDecimal="0.1"/>'))
    s = System("S", stop_time=1.0, step=0.1, base_dir=tmp_path)
    s.add_component("c", "Clocked.fmu")
    problems, _ = problems_of(s)
    assert problems == ["component c (Clocked.fmu) cannot run here: it has clocks (tick), which need clocked event "
                        "handling, which crane-cosim does not do (it runs FMI 3.0 co-simulation without event mode, "
                        "and Model Exchange with events of time and state only)"]


@pytest.mark.parametrize("version, interface, sentence", [
    ("3.0", '<ScheduledExecution modelIdentifier="S"/>',
     "is neither a co-simulation nor a Model Exchange FMU (it offers scheduled execution only); crane-cosim runs "
     "those two"),
    ("3.0", "", "is neither a co-simulation nor a Model Exchange FMU (it offers no interface); crane-cosim runs "
     "those two"),
])
def test_an_fmu_of_neither_interface_is_refused_by_name(tmp_path, version, interface, sentence):
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


@pytest.mark.parametrize("version, binaries, sentence", [
    ("3.0", ("x86_64-windows", "aarch64-darwin"), "it holds binaries for aarch64-darwin and x86_64-windows only, and "
     "crane-cosim runs an FMU's x86_64-linux binary (binaries/x86_64-linux/W.so)"),
    ("2.0", ("win64", "darwin64"), "it holds binaries for darwin64 and win64 only, and crane-cosim runs an FMU's "
     "linux64 binary (binaries/linux64/W.so)"),
    ("2.0", (), "it holds no binary for any platform, and crane-cosim runs an FMU's linux64 binary "
     "(binaries/linux64/W.so)"),
    ("2.0", ("x86_64-linux",), "it holds binaries for x86_64-linux only, and crane-cosim runs an FMU's linux64 "
     "binary (binaries/linux64/W.so)"),   # FMI 3.0's folder in an FMI 2.0 FMU
])
def test_an_fmu_without_a_linux_binary_is_refused_by_name_with_its_platforms(tmp_path, capsys, version, binaries,
                                                                             sentence):
    """``check`` and ``run`` name the FMU and the platforms it has, exit 2,
    where the run failed with "Cannot find shared library" (exit 3)."""
    text = FMI3_CS.format(name="W", interface='<CoSimulation modelIdentifier="W"/>', variables="") \
        if version == "3.0" else FMI2_CS
    _fmu(tmp_path / "W.fmu", text, binaries)
    s = System("S", stop_time=1.0, step=0.1, base_dir=tmp_path)
    s.add_component("w", "W.fmu")
    ssd = write_ssd(s, tmp_path / "s.ssd")
    for command in (["check", str(ssd)], ["run", str(ssd), "--out", str(tmp_path / "out"), "--no-plots"]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip()
        assert err.splitlines()[0] == f"crane-cosim: error: component w (W.fmu) cannot run here: {sentence}", err
    assert not (tmp_path / "out").exists()
    with pytest.raises(CraneCosimError) as exc:   # an FMU opened on its own, outside a system
        open_instance(tmp_path / "W.fmu", tmp_path / "unzipped")
    assert str(exc.value) == f"component W (W.fmu) cannot run here: {sentence}"


FMI2_CS = '''<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="W" guid="{0}">
  <CoSimulation modelIdentifier="W"/>
  <ModelVariables>
    <ScalarVariable name="y" valueReference="0" causality="output"><Real/></ScalarVariable>
  </ModelVariables>
  <ModelStructure><Outputs><Unknown index="1"/></Outputs></ModelStructure>
</fmiModelDescription>
'''


@pytest.mark.parametrize("text, sentence", [
    ('<fmiModelDescription fmiVersion="4.0" modelName="M"><ModelVariables><ScalarVariable name="x"><Real/>'
     '</ScalarVariable></ModelVariables></fmiModelDescription>',
     'is an FMI 4.0 FMU (its modelDescription.xml says fmiVersion="4.0"); crane-cosim runs FMI 1.0 co-simulation, '
     'and FMI 2.0 and 3.0 co-simulation and Model Exchange FMUs'),
    ('<fmiModelDescription modelName="M"/>', "has a modelDescription.xml that declares no fmiVersion"),
    ('<fmiModel fmiVersion="2.0"/>', "has a modelDescription.xml whose root element is <fmiModel>, not "
                                      "<fmiModelDescription>"),
    (FMI2_CS.replace(' valueReference="0"', ""), "has a modelDescription.xml whose variable 1 ('y') has no "
                                                   "valueReference"),
    (FMI2_CS.replace('valueReference="0"', 'valueReference="zero"'),
     "has a modelDescription.xml whose variable 1 ('y') has the valueReference 'zero', not a whole number"),
    (FMI2_CS.replace('name="y" ', ""), "has a modelDescription.xml whose variable 1 has no name"),
    (FMI2_CS.replace("<Real/>", ""), "has a modelDescription.xml whose variable 1 ('y') has no type (one of Real, "
                                     "Integer, Boolean, String, Enumeration)"),
    (FMI2_CS.replace('index="1"', 'index="4"'), "has a modelDescription.xml whose ModelStructure names variable "
                                                  "index '4', which is not one of its 1 variables"),
    (FMI3_CS.format(name="M", interface='<CoSimulation modelIdentifier="M"/>',
                    variables='<Float64 name="y" causality="output"/>'),
     "has a modelDescription.xml whose variable 2 ('y') has no valueReference"),
    (FMI3_CS.format(name="M", interface='<CoSimulation modelIdentifier="M"/>',
                    variables='<Float64 name="y" valueReference="1" causality="output"/>').replace(
        "<ModelStructure/>", '<ModelStructure><Output valueReference="7"/></ModelStructure>'),
     "has a modelDescription.xml whose ModelStructure's <Output> names the valueReference '7', which no variable "
     "has"),
    (FMI3_CS.format(name="M", interface='<CoSimulation modelIdentifier="M"/>',
                    variables='<Float64 name="y" valueReference="1" causality="output" declaredType="Nope"/>'),
     'has a modelDescription.xml that does not follow the FMI 3.0 schema (Variable "y" (line 6) has '
     'declaredType="Nope" which has not been defined.)'),
])
def test_a_malformed_model_description_is_one_sentence(tmp_path, text, sentence):
    """A description fmpy cannot read (an FMI 1.0 one among them) is named
    in one sentence, not in Python's words about a None."""
    path = _fmu(tmp_path / "M.fmu", text)
    with pytest.raises(CraneCosimError) as exc:
        read_model(path)
    assert str(exc.value) == f"FMU {path} {sentence}"


def test_models_of_a_system(tmp_path):
    assert models_of(crane_on_vessel(base_dir=tmp_path)) == {"Vessel", "Crane", "Controller"}
    assert "KnuckleBoomCrane" in models_of(offshore_knuckle_boom(base_dir=tmp_path))
