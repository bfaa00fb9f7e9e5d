"""A bridge class made again from the spec its FMU carries: a UDP bridge's
(``udp_bridge.py``) or, for a spec of the protocol ``dcp``, a DCP
bridge's (``dcp/dcp_bridge.py``)."""
from __future__ import annotations

from .dcp.dcp_bridge import dcp_bridge_from_spec
from .udp_bridge import bridge_from_spec as udp_bridge_from_spec

__all__ = ["bridge_from_spec"]


def bridge_from_spec(spec: dict):
    """The bridge class of ``spec``; ``ValueError`` for one that is malformed."""
    if isinstance(spec, dict) and spec.get("protocol") == "dcp":
        return dcp_bridge_from_spec(spec)
    return udp_bridge_from_spec(spec)
