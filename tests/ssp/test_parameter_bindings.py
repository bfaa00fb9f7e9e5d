"""Parameter bindings as SSP 1.0 defines them: a binding's prefix prepended
to the names of its set, the system's bindings naming component.variable and
taking precedence over the components', and parameter mappings (inline or
.ssm files) renaming and transforming values, after the unit conversion;
each against a hand computation, and a run of mapped values equal to the
run of the same values set directly."""
import math
import re

import numpy as np
import pytest

from crane_cosim.cli import main
from crane_cosim.errors import CraneCosimError
from crane_cosim.files.results import read_results
from crane_cosim.runtime import System, run_cosim
from crane_cosim.ssp import read_ssd, write_ssd

SSD = """<?xml version="1.0" encoding="UTF-8"?>
<ssd:SystemStructureDescription xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription"
    xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues"
    xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping"
    xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" version="1.0" name="S">
  <ssd:System name="S">
    <ssd:ParameterBindings>{system}</ssd:ParameterBindings>
    <ssd:Elements>
      <ssd:Component name="vessel" source="fmus/Vessel.fmu">
        <ssd:ParameterBindings>{component}</ssd:ParameterBindings>
      </ssd:Component>
      <ssd:Component name="crane" source="fmus/Crane.fmu"/>
    </ssd:Elements>
  </ssd:System>
</ssd:SystemStructureDescription>
"""
SSM = """<?xml version="1.0" encoding="UTF-8"?>
<ssm:ParameterMapping xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping"
    xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" version="1.0">{entries}</ssm:ParameterMapping>
"""


def _param(name, kind, value, unit=None):
    unit = f' unit="{unit}"' if unit else ""
    return f'<ssv:Parameter name="{name}"><ssv:{kind} value="{value}"{unit}/></ssv:Parameter>'


def _binding(params: str, prefix: str = "", mapping: str = "") -> str:
    prefix = f' prefix="{prefix}"' if prefix else ""
    return (f'<ssd:ParameterBinding{prefix}><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="p">'
            f'<ssv:Parameters>{params}</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues>{mapping}'
            f'</ssd:ParameterBinding>')


def _inline(entries: str) -> str:
    return f'<ssd:ParameterMapping><ssm:ParameterMapping version="1.0">{entries}</ssm:ParameterMapping>' \
           f'</ssd:ParameterMapping>'


def _entry(source, target, transformation="", suppress=False):
    attr = ' suppressUnitConversion="true"' if suppress else ""
    return f'<ssm:MappingEntry source="{source}" target="{target}"{attr}>{transformation}</ssm:MappingEntry>'


def _read(tmp_path, component="", system=""):
    (tmp_path / "s.ssd").write_text(SSD.format(component=component, system=system))
    return read_ssd(tmp_path / "s.ssd")


def test_a_prefix_is_prepended_to_the_names_of_its_set(tmp_path):
    """A component's FMU of hierarchical names (``hull.m``) takes a set of
    bare names through the prefix; the bindings apply in order."""
    s = _read(tmp_path, component=_binding(_param("m", "Real", "1")) + _binding(_param("m", "Real", "2"), "hull.")
              + _binding(_param("c_roll", "Real", "5") + _param("m", "Real", "3")))
    assert s.component("vessel").parameters == {"m": 3.0, "hull.m": 2.0, "c_roll": 5.0}


def test_the_systems_bindings_name_components_and_take_precedence(tmp_path):
    s = _read(tmp_path, component=_binding(_param("m", "Real", "1") + _param("c_roll", "Real", "5")),
              system=_binding(_param("vessel.m", "Real", "2") + _param("crane.m_jib", "Real", "9"))
              + _binding(_param("c_pitch", "Real", "7"), prefix="vessel."))
    assert s.component("vessel").parameters == {"m": 2.0, "c_roll": 5.0, "c_pitch": 7.0}
    assert s.component("crane").parameters == {"m_jib": 9.0}


def test_a_system_level_name_of_no_component_is_refused(tmp_path):
    with pytest.raises(CraneCosimError) as exc:
        _read(tmp_path, system=_binding(_param("m", "Real", "2"), prefix="vesel."))
    assert str(exc.value) == (f"system file {tmp_path / 's.ssd'}: parameter vesel.m names no component of the "
                              f"system (its parameters are named component.variable) (did you mean 'vessel'?)")


