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

The binaries of FMUs that run out of process are compiled here too: the
proxy (``native/fmi2_proxy.c``) and the program of the FMU's process
(``native/fmi2_child.c``) for Linux by the machine's C compiler
(:func:`proxy_binary`, :func:`process_program`), and for Windows by the
MinGW-w64 cross compiler (:func:`windows_out_of_process`).
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

from ..blocks.cache_folder import cache_dir
from ..errors import CraneCosimError
from .adapter import DERIVATIVE_VR

__all__ = ["SHIM_SOURCE", "PROXY_SOURCE", "PROCESS_SOURCE", "PYTHONFMU_BINARY", "PROCESS_PROGRAM", "INNER_FOLDER",
           "WINDOWS_PROCESS_PROGRAM", "WINDOWS_COMPILER", "BuildPython", "build_python", "find_compiler",
           "shim_unavailable_reason", "compile_shim", "fmu_binary", "binary_record", "proxy_binary", "process_program",
           "windows_unavailable_reason", "windows_out_of_process"]

HERE = Path(__file__).resolve().parent
#: The C source of the shim (installed with the package).
SHIM_SOURCE = HERE / "native" / "fmi2_shim.c"
#: The C source of the out-of-process proxy, an FMU's binary that runs each
#: instance in a process of its own (``native/fmi2_proxy.c``).
PROXY_SOURCE = HERE / "native" / "fmi2_proxy.c"
#: The C source of the program that runs an instance for the proxy
#: (``native/fmi2_child.c``).
PROCESS_SOURCE = HERE / "native" / "fmi2_child.c"
#: The program's file name, and the folder of ``binaries/linux64`` that
#: holds it with the in-process binary it runs (the proxy finds both there).
PROCESS_PROGRAM = "crane-cosim-fmu-process"
INNER_FOLDER = "crane_cosim"
#: The program's file name in ``binaries/win64/crane_cosim``.
WINDOWS_PROCESS_PROGRAM = PROCESS_PROGRAM + ".exe"
#: The cross compiler that builds the Windows proxy and program on Linux
#: (Debian: gcc-mingw-w64-x86-64, with zlib's static library from
#: libz-mingw-w64-dev); ``$CRANE_COSIM_WINDOWS_CC`` overrides it.
WINDOWS_COMPILER = "x86_64-w64-mingw32-gcc"
#: File name of pythonfmu's binary beside the shim in ``binaries/linux64`` (the
#: shim loads it by this name from its own folder).
PYTHONFMU_BINARY = "libpythonfmu-export.so"
_COMPILE_TIMEOUT = 120  # seconds; a compile takes well under one


@dataclass(frozen=True)
class BuildPython:
    """What the shim records of the interpreter that builds the FMU."""
    executable: str        #: ``sys.executable`` (its versioned name), not resolved: a venv's ``bin/python`` finds the venv
    libpython: str         #: path of its shared library, or "" if it has none
    soname: str            #: the library's soname, searched by the dynamic loader if the path is gone
    include: str           #: folder holding ``Python.h``
    version: str           #: "3.11"


def _executable() -> str:
    """``sys.executable``, absolute, under its versioned name (``python3.11``)
    when that name beside it is the same program: ``python -m crane_cosim``
    and the ``crane-cosim`` script (whose first line names ``python3.11``)
    then build the same shim and take each other's FMUs as current."""
    exe = os.path.abspath(sys.executable)
    versioned = os.path.join(os.path.dirname(exe), f"python{sys.version_info[0]}.{sys.version_info[1]}")
    if versioned != exe and os.path.isfile(versioned) and os.path.realpath(versioned) == os.path.realpath(exe):
        return versioned
    return exe


