"""The FMUs' own Linux binary: a small C shim in front of pythonfmu's binary.

pythonfmu's binary runs only where the Python C API is already loaded with
global symbols (a Python host), and writes into freed memory at process exit
(``native/fmi2_shim.c`` and ``docs/fmus.md`` explain both).  The shim,
compiled here from ``native/fmi2_shim.c`` by the machine's C compiler, loads
the building interpreter's libpython itself, starts Python in a C host so
that it finds the building environment's packages, forwards every FMI call
to pythonfmu's binary, and resets that binary's interpreter state before
its exit-time destructors run.

The build records the building Python in the shim (its executable, whose
``pyvenv.cfg`` or installation prefix gives ``sys.path``, and its shared
libpython).  The output is byte-for-byte the same for the same source,
compiler and Python (no timestamps, no build id, no source paths).

Without a C compiler, Python's headers or a shared libpython (or off
Linux), the FMUs keep pythonfmu's binary and :func:`fmu_binary` prints one
warning saying what that means.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import CraneCosimError
from .adapter import DERIVATIVE_VR

__all__ = ["SHIM_SOURCE", "PYTHONFMU_BINARY", "BuildPython", "build_python", "find_compiler",
           "shim_unavailable_reason", "compile_shim", "fmu_binary", "binary_record"]

HERE = Path(__file__).resolve().parent
#: The C source of the shim (installed with the package).
SHIM_SOURCE = HERE / "native" / "fmi2_shim.c"
#: File name of pythonfmu's binary beside the shim in ``binaries/linux64`` (the
#: shim loads it by this name from its own folder).
PYTHONFMU_BINARY = "libpythonfmu-export.so"
_COMPILE_TIMEOUT = 120  # seconds; a compile takes well under one


@dataclass(frozen=True)
class BuildPython:
    """What the shim records of the interpreter that builds the FMU."""
    executable: str        #: ``sys.executable``, not resolved: a venv's ``bin/python`` finds the venv
    libpython: str         #: path of its shared library, or "" if it has none
    soname: str            #: the library's soname, searched by the dynamic loader if the path is gone
    include: str           #: folder holding ``Python.h``
    version: str           #: "3.11"


def build_python() -> BuildPython:
    """The running interpreter, as the shim would record it."""
    soname = sysconfig.get_config_var("INSTSONAME") or ""
    libpython = ""
    if ".so" in soname:
        for folder in (sysconfig.get_config_var("LIBDIR"), Path(sys.base_prefix) / "lib"):
            if folder and (Path(folder) / soname).is_file():
                libpython = str(Path(folder) / soname)
                break
    return BuildPython(executable=os.path.abspath(sys.executable), libpython=libpython, soname=soname,
                       include=sysconfig.get_paths()["include"], version=f"{sys.version_info[0]}.{sys.version_info[1]}")


def find_compiler() -> list[str] | None:
    """The C compiler command: ``$CC`` if set, else the first of cc, gcc,
    clang on PATH; None if there is none."""
    cc = os.environ.get("CC", "").strip()
    candidates = [shlex.split(cc)] if cc else [["cc"], ["gcc"], ["clang"]]
    for command in candidates:
        found = shutil.which(command[0])
        if found:
            return [found, *command[1:]]
    return None


def shim_unavailable_reason() -> str | None:
    """Why the shim cannot be built here (a clause for a sentence), or None."""
    if not sys.platform.startswith("linux"):
        return f"the FMUs' own binary is built for Linux only (this is {sys.platform})"
    if find_compiler() is None:
        cc = os.environ.get("CC", "").strip()
        return f"the C compiler CC={cc} was not found" if cc else "no C compiler (cc, gcc or clang) was found"
    py = build_python()
    if not (Path(py.include) / "Python.h").is_file():
        return f"Python's C headers are missing ({Path(py.include) / 'Python.h'})"
    if not py.libpython:
        return f"{py.executable} has no shared libpython ({py.soname or 'none'}) for a C host to load"
    return None


def _c_string(text: str) -> str:
    """``text`` as a C string literal (for a -D definition)."""
    safe = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+ :=,@~")
    return '"' + "".join(chr(b) if b in safe else f"\\{b:03o}" for b in text.encode()) + '"'


def _compile_command(cc: list[str], py: BuildPython, source: Path, out: Path) -> list[str]:
    return [*cc, "-std=gnu11", "-O2", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra",
            "-I", py.include,
            f"-DCRANE_COSIM_LIBPYTHON={_c_string(py.libpython)}",
            f"-DCRANE_COSIM_LIBPYTHON_SONAME={_c_string(py.soname)}",
            f"-DCRANE_COSIM_PYTHON={_c_string(py.executable)}",
            f"-DCRANE_COSIM_DERIVATIVE_VR={DERIVATIVE_VR}u",
            # reproducible: no source folder in the output, no build id, no symbol table
            f"-ffile-prefix-map={source.parent}=.", "-Wl,--build-id=none", "-s",
            # every symbol resolved against libc: no Python symbol left undefined
            "-Wl,-z,defs", "-Wl,-z,noexecstack",
            "-o", str(out), str(source), "-ldl"]


def compile_shim(out: Path, python: BuildPython | None = None, cc: list[str] | None = None,
                 source: Path = SHIM_SOURCE) -> Path:
    """Compile the shim for ``python`` (default: this interpreter) into ``out``.

    Raises :class:`CraneCosimError` naming the compiler and the source file
    if the compiler fails."""
    python = python or build_python()
    cc = cc or find_compiler()
    if cc is None:
        raise CraneCosimError(f"cannot compile the FMU binary {source}: no C compiler found")
    command = _compile_command(cc, python, Path(source), Path(out))
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=_COMPILE_TIMEOUT,
                              env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CraneCosimError(f"compiling the FMU binary {source} with {shlex.join(cc)} failed: {exc}") from None
    if proc.returncode != 0:
        raise CraneCosimError(f"compiling the FMU binary {source} with {shlex.join(cc)} failed "
                              f"(exit status {proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return Path(out)


@functools.lru_cache(maxsize=None)
def _shim_bytes(key: str, python: BuildPython, cc: tuple[str, ...]) -> bytes:
    del key  # the cache key: source text, compiler and interpreter
    with tempfile.TemporaryDirectory(prefix="crane_cosim_shim_") as tmp:
        return compile_shim(Path(tmp) / "shim.so", python, list(cc)).read_bytes()


_warned = False


def fmu_binary() -> bytes | None:
    """The shim compiled for this interpreter (once per process), or None
    when it cannot be built here; then one warning goes to stderr, once."""
    global _warned
    reason = shim_unavailable_reason()
    if reason is None:
        cc, py = tuple(find_compiler()), build_python()
        # the shim's source with the headers it includes
        sources = b"".join(f.read_bytes() for f in [SHIM_SOURCE, *sorted(SHIM_SOURCE.parent.glob("*.h"))])
        key = hashlib.sha256(sources + repr((cc, py)).encode()).hexdigest()
        return _shim_bytes(key, py, cc)
    if not _warned:
        _warned = True
        soname = build_python().soname or f"libpython{sys.version_info[0]}.{sys.version_info[1]}.so"
        print(f"crane-cosim: warning: {reason}, so the FMUs keep pythonfmu's own binary: Python hosts run "
              f"them as before, but a C host (libcosim, OMSimulator, ecos) must preload {soname} "
              f"(LD_PRELOAD) and may abort at exit.", file=sys.stderr)
    return None


def binary_record() -> str:
    """One line saying which Linux binary an FMU built now carries (recorded
    in the FMU: an FMU with another line is rebuilt)."""
    reason = shim_unavailable_reason()
    if reason is not None:
        return f"linux64 binary: pythonfmu's own ({reason})"
    py = build_python()
    return f"linux64 binary: crane-cosim shim for Python {py.version} at {py.executable} ({py.libpython})"
