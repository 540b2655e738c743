"""The worker's heartbeat: a thread in each worker's main process refreshes its row."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time

from billiard.process import current_process
from celery.signals import (
    task_postrun,
    task_prerun,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from judging import disks, watchdog, workers
from judging.play import latencies, matches
from judging.play.matches import DB_ERRORS
from sandbox import run_selfcheck, sweep
from sandbox.conf import get_settings
from sandbox.interrupt import request_stop

log = logging.getLogger(__name__)
_stop = threading.Event()


def sandbox_self_check() -> str:
    """Run the sandbox's hostile self-check once at start and say loudly what it found."""

    try:
        cleaned = sweep()  # what this installation's jails left when a worker died here
        if cleaned:
            log.warning("sandbox: removed what dead jails left in %d slot(s)", cleaned)
    except Exception:
        log.exception("sandbox: could not clean up after dead jails")
    try:
        report = run_selfcheck()
    except Exception:
        log.exception("sandbox self-check could not run: untrusted programs will not run on this worker")
        return "none"
    if report.level == "full":
        log.info("sandbox self-check: full isolation (%d checks passed)", len(report.passed))
    elif report.level == "degraded" and get_settings().allow_degraded:
        log.error(
            "INSECURE: sandbox is DEGRADED and ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX is on; failed: %s", report.failed
        )
    else:
        log.error(
            "sandbox self-check: %s isolation, untrusted programs will not run here; failed: %s",
            report.level,
            report.failed,
        )
    return report.level


@worker_ready.connect
def start_heartbeat(sender, **kwargs) -> None:

    hostname = sender.hostname
    queues = sorted(q.name for q in sender.app.amqp.queues.consume_from.values())
    concurrency = sender.controller.concurrency if sender.controller else 1
    started_at = timezone.now()
    level = sandbox_self_check()
    disk_log = disks.FullDiskLog(hostname)

    def loop() -> None:
        healthy_since: float | None = None
        while True:
            try:
                close_old_connections()
                full = disks.low()
                disk_log.look(full)
                workers.beat(
                    hostname,
                    queues=queues,
                    concurrency=concurrency,
                    pid=os.getpid(),
                    started_at=started_at,
                    sandbox_level=level,
                    low_disk="; ".join(str(disk) for disk in full),
                )
                healthy_since = healthy_since or time.monotonic()
                # Right after the database comes back, every attempt looks silent: give their
                # players a full period to beat again before judging any of them lost.
                if time.monotonic() - healthy_since >= matches.stale_after().total_seconds():
                    watchdog.run_once(hostname)
            except DB_ERRORS as e:  # the database is away: attempts will look silent when it is back
                healthy_since = None
                log.warning("heartbeat of %s: the database is away (%s); the next beat retries", hostname, e)
                with contextlib.suppress(Exception):
                    connection.close()
            except Exception:  # a bug: said with its traceback, and the next beat goes on
                log.exception("heartbeat or watchdog of %s failed", hostname)
            if _stop.wait(settings.WORKER_HEARTBEAT_SECONDS):
                return

    _stop.clear()
    threading.Thread(target=loop, name="arbiter-heartbeat", daemon=True).start()


@worker_shutdown.connect
def stop_heartbeat(sender, **kwargs) -> None:

    _stop.set()
    try:
        close_old_connections()
        workers.worker_stopped(sender.hostname)
    except Exception:
        log.exception("could not record the stop of %s", sender.hostname)


@worker_shutdown.connect
def exit_once_stopped(sender, **kwargs) -> None:
    """A worker run from the command line leaves as soon as it has stopped: its tasks are done,
    its pool's processes gone, its unacknowledged messages given back and its stop recorded.
    What Python and billiard did after that (a thread's 1 s sleep, then tearing the interpreter
    down) took 2 s more of the 5 s honcho gives `make run`'s worker on Ctrl-C before its
    SIGKILL. A worker run inside another program (the tests') returns to it as before."""

    from celery.apps.worker import Worker as CommandLineWorker

    if not isinstance(sender, CommandLineWorker):
        return
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(sender.exitcode or 0)


def _a_pool_process() -> bool:
    """A prefork pool's child (billiard names it "ForkPoolWorker-N"), not a worker's main
    process nor one that runs tasks itself (a solo pool, an eager task, the tests): their
    SIGTERM is Celery's own, and a SIGTERM ignored there is ignored by every program they start
    (a disposition survives exec) - the test suite's own children ignored terminate()."""
    return "PoolWorker" in current_process().name


@worker_process_init.connect
def ignore_sigterm_while_idle(**kwargs) -> None:
    """A pool process takes no SIGTERM of its own while it waits for a task: the worker's main
    process stops it (warm shutdown) once the task in hand is done. SIGTERM to the worker's
    whole process group (honcho on Ctrl-C, systemd's default) otherwise made billiard's handler
    end an idle process where it waits on the pool's queue, and the main process then waited
    forever for its pool to stop, until honcho's SIGKILL 5 s later; the games in hand died with
    their jails left for the next start to sweep. Billiard keeps a signal ignored here."""

    if _a_pool_process():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


@task_prerun.connect
def stop_the_task_on_sigterm(**kwargs) -> None:
    """While a task runs, SIGTERM asks it to stop at a safe point (``sandbox.interrupt``): the
    game or build in hand closes its jails within a few milliseconds, its match goes back to
    the queue, and the process takes no other (``matches.play_next`` checks). A handler, not
    SIG_IGN: the programs the task starts get SIGTERM's default back at exec."""

    if _a_pool_process():
        signal.signal(signal.SIGTERM, lambda signum, frame: request_stop())


@task_postrun.connect
def ignore_sigterm_again(**kwargs) -> None:
    if _a_pool_process():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


@worker_process_shutdown.connect
def flush_metrics(**kwargs) -> None:
    """What a pool process measured and has not written yet (judging/play/latencies.py)."""

    latencies.flush()
