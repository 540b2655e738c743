"""The disks a host writes on, and what happens when one fills.

A worker writes replays and submissions to the media folder (shared by every host), jails'
work folders to the sandbox's root and builds to its cache. When one of them is below
``DISK_MIN_FREE_MB`` the worker claims no match and builds nothing: each of its processes
keeps the token it took and waits for room (``wait_for_room``), so no other is taken and none
goes back to the broker in a loop, and it starts again within seconds of the room coming back.
Its heartbeat says which disk, in its row (so do /health/, /metrics and the judges' console) and
in the log once a minute (``FullDiskLog``). A game that finishes while the media disk is full keeps its result (it was
played fairly): only its replay is not kept, which the attempt says. An upload that meets a
full disk is refused with a sentence (507), leaving no half-written file.
"""

from __future__ import annotations

import errno
import logging
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from sandbox.conf import get_settings

log = logging.getLogger(__name__)

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


def wait_for_room(seconds: float, every: float = 2.0) -> bool:
    """Whether every disk this host writes on has room, waiting up to ``seconds`` for it
    (looking every ``every`` seconds, saying nothing)."""
    deadline = time.monotonic() + seconds
    while low():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(every, left))
    return True


class FullDiskLog:
    """What a worker's heartbeat says of its full disks: a line when one fills, again once a
    minute (``every``) while one is full, and one when there is room again."""

    def __init__(self, hostname: str, every: float = 60.0, clock=time.monotonic) -> None:
        self.hostname = hostname
        self.every = every
        self.clock = clock
        self.said_at: float | None = None

    def look(self, full: list[Disk]) -> None:
        now = self.clock()
        if full and (self.said_at is None or now - self.said_at >= self.every):
            what = "; ".join(str(disk) for disk in full)
            log.error("%s claims no match and builds nothing while %s", self.hostname, what)
            self.said_at = now
        elif not full and self.said_at is not None:
            log.warning("%s has room again on its disks: it claims and builds", self.hostname)
            self.said_at = None