def build_python() -> BuildPython:
    """The running interpreter, as the shim would record it."""
    soname = sysconfig.get_config_var("INSTSONAME") or ""
    libpython = ""
    if ".so" in soname:
        for folder in (sysconfig.get_config_var("LIBDIR"), Path(sys.base_prefix) / "lib"):
            if folder and (Path(folder) / soname).is_file():
                libpython = str(Path(folder) / soname)
                break
    return BuildPython(executable=_executable(), libpython=libpython, soname=soname,
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
    _run_compiler(_compile_command(cc, python, Path(source), Path(out)), Path(source), cc)
    return Path(out)


def _shim_bytes(python: BuildPython, cc: tuple[str, ...]) -> bytes:
    with tempfile.TemporaryDirectory(prefix="crane_cosim_shim_") as tmp:
        return compile_shim(Path(tmp) / "shim.so", python, list(cc)).read_bytes()


_warned = False


def fmu_binary() -> bytes | None:
    """The shim compiled for this interpreter (once per machine), or None
    when it cannot be built here; then one warning goes to stderr, once."""
    global _warned
    reason = shim_unavailable_reason()
    if reason is None:
        cc, py = tuple(find_compiler()), build_python()
        return _kept("shim", cc, repr(py), lambda: (_shim_bytes(py, cc),))[0]
    if not _warned:
        _warned = True
        soname = build_python().soname or f"libpython{sys.version_info[0]}.{sys.version_info[1]}.so"
        print(f"crane-cosim: warning: {reason}, so the FMUs keep pythonfmu's own binary: Python hosts run "
              f"them as before, but a C host (libcosim, OMSimulator, ecos) must preload {soname} "
              f"(LD_PRELOAD) and may abort at exit.", file=sys.stderr)
    return None


def _native_sources() -> bytes:
    return b"".join(f.read_bytes() for f in sorted(SHIM_SOURCE.parent.glob("*.[ch]")))


@functools.lru_cache(maxsize=None)
def _compiler_identity(cc: tuple[str, ...]) -> str:
    """What tells a compiler from another of the same command: where its
    driver is and the version it states."""
    try:
        version = subprocess.run([*cc, "--version"], capture_output=True, text=True,
                                 timeout=_COMPILE_TIMEOUT).stdout
    except (OSError, subprocess.TimeoutExpired):
        version = ""
    return f"{shutil.which(cc[0])}\n{version}"


#: the binaries this process compiled or read back, by key
_KEPT: dict[str, tuple[bytes, ...]] = {}


def _kept(kind: str, cc: tuple[str, ...], extra: str, make) -> tuple[bytes, ...]:
    """The binaries ``make()`` compiles from the native sources with
    ``cc``, compiled once per machine (and once per process, the only copy
    this process holds): kept in ``<cache>/native/<key>/``,
    ``key`` a hash of the sources, the compiler command, its version and
    ``extra`` (the interpreter a shim is built for), and read back by every
    later process instead of compiling again (seconds each time: every
    process that built an FMU or ran one out of process compiled them).
    Where the cache folder cannot be written they are compiled once per
    process."""
    digest = hashlib.sha256(b"\0".join([_native_sources(), repr(cc).encode(),
                                        _compiler_identity(cc).encode(), extra.encode()]))
    key = f"{kind}-{digest.hexdigest()[:20]}"
    if key in _KEPT:
        return _KEPT[key]
    folder = cache_dir() / "native" / key
    try:
        _KEPT[key] = tuple(f.read_bytes() for f in sorted(folder.glob("*.bin")))
    except OSError:
        _KEPT[key] = ()
    if not _KEPT[key]:
        _KEPT[key] = made = tuple(make())
        try:  # whole or not at all: the folder is renamed into place once written
            folder.parent.mkdir(parents=True, exist_ok=True)
            part = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=folder.parent))
            for i, data in enumerate(made):
                (part / f"{i}.bin").write_bytes(data)
            try:
                part.rename(folder)
            except OSError:  # another process kept them first
                shutil.rmtree(part, ignore_errors=True)
        except OSError:
            pass  # a cache folder that cannot be written: compiled again by the next process
    return _KEPT[key]


def _zlib_archive(cc: list[str]) -> str | None:
    """zlib's static library as the compiler finds it (Debian: zlib1g-dev), or None."""
    try:
        found = subprocess.run([*cc, "-print-file-name=libz.a"], capture_output=True, text=True,
                               timeout=_COMPILE_TIMEOUT).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if os.path.isabs(found) and os.path.isfile(found) else None


def _run_compiler(command: list[str], source: Path, cc: list[str]) -> None:
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=_COMPILE_TIMEOUT,
                              env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CraneCosimError(f"compiling the FMU binary {source} with {shlex.join(cc)} failed: {exc}") from None
    if proc.returncode != 0:
        raise CraneCosimError(f"compiling the FMU binary {source} with {shlex.join(cc)} failed "
                              f"(exit status {proc.returncode}): {proc.stderr.strip()[-2000:]}")


#: flags of every binary: reproducible (no source folder, no build id, no
#: symbol table) and warnings on
_COMMON_FLAGS = ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Wno-format-truncation", "-Wl,--build-id=none", "-s",
                 "-Wl,-z,noexecstack"]


