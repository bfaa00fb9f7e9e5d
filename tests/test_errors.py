"""The sentences of ``errors.py``: what a mistyped name is offered."""
from crane_cosim.blocks.payload import Payload
from crane_cosim.blocks.vessel import Vessel
from crane_cosim.errors import did_you_mean

VESSEL = [p.name for p in Vessel.parameters]
PAYLOAD = [p.name for p in Payload.parameters]


def test_a_name_that_begins_the_typed_one_is_offered():
    """FMPy's and OSP's users write ``mass`` for the vessel's ``m``."""
    assert did_you_mean("mass", VESSEL) == " (did you mean 'm'?)"


def test_a_near_spelling_is_offered_case_aside():
    assert did_you_mean("k_rol", VESSEL) == " (did you mean 'k_roll'?)"
    assert did_you_mean("K_ROLL", VESSEL).startswith(" (did you mean 'k_roll'")
    assert did_you_mean("l_wire", PAYLOAD).startswith(" (did you mean 'l_wire_0'")


def test_at_most_three_are_offered_and_nothing_when_none_is_near():
    assert did_you_mean("c", ["c_roll", "c_pitch", "c_yaw", "c_heave"]).count("'") == 6
    assert did_you_mean("propeller", VESSEL) == ""
    assert did_you_mean("m", []) == ""
