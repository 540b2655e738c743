"""Sandbox slots and uids: how many jails one installation runs at once on a host, and as whom.

A slot is a lock file under ``SANDBOX_ROOT/slots``, held with ``flock``: the kernel drops it when
its holder dies, however it dies, so a slot is never lost to a crash. A match reserves every
slot it needs at once (:func:`reserve`), under a short allocation lock, and gives back the ones
it took whenever it cannot have them all: two games can never each hold one slot while
waiting for the other's, whatever the number of slots and concurrent games.

Each slot taken also leases a uid from a pool shared by every installation on the host
(``SANDBOX_UID_BASE`` .. + ``SANDBOX_UID_COUNT``), locked by uid number in a host-wide folder,
so two installations (or a worker and a ``manage.py play``) never run programs as the same
host uid at the same time.

A slot held by a jail made ahead of need (sandbox/pool.py) is marked spare (its holder also
locks ``N.spare``): a reservation that finds too few free slots, but enough with the spare
ones, asks for those back (it writes ``N.want``) and tries again; the pool's keeper closes
that jail within WANT_POLL_S and makes no more for a while. So a ready jail never keeps a
match waiting for longer than that.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import random
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .conf import SandboxSettings
from .errors import SandboxError, SandboxUnavailable
from .interrupt import check_stop

log = logging.getLogger(__name__)

WANT_POLL_S = 0.01  # how often a pool's keeper looks for a reservation that wants a spare slot back
WAIT_LOG_AFTER_S = 1.0  # a wait longer than this is logged, and again every WAIT_LOG_EVERY_S
WAIT_LOG_EVERY_S = 60.0
POLL_S = 0.05


def uid_lock_folder() -> Path:
    """The host-wide folder of uid leases (the same for every installation on the host)."""
    run_lock = Path("/run/lock")
    base = run_lock if run_lock.is_dir() and os.access(run_lock, os.W_OK) else Path(tempfile.gettempdir())
    return base / "arbiter-sandbox-uids"


def own_folder(folder: Path, mode: int) -> Path:
    """Create ``folder`` if needed and check that it is a real folder of this uid: under a
    shared /tmp, another user who made it first could swap what is in it for links."""
    folder.mkdir(parents=True, exist_ok=True)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
        raise SandboxUnavailable(f"{folder} is not a folder owned by uid {os.geteuid()}: refusing to use it")
    if stat.S_IMODE(st.st_mode) != mode:
        os.chmod(folder, mode)
    return folder


def _try_lock(path: Path) -> int | None:
    """An fd holding an exclusive flock on ``path``, or None if someone else holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


@dataclass
class Slot:
    number: int
    uid: int
    _fd: int
    _uid_fd: int = -1

    _spare_fd: int = -1
    _spare_since: float = 0.0

    def release(self) -> None:
        for fd in (self._spare_fd, self._uid_fd, self._fd):
            if fd >= 0:
                os.close(fd)  # closing drops the flock
        self._fd = self._uid_fd = self._spare_fd = -1

    @property
    def held(self) -> bool:
        return self._fd >= 0

    def mark_spare(self, settings: SandboxSettings) -> None:
        """Say that this slot's holder gives it back when a reservation wants it (a ready jail's)."""
        folder = own_folder(settings.root / "slots", 0o700)
        fd = _try_lock(folder / f"{self.number}.spare")
        if fd is None:
            raise SandboxError(f"slot {self.number} is marked spare by another holder")
        self._spare_fd, self._spare_since = fd, time.time()

    def unmark_spare(self) -> None:
        """In use from now on: no reservation can have it back."""
        if self._spare_fd >= 0:
            os.close(self._spare_fd)
            self._spare_fd = -1

    def wanted(self, settings: SandboxSettings) -> bool:
        """Whether a reservation asked for this spare slot since it was marked."""
        try:
            return os.stat(settings.root / "slots" / f"{self.number}.want").st_mtime >= self._spare_since
        except FileNotFoundError:
            return False


@dataclass
class Reservation:
    """Slots held together; release them all with ``release()`` or by leaving ``with``."""

    slots: list[Slot] = field(default_factory=list)
    waited_s: float = 0.0

    def __enter__(self) -> Reservation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __getitem__(self, index: int) -> Slot:
        return self.slots[index]

    def __len__(self) -> int:
        return len(self.slots)

    def __iter__(self) -> Iterator[Slot]:
        return iter(self.slots)

    def release(self) -> None:
        for slot in self.slots:
            slot.release()


def _lease_uid(settings: SandboxSettings) -> tuple[int, int] | None:
    """(uid, fd of its lock) for a uid no jail on this host runs as now, or None."""
    folder = own_folder(uid_lock_folder(), 0o700)
    start = random.randrange(settings.uid_count)  # spread the lessees over the pool
    for i in range(settings.uid_count):
        uid = settings.uid_base + (start + i) % settings.uid_count
        fd = _try_lock(folder / f"{uid}.lock")
        if fd is not None:
            return uid, fd
    return None


class _NotNow(Exception):
    """Not every slot (or uid) wanted is free now."""


