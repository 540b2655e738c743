"""The README's "Many machines" steps, followed literally against a PostgreSQL and a Redis of
their own: its commands, in its order, then a visitor loads pages. Following them once left
every page at 500 (`Missing staticfiles manifest entry`: only scripts/run.sh and the
Dockerfile ran collectstatic), and without `CACHE_URL` each host kept its own rate limits."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from judging.tests.installation import free_port, running_site

pytestmark = [pytest.mark.slow, pytest.mark.faults]
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def readme_steps() -> tuple[dict[str, str], list[str]]:
    """The section's exported variables, and its commands in the order it gives them."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Many machines", 1)[1].split("\n## ", 1)[0]
    exports = dict(re.findall(r"^export (\w+)=(\S+)", section, re.M))
    commands = re.findall(r"`(\.venv/bin/[^`]+)`", section)
    return exports, commands


def test_the_readme_many_machines_steps_serve_pages(tmp_path):
    exports, commands = readme_steps()
    assert set(exports) >= {
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "MEDIA_ROOT",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CACHE_URL",
    }
    assert exports["CACHE_URL"].startswith("redis://")  # a folder of each host's own would count each alone
    programs = [c.split()[0] for c in commands]
    assert ".venv/bin/gunicorn" in programs and ".venv/bin/celery" in programs, commands
    port = free_port()
    with running_site() as site:  # its own PostgreSQL and Redis; the README's names stand for them
        cache_url = f"redis://{site.broker_address}:{site.redis_port}/1"
        env = {**site.env, "ALLOWED_HOSTS": exports["ALLOWED_HOSTS"], "WEB_WORKERS": "1", "CACHE_URL": cache_url}
        started, logs = [], []
        try:
            for command in commands:
                argv = shlex.split(command.replace(".venv/bin/", f"{BIN}/"))
                argv = [a.replace("0.0.0.0:8000", f"127.0.0.1:{port}") for a in argv]
                argv = ["1" if a in ("4", "N") else a for a in argv]  # one web process, one worker slot
                if argv[0].endswith(("gunicorn", "celery")):
                    log = (tmp_path / Path(argv[0]).name).open("wb")
                    logs.append(log)
                    started.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT))
                else:
                    subprocess.run(argv, cwd=ROOT, env=env, check=True, timeout=300, capture_output=True)
            site.django("from web.demo.load import load_demo; load_demo(); print(1)")
            with httpx.Client(
                base_url=f"http://127.0.0.1:{port}", headers={"Host": exports["ALLOWED_HOSTS"]}
            ) as client:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        home = client.get("/")
                        break
                    except httpx.TransportError:
                        assert time.monotonic() < deadline, (tmp_path / "gunicorn").read_text()[-3000:]
                        time.sleep(0.3)
                assert home.status_code == 200, home.text[-2000:]
                for path in ("/contests/chomp/", "/contests/chomp/standings/", "/accounts/login/", "/api/contests/"):
                    assert client.get(path).status_code == 200, path
                css = re.search(r'href="(/static/[^"]+\.css)"', home.text)
                assert css and client.get(css[1]).status_code == 200  # a hashed name: collectstatic's manifest
                health = client.get("/health/").json()
                assert health["database"]["ok"] and health["broker"]["ok"], health
                # The API's rate limit counted in the shared Redis, where every web host counts.
                counted = subprocess.run(
                    ["redis-cli", "-h", site.broker_address, "-p", str(site.redis_port), "-n", "1", "--scan",
                     "--pattern", "*limit:api:address-*"],
                    capture_output=True, text=True, timeout=30,
                )  # fmt: skip
                assert counted.stdout.strip(), counted
        finally:
            for proc in started:
                proc.terminate()
            for proc in started:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for log in logs:
                log.close()
