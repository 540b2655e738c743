"""Safe extraction of an entry's archive (.zip, .tar.gz) into a work folder.

Refused: absolute paths, `..`, links that leave the folder, hard links, device files and
FIFOs, more than `max_files` members, more than `max_bytes` unpacked (counted while
unpacking, not trusted from headers), and zip members that expand more than `max_ratio` times.

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
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

from .errors import UnsafeArchive
from .workdir import WorkDir

CHUNK = 1 << 16


@dataclass(frozen=True)
class ArchiveLimits:
    max_files: int = 2000
    max_bytes: int = 64 << 20
    max_ratio: int = 200


def _clean(name: str) -> str:
    if "\\" in name or "\0" in name:
        raise UnsafeArchive(f"bad character in member name {name!r}")
    if name.startswith("/"):
        raise UnsafeArchive(f"absolute path {name!r}")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise UnsafeArchive(f"path with '..': {name!r}")
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
    _check_resolved(work, names)
    return names


def _check_resolved(work: WorkDir, names: list[str]) -> None:
    """Each link was checked on its own; chained ones (q -> x/.., e -> q/..) can still leave
    the folder together. Resolve every member as unpacked and refuse any that leaves."""
    root = os.path.realpath(work.path)
    for name in names:
        real = os.path.realpath(os.path.join(root, name))
        if real != root and not real.startswith(root + os.sep):
            raise UnsafeArchive(f"{name!r} leaves the folder through links")


ZIP_MADE_ON_UNIX = 3


def _zip_mode(info: zipfile.ZipInfo) -> int:
    """The member's Unix mode (file type and permissions), 0 where the zip has none."""
    return info.external_attr >> 16 if info.create_system == ZIP_MADE_ON_UNIX else 0


def _extract_zip(data: bytes, work: WorkDir, budget: _Budget) -> Iterator[str]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as e:
        raise UnsafeArchive(f"broken zip: {e}") from e
    with archive:
        infos = archive.infolist()
        if sum(i.file_size for i in infos) > budget.limits.max_bytes:
            raise UnsafeArchive(f"unpacks to more than {budget.limits.max_bytes} bytes")
        for info in infos:
            budget.member()
            name = _clean(info.filename)
            mode = _zip_mode(info)
            kind = stat.S_IFMT(mode)
            if info.compress_size and info.file_size / info.compress_size > budget.limits.max_ratio:
                raise UnsafeArchive(f"{name!r} expands more than {budget.limits.max_ratio} times")
            if not name:
                continue
            if info.is_dir():
                work.mkdir(name)
            elif kind == stat.S_IFLNK:
                with archive.open(info) as f:
                    target = f.read(4096).decode("utf-8", errors="strict")
                _check_link(name, target)
                work.symlink(name, target)
            elif kind not in (0, stat.S_IFREG):  # no file type: a regular file
                raise UnsafeArchive(f"{name!r} is not a regular file")
            else:
                with archive.open(info) as f:
                    content = budget.read(f)
                work.write_file(name, content, 0o755 if mode & 0o111 else 0o644)
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
                name = _clean(member.name)
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
