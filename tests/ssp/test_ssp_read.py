"""What the SSP reader reads of connections' transformations and refuses
of them, and OSP annotations under a mistyped type or namespace (which
OSP libcosim may apply where we would not)."""
import re
from pathlib import Path

import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime import System
from crane_cosim.runtime.transformations import Linear, Mapping
from crane_cosim.ssp import read_ssd, write_ssd

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crane_on_vessel" / "CraneOnVessel.ssd"
CONNECTION = '<ssd:Connection startElement="controller" startConnector="tau_boom" endElement="crane" ' \
             'endConnector="tau_boom" />'
OSP = "http://opensimulationplatform.com/SSP/OSPAnnotations"


def _example(tmp_path, old: str, new: str) -> Path:
    """The crane on the vessel's system file with ``old`` replaced by
    ``new`` (once), in ``tmp_path``; the refusals come before any FMU is
    looked for."""
    text = EXAMPLE.read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "CraneOnVessel.ssd"
    path.write_text(text.replace(old, new))
    return path


def _transformed(tmp_path, transformation: str) -> Path:
    return _example(tmp_path, CONNECTION, CONNECTION.replace(" />", f">{transformation}</ssd:Connection>"))


def test_a_scaled_connection_is_shown_by_check(tmp_path, capsys):
    ssd = _transformed(tmp_path, '<ssc:LinearTransformation factor="0.5" offset="0"/>')
    assert main(["check", str(ssd)]) == 0
    assert "connection controller.tau_boom -> crane.tau_boom: crane.tau_boom = 0.5 * controller.tau_boom" \
        in capsys.readouterr().out


@pytest.mark.parametrize("transformation, read", [
    ('<ssc:LinearTransformation offset="1"/>', Linear(1.0, 1.0)),
    ('<ssc:BooleanMappingTransformation><ssc:MapEntry source="true" target="false"/>'
     '</ssc:BooleanMappingTransformation>', Mapping("Boolean", ((True, False),))),
    ('<ssc:IntegerMappingTransformation><ssc:MapEntry source="1" target="2"/></ssc:IntegerMappingTransformation>',
     Mapping("Integer", ((1, 2),))),
    ('<ssc:EnumerationMappingTransformation><ssc:MapEntry source="a" target="b"/>'
     '</ssc:EnumerationMappingTransformation>', Mapping("Enumeration", (("a", "b"),))),
])
def test_every_transformation_is_read_and_written_back(tmp_path, transformation, read):
    """Each of SSP 1.0's four, read into the connection, written back by
    write_ssd and read again the same (whether it fits the connection's
    types is the plan's to say)."""
    system = read_ssd(_transformed(tmp_path, transformation))
    found = [c for c in system.connections if str(c) == "controller.tau_boom -> crane.tau_boom"]
    assert [c.transformation for c in found] == [read]
    again = read_ssd(write_ssd(system, tmp_path / "again.ssd"))
    assert [c.transformation for c in again.connections if str(c) == str(found[0])] == [read]


def test_suppressed_unit_conversion_is_read_and_written_back(tmp_path):
    ssd = _example(tmp_path, CONNECTION, CONNECTION.replace(" />", ' suppressUnitConversion="true" />'))
    system = read_ssd(ssd)
    assert [c.suppress_unit_conversion for c in system.connections if c.end_connector == "tau_boom"] == [True]
    again = read_ssd(write_ssd(system, tmp_path / "again.ssd"))
    assert [c.suppress_unit_conversion for c in again.connections if c.end_connector == "tau_boom"] == [True]


@pytest.mark.parametrize("transformation, sentence", [
    ('<ssc:LinearTransformation factor="2"/><ssc:LinearTransformation offset="1"/>',
     "holds two transformations; SSP 1.0 allows one"),
    ('<my:ScaleTransformation xmlns:my="urn:mine" factor="2"/>',
     "holds a {urn:mine}ScaleTransformation, which is not one of SSP 1.0's transformations"),
    ('<ssc:IntegerMappingTransformation><ssc:MapEntry source="1.5" target="2"/></ssc:IntegerMappingTransformation>',
     "maps '1.5' to '2', which are not whole numbers"),
])
def test_a_transformation_that_cannot_be_read_is_named(tmp_path, transformation, sentence):
    with pytest.raises(CraneCosimError, match=re.escape(sentence)):
        read_ssd(_transformed(tmp_path, transformation))


def test_the_identity_transformation_passes(tmp_path):
    ssd = _transformed(tmp_path, '<ssc:LinearTransformation factor="1" offset="0"/>')
    found = [c for c in read_ssd(ssd).connections if str(c) == "controller.tau_boom -> crane.tau_boom"]
    assert len(found) == 1 and found[0].transformation is None


def _with_step_hint(tmp_path, annotation: str) -> Path:
    """The example with the vessel in a step of its own, annotated as given."""
    return _example(tmp_path, '<ssd:Component name="vessel" type="application/x-fmu-sharedlibrary" '
                              'source="fmus/Vessel.fmu">',
                    '<ssd:Component name="vessel" type="application/x-fmu-sharedlibrary" source="fmus/Vessel.fmu">'
                    f'<ssd:Annotations>{annotation}</ssd:Annotations>')


@pytest.mark.parametrize("namespace", ["https://opensimulationplatform.com/SSP/OSPAnnotations",
                                       "http://opensimulationplatform.com/SSP/OSPAnnotations/",
                                       "http://www.opensimulationplatform.com/SSP/OSPAnnotations",
                                       "http://OpenSimulationPlatform.com/SSP/OSPAnnotations"])
