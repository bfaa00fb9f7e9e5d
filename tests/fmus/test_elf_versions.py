"""The oldest GNU C library a portable FMU runs on (``fmus/elf_versions.py``),
read from the ELF files' version needs, against binutils' ``objdump``,
which reads the same needs independently: for the interpreter's library,
the proxy, and every ELF file a portable FMU carries (its binaries and its
runtime, unpacked)."""
from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from crane_cosim.fmus import native
from crane_cosim.fmus.elf_versions import glibc_floor, glibc_versions, newest
from crane_cosim.fmus.portable_runtime import runtime_glibc
from limits import HUNG


def _objdump_versions(path: Path) -> set[tuple[int, ...]]:
    """The GLIBC versions ``objdump -p`` lists among the file's version references."""
    out = subprocess.run(["objdump", "-p", str(path)], capture_output=True, text=True, timeout=HUNG).stdout
    refs = out.split("Version References:", 1)[1] if "Version References:" in out else ""
    return {tuple(int(g) for g in m.groups() if g) for m in re.finditer(r"GLIBC_(\d+)\.(\d+)(?:\.(\d+))?\b", refs)}


@pytest.fixture(scope="module")
def objdump():
    if shutil.which("objdump") is None:
        pytest.skip("binutils' objdump is missing")  # it comes with the C compiler the portable FMUs need
    return "objdump"


def _elf(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def test_the_versions_are_those_objdump_reads(objdump, tmp_path):
    libpython = Path(native.build_python().libpython)
    proxy = tmp_path / "proxy.so"
    proxy.write_bytes(native.proxy_binary())
    for path in (libpython, proxy):
        assert glibc_versions(path) == _objdump_versions(path) != set(), path
    assert glibc_versions(tmp_path / "proxy.so") == glibc_versions(proxy.read_bytes())
    (tmp_path / "text").write_text("not an ELF file")
    assert glibc_versions(tmp_path / "text") == set() and glibc_floor([tmp_path / "text"]) is None
    assert newest("2.17", None, "2.35", "2.4") == "2.35" and newest(None) is None


@pytest.mark.usefixtures("c_compiler")
def test_a_portable_fmu_states_the_floor_of_everything_it_carries(objdump, portable_fmu, tmp_path):
    """The Vessel's portable FMU (its runtime carries numpy, scipy, numba
    and llvmlite): the floor its source record and its page state is the
    newest version any ELF file in it needs, as objdump reads them."""
    with zipfile.ZipFile(portable_fmu("Vessel")) as z:
        z.extractall(tmp_path / "fmu")
    runtime = next((tmp_path / "fmu" / "resources" / "crane_cosim_runtime").glob("*.tar.gz"))
    with tarfile.open(runtime) as tar:
        tar.extractall(tmp_path / "runtime", filter="tar")
    files = [p for folder in (tmp_path / "fmu" / "binaries", tmp_path / "runtime") for p in folder.rglob("*")
             if p.is_file() and not p.is_symlink() and _elf(p)]
    assert len(files) > 50
    expected = max(set().union(*map(_objdump_versions, files)))
    floor = ".".join(map(str, expected))
    record = (tmp_path / "fmu" / "resources" / "crane_cosim_source.txt").read_text()
    assert f"glibc {floor}" in record.splitlines()[-1].split(", ")
    assert f"the GNU C library {floor} or newer" in (tmp_path / "fmu" / "documentation" / "index.html").read_text()
    assert runtime_glibc(runtime) is not None
