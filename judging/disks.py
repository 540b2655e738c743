"""The disks a host writes on, and what happens when one fills.

A worker writes replays and submissions to the media folder (shared by every host), jails'
work folders to the sandbox's root and builds to its cache. When one of them is below
``DISK_MIN_FREE_MB`` the worker claims no match and builds nothing (its tokens go back to the
broker and are tried again); its heartbeat says which disk, and so do /health/, /metrics and
the judges' console. A game that finishes while the media disk is full keeps its result (it was
played fairly): only its replay is not kept, which the attempt says. An upload that meets a
full disk is refused with a sentence (507), leaving no half-written file.
"""

from __future__ import annotations

import errno
import shutil
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

MB = 1024 * 1024


class DiskFull(Exception):
    """A disk this host writes on is full, or nearly: the message names it."""


@dataclass(frozen=True)
class Disk:
    name: str  # media, sandbox, builds
    path: Path
    free: int  # bytes
    low: bool

    def __str__(self) -> str:
        return f"the {self.name} disk ({self.path}) has {self.free // MB} MB free, below {minimum() // MB} MB"


def minimum() -> int:
    return int(settings.DISK_MIN_FREE_MB) * MB


def paths() -> dict[str, Path]:
    """The folders this host writes on, by name (the sandbox's only where it is set up)."""
    from sandbox.conf import get_settings

    found = {"media": Path(settings.MEDIA_ROOT)}
    sandbox = get_settings()
    found["sandbox"], found["builds"] = sandbox.root, sandbox.cache_dir
    return found


def _free(path: Path) -> int:
    """Free bytes where ``path`` is (or would be: its nearest existing folder)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return shutil.disk_usage(candidate).free
    return 0


def look() -> list[Disk]:
    """Each disk this host writes on, with its free space now."""
    least = minimum()
    return [Disk(name, path, free, free < least) for name, path in paths().items() for free in [_free(path)]]


def low() -> list[Disk]:
    return [disk for disk in look() if disk.low]


def check() -> None:
    """DiskFull, naming each disk, when one this host writes on is below the minimum."""
    full = low()
    if full:
        raise DiskFull("; ".join(str(disk) for disk in full))


def is_full(error: BaseException) -> bool:
    """Whether an OSError is a disk (or quota) that is full."""
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)
