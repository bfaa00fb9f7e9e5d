"""FMI variable types as the master handles them: which values a variable
takes, which connections join two of them, and which variables a host may
set before a run starts.

Every numeric type (FMI 2.0 Real, Integer, Boolean, Enumeration; FMI 3.0
Float32, Float64, Int8 ... UInt64, Boolean, Enumeration) is exchanged as a
64-bit float inside the master and converted at the FMU's own call: exact
for every Float32, every 32-bit integer and every 64-bit integer of at most
2**53 in magnitude (a larger value is reported, not rounded;
``instance.py``).  A String is exchanged as text.  Binary and Clock
variables (FMI 3.0) are not exchanged, set or recorded.

Connections (SSP 1.0, section 5.3.2): SSP 1.0 gives no rule for joining
connectors of different types and no transformation between them (an
``ssc:LinearTransformation`` is for Real connectors only, section 4.5.2.1),
and it requires a connector's type to be its variable's.  The master joins
an output to an input of the same family only: a real to a real, an
integer to an integer, a Boolean to a Boolean, an Enumeration to an
Enumeration with the same items, a String to a String; within a family the
input must hold every value of the output (an Int8 takes no Int32, a
Float32 no Float64: SSP 2.0 leaves such conversions to the implementation,
and this one makes none that loses data).  Units must agree where both ends
declare one (no unit conversion is made; SSP 1.0 permits one, section
5.3.2, and does not require it).

Setting a variable before the run (``--set``, a system file's parameter
values): FMI 2.0 (section 4.2.4, state ``Instantiated``) lets a host set a
variable whose variability is not constant and whose ``initial`` is exact
or approx, and, in initialization mode, an input; FMI 3.0 (section 2.3.2)
the same, an input having ``initial`` exact.  A variable whose value the
FMU computes (``initial`` calculated), a constant and the independent
variable are refused, and so is an input that a connection drives.  A
declared ``min`` or ``max`` (the variable's or its declared type's) bounds
the value, and so does its type's range (an integer type's, a Float32's:
no value is set as an infinity); an integer output's value, which the
master carries as a float, is at most 2**53 in magnitude; an Enumeration
takes one of its items, by name or by value.
"""
from __future__ import annotations

import math
from decimal import Decimal

from ..fmi_families import FAMILY, NUMERIC, UNSUPPORTED

#: the values each integer type holds (FMI 2.0 Integer: 32 bits)
INTEGER_RANGE = {"Integer": (-2 ** 31, 2 ** 31 - 1),
                 "Int8": (-2 ** 7, 2 ** 7 - 1), "UInt8": (0, 2 ** 8 - 1),
                 "Int16": (-2 ** 15, 2 ** 15 - 1), "UInt16": (0, 2 ** 16 - 1),
                 "Int32": (-2 ** 31, 2 ** 31 - 1), "UInt32": (0, 2 ** 32 - 1),
                 "Int64": (-2 ** 63, 2 ** 63 - 1), "UInt64": (0, 2 ** 64 - 1),
                 "Enumeration": (-2 ** 63, 2 ** 63 - 1)}
#: the largest integer magnitude a 64-bit float holds exactly
EXACT_INTEGER = 2 ** 53
#: the largest finite Float32 (IEEE 754 binary32: (2 - 2**-23) * 2**127)
FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127
#: significant digits of each real type
REAL_DIGITS = {"Real": 53, "Float64": 53, "Float32": 24}

__all__ = ["FAMILY", "NUMERIC", "UNSUPPORTED", "connection_problem", "value_of", "bound_problem",
           "inexact_problem", "settable_problem", "text_of", "continuous_reals"]


def continuous_reals(variables) -> list[bool]:
    """Which of ``variables`` are continuous reals: values that move
    smoothly in time, which a master may extrapolate, predict or give as a
    polynomial (not an integer, a Boolean, or a real that changes only at
    events)."""
    return [v.family == "real" and v.variability == "continuous" for v in variables]


def _article(word: str) -> str:
    """"a" or "an" before ``word`` as it is said (a UInt8: "you-int")."""
    return "an" if word[:1].lower() in "aeio" or word[:1] == "U" and word[:2] != "UI" else "a"