def test_a_step_hint_in_a_mistyped_namespace_is_refused(tmp_path, capsys, namespace):
    """libcosim takes the element by its prefix ``osp:`` whatever namespace
    it names, and applies the step; a silent base step here would differ."""
    ssd = _with_step_hint(tmp_path, f'<ssc:Annotation type="com.opensimulationplatform">'
                                    f'<osp:StepSizeHint xmlns:osp="{namespace}" value="0.05"/></ssc:Annotation>')
    assert main(["check", str(ssd)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"crane-cosim: error: system file {ssd}: component vessel has an OSP annotation whose StepSizeHint is in the "
        f"namespace {namespace!r}, not in OSP's {OSP!r}")


@pytest.mark.parametrize("kind", ["com.OpenSimulationPlatform", "https://com.opensimulationplatform",
                                  "com.opensimulationplatform/"])
def test_an_annotation_type_near_osps_is_refused(tmp_path, kind):
    ssd = _with_step_hint(tmp_path, f'<ssc:Annotation type="{kind}"><osp:StepSizeHint value="0.05"/>'
                                    f'</ssc:Annotation>')
    with pytest.raises(CraneCosimError) as exc:
        read_ssd(ssd)
    assert str(exc.value) == (f"system file {ssd}: component vessel has an annotation of type {kind!r}, a near miss "
                              f"of OSP's 'com.opensimulationplatform', which crane-cosim and OSP libcosim read")


def test_the_base_step_of_a_mistyped_namespace_is_refused(tmp_path):
    ssd = _example(tmp_path, f'xmlns:osp="{OSP}"', f'xmlns:osp="{OSP.replace("http:", "https:")}"')
    with pytest.raises(CraneCosimError, match="the DefaultExperiment has an OSP annotation whose Algorithm is in the "
                                              "namespace 'https://opensimulationplatform.com/"):
        read_ssd(ssd)


def test_a_step_hint_under_osps_own_names_is_read(tmp_path):
    ssd = _with_step_hint(tmp_path, '<ssc:Annotation type="com.opensimulationplatform">'
                                    '<osp:StepSizeHint value="0.05"/></ssc:Annotation>')
    assert read_ssd(ssd).component("vessel").step == 0.05


@pytest.mark.parametrize("element, written", [(f'<o:StepSizeHint xmlns:o="{OSP}" value="0.05"/>', "o:StepSizeHint"),
                                              (f'<StepSizeHint xmlns="{OSP}" value="0.05"/>', "StepSizeHint")])
def test_a_step_hint_under_another_prefix_is_refused(tmp_path, element, written):
    """Right namespace, other prefix: libcosim and ecos look for the
    literal ``osp:StepSizeHint`` and would run the vessel at the base step."""
    ssd = _with_step_hint(tmp_path, f'<ssc:Annotation type="com.opensimulationplatform">{element}</ssc:Annotation>')
    with pytest.raises(CraneCosimError) as exc:
        read_ssd(ssd)
    assert str(exc.value) == (f"system file {ssd} writes OSP's StepSizeHint as {written}, and OSP libcosim and ecos "
                              f"find OSP annotations by the prefix osp: alone (they would pass over it); write "
                              f'osp:StepSizeHint with xmlns:osp="{OSP}"')


def _vessel_with_mass(tmp_path, fmu_dir, value: str, unit: str, defined: str = "") -> Path:
    """A system of this project's vessel whose mass the file gives as
    ``value`` in ``unit``, with the unit definitions ``defined`` added."""
    s = System("Vessel", stop_time=1.0, step=0.01, base_dir=fmu_dir)
    s.add_component("vessel", "Vessel.fmu", m=1200.0)
    text = write_ssd(s, tmp_path / "Vessel.ssd").read_text()
    assert text.count('<ssv:Real value="1200.0" unit="kg" />') == 1
    text = text.replace('<ssv:Real value="1200.0" unit="kg" />', f'<ssv:Real value="{value}" unit="{unit}" />')
    text = text.replace("<ssd:Units>", f"<ssd:Units>{defined}")
    path = tmp_path / "Vessel.ssd"
    path.write_text(text)
    return path


def test_a_parameter_in_another_unit_is_converted(tmp_path, fmu_dir):
    """1.2 t, the tonne defined by the file (1000 kg), is the vessel's 1200 kg."""
    ssd = _vessel_with_mass(tmp_path, fmu_dir, "1.2", "t", '<ssc:Unit name="t"><ssc:BaseUnit kg="1" factor="1000"/>'
                                                           '</ssc:Unit>')
    assert read_ssd(ssd).component("vessel").parameters["m"] == pytest.approx(1200.0, rel=1e-15)


@pytest.mark.parametrize("unit, defined, sentence", [
    ("s", "", "is given in s, which does not convert into its unit kg"),
    ("lb", "", "is given in lb, and lb is defined neither by the file nor by the FMU"),
])
def test_a_parameter_in_a_unit_that_does_not_convert_is_named(tmp_path, fmu_dir, unit, defined, sentence):
    with pytest.raises(CraneCosimError, match=re.escape(f"parameter vessel.m {sentence}")):
        read_ssd(_vessel_with_mass(tmp_path, fmu_dir, "1.2", unit, defined))
