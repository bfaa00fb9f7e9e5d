"""Files from strangers (crane_cosim.files.archive): crafted zip archives and XML
are refused with one sentence naming the file, nothing is written outside
the extraction folder, no entity is expanded and nothing is fetched."""
import zipfile

import pytest

from crane_cosim.files.archive import (ENV, RATIO_FLOOR, Limits, check_archive, parse_xml, read_member, read_xml,
                                 safe_extract)
from crane_cosim.errors import CraneCosimError

from hostile_files import (billion_laughs, external_dtd, external_entity, listening_server, make_zip,
                           set_declared_sizes, symlink_info, tree)

MiB = 1 << 20


def one_sentence(exc, *fragments):
    text = str(exc.value)
    assert "\n" not in text, text
    for f in fragments:
        assert f in text, text


def test_extracts_a_plain_archive(tmp_path):
    src = make_zip(tmp_path / "ok.zip", {"modelDescription.xml": "<a/>", "binaries/linux64/m.so": b"\x7fELF",
                                         "resources/": b"", "resources/data/t.txt": "table"})
    dest = safe_extract(src, tmp_path / "x", "FMU")
    assert tree(dest) == {"modelDescription.xml", "binaries", "binaries/linux64", "binaries/linux64/m.so",
                          "resources", "resources/data", "resources/data/t.txt"}
    assert (dest / "resources/data/t.txt").read_text() == "table"
    assert read_member(src, "binaries/linux64/m.so", "FMU") == b"\x7fELF"


@pytest.mark.parametrize("name,why", [
    ("../evil.txt", "climbs out of its folder with '..'"),
    ("inner/../../evil.txt", "climbs out of its folder with '..'"),
    ("/tmp/crane_cosim_evil.txt", "is absolute"),
    ("C:/evil.txt", "holds a colon (a drive letter on Windows)"),
    ("..\\evil.txt", "uses backslashes"),
])
def test_zip_slip_is_refused_and_writes_nothing(tmp_path, name, why):
    src = make_zip(tmp_path / "slip.fmu", {"modelDescription.xml": "<a/>", name: "owned"})
    work = tmp_path / "work"
    work.mkdir()
    before = tree(tmp_path)
    with pytest.raises(CraneCosimError) as exc:
        safe_extract(src, work / "dest", "FMU")
    one_sentence(exc, f"FMU {src} holds the entry {name!r}, whose path {why}",
                 "refused so that nothing is written outside its folder")
    assert tree(tmp_path) == before  # not even the extraction folder
    assert not (tmp_path / "evil.txt").exists()
    # the check comes first: reading one member or only checking refuses too
    for call in (lambda: check_archive(src, "FMU"), lambda: read_member(src, "modelDescription.xml", "FMU")):
        with pytest.raises(CraneCosimError, match="refused so that nothing is written outside"):
            call()


def test_symbolic_link_is_refused(tmp_path):
    src = make_zip(tmp_path / "link.ssp", [(symlink_info("resources/passwd"), "/etc/passwd"),
                                           ("SystemStructure.ssd", "<a/>")])
    with pytest.raises(CraneCosimError) as exc:
        safe_extract(src, tmp_path / "dest", "SSP archive")
    one_sentence(exc, f"SSP archive {src} holds the symbolic link 'resources/passwd'")
    assert not (tmp_path / "dest").exists()


def test_zip_bomb_by_ratio_under_the_default_limits(tmp_path):
    """8 MiB of zeros deflate to about 8 KiB: 1029:1, beyond the default 1000:1."""
    src = make_zip(tmp_path / "bomb.fmu", {"resources/zeros.bin": bytes(8 * MiB)})
    assert src.stat().st_size < 64 * 1024
    with pytest.raises(CraneCosimError) as exc:
        safe_extract(src, tmp_path / "dest", "FMU", Limits())
    one_sentence(exc, f"FMU {src} holds the entry 'resources/zeros.bin' compressed 10",
                 "beyond the limit of 1000:1 that guards against zip bombs", ENV["max_ratio"])
    assert not (tmp_path / "dest").exists()


def test_ratio_applies_above_the_floor_only(tmp_path):
    small = make_zip(tmp_path / "small.zip", {"zeros": bytes(RATIO_FLOOR)})
    check_archive(small, limits=Limits(max_ratio=2))  # 1 MiB of zeros: not a bomb, whatever its ratio
    big = make_zip(tmp_path / "big.zip", {"zeros": bytes(RATIO_FLOOR + 1)})
    with pytest.raises(CraneCosimError, match="beyond the limit of 2:1"):
        check_archive(big, limits=Limits(max_ratio=2))


