"""Kernel modules compiled by numba, with a compile cache that outlives the run.

A kernel module (such as ``blocks/knuckle_boom_kernels.py``) is plain Python
over floats and numpy arrays that imports of the package only the kernels it
shares (``from .kernel_helpers import _cross, _lu_solve``, or of another
kernel module), whose definitions are joined to its text when it is loaded,
so that it is compiled from one file, its content hash covering them.
:func:`load_kernels` returns it with every function it defines compiled by
``numba.njit(cache=True)``, or ``None`` when numba is not installed or
``CRANE_COSIM_NUMBA=0`` is set; the blocks then run their numpy code, which
gives the same results (the tests compare the two) and is slower.

Compiling takes a while; numba's cache keeps the machine code next
to the source file (``__pycache__``), keyed on its path.  An FMU unpacks its
sources to a new temporary folder for every run, so the module is loaded
from a copy at a path that depends on its content only:
``<cache>/kernels-<sha256>/<name>.py``, ``<cache>`` being
``$CRANE_COSIM_CACHE_DIR`` or the user's cache folder (``~/.cache/crane-cosim``,
``%LOCALAPPDATA%\\crane-cosim`` on Windows).  If the cache folder cannot
be written, the copy goes to a temporary folder and is compiled afresh in
every process, and the process says so once, with the reason
(:func:`cache_problem`).

To tell the user what happens meanwhile: :func:`kernels_compiled` says
whether the cache holds machine code of every function of a kernel module
for this machine, Python and numba, and :func:`compile_events` reports each
function as numba starts and finishes it.  Whoever triggers a compilation,
it announces itself: a line on stderr naming the block, that it is once
per machine and where it is kept (:func:`kept_where`), unless a caller
reports it itself (``compile_word.py``: a line of its own and a bar).
"""
from __future__ import annotations

import ast
import atexit
import contextlib
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
import types
from pathlib import Path

from .cache_folder import cache_dir, cache_problem, kept_where, tell_cache_problem
from .kernel_texts import KernelSources, parsed

__all__ = ["load_kernels", "cache_dir", "kernels_compiled", "kernel_functions", "compile_events", "dispatcher_cached",
           "cache_problem", "kept_where", "blocks_of", "announcement"]

# Read at import (KernelSources says why), joined at first use.
_SOURCES = KernelSources(Path(__file__).parent)


def _digest(name: str) -> str:
    return hashlib.sha256(_SOURCES[name]).hexdigest()[:16]


def _stable_path(name: str, digest: str) -> Path:
    """Where the kernel module's source with hash ``digest`` is kept: a path
    that depends only on its content."""
    return cache_dir() / f"kernels-{digest}" / f"{name}.py"


def _stable_copy(name: str, text: bytes, digest: str) -> Path:
    """The kernel source written (once) to :func:`_stable_path`, or, if the
    cache folder cannot be written, to a fresh temporary folder."""
    target = _stable_path(name, digest)
    folder = target.parent
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
        folder = Path(tempfile.mkdtemp(prefix="crane_cosim_kernels_"))
        # nothing in it outlives the process (numba cannot cache there either)
        atexit.register(shutil.rmtree, folder, True)
        target = folder / f"{name}.py"
        target.write_bytes(text)
        return target


def _numba():
    """numba, or ``None`` when it is not installed or switched off.  Under
    continuous integration (``CI`` set) a missing numba is an error: the
    compiled kernels must be the ones tested there."""
    if os.environ.get("CRANE_COSIM_NUMBA", "1").strip() == "0":
        return None
    try:
        # numba only where kernels compile or load (a block without any never loads it)
        import numba
    except ImportError:
        if under_ci():
            raise
        return None
    return numba


def under_ci() -> bool:
    """Whether this runs under continuous integration (``CI`` set, as CI
    services set it): there a kernel that cannot compile is an error, never
    a fallback to the numpy code."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _module_name(name: str) -> str:
    return f"crane_cosim_{name}_{_digest(name)}"


def _exec_compiled(module_name: str, path: Path, numba) -> types.ModuleType:
    """The module at ``path`` with every function it defines wrapped by
    ``numba.njit(cache=True)`` (nothing is compiled yet)."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Replaced in the module's namespace, so that the kernels calling each
    # other find the compiled versions when numba compiles them (lazily, at
    # the first call).
    for attr, value in list(vars(module).items()):
        if isinstance(value, types.FunctionType) and value.__module__ == module_name:
            setattr(module, attr, numba.njit(cache=True)(value))
    return module


def load_kernels(name: str) -> types.ModuleType | None:
    """The kernel module ``blocks/<name>.py`` with its functions compiled by
    numba, or ``None`` without numba (see the module docstring).  One module
    object per source content and process."""
    numba = _numba()
    if numba is None:
        return None
    module_name = _module_name(name)
    if module_name in sys.modules:
        return sys.modules[module_name]
    tell_cache_problem()
    path = _stable_copy(name, _SOURCES[name], _digest(name))
    module = _exec_compiled(module_name, path, numba)
    sys.modules[module_name] = module
    _listen(numba)
    _LOADED[module_name] = name
    return module


#: kernel modules loaded in this process: module name -> kernel module (``blocks/<name>.py``)
_LOADED: dict[str, str] = {}
#: kernel modules whose compilation was announced in this process
_ANNOUNCED: set[str] = set()
#: kernel modules whose compilation a caller is reporting (:func:`compile_events`): not announced
_REPORTED: list[str] = []
#: numba's compile events' listener, once registered
_LISTENER: list = []


