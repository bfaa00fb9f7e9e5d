"""String parameters in the FMU: declared in the modelDescription as FMI 2.0
wants them, set before initialization, tuned between steps when tunable,
refused with the block's sentence, and kept in the FMU state.  The block is
the test-only ``Choice`` (``tests/choice_block.py``)."""
import xml.etree.ElementTree as ET
import zipfile

import pytest
from fmpy.validation import validate_fmu

from choice_block import Choice
from crane_cosim.errors import CraneCosimError
from crane_cosim.runtime.loading import open_instance
from crane_cosim.fmus.build import build_block_fmu, fmu_is_current
from fmi_calls import fails


def _model_variables(fmu):
    with zipfile.ZipFile(fmu) as z:
        md = ET.fromstring(z.read("modelDescription.xml"))
    return md, {sv.get("name"): sv for sv in md.find("ModelVariables")}


def test_the_model_description_declares_string_parameters_and_validates(choice_fmu):
    assert validate_fmu(str(choice_fmu)) == []
    md, variables = _model_variables(choice_fmu)
    for name, variability, start in (("model", "fixed", "lugre"), ("sign", "tunable", "plus")):
        sv = variables[name]
        assert (sv.get("causality"), sv.get("variability")) == ("parameter", variability)
        assert [(child.tag, child.attrib) for child in sv] == [("String", {"start": start})]  # no unit
    assert variables["k"].find("Real").attrib == {"start": "1", "unit": "1"}
    # in initialization mode the output may depend on every parameter, the texts too
    index = {name: str(k) for k, name in enumerate(variables, start=1)}
    initial = md.find("ModelStructure/InitialUnknowns/Unknown")
    assert initial.get("dependencies").split() == [index[n] for n in ("model", "sign", "k", "u")]


def test_an_fmu_of_a_block_outside_the_package_is_built_from_its_own_file(choice_fmu):
    """It carries the block's module, and is current for that block only
    (its sources are not the package's alone)."""
    with zipfile.ZipFile(choice_fmu) as z:
        assert any(n.endswith("/outside_block.py") for n in z.namelist())
    assert fmu_is_current(choice_fmu, Choice) and not fmu_is_current(choice_fmu)


def test_a_block_the_fmu_cannot_import_by_name_is_refused(tmp_path):
    class Local(Choice):
        model_name = "Local"
    with pytest.raises(ValueError, match="block test_a_block_the_fmu_cannot_import_by_name_is_refused.<locals>.Local "
                                         "cannot be built into an FMU: it is not defined at the top level"):
        build_block_fmu(Local, tmp_path)


def _instance(choice_fmu, tmp_path, parameters, name="c"):
    inst = open_instance(choice_fmu, tmp_path, name, inputs=["u"], outputs=["level"], values=parameters)
    inst.initialize(0.0)
    return inst


@pytest.mark.parametrize("parameters,level", [
    ({}, 2.0), ({"model": "dahl"}, 1.0), ({"model": "none"}, 0.0), ({"model": "dahl", "sign": "minus"}, -1.0),
])
def test_a_string_set_before_initialization_reaches_the_block(choice_fmu, tmp_path, parameters, level):
    inst = _instance(choice_fmu, tmp_path, parameters)
    assert list(inst.get_outputs()) == [level]
    assert inst._slave.getString([inst.variable("model").value_reference]) == \
        [parameters.get("model", "lugre").encode()]
    inst.do_step(0.0, 0.01)
    assert list(inst.get_outputs()) == [level] and not inst.errors
    inst.free()


def test_an_unknown_choice_fails_initialization_with_the_blocks_sentence(choice_fmu, tmp_path):
    inst = open_instance(choice_fmu, tmp_path, "c", values={"model": "bogus"})
    with pytest.raises(CraneCosimError) as exc:
        inst.initialize(0.0)
    assert str(exc.value) == ("component c (Choice.fmu) failed to initialize: Choice (c): cannot initialize: Choice "
                              "parameter model = 'bogus' is invalid: it must be one of 'none', 'dahl', 'lugre'")
    inst.free()


@pytest.mark.parametrize("name,value,sentence", [
    ("model", 2.0, "c.model is a String parameter; set it to a text, not 2.0"),
    ("model", "a\0b", "c.model = 'a\\x00b' holds a NUL character, which an FMI String cannot carry"),
    ("k", "two", "c.k is a Real parameter; set it to a number, not 'two'"),
    ("k", True, "c.k is a Real parameter; set it to a number, not True"),
])
def test_a_value_of_the_wrong_kind_is_refused_before_it_is_set(choice_fmu, tmp_path, name, value, sentence):
    with pytest.raises(CraneCosimError) as exc:
        open_instance(choice_fmu, tmp_path, "c", values={name: value})
    assert str(exc.value) == sentence


def test_a_tunable_string_is_honoured_between_steps_and_a_fixed_one_refused(choice_fmu, tmp_path):
    """Each refusal is fmi2Error (FMI's error state, left here by restoring
    the state saved before it); the values refused are not taken."""
    inst = _instance(choice_fmu, tmp_path, {"model": "dahl"})
    vr = {n: inst.variable(n).value_reference for n in ("model", "sign", "k")}
    inst.do_step(0.0, 0.01)
    inst._slave.setString([vr["sign"]], ["minus"])
    assert list(inst.get_outputs()) == [-1.0] and not inst.errors
    state = inst._slave.getFMUstate()
    fails(inst._slave.setString, [vr["model"]], ["none"])
    assert inst.errors[-1] == ("Choice (c): parameter model is fixed once the model is initialized; the new value "
                               "'none' is ignored")
    inst._slave.setFMUstate(state)
    fails(inst._slave.setString, [vr["sign"]], ["sideways"])
    assert inst.errors[-1].startswith("Choice (c): parameter sign = 'sideways' is refused; sign keeps 'minus': "
                                      "Choice parameter sign = 'sideways' is invalid")
    inst._slave.setFMUstate(state)
    # a text read or written as a number is the host's mistake, said so
    fails(inst._slave.getReal, [vr["sign"]])
    assert inst.errors[-1] == (f"Choice (c): fmi2GetReal: sign (value reference {vr['sign']}) is a String variable, "
                               f"not a Real one; read and set it with fmi2GetString and fmi2SetString")
    inst._slave.setFMUstate(state)
    fails(inst._slave.setReal, [vr["sign"]], [1.0])
    inst._slave.setFMUstate(state)
    inst._slave.freeFMUstate(state)
    inst.do_step(0.01, 0.01)
    assert list(inst.get_outputs()) == [-1.0]
    assert inst._slave.getString([vr["model"], vr["sign"]]) == [b"dahl", b"minus"]
    inst.free()


def test_the_fmu_state_keeps_the_strings(choice_fmu, tmp_path):
    inst = _instance(choice_fmu, tmp_path, {})
    vr = inst.variable("sign").value_reference
    state = inst._slave.getFMUstate()
    inst._slave.setString([vr], ["minus"])
    inst.do_step(0.0, 0.01)
    assert list(inst.get_outputs()) == [-2.0]
    inst._slave.setFMUstate(state)
    inst._slave.freeFMUstate(state)
    assert inst._slave.getString([vr]) == [b"plus"] and list(inst.get_outputs()) == [2.0]
    assert not inst.errors
    inst.free()
