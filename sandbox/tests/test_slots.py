"""Slots and uids under contention, and what the host keeps of one installation or another."""

from __future__ import annotations

import logging
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.conf import SandboxSettings
from sandbox.errors import SandboxError, SandboxUnavailable
from sandbox.jail import Jail, reserve_slots, sweep
from sandbox.limits import Limits
from sandbox.slots import holding, reserve

from .conftest import TEST_ROOT, TEST_UID_BASE, TEST_UID_COUNT, leftover_cgroups, leftover_mounts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tmp_path(tmp_path: Path) -> Iterator[Path]:
    """A folder the jails' uids can reach (pytest's own are private to root), removed after."""
    folder = TEST_ROOT.parent / f"{TEST_ROOT.name}-{tmp_path.name}"
    folder.mkdir(mode=0o711)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def settings_at(root: Path, slots: int = 2) -> SandboxSettings:
    return SandboxSettings(
        root=root, cache_dir=root / "cache", slots=slots, uid_base=TEST_UID_BASE, uid_count=TEST_UID_COUNT
    )


def test_a_reservation_takes_every_slot_or_none(tmp_path: Path) -> None:
    s = settings_at(tmp_path / "root", slots=2)
    with reserve(s, 1) as one:
        with pytest.raises(SandboxError, match="no 2 free sandbox slot"):
            reserve(s, 2, timeout=0.3)
        free = 1 - one[0].number
        with holding(s, free) as slot:
            assert slot is not None  # the failed reservation gave back the slot it could take
    with reserve(s, 2) as both:
        assert sorted(slot.number for slot in both) == [0, 1]
        assert len({slot.uid for slot in both}) == 2
    with pytest.raises(SandboxError, match="allows 2"):
        reserve(s, 3)


def test_two_seat_games_never_wait_on_each_other(tmp_path: Path) -> None:
    # Four two-seat games on two slots: one slot at a time, each would hold one and wait for a
    # second forever. Taken at once, they take turns.
    s = settings_at(tmp_path / "root", slots=2)
    done: list[int] = []

    def game(n: int) -> None:
        for _ in range(5):
            with reserve(s, 2, timeout=30):
                time.sleep(0.01)
        done.append(n)

    threads = [threading.Thread(target=game, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(done) == [0, 1, 2, 3]


def test_a_wait_for_a_slot_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    s = settings_at(tmp_path / "root", slots=1)
    told: list[str] = []
    caplog.set_level(logging.INFO, logger="sandbox.slots")
    with reserve(s, 1) as held:
        waiter = threading.Thread(target=lambda: reserve(s, 1, timeout=30, on_wait=told.append).release())
        waiter.start()
        deadline = time.monotonic() + 10
        while not told and time.monotonic() < deadline:
            time.sleep(0.05)
        held.release()
        waiter.join(timeout=10)
    assert told and "waiting for 1 sandbox slot(s): 1 of 1 busy" in told[0]
    assert any("waiting for 1 sandbox slot" in r.getMessage() for r in caplog.records)
    assert any("got 1 slot(s) after waiting" in r.getMessage() for r in caplog.records)


def test_two_installations_on_one_host_never_touch_each_others_jails(tmp_path: Path) -> None:
    a, b = settings_at(tmp_path / "a"), settings_at(tmp_path / "b")
    assert a.cgroup_parent != b.cgroup_parent
    with Jail(Limits(cpu_s=2), settings=a) as first:
        assert first.slot is not None and first.slot.number == 0
        # The other installation's slot 0 is free: it starts there, cleaning up "its" slot 0.
        with Jail(Limits(cpu_s=2), settings=b) as second:
            assert second.slot is not None and second.slot.number == 0
            assert second.slot.uid != first.slot.uid  # uids are leased host-wide
            assert sweep(b) == 0
        result = first.run(["sh", "-c", "echo still here"])
        assert result.stdout_text == "still here\n", result


HOLDER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from sandbox.conf import SandboxSettings
    from sandbox.jail import Jail
    from sandbox.limits import Limits
    root = Path(sys.argv[1])
    s = SandboxSettings(root=root, cache_dir=root / "cache", slots=2, uid_base=int(sys.argv[2]), uid_count=int(sys.argv[3]))
    jail = Jail(Limits(), settings=s).start()
    jail.run(["sh", "-c", "echo x > /work/file"])
    print("ready", flush=True)
    time.sleep(120)
    """
)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_holder_leaves_nothing_behind_for_long(tmp_path: Path, how: signal.Signals) -> None:
    s = settings_at(tmp_path / "root")
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(s.root), str(TEST_UID_BASE), str(TEST_UID_COUNT)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        os.kill(proc.pid, how)
        proc.wait(timeout=30)
    assert leftover_cgroups(s) and any(str(s.root) in m for m in leftover_mounts())  # what a dead holder leaves
    # Whatever slot the next user takes (slot 0 is the dead holder's, so take both here, in
    # the order the first free one comes), the host is cleaned of it.
    with reserve_slots(1, s) as reservation:
        assert reservation.slots
        assert leftover_cgroups(s) == []
        assert not any(str(s.root) in m for m in leftover_mounts())
        assert list((s.root / "work").iterdir()) == []


def test_a_root_the_jails_cannot_reach_is_refused_with_its_reason(tmp_path: Path) -> None:
    hidden = tmp_path / "private"
    hidden.mkdir(mode=0o700)
    with pytest.raises(SandboxUnavailable, match="every folder above it must be open"):
        Jail(Limits(), settings=settings_at(hidden / "root"), _trusted_check=True).start()
