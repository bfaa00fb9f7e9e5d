"""Every block's declared direct feedthrough (``Block.feedthrough``, written
to the FMU's ModelStructure) against finite differences of its outputs.

Sound: an output that changes when an input changes, at a random state and
inputs, must declare that input.  Tight: every input group an output
declares must be needed, some input it matches changes that output at some
sample.  Inputs are moved by 1e-3 of their size; a change counts above 1e-9
of the largest output of the same unit (round-off through cancelling terms,
such as the mount point's velocity in a crane, stays near 1e-15).
"""
import fnmatch

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from crane_cosim.blocks.registry import BLOCKS
from crane_cosim.blocks.block import sym6_pack
from crane_cosim.blocks.rigid_payload import rotation

SAMPLES = 8


def _mount(rng, u, scale=1.0):
    u[:9] = Rotation.random(random_state=rng.integers(1 << 30)).as_matrix().ravel()
    u[9:21] = rng.normal(size=12) * scale


def _vessel(rng, block):
    A = rng.normal(size=(6, 6))
    # a crane's I_A and p_A, and the waves' moments
    u = np.concatenate([sym6_pack(A @ A.T), rng.normal(size=6) * 100, rng.normal(size=3) * 1e3])
    return 0.0, np.concatenate([rng.normal(scale=0.2, size=3), rng.normal(size=3)]), u


def _crane(rng, block):
    u = block.default_inputs()
    _mount(rng, u)
    u[21:27] = rng.normal(size=6) * 300  # actuator and friction torques
    u[27:33] = rng.normal(size=6) * 300  # the tip force and the mount's position
    return 0.0, rng.normal(size=6), u


def _knuckle_boom(rng, block):
    u = block.default_inputs()
    _mount(rng, u, 0.3)
    u[21:27] = [rng.normal() * 1e4, 6e5 + rng.normal() * 2e5, 2e5 + rng.normal() * 1e5, *rng.normal(size=3) * 1e4]
    u[27:33] = [*rng.normal(size=3) * 5e4, *rng.normal(size=3) * 20.0]  # the tip force, the mount's position
    x = np.array([rng.uniform(-3, 3), rng.uniform(0.2, 1.6), rng.uniform(0.2, 1.6), *rng.normal(size=3) * 0.3])
    return 0.0, x, u


def _controller(rng, block):
    return rng.uniform(0, 20), None, rng.normal(size=6) * 0.5


def _knuckle_boom_controller(rng, block):
    # near the set-points and the holding forces, where no valve saturates
    t = rng.uniform(0, 20)
    q_ref, u_ref = block.set_points(t)
    hold = np.array([rng.normal() * 1e4, 5e5, 1e5]) * rng.uniform(0.5, 1.5)
    meas = hold[1:] + rng.normal(size=2) * 1e4
    return t, None, np.concatenate([q_ref + rng.normal(size=3) * 1e-3, u_ref + rng.normal(size=3) * 1e-2,
                                    hold, meas])


def _cylinder(rng, block):
    # half the pistons inside the stroke, half up to 2 mm beyond one end,
    # where the end stops act
    x = rng.choice([rng.uniform(0, block.p.stroke), -rng.uniform(0, 2e-3), block.p.stroke + rng.uniform(0, 2e-3)],
                   p=[0.5, 0.25, 0.25])
    u = np.array([rng.uniform(-0.9, 0.9), rng.normal() * 1e5, x, rng.normal() * 0.1, rng.normal() * 5e3])
    return 0.0, rng.uniform(1e6, 2e7, size=2), u


def _friction(rng, block):
    # rates inside and well beyond the Stribeck velocity, bristles anywhere
    # up to their saturation, the revolute joints loaded
    u = np.empty(len(block.inputs))
    z = np.empty(len(block.states))
    for i, (name, law) in enumerate(zip(block.input_names(), block.inputs)):
        u[i] = rng.normal() * (1e5 if name.startswith("f_") else rng.choice([0.01, 0.5]))
    for i, law in enumerate(block.laws):
        z[2 * i] = rng.uniform(-1, 1) * law.L_s / law.sigma0
        z[2 * i + 1] = rng.uniform(0, 1e3)
    return 0.0, z, u


