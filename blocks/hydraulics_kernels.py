"""The hydraulic cylinder's outputs, rates and stiff step
(:class:`blocks.hydraulics.HydraulicCylinder`) as plain loops over floats,
for numba to compile (``blocks/jit.py``): the cylinder's FMU steps and is
read at every pass of a co-simulation, each step a few backward Euler
sub-steps with Newton iterations on the two chamber pressures.

The numpy code of ``hydraulics.py`` is the reference (its model, and the
assumptions written there): the same expressions in the same order, so the
same bits (``tests/blocks/test_hydraulics_kernels.py``).  A power with an
integer exponent is written with a float one (``r ** 4.0``), as CPython
evaluates ``r ** 4``: numba would multiply instead, rounding otherwise.

``par`` holds the parameters, indexed by the constants below; the state
``x`` is ``[p_A, p_B]`` [Pa], the inputs ``u`` ``[valve, F_demand, x, v,
F_seal]``.

This module imports only numpy, so that it runs (slowly) without
numba; it must not import the rest of the package.
"""

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import finite, inputs_after_step, inputs_at_middle

HYDRAULIC, K_V, P_S, P_T, P_TR, C_L, BETA, V_A0, V_B0, A_A, A_B, STROKE, P_VAP, K_END, C_END = range(15)


def orifice(dp, p_tr):
    """``HydraulicCylinder._orifice``: ``sign(dp) sqrt(|dp|)`` made linear
    below ``p_tr``, and its derivative."""
    r = (dp * dp + p_tr * p_tr) ** 0.25
    return dp / r, (1.0 - 0.5 * dp * dp / (r ** 4.0)) / r


def valve(u, pA, pB, par):
    """``HydraulicCylinder._valve``: flows into A and B, supply and tank
    flows, and d(Q_A)/d(p_A), d(Q_B)/d(p_B)."""
    u = min(1.0, max(-1.0, u))
    k = par[K_V] * abs(u)
    if u >= 0.0:
        fa, da = orifice(par[P_S] - pA, par[P_TR])
        fb, db = orifice(pB - par[P_T], par[P_TR])
        QA, QB = k * fa, -k * fb
        return QA, QB, QA, -QB, -k * da, -k * db
    fa, da = orifice(pA - par[P_T], par[P_TR])
    fb, db = orifice(par[P_S] - pB, par[P_TR])
    QA, QB = -k * fa, k * fb
    return QA, QB, QB, -QA, -k * da, -k * db


def chamber_rates(pA, pB, u, x, v, par):
    """``HydraulicCylinder._rates``: dp_A/dt, dp_B/dt, the diagonal of their
    Jacobian and the coupling through the leakage."""
    stroke = par[STROKE]
    VA = par[V_A0] + par[A_A] * min(max(x, 0.0), stroke)
    VB = par[V_B0] + par[A_B] * (stroke - min(max(x, 0.0), stroke))
    QA, QB, _, _, dQA, dQB = valve(u, pA, pB, par)
    QL = par[C_L] * (pA - pB)
    kA, kB = par[BETA] / VA, par[BETA] / VB
    return (kA * (QA - par[A_A] * v - QL), kB * (QB + par[A_B] * v + QL),
            kA * (dQA - par[C_L]), kB * (dQB - par[C_L]), kA * par[C_L], kB * par[C_L])


def rates(t, x, u, par):
    """``HydraulicCylinder.derivatives``."""
    if par[HYDRAULIC] == 0.0:
        return np.zeros(2)
    dA, dB, _, _, _, _ = chamber_rates(x[0], x[1], u[0], u[2], u[3], par)
    if x[0] <= par[P_VAP] and dA < 0:
        dA = 0.0
    if x[1] <= par[P_VAP] and dB < 0:
        dB = 0.0
    return np.array([dA, dB])


def advance(x, u, h, n, par):
    """``HydraulicCylinder.advance``: backward Euler with Newton iterations
    on the two pressures, in ``n`` sub-steps of ``h / n`` [s], the
    pressures kept at or above ``p_vap``."""
    if par[HYDRAULIC] == 0.0:
        return x.copy()
    dt = h / n
    uv, xp, vp = u[0], u[2], u[3]
    pA, pB = x[0], x[1]
    pmin = par[P_VAP]
    for _ in range(n):
        a0, b0 = pA, pB
        for _ in range(30):
            fA, fB, jAA, jBB, jAB, jBA = chamber_rates(pA, pB, uv, xp, vp, par)
            rA, rB = pA - a0 - dt * fA, pB - b0 - dt * fB
            m11, m12, m21, m22 = 1.0 - dt * jAA, -dt * jAB, -dt * jBA, 1.0 - dt * jBB
            det = m11 * m22 - m12 * m21
            dA = (rA * m22 - rB * m12) / det
            dB = (m11 * rB - m21 * rA) / det
            pA, pB = max(pA - dA, pmin), max(pB - dB, pmin)
            if abs(dA) < 1e-9 * (abs(pA) + 1.0) and abs(dB) < 1e-9 * (abs(pB) + 1.0):
                break
    return np.array([pA, pB])


def outputs(t, x, u, par):
    """``HydraulicCylinder.output``; NaN where the piston is so far beyond
    its stroke that the numpy code refuses it (and names why)."""
    xp, vp = u[2], u[3]
    stroke = par[STROKE]
    over = xp - stroke if xp > stroke else (xp if xp < 0.0 else 0.0)
    if par[K_END] * abs(over) > 10.0 * par[P_S] * par[A_A]:
        return np.full(9, np.nan)
    F_end = -par[K_END] * over - (par[C_END] * vp if over != 0.0 else 0.0)
    y = np.zeros(9)
    if par[HYDRAULIC] == 0.0:
        y[0] = u[1] + F_end + u[4]
        y[1] = x[0]
        y[2] = x[1]
        return y
    pA, pB = x[0], x[1]
    QA, QB, QS, QT, _, _ = valve(u[0], pA, pB, par)
    QL = par[C_L] * (pA - pB)
    P_supply = par[P_S] * QS - par[P_T] * QT
    P_loss = P_supply - (pA * QA + pB * QB) + (pA - pB) * QL
    y[0] = pA * par[A_A] - pB * par[A_B] + F_end + u[4]
    y[1] = pA
    y[2] = pB
    y[3] = QA
    y[4] = QB
    y[5] = QS
    y[6] = QT
    y[7] = P_supply
    y[8] = P_loss
    return y
