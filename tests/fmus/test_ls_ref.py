"""What a portable FMU says about itself (``fmus/ls_ref.py``): the FMI-LS-REF
manifest names every related file with a checksum that matches it, the
parameter sets hold the values they say and apply to the FMU (``crane-cosim
check`` of a system binding each), and the FMU's page lists every port and
parameter with its unit, the publication and the validation, all from the
block's declarations.  That the reference result is what the FMU gives is
checked where the portable FMUs run (``test_portable.py``)."""
from __future__ import annotations

import hashlib
import html
import posixpath
import xml.etree.ElementTree as ET
import zipfile

import pytest

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.cli import main
from crane_cosim.example_sets import example_parameter_sets
from crane_cosim.fmus.ls_ref import LS_FOLDER, ParameterSet, ls_ref_files, reference_values
from portable_tried import SYSTEM

_LS = "{http://fmi-standard.org/fmi-ls-manifest}"
_SSV = "{http://ssp-standard.org/SSP1/SystemStructureParameterValues}"
_SSC = "{http://ssp-standard.org/SSP1/SystemStructureCommon}"


def _related(files: dict) -> list[tuple[str, ET.Element]]:
    """(the path in the FMU, the element) of every ``Related`` of the manifest."""
    root = ET.fromstring(files[f"{LS_FOLDER}/fmi-ls-manifest.xml"])
    assert root.tag == "fmiReferences"
    assert (root.get(f"{_LS}fmi-ls-name"), root.get(f"{_LS}fmi-ls-version")) == \
        ("org.fmi-standard.fmi-ls-ref", "1.0.0-alpha.1")
    return [(posixpath.normpath(posixpath.join(LS_FOLDER, r.get("source"))), r) for r in root.iter("Related")]


def _ssv_values(data: bytes) -> dict:
    """Name: (value as written, unit) of a parameter set; every unit used defined in it."""
    root = ET.fromstring(data)
    assert root.tag == f"{_SSV}ParameterSet" and root.get("version") == "1.0"
    values = {p.get("name"): (p[0].get("value"), p[0].get("unit")) for p in root.iter(f"{_SSV}Parameter")}
    defined = {u.get("name") for u in root.iter(f"{_SSC}Unit")}
    assert {unit for _, unit in values.values() if unit} == defined
    return values


def _written(value) -> str:
    return str(value).lower() if isinstance(value, bool) else value if isinstance(value, str) else repr(float(value))


@pytest.mark.parametrize("model", list(BLOCKS))
def test_manifest_names_every_file_with_its_checksum(model):
    cls = BLOCKS[model]
    sets = (ParameterSet("example_component", "The values of an example.", {cls.parameters[0].name:
                                                                            cls.parameters[0].start}),)
    files = ls_ref_files(cls, b"time,y\n0.0,1.0\n", 7, list(sets))
    related = _related(files)
    assert {path for path, _ in related} | {f"{LS_FOLDER}/fmi-ls-manifest.xml"} == set(files)
    roles = {}
    for path, r in related:
        assert r.get("checksumType") == "SHA3-256"
        assert r.get("checksum") == hashlib.sha3_256(files[path]).hexdigest(), path
        assert r.get("description")
        roles[posixpath.basename(path)] = (r.get("role"), r.get("type"))
    assert roles == {"reference.ssv": ("parameter", "application/x-ssp-parameter-set"),
                     "reference.csv": ("result", "text/csv"),
                     "example_component.ssv": ("parameter", "application/x-ssp-parameter-set"),
                     "index.html": ("document", "text/html"), "fmi-ls-ref.html": ("document", "text/html")}
    # the reference experiment's set: every parameter at its default, then the block's own values
    expected = {k: _written(v) for k, v in reference_values(cls).items()}
    written = _ssv_values(files[f"{LS_FOLDER}/reference.ssv"])
    assert {k: v for k, (v, _) in written.items()} == expected
    variables = {v.name: v for v in (*cls.parameters, *cls.inputs)}
    assert all(unit == (variables[k].unit or None) for k, (_, unit) in written.items() if variables[k].type == "Real")
    assert set(cls.reference_experiment) <= set(expected)
    assert b"a multiple of 7" in files["documentation/fmi-ls-ref.html"]


