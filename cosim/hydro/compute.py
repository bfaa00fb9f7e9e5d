"""A hull's hydrodynamic database computed by Capytaine (Ancellin & Dias
2019, linear potential flow, boundary elements; GPL-3.0, the optional extra
``hydro``), from a hull file (TOML) that says the hull's shape, its mass
properties, the frequencies, the headings and the water.

The hull file (``examples/hydro_vessel/barge.toml`` is one):

* ``name``, ``description``;
* the shape: ``[box]`` ``length``, ``beam``, ``depth``, ``draft`` [m] (a
  rectangular hull, the keel at ``z = -draft``), or ``mesh`` (a file
  Capytaine reads, in hull coordinates with the calm-water plane at z = 0,
  relative to the hull file), and ``[panels] size`` [m] for the box;
* ``[mass]``: ``kg`` [m] the centre of gravity above the keel (box) or
  ``cog`` [m] (x, y, z in hull coordinates), ``radii_of_gyration`` [m]
  about it (roll, pitch, yaw axes), ``mass`` [kg] (default: the displaced
  water's, the hull floating freely at the draft given);
* ``[frequencies]`` ``omega_min``, ``omega_max`` [rad/s], ``count``;
  ``[headings]`` ``degrees``; ``[water]`` ``rho`` [kg/m3], ``g`` [m/s2]
  (deep water).

Assumptions written down here:

* The irregular frequencies of the boundary-element method (a box barge's
  first near 2 rad/s) are removed by a lid inside the hull (Capytaine's
  ``generate_lid``) a quarter of the way down to the lowest position
  Capytaine allows at the highest frequency (0.22 m below the water on
  the example barge; the hull's bottom where the frequencies are too low
  for any): a lid in the waterplane itself left them (the
  barge's heave damping 50% too high from 2.4 rad/s up, a spike at 2.55),
  and lids at 0.1 and 0.25 m agree within 2%.
* The hydrostatics are integrated over each panel by Gauss-Legendre's
  rule of 2 x 2 points, exact for the waterplane's moments of a hull of
  plane panels: one point a panel, Capytaine's default, underestimates a
  box's roll and pitch stiffness by ``1/n**2`` with ``n`` panels across
  its waterplane (10% with 4 across a 12 m beam).  The hydrodynamics take
  one point a panel, as the boundary-element method is written.
* A mesh is the hull's surface below the water (what is above is cut off)
  with its panels' normals pointing out of the hull, into the water: its
  displaced volume computed three ways (by x, y and z) must agree, or the
  command names the file and stops.
* The radiation memory is fitted once, here, and kept in the database
  (``blocks/radiation.py``, its default tolerance).
* The rigid-body inertia is ``m`` and ``m r**2`` about the centre of
  gravity, the reference point of every degree of freedom, with no
  products of inertia.
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np

from ..blocks.hull_database import DOFS, HullDatabase
from ..blocks.radiation_fit import fit_radiation
from ..errors import CraneCosimError
from .drift import drift_table
from .outline import hull_outline

__all__ = ["read_hull", "compute_database", "HYDRO_MISSING"]

#: the sentence for a missing optional extra
HYDRO_MISSING = ("computing a hydrodynamic database needs Capytaine, the optional extra hydro "
                 "(pip install \"crane-cosim[hydro]\"; GPL-3.0)")
#: where the lid goes, as a share of the lowest position Capytaine allows
LID_DEPTH = 0.25
#: the quadrature of the hydrostatics (exact for plane panels' moments)
HYDROSTATIC_QUADRATURE = "Gauss-Legendre 2"
#: how far apart the mesh's volumes by x, y and z may be, as a share of their mean
#: (a real hull's warped panels make them differ a little; a panel facing inward, by its volume)
VOLUME_AGREEMENT = 1e-3


def read_hull(path) -> dict:
    """The hull file at ``path`` as a dict, checked: raises
    :class:`CraneCosimError` naming the file and the key that is wrong."""
    path = Path(path)
    try:
        spec = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise CraneCosimError(f"hull file {path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise CraneCosimError(f"hull file {path}: not valid TOML ({e})") from None

    def need(table, key, positive=True):
        try:
            value = spec[table][key] if table else spec[key]
        except (KeyError, TypeError):
            raise CraneCosimError(f"hull file {path}: {table + '.' if table else ''}{key} is missing") from None
        if positive and not (isinstance(value, (int, float)) and value > 0 and math.isfinite(value)):
            raise CraneCosimError(f"hull file {path}: {table}.{key} = {value!r} must be a positive number")
        return value

    if ("box" in spec) == ("mesh" in spec):
        raise CraneCosimError(f"hull file {path}: give the shape as a [box] table or a mesh file, one of them")
    if "box" in spec:
        for key in ("length", "beam", "depth", "draft"):
            need("box", key)
        need("panels", "size")
        if spec["box"]["draft"] >= spec["box"]["depth"]:
            raise CraneCosimError(f"hull file {path}: box.draft must be less than box.depth")
        need("mass", "kg")
    else:
        spec["mesh"] = str((path.parent / spec["mesh"]).resolve())
        if not Path(spec["mesh"]).is_file():
            raise CraneCosimError(f"hull file {path}: its mesh file {spec['mesh']} does not exist")
        cog = need("mass", "cog", positive=False)
        if not (isinstance(cog, list) and len(cog) == 3):
            raise CraneCosimError(f"hull file {path}: mass.cog must be three numbers [m]")
    radii = need("mass", "radii_of_gyration", positive=False)
    if not (isinstance(radii, list) and len(radii) == 3 and all(isinstance(r, (int, float)) and r > 0
                                                                 for r in radii)):
        raise CraneCosimError(f"hull file {path}: mass.radii_of_gyration must be three positive numbers [m]")
    lo, hi = need("frequencies", "omega_min"), need("frequencies", "omega_max")
    if lo >= hi or int(need("frequencies", "count")) < 2:
        raise CraneCosimError(f"hull file {path}: frequencies need omega_min < omega_max and a count of 2 or more")
    need("headings", "degrees", positive=False)
    need("water", "rho")
    need("water", "g")
    spec.setdefault("name", path.stem)
    spec.setdefault("description", spec["name"])
    spec["source"] = str(path)
    return spec


def _box_mesh(cpt, box, panel):
    L, B, D, T = box["length"], box["beam"], box["depth"], box["draft"]
    resolution = (max(2, round(L / panel)), max(2, round(B / panel)), max(2, round(D / panel)))
    return cpt.mesh_parallelepiped(size=(L, B, D), center=(0.0, 0.0, D / 2 - T), resolution=resolution,
                                   name=f"box {L:g} x {B:g} x {D:g} m")


def _hull_mesh(cpt, spec):
    """The hull file ``spec``'s mesh, checked: the panels of its immersed
    part face the water (the volumes by x, y and z agree)."""
    try:
        whole = cpt.load_mesh(spec["mesh"])
        mesh = whole.immersed_part()
    except Exception as e:  # Capytaine's and its readers' own errors
        raise CraneCosimError(f"hull file {spec['source']}: cannot read the mesh {spec['mesh']}: {e}") from None
    volumes = np.array(mesh.volumes)
    if not (volumes.min() > 0 and np.ptp(volumes) <= VOLUME_AGREEMENT * volumes.mean()):
        raise CraneCosimError(
            f"hull file {spec['source']}: the mesh {Path(spec['mesh']).name} is not a hull whose panels face the "
            f"water: its displaced volume by x, y and z is {', '.join(f'{v:.6g}' for v in volumes)} m3 (normals "
            f"pointing into the hull, or a hull not closed below the water)")
    return whole


def _body(cpt, mesh, cog, mass, omega_max=None):
    """The floating body of ``mesh``, with a lid against the irregular
    frequencies up to ``omega_max`` [rad/s] (None: no lid)."""
    lid = None if omega_max is None else mesh.generate_lid(z=LID_DEPTH * _lowest_lid(mesh, omega_max))
    return cpt.FloatingBody(mesh=mesh, lid_mesh=lid,
                            dofs=cpt.rigid_body_dofs(rotation_center=tuple(cog)),
                            center_of_mass=tuple(cog), mass=mass)


def _lowest_lid(mesh, omega_max) -> float:
    """The lowest a lid may go [m] (negative: below the water) for the
    frequencies up to ``omega_max`` [rad/s]; where no frequency that low
    meets an irregular one at any depth (Capytaine's formula has no value
    then), the hull's bottom."""
    with np.errstate(invalid="ignore"):
        z = float(mesh.lowest_lid_position(omega_max))
    return z if math.isfinite(z) else float(mesh.vertices[:, 2].min())


