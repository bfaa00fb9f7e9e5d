"""The parameter sets of the project's examples, by block: what a portable
FMU carries beside its reference experiment (``fmus/ls_ref.py``), so that
its user can set it up as an example of this project sets it up."""
from __future__ import annotations

from pathlib import Path

from .blocks.registry import BLOCKS
from .fmus.ls_ref import ParameterSet
from .scenarios import SCENARIOS, STUDIES

__all__ = ["example_parameter_sets"]


def example_parameter_sets() -> dict[str, tuple[ParameterSet, ...]]:
    """For each block, the values the examples set on its components (a
    component that sets none runs at the defaults, which the reference
    experiment's set holds), one set per distinct set of values, named
    after the first example and component that use it."""
    found: dict[str, dict[tuple, list[str]]] = {}
    for example, build in {**SCENARIOS, **STUDIES}.items():
        system = build(base_dir=Path("."))
        for comp in system.components:
            model = Path(comp.source).stem
            if model not in BLOCKS or not comp.parameters:
                continue
            values = tuple((k, v if isinstance(v, (bool, str)) else float(v)) for k, v in comp.parameters.items())
            found.setdefault(model, {}).setdefault(values, []).append((example, comp.name))
    sets = {}
    for model, by_values in found.items():
        sets[model] = tuple(
            ParameterSet("_".join(users[0]), "The values of the project's examples: " + "; ".join(
                f"{example} (component {name})" for example, name in users) + ".", dict(values))
            for values, users in by_values.items())
    return sets
