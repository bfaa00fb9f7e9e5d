"""The files an SSP 1.0 system names by a ``source`` attribute (an FMU, an
``.ssv`` parameter set, an ``.ssm`` parameter mapping): local files only,
relative to the ``.ssd``, inside the archive the system came from."""
from __future__ import annotations

import re
from pathlib import Path

from ..errors import CraneCosimError

__all__ = ["local_file"]


def local_file(source: str, base: Path, root: Path | None, what: str) -> Path:
    """The file a ``source`` attribute names, relative to ``base``; within
    ``root`` when the system came from an archive (``what``: the attribute's
    owner, for the sentence)."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", source)
    if scheme and len(scheme.group(1)) > 1:  # one letter: a Windows drive
        raise CraneCosimError(f"{what} is the URL {source!r}; crane-cosim reads local files only and fetches "
                              f"nothing")
    p = Path(source)
    p = p if p.is_absolute() else base / p
    if root is not None:
        resolved, top = p.resolve(), root.resolve()
        if resolved != top and top not in resolved.parents:
            raise CraneCosimError(f"{what} ({source!r}) lies outside its SSP archive")
    return p
