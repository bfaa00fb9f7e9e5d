"""The project's example systems, built with the Python builder API.  The
``.ssd`` files under ``examples/`` are written from these (``python -m
crane_cosim.scenarios examples``; a test checks they are up to date)."""
from __future__ import annotations

from pathlib import Path

from .blocks.block import WRENCH_COMPONENTS
from .blocks.controller import Controller, KnuckleBoomController
from .blocks.flexible_crane import FlexibleCrane
from .blocks.hull_database import DOFS
from .blocks.hydraulics import HydraulicCylinder
from .blocks.hydro_vessel import HydroVessel
from .blocks.interface import MOUNT_INERTIA, MOUNT_MOTION, MOUNT_POSITION
from .blocks.knuckle_boom import ACTUATION as KB_ACTUATION
from .blocks.knuckle_boom import KnuckleBoomCrane
from .blocks.payload import Payload
from .blocks.screw import rot_zyx
from .hoist import add_hoist, add_payload
from .runtime.system import System
from .ssp import write_ssd
from .vessel_start import barge_at_rest, crane_inputs, held_outputs

#: each example's master algorithm and step [s]: the cheapest of those
#: measured that keep every recorded force within 0.1% of its peak (RMS) of
#: the monolithic run over the whole run, the passes settling to a hundredth
#: of that (the errors measured: docs/master.md, "The examples' defaults")
DEFAULTS = {
    "CraneOnVessel": ("iterated-midpoint", 2e-3),
    "CraneOnVesselFriction": ("iterated-midpoint", 5e-3),
    "KnuckleBoom": ("iterated-midpoint", 5e-3),
    "OffshoreKnuckleBoom": ("iterated-midpoint", 5e-3),
    "FlexibleCraneOnSupports": ("iterated-quadratic", 1e-3),
    "OffshoreLift": ("iterated-midpoint", 1e-3),
}


def _master(name: str, step: float | None, algorithm: str | None) -> dict:
    """The master settings of example ``name``: its :data:`DEFAULTS`, but
    where ``step`` or ``algorithm`` is given."""
    default_algorithm, default_step = DEFAULTS[name]
    return {"step": default_step if step is None else step,
            "algorithm": default_algorithm if algorithm is None else algorithm, "extrapolation": "none"}


def crane_on_vessel(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float | None = None,
                    vessel_mass: float | None = None, sea: dict | None = None,
                    algorithm: str | None = None, payload: dict | None = None) -> System:
    """The crane of Cibicik & Egeland (2018), Table I, on their Table I vessel, PD-controlled
    through a 20 s hoisting sequence (raise, slew 90 deg, lower).  The vessel
    is coupled through the crane's articulated inertia (``docs/interfaces/mount.md``).

    The components step in the order vessel, crane, controller, by the
    iterated midpoint at 2 ms (:data:`DEFAULTS`; ``step`` and ``algorithm``
    choose others).  With Gauss-Seidel the crane takes the vessel's motion
    at the end of the step and the controller's torque from the crane's
    newest state; Jacobi adds a step of delay to the control loop (the
    controller's torque is read before its input is updated) and is stable
    to smaller steps only (``docs/coupling-error.md``).

    ``vessel_mass`` [kg] overrides the vessel's mass ``m`` (e.g. 120 kg for the
    light-vessel case).  ``sea`` (``Waves`` parameters, ``{}`` for its
    defaults) adds waves that move the vessel (:func:`add_waves`), ``payload``
    (``Payload`` parameters) a payload on a hoist wire from the crane's tip
    (:func:`add_payload`).  FMU sources are ``<fmu_dir>/<Model>.fmu``
    relative to ``base_dir`` (default: the current folder).
    """
    s = System("CraneOnVessel", stop_time=stop_time, **_master("CraneOnVessel", step, algorithm),
               base_dir=Path(base_dir) if base_dir else Path.cwd())
    vessel_params = {} if vessel_mass is None else {"m": vessel_mass}
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
        if v.name.startswith("tau_"):
            s.connect(f"controller.{v.name}", f"crane.{v.name}")
    if sea is not None:
        add_waves(s, fmu_dir, sea)
    if payload is not None:
        add_payload(s, fmu_dir, payload)
    return s


