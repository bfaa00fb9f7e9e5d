"""Where numba keeps the compiled master step's machine code: a folder of
the project's kernel cache (``blocks/jit.py``'s ``cache_dir``) named after
the content of every module the step is compiled from.

numba stamps a cached function by its own source file only; the step's
machine code holds the functions of the other modules it calls
(``quadratic_kernels.py``, ``point_kernels.py`` ...), and a change of one of those alone
would otherwise load the old code.  A folder per content of all of them
gives a changed source a new cache, as the blocks' kernels have.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ...blocks.jit import cache_dir

__all__ = ["MODULES", "sources_digest", "folder", "install"]

_HERE = Path(__file__).parent
#: the modules the compiled step is made of
MODULES = ("calls", "component", "held", "layout", "point_kernels", "qn", "quadratic_kernels", "step")


def sources_digest() -> str:
    """A digest of the content of :data:`MODULES`."""
    h = hashlib.sha256()
    for name in MODULES:
        h.update((_HERE / f"{name}.py").read_bytes())
    return h.hexdigest()[:16]


def folder() -> Path:
    """The folder numba keeps the master step's machine code in (:func:`install`)."""
    return cache_dir() / f"master-{sources_digest()}"


def install() -> None:
    """Have numba cache the functions of this package in
    ``<cache_dir>/master-<digest>`` (before they are defined: numba picks a
    function's cache folder when it is decorated).  Where numba's internal
    classes are laid out otherwise, its own cache beside the sources."""
    try:  # numba, loaded by the compiled package that calls this, where it installs its cache
        from numba.core import caching

        base, mixin, impl = caching._CacheLocator, caching._SourceFileBackedLocatorMixin, caching.CacheImpl
    except AttributeError:
        return
    digest = sources_digest()
    kept = str(folder())

    class _Locator(mixin, base):
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno

        def get_cache_path(self):
            return kept

        def get_source_stamp(self):
            return digest

        @classmethod
        def from_function(cls, py_func, py_file):
            if Path(py_file).resolve().parent != _HERE.resolve():
                return None
            return super().from_function(py_func, py_file)

    if not any(getattr(c, "__qualname__", "") == _Locator.__qualname__ and c.__module__ == __name__
               for c in impl._locator_classes):
        impl._locator_classes.insert(0, _Locator)