def _kernel_of(module_name: str) -> str | None:
    """The kernel module (``blocks/<name>.py``) that the module ``module_name``
    is, or whose compiled whole step it is (``blocks/stepping.py``)."""
    for loaded, name in _LOADED.items():
        if module_name == loaded or module_name.startswith(f"{loaded}_step_"):
            return name
    return None


def blocks_of(name: str) -> list[str]:
    """The model names of the blocks whose kernels are the module
    ``blocks/<name>.py`` (by their ``kernel_module``), in alphabetical
    order, among the blocks the process has imported (found in the loaded
    modules of this package, without importing any: a block imports this
    module; an FMU's process holds its own block alone)."""
    found = set()
    for module_name, module in list(sys.modules.items()):
        if module_name.startswith(f"{__package__}."):
            found.update(value.model_name for value in list(vars(module).values())
                         if isinstance(value, type) and value.__module__ == module_name
                         and getattr(value, "kernel_module", None) == name)
    return sorted(found)


def announcement(name: str) -> str:
    """The line said before numba compiles the kernel module ``blocks/<name>.py``."""
    models = blocks_of(name)
    what = f"the kernels of {' and '.join(models)}" if models else "the kernels"
    return f"compiling {what} (blocks/{name}.py) with numba ({kept_where()}) ..."


def _announce(module_name: str) -> None:
    """Say, once per kernel module and process, that numba starts compiling
    it, unless a caller reports it (:func:`compile_events`)."""
    name = _kernel_of(module_name)
    if name is None or name in _ANNOUNCED or name in _REPORTED:
        return
    _ANNOUNCED.add(name)
    print(announcement(name), file=sys.stderr, flush=True)


def _listen(numba) -> None:
    """Register, once per process, the listener of numba's compile events
    that announces a kernel module's compilation (:func:`_announce`)."""
    if _LISTENER:
        return
    # numba's events only where numba is in use
    from numba.core import event

    class _Announcer(event.Listener):
        def on_start(self, ev):
            _announce(ev.data["dispatcher"].py_func.__module__)

        def on_end(self, ev):
            pass

    _LISTENER.append(_Announcer())
    event.register("numba:compile", _LISTENER[0])


def kernel_functions(name: str) -> list[str]:
    """Names of the functions of the kernel module ``blocks/<name>.py``, in
    source order: the functions numba compiles (read from the source, nothing
    is imported)."""
    return [node.name for node in parsed(_SOURCES[name]).body if isinstance(node, ast.FunctionDef)]


def kernels_compiled(name: str) -> bool:
    """Whether loading the kernel module ``blocks/<name>.py`` finds machine
    code of every one of its functions in the cache (:func:`cache_dir`) for
    this machine, Python and numba, so that nothing is compiled.  ``True``
    without numba (nothing will be compiled).

    Takes a fraction of a second: the module is executed, nothing compiled
    (:func:`functions_cached`)."""
    numba = _numba()
    if numba is None:
        return True
    tell_cache_problem()
    path = _stable_path(name, _digest(name))
    if not path.is_file() or path.read_bytes() != _SOURCES[name]:
        return False
    # a module name of its own: the check must not stand in for load_kernels
    return functions_cached(f"{_module_name(name)}_check", path, kernel_functions(name), numba)


def functions_cached(module_name: str, path: Path, functions, numba) -> bool:
    """Whether numba's cache holds machine code, for this machine, Python
    and numba, of each of ``functions`` of the module at ``path``, executed
    under ``module_name`` (nothing compiled).  Asks each function's cache
    index whether an entry with this machine's key is there and fresh
    (numba's own test when it loads; its ``_cache`` attributes are
    internal, so a numba that lays them out otherwise falls back to "an
    index file exists for every function")."""
    module = _exec_compiled(module_name, path, numba)
    return all(dispatcher_cached(getattr(module, fn), path) for fn in functions)


def dispatcher_cached(dispatcher, path: Path) -> bool:
    """Whether numba's cache holds machine code of ``dispatcher`` (a function
    of the module at ``path``, ``njit(cache=True)``) for this machine,
    Python and numba: :func:`functions_cached` of one."""
    try:
        cache = dispatcher._cache
        codegen = dispatcher.targetctx.codegen()
        index = cache._cache_file._load_index()
        return any(cache._index_key(key[0], codegen) == key for key in index)
    except AttributeError:
        return bool(list((path.parent / "__pycache__").glob(f"{path.stem}.{dispatcher.__name__}-*.nbi")))


@contextlib.contextmanager
def compile_events(name: str, callback, modules=None):
    """While active, ``callback(event, function)`` is called as numba starts
    (``event == "start"``) and finishes (``"end"``) compiling each function
    of the kernel module ``blocks/<name>.py`` and of its compiled whole step
    (``function``: its name), or, given ``modules``, of the modules of those
    names.
    A function loaded from the cache reports nothing.  numba compiles a
    function's callees while compiling it, so their events nest in its
    own."""
    numba = _numba()
    if numba is None:
        yield
        return
    # numba's events only where numba is in use
    from numba.core import event

    prefix = _module_name(name) if not modules else None

    class _Listener(event.Listener):
        def _report(self, kind, ev):
            fn = ev.data["dispatcher"].py_func
            # the module's own functions, and those of its compiled step
            # (blocks/stepping.py: a module named after it)
            if fn.__module__ in modules if modules else (fn.__module__ == prefix or
                                                         fn.__module__.startswith(f"{prefix}_step_")):
                callback(kind, fn.__name__)

        def on_start(self, ev):
            self._report("start", ev)

        def on_end(self, ev):
            self._report("end", ev)

    # the caller says what is compiled: no announcement of its own beside it
    _REPORTED.append(name)
    try:
        with event.install_listener("numba:compile", _Listener()):
            yield
    finally:
        _REPORTED.remove(name)