#: The moments of the Waves that move the vessel, by the Vessel input each drives
WAVE_MOMENTS = ("M_wave_roll", "M_wave_pitch", "M_wave_yaw")


def add_waves(system: System, fmu_dir: str, sea: dict, gains: dict | None = None) -> None:
    """Add a ``Waves`` component ``waves`` (``blocks/waves.py``) of the sea
    state ``sea`` (its parameters: Hs, Tp, gamma, heading, seed, ...), its
    moments driving the component ``vessel``; ``gains`` (``K_roll``, ...)
    are the defaults for that vessel, which ``sea`` may override.  It comes
    first in the order, a source that reads nothing."""
    system.add_component("waves", f"{fmu_dir}/Waves.fmu", **{**(gains or {}), **sea})
    system.components.insert(0, system.components.pop())
    for name in WAVE_MOMENTS:
        system.connect(f"waves.{name}", f"vessel.{name}")


#: Per crane and joint, the two outputs of the crane that feed the friction
#: block's ``f_<joint>_n1``, ``f_<joint>_n2``: the joint's reaction force
#: components normal to its axis (the slewing joint's axis is the king's z, the
#: cranes of Cibicik & Egeland (2018) and of Jarzębowska et al. (2018) turn their
#: booms about their frames' z axes, the knuckle boom crane of Cibicik & Egeland
#: (2019) about their x axes).
_Z_AXES = {"slew": ("W_king_fx", "W_king_fy"), "boom": ("W_boom_fx", "W_boom_fy"), "jib": ("W_jib_fx", "W_jib_fy")}
FRICTION_INPUTS = {
    "Crane": _Z_AXES,
    "FlexibleCrane": _Z_AXES,
    "KnuckleBoomCrane": {"slew": ("W_king_fx", "W_king_fy"), "boom": ("W_boom_fy", "W_boom_fz"),
                         "jib": ("W_jib_fy", "W_jib_fz")},
}


def _friction_in_the_loop(s: System, crane_model: str, friction: str = "friction") -> None:
    """Connect a friction block to a crane's revolute joints: each joint's
    rate and radial reaction in, its friction torque back."""
    for joint, (n1, n2) in FRICTION_INPUTS[crane_model].items():
        s.connect(f"crane.u_{joint}", f"{friction}.u_{joint}")
        s.connect(f"crane.{n1}", f"{friction}.f_{joint}_n1")
        s.connect(f"crane.{n2}", f"{friction}.f_{joint}_n2")
        s.connect(f"{friction}.tau_f_{joint}", f"crane.tau_f_{joint}")


def crane_on_vessel_friction(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0,
                             step: float | None = None, algorithm: str | None = None) -> System:
    """:func:`crane_on_vessel` with Dahl or LuGre friction (Jarzębowska,
    Urbaś & Augustynek 2018, Table 1; LuGre by default) in the crane's
    slewing, boom and jib joints (Joints 4-6), from a ``JointFriction``
    component, ``friction``, stepped after the crane (order vessel, crane,
    friction, controller: with Gauss-Seidel the friction takes the crane's
    newest rates and reactions, the crane the friction of the step before;
    by default the iterated midpoint at 5 ms, :data:`DEFAULTS`).
    Another law is one parameter: ``--set friction.model_boom=dahl``."""
    master = _master("CraneOnVesselFriction", step, algorithm)
    s = crane_on_vessel(base_dir, fmu_dir, stop_time, master["step"], algorithm=master["algorithm"])
    s.name = "CraneOnVesselFriction"
    s.add_component("friction", f"{fmu_dir}/JointFriction.fmu")
    s.components.insert(2, s.components.pop())  # after the crane
    _friction_in_the_loop(s, "Crane")
    return s


