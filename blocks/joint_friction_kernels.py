"""The outputs, rates and exact step of
:class:`blocks.joint_friction.JointFriction` (and of
:class:`~blocks.joint_friction.KnuckleBoomFriction`) as plain loops over
floats, for numba to compile (``blocks/jit.py``): the block's FMU reads
its outputs at every pass of a co-simulation and steps it as often, and
the monolithic run evaluates them several times per right-hand side, in
the algebraic loop between a joint's friction torque and its reaction
(``cosim/hosts/kernel_calls.py``).

The numpy code of ``joint_friction.py`` and ``friction.py`` is the
reference; ``tests/blocks/test_joint_friction_kernels.py`` compares this
module with it: the same bits (the same expressions in the same order, and
CPython's ``math.hypot`` written out, :func:`hypot`).  The laws are those of Jarzębowska, Urbaś & Augustynek
(2018), eqs. (13)-(15): Dahl's and LuGre's bristle rates and friction
levels, the torque ``-mu f_n d / 2`` of a revolute joint and the force of a
cylinder's seals.

This module imports only math and numpy, so that it runs (slowly) without
numba; it must not import the rest of the package.

Arguments: ``x`` the states ``[z_j, E_f_j, ...]``; ``u`` the inputs (a
revolute joint's ``u_j, f_j_n1, f_j_n2``, a seal's ``u_j``); ``laws``
(n, 8) each joint's ``[model, L_s, L_k, sigma0, sigma1, sigma2, gamma,
v_S]``, ``model`` 0 none, 1 Dahl, 2 LuGre; ``revolute`` (n) 1 for a
revolute joint, 0 for a seal; ``first`` (n) each joint's first input;
``half_d`` (n) half its pin diameter (1 for a seal).
"""
import math

import numpy as np

# with the kernels every block's module holds: finite, inputs_after_step, inputs_at_middle
from .kernel_helpers import finite, inputs_after_step, inputs_at_middle

NONE, DAHL, LUGRE = 0, 1, 2


def _two_product(x, y):
    """``x y`` and its rounding error, exactly (Dekker's product by
    Veltkamp's split)."""
    z = x * y
    c = 134217729.0 * x
    xh = c - (c - x)
    xl = x - xh
    c = 134217729.0 * y
    yh = c - (c - y)
    yl = y - yh
    return z, ((xh * yh - z) + xh * yl + xl * yh) + xl * yl


def hypot(a, b):
    """``math.hypot(a, b)`` to the bit: CPython's ``vector_norm`` (a scaled,
    compensated sum of squares, its square root corrected once), not the C
    library's ``hypot``, which numba calls and which rounds apart in the last
    bit now and then: a joint's load, and so its friction torque, the same
    bits as the numpy code's, so that a run through this module is the run
    through the block."""
    a = abs(a)
    b = abs(b)
    big = max(a, b)
    if math.isinf(big):
        return big
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if big == 0.0:
        return big
    e = math.frexp(big)[1]
    if e < -1023:  # subnormal: 2**-e would overflow
        tiny = 2.2250738585072014e-308
        return tiny * hypot(a / tiny, b / tiny)
    scale = math.ldexp(1.0, -e)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for x in (a * scale, b * scale):
        hi, lo = _two_product(x, x)
        s = csum + hi
        frac2 += (csum - s) + hi
        csum = s
        frac1 += lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _two_product(-h, h)
    s = csum + hi
    frac2 += (csum - s) + hi
    csum = s
    frac1 += lo
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return h / scale


def stribeck(law, v):
    """``friction.stribeck``: LuGre's ``g(v)`` (eq. 14), Dahl's ``L_s``."""
    if law[0] == DAHL:
        return law[1]
    r = abs(v) / law[7]
    if r < 40.0:
        return law[2] + (law[1] - law[2]) * math.exp(-r * r)
    return law[2]


def bristle_rate(law, v, z):
    """``friction.bristle_rate``: ``dz/dt`` of eq. (14)."""
    if law[0] == NONE or v == 0.0:
        return 0.0
    w = 1.0 - law[3] * z * math.copysign(1.0, v) / stribeck(law, v)
    if law[0] == DAHL and law[6] != 1.0:
        w = math.copysign(abs(w) ** law[6], w)
    return v * w


