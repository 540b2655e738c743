"""`make run`'s script, run for real: it serves the site with a live worker, and Ctrl-C
leaves nothing running."""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.slow, pytest.mark.once]  # the one-machine defaults, whatever the suite's database


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


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_run_serves_the_site_with_a_worker_and_ctrl_c_stops_everything(tmp_path):
    port = _free_port()
    var = tmp_path / "var-run-test"
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "MEDIA_ROOT")
    }  # the one-machine setup: SQLite and the filesystem broker under ARBITER_VAR_DIR
    env.update(
        ARBITER_VAR_DIR=str(var), PORT=str(port), WORKER_HEARTBEAT_SECONDS="1", WEB_WORKERS="1", WORKER_CONCURRENCY="1"
    )
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["scripts/run.sh"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        health = {}
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, body = _get(base + "/health/")
                health = json.loads(body)
                if health.get("workers", {}).get("count"):
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.5)
        output = log.read_text(errors="replace")
        assert health.get("status") == "ok", output
        status, body = _get(base + "/")
        assert status == 200
        assert b"CodeCup 2024: Sudoku" in body  # the demo contests are loaded
        status, body = _get(base + "/static/css/arbiter.css")
        assert status == 200 and b"--accent" in body  # static files collected and served
        assert f"http://127.0.0.1:{port}/" in output and "alice / arbiter-alice" in output
        assert "organiser / arbiter-organiser" in output
    finally:
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends to the foreground process
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail("run.sh did not stop within 30 s of Ctrl-C")
    deadline = time.monotonic() + 10
    while _processes_with(str(var)) and time.monotonic() < deadline:
        time.sleep(0.2)
    leftover = _processes_with(str(var))
    for pid in leftover:
        os.kill(pid, signal.SIGKILL)
    assert leftover == [], "processes left running after Ctrl-C"
