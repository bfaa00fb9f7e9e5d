"""The rate of a crane's tip position by central differences, for the
tests of the cranes' tip outputs: the mount moved along its own motion,
the coordinates along their rates."""
import numpy as np
from crane_cosim.blocks.screw import skew
from scipy.linalg import expm


def tip_rate_by_differences(tip_p, x, u, s: float = 1e-6) -> np.ndarray:
    """``(tip_p(x+, u+) - tip_p(x-, u-)) / 2 s``: the mount turned by
    ``exp(w^ s)`` (``w`` in Frame 1) and moved by ``R_1^0 v s``, the three
    coordinates by ``u s``, at ``+s`` and ``-s`` [s]; ``tip_p(x, u)`` the
    tip's position [m], Frame 0, for the crane's state ``x`` and inputs
    ``u`` (``R_1^0`` in ``u[0:9]``, ``w`` in ``u[9:12]``, ``v`` in
    ``u[15:18]``, the mount's position in ``u[30:33]``)."""
    R10, w, v = u[:9].reshape(3, 3), u[9:12], u[15:18]
    moved = []
    for h in (s, -s):
        us, xs = u.copy(), x.copy()
        us[:9] = (R10 @ expm(skew(w) * h)).ravel()
        us[30:33] = u[30:33] + R10 @ v * h
        xs[:3] += x[3:] * h
        moved.append(tip_p(xs, us))
    return (moved[0] - moved[1]) / (2 * s)
