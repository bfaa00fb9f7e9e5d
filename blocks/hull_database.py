"""A hull's hydrodynamic database: what a linear potential-flow panel
method (Capytaine) computes of a floating body, written as NetCDF so that
any NetCDF reader (xarray, netCDF4, scipy) opens it, and read here with
scipy alone, so that the vessel block needs no panel code.

The body's degrees of freedom are those of linear seakeeping, in the order
surge, sway, heave, roll, pitch, yaw: translations of the reference point
along the calm-water axes (x forward, y to port, z up) and small rotations
about axes through the reference point, which is the body's centre of
gravity.  Forces are per unit wave amplitude [N/m, N.m/m] and take the
time dependence ``exp(-i w t)`` of Capytaine: a complex amplitude ``X``
means the real signal ``Re(X a exp(-i w t))`` for a wave of amplitude
``a`` and elevation ``a cos(w t)`` at the reference point's calm-water
position.  Headings are the direction the waves travel toward, from x
toward y (0: following seas along +x, pi/2: beam seas from starboard).

Variables (NetCDF 3, complex values as ``<name>_re`` and ``<name>_im``):

* ``omega`` [rad/s] (n_omega), ``heading`` [rad] (n_heading);
* ``added_mass`` A(w) and ``radiation_damping`` B(w) (n_omega, 6, 6), in
  kg, kg.m, kg.m2 and kg/s, kg.m/s, kg.m2/s: rows the force's degree of
  freedom, columns the motion's; ``added_mass_inf`` A(inf) (6, 6);
* ``excitation`` (n_heading, n_omega, 6): Froude-Krylov and diffraction;
* ``rao`` (n_heading, n_omega, 6) [m/m, rad/m]: the motions per unit wave
  amplitude that Capytaine computes from the same coefficients with the
  rigid-body inertia and the hydrostatic stiffness, no other damping;
* ``drift`` (n_heading, n_omega, drift_dof = 2) [N/m2]: the mean wave
  drift force in surge and sway per square metre of a regular wave's
  amplitude, on the body moving by ``rao`` (``cosim/hydro/drift.py``,
  Maruo 1960) (optional: a vessel needs it for its drift forces);
* ``hydrostatic_stiffness`` C (6, 6) [N/m, N, N.m/rad], the weight's
  share included; ``inertia_matrix`` (6, 6) the rigid-body mass matrix
  about the reference point [kg, kg.m, kg.m2];
* the radiation memory's state-space model fitted to ``added_mass`` and
  ``radiation_damping`` (``blocks/radiation.py``), ``radiation_A``,
  ``radiation_B``, ``radiation_C`` (dimension ``memory_state``), its
  tolerance, orders and errors per pair in the attribute
  ``radiation_fit`` (JSON); the vessel refuses a database without them
  (``crane-cosim hydro --refit`` fits one);
* scalars as attributes: ``rho`` [kg/m3], ``g`` [m/s2], ``mass`` [kg],
  ``displaced_volume`` [m3], ``waterplane_area`` [m2], the reference
  point ``cog_x/y/z`` [m] in the hull's own coordinates (origin in the
  calm-water plane), ``hull`` (the hull's description) and ``computed_by``;
* ``outline`` (outline_point, xyz) [m]: the hull's edges to draw, in hull
  coordinates, polylines each ended by a row of NaN (optional).
"""
from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .radiation import RadiationFit

__all__ = ["HullDatabase", "read_database", "resolve_database", "write_database", "excitation_at", "drift_at", "DOFS",
           "SHIPPED"]

