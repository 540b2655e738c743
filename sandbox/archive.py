"""Safe extraction of an entry's archive (.zip, .tar.gz) into a work folder.

Refused: absolute paths, `..`, links that leave the folder, hard links, device files and
FIFOs, more than `max_files` members (a zip's counted in its central directory before anything
is read), members nested more than `max_depth` folders deep, more than `max_bytes` unpacked
(counted while unpacking, not trusted from headers), zip members that expand more than
`max_ratio` times, and a broken archive (a bad CRC, a truncated stream): each an UnsafeArchive
saying why, never another exception.

A zip member's file type comes from Unix mode bits, which only zips made on Unix carry (the
high 16 bits of its external attributes, with "made by" Unix). A member with no file type
there is a regular file, or a folder when its name ends in '/': Python's ``writestr`` stores
permission bits alone (``0o600``), Windows and Java tools store MS-DOS attributes only.
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import UnsafeArchive
from .workdir import DEPTH_LIMIT, WorkDir

CHUNK = 1 << 16


@dataclass(frozen=True)
class ArchiveLimits:
    max_files: int = 2000
    max_bytes: int = 64 << 20
    max_ratio: int = 200
    max_depth: int = DEPTH_LIMIT  # path components of a member: a build nested deeper fails anyway


def _clean(name: str, limits: ArchiveLimits) -> str:
    if "\\" in name or "\0" in name:
        raise UnsafeArchive(f"bad character in member name {name!r}")
    if name.startswith("/"):
        raise UnsafeArchive(f"absolute path {name!r}")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise UnsafeArchive(f"path with '..': {name!r}")
    if len(parts) > limits.max_depth:
        shown = name if len(name) <= 80 else name[:80] + "..."
        raise UnsafeArchive(f"{shown!r} is nested more than {limits.max_depth} folders deep")
    return "/".join(parts)


def _check_link(name: str, target: str) -> None:
    if target.startswith("/"):
        raise UnsafeArchive(f"link {name!r} points to an absolute path")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
    if resolved == ".." or resolved.startswith("../"):
        raise UnsafeArchive(f"link {name!r} leaves the folder")


class _Budget:
    def __init__(self, limits: ArchiveLimits) -> None:
        self.limits = limits
        self.files = 0
        self.bytes = 0

    def member(self) -> None:
        self.files += 1
        if self.files > self.limits.max_files:
            raise UnsafeArchive(f"more than {self.limits.max_files} members")

    def read(self, stream: io.BufferedIOBase | io.RawIOBase) -> bytes:
        out = bytearray()
        while chunk := stream.read(CHUNK):
            self.bytes += len(chunk)
            if self.bytes > self.limits.max_bytes:
                raise UnsafeArchive(f"unpacks to more than {self.limits.max_bytes} bytes")
            out += chunk
        return bytes(out)


def is_archive(data: bytes) -> bool:
    return data.startswith(b"PK\x03\x04") or data.startswith(b"\x1f\x8b")


# What a broken zip or gzip stream raises while it is read: a bad CRC (BadZipFile), a
# corrupt stream (zlib.error), a truncated one (EOFError), an encrypted member (RuntimeError),
# a compression method zipfile lacks (NotImplementedError), a header that does not unpack.
BROKEN = (
    zipfile.BadZipFile, zipfile.LargeZipFile, tarfile.TarError, zlib.error, EOFError, RuntimeError,
    NotImplementedError, struct.error,
)  # fmt: skip


def extract(data: bytes, work: WorkDir, limits: ArchiveLimits | None = None) -> list[str]:
    """Unpack `data` into the work folder; returns the member names. Raises UnsafeArchive."""
    limits = limits or ArchiveLimits()
    if data.startswith(b"PK\x03\x04"):
        members = _extract_zip(data, work, _Budget(limits))
    elif data.startswith(b"\x1f\x8b"):
        members = _extract_tar(data, work, _Budget(limits))
    else:
        raise UnsafeArchive("not a .zip or .tar.gz archive")
    try:
        names = list(members)
    except (OSError, ValueError, UnicodeDecodeError) as e:  # e.g. a member path through a link
        raise UnsafeArchive(f"cannot unpack: {e}") from e
    except BROKEN as e:
        raise UnsafeArchive(f"broken archive: {e}") from e
    _check_resolved(work, names)
    return names


def survey(data: bytes, limits: ArchiveLimits | None = None) -> None:
    """Refuse, writing nothing, an archive ``extract`` would refuse for its members' count,
    names, depth, kinds or declared sizes (a zip from its central directory, then its members'
    CRCs read in memory; a tar.gz from its headers, reading at most ``max_files`` of them): what
    a web request can afford to check of a contestant's archive."""
    limits = limits or ArchiveLimits()
    budget = _Budget(limits)
    try:
        if data.startswith(b"PK\x03\x04"):
            with _open_zip(data, limits) as archive:
                _zip_infos(archive, budget)
                broken = archive.testzip()  # reads each member in memory: at most max_bytes, the sizes checked
                if broken is not None:
                    raise UnsafeArchive(f"broken zip: bad CRC-32 for {broken!r}")
        elif data.startswith(b"\x1f\x8b"):
            with tarfile.open(fileobj=io.BytesIO(data), mode="r|gz") as archive:
                declared = 0
                for member in archive:
                    budget.member()
                    name = _clean(member.name, limits)
                    if member.issym():
                        _check_link(name, member.linkname)
                    elif member.islnk():
                        raise UnsafeArchive(f"hard link {name!r}")
                    elif not (member.isdir() or member.isreg()):
                        raise UnsafeArchive(f"{name!r} is a device, FIFO or other special file")
                    declared += member.size if member.isreg() else 0
                    if declared > limits.max_bytes:
                        raise UnsafeArchive(f"unpacks to more than {limits.max_bytes} bytes")
        else:
            raise UnsafeArchive("not a .zip or .tar.gz archive")
    except (OSError, ValueError, UnicodeDecodeError, *BROKEN) as e:
        raise UnsafeArchive(f"broken archive: {e}") from e


