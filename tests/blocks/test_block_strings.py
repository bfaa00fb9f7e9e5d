"""String and Integer parameters of a block: declared with a start value of
their type (a text and no unit, a whole number), kept as such, refused with
one sentence when they are not of it or not one of the block's choices
(``Block.require_one_of``)."""
import pytest
from brake_block import Brake
from choice_block import Choice
from crane_cosim.blocks.block import ParameterError, Variable


def test_a_string_parameter_stays_a_string():
    block = Choice(model="dahl", sign="minus", k=2)
    assert block.values == {"model": "dahl", "sign": "minus", "k": 2.0}
    assert block.p.model == "dahl" and list(block.output(0.0, None, [0.5])) == [-1.0 + 2 * 0.5]
    assert Choice().values["model"] == "lugre"


@pytest.mark.parametrize("params,sentence", [
    ({"model": "bogus"}, "Choice parameter model = 'bogus' is invalid: it must be one of 'none', 'dahl', 'lugre'"),
    ({"model": 1.0}, "Choice parameter model = 1.0 is invalid: it is a String parameter and takes a text"),
    ({"k": "2"}, "Choice parameter k = '2' is invalid: it must be a number"),
])
def test_a_value_the_block_cannot_take_is_one_sentence(params, sentence):
    with pytest.raises(ParameterError) as exc:
        Choice.check_parameters(**params)
    assert str(exc.value) == sentence


@pytest.mark.parametrize("kwargs,fragment", [
    ({"unit": "1", "start": "lugre"}, "String variable m needs a str start value and the unit \"\""),
    ({"unit": "", "start": 1.0}, "String variable m needs a str start value"),
    ({"unit": "", "start": "a", "type": "Text"}, "variable m: type 'Text' is not one of Real, Integer, Boolean, String"),
    ({"unit": "1", "start": 1.5, "type": "Integer"}, "Integer variable m needs a whole start value from -2\\*\\*31"),
    ({"unit": "1", "start": 2 ** 31, "type": "Integer"}, "Integer variable m needs a whole start value"),
    ({"unit": "1", "start": True, "type": "Integer"}, "Integer variable m needs a whole start value"),
])
def test_a_declaration_an_fmu_cannot_carry_is_refused(kwargs, fragment):
    kwargs = {"type": "String", **kwargs}
    with pytest.raises(ValueError, match=fragment):
        Variable("m", kwargs.pop("unit"), kwargs.pop("start"), "a model", **kwargs)


@pytest.mark.parametrize("value,sentence", [
    (1.5, "Brake parameter gear0 = 1.5 is invalid: it must be a whole number from -2**31 to 2**31 - 1"),
    (2.0 ** 31, "Brake parameter gear0 = 2147483648.0 is invalid: it must be a whole number from -2**31 to "
                "2**31 - 1"),
    ("2", "Brake parameter gear0 = '2' is invalid: it must be a whole number"),
])
def test_an_integer_parameter_takes_whole_numbers_only(value, sentence):
    assert Brake(gear0=-3.0).p.gear0 == -3 and isinstance(Brake(gear0=-3.0).p.gear0, int)
    with pytest.raises(ParameterError) as exc:
        Brake.check_parameters(gear0=value)
    assert str(exc.value) == sentence
