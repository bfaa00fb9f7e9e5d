"""The rules of ``runtime/types.py``: which connections join two variables
(SSP 1.0 defines none between types; within a family the input must hold
every value of the output), which values a variable takes, and which
variables a host may set before a run (FMI 2.0 section 4.2.4, FMI 3.0
section 2.3.2)."""
import pytest

from crane_cosim.runtime.model import VariableInfo
from crane_cosim.runtime.types import bound_problem, connection_problem, inexact_problem, settable_problem, value_of

MODES = (("off", 1), ("slow", 2), ("fast", 3))


def var(type_, causality="input", **kw):
    return VariableInfo(kw.pop("name", "v"), type_, causality, **kw)


@pytest.mark.parametrize("src, dst", [
    ("Real", "Real"), ("Float64", "Real"), ("Float32", "Float64"), ("Integer", "Int32"), ("Int8", "Int64"),
    ("UInt32", "Int64"), ("Boolean", "Boolean"), ("String", "String"), ("Int32", "Integer"),
])
def test_connections_within_a_family_that_lose_nothing(src, dst):
    assert connection_problem(var(src, "output"), var(dst)) is None


@pytest.mark.parametrize("src, dst, words", [
    ("Integer", "Real", "an Integer output to a Real input; SSP 1.0 defines no conversion between types"),
    ("Real", "Integer", "a Real output to an Integer input; SSP 1.0 defines no conversion between types"),
    ("Boolean", "Integer", "a Boolean output to an Integer input"),
    ("String", "Real", "a String output to a Real input"),
    ("Integer", "Enumeration", "an Integer output to an Enumeration input"),
    ("Float64", "Float32", "a Float64 output to a Float32 input, which cannot hold all its values"),
    ("Int64", "Int32", "an Int64 output to an Int32 input, which cannot hold all its values"),
    ("Int8", "UInt8", "an Int8 output to a UInt8 input, which cannot hold all its values"),
    ("Binary", "Binary", "a Binary variable (v), which crane-cosim cannot exchange"),
])
def test_connections_that_are_refused(src, dst, words):
    assert words in connection_problem(var(src, "output"), var(dst))


def test_enumerations_join_where_their_items_agree():
    assert connection_problem(var("Enumeration", "output", items=MODES), var("Enumeration", items=MODES)) is None
    other = var("Enumeration", items=(("off", 0), ("on", 1)), declared_type="Switch", name="s")
    assert connection_problem(var("Enumeration", "output", items=MODES, declared_type="Mode"), other) == (
        "Enumeration Mode to Enumeration Switch, whose items differ (off=1, slow=2, fast=3 against off=0, on=1)")


def test_units_must_agree_where_both_declare_one():
    assert connection_problem(var("Real", "output", unit="m/s"), var("Real", unit="rad/s")) == \
        "mismatched units: m/s to rad/s"
    assert connection_problem(var("Real", "output", unit="m/s"), var("Real")) is None


@pytest.mark.parametrize("type_, raw, value", [
    ("Real", "2.5", 2.5), ("Real", 3, 3.0), ("Float32", " 1e3 ", 1000.0), ("Integer", "7", 7), ("Int64", 2 ** 40, 2 ** 40),
    ("Integer", 4.0, 4), ("Boolean", "TRUE", True), ("Boolean", False, False), ("String", " a b ", " a b "),
    ("Enumeration", "fast", 3), ("Enumeration", "2", 2), ("Enumeration", 1, 1),
])
def test_values_are_read_as_their_type_says(type_, raw, value):
    got = value_of(var(type_, "parameter", items=MODES if type_ == "Enumeration" else ()), raw, "c.v")
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("type_, raw, sentence", [
    ("Real", "fast", "c.v is a Real parameter; set it to a number, not 'fast'"),
    ("Real", "inf", "c.v is a Real parameter; inf is not a finite number"),
    ("Integer", "2.5", "c.v is an Integer parameter; '2.5' is not a whole number"),
    ("Boolean", "yes", "c.v is a Boolean parameter; set it to true or false, not 'yes'"),
    ("String", 2.0, "c.v is a String parameter; set it to a text, not 2.0"),
    ("Enumeration", "medium", "c.v is an Enumeration parameter of off=1, slow=2, fast=3; 'medium' is none of its "
                              "items"),
    ("Enumeration", "4", "c.v is an Enumeration parameter of off=1, slow=2, fast=3; '4' is none of its items"),
    ("Binary", "0a", "c.v is a Binary parameter, which crane-cosim cannot set"),
])
def test_values_that_are_not_of_the_type_are_named(type_, raw, sentence):
    with pytest.raises(ValueError) as exc:
        value_of(var(type_, "parameter", items=MODES if type_ == "Enumeration" else ()), raw, "c.v")
    assert str(exc.value) == sentence