def _check_resolved(work: WorkDir, names: list[str]) -> None:
    """Each link was checked on its own; chained ones (q -> x/.., e -> q/..) can still leave
    the folder together. Resolve every member as unpacked and refuse any that leaves."""
    root = os.path.realpath(work.path)
    for name in names:
        real = os.path.realpath(os.path.join(root, name))
        if real != root and not real.startswith(root + os.sep):
            raise UnsafeArchive(f"{name!r} leaves the folder through links")


ZIP_MADE_ON_UNIX = 3
# The records that end a zip, and an entry of its central directory (APPNOTE.TXT 4.3).
_END = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
_ENTRY_SIZE = 46
_ENTRY_SIGNATURE = b"PK\x01\x02"


def _zip_mode(info: zipfile.ZipInfo) -> int:
    """The member's Unix mode (file type and permissions), 0 where the zip has none."""
    return info.external_attr >> 16 if info.create_system == ZIP_MADE_ON_UNIX else 0


def count_zip_members(data: bytes, limit: int) -> int:
    """The members a zip's central directory lists, found where ``zipfile`` looks for it,
    counted up to ``limit + 1`` at most: refusing 100,000 members this way takes microseconds,
    where ``zipfile.ZipFile`` first makes an object of each (half a second and more). A
    directory that does not parse is counted as far as it goes (zipfile then says why)."""
    end = len(data) - _END.size
    if end < 0 or data[end : end + 4] != _END_SIGNATURE or data[-2:] != b"\0\0":
        end = data.rfind(_END_SIGNATURE, max(0, len(data) - _END.size - 0xFFFF))
    if end < 0 or end + _END.size > len(data):
        return 0
    size = _END.unpack_from(data, end)[5]
    start = end - size
    locator = end - _ZIP64_LOCATOR.size
    record = locator - _ZIP64_END.size
    if record >= 0 and data[locator : locator + 4] == b"PK\x06\x07" and data[record : record + 4] == b"PK\x06\x06":
        size = _ZIP64_END.unpack_from(data, record)[8]
        start = record - size
    count, at, stop = 0, start, min(start + size, len(data))
    while at >= 0 and at + _ENTRY_SIZE <= stop and data[at : at + 4] == _ENTRY_SIGNATURE and count <= limit:
        count += 1
        names, extra, comment = struct.unpack_from("<3H", data, at + 28)
        at += _ENTRY_SIZE + names + extra + comment
    return count


