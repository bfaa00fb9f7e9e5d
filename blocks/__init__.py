"""Physics blocks: numpy/scipy only, no FMI.  Each block declares its ports
once (``block.py``); ``fmus/`` and ``cosim/`` are generated from that."""
from .controller import Controller, KnuckleBoomController
from .crane import Crane
from .flexible_crane import FlexibleCrane
from .hydraulics import HydraulicCylinder
from .hydro_vessel import HydroVessel
from .joint_friction import JointFriction, KnuckleBoomFriction
from .knuckle_boom import KnuckleBoomCrane
# Not a part of any system, but imported with the others: FMUs built from the
# same sources share one imported copy of this package, and a module first
# asked for after an earlier FMU's folder (where the copy came from) is gone
# could no longer be found.
from .pass_on import PassOn  # noqa: F401  (the benchmark's floor)
from .prescribed_vessel import PrescribedVessel
from .signal import Signal
from .supported_base import SupportedBase
from .vessel import Vessel
from .waves import Waves

#: Every block the project packages as an FMU, by model name.
BLOCKS = {cls.model_name: cls for cls in (Vessel, Crane, Controller, HydraulicCylinder, KnuckleBoomCrane,
                                          KnuckleBoomController, JointFriction, KnuckleBoomFriction, Signal,
                                          FlexibleCrane, SupportedBase, Waves, PrescribedVessel, HydroVessel)}