@pytest.mark.parametrize("model", list(BLOCKS))
def test_the_fmu_page_lists_every_port_and_parameter_with_its_unit(model):
    cls = BLOCKS[model]
    page = ls_ref_files(cls, b"", 1, [])["documentation/index.html"].decode()
    for v in (*cls.parameters, *cls.inputs, *cls.outputs):
        assert f"<tr><td><code>{html.escape(v.name)}</code></td><td>{html.escape(v.unit or '1')}</td>" in page, v.name
    for text in (cls.description, cls.reference, cls.validation):
        assert html.escape(text) in page


def test_the_examples_sets_name_their_examples():
    """One set per distinct set of values the examples give a block's
    component: the hydraulic cylinders of the offshore knuckle boom's
    examples share two sets, the barge's two others (their start pressures
    hold the crane on the heeled deck), the lift's two more (the payload
    too)."""
    sets = example_parameter_sets()
    cylinders = sets["HydraulicCylinder"]
    assert [s.stem for s in cylinders] == ["offshore_knuckle_boom_boom_cylinder", "offshore_knuckle_boom_jib_cylinder",
                                           "hydro_vessel_boom_cylinder", "hydro_vessel_jib_cylinder",
                                           "offshore_lift_boom_cylinder", "offshore_lift_jib_cylinder"]
    assert cylinders[4].values["p_A0"] > cylinders[2].values["p_A0"] != cylinders[0].values["p_A0"]
    assert "hydro_vessel (component boom_cylinder)" in cylinders[2].description
    assert cylinders[0].values["bore"] == 0.32
    assert all(set(s.values) <= {v.name for v in (*BLOCKS[m].parameters, *BLOCKS[m].inputs)}
               for m, model_sets in sets.items() for s in model_sets)


@pytest.mark.usefixtures("c_compiler")
@pytest.mark.parametrize("models", [pytest.param(SYSTEM, id="crane on the vessel"),
                                    pytest.param(tuple(BLOCKS), id="every", marks=pytest.mark.slow)])
def test_every_parameter_set_applies_to_its_portable_fmu(models, portable_fmu, tmp_path, capsys):
    """A system binding each parameter set a portable FMU carries to a
    component of that FMU passes ``crane-cosim check``: every name is a
    variable of the FMU, every value of its type, every unit its unit."""
    sets = example_parameter_sets()
    assert any(sets.get(model) for model in models)
    for model in models:
        folder = tmp_path / model
        folder.mkdir()
        fmu = folder / f"{model}.fmu"
        fmu.symlink_to(portable_fmu(model))
        with zipfile.ZipFile(fmu) as z:
            ssvs = sorted(n for n in z.namelist() if n.startswith(LS_FOLDER) and n.endswith(".ssv"))
            z.extractall(folder, ssvs)
        assert [posixpath.basename(n) for n in ssvs] == sorted(["reference.ssv",
                                                                 *(f"{s.stem}.ssv" for s in sets.get(model, ()))])
        components = "".join(
            f'<ssd:Component name="c{k}" source="{fmu.name}"><ssd:ParameterBindings>'
            f'<ssd:ParameterBinding source="{n}"/></ssd:ParameterBindings></ssd:Component>'
            for k, n in enumerate(ssvs))
        ssd = folder / "system.ssd"
        ssd.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<ssd:SystemStructureDescription xmlns:ssd='
                       '"http://ssp-standard.org/SSP1/SystemStructureDescription" version="1.0" name="sets">'
                       f'<ssd:System name="sets"><ssd:Elements>{components}</ssd:Elements></ssd:System>'
                       '</ssd:SystemStructureDescription>\n')
        assert main(["check", str(ssd)]) == 0, (model, capsys.readouterr().err)