def _open_zip(data: bytes, limits: ArchiveLimits) -> zipfile.ZipFile:
    if count_zip_members(data, limits.max_files) > limits.max_files:
        raise UnsafeArchive(f"more than {limits.max_files} members")
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except (*BROKEN, OSError, ValueError) as e:
        raise UnsafeArchive(f"broken zip: {e}") from e


def _zip_infos(archive: zipfile.ZipFile, budget: _Budget) -> list[tuple[zipfile.ZipInfo, str, int]]:
    """Each member with its clean name and file type, every one checked before any is read."""
    limits = budget.limits
    infos = archive.infolist()
    if sum(i.file_size for i in infos) > limits.max_bytes:
        raise UnsafeArchive(f"unpacks to more than {limits.max_bytes} bytes")
    found = []
    for info in infos:
        budget.member()
        name = _clean(info.filename, limits)
        kind = stat.S_IFMT(_zip_mode(info))
        if info.compress_size and info.file_size / info.compress_size > limits.max_ratio:
            raise UnsafeArchive(f"{name!r} expands more than {limits.max_ratio} times")
        if kind not in (0, stat.S_IFREG, stat.S_IFLNK) and not info.is_dir():  # no file type: a regular file
            raise UnsafeArchive(f"{name!r} is not a regular file")
        found.append((info, name, kind))
    return found


def _extract_zip(data: bytes, work: WorkDir, budget: _Budget) -> Iterator[str]:
    with _open_zip(data, budget.limits) as archive:
        for info, name, kind in _zip_infos(archive, _Budget(budget.limits)):
            if not name:
                continue
            if info.is_dir():
                work.mkdir(name)
            elif kind == stat.S_IFLNK:
                with archive.open(info) as f:
                    target = f.read(4096).decode("utf-8", errors="strict")
                _check_link(name, target)
                work.symlink(name, target)
            else:
                with archive.open(info) as f:
                    content = budget.read(f)
                work.write_file(name, content, 0o755 if _zip_mode(info) & 0o111 else 0o644)
            yield name


def _extract_tar(data: bytes, work: WorkDir, budget: _Budget) -> Iterator[str]:
    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")  # noqa: SIM115 - closed below
    except (tarfile.TarError, OSError, EOFError) as e:
        raise UnsafeArchive(f"broken tar.gz: {e}") from e
    with archive:
        try:
            for member in archive:
                budget.member()
                name = _clean(member.name, budget.limits)
                if not name:
                    continue
                if member.isdir():
                    work.mkdir(name)
                elif member.issym():
                    _check_link(name, member.linkname)
                    work.symlink(name, member.linkname)
                elif member.islnk():
                    raise UnsafeArchive(f"hard link {name!r}")
                elif member.isreg():
                    if member.size > budget.limits.max_bytes:
                        raise UnsafeArchive(f"unpacks to more than {budget.limits.max_bytes} bytes")
                    f = archive.extractfile(member)
                    assert f is not None
                    work.write_file(name, budget.read(f), 0o755 if member.mode & 0o111 else 0o644)
                else:
                    raise UnsafeArchive(f"{name!r} is a device, FIFO or other special file")
                yield name
        except (tarfile.TarError, EOFError) as e:
            raise UnsafeArchive(f"cannot unpack: {e}") from e