def knuckle_boom(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float | None = None,
                 algorithm: str | None = None) -> System:
    """The knuckle boom crane of Cibicik & Egeland (2019), Tables 1-2, on a fixed base,
    ideal actuators, PD control with gravity compensation: it holds its
    start pose for 1 s, then raises, slews 90 deg and lowers (20 s).  The
    iterated midpoint at 5 ms by default (:data:`DEFAULTS`)."""
    s = System("KnuckleBoom", stop_time=stop_time, **_master("KnuckleBoom", step, algorithm),
               base_dir=Path(base_dir) if base_dir else Path.cwd())
    s.add_component("crane", f"{fmu_dir}/KnuckleBoomCrane.fmu")
    s.add_component("controller", f"{fmu_dir}/KnuckleBoomController.fmu")
    _measurements_to_controller(s)
    for name in KB_ACTUATION:  # force demands: ideal actuators
        s.connect(f"controller.{name}", f"crane.{name}")
    return s


def _measurements_to_controller(s: System) -> None:
    """The knuckle boom crane's coordinates, speeds and holding forces to the
    controller's inputs of the same names (the measured cylinder forces come
    from the cylinders)."""
    for v in KnuckleBoomController.inputs:
        if not v.name.endswith("_meas"):
            s.connect(f"crane.{v.name}", f"controller.{v.name}")


#: The vessel of Cibicik & Egeland (2018) scaled to carry the 36 t knuckle boom crane: lengths x3
#: (2 m crane links -> 6 m king), mass x400 (the vessel-to-crane mass ratio of
#: Table I, 1.2 t : 90 kg, kept), and the cubic springs x1400, the ratio of
#: the cranes' overturning moments at their raised poses (1.4 MN m : 1.0 kN m),
#: so the crane heels the vessel by the same static angle (about 1.3 deg).
SCALED_VESSEL = {"m": 480e3, "l_mount": 15.0, "cog_z": 7.5, "r_x": 15.0 / 12**0.5, "r_y": 15.0 / 12**0.5,
                 "r_z": 15.0 / 12**0.5, "k_roll": 1.12e11, "k_pitch": 1.12e11, "k_yaw": 1.12e11}
#: Waves gains for the scaled vessel: in the ratio of its springs to the Table
#: I vessel's (1400) times the Waves defaults, so that a sea state heels both
#: vessels alike in the long-wave limit
SCALED_WAVE_GAINS = {"K_roll": 1.4e7, "K_pitch": 1.4e7}

#: Cylinders of the offshore knuckle boom crane (HydraulicCylinder parameters),
#: by the crane coordinate each drives: the boom cylinder holds up to about
#: 0.8 MN, the jib cylinder 0.2 MN at 250 bar supply with margin for the
#: dynamics.
CYLINDERS = {"boom_cyl": {"bore": 0.32, "rod": 0.20, "V_A0": 5e-3, "V_B0": 5e-3, "Q_nom": 0.02},
             "jib_cyl": {"bore": 0.18, "rod": 0.10, "V_A0": 2e-3, "V_B0": 2e-3, "Q_nom": 0.005}}
#: The system's component of each cylinder
CYLINDER_COMPONENTS = {"boom_cyl": "boom_cylinder", "jib_cyl": "jib_cylinder"}
P_B_HOLD = 1e6  # Pa: rod-side pressure at the start; the piston side holds the load


