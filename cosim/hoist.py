"""The hoist added to a system with a crane on a vessel: a payload on the
crane's wire (``blocks/payload.py``), and the winch that pays it out under
active heave compensation (``blocks/winch.py``,
``blocks/heave_compensation.py``).  The components are named ``crane``
and ``vessel`` in the system they join."""
from __future__ import annotations

from .blocks.interface import MOUNT_POSITION, TIP_LOAD, TIP_MOTION
from .blocks.payload import Payload
from .runtime.system import System

#: The components :func:`add_hoist` adds
HOIST = ("payload", "winch", "compensation")


def add_payload(system: System, fmu_dir: str, parameters: dict, wound: bool = False) -> None:
    """Hang a ``Payload`` ``payload`` with ``parameters`` on the crane's tip:
    the tip's motion to it, its pull to the crane, and the mount's position
    from the vessel to the crane (which places the tip in Frame 0).  Its
    paid-out length ``l_wire`` starts at (and, with no winch, keeps)
    ``l_wire_0``, where the payload starts; ``wound``: a winch drives it."""
    system.add_component("payload", f"{fmu_dir}/Payload.fmu", **parameters)
    for v in TIP_MOTION:
        system.connect(f"crane.{v.name}", f"payload.{v.name}")
    for v in TIP_LOAD:
        system.connect(f"payload.{v.name}", f"crane.{v.name}")
    for v in MOUNT_POSITION:
        system.connect(f"vessel.{v.name}", f"crane.{v.name}")
    if "l_wire_0" in parameters and not wound:
        system.set_parameter("payload.l_wire", parameters["l_wire_0"])


def add_hoist(system: System, fmu_dir: str, payload: dict, winch: dict | None = None,
              compensation: dict | None = None) -> None:
    """Hang a ``payload`` (``Payload`` parameters) on the crane's tip
    (:func:`add_payload`), its wire paid out by a ``winch`` (``Winch``
    parameters) whose speed ``compensation`` (``HeaveCompensation``
    parameters; ``{"on": False}`` holds the wire) commands from the tip's
    vertical velocity.  The three start at the payload's wire length
    ``l_wire_0``; the winch reads the wire's tension, the payload the
    winch's length and speed."""
    l0 = Payload(**payload).values["l_wire_0"]
    add_payload(system, fmu_dir, {**payload, "l_wire_0": l0}, wound=True)
    system.add_component("winch", f"{fmu_dir}/Winch.fmu", **{**(winch or {}), "l_wire_0": l0})
    system.add_component("compensation", f"{fmu_dir}/HeaveCompensation.fmu",
                         **{**(compensation or {}), "l_wire_0": l0})
    for name in ("l_wire", "dl_wire"):
        system.connect(f"winch.{name}", f"payload.{name}")
    system.connect("payload.T_wire", "winch.T_wire")
    system.connect("crane.tip_v_z", "compensation.tip_v_z")
    system.connect("winch.l_wire", "compensation.l_wire")
    system.connect("compensation.v_ref", "winch.v_ref")
