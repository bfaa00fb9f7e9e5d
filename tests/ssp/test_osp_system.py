"""OSP's own system files (``OspSystemStructure.xml``, ``ssp/osp_system.py``):
the crane on the vessel written as an OSP user writes it (variable groups
in OSP model descriptions, variable connections in either order, a
simulator of its own step, an initial value, a linear transformation
function), read, checked, run equal to OSP libcosim running the same file,
and exported as SSP; what cannot be read named."""
import shutil

import numpy as np
import pytest

import libcosimpy  # noqa: F401  # a missing test dependency is an error, not a skip

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.hosts.libcosim import run_libcosim
from crane_cosim.runtime import RunConfig, problems_of, run_cosim
from crane_cosim.runtime.transformations import Linear
from crane_cosim.ssp import open_system
from crane_cosim.studies.sweep_folder import identity

STEP, END = 0.002, 1.0
MOUNT = {"R": [f"mount_R_{i}{j}" for i in (1, 2, 3) for j in (1, 2, 3)],
         "w": [f"mount_w_{c}" for c in "xyz"], "dw": [f"mount_dw_{c}" for c in "xyz"],
         "v": [f"mount_v_{c}" for c in "xyz"], "a": [f"mount_a_{c}" for c in "xyz"]}
INERTIA = {"I_A": [f"I_A_{i}{j}" for i in range(1, 7) for j in range(i, 7)],
           "p_A": [f"p_A_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")]}


def _groups(name: str, nested: dict, order=None) -> str:
    order = order or list(nested)
    inner = "".join(f'<Generic name="{name}_{g}">' + "".join(f'<Variable ref="{v}"/>' for v in nested[g])
                    + "</Generic>" for g in order)
    return f'<Generic name="{name}">{inner}</Generic>'


def _description(groups: str) -> str:
    return ('<OspModelDescription xmlns="https://open-simulation-platform.com/OspModelDescription/1.0.1" '
            f'version="1.0"><VariableGroups>{groups}</VariableGroups></OspModelDescription>')


SYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<OspSystemStructure xmlns="http://opensimulationplatform.com/MSMI/OSPSystemStructure" version="0.1">
  <StartTime>0.0</StartTime>
  <EndTime>{end}</EndTime>
  <BaseStepSize>{step}</BaseStepSize>
  <Algorithm>fixedStep</Algorithm>
  <Simulators>
    <Simulator name="vessel" source="fmus/Vessel.fmu" stepSize="{vessel_step}"/>
    <Simulator name="crane" source="fmus/Crane.fmu"/>
    <Simulator name="controller" source="fmus/Controller.fmu">
      <InitialValues>
        <InitialValue variable="q_slew_move1_start"><Real value="0.2"/></InitialValue>
      </InitialValues>
    </Simulator>
  </Simulators>
  <Functions>
    <LinearTransformation name="half" factor="0.5" offset="0.0"/>
  </Functions>
  <Connections>
    <VariableGroupConnection>
      <VariableGroup simulator="crane" name="mount"/>
      <VariableGroup simulator="vessel" name="mount"/>
    </VariableGroupConnection>
    <VariableGroupConnection>
      <VariableGroup simulator="vessel" name="inertia"/>
      <VariableGroup simulator="crane" name="inertia"/>
    </VariableGroupConnection>
{variables}
    <SignalConnection>
      <Signal function="half" name="in"/>
      <Variable simulator="controller" name="tau_jib"/>
    </SignalConnection>
    <SignalConnection>
      <Variable simulator="crane" name="tau_jib"/>
      <Signal function="half" name="out"/>
    </SignalConnection>
  </Connections>
</OspSystemStructure>
"""


def _variables() -> str:
    """The controller's connections, some written input first."""
    lines = []
    for joint in ("slew", "boom", "jib"):
        for var in ("q", "u"):
            first, second = (("controller", f"{var}_{joint}"), ("crane", f"{var}_{joint}")) if joint == "boom" \
                else (("crane", f"{var}_{joint}"), ("controller", f"{var}_{joint}"))
            lines.append(_connection(first, second))
        if joint != "jib":
            lines.append(_connection(("crane", f"tau_{joint}"), ("controller", f"tau_{joint}")))
    return "\n".join(lines)


def _connection(a, b) -> str:
    return (f'    <VariableConnection><Variable simulator="{a[0]}" name="{a[1]}"/>'
            f'<Variable simulator="{b[0]}" name="{b[1]}"/></VariableConnection>')


@pytest.fixture(scope="module")
def osp_folder(tmp_path_factory, fmu_dir):
    """The crane on the vessel as an OSP system: the FMUs in ``fmus/`` with
    their OSP model descriptions beside them (the vessel's nested groups in
    another order than the crane's: they pair by position, as libcosim pairs
    them), the system file beside that folder."""
    root = tmp_path_factory.mktemp("osp")
    (root / "fmus").mkdir()
    for model in ("Vessel", "Crane", "Controller"):
        shutil.copy(fmu_dir / f"{model}.fmu", root / "fmus" / f"{model}.fmu")
    (root / "fmus" / "Vessel_OspModelDescription.xml").write_text(
        _description(_groups("mount", MOUNT) + _groups("inertia", INERTIA)))
    (root / "fmus" / "Crane_OspModelDescription.xml").write_text(
        _description(_groups("mount", MOUNT) + _groups("inertia", INERTIA)))
    (root / "OspSystemStructure.xml").write_text(SYSTEM.format(end=END, step=STEP, vessel_step=2 * STEP,
                                                               variables=_variables()))
    return root