def offshore_knuckle_boom(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float | None = None,
                          on_vessel: bool = True, friction: bool = True, sea: dict | None = None,
                          algorithm: str | None = None, tip_load=None, mount_R=None) -> System:
    """The knuckle boom crane of Cibicik & Egeland (2019) with hydraulic
    cylinders on the vessel of Cibicik & Egeland (2018), scaled to carry it
    (:data:`SCALED_VESSEL`), and the hoisting sequence of
    ``examples/knuckle_boom``.  Components: vessel, crane, one
    HydraulicCylinder per cylinder (``boom_cylinder``, ``jib_cylinder``:
    piston position and speed from the crane, force back) and the controller
    (valve commands with force feedback; its force demands also reach the
    cylinders, which use them when set to ideal actuators with
    ``hydraulic = false``), and the friction (``KnuckleBoomFriction``, LuGre
    by default, Jarzębowska, Urbaś & Augustynek 2018) in the crane's three
    revolute joints (torques to the crane) and in the cylinders' seals
    (forces to the cylinders, which add them to the oil's).

    The order vessel, crane, friction, cylinders, controller; the iterated
    midpoint at 5 ms by default (:data:`DEFAULTS`).  The cylinders start with the chamber pressures that hold
    the crane at its start pose (rod side 10 bar).  ``on_vessel=False``
    stands the crane on a fixed base instead; ``friction=False`` leaves the
    friction out.  ``sea`` (``Waves`` parameters) adds waves that move the
    vessel, with :data:`SCALED_WAVE_GAINS` (:func:`add_waves`).  ``tip_load``
    [N] (Frame 0): a force at the crane's tip that the cylinders' start
    pressures hold too (a payload's weight; the system then needs the
    payload, :func:`add_payload`).  ``mount_R`` (``R_1^0``, default level):
    the mount's orientation at the start, at which those pressures hold
    the crane (a vessel that starts heeled)."""
    s = System("OffshoreKnuckleBoom" if on_vessel else "HydraulicKnuckleBoom", stop_time=stop_time,
               **_master("OffshoreKnuckleBoom", step, algorithm), base_dir=Path(base_dir) if base_dir else Path.cwd())
    if on_vessel:
        s.add_component("vessel", f"{fmu_dir}/Vessel.fmu", **SCALED_VESSEL)
    s.add_component("crane", f"{fmu_dir}/KnuckleBoomCrane.fmu")
    if friction:
        s.add_component("friction", f"{fmu_dir}/KnuckleBoomFriction.fmu")
    crane = KnuckleBoomCrane()
    hold = crane.holding(crane.initial_state(), crane_inputs(crane, mount_R, tip_load))
    for c, F in zip(CYLINDERS, hold[1:]):
        geometry = HydraulicCylinder(**CYLINDERS[c])
        p_A0 = (F + P_B_HOLD * geometry.A_B) / geometry.A_A
        s.add_component(CYLINDER_COMPONENTS[c], f"{fmu_dir}/HydraulicCylinder.fmu", **CYLINDERS[c],
                        stroke=crane.values[f"stroke_{c}"], p_A0=p_A0, p_B0=P_B_HOLD)
    s.add_component("controller", f"{fmu_dir}/KnuckleBoomController.fmu")
    if on_vessel:
        for v in MOUNT_MOTION:
            s.connect(f"vessel.{v.name}", f"crane.{v.name}")
        for v in MOUNT_INERTIA:
            s.connect(f"crane.{v.name}", f"vessel.{v.name}")
    for c, name in CYLINDER_COMPONENTS.items():
        s.connect(f"crane.q_{c}", f"{name}.x")
        s.connect(f"crane.u_{c}", f"{name}.v")
        s.connect(f"{name}.F", f"crane.F_{c}")
        s.connect(f"{name}.F", f"controller.F_{c}_meas")
        s.connect(f"controller.valve_{c}", f"{name}.valve")
        s.connect(f"controller.F_{c}", f"{name}.F_demand")
        if friction:
            s.connect(f"crane.u_{c}", f"friction.u_{c}")
            s.connect(f"friction.F_f_{c}", f"{name}.F_seal")
    if friction:
        _friction_in_the_loop(s, "KnuckleBoomCrane")
    _measurements_to_controller(s)
    s.connect("controller.tau_slew", "crane.tau_slew")
    if sea is not None and on_vessel:
        add_waves(s, fmu_dir, sea, SCALED_WAVE_GAINS)
    return s


#: Eq. (21) of Jarzębowska, Urbaś & Augustynek (2018): the column's drive, -4000 N m
#: for 0.1 s, as a Signal table (a repeated time is a jump)
COLUMN_DRIVE = "0 -4000; 0.1 -4000; 0.1 0"
#: Pin diameters of the flexible crane's joints for its friction (eq. 13; not in
#: the paper, chosen for a crane of its size: a 0.3 m slewing ring, 50 and 40 mm pins)
FLEXIBLE_CRANE_PINS = {"d_slew": 0.3, "d_boom": 0.05, "d_jib": 0.04}


#: Stiffness-proportional damping of the flexible boom's springs [s] (FlexibleCrane
#: ``c_rfe``): a damping ratio of 1% at 106 Hz, 0.35% at the column's 38 Hz, within
#: the 0.5-2% of a steel structure.  The paper omits damping (``--set
#: crane.c_rfe=0``); without it, plain Gauss-Seidel at 1 ms is unstable (a mode
#: of the boom and the base's roll at 111 Hz grows), while the monolithic run
#: and the example's iterated-midpoint co-simulation stay bounded
#: (``docs/flexible_crane.md``).
BOOM_DAMPING = 3e-5