def holds(dst_type: str, src_type: str) -> bool:
    """Whether a variable of ``dst_type`` holds every value of one of
    ``src_type`` (same family assumed)."""
    if dst_type in REAL_DIGITS:
        return REAL_DIGITS[dst_type] >= REAL_DIGITS[src_type]
    if dst_type in INTEGER_RANGE:
        (lo, hi), (slo, shi) = INTEGER_RANGE[dst_type], INTEGER_RANGE[src_type]
        return lo <= slo and shi <= hi
    return True


def connection_problem(src, dst, units_join: bool = False) -> str | None:
    """Why the output ``src`` cannot drive the input ``dst`` (variable
    descriptions, ``model.VariableInfo``), in words that follow "joins", or
    None when it can; ``units_join``: their units differ but the connection
    converts them, or passes the values as they are by its own choice."""
    fs, fd = FAMILY.get(src.type), FAMILY.get(dst.type)
    if fs in UNSUPPORTED or fd in UNSUPPORTED:
        which = src if fs in UNSUPPORTED else dst
        return (f"{_article(which.type)} {which.type} variable ({which.name}), which crane-cosim cannot "
                f"exchange")
    if fs != fd:
        return (f"{_article(src.type)} {src.type} output to {_article(dst.type)} {dst.type} input; SSP 1.0 "
                f"defines no conversion between types (connect variables of one type)")
    if fs == "enumeration" and src.items != dst.items:
        return (f"Enumeration {src.declared_type or src.name} to Enumeration {dst.declared_type or dst.name}, "
                f"whose items differ ({_items(src)} against {_items(dst)})")
    if not holds(dst.type, src.type):
        return (f"{_article(src.type)} {src.type} output to {_article(dst.type)} {dst.type} input, which cannot "
                f"hold all its values")
    if src.unit and dst.unit and src.unit != dst.unit and not units_join:
        return f"mismatched units: {src.unit} to {dst.unit}"
    return None


def _items(var) -> str:
    return ", ".join(f"{n}={v}" for n, v in var.items) or "none"


def value_of(var, raw, where: str):
    """The value ``raw`` (a number, bool or str from the API; a text from the
    command line or a table) as the variable ``var`` takes it: a float, an
    int, a bool or a str.  Raises ``ValueError`` with one sentence naming
    ``where`` (``component.variable``) when ``raw`` is not a value of its
    type."""
    family = FAMILY.get(var.type)
    kind = f"{_article(var.type)} {var.type} {var.causality}"
    text = raw.strip() if isinstance(raw, str) else None
    if family == "string":
        if not isinstance(raw, str):
            raise ValueError(f"{where} is {kind}; set it to a text, not {raw!r}")
        if "\0" in raw:
            raise ValueError(f"{where} = {raw!r} holds a NUL character, which an FMI String cannot carry")
        return raw
    if family == "boolean":
        if isinstance(raw, bool):
            return raw
        if text is not None and text.lower() in ("true", "false"):
            return text.lower() == "true"
        raise ValueError(f"{where} is {kind}; set it to true or false, not {raw!r}")
    if family == "enumeration":
        return _enumeration_value(var, raw, text, f"{where} is {kind} of {_items(var)}")
    if family in ("real", "integer"):
        number = _number(raw, text, f"{where} is {kind}")
        if family == "integer":
            if text is not None and isinstance(number, float):
                # read as written ("9007199254740993.0", "9.007199254740993e15"),
                # not through a float, which holds no odd integer beyond 2**53
                number = Decimal(text)
                if number != number.to_integral_value():
                    raise ValueError(f"{where} is {kind}; {raw!r} is not a whole number")
            elif not float(number).is_integer():
                raise ValueError(f"{where} is {kind}; {raw!r} is not a whole number")
            return int(number)
        return float(number)
    raise ValueError(f"{where} is {kind}, which crane-cosim cannot set")


def _number(raw, text, what: str):
    """``raw`` as a number; ``what`` begins the sentence if it is none."""
    if isinstance(raw, bool) or (text is None and not isinstance(raw, (int, float))):
        raise ValueError(f"{what}; set it to a number, not {raw!r}")
    if text is not None:
        try:
            raw = int(text) if text.lstrip("+-").isdigit() else float(text)
        except ValueError:
            raise ValueError(f"{what}; set it to a number, not {raw!r}") from None
    if isinstance(raw, float) and not math.isfinite(raw):
        raise ValueError(f"{what}; {raw!r} is not a finite number")
    return raw


