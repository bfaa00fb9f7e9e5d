"""Integer and Boolean ports in the FMU: declared in the modelDescription as
FMI 2.0 wants them (discrete, no unit), read and set with their own calls,
the block's law kept, the wrong call refused by name, and kept in the FMU
state.  The block is the test-only ``Brake`` (``tests/brake_block.py``)."""
import xml.etree.ElementTree as ET
import zipfile

import pytest
from brake_block import Brake
from crane_cosim.fmus.build import build_block_fmu
from crane_cosim.runtime.loading import open_instance
from fmi_calls import fails
from fmpy.validation import validate_fmu


@pytest.fixture(scope="module")
def brake_fmu(tmp_path_factory):
    return build_block_fmu(Brake, tmp_path_factory.mktemp("brake"))


@pytest.fixture
def brake(brake_fmu, tmp_path):
    inst = open_instance(brake_fmu, tmp_path, "b", values={"k": 50.0})
    inst.initialize(0.0)
    yield inst
    inst.free()


def test_the_model_description_declares_the_ports_types_and_validates(brake_fmu):
    assert validate_fmu(str(brake_fmu)) == []
    with zipfile.ZipFile(brake_fmu) as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    declared = {sv.get("name"): (sv.get("causality"), sv.get("variability"), sv[0].tag, dict(sv[0].attrib))
                for sv in md.find("ModelVariables")}
    assert declared["q"] == ("input", "continuous", "Real", {"start": "0", "unit": "rad"})
    assert declared["brake"] == ("input", "discrete", "Boolean", {"start": "false"})
    assert declared["gear"] == ("input", "discrete", "Integer", {"start": "1"})
    assert declared["engaged"][:3] == ("output", "discrete", "Boolean")
    assert declared["code"][:3] == ("output", "discrete", "Integer")
    assert declared["gear0"] == ("parameter", "fixed", "Integer", {"start": "1"})
    assert declared["inverted"] == ("parameter", "fixed", "Boolean", {"start": "false"})


def _vr(inst, *names):
    return [inst.variable(n).value_reference for n in names]


def test_typed_inputs_and_outputs_follow_the_blocks_law(brake):
    s = brake._slave
    s.setReal(_vr(brake, "q"), [0.2])
    s.setInteger(_vr(brake, "gear"), [3])
    assert s.getReal(_vr(brake, "tau")) == [-10.0]
    assert s.getBoolean(_vr(brake, "engaged")) == [False]
    assert s.getInteger(_vr(brake, "code", "count", "gear0")) == [6, 0, 1]
    brake.do_step(0.0, 0.01)
    s.setBoolean(_vr(brake, "brake"), [True])
    assert s.getBoolean(_vr(brake, "brake", "engaged", "inverted")) == [True, True, False]
    assert (s.getReal(_vr(brake, "tau")), s.getInteger(_vr(brake, "code", "count"))) == ([0.0], [7, 0])
    brake.do_step(0.01, 0.01)
    brake.do_step(0.02, 0.01)
    assert s.getInteger(_vr(brake, "count", "gear")) == [2, 3] and not brake.errors


def test_a_typed_port_read_or_set_with_another_types_call_is_refused_by_name(brake):
    """Each refusal is fmi2Error (FMI's error state, left by restoring the
    state saved before it); the value refused is not taken."""
    s = brake._slave
    saved = s.getFMUstate()
    code, flag = _vr(brake, "code", "brake")
    for call, args, sentence in (
            (s.getReal, ([code],), f"fmi2GetReal: code (value reference {code}) is an Integer variable, not a Real "
                                   f"one; read and set it with fmi2GetInteger and fmi2SetInteger"),
            (s.setReal, ([flag], [1.0]), f"fmi2SetReal: brake (value reference {flag}) is a Boolean variable, not a "
                                         f"Real one; read and set it with fmi2GetBoolean and fmi2SetBoolean"),
            (s.setInteger, ([code], [1]), "fmi2SetInteger: code is an output and cannot be set; ignored")):
        fails(call, *args)
        assert brake.errors[-1] == f"Brake (b): {sentence}"
        s.setFMUstate(saved)
    assert s.getBoolean([flag]) == [False] and s.getInteger([code]) == [2]
    s.freeFMUstate(saved)


def test_the_state_keeps_the_typed_inputs_and_the_integer_state(brake):
    s = brake._slave
    s.setBoolean(_vr(brake, "brake"), [True])
    s.setInteger(_vr(brake, "gear"), [-4])
    brake.do_step(0.0, 0.01)
    saved = s.getFMUstate()
    s.setBoolean(_vr(brake, "brake"), [False])
    s.setInteger(_vr(brake, "gear"), [9])
    brake.do_step(0.01, 0.01)
    s.setFMUstate(saved)
    assert s.getInteger(_vr(brake, "gear", "count", "code")) == [-4, 1, -7]
    assert s.getBoolean(_vr(brake, "brake")) == [True]
    s.freeFMUstate(saved)
