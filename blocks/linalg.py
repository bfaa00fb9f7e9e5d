"""Small dense solves for the integration hot path."""
from __future__ import annotations

import numpy as np
from scipy.linalg import lapack


def solve(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A^{-1} B`` by LAPACK ``dgesv`` (LU with partial pivoting).

    Same result as ``numpy.linalg.solve``; called directly because for the
    3x3 to 9x9 systems of the blocks the NumPy wrapper costs five times more
    than the factorization.  Raises ``numpy.linalg.LinAlgError`` when ``A`` is
    singular.
    """
    _, _, x, info = lapack.dgesv(A, B)
    if info != 0:
        raise np.linalg.LinAlgError(f"singular matrix (dgesv info = {info})")
    return x