def _enumeration_value(var, raw, text, what: str) -> int:
    names = dict(var.items)
    if text is not None and text in names:
        return names[text]
    try:
        value = _number(raw, text, what)
    except ValueError:
        raise ValueError(f"{what}; {raw!r} is none of its items") from None
    if not float(value).is_integer() or (names and int(value) not in names.values()):
        raise ValueError(f"{what}; {raw!r} is none of its items")
    return int(value)


def bound_problem(var, value, where: str) -> str | None:
    """Why ``value`` (as :func:`value_of` gives it) is outside what ``var``
    declares (``min``, ``max``, an integer type's range), or None."""
    family = FAMILY.get(var.type)
    if family not in ("real", "integer"):
        return None
    if family == "integer":
        lo, hi = INTEGER_RANGE[var.type]
        if not lo <= value <= hi:
            return f"{where} = {value} is outside the range of {_article(var.type)} {var.type} ({lo} to {hi})"
    elif var.type == "Float32" and abs(value) > FLOAT32_MAX:
        # it would be set as an infinity (and the run fail on it) where it is refused here
        return f"{where} = {value!r} is outside the range of a Float32 (-{FLOAT32_MAX!r} to {FLOAT32_MAX!r})"
    if var.min is not None and value < var.min:
        return f"{where} = {value!r} is below its declared minimum {var.min!r}"
    if var.max is not None and value > var.max:
        return f"{where} = {value!r} is above its declared maximum {var.max!r}"
    return None


def inexact_problem(var, value, where: str, declared_by: str | None = None) -> str | None:
    """Why the integer ``value`` of the output ``var``, which the master
    carries and records as a 64-bit float, would not be carried exactly
    (beyond 2**53 in magnitude, compared as integers), or None; the start
    value its FMU declares where ``declared_by`` names the FMU.  (A
    parameter's or an input's value is set through its own type's call,
    exactly.)"""
    if var.causality != "output" or FAMILY.get(var.type) not in ("integer", "enumeration") \
            or isinstance(value, bool) or not isinstance(value, int) or abs(value) <= EXACT_INTEGER:
        return None
    said = f"{where} = {value} is" if declared_by is None else \
        f"{declared_by} declares the start value {value} of {where}, which is"
    return (f"{said} beyond the 2**53 in magnitude that crane-cosim carries exactly (it exchanges and records "
            f"{_article(var.type)} {var.type} output as a 64-bit float)")


def settable_problem(var, where: str, driven_by=None, fmi_version: str = "2.0") -> str | None:
    """Why a host may not set ``var`` before the run starts (FMI 2.0
    section 4.2.4, FMI 3.0 section 2.3.2; FMI 1.0: its parameters and
    inputs), in one sentence, or None.
    ``driven_by``: the connection that drives it, if any."""
    family = FAMILY.get(var.type)
    if family in UNSUPPORTED:
        return f"{where} is {_article(var.type)} {var.type} variable, which crane-cosim cannot set"
    if var.causality == "input":
        if driven_by is not None:
            return f"{where} is an input driven by the connection {driven_by}; its value comes from there"
        return None
    if var.causality == "independent":
        return f"{where} is the independent variable (time), which the master sets"
    if var.variability == "constant":
        return f"{where} is a constant, which no host may set"
    if fmi_version == "1.0":  # no initial attribute: parameters and inputs are a host's to set
        if var.causality == "parameter":
            return None
        return (f"{where} is {_article(var.causality)} {var.causality}, and an FMI 1.0 host sets parameters and "
                f"inputs only")
    if var.initial not in ("exact", "approx"):
        rule = "FMI 2.0 section 4.2.4" if fmi_version == "2.0" else "FMI 3.0 section 2.3.2"
        return (f"{where} is {_article(var.causality)} {var.causality} computed by the FMU (initial = "
                f"{var.initial or 'calculated'}), which a host may not set ({rule})")
    return None


def text_of(value) -> str:
    """A value as a system file writes it (``true``/``false`` for a bool)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)
