"""What the other masters cannot run that ours does: a Model Exchange FMU
(OSP libcosim and ecos step co-simulation FMUs only), and connections that
transform their values, but for the linear transformations libcosim's SSP
loader applies itself (it connects through a function of its own; it
converts no units and maps no values)."""
from __future__ import annotations

from ..errors import CraneCosimError
from ..runtime.transformations import Linear

__all__ = ["refuse_what_it_cannot_run"]


def refuse_what_it_cannot_run(plan, host: str, applies_linear: bool = False) -> None:
    """Raise :class:`CraneCosimError` naming the first Model Exchange
    component of ``plan`` or the first connection that transforms its
    value, which ``host`` cannot run; ``applies_linear``: the host applies
    a connection's own linear transformation (libcosim reading the system
    file)."""
    for part in plan.parts:
        if part.model is not None and part.model.model_exchange is not None:
            raise CraneCosimError(f"{host} runs co-simulation FMUs only, and component {part.name} "
                                  f"({part.path.name}) is a Model Exchange FMU; crane-cosim's own master integrates "
                                  f"it (run without the other host)")
    effects = {(p.name, v.name): t for p in plan.parts for v, t in zip(p.inputs, p.transforms) if t is not None}
    for c in plan.connections:
        effect = effects.get((c.end_element, c.end_connector))
        if effect is None or (applies_linear and isinstance(effect, Linear) and effect == c.transformation):
            continue
        what = "converts units or maps values" if applies_linear else "transforms its value"
        raise CraneCosimError(f"the connection {c} {what}, which {host} does not do as crane-cosim's own master "
                              f"does (run without the other host)")