def _flexible_crane(rng, block):
    # any slew, the booms inside their range, the springs' rotations small;
    # the programme's guide sees the mount's position too
    u = block.default_inputs()
    _mount(rng, u, 0.3)
    u[21:24] = rng.normal(size=3) * 0.05
    u[24:33] = rng.normal(size=9) * 300  # the joints' torques, the tip force
    n = block.chain.n
    x = block.initial_state()
    x[:n] += rng.normal(size=n) * 0.01
    x[[0, 1, n - 1]] = rng.uniform(0, 2 * np.pi), rng.uniform(0.2, 1.2), rng.uniform(3.8, 5.6)
    x[n:] = rng.normal(size=n) * 0.3
    return rng.uniform(0.0, 2.0), x, u


def _supported_base(rng, block):
    # near the supports' rest, tilted and moving; a crane-sized I_A and p_A
    A = rng.normal(size=(6, 6)) * 10
    u = np.concatenate([sym6_pack(A @ A.T), rng.normal(size=6) * 1e3])
    x = np.concatenate([rng.normal(scale=1e-3, size=3), rng.normal(scale=0.05, size=3), rng.normal(scale=0.1, size=6)])
    return 0.0, x, u


def _signal(rng, block):
    # before, inside and after the points; no inputs to move
    return rng.uniform(-1.0, 10.0), None, np.zeros(0)


def _payload(rng, block):
    # taut, swinging, by less than the step in l_wire (1e-3 of it), so that the wire goes slack when l_wire grows
    u = block.default_inputs()
    u[:6] = rng.normal(size=6)
    u[6], u[7] = rng.uniform(5.0, 50.0), rng.normal()
    e = rng.normal(size=3)
    e[2] = -abs(e[2]) - 1.0
    e /= np.linalg.norm(e)
    return 0.0, np.concatenate([e * u[6] * (1 + rng.uniform(1e-5, 8e-4)), rng.normal(size=3)]), u


def _rigid_payload(rng, block):
    # as _payload's, the wire to the lift point of a body turned and spinning at random
    t, x, u = _payload(rng, block)
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    lift_point = block.p.h_hook * rotation(q)[:, 2]
    return t, np.concatenate([x[:3] - lift_point, x[3:], q, rng.normal(size=3)]), u


def _waves(rng, block):
    # any time; no inputs to move
    return rng.uniform(0.0, 1200.0), None, np.zeros(0)


def _hydro_vessel(rng, block):
    # moving, tilted a little, its memory excited; a crane's I_A and p_A
    A = rng.normal(size=(6, 6)) * 100
    u = np.concatenate([sym6_pack(A @ A.T), rng.normal(size=6) * 1e5])
    x = block.initial_state()
    x[:12] = np.concatenate([rng.normal(scale=0.5, size=3), rng.normal(scale=0.05, size=3), rng.normal(size=6)])
    x[12:] = rng.normal(size=x.size - 12)
    return rng.uniform(0.0, 100.0), x, u


def _winch(rng, block):
    return 0.0, np.array([rng.uniform(5.0, 50.0), rng.normal()]), np.array([rng.normal(), rng.uniform(0.0, 1e5)])


def _heave_compensation(rng, block):
    # the wire near the length the law asks, so that its correction lies inside v_trim
    h = rng.normal(size=1)
    return rng.uniform(0.0, 20.0), h, np.array([rng.normal(), block.p.l_wire_0 + h[0] + rng.normal() * 0.03])


