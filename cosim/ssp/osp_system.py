"""OSP's own system files (``OspSystemStructure.xml``, libcosim's native
format, version 0.1) read into a :class:`~runtime.system.System`, as
libcosim's ``osp_config_parser`` reads them:

* ``StartTime``, ``EndTime``, ``BaseStepSize``; ``Algorithm`` ``fixedStep``
  (libcosim's fixed-step algorithm: our Jacobi, inputs held over the step;
  ``ecco`` is refused by name);
* each ``Simulator``: its FMU (``source``, relative to the file), its own
  ``stepSize`` and its ``InitialValues`` (Real, Integer, Boolean, String);
* ``VariableConnection``: two variables, the one that is an output (or a
  calculated parameter) driving the other;
* ``VariableGroupConnection``: two variable groups of the simulators'
  OSP model descriptions (``<modelName>_OspModelDescription.xml`` beside
  the FMU, else beside the file), their variables joined in order and their
  nested groups pair by pair, each pair in the direction its causalities
  say;
* the ``LinearTransformation`` function with its two ``SignalConnection``
  elements: the connection they make, with that transformation
  (``runtime/transformations.py``).  The ``Sum`` and ``VectorSum``
  functions are refused by name.

The units an OSP model description gives its variables are not applied,
as libcosim does not apply them.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..errors import CraneCosimError
from ..files.archive import Limits, read_xml
from ..runtime.model import describe
from ..runtime.system import System
from ..runtime.transformations import Linear

__all__ = ["OSP_SYSTEM", "OSP_FILE", "is_osp_system", "read_osp_system"]

#: the namespace of OSP's system structure
OSP_SYSTEM = "http://opensimulationplatform.com/MSMI/OSPSystemStructure"
#: the name libcosim looks for in a folder
OSP_FILE = "OspSystemStructure.xml"


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _children(el: ET.Element | None, name: str) -> list:
    return [c for c in el if _local(c.tag) == name] if el is not None else []


def _child(el: ET.Element, name: str) -> ET.Element | None:
    found = _children(el, name)
    return found[0] if found else None


def is_osp_system(path) -> bool:
    """Whether ``path`` is an OSP system file (an XML file whose root is
    ``OspSystemStructure``) or a folder holding ``OspSystemStructure.xml``
    and no ``.ssd``."""
    path = Path(path)
    if path.is_dir():
        return (path / OSP_FILE).is_file() and not any(path.glob("*.ssd"))
    if not path.is_file() or path.suffix.lower() != ".xml":
        return False
    with open(path, "rb") as f:
        return b"OspSystemStructure" in f.read(4096)


class _Reader:
    def __init__(self, path: Path, limits: Limits | None):
        self.path = path
        self.root = read_xml(path, f"OSP system file {path}", limits)
        if _local(self.root.tag) != "OspSystemStructure":
            raise CraneCosimError(f"{path} is not an OSP system file (root element {self.root.tag!r})")
        self.models, self.groups = {}, {}

    def fail(self, what: str) -> CraneCosimError:
        return CraneCosimError(f"OSP system file {self.path}: {what}")

    def number(self, name: str) -> float | None:
        el = _child(self.root, name)
        if el is None:
            return None
        try:
            return float((el.text or "").strip())
        except ValueError:
            raise self.fail(f"{name} {el.text!r} is not a number of seconds") from None

    def system(self) -> System:
        system = System(self.path.stem if self.path.stem != "OspSystemStructure" else self.path.parent.name,
                        base_dir=self.path.parent, algorithm="jacobi", extrapolation="none")
        algorithm = (_child(self.root, "Algorithm").text or "").strip() if _child(self.root, "Algorithm") is not None \
            else "fixedStep"
        if algorithm.lower() != "fixedstep":
            raise self.fail(f"its Algorithm is {algorithm!r}; crane-cosim runs OSP's fixedStep (libcosim's ecco, "
                            f"an adaptive step, it does not run)")
        step = self.number("BaseStepSize")
        if step is None or not step > 0:
            raise self.fail("it gives no positive BaseStepSize, which libcosim needs too")
        system.step = step
        system.start_time = self.number("StartTime") or 0.0
        end = self.number("EndTime")
        if end is None:
            system.notes.append(f"OSP system file {self.path} gives no EndTime: the run stops at "
                                f"{system.start_time + system.stop_time:g} s unless --stop-time says")
            system.stop_time = system.start_time + system.stop_time
        else:
            system.stop_time = end
        for sim in _children(_child(self.root, "Simulators"), "Simulator"):
            self.simulator(system, sim)
        self.connections(system)
        return system

    def simulator(self, system: System, sim: ET.Element) -> None:
        name, source = sim.get("name"), sim.get("source")
        if not name or not source:
            raise self.fail("a Simulator lacks its name or source")
        if ":" in source.split("/")[0] and not Path(source).is_absolute() and len(source.split(":")[0]) > 1:
            raise self.fail(f"the source of simulator {name} is the URL {source!r}; crane-cosim reads local FMU "
                            f"files only (not proxyfmu://, not http)")
        values = {}
        for iv in _children(_child(sim, "InitialValues"), "InitialValue"):
            values[iv.get("variable")] = self.initial_value(name, iv)
        comp = system.add_component(name, source, **values)
        if sim.get("stepSize") is not None:
            try:
                comp.step = float(sim.get("stepSize")) or None
            except ValueError:
                raise self.fail(f"simulator {name} has the stepSize {sim.get('stepSize')!r}, which is not a "
                                f"time in seconds") from None
        path = system.source_path(comp)
        self.models[name] = describe(path)

    def initial_value(self, simulator: str, iv: ET.Element):
        variable = iv.get("variable")
        typed = next(iter(iv), None)
        if not variable or typed is None or typed.get("value") is None:
            raise self.fail(f"an InitialValue of simulator {simulator} lacks its variable, type or value")
        kind, raw = _local(typed.tag), typed.get("value")
        try:
            if kind == "Real":
                return float(raw)
            if kind == "Integer":
                return int(raw)
            if kind == "Boolean":
                if raw not in ("true", "false", "1", "0"):
                    raise ValueError
                return raw in ("true", "1")
            if kind == "String":
                return raw
        except ValueError:
            raise self.fail(f"the initial value of {simulator}.{variable}, {raw!r}, is not a {kind}") from None
        raise self.fail(f"the initial value of {simulator}.{variable} is of type {kind}, which OSP does not define")

    # -- connections ---------------------------------------------------------------------------
    def connections(self, system: System) -> None:
        functions = _child(self.root, "Functions")
        for kind in ("Sum", "VectorSum"):
            if _children(functions, kind):
                raise self.fail(f"it uses OSP's {kind} function ({_children(functions, kind)[0].get('name')}), "
                                f"which crane-cosim does not compute; a component can sum the values instead")
        conns = _child(self.root, "Connections")
        for c in _children(conns, "VariableConnection"):
            a, b = (self.endpoint(v) for v in _children(c, "Variable"))
            self.connect(system, a, b)
        for c in _children(conns, "VariableGroupConnection"):
            a, b = (self.endpoint(v) for v in _children(c, "VariableGroup"))
            for x, y in self.group_pairs(a, b):
                self.connect(system, x, y)
        if _children(conns, "SignalGroupConnection"):
            raise self.fail("it has a SignalGroupConnection, which joins a VectorSum function; crane-cosim does not "
                            "compute OSP's functions but the linear transformation")
        signals = _children(conns, "SignalConnection")
        for f in _children(functions, "LinearTransformation"):
            self.linear(system, f, signals)

    def endpoint(self, el: ET.Element) -> tuple:
        simulator, name = el.get("simulator"), el.get("name")
        if simulator not in self.models:
            raise self.fail(f"a connection names the simulator {simulator!r}, which it does not declare")
        return simulator, name

    def connect(self, system: System, a: tuple, b: tuple, transformation=None) -> None:
        """``a`` and ``b`` joined, the output driving the input (libcosim: ``a``
        where it is an output or a calculated parameter, else ``b``)."""
        var = self.models[a[0]].variables.get(a[1])
        if var is None:
            raise self.fail(f"simulator {a[0]} ({self.models[a[0]].path.name}) has no variable {a[1]!r}")
        if var.causality not in ("output", "calculatedParameter"):
            a, b = b, a
        system.connect(f"{a[0]}.{a[1]}", f"{b[0]}.{b[1]}", transformation)

    def linear(self, system: System, f: ET.Element, signals: list) -> None:
        name = f.get("name")
        try:
            t = Linear(float(f.get("factor", 1.0)), float(f.get("offset", 0.0)))
        except ValueError:
            raise self.fail(f"the LinearTransformation {name} has a factor or offset that is not a number") from None
        ends = {}
        for s in signals:
            signal = _child(s, "Signal")
            if signal is not None and signal.get("function") == name:
                ends[signal.get("name")] = self.endpoint(_child(s, "Variable"))
        if set(ends) != {"in", "out"}:
            raise self.fail(f"the LinearTransformation {name} needs a SignalConnection to its in and one from its "
                            f"out")
        system.connect(f"{ends['in'][0]}.{ends['in'][1]}", f"{ends['out'][0]}.{ends['out'][1]}",
                       None if t.identity else t)

    # -- variable groups ---------------------------------------------------------------------
    def group_pairs(self, a: tuple, b: tuple) -> list:
        """The variable pairs two groups join: their nested groups pair by
        pair, then their own variables in order (libcosim's
        ``connect_variable_groups``)."""
        ga, gb = self.group(*a), self.group(*b)
        nested_a, nested_b = _named(ga), _named(gb)
        vars_a, vars_b = _refs(ga), _refs(gb)
        for what, x, y in (("nested groups", nested_a, nested_b), ("variables", vars_a, vars_b)):
            if len(x) != len(y):
                raise self.fail(f"the variable groups {a[0]}:{a[1]} and {b[0]}:{b[1]} differ in their number of "
                                f"{what} ({len(x)} and {len(y)})")
        pairs = []
        for x, y in zip(nested_a, nested_b):
            pairs += self.group_pairs((a[0], x.get("name")), (b[0], y.get("name")))
        return pairs + [((a[0], x), (b[0], y)) for x, y in zip(vars_a, vars_b)]

    def group(self, simulator: str, name: str) -> ET.Element:
        groups = self.description(simulator)
        found = next((g for g in groups if g.get("name") == name), None)
        if found is None:   # one level down, as libcosim looks
            found = next((n for g in groups for n in _named(g) if n.get("name") == name), None)
        if found is None:
            raise self.fail(f"simulator {simulator} has no variable group {name!r} in its OSP model description")
        return found

    def description(self, simulator: str) -> list:
        if simulator not in self.groups:
            model = self.models[simulator]
            file = f"{model.model_name}_OspModelDescription.xml"
            where = [model.path.parent / file, self.path.parent / file]
            path = next((p for p in where if p.is_file()), None)
            if path is None:
                raise self.fail(f"simulator {simulator} is joined by a variable group, and its OSP model description "
                                f"({file}) is neither beside its FMU nor beside the system file")
            root = read_xml(path, f"OSP model description {path}")
            self.groups[simulator] = _named(_child(root, "VariableGroups"))
        return self.groups[simulator]


def _named(el: ET.Element | None) -> list:
    """The groups directly inside ``el``: its element children with a name."""
    return [c for c in el if c.get("name") is not None and _local(c.tag) != "Variable"] if el is not None else []


def _refs(group: ET.Element) -> list:
    return [v.get("ref") for v in group if _local(v.tag) == "Variable"]


def read_osp_system(path, limits: Limits | None = None) -> System:
    """The system of the OSP system file ``path`` (or of the folder holding
    ``OspSystemStructure.xml``)."""
    path = Path(path)
    if path.is_dir():
        path = path / OSP_FILE
    return _Reader(path, limits).system()
