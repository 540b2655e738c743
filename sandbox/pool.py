"""Jails made ahead of need: the start of a fresh jail (the launcher, bubblewrap's set-up and
the runner's handshake, most of its latency) taken off the caller's path.

A jail's shape is all that must be known before bubblewrap starts: the limits (the rlimits
and tmpfs sizes are set then), the toolchain's binds and the installation. ``open_jail``
asks the process's pool (when ``SANDBOX_POOL`` is on) for a jail of its shape when it needs
one in a slot of its own (no endpoint, no login name: ``run_program``, a build): the pool
hands over the ready one, if any, and its keeper thread starts the next. Each pooled jail is
used once, by one program, and closed like any other: a pool saves time, never a clean-up.

A ready jail holds a slot and its uid, marked spare (sandbox/slots.py): a reservation short
of free slots asks for it back, and the keeper closes it within WANT_POLL_S, then makes no
more for HOLD_OFF_S. A shape not asked for in IDLE_S is let go. The CPU a jail costs the
machine is the same; only where a core is idle (a quiet host, a worker between matches)
does the caller gain the start's time.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .conf import SandboxSettings
from .errors import SandboxError
from .limits import Limits
from .slots import WANT_POLL_S, reserve

if TYPE_CHECKING:
    from .jail import Bind, Jail

log = logging.getLogger(__name__)

HOLD_OFF_S = 1.0  # after giving a slot back, no jail is made ahead for this long
IDLE_S = 60.0  # a shape not asked for this long has no jail made ahead

_pools: dict[SandboxSettings, Pool] = {}
_pools_lock = threading.Lock()


@dataclass(frozen=True)
class Shape:
    limits: Limits
    binds: tuple[Bind, ...]


class Pool:
    """At most one ready jail per shape for one installation, kept by a thread of its own."""

    def __init__(self, settings: SandboxSettings) -> None:
        self.settings = settings
        self._ready: dict[Shape, Jail] = {}  # started, nothing run in them, their slots marked spare
        self._asked: dict[Shape, float] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closing = False
        self._hold_off_until = 0.0
        self.made = self.taken = self.given_back = 0  # for tests and benchmarks
        self._thread = threading.Thread(target=self._keep, name="sandbox-pool", daemon=True)
        self._thread.start()

    def take(self, limits: Limits, binds: Sequence[Bind]) -> Jail | None:
        """A started jail of this shape, nothing run in it yet, or None (then the caller starts
        one itself); the next is made in the background."""
        shape = Shape(limits, tuple(binds))
        with self._lock:
            self._asked[shape] = time.monotonic()
            jail = self._ready.pop(shape, None)
        self._wake.set()
        if jail is None:
            return None
        assert jail.slot is not None
        jail.slot.unmark_spare()
        if jail._bwrap is None or jail._bwrap.poll() is not None:
            _close_quietly(jail)  # its bubblewrap died while it waited: not worth a look
            return None
        self.taken += 1
        return jail

    def close(self) -> None:
        """Stop the keeper and close every ready jail (their slots given back)."""
        self._closing = True
        self._wake.set()
        self._thread.join()
        with self._lock:
            ready, self._ready = list(self._ready.values()), {}
        for jail in ready:
            _close_quietly(jail)

    # -- the keeper -------------------------------------------------------------------------

    def _keep(self) -> None:
        while not self._closing:
            self._wake.wait(WANT_POLL_S)
            self._wake.clear()
            if self._closing:
                return
            try:
                self._give_back_wanted()
                self._make_ready()
            except Exception:  # a fault here is never a caller's: it starts its own jail
                log.exception("sandbox pool: cannot make a jail ahead")
                self._hold_off_until = time.monotonic() + HOLD_OFF_S

    def _give_back_wanted(self) -> None:
        now = time.monotonic()
        with self._lock:
            gone = [s for s, j in self._ready.items() if _wanted(j, self.settings) or now - self._asked[s] > IDLE_S]
            jails = [self._ready.pop(s) for s in gone]
        for jail in jails:
            self.given_back += 1
            self._hold_off_until = now + HOLD_OFF_S
            _close_quietly(jail)

    def _make_ready(self) -> None:
        from .jail import Jail

        now = time.monotonic()
        if now < self._hold_off_until:
            return
        with self._lock:
            todo = [s for s, at in self._asked.items() if s not in self._ready and now - at <= IDLE_S]
        for shape in todo:
            try:
                slot = reserve(self.settings, 1, timeout=0, want_spares=False).slots[0]
            except SandboxError:
                return  # no free slot: none is taken from a match
            jail = Jail(shape.limits, binds=shape.binds, settings=self.settings, slot=slot)
            try:
                jail.start()
            except BaseException:
                slot.release()
                raise
            jail._own_slot = True  # the jail's own from now on: released when it closes
            slot.mark_spare(self.settings)
            with self._lock:
                if self._closing or shape in self._ready:
                    keep = False
                else:
                    self._ready[shape] = jail
                    keep = True
            if not keep:
                _close_quietly(jail)
            self.made += 1


def _wanted(jail: Jail, settings: SandboxSettings) -> bool:
    return jail.slot is not None and jail.slot.wanted(settings)


def _close_quietly(jail: Jail) -> None:
    try:
        jail.close()
    except (SandboxError, OSError):
        log.exception("sandbox pool: closing a ready jail")


def pool_for(settings: SandboxSettings) -> Pool | None:
    """The process's pool for this installation, started on first use; None when pools are off."""
    if not settings.pool:
        return None
    with _pools_lock:
        pool = _pools.get(settings)
        if pool is None:
            pool = _pools[settings] = Pool(settings)
        return pool


def close_pools() -> None:
    """Close every pool of this process (at exit; tests, before they look for leftovers)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        with contextlib.suppress(Exception):
            pool.close()


atexit.register(close_pools)
# A forked child has no keeper thread, and the ready jails are its parent's: it starts afresh.
os.register_at_fork(after_in_child=_pools.clear)
