"""Where a vessel rests under a crane: the spring vessel of Cibicik &
Egeland (2018) and the hydrodynamic barge.

Its cubic springs (``blocks/vessel.py``, ``T_i = -k_i q_i^3``) hold no
moment at zero angles, so a vessel started level under a crane whose
weight leans out rolls and pitches about its resting angles with nothing
to damp it (the offshore knuckle boom crane's demo, started level: about
±2.4 degrees of roll before the crane has moved).  :func:`vessel_at_rest`
gives the angles at which the springs hold the crane standing at its
start pose; the examples that reproduce the papers keep the papers' level
start.  :func:`barge_at_rest` gives where the hydrodynamic vessel floats
at rest under the crane and its load.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .blocks.block import WRENCH_COMPONENTS
from .blocks.registry import BLOCKS
from .blocks.screw import rot_zyx

#: the vessel's coordinates, as its parameters ``q_<name>_0`` name them
ANGLES = ("roll", "pitch", "yaw")


def crane_inputs(crane, R=None, tip_load=None) -> np.ndarray:
    """``crane``'s default inputs on a mount turned by ``R`` (``R_1^0``;
    default level) with the force ``tip_load`` [N] (Frame 0; default none)
    at its tip."""
    names, inp = crane.input_names(), crane.default_inputs()
    if R is not None:
        inp[[names.index(f"mount_R_{i}{j}") for i in range(1, 4) for j in range(1, 4)]] = np.ravel(R)
    if tip_load is not None:
        inp[[names.index(f"F_tip_{c}") for c in "xyz"]] = tip_load
    return inp


def held_outputs(crane, names, R=None, tip_load=None, actuation=None) -> np.ndarray:
    """The outputs ``names`` of ``crane`` (a block with ``holding``) at its
    start pose on a mount turned by ``R`` (``R_1^0``; default level), with
    the force ``tip_load`` [N] (Frame 0; default none) at its tip, under
    ``actuation`` (its ``*_hold`` outputs' inputs, in their order; default:
    the actuation that holds it there, ``crane.holding``)."""
    inputs, outputs = crane.input_names(), crane.output_names()
    x, inp = crane.initial_state(), crane_inputs(crane, R, tip_load)
    held = [inputs.index(n[:-len("_hold")]) for n in outputs if n.endswith("_hold")]
    inp[held] = crane.holding(x, inp) if actuation is None else actuation
    return crane.output(0.0, x, inp)[[outputs.index(n) for n in names]]


def held_wrench(crane, R=None, tip_load=None) -> np.ndarray:
    """The wrench ``W_mount`` (mount axes, about the mount; N.m, N) of
    ``crane`` held at its start pose (:func:`held_outputs`)."""
    return held_outputs(crane, [f"W_mount_{c}" for c in WRENCH_COMPONENTS], R, tip_load)


def vessel_at_rest(vessel, crane, tolerance: float = 1e-13, iterations: int = 100) -> np.ndarray:
    """The roll, pitch and yaw [rad] at which ``vessel`` (a ``Vessel``
    block) rests under ``crane`` (a block with ``holding``: the knuckle
    boom crane) held by its actuation at its start pose: ``k q^3 = -J(q)^T
    W(q)``, the springs against the crane's wrench on the mount ``W``
    (``W_mount``, mount axes, about the mount), which turns with the deck
    as the crane's weight keeps pointing down.  Solved by repeating
    ``q = cbrt(-J^T W / k)`` from level until a step moves it less than
    ``tolerance`` [rad] (a contraction: the wrench turns by the angle, the
    springs' moment grows by its cube)."""
    if not hasattr(crane, "holding"):
        raise ValueError(f"the crane {crane.model_name} says no actuation that holds it at its start pose")
    k = np.array([vessel.p.k_roll, vessel.p.k_pitch, vessel.p.k_yaw])
    q = np.zeros(3)
    for _ in range(iterations):
        W = held_wrench(crane, rot_zyx(*q))
        J = vessel._state_terms(np.concatenate([q, np.zeros(3)]))[3]
        new = np.cbrt(-J.T @ W / k)
        if np.max(np.abs(new - q)) < tolerance:
            return new
        q = new
    raise ValueError(f"the vessel's resting angles did not settle in {iterations} steps")


def barge_at_rest(vessel, crane, tip_load=None, tolerance: float = 1e-13, iterations: int = 100) -> np.ndarray:
    """The displacements ``eta`` (surge, sway, heave [m]; roll, pitch, yaw
    [rad]) at which ``vessel`` (a ``HydroVessel``) floats at rest under
    ``crane`` (a block with ``holding``) held at its start pose by the
    actuation that holds it there on the heeled deck, with the force
    ``tip_load`` [N] (Frame 0; default none) at its tip: ``K eta = -J(eta)^T
    W(eta)``, the vessel's linear restoring (hydrostatics and mooring)
    against the crane's wrench on the mount (``W_mount``, mount axes,
    about the mount), which turns with the deck as the crane's weight and
    the load keep pointing down: the crane's centre of gravity above the
    mount lowers the roll stiffness it meets (4.7% on the barge).  Solved
    by repeating ``eta = K^+ (-J^T W)`` (the least-squares solution where
    ``K`` is singular: no mooring) from level until a step moves it less
    than ``tolerance`` [m, rad]: a contraction by that ratio."""
    if not hasattr(crane, "holding"):
        raise ValueError(f"the crane {crane.model_name} says no actuation that holds it at its start pose")
    K, x, eta = vessel.C + vessel.K_moor, vessel.initial_state(), np.zeros(6)
    for _ in range(iterations):
        x[:6] = eta
        W = held_wrench(crane, rot_zyx(*eta[3:]), tip_load)
        new = np.linalg.lstsq(K, -vessel._kinematics(x)[1].T @ W, rcond=None)[0]
        if np.max(np.abs(new - eta)) < tolerance:
            return new
        eta = new
    raise ValueError(f"the barge's resting displacements did not settle in {iterations} steps")


def settle_vessel(system, vessel: str = "vessel", crane: str = "crane") -> dict:
    """Start the spring vessel ``vessel`` of ``system`` at rest under its
    crane ``crane`` (:func:`vessel_at_rest`), its parameters and the
    crane's as the system sets them: sets its ``q_<angle>_0`` and returns
    them [rad]; nothing (an empty dict) where the system has no such
    vessel, or a crane that says no holding actuation."""
    comps = {c.name: c for c in system.components}
    if vessel not in comps or crane not in comps:
        return {}
    models = {name: Path(str(comps[name].source)).stem for name in (vessel, crane)}
    if models[vessel] != "Vessel" or not hasattr(BLOCKS.get(models[crane]), "holding"):
        return {}
    q = vessel_at_rest(BLOCKS["Vessel"](**comps[vessel].parameters), BLOCKS[models[crane]](**comps[crane].parameters))
    start = {f"q_{a}_0": float(v) for a, v in zip(ANGLES, q)}
    comps[vessel].parameters.update(start)
    return start
