"""The oldest GNU C library a set of Linux binaries runs on: the newest
``GLIBC_x.y`` symbol version they require, read from each ELF file's
version needs (the ``.gnu.version_r`` section, ``SHT_GNU_verneed``), as
the dynamic loader checks them.  A portable FMU says so on its page
(``fmus/ls_ref.py``): the floor is that of the Python that built it."""
from __future__ import annotations

import re
import struct
from pathlib import Path

__all__ = ["glibc_versions", "glibc_floor", "newest"]

_SHT_GNU_VERNEED = 0x6FFFFFFE
_GLIBC = re.compile(rb"^GLIBC_(\d+)\.(\d+)(?:\.(\d+))?$")


def glibc_versions(file) -> set[tuple[int, ...]]:
    """The ``GLIBC_x.y`` versions the ELF file ``file`` (a path, or its
    bytes) requires (a 64-bit little-endian file; empty for any other)."""
    data = file if isinstance(file, bytes) else Path(file).read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return set()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + k * shentsize) for k in range(shnum)]
    found = set()
    for _, kind, _, _, offset, _, link, count, _, _ in sections:
        if kind != _SHT_GNU_VERNEED:
            continue
        strings = sections[link][4]
        at = offset
        for _ in range(count):
            _, n_aux, _, aux, following = struct.unpack_from("<HHIII", data, at)
            entry = at + aux
            for _ in range(n_aux):
                _, _, _, name, next_aux = struct.unpack_from("<IHHII", data, entry)
                end = data.index(b"\0", strings + name)
                m = _GLIBC.match(data[strings + name:end])
                if m:
                    found.add(tuple(int(g) for g in m.groups() if g is not None))
                entry += next_aux
            at += following
    return found


def glibc_floor(files) -> str | None:
    """The newest ``x.y`` any of ``files`` (paths, or their bytes) requires,
    or None where none requires a version."""
    versions = set().union(*(glibc_versions(f) for f in files))
    return ".".join(map(str, max(versions))) if versions else None


def newest(*floors: str | None) -> str | None:
    """The newest of version strings ``x.y`` (None for none)."""
    known = [tuple(int(p) for p in f.split(".")) for f in floors if f]
    return ".".join(map(str, max(known))) if known else None