def flexible_crane(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 5.0, step: float | None = None,
                   algorithm: str | None = None) -> System:
    """The numerical study of Jarzębowska, Urbaś & Augustynek (2018): the
    crane with a flexible boom (``FlexibleCrane``, four rigid finite
    elements) on a base on eight spring supports (``SupportedBase``, 1e5,
    1e5 and 1e7 N/m), its end effector on the programmed path of eqs.
    (17)-(22), its column driven by eq. (21) from a ``Signal`` (``drive``),
    LuGre friction (Table 1) in its three joints (``JointFriction``), the
    boom's springs a little damped (:data:`BOOM_DAMPING`).

    The base starts at rest under the crane's weight at its initial pose
    (eq. 23), so that a changed support stiffness starts settled too.
    The iterated-quadratic algorithm (``runtime/algorithms/quadratic.py``) at
    1 ms, in the order base, crane, friction, drive: base, crane and
    friction, a loop, step again with their inputs on the quadratics
    through their sources' values at the start, middle and end of the step
    until those settle, so that the base's 30-41 Hz and the boom's 111 Hz
    leave every force within 0.08% of its peak (RMS) of the monolithic run
    over the 5 s (the iterated midpoint: 1.5%; plain Gauss-Seidel: 18%).
    The drive's torque acts for exactly the paper's 0.1 s: its jump falls
    on a communication point and its mid-step values lie inside the steps.
    The paper's variants are one parameter each:
    ``crane.n_rfe=1`` (rigid boom), ``friction.model_<joint>=dahl`` or
    ``none``, ``base.s_z=1e5``."""
    s = System("FlexibleCraneOnSupports", stop_time=stop_time, **_master("FlexibleCraneOnSupports", step, algorithm),
               base_dir=Path(base_dir) if base_dir else Path.cwd())
    crane = FlexibleCrane(programmed=True)
    load = _machine_independent(crane.holding_wrench(crane.initial_state()))
    s.add_component("base", f"{fmu_dir}/SupportedBase.fmu", settled=True,
                    **{f"load_{c}": v for c, v in zip(WRENCH_COMPONENTS, load)})
    s.add_component("crane", f"{fmu_dir}/FlexibleCrane.fmu", programmed=True, c_rfe=BOOM_DAMPING)
    s.add_component("friction", f"{fmu_dir}/JointFriction.fmu", **FLEXIBLE_CRANE_PINS)
    s.add_component("drive", f"{fmu_dir}/Signal.fmu", table=COLUMN_DRIVE)
    for v in MOUNT_MOTION + MOUNT_POSITION:
        s.connect(f"base.{v.name}", f"crane.{v.name}")
    for v in MOUNT_INERTIA:
        s.connect(f"crane.{v.name}", f"base.{v.name}")
    s.connect("drive.y", "crane.tau_slew")
    _friction_in_the_loop(s, "FlexibleCrane")
    return s


def _machine_independent(values, digits: int = 12) -> list[float]:
    """``values`` computed at run time, as a system file may hold them on
    every machine: to ``digits`` significant digits, and those below
    ``10**-(digits - 3)`` of the largest (round-off of a zero, such as a
    symmetric crane's sideways holding force, whose last bits differ
    between machines' floating-point libraries) as 0."""
    values = [float(v) for v in values]
    scale = max(map(abs, values), default=0.0)
    return [0.0 if abs(v) < scale * 10.0 ** -(digits - 3) else float(f"{v:.{digits}g}") for v in values]


#: the sea of ``examples/hydro_vessel``: beam seas of a moderate sea state
#: (HydroVessel parameters)
BARGE_SEA = {"Hs": 2.0, "Tp": 8.0, "heading": 1.5707963267949, "seed": 1.0}


