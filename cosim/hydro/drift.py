"""Mean wave drift forces from the far field: the momentum a body's
disturbance carries away (Maruo 1960; Newman 1967), from Capytaine's Kochin
functions.

Deep water; a regular wave of unit amplitude [m] towards ``beta`` [rad],
frequency ``omega``, wavenumber ``k = omega^2 / g``.  Capytaine's Kochin
function of a solved problem (``compute_kochin``, ``H = (1/4 pi) int sigma
e^{kz} e^{-ik(x cos theta + y sin theta)} dS``) gives its potential far
off, ``sqrt(8 pi) k H(theta) e^{kz} e^{i(kR - 3 pi/4)} / sqrt(kR)`` (the
phase as the optical theorem finds it, the size as the radiated energy
does).  A body moving by ``xi_j`` per unit amplitude disturbs by ``H = H_D
+ sum_j xi_j H_j`` (Capytaine's radiation problems: unit displacements).

The mean force is the momentum the waves lose: what the disturbance
radiates towards every ``theta``, less what it takes from the incident
wave ahead of the body, which for a body that absorbs nothing (its motion
damped by radiation alone, as in the database's RAOs) is the whole
radiated energy's worth towards ``beta`` (the optical theorem, ``int |H|^2
dtheta = -(g^2 / omega^3) Re H(beta)``, tested):

    F = 2 pi rho k^2 int_0^2pi |H(theta)|^2 (e_beta - e_theta) dtheta

[N per m^2 of amplitude; surge, sway], ``e_theta = (cos theta, sin
theta)``.  The same normalisation gives a motion's damping from the energy
it radiates, ``B_jj = 4 pi rho k int |H_j|^2 dtheta / omega``
(:func:`radiated_damping`, checked against Capytaine's own).  A long fixed
body in short beam seas reflects nearly all: ``F -> rho g L / 2`` (the wall's,
Longuet-Higgins 1977).  The yaw moment's far-field expression (Newman
1967) needs the Kochin function's derivative and the forward scattering's
phase; it is not computed here.
"""
from __future__ import annotations

import numpy as np

from ..blocks.hull_database import DOFS

__all__ = ["drift_force", "drift_table", "radiated_damping", "ANGLES"]

#: the points on the circle the Kochin functions are taken at: the
#: barge's |H|^2 at 4 rad/s has lobes 2 degrees wide
ANGLES = 1440


def drift_force(kochin, theta, k: float, beta: float, rho: float) -> np.ndarray:
    """The mean drift force (surge, sway) [N/m^2] of the disturbance whose
    Kochin function is ``kochin`` at the angles ``theta`` [rad] (equally
    spaced over the circle, the end left out), wavenumber ``k`` [1/m], the
    waves travelling towards ``beta`` [rad], water of density ``rho``
    [kg/m3] (module docstring)."""
    power = np.abs(np.asarray(kochin)) ** 2 * (2 * np.pi / len(theta))
    direction = np.array([np.cos(beta) - np.cos(theta), np.sin(beta) - np.sin(theta)])
    return 2 * np.pi * rho * k * k * direction @ power


def radiated_damping(kochin, theta, k: float, omega: float, rho: float) -> float:
    """The radiation damping [kg/s, ...] that the energy radiated by a unit
    displacement whose Kochin function is ``kochin`` implies (module
    docstring)."""
    return 4 * np.pi * rho * k * float(np.sum(np.abs(np.asarray(kochin)) ** 2)) * (2 * np.pi / len(theta)) / omega


def drift_table(results, rao, omega, heading, rho: float, kochin) -> np.ndarray:
    """The mean drift force (n_heading, n_omega, 2) [N/m^2; surge, sway] of
    the body moving by ``rao`` (n_heading, n_omega, 6) [m/m, rad/m] at the
    frequencies ``omega`` [rad/s] and headings ``heading`` [rad], from
    Capytaine's solved problems ``results`` (one radiation problem per
    degree of freedom in ``rao``'s order and frequency, one diffraction
    problem per heading and frequency, sources kept; others, such as the
    infinite frequency's, unread) and Capytaine's
    ``kochin(result, theta)`` (``post_pro.kochin.compute_kochin``): the
    disturbance ``H_D + sum_j rao_j H_j``."""
    theta = np.linspace(0.0, 2 * np.pi, ANGLES + 1)[:-1]
    radiated, diffracted = {}, {}
    for r in results:
        if hasattr(r, "radiating_dof"):
            radiated[(r.omega, r.radiating_dof)] = r
        else:
            diffracted[(r.omega, r.wave_direction)] = r
    dofs = sorted({d for _, d in radiated}, key=lambda d: DOFS.index(d.lower()))
    table = np.empty((len(heading), len(omega), 2))
    for n, w in enumerate(omega):
        H_j = np.array([kochin(radiated[(w, d)], theta) for d in dofs])
        k = radiated[(w, dofs[0])].wavenumber
        for m, beta in enumerate(heading):
            H = kochin(diffracted[(w, beta)], theta) + rao[m, n] @ H_j
            table[m, n] = drift_force(H, theta, k, beta, rho)
    return table
