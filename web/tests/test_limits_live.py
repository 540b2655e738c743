"""The attacks of issue 34, replayed against the web server as `make run` starts it (the
Procfile's command: gunicorn, uvicorn workers, two processes) on the test database.

- 25 wrong passwords for `admin`, each with another X-Forwarded-For, were never locked out, and
  the right password with a fresh header logged in during a lockout (uvicorn believed the header
  from loopback and wrote it over the connection's address);
- 1,300 `GET /api/me/` of one token in 50 s from 16 clients were all answered (a limit of 600 a
  minute; DRF's throttle reads its list of times from the cache, adds one and writes it back,
  and the processes wrote over each other's);
- on many hosts each host counted alone: with `CACHE_URL` (Redis) they count together.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from accounts.models import ApiToken
from conftest import child_env
from contests.tests.factories import make_contest, make_entry, make_submission, make_user
from judging.tests.installation import free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def _procfile_web() -> str:
    lines = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    return lines["web"].strip()


@contextlib.contextmanager
def _server(log: Path, **env: str):
    """The Procfile's web process on a free port of loopback; its base address."""
    port = free_port()
    environment = child_env(HOST="127.0.0.1", PORT=str(port), WEB_WORKERS="2", WEB_THREADS="8", **env)
    # The pages name their styles by hash, from collectstatic's manifest (as `make run` does).
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=ROOT, env=environment, check=True, timeout=300)
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["bash", "-c", "exec " + _procfile_web()], cwd=ROOT, env=environment,
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            try:
                if httpx.get(base + "/health/", timeout=5).status_code in (200, 503):
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.2)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _log_in(client: httpx.Client, password: str, forwarded: str) -> int:
    page = client.get("/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    answer = client.post(
        "/accounts/login/",
        data={"username": "admin", "password": password, "csrfmiddlewaretoken": token},
        headers={"X-Forwarded-For": forwarded, "Referer": str(client.base_url) + "/accounts/login/"},
    )
    return answer.status_code


def test_wrong_passwords_with_a_new_x_forwarded_for_each_are_locked_out(tmp_path, settings):
    make_user("admin", password="the-right-password")
    with _server(tmp_path / "web.log") as base, httpx.Client(base_url=base, timeout=30) as client:
        codes = [_log_in(client, "wrong", f"203.0.113.{n}") for n in range(1, 13)]
        assert codes[: settings.AXES_FAILURE_LIMIT - 1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
        assert codes[-1] == 429, codes
        # The right password, with an address the site has not seen, is locked out too.
        assert _log_in(client, "the-right-password", "198.51.100.77") == 429


def _hammer(base: list[str], token: str, requests: int, clients: int = 16) -> tuple[Counter, set[str], float]:
    def one(n: int) -> tuple[int, str | None]:
        with httpx.Client(base_url=base[n % len(base)], timeout=60) as client:
            answer = client.get("/api/me/", headers={"Authorization": f"Bearer {token}"})
            return answer.status_code, answer.headers.get("Retry-After")

    started = time.monotonic()
    with ThreadPoolExecutor(clients) as pool:
        answers = list(pool.map(one, range(requests)))
    took = time.monotonic() - started
    return Counter(code for code, _ in answers), {wait for code, wait in answers if code == 429}, took


def _within_budget(codes: Counter, took: float, allowed: int = 600) -> None:
    """The window before weighs what this one allows: over ``took`` seconds at most ``allowed``
    and its share of the minute more may pass (none, within one window)."""
    assert set(codes) <= {200, 429}, codes
    assert codes[429] > 0, codes
    assert codes[200] <= allowed * (1 + took / 60) + 1, (codes, took)


def test_720_requests_of_one_token_at_once_pass_no_more_than_the_limit(tmp_path):
    token = ApiToken.issue(make_user(), "script")[1]
    with _server(tmp_path / "web.log") as base:
        codes, waits, took = _hammer([base], token, 720)
    _within_budget(codes, took)
    assert waits and all(w.isdigit() and 1 <= int(w) <= 120 for w in waits), waits


@contextlib.contextmanager
def _redis(folder: Path):
    port = free_port()
    subprocess.run(
        [
            "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--daemonize", "yes", "--pidfile", str(folder / "redis.pid"), "--logfile", str(folder / "redis.log"),
        ],
        check=True, timeout=30,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout != b"PONG\n":
            assert time.monotonic() < deadline, "redis did not start"
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True, timeout=30)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="`make test` installs redis-server")
def test_two_hosts_sharing_a_redis_cache_hold_one_limit_together(tmp_path):
    """Two web hosts (each its own var folder, so nothing on disk in common) and one Redis: the
    token's 720 requests, spread over both, still meet one limit of 600."""
    token = ApiToken.issue(make_user(), "script")[1]
    with _redis(tmp_path) as cache_url:
        hosts = []
        for name in ("web1", "web2"):
            (tmp_path / name).mkdir()
            hosts.append(_server(tmp_path / f"{name}.log", CACHE_URL=cache_url, ARBITER_VAR_DIR=str(tmp_path / name)))
        with hosts[0] as first, hosts[1] as second:
            codes, waits, took = _hammer([first, second], token, 720)
    _within_budget(codes, took)


def test_the_floods_of_issue_34_are_refused(tmp_path):
    """Anonymous streams with a new X-Forwarded-For each (1,000 were opened), 16 visitors fetching
    a standings' history.json (never refused), a 4.9 MB JSON body of 200,000 keys (7-15 s of a
    web worker before its 400)."""
    make_contest(slug="chomp")
    user = make_user()
    token = ApiToken.issue(user, "script")[1]
    submission = make_submission(make_entry(make_contest(), user=user), status="ready")
    with _server(tmp_path / "web.log") as base, httpx.Client(base_url=base, timeout=60) as client:
        with contextlib.ExitStack() as held:
            streams = [
                held.enter_context(client.stream("GET", "/api/events/", headers={"X-Forwarded-For": f"203.0.113.{n}"}))
                for n in range(20)
            ]
            opened = Counter(stream.status_code for stream in streams)
        assert opened[200] <= 2 * 4 and opened[429] >= 12, opened  # 4 a client in each of the 2 processes

        def visitor(n: int) -> list[int]:
            codes = []
            with httpx.Client(base_url=base, timeout=60) as own:
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    codes.append(own.get("/contests/chomp/standings/history.json").status_code)
            return codes

        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            fetched = Counter(code for codes in pool.map(visitor, range(16)) for code in codes)
        _within_budget(fetched, time.monotonic() - started, allowed=60)

        body = json.dumps({f"key-{n:06d}": n for n in range(200_000)}).encode() + b" " * 800_000
        started = time.monotonic()
        answer = client.post(
            f"/api/submissions/{submission.pk}/versus/", content=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )  # fmt: skip
        assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"
        assert time.monotonic() - started < 3
