"""What the FMI 2.0 test FMUs share: pythonfmu 0.7 has no Enumeration
variable, and an FMI 2.0 Enumeration is read and set through the Integer
calls (FMI 2.0 section 2.1.7), so an Enumeration here is pythonfmu's
Integer written as an Enumeration of a declared type; the slave adds the
type definitions and the declared bounds to its modelDescription.
Copied beside each FMU's script when it is built (``tests/conftest.py``)."""
from xml.etree.ElementTree import Element, SubElement

from pythonfmu import Integer

#: the operating modes of the test FMUs: FMI 2.0 Enumeration items
MODES = {"off": 1, "slow": 2, "fast": 3}
#: the count a step adds in each mode, per increment
FACTOR = {1: 0, 2: 1, 3: 2}


class Enumeration(Integer):
    """An Enumeration of the declared type ``declared_type``, served by
    fmi2GetInteger and fmi2SetInteger."""

    def __init__(self, name, declared_type, **kwargs):
        super().__init__(name, **kwargs)
        self.declared_type = declared_type

    def to_xml(self):
        node = super().to_xml()
        typed = node.find("Integer")
        typed.tag = "Enumeration"
        typed.set("declaredType", self.declared_type)
        return node


def completed(root, types: dict, bounds: dict):
    """The modelDescription ``root`` with ``types`` (name -> {item: value})
    defined and ``bounds`` (variable -> (min, max)) declared."""
    definitions = Element("TypeDefinitions")
    for name, items in types.items():
        enumeration = SubElement(SubElement(definitions, "SimpleType", name=name), "Enumeration")
        for item, value in items.items():
            SubElement(enumeration, "Item", name=item, value=str(value))
    # schema order: CoSimulation, UnitDefinitions, TypeDefinitions, ...
    root.insert(list(root).index(root.find("CoSimulation")) + 1, definitions)
    for variable in root.find("ModelVariables"):
        if variable.get("name") in bounds:
            low, high = bounds[variable.get("name")]
            variable[0].set("min", str(low))
            variable[0].set("max", str(high))
    return root
