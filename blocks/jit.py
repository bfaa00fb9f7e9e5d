"""Kernel modules compiled by numba, with a compile cache that outlives the
run.

A kernel module (such as ``blocks/knuckle_boom_kernels.py``) is plain Python
over floats and numpy arrays that imports nothing of the package.
:func:`load_kernels` returns it with every function it defines compiled by
``numba.njit(cache=True)``, or ``None`` when numba is not installed or
``CRANE_COSIM_NUMBA=0`` is set; the blocks then run their numpy code, which
gives the same results (the tests compare the two) and is slower.

Compiling takes tens of seconds; numba's cache keeps the machine code next
to the source file (``__pycache__``), keyed on its path.  An FMU unpacks its
sources to a new temporary folder for every run, so the module is loaded
from a copy at a path that depends on its content only:
``<cache>/kernels-<sha256>/<name>.py``, ``<cache>`` being
``$CRANE_COSIM_CACHE_DIR`` or the user's cache folder (``~/.cache/crane-cosim``,
``%LOCALAPPDATA%\\crane-cosim`` on Windows).  Every FMU and every run with
the same kernel source then shares one compiled copy; a changed source gets
a new folder.  If the cache folder cannot be written, the copy goes to a
temporary folder and is compiled afresh in every process.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import types
from pathlib import Path

__all__ = ["load_kernels", "cache_dir"]

# Read at import: the package may be imported from an FMU's temporary folder
# that is gone by the time a later instance asks for the kernels (all FMUs of
# one build share one imported copy of the package).
_SOURCES = {path.stem: path.read_bytes() for path in Path(__file__).parent.glob("*_kernels.py")}


def cache_dir() -> Path:
    """Folder of the kernels' stable copies and their compiled code."""
    if os.environ.get("CRANE_COSIM_CACHE_DIR"):
        return Path(os.environ["CRANE_COSIM_CACHE_DIR"])
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "crane-cosim"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crane-cosim"


def _stable_copy(name: str, text: bytes, digest: str) -> Path:
    """The kernel source written (once) to a path that depends only on its
    content, or, if the cache folder cannot be written, to a fresh
    temporary folder."""
    folder = cache_dir() / f"kernels-{digest}"
    target = folder / f"{name}.py"
    try:
        if not target.exists() or target.read_bytes() != text:
            folder.mkdir(parents=True, exist_ok=True)
            # written beside and renamed: a concurrent run sees all or nothing
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(text)
            os.replace(tmp, target)
        return target
    except OSError:
        target = Path(tempfile.mkdtemp(prefix="crane_cosim_kernels_")) / f"{name}.py"
        target.write_bytes(text)
        return target


def load_kernels(name: str) -> types.ModuleType | None:
    """The kernel module ``blocks/<name>.py`` with its functions compiled by
    numba, or ``None`` without numba (see the module docstring).  One module
    object per source content and process."""
    if os.environ.get("CRANE_COSIM_NUMBA", "1").strip() == "0":
        return None
    try:
        import numba
    except ImportError:
        return None
    text = _SOURCES[name]
    digest = hashlib.sha256(text).hexdigest()[:16]
    module_name = f"crane_cosim_{name}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    path = _stable_copy(name, text, digest)
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Replaced in the module's namespace, so that the kernels calling each
    # other find the compiled versions when numba compiles them (lazily, at
    # the first call).
    for attr, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and value.__module__ == module_name:
            setattr(module, attr, numba.njit(cache=True)(value))
    sys.modules[module_name] = module
    return module