def test_declared_total_beyond_the_default_limit(tmp_path):
    """2100 entries declaring 1 MiB each (each below the ratio floor): 2.05
    GiB declared, more than the default 2 GiB, refused before extraction."""
    names = [f"resources/{i:04d}.bin" for i in range(2100)]
    src = make_zip(tmp_path / "huge.ssp", {n: b"" for n in names})
    set_declared_sizes(src, {n: MiB for n in names})
    with pytest.raises(CraneCosimError) as exc:
        safe_extract(src, tmp_path / "dest", "SSP archive", Limits())
    one_sentence(exc, f"SSP archive {src} unpacks to 2.05 GiB, more than the limit of 2 GiB",
                 ENV["max_unpacked"])
    assert not (tmp_path / "dest").exists()


def test_declared_size_that_lies_is_caught_while_extracting(tmp_path):
    """The entry declares 1000 bytes and holds 4 MiB: the declared sizes pass,
    the bytes counted while extracting do not."""
    src = make_zip(tmp_path / "liar.fmu", {"modelDescription.xml": "<a/>", "resources/data.bin": bytes(4 * MiB)})
    set_declared_sizes(src, {"resources/data.bin": 1000})
    check_archive(src, "FMU", Limits())  # nothing to see in the declared sizes
    with pytest.raises(CraneCosimError) as exc:
        safe_extract(src, tmp_path / "dest", "FMU", Limits())
    one_sentence(exc, f"FMU {src} holds the entry 'resources/data.bin', which unpacks to more than the 1000 "
                      f"bytes it declares")
    assert (tmp_path / "dest" / "resources" / "data.bin").stat().st_size <= 1000 + MiB
    with pytest.raises(CraneCosimError, match="more than the 1000 bytes it declares"):
        read_member(src, "resources/data.bin", "FMU")


def test_damaged_entry_is_one_sentence(tmp_path):
    src = make_zip(tmp_path / "crc.zip", {"a.txt": "hello"})
    raw = bytearray(src.read_bytes())
    raw[raw.index(b"PK\x01\x02") + 16] ^= 0xFF  # the CRC in the central directory
    src.write_bytes(bytes(raw))
    with pytest.raises(CraneCosimError) as exc:
        read_member(src, "a.txt")
    one_sentence(exc, f"archive {src} is damaged: its entry 'a.txt' cannot be read (bad CRC-32)")


def test_too_many_entries(tmp_path):
    src = make_zip(tmp_path / "many.zip", {f"{i}.txt": b"" for i in range(11)})
    with pytest.raises(CraneCosimError) as exc:
        check_archive(src, "FMU", Limits(max_entries=10))
    one_sentence(exc, f"FMU {src} holds 11 entries, more than the limit of 10", ENV["max_entries"])


def test_default_entry_limit(tmp_path):
    src = make_zip(tmp_path / "many.zip", {f"{i}": b"" for i in range(10_001)}, zipfile.ZIP_STORED)
    with pytest.raises(CraneCosimError, match="holds 10001 entries, more than the limit of 10000"):
        check_archive(src, "FMU", Limits())


def test_small_limits_as_keyword(tmp_path):
    src = make_zip(tmp_path / "two.zip", {"a": bytes(3000), "b": bytes(3000)})
    with pytest.raises(CraneCosimError, match="unpacks to 5.86 KiB, more than the limit of 5 KiB"):
        safe_extract(src, tmp_path / "dest", limits=Limits(max_unpacked=5 * 1024))
    with pytest.raises(CraneCosimError, match="holds the entry 'a' of 2.93 KiB, more than the limit of 2 KiB"):
        read_member(src, "a", max_size=2048)


def test_limits_from_the_environment(tmp_path, monkeypatch):
    src = make_zip(tmp_path / "two.zip", {"a": bytes(3000), "b": bytes(3000)})
    monkeypatch.setenv(ENV["max_unpacked"], "4KiB")
    with pytest.raises(CraneCosimError, match="more than the limit of 4 KiB"):
        check_archive(src)
    monkeypatch.setenv(ENV["max_unpacked"], "1 MiB")
    assert len(check_archive(src)) == 2
    assert Limits.from_env() == Limits(max_unpacked=MiB)
    monkeypatch.setenv(ENV["max_ratio"], "5000")
    monkeypatch.setenv(ENV["max_entries"], "20000")
    monkeypatch.setenv(ENV["max_xml"], "1GiB")
    assert Limits.from_env() == Limits(max_unpacked=MiB, max_ratio=5000.0, max_entries=20000, max_xml=1 << 30)
    for var, raw in ((ENV["max_unpacked"], "lots"), (ENV["max_ratio"], "1000MiB"), (ENV["max_entries"], "-1")):
        monkeypatch.setenv(var, raw)
        with pytest.raises(CraneCosimError, match=f"the environment variable {var}={raw!r} is not a positive"):
            Limits.from_env()
        monkeypatch.delenv(var)


