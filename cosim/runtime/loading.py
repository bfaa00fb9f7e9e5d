"""An FMU of a plan loaded: the instance of its FMI version, and an FMU
opened on its own, outside a system (the tests of an FMU, the benchmark's
floor)."""
from __future__ import annotations

from pathlib import Path

from ..errors import CraneCosimError
from .checks import joined, value_problems
from .fmi1 import FMI1Instance
from .fmi2 import FMI2Instance
from .fmi3 import FMI3Instance
from .instance import FMUInstance
from .model import read_model
from .model_exchange import FMI2ModelExchange, FMI3ModelExchange, Integration
from .plan import Part, out_of_process_refusal
from .types import NUMERIC

__all__ = ["instantiate", "open_instance"]


def instantiate(part, unzip_root: Path, out_of_process: bool = False,
                integration: Integration = Integration()) -> FMUInstance:
    """The instance of ``part`` of its FMI version and interface, with
    ``out_of_process`` in a process of its own (FMI 2.0 co-simulation only:
    refused by name for another); a Model Exchange FMU integrated as
    ``integration`` says."""
    if out_of_process and (part.model.fmi_version != "2.0" or part.model.model_exchange is not None):
        raise CraneCosimError(out_of_process_refusal(part))
    if part.model.model_exchange is not None:
        kind = FMI2ModelExchange if part.model.fmi_version == "2.0" else FMI3ModelExchange
        return kind(part, unzip_root, integration)
    if part.model.fmi_version == "1.0":
        return FMI1Instance(part, unzip_root)
    if part.model.fmi_version != "2.0":
        return FMI3Instance(part, unzip_root)
    return FMI2Instance(part, unzip_root, out_of_process)


def open_instance(path, unzip_root: Path, name: str | None = None, inputs=(), outputs=None,
                  values=None) -> FMUInstance:
    """The FMU at ``path`` instantiated on its own, outside a system (the
    tests of an FMU, the benchmark's floor): ``inputs`` and ``outputs`` (names;
    default: no input, every numeric and String output) bound to ``u`` and
    ``y``, ``values`` (variable name -> value) checked as a plan checks
    them and set by :meth:`initialize`."""
    path = Path(path)
    model = read_model(path)
    name = name or path.stem
    if model.unsupported:
        raise CraneCosimError(f"component {name} ({path.name}) cannot run here: {model.unsupported[0]}")
    typed, problems = value_problems(name, path.name, model, dict(values or {}), {})
    if problems:
        raise CraneCosimError(joined(problems))
    chosen = [model.variables[n] for n in outputs] if outputs is not None else \
        [v for v in model.outputs() if not v.shape]
    part = Part(0, name, path, model, typed, inputs=[model.variables[n] for n in inputs],
                outputs=[v for v in chosen if v.family in NUMERIC],
                string_outputs=[v for v in chosen if v.family == "string"])
    return instantiate(part, unzip_root)
