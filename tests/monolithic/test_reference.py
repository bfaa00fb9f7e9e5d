"""The composed blocks against an independent model of the same physics:
Cibicik & Egeland's (2018) system as one 6-joint chain."""
import subprocess
import sys
import time

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from limits import HUNG

from crane_cosim.blocks.controller import Controller
from crane_cosim.blocks.kane import (Body, Chain, Joint, applied_forces, gravity_forces, kinematics,
                                     kinetic_energy, mass_matrix)
from crane_cosim.blocks.screw import rot_x, rot_z
from crane_cosim.files.folders import FolderBusy, refuse_busy
from crane_cosim.monolithic.composite import Composite
from crane_cosim.runtime import plan_of
from crane_cosim.scenarios import crane_on_vessel

G = 9.81


def paper_chain(m1=1200.0, with_vessel_mass=True):
    """Vessel + crane of Cibicik & Egeland (2018), Section III, as one serial chain on the fixed
    Frame 0: yaw, pitch, roll (massless gimbal bodies), vessel, king, booms."""
    r2 = 25.0 / 12
    l2 = l3 = l4 = 2.0
    return Chain(
        joints=[Joint(axis=[0, 0, 1]), Joint(axis=[0, 1, 0]), Joint(axis=[1, 0, 0]),
                Joint(offset=[0, 0, 5.0]),
                Joint(offset=[0, 0, l2], rotation=rot_z(np.pi / 2) @ rot_x(np.pi / 2)),
                Joint(offset=[l3, 0, 0])],
        bodies=[Body(0.0), Body(0.0),
                Body(m1 if with_vessel_mass else 0.0, [0, 0, 2.5], np.eye(3) * m1 * r2 * with_vessel_mass),
                Body(30.0, [0, 0, 1.0], np.diag([1, 1, 0.1]) * 30 * l2**2 / 12),
                Body(30.0, [1.0, 0, 0], np.diag([0, 1, 1]) * 30 * l3**2 / 12),
                Body(30.0, [1.0, 0, 0], np.diag([0, 1, 1]) * 30 * l4**2 / 12)])


def paper_derivatives(t, q, u, m1, controller):
    """du/dt of the one-chain model; q, u in paper order q1..q6."""
    order = [2, 1, 0, 3, 4, 5]  # chain order (q3, q2, q1, q4, q5, q6)
    chain, chain_g = paper_chain(m1), paper_chain(m1, with_vessel_mass=False)
    kin = kinematics(chain, q[order], u[order])
    M = mass_matrix(chain, kin)[6:, 6:]
    f = applied_forces(chain, kin, np.zeros(3))[6:]
    # gravity on the crane only: the vessel's weight is balanced by buoyancy
    f += gravity_forces(chain_g, kinematics(chain_g, q[order], u[order]), [0, 0, -G])[6:]
    springs = -8e7 * q[:3] ** 3
    tau = controller.output(t, None, np.concatenate([q[3:], u[3:]]))[:3]
    f[:3] += springs[::-1]
    f[3:] += tau
    du_chain = np.linalg.solve(M, f)
    du = np.empty(6)
    du[order] = du_chain
    return du


@pytest.mark.parametrize("m1", [1200.0, 120.0])
def test_composed_blocks_equal_one_chain(rng, m1):
    """Vessel and crane joined by the articulated inertia I_A and bias p_A give
    the accelerations of the undivided 6-DOF Kane model to 1e-9 (relative to
    their scale), at random states, for the Table I and the light vessel."""
    system = crane_on_vessel(vessel_mass=m1)
    model = Composite(plan_of(system))
    ctrl = Controller()
    for _ in range(5):
        q = np.concatenate([rng.normal(scale=0.1, size=3), rng.normal(scale=1.0, size=3)])
        u = rng.normal(scale=0.5, size=6)
        t = rng.uniform(0, 20)
        x = np.concatenate([q[:3], u[:3], q[3:], u[3:]])
        d = model.derivatives(t, x)
        du = np.concatenate([d[3:6], d[9:12]])
        ref = paper_derivatives(t, q, u, m1, ctrl)
        assert np.allclose(du, ref, rtol=0, atol=1e-9 * np.abs(ref).max())


