"""Fixtures shared by every app's tests."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent

# Celery takes CELERY_BROKER_URL from the environment before its configuration: where the
# suite's processes each have a Redis database of their own (arbiter/settings.py), the
# environment must name this process's, or its tasks go where no worker of its listens.
if os.environ.get("CELERY_BROKER_URL"):
    os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL


def database_url_of_test_db() -> str:
    """A DATABASE_URL that points another process at the database these tests use."""
    s = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{s['NAME']}"
    auth = quote(s["USER"] or "", safe="")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"], safe="")
    host = s.get("HOST") or "localhost"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{s['NAME']}"


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)  # its folder is given whole: settings must not add it again
    env.update(
        DATABASE_URL=database_url_of_test_db(),
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
        ARBITER_VAR_DIR=str(settings.VAR_DIR),
        MEDIA_ROOT=str(settings.MEDIA_ROOT),
        WORKER_HEARTBEAT_SECONDS="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


class WorkerProcess:
    def __init__(self, proc: subprocess.Popen, hostname: str, log: Path) -> None:
        self.proc = proc
        self.hostname = hostname
        self.log = log

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def pytest_collection_modifyitems(config, items):
    """`make test` runs the suite in two parts (scripts/test.sh): the tests not marked `alone`
    in processes side by side, then those marked `alone` one at a time with nothing beside
    them. ARBITER_TEST_PART says which part this run is; unset, it runs them all."""
    part = os.environ.get("ARBITER_TEST_PART", "")
    if part not in ("shared", "alone"):
        return
    keep, drop = [], []
    for item in items:
        (keep if (item.get_closest_marker("alone") is not None) == (part == "alone") else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture
def worker(transactional_db, tmp_path):
    """A real Celery worker process (prefork pool), consuming every queue, on the test database."""
    from judging.models import WorkerHeartbeat

    sessions_before = other_sessions()
    hostname = f"test-{uuid.uuid4().hex[:8]}@localhost"
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(BIN / "celery"), "-A", "arbiter", "worker",
                "--queues", ",".join(q.name for q in settings.CELERY_TASK_QUEUES),
                "--concurrency", "1", "--hostname", hostname,
                "--without-mingle", "--without-gossip", "--loglevel", "INFO",
            ],
            cwd=ROOT, env=child_env(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    handle = WorkerProcess(proc, hostname, log)
    deadline = time.monotonic() + 60
    while not WorkerHeartbeat.objects.filter(hostname=hostname).exists():
        if proc.poll() is not None:
            pytest.fail(f"the worker exited with {proc.returncode}:\n{handle.output()}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"the worker did not come up in 60 s:\n{handle.output()}")
        time.sleep(0.1)
    yield handle
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    with contextlib.suppress(ProcessLookupError):  # prefork children live in its session: none may outlive it
        os.killpg(proc.pid, signal.SIGKILL)
    # Its children are gone, and so are their database sessions, before the next test (or the
    # test database's teardown, which PostgreSQL refuses while another session is on it).
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (_group_alive(proc.pid) or other_sessions() > sessions_before):
        time.sleep(0.05)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def other_sessions() -> int:
    """Sessions on the test database besides this one's (PostgreSQL's count; 0 elsewhere)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.fixture(autouse=True)
def _test_storage(settings, tmp_path):
    """Uploaded files go to a folder of each test's own; pages are rendered without running
    collectstatic first, so there is no manifest to look static names up in."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_measures_from_another_test(monkeypatch):
    """A worker process keeps what it measures a few seconds before writing it
    (judging/play/latencies.py): none of another test's may land in this one's database."""
    from judging.play import latencies

    def forget() -> None:
        for timer in latencies._timers:
            timer.cancel()  # its thread would write, on a connection of its own, outside the test's transaction
        latencies._pending.clear()

    monkeypatch.setattr(latencies, "QUIET_FLUSH", False)
    forget()
    yield
    forget()


@pytest.fixture
def queued(monkeypatch):
    """The tasks that would go to the broker when the transaction commits, as (task, id)."""
    sent = []
    monkeypatch.setattr(
        "judging.dispatch.send_on_commit",
        lambda task, pk, budget=None: sent.append((task.name.rpartition(".")[2], pk)),
    )
    return sent


@pytest.fixture(scope="session", autouse=True)
def no_session_left_on_the_test_database(django_db_setup, django_db_blocker):
    """At the suite's end, before the test database is dropped, PostgreSQL sessions still open
    on it (a thread's connection a test left: its thread-local connection outlives the test
    until the thread is collected) are ended: the drop failed "being accessed by other users"
    now and then on the last test of a process, whichever it was. SQLite has no sessions."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def no_connection_kept_in_other_threads(monkeypatch):
    """Event streams read the database in executor threads, and a live server's requests in
    threads of their own, which outlive a test: kept open there (CONN_MAX_AGE), a connection
    once held the PostgreSQL test database at the suite's end ("being accessed by other
    users"; `arbiter submit --wait` following its events did it again). Every thread's
    connection shares these settings: each closes after its request here."""
    from django.db import connection

    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)


@pytest.fixture(autouse=True)
def no_counts_from_another_test():
    """Rate limits count in the cache (web/limits.py), which outlives a test: each test starts
    with none of another's requests counted against it."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    """Users' passwords hashed at a thousandth of the default work (accounts/tests/hashers.py)."""
    settings.PASSWORD_HASHERS = ["accounts.tests.hashers.QuickPBKDF2PasswordHasher"]


@pytest.fixture(autouse=True)
def quick_conformance_kit(settings):
    """The kit's games with a broken program cut the clock to half a second here: the test
    games' references answer in milliseconds, and a program that never answers costs that."""
    settings.CONFORMANCE_CLOCK_S = 0.5


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request in Dutch leaves Dutch active in its thread (LocaleMiddleware activates the
    request's language and nothing turns it off): a later test's words outside a request
    would come out Dutch. Each test ends in the site's default language."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_uploaded_games():
    """Uploaded games are read once a process: each test reads its own database's again."""
    from contests.hosted_games import SOURCE

    SOURCE.forget()
    yield
    SOURCE.forget()


@pytest.fixture
def chromium_page():
    """A page of a real Chromium (Playwright), closed after the test. A test's own ``page``
    fixture asks for its data first: Playwright's sync API runs an event loop in this thread,
    and Django refuses ORM calls from a thread with a running loop."""
    import shutil

    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        page = browser.new_page()
        page.set_default_timeout(15_000)
        yield page
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves a screenshot of its page in
    ARBITER_VAR_DIR/screenshots/ (var/test/screenshots under `make test`), named after the
    test, for whoever reads the failure (CI lists them)."""
    outcome = yield
    report = outcome.get_result()
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when != "call" or not report.failed or page is None or not hasattr(page, "screenshot"):
        return
    import os
    import re
    from pathlib import Path

    folder = Path(os.environ.get("ARBITER_VAR_DIR") or "var") / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (re.sub(r"[^\w.-]+", "_", item.nodeid)[-150:] + ".png")
    try:
        page.screenshot(path=str(path), full_page=True)
        report.sections.append(("screenshot", str(path.resolve())))
    except Exception as e:  # a page already closed: the failure is what matters
        report.sections.append(("screenshot", f"none: {e}"))