def test_declared_bounds_and_an_integers_range_bound_a_value():
    e = var("Real", "parameter", name="e", min=0.5, max=1.0)
    assert bound_problem(e, 0.7, "ball.e") is None
    assert bound_problem(e, 0.3, "ball.e") == "ball.e = 0.3 is below its declared minimum 0.5"
    assert bound_problem(e, 2.0, "ball.e") == "ball.e = 2.0 is above its declared maximum 1.0"
    assert bound_problem(var("Int8", "parameter"), 200, "c.n") == \
        "c.n = 200 is outside the range of an Int8 (-128 to 127)"


@pytest.mark.parametrize("causality, variability, initial, why", [
    ("parameter", "fixed", "exact", None),
    ("parameter", "tunable", "exact", None),
    ("output", "continuous", "exact", None),           # BouncingBall's h: its start value
    ("local", "continuous", "approx", None),
    ("output", "continuous", "calculated", "c.v is an output computed by the FMU (initial = calculated), which a "
                                           "host may not set (FMI 2.0 section 4.2.4)"),
    ("calculatedParameter", "fixed", "calculated", "c.v is a calculatedParameter computed by the FMU"),
    ("output", "constant", "exact", "c.v is a constant, which no host may set"),
    ("independent", "continuous", None, "c.v is the independent variable (time), which the master sets"),
])
def test_what_a_host_may_set_before_a_run(causality, variability, initial, why):
    found = settable_problem(var("Real", causality, variability=variability, initial=initial), "c.v")
    assert found is None if why is None else why in found


def test_an_input_is_set_unless_a_connection_drives_it():
    u = var("Real", "input")
    assert settable_problem(u, "c.u") is None
    assert settable_problem(u, "c.u", "a.y -> c.u") == \
        "c.u is an input driven by the connection a.y -> c.u; its value comes from there"


@pytest.mark.parametrize("type_, causality, value, refused", [
    ("Int64", "output", 2 ** 53 + 1, True), ("Int64", "output", -(2 ** 53) - 1, True),
    ("UInt64", "output", 2 ** 64 - 1, True), ("Int64", "output", 2 ** 53, False),
    ("Int64", "parameter", 2 ** 62, False),   # set through its own type's call, never carried as a float
    ("Int32", "output", 2 ** 31 - 1, False),
])
def test_an_integer_output_beyond_2_53_is_named_compared_as_an_integer(type_, causality, value, refused):
    """float(2**53 + 1) == 2**53: a guard comparing floats let it through."""
    problem = inexact_problem(var(type_, causality), value, "c.v")
    assert (problem is not None) == refused, problem
    if refused:
        assert problem.startswith(f"c.v = {value} is beyond the 2**53 in magnitude that crane-cosim carries exactly")


@pytest.mark.parametrize("value, refused", [(3.4028234663852886e38, False), (3.5e38, True), (1e39, True),
                                            (-1e39, True), (-3.4e38, False)])
def test_a_float32_value_beyond_its_range_is_named(value, refused):
    """A value that would be set as an infinity (the largest Float32 is
    (2 - 2**-23) 2**127 = 3.4028234663852886e38)."""
    problem = bound_problem(var("Float32", "parameter"), value, "c.g")
    assert (problem is not None) == refused, problem


@pytest.mark.parametrize("text, value", [("9007199254740993.0", 2 ** 53 + 1), ("9.007199254740993e15", 2 ** 53 + 1),
                                         ("-9007199254740995.00", -(2 ** 53) - 3), ("1e3", 1000)])
def test_an_integer_written_with_a_point_or_an_exponent_is_read_as_written(text, value):
    """Through a float, 9007199254740993.0 was 2**53: a value the guard then
    let through, rounded."""
    assert value_of(var("Int64", "parameter"), text, "c.v") == value
