"""Mean wave drift from Capytaine's Kochin functions (``cosim/hydro/drift.py``),
run where Capytaine is (``hydro_env``): the Kochin functions' normalisation
against Capytaine's own radiation damping, and the drift on a long fixed
box in beam seas against the full reflection's."""
import json
import subprocess
import sys

import pytest

from limits import HUNG

#: the example barge's box, fixed, in 1 m panels; its Kochin functions and
#: what the module makes of them, printed as JSON
SCRIPT = """
import json, numpy as np, capytaine as cpt
from crane_cosim.hydro.drift import ANGLES, drift_force, radiated_damping
rho, g, L, B, D, T = 1025.0, 9.81, 40.0, 12.0, 4.0, 2.5
mesh = cpt.mesh_parallelepiped(size=(L, B, D), center=(0, 0, D / 2 - T), resolution=(40, 12, 4)).immersed_part()
body = cpt.FloatingBody(mesh=mesh, lid_mesh=mesh.generate_lid(z=-0.2), dofs=cpt.rigid_body_dofs(rotation_center=(0, 0, 0)))
solver, theta, out = cpt.BEMSolver(), np.linspace(0, 2 * np.pi, ANGLES + 1)[:-1], {}
for w in (1.0, 2.0):
    k = w * w / g
    damping = {}
    for dof in ("Sway", "Heave", "Roll"):
        r = solver.solve(cpt.RadiationProblem(body=body, radiating_dof=dof, omega=w, rho=rho, g=g),
                         keep_details=True, method="indirect")
        H = cpt.post_pro.kochin.compute_kochin(r, theta)
        damping[dof] = radiated_damping(H, theta, k, w, rho) / float(r.radiation_damping[dof])
    d = solver.solve(cpt.DiffractionProblem(body=body, wave_direction=np.pi / 2, omega=w, rho=rho, g=g),
                     keep_details=True, method="indirect")
    F = drift_force(cpt.post_pro.kochin.compute_kochin(d, theta), theta, k, np.pi / 2, rho)
    out[str(w)] = {"damping": damping, "drift": list(F / (0.5 * rho * g * L))}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def box(hydro_env):
    proc = subprocess.run([sys.executable, "-c", SCRIPT], env=hydro_env, capture_output=True, text=True,
                          timeout=HUNG)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_kochin_functions_radiate_the_damping_capytaine_computes(box):
    """The energy a unit motion radiates, from its Kochin function, over
    Capytaine's radiation damping: 1 to the mesh's accuracy at 1 rad/s
    (measured: sway +1.6%, heave +0.6%, roll +3.4%, 1 m panels), so the far
    field's normalisation is the module's."""
    for dof, measured in (("Sway", 0.016), ("Heave", 0.006), ("Roll", 0.034)):
        assert box["1.0"]["damping"][dof] == pytest.approx(1.0, abs=3 * measured), dof


def test_a_long_fixed_box_in_beam_seas_takes_the_reflected_waves_push(box):
    """The fixed box, 2.5 m deep, in beam seas: at 2 rad/s (k T = 1.0,
    waves of 15 m on a 12 m beam) it reflects nearly all, and its drift
    nears the long wall's rho g L / 2 per m^2 of amplitude (measured 0.978
    of it; the ends' diffraction and the waves passing under make the
    rest); at 1 rad/s (61 m waves) it reflects about half (0.57).  No
    drift along the box: surge below 1e-4 of it (measured 4e-5, the
    mesh's asymmetry)."""
    assert box["2.0"]["drift"][1] == pytest.approx(0.978, abs=0.01)
    assert box["1.0"]["drift"][1] == pytest.approx(0.569, abs=0.01)
    assert abs(box["2.0"]["drift"][0]) < 1e-4 and abs(box["1.0"]["drift"][0]) < 1e-4
