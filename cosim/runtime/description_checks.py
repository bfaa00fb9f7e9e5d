"""What makes an FMU's ``modelDescription.xml`` unreadable, said in one
sentence before fmpy reads it (``runtime/model.py``): the root element,
the FMI version, and the attributes every variable must have (FMI 2.0
section 2.2.7, FMI 3.0 section 2.4.7) and the references the model
structure makes to them (FMI 2.0 section 2.2.8, FMI 3.0 section 2.4.8).
fmpy, given such a file, fails with Python's own words ("int() argument
must be ... not 'NoneType'")."""
from __future__ import annotations

import re

__all__ = ["malformed"]

#: the FMI versions this master runs, as ``fmiVersion`` gives them
VERSIONS = ("1.0", "2.0", "3.0")
#: the type elements of an FMI 2.0 ScalarVariable
FMI2_TYPES = ("Real", "Integer", "Boolean", "String", "Enumeration")
_UNSIGNED = re.compile(r"\s*\d+\s*")


def _version(root) -> str | None:
    """``1.0``, ``2.0`` or ``3.0``, the version the file declares; None otherwise."""
    declared = (root.get("fmiVersion") or "").strip()
    if declared in ("1.0", "2.0"):
        return declared
    return "3.0" if declared.startswith("3.") else None


def malformed(root) -> str | None:
    """Why the parsed modelDescription ``root`` cannot be read as an FMI 2.0
    or 3.0 description, in words that follow "FMU <path>", or None."""
    if root.tag != "fmiModelDescription":
        return f"has a modelDescription.xml whose root element is <{root.tag}>, not <fmiModelDescription>"
    declared = root.get("fmiVersion")
    if declared is None:
        return "has a modelDescription.xml that declares no fmiVersion"
    version = _version(root)
    if version is None:
        return (f"is an FMI {declared} FMU (its modelDescription.xml says fmiVersion=\"{declared}\"); crane-cosim "
                f"runs FMI 1.0 co-simulation, and FMI 2.0 and 3.0 co-simulation and Model Exchange FMUs")
    variables = root.find("ModelVariables")
    found = list(variables) if variables is not None else []
    for k, v in enumerate(found, start=1):
        if version != "3.0" and v.tag != "ScalarVariable":
            continue
        which = f"variable {k} ({v.get('name')!r})" if v.get("name") else f"variable {k}"
        if not v.get("name"):
            return f"has a modelDescription.xml whose {which} has no name"
        reference = v.get("valueReference")
        if reference is None:
            return f"has a modelDescription.xml whose {which} has no valueReference"
        if not _UNSIGNED.fullmatch(reference):
            return f"has a modelDescription.xml whose {which} has the valueReference {reference!r}, not a whole number"
        if version != "3.0" and not any(t.tag in FMI2_TYPES for t in v):
            return f"has a modelDescription.xml whose {which} has no type (one of {', '.join(FMI2_TYPES)})"
    return _structure_problem(root, version, found)


def _structure_problem(root, version: str, found: list) -> str | None:
    """A reference of the model structure to a variable that is not there."""
    structure = root.find("ModelStructure")
    if structure is None:
        return None
    if version == "2.0":
        count = sum(1 for v in found if v.tag == "ScalarVariable")
        for unknown in structure.iter("Unknown"):
            index = unknown.get("index") or ""
            if not _UNSIGNED.fullmatch(index) or not 1 <= int(index) <= count:
                return (f"has a modelDescription.xml whose ModelStructure names variable index {index!r}, which is "
                        f"not one of its {count} variables")
        return None
    references = {(v.get("valueReference") or "").strip() for v in found}
    for entry in structure:
        reference = (entry.get("valueReference") or "").strip()
        if reference not in references:
            return (f"has a modelDescription.xml whose ModelStructure's <{entry.tag}> names the valueReference "
                    f"{reference!r}, which no variable has")
    return None