def level(law, v, z):
    """``friction.level``: the friction level of eq. (15)."""
    if law[0] == NONE:
        return 0.0
    if law[0] == DAHL:
        return law[3] * z
    return law[3] * z + law[4] * bristle_rate(law, v, z) + law[5] * v


def outputs(x, u, laws, revolute, first, half_d):
    """``JointFriction.output``: per revolute joint ``[tau_f, mu, z, P_f,
    E_f]``, per seal ``[F_f, z, P_f, E_f]``, then ``P_f`` and ``E_f`` of all."""
    n = laws.shape[0]
    size = 2
    for i in range(n):
        size += 5 if revolute[i] else 4
    y = np.empty(size)
    k = 0
    P_total = 0.0
    E_total = 0.0
    for i in range(n):
        j = first[i]
        v = u[j]
        lever = hypot(u[j + 1], u[j + 2]) * half_d[i] if revolute[i] else 1.0
        z = x[2 * i]
        E = x[2 * i + 1]
        mu = level(laws[i], v, z)
        F = -mu * lever
        P = -F * v
        P_total += P
        E_total += E
        y[k] = F
        k += 1
        if revolute[i]:
            y[k] = mu
            k += 1
        y[k] = z
        y[k + 1] = P
        y[k + 2] = E
        k += 3
    y[k] = P_total
    y[k + 1] = E_total
    return y


def rates(x, u, laws, revolute, first, half_d):
    """``JointFriction.derivatives``: per joint ``[dz/dt, dE_f/dt]``.
    (Not named ``derivatives``: a compiled block's whole step takes a
    kernel of that name with the time first, ``blocks/stepping.py``.)"""
    n = laws.shape[0]
    dx = np.zeros(2 * n)
    for i in range(n):
        j = first[i]
        v = u[j]
        lever = hypot(u[j + 1], u[j + 2]) * half_d[i] if revolute[i] else 1.0
        z = x[2 * i]
        dx[2 * i] = bristle_rate(laws[i], v, z)
        dx[2 * i + 1] = level(laws[i], v, z) * lever * v
    return dx


def _relax(law, w0, k, h):
    """``friction._relax``: ``w(h)`` and ``int_0^h w dt`` for ``dw/dt = -k
    sgn(w) |w|^gamma``."""
    a0 = abs(w0)
    kh = k * h
    if a0 == 0.0 or kh == 0.0:
        return w0, w0 * h
    gamma = law[6] if law[0] == DAHL else 1.0
    if gamma == 1.0:
        decay = math.exp(-kh)
        return w0 * decay, -w0 * math.expm1(-kh) / k
    a1 = (a0 ** (1.0 - gamma) + (gamma - 1.0) * kh) ** (1.0 / (1.0 - gamma))
    if kh * a0 ** (gamma - 1.0) < 1e-6:
        integral = a0 * h - 0.5 * k * h * h * a0 ** gamma
    elif gamma == 2.0:
        integral = math.log1p(k * a0 * h) / k
    else:
        integral = (a0 ** (2.0 - gamma) - a1 ** (2.0 - gamma)) / ((2.0 - gamma) * k)
    return math.copysign(a1, w0), math.copysign(integral, w0)


def advance_joint(law, v, z, h):
    """``friction.advance``: the bristle deflection after ``h`` seconds at
    the constant rate ``v`` and the integral of the level over them."""
    if law[0] == NONE:
        return z, 0.0
    if v == 0.0:
        return z, h * level(law, 0.0, z)
    s = math.copysign(1.0, v)
    L = stribeck(law, v)
    w0 = 1.0 - law[3] * z * s / L
    w1, w_int = _relax(law, w0, law[3] * abs(v) / L, h)
    z1 = s * L * (1.0 - w1) / law[3]
    z_int = s * L * (h - w_int) / law[3]
    if law[0] == DAHL:
        return z1, law[3] * z_int
    return z1, law[3] * z_int + law[4] * (z1 - z) + law[5] * v * h


def advance(x, u, h, laws, revolute, first, half_d):
    """``JointFriction.advance``: the states after ``h`` seconds at the
    rates held, exact for each joint."""
    x = x.copy()
    for i in range(laws.shape[0]):
        j = first[i]
        v = u[j]
        lever = hypot(u[j + 1], u[j + 2]) * half_d[i] if revolute[i] else 1.0
        z, integral = advance_joint(laws[i], v, x[2 * i], h)
        x[2 * i] = z
        x[2 * i + 1] += integral * lever * v
    return x