#: the degrees of freedom, in the database's order
DOFS = ("surge", "sway", "heave", "roll", "pitch", "yaw")
#: the databases shipped with the package (``blocks/hulls``), by name
SHIPPED = Path(__file__).resolve().parent / "hulls"
#: their bytes, read when the package is imported: in an FMU the package is
#: imported from the first FMU's unpacked folder, which its host may delete
#: when that FMU is freed, before a vessel asks for its hull
_SHIPPED_BYTES = {p.stem: p.read_bytes() for p in sorted(SHIPPED.glob("*.nc"))}
_COMPLEX = ("excitation", "rao")
_ARRAYS = {  # name: (dimensions, unit)
    "added_mass": (("omega", "dof", "dof_motion"), "kg, kg.m, kg.m2"),
    "radiation_damping": (("omega", "dof", "dof_motion"), "kg/s, kg.m/s, kg.m2/s"),
    "added_mass_inf": (("dof", "dof_motion"), "kg, kg.m, kg.m2"),
    "excitation": (("heading", "omega", "dof"), "N/m, N.m/m"),
    "rao": (("heading", "omega", "dof"), "m/m, rad/m"),
    "hydrostatic_stiffness": (("dof", "dof_motion"), "N/m, N, N.m/rad"),
    "inertia_matrix": (("dof", "dof_motion"), "kg, kg.m, kg.m2"),
}
_SCALARS = {"rho": "kg/m3", "g": "m/s2", "mass": "kg", "displaced_volume": "m3", "waterplane_area": "m2",
            "cog_x": "m", "cog_y": "m", "cog_z": "m"}


@dataclass
class HullDatabase:
    """The arrays and scalars of the module's docstring (complex arrays as
    complex numpy arrays)."""

    omega: np.ndarray
    heading: np.ndarray
    added_mass: np.ndarray
    radiation_damping: np.ndarray
    added_mass_inf: np.ndarray
    excitation: np.ndarray
    rao: np.ndarray
    hydrostatic_stiffness: np.ndarray
    inertia_matrix: np.ndarray
    rho: float
    g: float
    mass: float
    displaced_volume: float
    waterplane_area: float
    cog_x: float
    cog_y: float
    cog_z: float
    hull: str = ""
    computed_by: str = ""
    #: the hull's edges to draw [m], hull coordinates: polylines, each ended
    #: by a row of NaN (``cosim/hydro/outline.py``); None where the file has none
    outline: np.ndarray | None = None
    #: the radiation memory's fitted model, None where the file has none
    radiation: RadiationFit | None = None
    #: the mean drift force (n_heading, n_omega, 2) [N/m2], None where the file has none
    drift: np.ndarray | None = None

    @property
    def cog(self) -> np.ndarray:
        """The reference point (centre of gravity) in hull coordinates [m]."""
        return np.array([self.cog_x, self.cog_y, self.cog_z])


def write_database(db: HullDatabase, path) -> Path:
    """Write ``db`` as NetCDF 3 (64-bit offsets) at ``path``."""
    # scipy.io only where a database is read or written
    from scipy.io import netcdf_file
    path = Path(path)
    with netcdf_file(path, "w", version=2) as f:
        f.createDimension("omega", db.omega.size)
        f.createDimension("heading", db.heading.size)
        f.createDimension("dof", 6)
        f.createDimension("dof_motion", 6)
        for name, unit in (("omega", "rad/s"), ("heading", "rad")):
            v = f.createVariable(name, "d", (name,))
            v[:] = getattr(db, name)
            v.units = unit
        for name, (dims, unit) in _ARRAYS.items():
            value = np.asarray(getattr(db, name))
            parts = (("_re", value.real), ("_im", value.imag)) if name in _COMPLEX else (("", value),)
            for suffix, part in parts:
                v = f.createVariable(name + suffix, "d", dims)
                v[:] = part
                v.units = unit
        for name, unit in _SCALARS.items():
            setattr(f, name, float(getattr(db, name)))
            setattr(f, f"{name}_units", unit)
        if db.radiation is not None:
            _write_radiation(f, db.radiation)
        if db.drift is not None:
            f.createDimension("drift_dof", 2)
            v = f.createVariable("drift", "d", ("heading", "omega", "drift_dof"))
            v[:] = db.drift
            v.units = "N/m2"
        if db.outline is not None:
            f.createDimension("outline_point", len(db.outline))
            f.createDimension("xyz", 3)
            v = f.createVariable("outline", "d", ("outline_point", "xyz"))
            v[:] = db.outline
            v.units = "m"

        f.dofs = ", ".join(DOFS)
        f.hull = db.hull
        f.computed_by = db.computed_by
        f.time_convention = "exp(-i omega t)"
    return path


