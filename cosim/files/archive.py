"""Files from other people, read safely: FMUs and SSP archives (zip files)
and the XML they hold (``modelDescription.xml``, ``.ssd``, ``.ssv``).

Reading one of them must never write outside its extraction folder, never
exhaust memory or disk, never expand XML entities and never fetch anything
from the network.  Every function here refuses such a file with one
:class:`~crane_cosim.errors.CraneCosimError` sentence that names it:

* entry names: no ``..`` component, no absolute path, no drive letter or
  colon, no backslash, no NUL, no name twice; no symbolic links or other
  special files; no encrypted entries; only the stored and deflate
  compression methods (the others decompress without a bound on memory per
  read);
* sizes (:class:`Limits`): the number of entries, read from the archive's end
  record before the central directory is parsed; the declared total
  uncompressed size; the compression ratio of every entry larger than
  :data:`RATIO_FLOOR`; and while extracting, the bytes actually produced,
  since a declared size can lie;
* XML (:func:`parse_xml`): any document type declaration (``<!DOCTYPE``) is
  refused, through ``defusedxml``.  FMI and SSP files never need one, and
  without it there is no entity to expand (billion laughs) and no external
  entity or DTD to fetch; files larger than ``Limits.max_xml`` are refused
  before they are parsed.

The limits are raised with environment variables (:data:`ENV`), read at each
check, or with the ``limits`` keyword of these functions.
"""
from __future__ import annotations

import copy
import io
import os
import re
import stat
import xml.etree.ElementTree as ET
import zipfile
import zlib
from dataclasses import dataclass, fields
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as _defused_fromstring

from ..errors import CraneCosimError

__all__ = ["Limits", "ENV", "RATIO_FLOOR", "check_archive", "read_member", "safe_extract", "parse_xml",
           "read_xml"]

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
#: Entries smaller than this are not held to the ratio limit: a small file of
#: repeated text compresses well and cannot exhaust anything.
RATIO_FLOOR = 1 * MiB
_CHUNK = 1 * MiB
_SAFE_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}


@dataclass(frozen=True)
class Limits:
    """What one archive or XML file may cost."""
    max_unpacked: int = 2 * GiB    #: total uncompressed bytes of one archive
    max_ratio: float = 1000.0      #: uncompressed / compressed size of one entry
    max_entries: int = 10_000      #: entries in one archive
    max_xml: int = 100 * MiB       #: bytes of one XML file

    @classmethod
    def from_env(cls) -> "Limits":
        """The defaults, each replaced by its environment variable when set."""
        values = {}
        for f in fields(cls):
            raw = os.environ.get(ENV[f.name], "").strip()
            if raw:
                values[f.name] = _parse_limit(ENV[f.name], raw, ratio=f.name == "max_ratio")
        return cls(**values)


#: Environment variables that raise (or lower) the limits.
ENV = {"max_unpacked": "CRANE_COSIM_MAX_UNPACKED", "max_ratio": "CRANE_COSIM_MAX_RATIO",
       "max_entries": "CRANE_COSIM_MAX_ENTRIES", "max_xml": "CRANE_COSIM_MAX_XML"}
_UNITS = {"": 1, "b": 1, "kib": KiB, "mib": MiB, "gib": GiB, "tib": 1 << 40}


def _parse_limit(var: str, raw: str, ratio: bool):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]*)?)\s*([A-Za-z]*)", raw)
    unit = m.group(2).lower() if m else None
    if not m or (ratio and unit) or unit not in _UNITS or float(m.group(1)) <= 0:
        kind = "a positive number" if ratio else "a positive whole number of bytes, optionally with KiB, MiB or GiB"
        raise CraneCosimError(f"the environment variable {var}={raw!r} is not {kind}")
    value = float(m.group(1)) * _UNITS[unit]
    return value if ratio else int(value)


def _limits(limits: Limits | None) -> Limits:
    return limits if limits is not None else Limits.from_env()


def _size(n: float) -> str:
    """A size in the largest unit it fills, with three figures or more (no
    exponent: 1010 KiB, 3.21 MiB)."""
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f} {unit}" if v >= 100 else f"{v:.3g} {unit}"
    return f"{int(n)} bytes"


def _raise_with(field: str) -> str:
    return f"raise the limit with the environment variable {ENV[field]}"


# -- zip archives ------------------------------------------------------------------

def _unsafe_name(name: str) -> str | None:
    """Why the entry name could write outside the extraction folder, or None."""
    if not name.strip("/"):
        return "is empty"
    if "\x00" in name:
        return "holds a NUL character"
    if "\\" in name:
        return "uses backslashes, which some systems read as folder separators"
    if name.startswith("/"):
        return "is absolute"
    if ":" in name:
        return "holds a colon (a drive letter on Windows)"
    if ".." in name.split("/"):
        return "climbs out of its folder with '..'"
    return None


