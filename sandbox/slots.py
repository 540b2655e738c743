"""Concurrency slots: slot n runs as its own uid, locked across worker processes with flock."""

from __future__ import annotations

import fcntl
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .conf import SandboxSettings
from .errors import SandboxError


@dataclass
class Slot:
    number: int
    uid: int
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing drops the flock
            self._fd = -1


def acquire_slot(settings: SandboxSettings, timeout: float = 600.0) -> Slot:
    """Take the first free slot; wait (polling) up to `timeout` seconds for one."""
    folder = settings.root / "slots"
    folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    while True:
        for n in range(settings.slots):
            fd = os.open(Path(folder, f"{n}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return Slot(n, settings.uid(n), fd)
        if time.monotonic() > deadline:
            raise SandboxError(f"no free sandbox slot in {timeout:.0f} s ({settings.slots} slots)")
        time.sleep(0.05)