_DAHL = {f"model_{j}": "dahl" for j in ("slew", "boom", "jib")}
CASES = {  # block -> (parameter sets, sampler)
    "Vessel": ([{}, {"cog_x": 0.4, "cog_y": -0.3, "gravity_on": True}], _vessel),
    "Crane": ([{}], _crane),
    "Controller": ([{}], _controller),
    "HydraulicCylinder": ([{}, {"hydraulic": False}], _cylinder),
    "KnuckleBoomCrane": ([{}], _knuckle_boom),
    "KnuckleBoomController": ([{}], _knuckle_boom_controller),
    "JointFriction": ([{}, {**_DAHL, "gamma_boom": 1.5}], _friction),
    "KnuckleBoomFriction": ([{}, {**_DAHL, "model_boom_cyl": "dahl", "gamma_jib_cyl": 2.0}], _friction),
    "FlexibleCrane": ([{}, {"programmed": True, "n_rfe": 2}], _flexible_crane),
    "Signal": ([{}, {"table": "0 -4000; 0.1 0", "interpolation": "previous", "scale": 2.0}], _signal),
    "SupportedBase": ([{}, {"cog_x": 0.3, "cog_y": -0.2, "mount_x": 0.5, "mount_y": 0.4, "mount_z": 0.3}],
                      _supported_base),
    "Waves": ([{}, {"heading": 0.5, "K_yaw": 1e4}], _waves),
    # at rest without a record; with one, a function of time alone as well
    "PrescribedVessel": ([{}], _vessel),
    "HydroVessel": ([{}, {"Hs": 2.0, "heading": 2.0, "mount_y": 4.0}], _hydro_vessel),
    "Payload": ([{}], _payload),
    "RigidPayload": ([{}], _rigid_payload),
    "Winch": ([{}], _winch),
    "HeaveCompensation": ([{}], _heave_compensation),
}


def detected_dependencies(name, rng):
    """Boolean matrix (outputs x inputs): the output moved when the input did,
    at some sample."""
    cls = BLOCKS[name]
    units = np.array([v.unit for v in cls.outputs])
    found = np.zeros((len(cls.outputs), len(cls.inputs)), bool)
    for params in CASES[name][0]:
        block = cls(**params)
        for _ in range(SAMPLES):
            t, x, u = CASES[name][1](rng, block)
            y0 = block.output(t, x, u)
            scale = np.array([np.abs(y0[units == unit]).max() for unit in units]) + 1e-300
            for j in range(len(u)):
                up = u.copy()
                up[j] += 1e-3 * max(1.0, abs(u[j]))
                found[:, j] |= np.abs(block.output(t, x, up) - y0) > 1e-9 * scale
    return found


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_declared_feedthrough_is_sound_and_tight(name, rng):
    cls = BLOCKS[name]
    outputs, inputs = cls.output_names(), cls.input_names()
    found = detected_dependencies(name, rng)
    declared = cls.output_dependencies()
    undeclared = [(o, i) for k, o in enumerate(outputs) for j, i in enumerate(inputs)
                  if found[k, j] and i not in declared[o]]
    assert not undeclared, f"{name}: outputs that depend on inputs they do not declare: {undeclared[:10]}"
    # every declared pattern is needed by each output that declares it
    rules = {o: next((ins for pat, ins in cls.feedthrough if fnmatch.fnmatchcase(o, pat)), None)
             for o in outputs}
    unneeded = []
    for k, o in enumerate(outputs):
        for group in rules[o] if rules[o] is not None else inputs:
            patterns = (group,) if isinstance(group, str) else group
            if not any(found[k, j] for j, i in enumerate(inputs) if any(fnmatch.fnmatchcase(i, p) for p in patterns)):
                unneeded.append((o, group))
    assert not unneeded, f"{name}: declared dependencies no sample needs: {unneeded[:10]}"


def test_a_pattern_that_matches_no_port_is_refused():
    from crane_cosim.blocks.controller import Controller

    class Typo(Controller):
        feedthrough = (("tau_slew", ("q_slwe",)),)

    with pytest.raises(ValueError, match="feedthrough pattern 'q_slwe' matches no input"):
        Typo.output_dependencies()
