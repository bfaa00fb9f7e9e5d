"""Crafted files from strangers for the tests: zip archives that write
outside their folder, zip bombs, lying sizes, and XML with entities."""
from __future__ import annotations

import contextlib
import socket
import struct
import zipfile
from pathlib import Path

# An entity expanded 10^9 times if a parser ever expands it.
BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
"""


def _body(xml: str) -> str:
    """The document without its XML declaration."""
    xml = xml.lstrip()
    return xml.split("?>", 1)[1].lstrip() if xml.startswith("<?xml") else xml


def _root(xml: str) -> str:
    body = _body(xml)
    return body[1:].split(None, 1)[0].split(">")[0].split("/")[0]


def billion_laughs(xml: str) -> str:
    """The document ``xml`` using ``&lol9;`` (10^9 "lol" once expanded)."""
    return BILLION_LAUGHS + _body(xml).replace("</", "&lol9;</", 1)


def external_entity(xml: str, url: str) -> str:
    """The document ``xml`` pulling ``url`` in through an external entity."""
    return (f'<?xml version="1.0"?>\n<!DOCTYPE {_root(xml)} [ <!ENTITY x SYSTEM "{url}"> ]>\n'
            + _body(xml).replace("</", "&x;</", 1))


def external_dtd(xml: str, url: str) -> str:
    """The document ``xml`` whose document type is fetched from ``url``."""
    return f'<?xml version="1.0"?>\n<!DOCTYPE {_root(xml)} SYSTEM "{url}">\n' + _body(xml)


@contextlib.contextmanager
def listening_server():
    """A TCP socket on localhost that nothing should connect to: yields
    (url, connections) where ``connections()`` counts attempts so far."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.setblocking(False)
    count = [0]

    def connections() -> int:
        while True:
            try:
                conn, _ = srv.accept()
            except BlockingIOError:
                return count[0]
            conn.close()
            count[0] += 1

    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/x.dtd", connections
    finally:
        srv.close()


def make_zip(path, entries, method=zipfile.ZIP_DEFLATED) -> Path:
    """A zip archive of ``entries`` (name -> bytes or str, or ZipInfo -> data)."""
    path = Path(path)
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in (entries.items() if isinstance(entries, dict) else entries):
            z.writestr(name, data)
    return path


def symlink_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = 0o120777 << 16
    return info


def set_declared_sizes(path, sizes: dict) -> None:
    """Overwrite the declared uncompressed size of the named entries, in the
    central directory and in the local headers (the data is untouched)."""
    raw = bytearray(Path(path).read_bytes())
    with zipfile.ZipFile(path) as z:
        offsets = {i.filename: i.header_offset for i in z.infolist()}
    pos = raw.index(b"PK\x01\x02")
    while raw[pos:pos + 4] == b"PK\x01\x02":
        n_name, n_extra, n_comment = struct.unpack_from("<HHH", raw, pos + 28)
        name = raw[pos + 46:pos + 46 + n_name].decode()
        if name in sizes:
            struct.pack_into("<I", raw, pos + 24, sizes[name])
            struct.pack_into("<I", raw, offsets[name] + 22, sizes[name])
        pos += 46 + n_name + n_extra + n_comment
    Path(path).write_bytes(bytes(raw))


def replace_member(src, dest, name: str, data) -> Path:
    """A copy of the archive ``src`` at ``dest`` with entry ``name`` replaced (or added)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            if item.filename != name:
                zout.writestr(item, zin.read(item.filename))
        zout.writestr(name, data)
    return Path(dest)


def tree(folder) -> set:
    """Every path under ``folder``, relative to it."""
    return {p.relative_to(folder).as_posix() for p in Path(folder).rglob("*")}
