"""Several users of the sandbox on one host, as `manage.py play` processes: they share an
installation's slots without waiting on each other forever, and leave nothing behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

pytestmark = [pytest.mark.slow, pytest.mark.once]

ROOT = Path(__file__).resolve().parents[2]
RANDOM_HF = ROOT / "games/hearts_flowers/players/random_player.py"
SLEEPER = Path(__file__).parent / "programs" / "chomp_sleep.sh"


@pytest.fixture
def sandbox_root():
    root = Path(f"/tmp/arbiter-test-host-{uuid.uuid4().hex[:8]}")
    yield root
    shutil.rmtree(root, ignore_errors=True)


def play_env(root: Path, slots: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SANDBOX_ROOT=str(root),
        SANDBOX_SLOTS=str(slots),
        ARBITER_VAR_DIR=str(settings.VAR_DIR),
        SANDBOX_CACHE_DIR=str(settings.SANDBOX_CACHE_DIR),
        PYTHONUNBUFFERED="1",
    )
    return env


def test_more_two_seat_games_than_slots_all_finish(sandbox_root):
    # Four games of two seats on two slots: taking one slot at a time, every game held one
    # and waited for a second forever.
    env = play_env(sandbox_root, slots=2)
    argv = [sys.executable, "manage.py", "play", "hearts_flowers", str(RANDOM_HF), str(RANDOM_HF), "--param", "n=4"]
    procs = [
        subprocess.Popen([*argv, "--seed", str(n)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for n in range(4)
    ]
    deadline = time.monotonic() + 240
    outputs = []
    for proc in procs:
        try:
            out, err = proc.communicate(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
                p.communicate()
            pytest.fail("the games waited on each other for sandbox slots")
        assert proc.returncode == 0, err.decode()
        outputs.append(out)
    assert all(b"\nresult: " in out for out in outputs)


def test_play_stopped_by_sigterm_removes_its_jails(sandbox_root):
    from sandbox.conf import SandboxSettings

    env = play_env(sandbox_root, slots=2)
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "play", "chomp", str(SLEEPER), str(SLEEPER), "--clock", "wall_per_move_s=60"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    work = sandbox_root / "work"
    deadline = time.monotonic() + 60
    while not (work.is_dir() and len(list(work.iterdir())) == 2):  # both seats' jails are up
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert b"stopped by SIGTERM" in err
    assert list(work.iterdir()) == []
    parent = SandboxSettings(root=sandbox_root, cache_dir=sandbox_root).cgroup_parent
    assert [
        p for parent_dir in Path("/sys/fs/cgroup").glob(f"*/{parent}") for p in parent_dir.iterdir() if p.is_dir()
    ] == []
    with open("/proc/mounts") as f:
        assert str(sandbox_root) not in f.read()


class SigtermInAFinalizer:
    """Sends this process SIGTERM from its finalizer, so that the handler runs inside it: an
    exception raised there is printed and dropped, and the game went on."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):  # the handler runs at one of these turns, still in here
            pass


def test_a_sigterm_handled_inside_a_finalizer_still_stops_play(monkeypatch):
    from sandbox.interrupt import stop_requested
    from sandbox.monitor import Monitor

    real_pump = Monitor.pump
    calls = []

    def pump(self, timeout):
        calls.append(1)
        if len(calls) == 100:  # a while into the game (or the build)
            SigtermInAFinalizer()  # dropped at once
        return real_pump(self, timeout)

    monkeypatch.setattr(Monitor, "pump", pump)
    started = time.monotonic()
    with pytest.raises(CommandError, match="stopped by SIGTERM"):
        call_command("play", "chomp", str(SLEEPER), str(SLEEPER), "--clock", "wall_per_move_s=60", stdout=StringIO())
    # not after the first timeout (60 s): a loaded host's builds and jails take far less
    assert time.monotonic() - started < 30
    assert not stop_requested()  # the next command starts afresh
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
