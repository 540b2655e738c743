"""A whole installation for the fault tests, as its operators run it: its own PostgreSQL
cluster and Redis server (which the tests stop, restart and wipe), real Celery workers (which
the tests kill and pause), and Django code run in child processes against them. Nothing here
touches the database the rest of the suite uses."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg2

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


@dataclass
class Worker:
    name: str
    proc: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def signal(self, sig: signal.Signals) -> None:
        """To the worker and every process of its session (its pool's children)."""
        os.killpg(self.proc.pid, sig)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=20)
        with contextlib.suppress(ProcessLookupError):
            self.signal(signal.SIGKILL)
        self.proc.wait()


@dataclass
class Site:
    folder: Path
    pg: Path
    pg_port: int
    redis_port: int
    env: dict[str, str] = field(default_factory=dict)
    workers: list[Worker] = field(default_factory=list)

    # -- the services ---------------------------------------------------------------------

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(self.pg / "pg_ctl"), "-D", str(self.folder / "pg"), *args],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start_postgres(self) -> None:
        self._pg_ctl(
            "-l", str(self.folder / "sock" / "pg.log"), "-w", "start",
            "-o", f"-p {self.pg_port} -k {self.folder / 'sock'} -c listen_addresses=127.0.0.1 -c fsync=off",
        )  # fmt: skip

    def stop_postgres(self) -> None:
        self._pg_ctl("-m", "fast", "-w", "stop")

    def start_redis(self) -> None:
        subprocess.run(
            [
                "redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--daemonize", "yes", "--logfile", str(self.folder / "redis.log"),
                "--pidfile", str(self.folder / "redis.pid"), "--dir", str(self.folder),
            ],
            check=True,
            timeout=30,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while (
            subprocess.run(["redis-cli", "-p", str(self.redis_port), "ping"], capture_output=True).stdout != b"PONG\n"
        ):
            assert time.monotonic() < deadline, "redis did not start"
            time.sleep(0.1)

    def stop_redis(self) -> None:
        """Shut Redis down without saving: every message it held is gone, as after a crash."""
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "shutdown", "nosave"], capture_output=True)
        pidfile = self.folder / "redis.pid"
        deadline = time.monotonic() + 20
        while pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.1)

    # -- Django, in child processes ---------------------------------------------------------

    def django(self, code: str) -> Any:
        """Run ``code`` with Django set up on this site; what it printed last, as JSON."""
        prelude = "import django, json\ndjango.setup()\n"
        out = subprocess.run(
            [sys.executable, "-c", prelude + textwrap.dedent(code)],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        return json.loads(out.stdout.strip().splitlines()[-1])

    def sql(self, query: str, *params: Any) -> list[tuple]:
        """A read straight from the site's database (waiting through a restart)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                with (
                    contextlib.closing(
                        psycopg2.connect(host="127.0.0.1", port=self.pg_port, user="arbiter", dbname="arbiter")
                    ) as conn,
                    conn.cursor() as cur,
                ):
                    cur.execute(query, params)
                    return cur.fetchall()
            except psycopg2.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    # -- workers --------------------------------------------------------------------------

    def start_worker(self, name: str, concurrency: int = 1) -> Worker:
        log = self.folder / f"{name}.log"
        hostname = f"{name}@{socket.gethostname()}"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [
                    str(BIN / "celery"), "-A", "arbiter", "worker", "--queues", "builds,matches,default",
                    "--concurrency", str(concurrency), "--hostname", hostname,
                    "--without-mingle", "--without-gossip", "--loglevel", "INFO",
                ],
                cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        worker = Worker(hostname, proc, log)
        self.workers.append(worker)
        deadline = time.monotonic() + 90
        while not self.sql("SELECT 1 FROM judging_workerheartbeat WHERE hostname = %s", hostname):
            assert proc.poll() is None, worker.output()[-3000:]
            assert time.monotonic() < deadline, f"worker {name} did not come up:\n{worker.output()[-3000:]}"
            time.sleep(0.2)
        return worker

    def stop_workers(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def logs(self) -> str:
        return "\n".join(f"--- {w.name}\n{w.output()[-4000:]}" for w in self.workers)


@contextlib.contextmanager
def running_site() -> Any:
    """A fresh installation: migrated, with its own services, stopped and removed after."""
    pg = pg_bin()
    if pg is None or shutil.which("redis-server") is None:  # .ci/run and make test install both
        raise RuntimeError("the fault tests need Debian's postgresql and redis-server packages")
    folder = Path(f"/tmp/arbiter-site-{uuid.uuid4().hex[:8]}")
    folder.mkdir(mode=0o755)
    for sub in ("pg", "sock"):
        (folder / sub).mkdir()
        shutil.chown(folder / sub, "postgres", "postgres")
    site = Site(folder, pg, free_port(), free_port())
    subprocess.run(
        [
            "runuser",
            "-u",
            "postgres",
            "--",
            str(pg / "initdb"),
            "-D",
            str(folder / "pg"),
            "-A",
            "trust",
            "-U",
            "postgres",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    site.start_postgres()
    site.start_redis()
    try:
        for statement in ("CREATE ROLE arbiter LOGIN CREATEDB", "CREATE DATABASE arbiter OWNER arbiter"):
            subprocess.run(
                ["psql", "-h", "127.0.0.1", "-p", str(site.pg_port), "-U", "postgres", "-q", "-c", statement],
                check=True,
                capture_output=True,
            )
        site.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "arbiter.settings",
            "DATABASE_URL": f"postgres://arbiter@127.0.0.1:{site.pg_port}/arbiter",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{site.redis_port}/0",
            "ARBITER_VAR_DIR": str(folder / "var"),
            "WORKER_HEARTBEAT_SECONDS": "1",
            "SANDBOX_SLOTS": "4",
            "PYTHONUNBUFFERED": "1",
        }
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=site.env, check=True, timeout=300
        )
        yield site
    finally:
        site.stop_workers()
        site.stop_redis()
        with contextlib.suppress(subprocess.SubprocessError):
            site.stop_postgres()
        shutil.rmtree(folder, ignore_errors=True)