def _fitted(spec, omega, A_w, B_w, A_inf):
    """The radiation memory fitted to the hull's arrays, or one sentence."""
    try:
        return fit_radiation(omega, A_w, B_w, A_inf)
    except ValueError as e:
        raise CraneCosimError(f"hull file {spec['source']}: {e}") from None


def compute_database(spec: dict, progress: bool = False) -> HullDatabase:
    """The database of the hull ``spec`` (:func:`read_hull`)."""
    try:
        # capytaine, an optional extra, only where a database is computed
        import capytaine as cpt
    except ImportError:
        raise CraneCosimError(HYDRO_MISSING) from None
    rho, g = float(spec["water"]["rho"]), float(spec["water"]["g"])
    if "box" in spec:
        box = spec["box"]
        whole = _box_mesh(cpt, box, spec["panels"]["size"])
        cog = np.array([0.0, 0.0, spec["mass"]["kg"] - box["draft"]])
    else:
        whole = _hull_mesh(cpt, spec)
        cog = np.array(spec["mass"]["cog"], float)
    mesh = whole.immersed_part()
    fine = mesh.with_quadrature(HYDROSTATIC_QUADRATURE)
    volume = float(fine.volume)
    mass = float(spec["mass"].get("mass", rho * volume))
    r = np.array(spec["mass"]["radii_of_gyration"], float)
    inertia = np.diag([mass, mass, mass, *(mass * r ** 2)])
    floating = _body(cpt, fine, cog, mass)  # its hydrostatics
    stiffness = np.array(floating.compute_hydrostatic_stiffness(rho=rho, g=g)
                         .sel(influenced_dof=list(_cpt_dofs()), radiating_dof=list(_cpt_dofs())).values)
    omega = np.linspace(spec["frequencies"]["omega_min"], spec["frequencies"]["omega_max"],
                        int(spec["frequencies"]["count"]))
    body = _body(cpt, mesh, cog, mass, omega[-1])
    heading = np.radians(np.array(spec["headings"]["degrees"], float))
    solver = cpt.BEMSolver()
    problems = [cpt.RadiationProblem(body=body, radiating_dof=d, omega=w, rho=rho, g=g)
                for w in (*omega, np.inf) for d in _cpt_dofs()]
    problems += [cpt.DiffractionProblem(body=body, wave_direction=b, omega=w, rho=rho, g=g)
                 for w in omega for b in heading]
    # the indirect method keeps each problem's sources, whose far field gives the drift
    results = solver.solve_all(problems, method="indirect", keep_details=True, progress_bar=progress)
    data = cpt.assemble_dataset(results)
    dofs = {"influenced_dof": list(_cpt_dofs()), "radiating_dof": list(_cpt_dofs())}
    added = data["added_mass"].sel(**dofs)
    damping = data["radiation_damping"].sel(**dofs)
    excitation = (data["Froude_Krylov_force"] + data["diffraction_force"]).sel(influenced_dof=list(_cpt_dofs()))
    finite = data.sel(omega=omega)
    finite = finite.assign(inertia_matrix=(("influenced_dof", "radiating_dof"), inertia),
                           hydrostatic_stiffness=(("influenced_dof", "radiating_dof"), stiffness))
    rao = cpt.post_pro.rao(finite.sel(**dofs))
    A_w, B_w, A_inf = added.sel(omega=omega).values, damping.sel(omega=omega).values, added.sel(omega=np.inf).values
    motions = rao.sel(omega=omega, wave_direction=heading).transpose("wave_direction", "omega", "radiating_dof").values
    return HullDatabase(
        omega=omega, heading=heading,
        added_mass=A_w, radiation_damping=B_w, added_mass_inf=A_inf,
        radiation=_fitted(spec, omega, A_w, B_w, A_inf),
        excitation=excitation.sel(omega=omega, wave_direction=heading).transpose(
            "wave_direction", "omega", "influenced_dof").values,
        rao=motions,
        drift=drift_table(results, motions, omega, heading, rho, cpt.post_pro.kochin.compute_kochin),
        hydrostatic_stiffness=stiffness, inertia_matrix=inertia, rho=rho, g=g, mass=mass,
        displaced_volume=volume, waterplane_area=float(floating.waterplane_area),
        cog_x=cog[0], cog_y=cog[1], cog_z=cog[2], hull=spec["description"],
        outline=hull_outline(whole.vertices, whole.faces),
        computed_by=f"Capytaine {cpt.__version__}, {mesh.nb_faces} panels and a lid, from {Path(spec['source']).name}")


def _cpt_dofs():
    """Capytaine's names of the rigid-body degrees of freedom, in the
    database's order (``DOFS``)."""
    return tuple(d.capitalize() for d in DOFS)