def test_coupled_energy_is_conserved():
    """Vessel + crane, no damping and no control: kinetic energy of all bodies +
    spring energy k q^4 / 4 + crane potential energy stays constant.  It
    only does if the inertia coupling transmits the exact interface wrench."""
    system = crane_on_vessel()
    ctrl = system.component("controller")
    for j in ("slew", "boom", "jib"):
        ctrl.parameters[f"kP_{j}"] = 0.0
        ctrl.parameters[f"kD_{j}"] = 0.0
    system.component("crane").parameters.update(q_boom_0=0.4, q_jib_0=-0.6, u_slew_0=0.5)
    model = Composite(plan_of(system))
    chain = paper_chain()

    def energy(x):
        q = np.array([x[2], x[1], x[0], x[6], x[7], x[8]])
        u = np.array([x[5], x[4], x[3], x[9], x[10], x[11]])
        kin = kinematics(chain, q, u)
        height = sum(b.mass * (kin.p[k] + kin.R[k] @ b.com)[2] for k, b in enumerate(chain.bodies) if k >= 3)
        return kinetic_energy(chain, kin) + G * height + 8e7 * np.sum(x[:3] ** 4) / 4

    sol = solve_ivp(model.derivatives, (0, 2.0), model.initial_state(), method="DOP853",
                    rtol=1e-11, atol=1e-12, dense_output=True)
    E = np.array([energy(sol.sol(t)) for t in np.linspace(0, 2.0, 21)])
    assert np.ptp(E) < 1e-7 * 90 * G * 7.0  # scale: crane weight x height
    assert np.ptp(sol.y[0]) > 1e-3  # the vessel does roll


def test_a_diverging_loop_rejects_the_trial_step_and_forgets_it():
    """Far off the solution (a trial stage of a step too long: the flexible
    crane's joints spinning at 300 rad/s), the loop between the friction
    torques and the joint reactions diverges.  The derivatives are then
    not-a-number, which makes the integrator reject the step; the outputs
    say which loop; and the next evaluation starts afresh, not from the
    values that diverged."""
    from crane_cosim.errors import CraneCosimError
    from crane_cosim.scenarios import flexible_crane
    model = Composite(plan_of(flexible_crane()))
    x0 = model.initial_state()
    wild = x0.copy()
    crane = model.slices[model.names.index("crane")]
    wild[crane[len(crane) // 2:]] = 300.0
    assert np.isnan(model.derivatives(0.5, wild)).all()
    with pytest.raises(CraneCosimError, match=r"the outputs do not settle at t = 0.5 s: the connections form an "
                                              r"algebraic loop"):
        model.outputs(0.5, wild)
    assert np.isfinite(model.derivatives(0.0, x0)).all()
    assert np.isfinite(model.outputs(0.0, x0)).all()


@pytest.mark.parametrize("name", ["offshore_knuckle_boom", "flexible_crane"])
def test_the_direct_kernel_calls_give_the_blocks_own_values(rng, name):
    """The monolithic run calls the compiled blocks' kernels directly and
    the friction blocks' compiled twin (``Block.direct_calls``): at the
    settled inputs of states near the start, the same outputs and
    derivatives as each block's own methods, bit for bit."""
    from crane_cosim.scenarios import SCENARIOS
    model = Composite(plan_of(SCENARIOS[name]()))
    x0 = model.initial_state()
    for _ in range(3):
        x = x0 + rng.normal(scale=1e-3, size=len(x0)) * (1 + np.abs(x0))
        model.outputs(0.1, x)
        for i, (block, (output, derivatives)) in enumerate(zip(model.blocks, model._calls)):
            xi, u = x[model.slices[i]], model._inputs(i)
            y, y_ref = output(0.1, xi, u), block.output(0.1, xi, u)
            d, d_ref = derivatives(0.1, xi, u), block.derivatives(0.1, xi, u)
            assert np.array_equal(y, y_ref) and np.array_equal(d, d_ref), model.names[i]


def test_a_block_is_evaluated_again_only_when_its_inputs_change():
    """In the sweeps of the algebraic loop a block whose inputs did not
    change is not called again: the flexible crane's drive (no inputs) once
    per evaluation, the crane as often as its friction and base change
    (the sweeps alone: started from the compiled loop, monolithic/crane_loop.py,
    they find the outputs settled at rest at once)."""
    from crane_cosim.scenarios import flexible_crane
    model = Composite(plan_of(flexible_crane()))
    model._loop = None
    calls = {n: 0 for n in model.names}

    def counted(name, f):
        def call(*args):
            calls[name] += 1
            return f(*args)
        return call

    model._output_calls = [counted(n, f) for n, f in zip(model.names, model._output_calls)]
    model.outputs(0.0, model.initial_state())
    assert calls["drive"] == 1
    assert calls["crane"] > 1


def test_a_monolithic_run_claims_its_folder_while_it_runs(tmp_path):
    """A Python caller's monolithic run claims its folder as a co-simulation
    does: while it runs, another run into the folder is refused, naming
    its process."""
    out = tmp_path / "out"
    code = ("import sys; from crane_cosim.monolithic.reference import run_monolithic; "
            "from crane_cosim.scenarios import crane_on_vessel; "
            "run_monolithic(crane_on_vessel(stop_time=60), sys.argv[1], progress=False)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(out)], stderr=subprocess.PIPE, text=True)
    try:
        while proc.poll() is None and not (out / "results.arrows").exists():
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read()
        with pytest.raises(FolderBusy, match=f"is being written by another run \\(pid {proc.pid}\\)"):
            refuse_busy(out)
    finally:
        proc.kill()
        proc.communicate(timeout=HUNG)