def read_database(path) -> HullDatabase:
    """The database at ``path`` (a file :func:`write_database` wrote, or the
    name of a shipped one, such as ``"barge"``).  Raises ``ValueError``
    naming the file and what is missing or wrong."""
    # scipy.io only where a database is read or written
    from scipy.io import netcdf_file
    path, key = resolve_database(path)
    try:
        f = netcdf_file(io.BytesIO(_SHIPPED_BYTES[key]) if key in _SHIPPED_BYTES else path, "r", mmap=False)
    except Exception as e:  # scipy says TypeError or ValueError for a file that is not NetCDF 3
        raise ValueError(f"hydrodynamic database {path}: not a NetCDF 3 file ({e})") from None
    with f:
        def array(name):
            if name in _COMPLEX:
                return _variable(f, path, name + "_re") + 1j * _variable(f, path, name + "_im")
            return _variable(f, path, name)
        values = {name: array(name) for name in ("omega", "heading", *_ARRAYS)}
        for name in _SCALARS:
            if not hasattr(f, name):
                raise ValueError(f"hydrodynamic database {path}: the attribute {name} is missing")
            values[name] = float(getattr(f, name))
        text = {k: _text(getattr(f, k, b"")) for k in ("hull", "computed_by")}
        radiation = _read_radiation(f, path) if "radiation_A" in f.variables else None
        outline = _variable(f, path, "outline") if "outline" in f.variables else None
        drift = _variable(f, path, "drift") if "drift" in f.variables else None
    db = HullDatabase(**values, **text, radiation=radiation, outline=outline, drift=drift)
    _check(db, path)
    return db


def _pairs(d: dict) -> dict:
    return {f"{i},{j}": v for (i, j), v in d.items()}


def _unpairs(d: dict) -> dict:
    return {tuple(int(k) for k in key.split(",")): v for key, v in d.items()}


def _write_radiation(f, fit: RadiationFit) -> None:
    f.createDimension("memory_state", fit.A.shape[0])
    for name, dims in (("A", ("memory_state", "memory_state")), ("B", ("memory_state", "dof")),
                       ("C", ("dof", "memory_state"))):
        v = f.createVariable(f"radiation_{name}", "d", dims)
        v[:] = getattr(fit, name)
    f.radiation_fit = json.dumps({"tolerance": fit.tolerance, "orders": _pairs(fit.orders),
                                  "errors": _pairs(fit.errors), "asymmetry": _pairs(fit.asymmetry),
                                  "states": _pairs({k: [s.start, s.stop] for k, s in fit.states.items()})})


def _read_radiation(f, path) -> RadiationFit:
    try:
        info = json.loads(_text(f.radiation_fit))
        return RadiationFit(A=_variable(f, path, "radiation_A"), B=_variable(f, path, "radiation_B"),
                            C=_variable(f, path, "radiation_C"), orders=_unpairs(info["orders"]),
                            errors=_unpairs(info["errors"]), asymmetry=_unpairs(info["asymmetry"]),
                            states={k: slice(*v) for k, v in _unpairs(info["states"]).items()},
                            tolerance=float(info["tolerance"]))
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise ValueError(f"hydrodynamic database {path}: its radiation fit cannot be read ({e})") from None


