"""Every block the project packages as an FMU, by model name (:data:`BLOCKS`).

Importing this module imports every block, and with them scipy: the
master's, the builder's and the tools' business.  An FMU imports its own
block's module alone (``fmus/build.py``'s entry script), so that a process
hosting one FMU loads no other block."""
from .controller import Controller, KnuckleBoomController
from .crane import Crane
from .flexible_crane import FlexibleCrane
from .heave_compensation import HeaveCompensation
from .hydraulics import HydraulicCylinder
from .hydro_vessel import HydroVessel
from .joint_friction import JointFriction, KnuckleBoomFriction
from .knuckle_boom import KnuckleBoomCrane
from .payload import Payload
from .prescribed_vessel import PrescribedVessel
from .rigid_payload import RigidPayload
from .signal import Signal
from .supported_base import SupportedBase
from .vessel import Vessel
from .waves import Waves
from .winch import Winch

#: Every block the project packages as an FMU, by model name.
BLOCKS = {cls.model_name: cls for cls in (Vessel, Crane, Controller, HydraulicCylinder, KnuckleBoomCrane,
                                          KnuckleBoomController, JointFriction, KnuckleBoomFriction, Signal,
                                          FlexibleCrane, SupportedBase, Waves, PrescribedVessel, HydroVessel,
                                          Payload, RigidPayload, Winch, HeaveCompensation)}