def hydro_vessel(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0, step: float | None = None,
                 algorithm: str | None = None, sea: dict | None = None, tip_load=None,
                 one_way: bool = False) -> System:
    """:func:`offshore_knuckle_boom` on the example barge (``HydroVessel``:
    the box barge 40 m x 12 m at 2.5 m draft, its database shipped as
    ``barge``; the crane 12 m aft of midships on the centre line) in a sea
    (:data:`BARGE_SEA` unless ``sea``, HydroVessel parameters, is given;
    ``{"Hs": 0.0}``: calm water), the barge starting at rest where it
    floats with the crane at its start pose (:func:`settled_barge`).  The
    offshore knuckle boom's algorithm and step, the iterated midpoint at 5
    ms.  ``tip_load`` [N] (Frame 0): a force at the crane's tip that the
    cylinders' start pressures and the barge's start hold too (a payload's
    weight; the system then needs the payload); the cylinders' pressures
    hold the crane on the barge's heeled deck, so that in calm water the
    whole starts at rest.  ``one_way``: the barge moves as the waves move
    it with the crane frozen at its start pose (its articulated inertia
    and bias wrench at the mount held at their start values,
    :func:`frozen_crane`), the crane's motion and the payload's pull never
    reaching it: the vessel's motion prescribed by its transfer functions,
    as a study that takes a vessel's RAOs and runs the crane on them does."""
    params = {**BARGE_SEA, **(sea or {})}
    start = settled_barge(params, tip_load)
    R = rot_zyx(*(start[f"q_{d}_0"] for d in ("roll", "pitch", "yaw")))
    s = offshore_knuckle_boom(base_dir, fmu_dir, stop_time, step, on_vessel=False, algorithm=algorithm,
                              tip_load=tip_load, mount_R=R)
    s.name = "KnuckleBoomOnBarge"
    s.add_component("vessel", f"{fmu_dir}/HydroVessel.fmu", **params, **start)
    s.components.insert(0, s.components.pop())
    for v in MOUNT_MOTION:
        s.connect(f"vessel.{v.name}", f"crane.{v.name}")
    if one_way:
        for name, value in frozen_crane(tip_load, R).items():
            s.set_parameter(f"vessel.{name}", value)
        return s
    for v in MOUNT_INERTIA:
        s.connect(f"crane.{v.name}", f"vessel.{v.name}")
    return s


def frozen_crane(tip_load=None, R=None) -> dict:
    """The knuckle boom crane's articulated inertia and bias wrench at the
    mount (``MOUNT_INERTIA``; Frame 1) at its start pose on a mount turned
    by ``R`` (``R_1^0``; default level), with the force ``tip_load`` [N]
    (Frame 0) at its tip, held there by its actuation (the slewing torque,
    the cylinders' start pressures: :func:`hydro_vessel`), as the lift
    starts.  What a vessel carrying the crane as a rigid body takes from
    it.  The crane's weight then turns with the deck, where the crane's own
    keeps pointing down: its centre of gravity's lowering of the roll
    stiffness is left out (4.7% on the barge)."""
    names = [v.name for v in MOUNT_INERTIA]
    return dict(zip(names, _machine_independent(held_outputs(KnuckleBoomCrane(), names, R, tip_load))))


def settled_barge(params: dict, tip_load=None) -> dict:
    """The initial displacements (``q_<dof>_0``) at which the HydroVessel of
    ``params`` floats at rest under the knuckle boom crane held at its start
    pose on the heeled deck, with the force ``tip_load`` [N] (Frame 0) at
    its tip (``vessel_start.barge_at_rest``)."""
    eta = barge_at_rest(HydroVessel(**params), KnuckleBoomCrane(), tip_load)
    return {f"q_{d}_0": v for d, v in zip(DOFS, _machine_independent(eta))}


#: The payload of the offshore lift: 2 t on 10 m of the default wire (a 40 mm
#: rope, EA 8.8e7 N: 8.8e6 N/m, its vertical mode 66 rad/s; the pendulum's
#: period 6.3 s), steadied by tag lines worth a tenth of the pendulum's
#: critical damping (2 x 0.1 x 2000 kg x 0.99 rad/s: 400 N.s/m, a pull of
#: 400 N at a swing of 1 m/s)
LIFT_PAYLOAD = {"m_payload": 2000.0, "l_wire_0": 10.0, "c_tag": 400.0}


