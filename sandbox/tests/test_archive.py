"""Issue 34, item 6: an archive is unpacked or refused in words (UnsafeArchive), never another
exception, and one of 100,000 members is refused from its central directory, before anything is
read. Shared by contestants' archives (their builds) and uploaded games (judging/uploaded/hosting.py)."""

from __future__ import annotations

import io
import os
import struct
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.archive import ArchiveLimits, count_zip_members, extract, survey
from sandbox.errors import UnsafeArchive
from sandbox.programs import build_program
from sandbox.workdir import WorkDir


def _zip(files: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def _tgz(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _bad_crc() -> bytes:
    """A zip whose one member's stored bytes no longer match its CRC (one byte flipped)."""
    data = bytearray(_zip({"main.py": b"print('hello')\n" * 20}, zipfile.ZIP_STORED))
    at = data.index(b"print")
    data[at] ^= 0x20
    return bytes(data)


def _work(tmp_path: Path) -> WorkDir:
    root = tmp_path / "files"
    root.mkdir()
    return WorkDir(root, os.getuid(), 64)


def _unpacked(tmp_path: Path) -> list[str]:
    return sorted(str(p.relative_to(tmp_path / "files")) for p in (tmp_path / "files").rglob("*"))


MANY = _zip({f"f{n}": b"" for n in range(100_000)}, zipfile.ZIP_STORED)  # zipfile writes it as a zip64


def test_a_zip_of_100000_members_is_refused_from_its_directory_at_once(tmp_path):
    started = time.perf_counter()
    with pytest.raises(UnsafeArchive, match="more than 2000 members"):
        extract(MANY, _work(tmp_path))
    assert time.perf_counter() - started < 0.2  # zipfile alone took half a second to list them
    assert _unpacked(tmp_path) == []  # nothing was read before the refusal
    assert count_zip_members(MANY, 2000) == 2001  # counted no further than the limit


def test_a_zip_that_lies_about_its_count_is_counted_entry_by_entry(tmp_path):
    data = bytearray(_zip({f"f{n}": b"" for n in range(3000)}, zipfile.ZIP_STORED))
    end = data.rindex(b"PK\x05\x06")
    struct.pack_into("<2H", data, end + 8, 1, 1)  # "one member", says the end record
    assert count_zip_members(bytes(data), 2000) == 2001
    with pytest.raises(UnsafeArchive, match="more than 2000 members"):
        extract(bytes(data), _work(tmp_path))


def test_an_ordinary_zip_is_counted_exactly():
    assert count_zip_members(_zip({"a": b"1", "b/c": b"2"}), 2000) == 2
    assert count_zip_members(b"PK\x03\x04 broken", 2000) == 0  # zipfile says why


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (_bad_crc(), "broken archive: Bad CRC-32 for file 'main.py'"),
        (_zip({"main.py": b"x" * 10_000}, zipfile.ZIP_STORED)[:-200], "broken zip"),  # its end cut off
        (_tgz({"main.py": b"print(1)\n" * 1000})[:-100], "broken"),  # a truncated gzip stream
        (b"\x1f\x8b" + os.urandom(200), "broken"),
        (_zip({"a/" * 40 + "main.py": b"x"}), "is nested more than 32 folders deep"),
        (_tgz({"a/" * 40 + "main.py": b"x"}), "is nested more than 32 folders deep"),
        (_zip({"a/" * 10_000 + "main.py": b"x"}), "is nested more than 32 folders deep"),
    ],
    ids=["bad-crc", "cut-zip", "cut-tar-gz", "garbage-gzip", "deep-zip", "deep-tar-gz", "very-deep-zip"],
)
def test_a_broken_or_deep_archive_is_refused_in_words(tmp_path, data, said):
    with pytest.raises(UnsafeArchive, match=said.replace("(", r"\(")):
        extract(data, _work(tmp_path))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (MANY, "more than 2000 members"),
        (_bad_crc(), "broken zip: bad CRC-32 for 'main.py'"),
        (_tgz({f"f{n}": b"" for n in range(2001)}), "more than 2000 members"),
        (_zip({"a/" * 40 + "main.py": b"x"}), "nested more than 32 folders deep"),
        (_zip({"../main.py": b"x"}), "path with '..'"),
        (_zip({"zeros": bytes(70 << 20)}), "unpacks to more than"),
        (_tgz({"zeros": bytes(70 << 20)}), "unpacks to more than"),
        (b"#!/bin/sh\n", "not a .zip or .tar.gz archive"),
    ],
    ids=["many-zip", "bad-crc", "many-tar-gz", "deep", "slip", "zip-bomb", "tar-bomb", "not-an-archive"],
)
def test_a_survey_refuses_what_extract_would_without_unpacking(data, said):
    started = time.perf_counter()
    with pytest.raises(UnsafeArchive, match=said):
        survey(data)
    assert time.perf_counter() - started < 1.0


def test_a_survey_passes_a_sound_archive_and_limits_are_its_callers():
    survey(_zip({"src/main.c": b"int main(void){return 0;}\n", "Makefile": b"all:\n"}))
    survey(_tgz({"runme": b"#!/bin/sh\n"}))
    with pytest.raises(UnsafeArchive, match="more than 1 members"):
        survey(_zip({"a": b"", "b": b""}), ArchiveLimits(max_files=1))


@pytest.mark.parametrize(
    "data", [_bad_crc(), MANY, _zip({"a/" * 40 + "runme": b"#!/bin/sh\n"})], ids=["crc", "many", "deep"]
)
def test_a_contestants_broken_archive_fails_its_build_in_words(sandbox_settings, data):
    build = build_program(data, "entry.zip", settings=sandbox_settings)
    assert not build.ok and build.log.startswith("archive refused: ")


SOUND = _zip({"main.py": b"print('hello')\n" * 50, "lib/util.py": b"x = 1\n"})


@settings(max_examples=200, deadline=None)
@given(cuts=st.lists(st.tuples(st.integers(0, len(SOUND) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_a_damaged_zip_is_unpacked_or_refused_in_words_never_another_error(tmp_path_factory, cuts):
    data = bytearray(SOUND)
    for at, value in cuts:
        data[at] = value
    tmp_path = tmp_path_factory.mktemp("damaged")
    for check in (lambda: survey(bytes(data)), lambda: extract(bytes(data), _work(tmp_path))):
        try:
            check()
        except UnsafeArchive as e:
            assert str(e)
