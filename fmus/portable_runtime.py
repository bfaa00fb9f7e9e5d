"""The Python a portable FMU carries: the building interpreter, its standard
library and the packages the block imports when it runs, as one
gzip-compressed tar archive (``resources/crane_cosim_runtime/<hash>.tar.gz``)
that the FMU's process unpacks once per machine (``native/fmi2_unpack.h``).

What goes in (``docs/fmus.md``, "Portable FMUs", says what each FMU weighs):

* the interpreter (``bin/python3.X``, which the FMU never runs but names as
  Python's executable, so that Python finds its library folder beside it)
  and its shared library ``lib/libpython3.X.so.1.0``;
* the standard library without what an FMU never uses (its tests, IDLE,
  Tk, the installers, the C headers, ``site-packages``), and its extension
  modules but those that need a system library an FMU does not use (Tk,
  curses, readline, SQLite, dbm, OpenSSL);
* the shared libraries those extension modules need that are not the C
  library's or the C++ runtime's (libffi for ctypes, zlib, bzip2, xz,
  libuuid), loaded by the FMU's process before Python starts (the
  ``preload`` lines of ``crane_cosim_runtime.txt``);
* of the installed packages, those the block imports when it runs,
  measured by running its FMU (``fmus/portable_probe.py``): numpy, numba
  and llvmlite whole (they import their parts lazily), scipy by
  subpackage; their tests and C headers left out.

Modules are compiled to bytecode that Python takes without checking the
source's time (PEP 552's unchecked hashes), so that the archive's time
stamps can be fixed: the same files give the same archive, byte for byte.
Archives are kept in ``<cache>/portable/`` (the cache folder of
``blocks/jit.py``), named by what went into them, and made again only when
that changes.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import py_compile
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from pathlib import Path

from zlib_ng.gzip_ng import GzipNGFile

from ..blocks import jit
from ..errors import CraneCosimError
from . import native
from .elf_versions import glibc_floor

__all__ = ["runtime_archive", "kernels_archive", "RUNTIME_DESCRIPTION", "BY_SUBPACKAGE", "PACKAGE_LEFT_OUT", "bytecode", "tar_gz", "kept_archive"]

#: The runtime's description, read by the FMU's process: ``python=``,
#: ``libpython=`` and ``preload=`` lines, paths relative to the runtime.
RUNTIME_DESCRIPTION = "crane_cosim_runtime.txt"
#: Packages whose subpackages are taken one by one, as imported; the
#: others the block imports are taken whole.
BY_SUBPACKAGE = {"scipy"}
#: Folders of the standard library an FMU never uses.
STDLIB_LEFT_OUT = {"test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "pydoc_data",
                   "site-packages", "__pycache__", "venv", "curses", "sqlite3", "dbm"}
#: Extension modules of the standard library left out: those that need a
#: system library an FMU does not use (hashlib falls back to its own
#: digests without ``_hashlib``).
DYNLOAD_LEFT_OUT = re.compile(r"^(_tkinter|_curses|_curses_panel|readline|_sqlite3|_dbm|_gdbm|nis|_crypt|_ssl|"
                              r"_hashlib|_test\w*|xx\w*|_xx\w*|_ctypes_test|ossaudiodev|spwd)\.")
#: Libraries every Linux with the C library has (the manylinux policy's),
#: never carried.
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libutil|libresolv|"
                              r"libgcc_s|libstdc\+\+)[.-]")
#: Inside the packages taken: what no FMU runs.
PACKAGE_LEFT_OUT = {"tests", "__pycache__", "include"}
_FIXED_TIME = 946684800  # 2000-01-01: the archive's time stamps


def _stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"]).resolve()


#: the libraries each binary needs, as :func:`_ldd` found them, by "path, size, mtime"
_NEEDED: dict[str, dict[str, Path]] = {}
#: whether this process has read what earlier ones found (:func:`_read_kept_libraries`)
_KEPT_READ = False
#: the file in the cache folder that keeps :data:`_NEEDED` for later processes
LIBRARIES_FILE = "libraries.json"


def _stamp(path: Path) -> str:
    st = path.stat()
    return f"{path}\0{st.st_size}\0{st.st_mtime_ns}"


def _loader_state() -> str:
    """What else decides where the dynamic loader finds a library: its
    cache and ``LD_LIBRARY_PATH``."""
    try:
        cache = os.stat("/etc/ld.so.cache").st_mtime_ns
    except OSError:
        cache = 0
    return f"{os.environ.get('LD_LIBRARY_PATH', '')}\0{cache}"


def _read_kept_libraries() -> None:
    """Add to :data:`_NEEDED` what earlier processes found, kept in the
    cache folder (:data:`LIBRARIES_FILE`), unless the loader's state has
    changed since; once per process."""
    global _KEPT_READ
    if _KEPT_READ:
        return
    _KEPT_READ = True
    try:
        kept = json.loads((jit.cache_dir() / "portable" / LIBRARIES_FILE).read_text())
        if kept.get("loader") == _loader_state():
            for stamp, found in kept["needed"].items():
                _NEEDED.setdefault(stamp, {soname: Path(path) for soname, path in found.items()})
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        pass  # none kept yet, or unreadable: asked of ldd again


def _keep_libraries() -> None:
    """Write :data:`_NEEDED` to the cache folder for later processes (a few
    seconds of ``ldd`` each: it runs the loader once per binary)."""
    folder = jit.cache_dir() / "portable"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        part = folder / f"{LIBRARIES_FILE}.part-{os.getpid()}"
        part.write_text(json.dumps({"loader": _loader_state(), "needed": {
            stamp: {soname: str(path) for soname, path in found.items()} for stamp, found in _NEEDED.items()}}))
        os.replace(part, folder / LIBRARIES_FILE)
    except OSError:
        pass  # a cache folder that cannot be written: asked again by the next process


def _ldd(binaries: list[Path]) -> None:
    """Ask ``ldd`` which shared libraries ``binaries`` load, all in one call
    (a call each took seconds over the runtime's two hundred), into
    :data:`_NEEDED`, the system's own left out."""
    try:
        out = subprocess.run(["ldd", *map(str, binaries)], capture_output=True, text=True, timeout=600).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CraneCosimError(f"cannot list the libraries {binaries[0]} needs (ldd): {exc}") from None
    found = {str(b): {} for b in binaries}
    # with several files ldd heads each one's list with its name and a colon
    current = str(binaries[0]) if len(binaries) == 1 else None
    for line in out.splitlines():
        if len(binaries) > 1 and line.endswith(":") and line[:-1] in found:
            current = line[:-1]
            continue
        m = re.match(r"\s*(\S+) => (/\S+)", line)
        if current is not None and m and not SYSTEM_LIBRARIES.match(m.group(1)):
            found[current][m.group(1)] = Path(m.group(2))
    for binary in binaries:
        _NEEDED[_stamp(binary)] = found[str(binary)]


def _needed_libraries(binary: Path) -> dict[str, Path]:
    """The shared libraries ``binary`` loads, by soname, as the dynamic
    loader finds them here (``ldd``), the system's own left out."""
    if _stamp(binary) not in _NEEDED:
        _ldd([binary])
    return _NEEDED[_stamp(binary)]


def _package_roots(imported: list[str]) -> set[Path]:
    """The folders (and single files) of the installed packages the FMU
    imported (``imported``: module files), whole or by subpackage."""
    roots = set()
    for path in map(Path, imported):
        parts = path.parts
        if "site-packages" not in parts:
            continue
        at = parts.index("site-packages")
        site, rest = Path(*parts[:at + 1]), parts[at + 1:]
        if len(rest) == 1:  # a module of its own (a top-level file)
            roots.add(site / rest[0])
        elif rest[0] in BY_SUBPACKAGE and len(rest) > 2:
            roots.add(site / rest[0] / rest[1])
        elif rest[0] in BY_SUBPACKAGE:  # the package's own top-level modules
            roots.update(p for p in (site / rest[0]).iterdir() if p.is_file())
        else:
            roots.add(site / rest[0])
    # the libraries the wheels bundle (numpy.libs, scipy.libs), found through their RUNPATH
    for root in list(roots):
        site, top = Path(*root.parts[:_site_index(root)]), root.parts[_site_index(root)]
        libs = site / f"{top.split('.')[0]}.libs"
        if libs.is_dir():
            roots.add(libs)
    return roots


def _site_index(path: Path) -> int:
    """Index of the part after ``site-packages`` in ``path.parts``."""
    return path.parts.index("site-packages") + 1


def _files_under(root: Path, left_out: set[str]):
    if root.is_file():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in left_out)
        for f in sorted(files):
            if not f.endswith((".pyc", ".pyi")):
                yield Path(folder) / f