def test_a_mapping_renames_and_transforms_and_leaves_the_others(tmp_path):
    """``m = 1000 * mass`` (1.2 -> 1200), a Boolean, an Integer and an
    Enumeration mapped by their tables; the unmapped name kept."""
    entries = (_entry("mass", "m", '<ssc:LinearTransformation factor="1000" offset="0"/>')
               + _entry("weight", "gravity_on", '<ssc:BooleanMappingTransformation>'
                        '<ssc:MapEntry source="false" target="true"/><ssc:MapEntry source="true" target="false"/>'
                        '</ssc:BooleanMappingTransformation>')
               + _entry("order", "n", '<ssc:IntegerMappingTransformation><ssc:MapEntry source="1" target="3"/>'
                        '</ssc:IntegerMappingTransformation>')
               + _entry("law", "model", '<ssc:EnumerationMappingTransformation>'
                        '<ssc:MapEntry source="slow" target="dahl"/></ssc:EnumerationMappingTransformation>'))
    params = (_param("mass", "Real", "1.2") + _param("weight", "Boolean", "false") + _param("order", "Integer", "1")
              + _param("law", "Enumeration", "slow") + _param("c_roll", "Real", "5"))
    s = _read(tmp_path, component=_binding(params, mapping=_inline(entries)))
    assert s.component("vessel").parameters == {"m": 1200.0, "gravity_on": True, "n": 3, "model": "dahl",
                                                "c_roll": 5.0}


def test_a_mapping_file_maps_the_prefixed_names_of_the_systems_set(tmp_path):
    """The prefix first, then the mapping (SSP 1.0): ``vessel.mass`` ->
    ``vessel.m``, ``m = 2 mass + 100``."""
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "v.ssm").write_text(SSM.format(entries=_entry(
        "vessel.mass", "vessel.m", '<ssc:LinearTransformation factor="2" offset="100"/>')))
    s = _read(tmp_path, system=_binding(_param("mass", "Real", "550"), prefix="vessel.",
                                        mapping='<ssd:ParameterMapping source="maps/v.ssm"/>'))
    assert s.component("vessel").parameters == {"m": 1200.0}


@pytest.mark.parametrize("mapping, sentence", [
    (_inline(_entry("mass", "m", '<ssc:IntegerMappingTransformation><ssc:MapEntry source="1" target="2"/>'
                                 '</ssc:IntegerMappingTransformation>')),
     "parameter vessel.m (mapped from mass): an ssc:IntegerMappingTransformation maps Integer values, and this one "
     "is 1.5"),
    (_inline(_entry("n", "k", '<ssc:LinearTransformation factor="2"/>')),
     "parameter vessel.k (mapped from n): an ssc:LinearTransformation applies to Real values, and this one is 4"),
    (_inline(_entry("n", "k", '<ssc:IntegerMappingTransformation><ssc:MapEntry source="1" target="2"/>'
                              '</ssc:IntegerMappingTransformation>')),
     "parameter vessel.k (mapped from n): its ssc:IntegerMappingTransformation maps no value for 4"),
    (_inline(_entry("n", "k") + _entry("n", "j")), "the parameter mapping of component vessel maps the parameter "
                                                  "'n' twice"),
    (_inline('<ssm:MappingEntry source="n"/>'), "has an ssm:MappingEntry without its source or target"),
    ('<ssd:ParameterMapping/>', "the parameter mapping of component vessel has neither a source nor an "
                                "ssm:ParameterMapping"),
    ('<ssd:ParameterMapping type="text/csv" source="m.csv"/>', "component vessel has a parameter mapping of type "
                                                              "'text/csv'; crane-cosim reads SSP's own"),
    ('<ssd:ParameterMapping source="https://x.org/m.ssm"/>', "the parameter mapping of component vessel is the URL "
                                                            "'https://x.org/m.ssm'; crane-cosim reads local files"),
    ('<ssd:ParameterMapping source="m.ssm" sourceBase="component"/>', "component vessel binds parameters relative "
                                                                     "to 'component'; crane-cosim reads sources "
                                                                     "relative to the .ssd only"),
    ('<ssd:ParameterMapping source="none.ssm"/>', "parameter mapping {tmp}/none.ssm of component vessel does not "
                                                 "exist"),
])
def test_a_mapping_that_cannot_apply_is_named(tmp_path, mapping, sentence):
    params = _param("mass", "Real", "1.5") + _param("n", "Integer", "4")
    with pytest.raises(CraneCosimError, match=re.escape(sentence.format(tmp=tmp_path))):
        _read(tmp_path, component=_binding(params, mapping=mapping))