def _take(settings: SandboxSettings, count: int, want_spares: bool = True) -> list[Slot] | None:
    folder = own_folder(settings.root / "slots", 0o700)
    alloc = os.open(folder / "allocate.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    taken: list[Slot] = []
    try:
        fcntl.flock(alloc, fcntl.LOCK_EX)  # held for microseconds: only while taking
        for n in range(settings.slots):
            fd = _try_lock(folder / f"{n}.lock")
            if fd is None:
                continue
            taken.append(Slot(n, -1, fd))
            if len(taken) == count:
                break
        if len(taken) < count:
            if want_spares:
                _want_spares(folder, settings, count - len(taken), {slot.number for slot in taken})
            raise _NotNow
        for slot in taken:
            lease = _lease_uid(settings)
            if lease is None:
                raise _NotNow
            slot.uid, slot._uid_fd = lease
        return taken
    except _NotNow:
        for slot in taken:
            slot.release()
        return None
    except BaseException:
        for slot in taken:
            slot.release()
        raise
    finally:
        os.close(alloc)


def _want_spares(folder: Path, settings: SandboxSettings, missing: int, taken: set[int]) -> None:
    """Ask for spare slots back when they make up what is missing (not otherwise: a slot given
    back would only be taken again by a ready jail's keeper, for nothing)."""
    spare = []
    for n in range(settings.slots):
        if n in taken:
            continue
        fd = _try_lock(folder / f"{n}.spare")
        if fd is None:
            spare.append(n)
        else:
            os.close(fd)
    if len(spare) < missing:
        return
    for n in spare[:missing]:
        (folder / f"{n}.want").touch()


def reserve(
    settings: SandboxSettings,
    count: int = 1,
    *,
    timeout: float = 600.0,
    on_wait: Callable[[str], None] | None = None,
    want_spares: bool = True,
) -> Reservation:
    """Take ``count`` slots at once, waiting up to ``timeout`` seconds for them; a wait of more
    than a second is logged (and told to ``on_wait``). Without ``want_spares`` (a pool making
    a jail ahead) no ready jail is asked for its slot."""
    if count > settings.slots:
        raise SandboxError(f"{count} programs must run at once, but this host allows {settings.slots} (SANDBOX_SLOTS)")
    started = time.monotonic()
    next_log = started + WAIT_LOG_AFTER_S
    while True:
        taken = _take(settings, count, want_spares)
        now = time.monotonic()
        if taken is not None:
            if now - started >= WAIT_LOG_AFTER_S:
                log.info("sandbox: got %d slot(s) after waiting %.1f s", count, now - started)
            return Reservation(taken, now - started)
        if now - started > timeout:
            raise SandboxError(
                f"no {count} free sandbox slot(s) in {timeout:.0f} s ({settings.slots} slots in {settings.root})"
            )
        if now >= next_log:
            message = (
                f"waiting for {count} sandbox slot(s): {_busy(settings)} of {settings.slots} busy "
                f"in {settings.root} for {now - started:.0f} s"
            )
            log.warning("sandbox: %s", message)
            if on_wait is not None:
                on_wait(message)
            next_log = now + WAIT_LOG_EVERY_S
        check_stop()  # holding nothing: a safe point to stop
        time.sleep(POLL_S * (0.5 + random.random()))


def reserve_arena(
    settings: SandboxSettings,
    count: int,
    *,
    timeout: float = 600.0,
    on_wait: Callable[[str], None] | None = None,
) -> Reservation:
    """A race's slots: ``count`` arena slots, one per entrant, each with a uid of its own,
    numbered after the installation's slots (which no match reserves), first in the
    reservation; then every one of the installation's slots, so that while the race runs its
    entrants share this host's CPU with nothing else of this installation (the page's "arena
    machine")."""
    held = reserve(settings, settings.slots, timeout=timeout, on_wait=on_wait)
    arena: list[Slot] = []
    try:
        folder = own_folder(settings.root / "slots", 0o700)
        for number in range(settings.slots, settings.slots + count):
            fd = _try_lock(folder / f"{number}.lock")
            if fd is None:  # only a race holds these, and a race holds every slot first
                raise SandboxError(f"arena slot {number} is held by another process")
            slot = Slot(number, -1, fd)
            arena.append(slot)
            lease = _lease_uid(settings)
            if lease is None:
                raise SandboxError(f"no free uid for {count} entrants in the pool of {settings.uid_count}")
            slot.uid, slot._uid_fd = lease
    except BaseException:
        for slot in arena:
            slot.release()
        held.release()
        raise
    return Reservation(arena + held.slots, held.waited_s)


def _busy(settings: SandboxSettings) -> int:
    busy = 0
    for n in range(settings.slots):
        with holding(settings, n) as slot:
            busy += slot is None
    return busy


def acquire_slot(settings: SandboxSettings, timeout: float = 600.0) -> Slot:
    """One slot (with its uid), for a jail of its own."""
    return reserve(settings, 1, timeout=timeout).slots[0]


@contextlib.contextmanager
def holding(settings: SandboxSettings, number: int) -> Iterator[Slot | None]:
    """Slot ``number`` while the block runs if nobody holds it now, else None (no uid is
    leased: for looking at a slot, or cleaning up after a dead holder)."""
    fd = _try_lock(own_folder(settings.root / "slots", 0o700) / f"{number}.lock")
    slot = None if fd is None else Slot(number, -1, fd)
    try:
        yield slot
    finally:
        if slot is not None:
            slot.release()
