"""`make run`'s script, run for real as a terminal runs it: it says what it does from its
first second, serves the site while the worker builds the demo's programs and plays its first
games, and Ctrl-C (SIGINT to the whole foreground group) stops every process within 5 s, with
no SIGKILL, leaving no jail behind."""

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the one-machine defaults, whatever the suite's database; alone: it times the stop, which
# tests beside it on a small host would slow
pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.once, pytest.mark.alone]

# What is left of a jail after its holder is gone: a work folder (a tmpfs), a cgroup, a mount.
LEFTOVERS = """
import django
django.setup()
from sandbox.cgroups import Cgroup
from sandbox.conf import get_settings
from sandbox.jail import cgroup_layout
s = get_settings()
work = s.root / "work"
left = sorted(p.name for p in work.iterdir()) if work.is_dir() else []
left += [c.name for c in Cgroup.leftovers(cgroup_layout(s.cgroup_parent), "", open_files=False)]
left += [line.split()[4] for line in open("/proc/self/mountinfo") if str(s.root) in line]
print(left)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes_with(marker: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def _command_line(pid: int) -> str:
    try:
        return f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid}: gone"


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _wait_for(condition, seconds: float, proc) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_run_says_each_step_serves_the_site_at_once_and_ctrl_c_stops_everything_in_5_s(tmp_path):
    port = _free_port()
    var = tmp_path / "var-run-test"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "MEDIA_ROOT")
    }  # the one-machine setup: SQLite and the filesystem broker under ARBITER_VAR_DIR
    env.update(
        ARBITER_VAR_DIR=str(var), PORT=str(port), WORKER_HEARTBEAT_SECONDS="1", WEB_WORKERS="1", WORKER_CONCURRENCY="2"
    )
    log = tmp_path / "run.log"

    def output() -> str:
        return log.read_text(errors="replace")

    with log.open("wb") as out:
        # a group of its own, as a shell gives a foreground job: Ctrl-C signals all of it
        proc = subprocess.Popen(
            ["scripts/run.sh"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, process_group=0
        )
    try:
        assert _wait_for(lambda: "arbiter: migrating the database" in output(), 5, proc), output()
        base = f"http://127.0.0.1:{port}"
        health = {}

        def worker_up() -> bool:
            nonlocal health
            try:
                health = json.loads(_get(base + "/health/")[1])
            except (OSError, ValueError):
                return False
            return bool(health.get("workers", {}).get("count"))

        # The site does not wait for the demo's games: it answers while the worker builds them.
        assert _wait_for(worker_up, 120, proc), output()
        assert health.get("status") == "ok", output()
        status, body = _get(base + "/")
        assert status == 200
        assert b"CodeCup 2024: Sudoku" in body  # the demo contests are loaded
        status, body = _get(base + "/static/css/arbiter.css")
        assert status == 200 and b"--accent" in body  # static files collected and served
        said = output()
        assert f"http://127.0.0.1:{port}/" in said and "alice / arbiter-alice" in said
        assert "organiser / arbiter-organiser" in said
        assert "arbiter: loading the demo's accounts and contests" in said
        assert "queued the demo's builds and first games for the worker" in said
        # Each of the worker's steps is said as it is done, counted.
        assert _wait_for(lambda: re.search(r"demo: built .+ \(\d+ of \d+\)", output()), 120, proc), output()
        # Ctrl-C with the demo's builds and games in hand.
    finally:
        with contextlib.suppress(ProcessLookupError):  # also when a step above failed: nothing may outlive the test
            os.killpg(proc.pid, signal.SIGINT)
        stopped_at = time.monotonic()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        while _processes_with(str(var)) and time.monotonic() < stopped_at + 5:
            time.sleep(0.1)
        leftover = [_command_line(pid) for pid in _processes_with(str(var))]
        for pid in _processes_with(str(var)):
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode is not None and leftover == [], f"running 5 s after Ctrl-C: {leftover}\n{output()}"
    said = output()
    assert "SIGKILL" not in said, said  # honcho's last resort, 5 s after its SIGTERM
    assert "Warm shutdown" in said
    jails = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-c", LEFTOVERS],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "arbiter.settings"}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert jails.stdout.strip() == "[]", said