def runtime_files(imported: list[str]) -> tuple[dict[str, Path], list[str]]:
    """What the runtime holds (archive name -> file here) for an FMU that
    imports ``imported`` (module files), and the libraries to preload, in
    an order that loads each after those it needs."""
    py = native.build_python()
    version = py.version
    if not py.libpython:
        raise CraneCosimError(f"{py.executable} has no shared libpython: a portable FMU carries it")
    interpreter = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    files = {f"bin/python{version}": interpreter, f"lib/{Path(py.libpython).name}": Path(py.libpython)}
    stdlib = _stdlib()
    lib = f"lib/python{version}"
    for path in _files_under(stdlib, STDLIB_LEFT_OUT | {p.name for p in stdlib.glob("config-*")}):
        rel = path.relative_to(stdlib)
        if rel.parts[0] == "lib-dynload" and DYNLOAD_LEFT_OUT.match(rel.name):
            continue
        files[f"{lib}/{rel.as_posix()}"] = path
    for root in sorted(_package_roots(imported)):
        site = Path(*root.parts[:_site_index(root)])
        for path in _files_under(root, PACKAGE_LEFT_OUT):
            files[f"{lib}/site-packages/{path.relative_to(site).as_posix()}"] = path
    preload = _preload_order(files)
    for name, path in preload.items():
        files[f"lib/{name}"] = path
    return files, [f"lib/{name}" for name in preload]