def _proxy_and_program(cc: list[str], flags: list[str], proxy_name: str, proxy_flags: list[str],
                       program_name: str, program_flags: list[str], program_libraries: list[str],
                       zlib_hint: str) -> tuple[bytes, bytes]:
    """The proxy and the program of the FMU's process compiled by ``cc``
    with ``flags`` and each its own, zlib's static library linked into the
    program before ``program_libraries``."""
    zlib = _zlib_archive(cc)
    if zlib is None:
        raise CraneCosimError(f"cannot compile {PROCESS_SOURCE}: zlib's static library libz.a was not found by "
                              f"{shlex.join(cc)} ({zlib_hint})")
    flags = [*flags, f"-ffile-prefix-map={PROXY_SOURCE.parent}=."]
    with tempfile.TemporaryDirectory(prefix="crane_cosim_proxy_") as tmp:
        proxy, program = Path(tmp) / proxy_name, Path(tmp) / program_name
        _run_compiler([*cc, *flags, *proxy_flags, "-o", str(proxy), str(PROXY_SOURCE)], PROXY_SOURCE, cc)
        _run_compiler([*cc, *flags, *program_flags, "-o", str(program), str(PROCESS_SOURCE), zlib,
                       *program_libraries], PROCESS_SOURCE, cc)
        return proxy.read_bytes(), program.read_bytes()


def _out_of_process_bytes(cc: tuple[str, ...]) -> tuple[bytes, bytes]:
    return _proxy_and_program(list(cc), _COMMON_FLAGS, "proxy.so",
                              ["-fPIC", "-shared", "-fvisibility=hidden", "-Wl,-z,defs"], PROCESS_PROGRAM,
                              ["-pthread"], ["-ldl"], "Debian: apt-get install zlib1g-dev")


def _out_of_process() -> tuple[bytes, bytes]:
    if not sys.platform.startswith("linux"):
        raise CraneCosimError(f"FMUs that run out of process are built for Linux only (this is {sys.platform})")
    cc = find_compiler()
    if cc is None:
        raise CraneCosimError("FMUs that run out of process need a C compiler (cc, gcc or clang, or $CC): none "
                              "was found")
    return _kept("linux", tuple(cc), "", lambda: _out_of_process_bytes(tuple(cc)))


def _windows_compiler() -> list[str]:
    return shlex.split(os.environ.get("CRANE_COSIM_WINDOWS_CC", "").strip() or WINDOWS_COMPILER)


def windows_unavailable_reason() -> str | None:
    """Why the Windows proxy and program cannot be built here (a clause),
    or None."""
    cc = _windows_compiler()
    if not shutil.which(cc[0]):
        return (f"the cross compiler {cc[0]} was not found (Debian: apt-get install gcc-mingw-w64-x86-64 "
                f"libz-mingw-w64-dev)")
    if _zlib_archive(cc) is None:
        return f"zlib's static library for {cc[0]} was not found (Debian: apt-get install libz-mingw-w64-dev)"
    return None


def _windows_bytes(cc: tuple[str, ...]) -> tuple[bytes, bytes]:
    # ELF's flags left out; reproducible: no time stamp in the PE header, and
    # a fixed image base (the linker's automatic one hashes the output's path)
    flags = [*(f for f in _COMMON_FLAGS if not f.startswith("-Wl,-z") and f != "-Wl,--build-id=none"),
             "-Wl,--no-insert-timestamp", "-Wl,--disable-auto-image-base"]
    return _proxy_and_program(list(cc), flags, "proxy.dll", ["-shared"], WINDOWS_PROCESS_PROGRAM, ["-municode"], [],
                              "Debian: apt-get install libz-mingw-w64-dev")


def windows_out_of_process() -> tuple[bytes, bytes]:
    """The Windows proxy (a DLL) and the program of the FMU's process (an
    executable, zlib linked in statically), cross-compiled here once per
    machine from the same sources as the Linux ones.  Raises
    :class:`CraneCosimError` saying what is missing when they cannot be
    built."""
    reason = windows_unavailable_reason()
    if reason is not None:
        raise CraneCosimError(f"the Windows binary of a portable FMU cannot be built here: {reason}")
    cc = _windows_compiler()
    return _kept("windows", tuple(cc), "", lambda: _windows_bytes(tuple(cc)))


def proxy_binary() -> bytes:
    """The out-of-process proxy (``native/fmi2_proxy.c``) compiled here,
    once per machine.  Raises :class:`CraneCosimError` saying what is
    missing when it cannot be built."""
    return _out_of_process()[0]


def process_program() -> bytes:
    """The program that runs an FMU instance for the proxy
    (``native/fmi2_child.c``, zlib linked in statically), compiled here,
    once per machine."""
    return _out_of_process()[1]


def binary_record() -> str:
    """One line saying which Linux binary an FMU built now carries (recorded
    in the FMU: an FMU with another line is rebuilt)."""
    reason = shim_unavailable_reason()
    if reason is not None:
        return f"linux64 binary: pythonfmu's own ({reason})"
    py = build_python()
    return f"linux64 binary: crane-cosim shim for Python {py.version} at {py.executable} ({py.libpython})"