def _declared_entries(path: Path) -> int | None:
    """The entry count of the archive's end record, read before zipfile parses
    (and keeps in memory) the whole central directory."""
    try:
        with open(path, "rb") as f:
            end = zipfile._EndRecData(f)  # noqa: SLF001 - stable since Python 2, no public equivalent
        return None if end is None else int(end[zipfile._ECD_ENTRIES_TOTAL])
    except (AttributeError, OSError, TypeError, ValueError):
        return None  # zipfile reports an unreadable archive itself


def _open(path: Path, what: str, lim: Limits) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """Open the archive and check every entry's name, type and declared size."""
    if not path.is_file():
        raise CraneCosimError(f"{what} {path} does not exist" if not path.exists() else
                              f"{what} {path} is not a file")
    n = _declared_entries(path)
    if n is not None and n > lim.max_entries:
        raise CraneCosimError(f"{what} {path} holds {n} entries, more than the limit of {lim.max_entries} "
                              f"({_raise_with('max_entries')})")
    try:
        z = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise CraneCosimError(f"{what} {path} is not a readable zip archive ({exc})") from None
    try:
        infos = z.infolist()
        if len(infos) > lim.max_entries:
            raise CraneCosimError(f"{what} {path} holds {len(infos)} entries, more than the limit of "
                                  f"{lim.max_entries} ({_raise_with('max_entries')})")
        seen, total = set(), 0
        for info in infos:
            name = info.filename
            why = _unsafe_name(name)
            if why:
                raise CraneCosimError(f"{what} {path} holds the entry {name!r}, whose path {why}; it is "
                                      f"refused so that nothing is written outside its folder")
            # the path it is extracted to: "a/./b", "a//b" and "a/b/" are "a/b"
            key = "/".join(p for p in name.split("/") if p not in ("", "."))
            if key in seen:
                raise CraneCosimError(f"{what} {path} holds the entry {key!r} twice")
            seen.add(key)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise CraneCosimError(f"{what} {path} holds the symbolic link {name!r}; links are refused so "
                                      f"that nothing outside its folder is read or written")
            if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFDIR):
                raise CraneCosimError(f"{what} {path} holds the entry {name!r}, which is not a plain file "
                                      f"or folder")
            if info.flag_bits & 0x1:
                raise CraneCosimError(f"{what} {path} holds the encrypted entry {name!r}, which cannot be read")
            if info.compress_type not in _SAFE_METHODS:
                raise CraneCosimError(f"{what} {path} holds the entry {name!r} compressed with zip method "
                                      f"{info.compress_type}; only stored and deflate entries are read")
            if info.is_dir():
                continue
            total += info.file_size
            if info.file_size > RATIO_FLOOR and info.file_size > lim.max_ratio * max(info.compress_size, 1):
                ratio = info.file_size / max(info.compress_size, 1)
                raise CraneCosimError(
                    f"{what} {path} holds the entry {name!r} compressed {ratio:.0f}:1 ({_size(info.file_size)} "
                    f"in {_size(info.compress_size)}), beyond the limit of {lim.max_ratio:g}:1 that guards "
                    f"against zip bombs ({_raise_with('max_ratio')})")
        if total > lim.max_unpacked:
            raise CraneCosimError(f"{what} {path} unpacks to {_size(total)}, more than the limit of "
                                  f"{_size(lim.max_unpacked)} ({_raise_with('max_unpacked')})")
    except BaseException:
        z.close()
        raise
    return z, infos


def _copy_entry(z: zipfile.ZipFile, info: zipfile.ZipInfo, out, budget: int, path: Path, what: str,
                budget_field: str) -> int:
    """Copy one entry's bytes to ``out``, counting them: refuse more bytes
    than the entry declares, or than ``budget``."""
    # zipfile stops an entry at its declared size and checks the CRC there:
    # it never shows data beyond.  Asked for one byte more, without a CRC to
    # check (the CRC is checked here, at the end), it shows whether the data
    # goes on.
    probe = copy.copy(info)
    probe.file_size = info.file_size + 1
    if hasattr(probe, "CRC"):
        del probe.CRC
    crc = 0
    damaged = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError)

    def broken(exc):
        return CraneCosimError(f"{what} {path} is damaged: its entry {info.filename!r} cannot be read ({exc})")

    try:
        src = z.open(probe)
    except damaged as exc:
        raise broken(exc) from None
    n = 0
    with src:
        while True:
            try:
                chunk = src.read(_CHUNK)
            except damaged as exc:
                raise broken(exc) from None
            if not chunk:
                break
            n += len(chunk)
            if n > info.file_size:
                raise CraneCosimError(f"{what} {path} holds the entry {info.filename!r}, which unpacks to more "
                                      f"than the {info.file_size} bytes it declares; it is refused as damaged "
                                      f"or hostile")
            if n > budget:
                raise CraneCosimError(f"{what} {path} unpacks to more than the limit of {_size(budget)} "
                                      f"({_raise_with(budget_field)})")
            crc = zlib.crc32(chunk, crc)
            try:
                out.write(chunk)
            except OSError as exc:
                raise CraneCosimError(f"{what} {path} cannot be extracted: writing its entry "
                                      f"{info.filename!r} failed ({exc.strerror})") from None
    if n != info.file_size:
        raise broken(f"{n} bytes instead of the {info.file_size} declared")
    if crc != info.CRC:
        raise broken("bad CRC-32")
    return n


