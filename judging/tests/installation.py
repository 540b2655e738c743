"""A whole installation for the fault tests, as its operators run it: its own PostgreSQL
cluster and Redis server (which the tests stop, restart and wipe), real Celery workers (which
the tests kill and pause), and Django code run in child processes against them. Nothing here
touches the database the rest of the suite uses.

Given a ``network`` (judging/tests/network.py), it is spread over hosts as on many machines:
PostgreSQL on the host ``db``, Redis on ``broker``, each worker on a host of its own (its own
sandbox folder and build cache, the media folder shared as over NFS), all reached over the
test's network only."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg2

from judging.tests.network import Network

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
    net: Network | None = None
    env: dict[str, str] = field(default_factory=dict)
    workers: list[Worker] = field(default_factory=list)

    @property
    def db_address(self) -> str:
        return self.net.hosts["db"].address if self.net else "127.0.0.1"

    @property
    def broker_address(self) -> str:
        return self.net.hosts["broker"].address if self.net else "127.0.0.1"

    def _on(self, host: str, argv: list[str]) -> list[str]:
        return self.net.hosts[host].command(argv) if self.net else argv

    # -- the services ---------------------------------------------------------------------

    def _pg_ctl(self, *args: str) -> None:
        subprocess.run(
            self._on(
                "db", ["runuser", "-u", "postgres", "--", str(self.pg / "pg_ctl"), "-D", str(self.folder / "pg"), *args]
            ),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start_postgres(self) -> None:
        self._pg_ctl(
            "-l", str(self.folder / "sock" / "pg.log"), "-w", "start",
            "-o", f"-p {self.pg_port} -k {self.folder / 'sock'} -c listen_addresses={self.db_address} -c fsync=off",
        )  # fmt: skip

    def stop_postgres(self) -> None:
        self._pg_ctl("-m", "fast", "-w", "stop")

    def start_redis(self) -> None:
        subprocess.run(
            self._on("broker", [
                "redis-server", "--port", str(self.redis_port), "--bind", self.broker_address, "--save", "",
                "--appendonly", "no", "--daemonize", "yes", "--logfile", str(self.folder / "redis.log"),
                "--pidfile", str(self.folder / "redis.pid"), "--dir", str(self.folder), "--protected-mode", "no",
            ]),
            check=True,
            timeout=30,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while self._redis_cli("ping") != b"PONG\n":
            assert time.monotonic() < deadline, "redis did not start"
            time.sleep(0.1)

    def stop_redis(self) -> None:
        """Shut Redis down without saving: every message it held is gone, as after a crash."""
        self._redis_cli("shutdown", "nosave")
        pidfile = self.folder / "redis.pid"
        deadline = time.monotonic() + 20
        while pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.1)

    def _redis_cli(self, *args: str) -> bytes:
        command = ["redis-cli", "-h", self.broker_address, "-p", str(self.redis_port), *args]
        return subprocess.run(command, capture_output=True, timeout=30).stdout

    # -- Django, in child processes ---------------------------------------------------------

    def django(self, code: str, timeout: float = 300) -> Any:
        """Run ``code`` with Django set up on this site; what it printed last, as JSON."""
        prelude = "import django, json\ndjango.setup()\n"
        out = subprocess.run(
            [sys.executable, "-c", prelude + textwrap.dedent(code)],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
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
                        psycopg2.connect(
                            host=self.db_address, port=self.pg_port, user="arbiter", dbname="arbiter", connect_timeout=5
                        )
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

    def start_worker(self, name: str, concurrency: int = 1, host: str | None = None, **settings: str) -> Worker:
        """A Celery worker, on ``host`` of the network if given (its own sandbox folder and
        build cache there), else on this machine; ``settings``: its own environment beside the site's."""
        log = self.folder / f"{name}.log"
        hostname = f"{name}@{host or socket.gethostname()}"
        env = dict(self.env)
        if host is not None:
            env.update(
                ARBITER_VAR_DIR=str(self.folder / host / "var"),
                SANDBOX_ROOT=str(self.folder / host / "sandbox"),
                SANDBOX_CACHE_DIR=str(self.folder / host / "build-cache"),
            )
        env.update(settings)
        argv = [
            str(BIN / "celery"), "-A", "arbiter", "worker", "--queues", "builds,matches,races,default",
            "--concurrency", str(concurrency), "--hostname", hostname,
            "--without-mingle", "--without-gossip", "--loglevel", "INFO",
        ]  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(
                self._on(host, argv) if host else argv,
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
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
def running_site(net: Network | None = None, base: str | None = None) -> Any:
    """A fresh installation: migrated, with its own services, stopped and removed after; over
    the hosts of ``net`` (``db``, ``broker`` and the workers') if given; its folder under
    ``base`` (the system's temporary folder by default)."""
    pg = pg_bin()
    if pg is None or shutil.which("redis-server") is None:  # .ci/run and make test install both
        raise RuntimeError("the fault tests need Debian's postgresql and redis-server packages")
    folder = Path(base or tempfile.gettempdir()) / f"arbiter-site-{uuid.uuid4().hex[:8]}"
    folder.mkdir(mode=0o755)
    for sub in ("pg", "sock"):
        (folder / sub).mkdir()
        shutil.chown(folder / sub, "postgres", "postgres")
    site = Site(folder, pg, free_port(), free_port(), net)
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
    if net is not None:  # the other hosts reach it over the test's network
        with (folder / "pg" / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {net.gateway.rsplit('.', 1)[0]}.0/24 trust\n")
    try:
        site.start_postgres()
        site.start_redis()
        for statement in ("CREATE ROLE arbiter LOGIN CREATEDB", "CREATE DATABASE arbiter OWNER arbiter"):
            subprocess.run(
                ["psql", "-h", site.db_address, "-p", str(site.pg_port), "-U", "postgres", "-q", "-c", statement],
                check=True,
                capture_output=True,
            )
        site.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "arbiter.settings",
            "DATABASE_URL": f"postgres://arbiter@{site.db_address}:{site.pg_port}/arbiter",
            "CELERY_BROKER_URL": f"redis://{site.broker_address}:{site.redis_port}/0",
            "ARBITER_VAR_DIR": str(folder / "var"),
            "MEDIA_ROOT": str(folder / "media"),  # one folder every host mounts
            "SECRET_KEY": "the-fault-tests-own-secret-key-" + "x" * 20,
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
            site.stop_postgres()  # also when Redis failed to start after it
        shutil.rmtree(folder, ignore_errors=True)