def test_a_mapping_file_of_another_kind_is_named(tmp_path):
    (tmp_path / "m.ssm").write_text('<ssv:ParameterSet xmlns:ssv="http://ssp-standard.org/SSP1/'
                                    'SystemStructureParameterValues" version="1.0" name="p"/>')
    with pytest.raises(CraneCosimError, match=re.escape(f"parameter mapping {tmp_path / 'm.ssm'} of component "
                                                        f"vessel is not an SSP 1.0 parameter mapping")):
        _read(tmp_path, component=_binding(_param("m", "Real", "1"),
                                           mapping='<ssd:ParameterMapping source="m.ssm"/>'))


def _mapped_vessel(tmp_path, fmu_dir, suppress: bool) -> System:
    """This project's vessel whose mass the system's binding gives as 0.55 t
    under another name, mapped by ``m = 2 mass + 100`` (``suppress``: the
    entry suppresses the unit conversion), and its initial roll as 3 deg."""
    s = System("Vessel", stop_time=0.2, step=0.01, base_dir=fmu_dir)
    s.add_component("vessel", "Vessel.fmu")
    text = write_ssd(s, tmp_path / "Vessel.ssd").read_text()
    entries = (_entry("vessel.mass", "vessel.m", '<ssc:LinearTransformation factor="2" offset="100"/>', suppress)
               + _entry("vessel.heel", "vessel.q_roll_0"))
    system = _binding(_param("mass", "Real", "0.55", "t") + _param("heel", "Real", "3", "deg"), "vessel.",
                      _inline(entries))
    assert text.count("<ssd:Elements>") == 1
    text = text.replace("<ssd:Elements>", f"<ssd:ParameterBindings>{system}</ssd:ParameterBindings><ssd:Elements>")
    text = text.replace("<ssd:SystemStructureDescription ", '<ssd:SystemStructureDescription xmlns:ssm="'
                        'http://ssp-standard.org/SSP1/SystemStructureParameterMapping" xmlns:ssv="'
                        'http://ssp-standard.org/SSP1/SystemStructureParameterValues" ')
    (tmp_path / "Vessel.ssd").write_text(text)
    return read_ssd(tmp_path / "Vessel.ssd")


def test_mapped_values_are_converted_from_their_units_first(tmp_path, fmu_dir):
    """0.55 t is 550 kg, then 2 * 550 + 100 = 1200 kg; suppressed: 2 * 0.55
    + 100 = 101.1; 3 deg is 3 pi/180 rad (the tonne and the degree from the
    common units)."""
    assert _mapped_vessel(tmp_path, fmu_dir, False).component("vessel").parameters == {
        "m": 1200.0, "q_roll_0": 3 * (math.pi / 180)}
    assert _mapped_vessel(tmp_path, fmu_dir, True).component("vessel").parameters["m"] == pytest.approx(
        101.1, rel=1e-15)


def test_check_says_how_each_mapped_value_came(tmp_path, fmu_dir, capsys):
    _mapped_vessel(tmp_path, fmu_dir, False)
    assert main(["check", str(tmp_path / "Vessel.ssd")]) == 0
    out = capsys.readouterr().out
    assert ("note: parameter vessel.m = 1200: mapped from vessel.mass, given as 0.55 t, converted into kg, then "
            "m = 2 * mass + 100\n") in out
    assert ("note: parameter vessel.q_roll_0 = 0.0523599: mapped from vessel.heel, given as 3 deg, converted into "
            "rad\n") in out


def test_a_run_of_mapped_values_is_the_run_of_those_values(tmp_path, fmu_dir):
    mapped = _mapped_vessel(tmp_path, fmu_dir, False)
    direct = System("Vessel", stop_time=0.2, step=0.01, base_dir=fmu_dir)
    direct.add_component("vessel", "Vessel.fmu", m=1200.0, q_roll_0=3 * (math.pi / 180))
    run_cosim(mapped, tmp_path / "mapped", progress=False)
    run_cosim(direct, tmp_path / "direct", progress=False)
    a, b = read_results(tmp_path / "mapped"), read_results(tmp_path / "direct")
    assert abs(a["vessel.q_roll"].iloc[0] - 3 * math.pi / 180) < 1e-15  # the mapped heel reached the FMU
    np.testing.assert_array_equal(a["vessel.q_roll"].to_numpy(), b["vessel.q_roll"].to_numpy())


def test_export_writes_the_values_as_they_resolve(tmp_path, fmu_dir):
    mapped = _mapped_vessel(tmp_path, fmu_dir, False)
    again = write_ssd(mapped, tmp_path / "again.ssd")
    text = again.read_text()
    assert "ParameterMapping" not in text and "prefix=" not in text and text.count("<ssd:ParameterBinding>") == 1
    assert read_ssd(again).component("vessel").parameters == mapped.component("vessel").parameters