def resolve_database(path) -> tuple[Path, object]:
    """The file of the database ``path`` names (a path, or the name of a
    shipped one) and a key that changes when it does (a shipped one's
    name; a file's path and modification time); ``ValueError`` where there
    is none."""
    path = Path(path)
    if path.suffix != ".nc" and not path.exists() and path.name in _SHIPPED_BYTES:
        return SHIPPED / f"{path}.nc", path.name
    if not path.is_file():
        raise ValueError(f"hydrodynamic database {path}: no such file (the shipped ones: "
                         f"{', '.join(_SHIPPED_BYTES)})")
    return path, (str(path.resolve()), path.stat().st_mtime_ns)


def _variable(f, path, name) -> np.ndarray:
    if name not in f.variables:
        raise ValueError(f"hydrodynamic database {path}: the variable {name} is missing")
    return np.array(f.variables[name][:], dtype=float)


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _check(db: HullDatabase, path) -> None:
    n, m = db.omega.size, db.heading.size
    shapes = {"added_mass": (n, 6, 6), "radiation_damping": (n, 6, 6), "added_mass_inf": (6, 6),
              "excitation": (m, n, 6), "rao": (m, n, 6), "hydrostatic_stiffness": (6, 6), "inertia_matrix": (6, 6)}
    for name, shape in shapes.items():
        if getattr(db, name).shape != shape:
            raise ValueError(f"hydrodynamic database {path}: {name} has the shape {getattr(db, name).shape}, "
                             f"not {shape}")
    if db.drift is not None and (db.drift.shape != (m, n, 2) or not np.all(np.isfinite(db.drift))):
        raise ValueError(f"hydrodynamic database {path}: drift must be {(m, n, 2)} finite values, not "
                         f"{db.drift.shape}")
    if db.outline is not None and (db.outline.ndim != 2 or db.outline.shape[1] != 3):
        raise ValueError(f"hydrodynamic database {path}: outline has the shape {db.outline.shape}, not (points, 3)")
    if n < 2 or np.any(np.diff(db.omega) <= 0) or db.omega[0] <= 0:
        raise ValueError(f"hydrodynamic database {path}: omega must be at least two positive frequencies, "
                         f"increasing")
    for name in ("added_mass", "radiation_damping", "added_mass_inf", "excitation", "hydrostatic_stiffness",
                 "inertia_matrix"):
        if not np.all(np.isfinite(getattr(db, name))):
            raise ValueError(f"hydrodynamic database {path}: {name} holds values that are not finite")


def drift_at(omega, headings, drift, w, heading) -> np.ndarray:
    """The database's drift coefficients (n_heading, n_omega, 2) [N/m2]
    interpolated linearly at the frequencies ``w`` [rad/s] and the one
    ``heading`` [rad]: (len(w), 2), held beyond the database's frequencies."""
    T = _at_heading(headings, drift, heading)
    return np.stack([np.interp(w, omega, T[:, i]) for i in range(2)], axis=1)


def _at_heading(headings, table, heading) -> np.ndarray:
    """``table`` (n_heading, ...) interpolated linearly at ``heading`` [rad]."""
    if headings.size == 1:
        return table[0]
    j = int(np.clip(np.searchsorted(headings, heading) - 1, 0, headings.size - 2))
    s = (heading - headings[j]) / (headings[j + 1] - headings[j])
    return (1 - s) * table[j] + s * table[j + 1]


def excitation_at(omega, headings, excitation, w, heading) -> np.ndarray:
    """The database's excitation (n_heading, n_omega, 6) [N/m, N.m/m]
    interpolated linearly, real and imaginary parts, at the frequencies
    ``w`` [rad/s] and the one ``heading`` [rad]: (len(w), 6), zero above
    the highest frequency and held at the lowest below it."""
    X = _at_heading(headings, excitation, heading)
    out = np.empty((w.size, 6), complex)
    for i in range(6):
        out[:, i] = (np.interp(w, omega, X[:, i].real, right=0.0)
                     + 1j * np.interp(w, omega, X[:, i].imag, right=0.0))
    return out