def check_archive(path, what: str = "archive", limits: Limits | None = None) -> list[zipfile.ZipInfo]:
    """Check the names, types and declared sizes of every entry of the zip
    archive at ``path`` and return the entries.  ``what`` names the kind of
    file in messages ("FMU", "SSP archive")."""
    z, infos = _open(Path(path), what, _limits(limits))
    z.close()
    return infos


def read_member(path, name: str, what: str = "archive", max_size: int | None = None,
                limits: Limits | None = None) -> bytes:
    """The bytes of entry ``name`` of the checked archive at ``path``, at
    most ``max_size`` of them (default: ``limits.max_xml``)."""
    path, lim = Path(path), _limits(limits)
    cap = lim.max_xml if max_size is None else max_size
    z, infos = _open(path, what, lim)
    with z:
        info = next((i for i in infos if i.filename == name), None)
        if info is None or info.is_dir():
            raise CraneCosimError(f"{what} {path} has no entry {name}")
        if info.file_size > cap:
            raise CraneCosimError(f"{what} {path} holds the entry {name!r} of {_size(info.file_size)}, more than "
                                  f"the limit of {_size(cap)} for it ({_raise_with('max_xml')})")
        buf = io.BytesIO()
        _copy_entry(z, info, buf, cap, path, what, "max_xml")
        return buf.getvalue()


def safe_extract(path, dest, what: str = "archive", limits: Limits | None = None) -> Path:
    """Extract the checked archive at ``path`` into the folder ``dest``
    (created; files already there are never overwritten) and return it."""
    path, lim = Path(path), _limits(limits)
    z, infos = _open(path, what, lim)
    dest = Path(dest)
    with z:
        try:
            dest.mkdir(parents=True, exist_ok=True)
            root = dest.resolve()
        except OSError as exc:
            raise CraneCosimError(f"{what} {path} cannot be extracted: the folder {dest} cannot be created "
                                  f"({exc.strerror})") from None
        written = 0
        for info in infos:
            target = root.joinpath(*[p for p in info.filename.split("/") if p not in ("", ".")])
            # The names are checked above; this guards the check itself.
            if target != root and root not in target.parents:
                raise CraneCosimError(f"{what} {path} holds the entry {info.filename!r}, which would be written "
                                      f"outside {dest}")
            try:
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                # Executable bits are kept (FMU helpers); set-uid and the like never.
                mode = 0o755 if (info.external_attr >> 16) & 0o111 else 0o644
                flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
                fd = os.open(target, flags, mode)
            except OSError as exc:
                raise CraneCosimError(f"{what} {path} cannot be extracted into {dest}: its entry "
                                      f"{info.filename!r} gives {exc.strerror.lower()}") from None
            with os.fdopen(fd, "wb") as out:
                written += _copy_entry(z, info, out, lim.max_unpacked - written, path, what, "max_unpacked")
    return dest


# -- XML -------------------------------------------------------------------------------

def parse_xml(data: bytes, what: str) -> ET.Element:
    """Parse XML ``data`` (``what``, e.g. "system file x.ssd", names it in
    messages) with every DTD, entity and external reference refused."""
    try:
        return _defused_fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise CraneCosimError(f"{what} holds a document type declaration (<!DOCTYPE ...>), which FMI and SSP "
                              f"files never need; it is refused so that no entity is expanded and nothing is "
                              f"fetched") from None
    except ET.ParseError as exc:
        raise CraneCosimError(f"{what} is not valid XML ({exc})") from None


def read_xml(path, what: str, limits: Limits | None = None) -> ET.Element:
    """Read and parse the XML file at ``path``, at most ``limits.max_xml``
    bytes of it (a device or a huge file is refused before parsing)."""
    path, lim = Path(path), _limits(limits)
    if not path.is_file():
        raise CraneCosimError(f"{what} does not exist" if not path.exists() else f"{what} is not a file")
    try:
        with open(path, "rb") as f:
            data = f.read(lim.max_xml + 1)
    except OSError as exc:
        raise CraneCosimError(f"{what} cannot be read ({exc.strerror})") from None
    if len(data) > lim.max_xml:
        raise CraneCosimError(f"{what} is larger than the limit of {_size(lim.max_xml)} for an XML file "
                              f"({_raise_with('max_xml')})")
    return parse_xml(data, what)