def offshore_lift(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 60.0, step: float | None = None,
                  algorithm: str | None = None, sea: dict | None = None, payload: dict | None = None,
                  compensation: bool = True, one_way: bool = False) -> System:
    """The knuckle boom crane on the barge (:func:`hydro_vessel`, its sea
    ``sea``) holding a payload (:data:`LIFT_PAYLOAD` unless ``payload``) on
    its hoist wire, paid out by a winch under active heave compensation
    (``compensation``; off: the winch holds the wire; :func:`add_hoist`).
    The crane holds its start pose, the tip 9.2 m out to port over the
    water, 4.5 m above it; its cylinders and the barge start holding the
    payload's weight as well.  The iterated midpoint at 1 ms by default
    (:data:`DEFAULTS`): the stiff wire (66 rad/s) asks a finer coupling
    than the barge's (at 5 ms the wire's tension is 0.8% off the monolithic
    run, RMS over its peak; docs/master.md).  ``one_way``: the barge's
    motion unaffected by the crane and the payload (:func:`hydro_vessel`),
    named ``OffshoreLiftOneWay``."""
    payload = {**LIFT_PAYLOAD, **(payload or {})}
    values = Payload(**payload).values
    weight = values["m_payload"] * values["g"]
    master = _master("OffshoreLift", step, algorithm)
    s = hydro_vessel(base_dir, fmu_dir, stop_time, master["step"], master["algorithm"], sea,
                     tip_load=(0.0, 0.0, -weight), one_way=one_way)
    s.name = "OffshoreLiftOneWay" if one_way else "OffshoreLift"
    for v in KnuckleBoomController.parameters:
        if v.name.endswith("_duration"):
            s.set_parameter(f"controller.{v.name}", -1.0)  # the start pose held: the moves unused
    add_hoist(s, fmu_dir, payload, compensation={"on": compensation})
    return s


SCENARIOS = {"crane_on_vessel": crane_on_vessel, "crane_on_vessel_friction": crane_on_vessel_friction,
             "knuckle_boom": knuckle_boom, "offshore_knuckle_boom": offshore_knuckle_boom,
             "flexible_crane": flexible_crane, "hydro_vessel": hydro_vessel, "offshore_lift": offshore_lift}


def offshore_knuckle_boom_in_waves(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 20.0,
                                   step: float | None = None, algorithm: str | None = None) -> System:
    """:func:`offshore_knuckle_boom` lifting in waves (``Waves`` defaults,
    the scaled vessel's gains): the system of ``examples/fatigue_study``,
    whose cases set the sea state (``waves.Hs``, ``waves.Tp``,
    ``waves.seed``)."""
    s = offshore_knuckle_boom(base_dir, fmu_dir, stop_time, step, sea={}, algorithm=algorithm)
    s.name = "OffshoreKnuckleBoomInWaves"
    return s


def offshore_lift_one_way(base_dir=None, fmu_dir: str = "fmus", stop_time: float = 60.0,
                          step: float | None = None, algorithm: str | None = None) -> System:
    """:func:`offshore_lift` with the barge's motion unaffected by the crane
    and the payload (``one_way``): the system of
    ``examples/offshore_lift_one_way``, the one-way counterpart of the
    lift's operability study."""
    return offshore_lift(base_dir, fmu_dir, stop_time, step, algorithm, one_way=True)


#: examples that are studies of many runs (``crane-cosim sweep``,
#: ``crane-cosim operability``), not runs of their own: their folders hold
#: the system and the study's tables
STUDIES = {"fatigue_study": offshore_knuckle_boom_in_waves, "offshore_lift_one_way": offshore_lift_one_way}


def write_examples(root) -> list[Path]:
    """Write the ``.ssd`` of every example under ``root`` (the repository's
    ``examples/``; FMUs in ``fmus/`` next to each, built by ``crane-cosim
    run`` when missing)."""
    root = Path(root)
    written = []
    for folder, build in {**SCENARIOS, **STUDIES}.items():
        system = build(base_dir=root / folder)
        written.append(write_ssd(system, root / folder / f"{system.name}.ssd"))
    return written


if __name__ == "__main__":
    import sys
    for path in write_examples(sys.argv[1] if len(sys.argv) > 1 else "examples"):
        print(path)
