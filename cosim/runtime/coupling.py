"""How two subsystems that meet at an interface are coupled: the
connections a co-simulation uses, chosen by the roles the FMUs declare for
their ports (``runtime/model.py``), never by the ports' names.

Roles of an interface between a subsystem that moves (a vessel) and one
carried by it (a crane; Cibicik & Egeland 2018, section 4):

* ``interface.wrench.<c>``: an output of the carried subsystem, the wrench
  component ``c`` (``nx ny nz fx fy fz``) that the interface passes;
* ``interface.inertia.<ij>``: its articulated inertia at the interface,
  an output of the carried subsystem and an input of the carrier;
* ``interface.bias.<c>``: its bias wrench ``p_A`` (the wrench at zero
  acceleration of the interface), likewise.

``inertia`` (the default) couples through ``I_A`` and ``p_A`` as the system
file connects them: the carrier solves for its acceleration with the
carried subsystem's inertia in it.  ``explicit`` is the plain exchange of
wrench and motion: no input with the role ``interface.inertia`` is
connected (they keep their start values, zero), and an input with the role
``interface.bias.<c>`` whose connection comes from an output of the same
role is fed instead from that component's ``interface.wrench.<c>``, the
wrench itself (``docs/interfaces/mount.md``).
"""
from __future__ import annotations

import dataclasses

COUPLINGS = ("inertia", "explicit")
INERTIA, BIAS, WRENCH = "interface.inertia.", "interface.bias.", "interface.wrench."

__all__ = ["COUPLINGS", "coupled_connections", "columns_of_role"]


def _role(models: dict, comp: str, var: str) -> str:
    model = models.get(comp)
    v = model.variables.get(var) if model is not None else None
    return (v.role or "") if v is not None else ""


def coupled_connections(connections, models: dict, coupling: str) -> list:
    """The connections a co-simulation with ``coupling`` uses, from the
    system's ``connections`` and the components' ``models`` (name ->
    ``ModelInfo``; a component missing from it keeps its connections)."""
    if coupling != "explicit":
        return list(connections)
    out = []
    for c in connections:
        role = _role(models, c.end_element, c.end_connector)
        if role.startswith(INERTIA):
            continue
        if role.startswith(BIAS) and _role(models, c.start_element, c.start_connector) == role:
            wrench = WRENCH + role[len(BIAS):]
            source = next((v.name for v in models[c.start_element].variables.values() if v.role == wrench), None)
            if source is not None:
                c = dataclasses.replace(c, start_connector=source)
        out.append(c)
    return out


def columns_of_role(roles: dict, prefix: str) -> list[str]:
    """The recorded columns (``component.variable``) whose role starts with
    ``prefix`` (``summary.json``'s ``roles``), in their order."""
    return [column for column, role in roles.items() if role and role.startswith(prefix)]