@pytest.mark.parametrize("entries,fragment", [
    ([("a.txt", "1"), ("a.txt", "2")], "holds the entry 'a.txt' twice"),
    ([("/", "")], "whose path is empty"),
    ([("a/b.txt", "1"), ("a/./b.txt", "2")], "holds the entry 'a/b.txt' twice"),
])
def test_names_twice_or_empty(tmp_path, entries, fragment):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        src = make_zip(tmp_path / "dup.zip", entries)
    with pytest.raises(CraneCosimError, match=fragment):
        safe_extract(src, tmp_path / "dest")


def test_other_compression_methods_and_encryption(tmp_path):
    src = make_zip(tmp_path / "bz.zip", {"a.txt": "x" * 100}, zipfile.ZIP_BZIP2)
    with pytest.raises(CraneCosimError, match="compressed with zip method 12; only stored and deflate"):
        check_archive(src)
    enc = make_zip(tmp_path / "enc.zip", {"a.txt": "x"})
    raw = bytearray(enc.read_bytes())
    raw[raw.index(b"PK\x01\x02") + 8] |= 1  # the "encrypted" flag
    enc.write_bytes(bytes(raw))
    with pytest.raises(CraneCosimError, match="holds the encrypted entry 'a.txt'"):
        check_archive(enc)


def test_not_a_zip_or_missing(tmp_path):
    (tmp_path / "text.ssp").write_text("hello")
    with pytest.raises(CraneCosimError, match="SSP archive .*text.ssp is not a readable zip archive"):
        check_archive(tmp_path / "text.ssp", "SSP archive")
    with pytest.raises(CraneCosimError, match="nope.ssp does not exist"):
        check_archive(tmp_path / "nope.ssp", "SSP archive")


# -- XML ---------------------------------------------------------------------------

def test_billion_laughs_is_refused_unexpanded():
    with pytest.raises(CraneCosimError) as exc:
        parse_xml(billion_laughs("<a>x</a>").encode(), "system file s.ssd")
    one_sentence(exc, "system file s.ssd holds a document type declaration (<!DOCTYPE ...>), which FMI and SSP "
                      "files never need; it is refused so that no entity is expanded and nothing is fetched")


@pytest.mark.parametrize("make", [external_entity, external_dtd])
def test_external_references_are_not_fetched(tmp_path, make):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET")
    for url in (secret.as_uri(), "file:///etc/passwd"):
        with pytest.raises(CraneCosimError, match="is refused so that no entity is expanded and nothing is fetched"):
            parse_xml(make("<a>x</a>", url).encode(), "parameter file p.ssv")
    with listening_server() as (url, connections):
        with pytest.raises(CraneCosimError, match="holds a document type declaration"):
            parse_xml(make("<a>x</a>", url).encode(), "parameter file p.ssv")
        assert connections() == 0


def test_plain_xml_and_bad_xml():
    assert parse_xml(b'<?xml version="1.0"?><a b="1">&amp;&#65;</a>', "x").text == "&A"
    with pytest.raises(CraneCosimError, match="system file s.ssd is not valid XML"):
        parse_xml(b"<a><b></a>", "system file s.ssd")
    with pytest.raises(CraneCosimError, match="is not valid XML \\(undefined entity"):
        parse_xml(b"<a>&x;</a>", "system file s.ssd")


def test_xml_file_size_cap_and_devices(tmp_path):
    big = tmp_path / "big.ssd"
    big.write_text("<a>" + " " * 2000 + "</a>")
    with pytest.raises(CraneCosimError) as exc:
        read_xml(big, f"system file {big}", Limits(max_xml=1024))
    one_sentence(exc, f"system file {big} is larger than the limit of 1 KiB for an XML file", ENV["max_xml"])
    assert read_xml(big, "x", Limits(max_xml=4096)).tag == "a"
    with pytest.raises(CraneCosimError, match="/dev/zero is not a file"):
        read_xml("/dev/zero", "parameter file /dev/zero")
    with pytest.raises(CraneCosimError, match="nope.ssv does not exist"):
        read_xml(tmp_path / "nope.ssv", f"parameter file {tmp_path / 'nope.ssv'}")