def _preload_order(files: dict[str, Path]) -> dict[str, Path]:
    """The libraries the runtime's binaries need beyond the system's and
    their own (those the wheels bundle are found through their RUNPATH),
    each after the libraries it needs."""
    carried = {Path(name).name for name in files}
    binaries = [path for name, path in files.items() if name.endswith(".so") or ".so." in name]
    _read_kept_libraries()
    asked_before = len(_NEEDED)
    unasked = [path for path in binaries if _stamp(path) not in _NEEDED]
    for at in range(0, len(unasked), 500):  # a command line of bounded length
        _ldd(unasked[at:at + 500])
    needed: dict[str, Path] = {}
    for path in binaries:
        for soname, found in _needed_libraries(path).items():
            if soname not in carried and "site-packages" not in found.parts:
                needed[soname] = found
    order: dict[str, Path] = {}

    def visit(soname: str, path: Path, seen: frozenset) -> None:
        if soname in order or soname in seen:
            return
        for dep, dep_path in _needed_libraries(path).items():
            if dep in needed:
                visit(dep, dep_path, seen | {soname})
        order[soname] = path

    for soname in sorted(needed):
        visit(soname, needed[soname], frozenset())
    if len(_NEEDED) > asked_before:
        _keep_libraries()
    return order


def tar_gz(entries, path: Path) -> None:
    """A gzip-compressed pax tar of ``entries`` ((name, bytes or file, mode,
    mtime_ns or None for the fixed time)) at ``path``: the same entries,
    the same bytes."""
    tmp = path.with_name(path.name + f".part-{os.getpid()}")
    # no file name in the gzip header (it would be this process's part file's);
    # zlib-ng's deflate, at the level zlib's default, writes a runtime a few
    # percent larger than zlib's in less than half its time (docs/benchmarks.md)
    with open(tmp, "wb") as raw, \
            GzipNGFile(filename="", fileobj=raw, mode="wb", compresslevel=6, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data, mode, mtime_ns in entries:
            info = tarfile.TarInfo(name)
            info.mode, info.uid, info.gid, info.uname, info.gname = mode, 0, 0, "", ""
            info.mtime = _FIXED_TIME if mtime_ns is None else mtime_ns // 10**9
            if mtime_ns is not None:  # to the nanosecond: numba's cache compares it
                info.pax_headers = {"mtime": f"{mtime_ns // 10**9}.{mtime_ns % 10**9:09d}"}
            if isinstance(data, Path):
                info.size = data.stat().st_size
                with open(data, "rb") as fh:
                    tar.addfile(info, fh)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    os.replace(tmp, path)


#: the layout of the runtime's description: a change makes new archives
#: rather than reusing those the cache keeps
DESCRIPTION_FORMAT = 2  # 2: with the oldest GNU C library it runs on


def _archive_key(files: dict[str, Path], preload: list[str]) -> str:
    h = hashlib.sha256(json.dumps([DESCRIPTION_FORMAT, preload]).encode())
    for name in sorted(files):
        st = files[name].stat()
        h.update(f"{name}\0{files[name]}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:20]


def kept_archive(index_name: str, entries_of) -> Path:
    """The archive ``<cache>/portable/<index_name>`` names, if it is
    there; else one made of ``entries_of(tmp)`` (entries as :func:`tar_gz`
    takes them, any file they need made in the temporary folder ``tmp``),
    kept in ``<cache>/portable/`` under the hash of its bytes and named by
    that index from then on."""
    folder = jit.cache_dir() / "portable"
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / index_name
    if index.is_file() and (folder / index.read_text().strip()).is_file():
        return folder / index.read_text().strip()
    with tempfile.TemporaryDirectory(prefix="crane_cosim_runtime_") as tmp:
        made = Path(tmp) / "runtime.tar.gz"
        tar_gz(entries_of(Path(tmp)), made)
        target = folder / f"{hashlib.sha256(made.read_bytes()).hexdigest()[:20]}.tar.gz"
        shutil.move(made, target)
    index.write_text(target.name + "\n")
    return target


def runtime_archive(imported: list[str], stream=None) -> Path:
    """The runtime archive for an FMU that imports ``imported`` (module
    files): made once and kept in the cache folder (``<cache>/portable/``),
    named by the hash of its bytes."""
    files, preload = runtime_files(imported)

    def entries(tmp: Path) -> list:
        if stream is not None:
            print(f"making a Python runtime for portable FMUs ({len(files)} files; a minute or two, once) ...",
                  file=stream, flush=True)
        py = native.build_python()
        floor = glibc_floor(path for path in files.values() if path.suffix == ".so" or ".so." in path.name
                            or path.stat().st_mode & 0o111)
        description = "".join([f"python=bin/python{py.version}\n", f"libpython=lib/{Path(py.libpython).name}\n",
                               *(f"preload={name}\n" for name in preload), f"glibc={floor or ''}\n"]).encode()
        made = [(RUNTIME_DESCRIPTION, description, 0o644, None)]
        for name in sorted(files):
            mode = 0o755 if files[name].stat().st_mode & 0o111 else 0o644
            made.append((name, files[name], mode, None))
        return made + [(name, path, 0o644, None) for name, path in sorted(bytecode(files, tmp).items())]
    return kept_archive(f"runtime-{_archive_key(files, preload)}.txt", entries)


def runtime_glibc(archive: Path) -> str | None:
    """The oldest GNU C library the runtime archive ``archive`` runs on
    (the ``glibc`` line of its description, its first member)."""
    with tarfile.open(archive, "r:gz") as tar:
        first = tar.next()
        if first is None or first.name != RUNTIME_DESCRIPTION:
            return None
        text = tar.extractfile(first).read().decode()
    return next((line.split("=", 1)[1] or None for line in text.splitlines() if line.startswith("glibc=")), None)


def bytecode(files: dict[str, Path], tmp: Path) -> dict[str, Path]:
    """Each module's bytecode (unchecked hash), compiled under the name it
    has in the runtime: archive name -> compiled file."""
    compiled = {}
    tag = sys.implementation.cache_tag
    for name, path in files.items():
        if not name.endswith(".py"):
            continue
        rel = Path(name)
        target = rel.parent / "__pycache__" / f"{rel.stem}.{tag}.pyc"
        out = tmp / "pyc" / target
        try:
            py_compile.compile(str(path), cfile=str(out), dfile=name, doraise=True, quiet=2,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        except py_compile.PyCompileError:
            continue  # a file Python could not import either (some packages ship templates as .py)
        compiled[target.as_posix()] = out
    return compiled


def kernels_archive(cache: Path, folders: list[str], out: Path) -> Path | None:
    """The compiled kernels in ``folders`` of the kernel cache ``cache``
    (``blocks/jit.py``) as an archive in the folder ``out``, named by its
    hash, or None for no folders.  Files keep their modification times to
    the nanosecond."""
    entries = []
    paths = [p for folder in folders for p in (Path(cache) / folder).rglob("*")]
    for path in sorted(p for p in paths if p.is_file() and not p.name.endswith(".tmp")):
        st = path.stat()
        entries.append((path.relative_to(cache).as_posix(), path, 0o644, st.st_mtime_ns))
    if not entries:
        return None
    made = out / "kernels.tar.gz"
    tar_gz(entries, made)
    target = out / f"{hashlib.sha256(made.read_bytes()).hexdigest()[:20]}.tar.gz"
    made.replace(target)
    return target