def test_it_reads_as_libcosim_reads_it(osp_folder):
    """Every variable of the groups joined in order, each connection from
    the output whichever end the file names first, the step of its own,
    the initial value, the function's factor on its connection."""
    with open_system(osp_folder) as opened:
        s = opened.system
    assert (s.step, s.stop_time, s.algorithm, s.extrapolation) == (STEP, END, "jacobi", "none")
    assert s.component("vessel").step == 2 * STEP and s.component("crane").step is None
    assert s.component("controller").parameters == {"q_slew_move1_start": 0.2}
    wired = {str(c): c.transformation for c in s.connections}
    assert len(wired) == 21 + 27 + 6 + 3
    assert all(f"vessel.{v} -> crane.{v}" in wired for vs in MOUNT.values() for v in vs)
    assert all(f"crane.{v} -> vessel.{v}" in wired for vs in INERTIA.values() for v in vs)
    assert "crane.q_boom -> controller.q_boom" in wired and "controller.tau_slew -> crane.tau_slew" in wired
    assert wired["controller.tau_jib -> crane.tau_jib"] == Linear(0.5, 0.0)
    assert problems_of(s)[0] == []


def test_it_runs_equal_to_libcosim(osp_folder, tmp_path):
    """Our master on the file and libcosim on the same file (libcosim's
    fixed-step algorithm: Jacobi, inputs held): the crane's interface
    wrench and joint angles agree to round-off, measured 1.5e-14 of a
    column's peak at most (the wrench's ny), bound 4.5e-14."""
    columns = [f"crane.W_mount_{c}" for c in ("nx", "ny", "nz", "fx", "fy", "fz")] + ["crane.q_jib", "crane.q_slew"]
    theirs = run_libcosim(str(osp_folder / "OspSystemStructure.xml"), outputs=columns)
    with open_system(osp_folder / "OspSystemStructure.xml") as opened:
        run_cosim(opened.system, tmp_path / "ours", RunConfig(progress=False))
    ours = read_results(tmp_path / "ours")
    assert len(theirs) == len(ours) == round(END / STEP) + 1
    for c in columns:
        peak = np.abs(ours[c]).max()
        assert peak > 0, c
        assert np.abs(theirs[c].to_numpy() - ours[c].to_numpy()).max() <= 4.5e-14 * peak, c


def test_check_run_and_export_take_it(osp_folder, tmp_path, capsys):
    """``check`` shows the function's connection; ``export`` writes an SSP
    archive whose system is the file's, transformation and step included."""
    system_file = osp_folder / "OspSystemStructure.xml"
    assert main(["check", str(system_file)]) == 0
    assert "crane.tau_jib = 0.5 * controller.tau_jib" in capsys.readouterr().out
    assert main(["export", str(system_file), str(tmp_path / "crane.ssp")]) == 0
    with open_system(system_file) as a, open_system(tmp_path / "crane.ssp") as b:
        assert {str(c): c.transformation for c in a.system.connections} == \
            {str(c): c.transformation for c in b.system.connections}
        assert b.system.component("vessel").step == 2 * STEP
        assert b.system.component("controller").parameters == {"q_slew_move1_start": 0.2}


@pytest.mark.parametrize("old, new, sentence", [
    ("<Algorithm>fixedStep</Algorithm>", "<Algorithm>ecco</Algorithm>",
     "its Algorithm is 'ecco'; crane-cosim runs OSP's fixedStep"),
    ('<LinearTransformation name="half" factor="0.5" offset="0.0"/>',
     '<LinearTransformation name="half" factor="0.5" offset="0.0"/><Sum name="total" inputCount="2"/>',
     "it uses OSP's Sum function (total), which crane-cosim does not compute"),
    ('<VariableGroup simulator="vessel" name="inertia"/>', '<VariableGroup simulator="vessel" name="inertias"/>',
     "simulator vessel has no variable group 'inertias' in its OSP model description"),
    ('<Simulator name="crane" source="fmus/Crane.fmu"/>',
     '<Simulator name="crane" source="proxyfmu://localhost?file=fmus/Crane.fmu"/>',
     "the source of simulator crane is the URL"),
])
def test_what_cannot_be_read_is_named(osp_folder, tmp_path, old, new, sentence):
    text = (osp_folder / "OspSystemStructure.xml").read_text()
    assert text.count(old) == 1
    bad = osp_folder / f"Bad{abs(hash(new))}.xml"
    bad.write_text(text.replace(old, new))
    try:
        with pytest.raises(CraneCosimError, match=sentence.replace("(", r"\(").replace(")", r"\)")):
            with open_system(bad):
                pass
    finally:
        bad.unlink()


def test_a_sweeps_identity_follows_its_model_descriptions(osp_folder, tmp_path):
    """The groups an OSP system joins come from files beside it: a sweep of
    the system knows when they change (the connections they make are part
    of its identity)."""
    copy = tmp_path / "osp"
    shutil.copytree(osp_folder, copy)
    with open_system(copy) as opened:
        before = identity(opened, RunConfig())
    crane = copy / "fmus" / "Crane_OspModelDescription.xml"
    crane.write_text(crane.read_text().replace('<Variable ref="mount_w_x"/><Variable ref="mount_w_y"/>',
                                               '<Variable ref="mount_w_y"/><Variable ref="mount_w_x"/>'))
    with open_system(copy) as opened:
        after = identity(opened, RunConfig())
    assert before["system"]["sha256"] == after["system"]["sha256"]
    assert before["system"]["connections_sha256"] != after["system"]["connections_sha256"]
