"""What the other masters cannot run that ours does: they step
co-simulation FMUs only (OSP libcosim and ecos have no integrator of their
own for a Model Exchange FMU)."""
from __future__ import annotations

from ..errors import CraneCosimError

__all__ = ["refuse_model_exchange"]


def refuse_model_exchange(plan, host: str) -> None:
    """Raise :class:`CraneCosimError` naming the first Model Exchange
    component of ``plan``, which ``host`` cannot run."""
    for part in plan.parts:
        if part.model is not None and part.model.model_exchange is not None:
            raise CraneCosimError(f"{host} runs co-simulation FMUs only, and component {part.name} "
                                  f"({part.path.name}) is a Model Exchange FMU; crane-cosim's own master integrates "
                                  f"it (run without the other host)")
