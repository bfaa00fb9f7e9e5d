"""The project's example systems, built with the Python builder API.  The
``.ssd`` files under ``examples/`` are written from these (``crane-cosim
write-examples``; a test checks they are up to date)."""
from __future__ import annotations

from pathlib import Path

from .blocks.controller import Controller
from .blocks.interface import MOUNT_INERTIA, MOUNT_MOTION
from .system import System


def crane_on_vessel(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float = 1e-3,
                    vessel_mass: float | None = None) -> System:
    """Paper 000: the Table I crane on the Table I vessel, PD-controlled
    through a 20 s hoisting sequence (raise, slew 90 deg, lower).  The vessel
    is coupled through the crane's articulated inertia (``docs/interfaces/mount.md``).

    The components step Gauss-Seidel in the order vessel, crane, controller:
    the crane takes the vessel's motion at the end of the step and the
    controller's torque from the crane's newest state; Jacobi adds a step of
    delay to the control loop (the controller's torque is read before its
    input is updated) and is stable to smaller steps only
    (``docs/coupling-error.md``).

    ``vessel_mass`` [kg] overrides m1 (e.g. 120 kg for the light-vessel case).
    FMU sources are ``<fmu_dir>/<Model>.fmu`` relative to ``base_dir``
    (default: the current folder).
    """
    s = System("CraneOnVessel", stop_time=stop_time, step=step, algorithm="gauss-seidel", extrapolation="none",
               base_dir=Path(base_dir) if base_dir else Path.cwd())
    vessel_params = {} if vessel_mass is None else {"m1": vessel_mass}
    s.add_component("vessel", f"{fmu_dir}/Vessel.fmu", **vessel_params)
    s.add_component("crane", f"{fmu_dir}/Crane.fmu")
    s.add_component("controller", f"{fmu_dir}/Controller.fmu")
    for v in MOUNT_MOTION:
        s.connect(f"vessel.{v.name}", f"crane.{v.name}")
    for v in MOUNT_INERTIA:
        s.connect(f"crane.{v.name}", f"vessel.{v.name}")
    for v in Controller.inputs:
        s.connect(f"crane.{v.name}", f"controller.{v.name}")
    for v in Controller.outputs:
        if v.name.startswith("tau"):
            s.connect(f"controller.{v.name}", f"crane.{v.name}")
    return s


def knuckle_boom(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float = 1e-3) -> System:
    """Paper 001: the knuckle boom crane of Tables 1-2 on a fixed base,
    ideal actuators, PD control with gravity compensation: it holds its
    start pose for 1 s, then raises, slews 90 deg and lowers (20 s)."""
    from .blocks.controller import KnuckleBoomController
    s = System("KnuckleBoom", stop_time=stop_time, step=step, algorithm="gauss-seidel", extrapolation="none",
               base_dir=Path(base_dir) if base_dir else Path.cwd())
    s.add_component("crane", f"{fmu_dir}/KnuckleBoomCrane.fmu")
    s.add_component("controller", f"{fmu_dir}/KnuckleBoomController.fmu")
    for v in KnuckleBoomController.inputs:
        s.connect(f"crane.{v.name}", f"controller.{v.name}")
    for name in ("T1", "F2", "F3"):  # force demands: ideal actuators
        s.connect(f"controller.{name}", f"crane.{name}")
    return s


SCENARIOS = {"crane_on_vessel": crane_on_vessel, "knuckle_boom": knuckle_boom}


def write_examples(root) -> list[Path]:
    """Write the ``.ssd`` of every example under ``root`` (the repository's
    ``examples/``; FMUs in ``fmus/`` next to each, built by ``crane-cosim
    run`` when missing)."""
    from .ssp import write_ssd
    root = Path(root)
    return [write_ssd(crane_on_vessel(base_dir=root / "crane_on_vessel"), root / "crane_on_vessel" / "CraneOnVessel.ssd"),
            write_ssd(knuckle_boom(base_dir=root / "knuckle_boom"), root / "knuckle_boom" / "KnuckleBoom.ssd")]


if __name__ == "__main__":
    import sys
    for path in write_examples(sys.argv[1] if len(sys.argv) > 1 else "examples"):
        print(path)
