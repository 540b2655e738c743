"""The watchdog: what makes sure no match or build is stuck or lost, whatever happens to the
workers, the broker or the database. Every worker runs a round from its heartbeat thread
(``judging/signals.py``); a lease makes one worker at a time do it. A round:

- gives up the attempts whose player is gone: no heartbeat for ``stale_after`` (a worker
  killed, paused or cut off), or, on this host, a process that no longer exists; their matches
  go back to the head of the queue (``matches.end_attempt``);
- writes the results that processes which died waiting for the database left in the spool;
- sends tokens for queued matches the broker has no message for (a broker restarted without
  its data, a message acknowledged by a task that failed), and again the builds of queued
  submissions;
- puts back builds whose worker was lost (building for far longer than a build may take);
- queues again the pairing of a Swiss round that ended a minute ago and was not paired;
- queues a fit of each stage's ratings that is behind its results by more than its wait and
  a minute (``confidence.stale_fits``: a send lost with the broker);
- once a minute, writes the digests of programs' faults that are due
  (``notifications.send_fault_digests``: each entry's at most every ``FAULT_DIGEST_MINUTES``).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from contests.models import Submission
from judging import dispatch, queues
from judging.models import Lease, Match, MatchAttempt
from judging.news import notifications
from judging.play import builds, matches
from judging.record import confidence
from judging.schedule import tournaments

log = logging.getLogger(__name__)

BUILD_STALE = timedelta(minutes=15)  # a build may take a minute of wall time, and wait for a slot
QUEUED_BUILD_GRACE = timedelta(minutes=1)
UNPAIRED_GRACE = timedelta(minutes=1)  # a pairing takes a second; its task waits behind short ones
STALE_FIT_GRACE = timedelta(minutes=1)  # beyond a fit's own wait after a result
DIGEST_SCAN = timedelta(minutes=1)  # how often a round looks for faults to tell


def take_lease(name: str, holder: str, ttl: timedelta) -> bool:
    """Hold the lease ``name`` for ``ttl`` if it is free, expired, or already ours."""
    now = timezone.now()
    try:
        with transaction.atomic():
            Lease.objects.get_or_create(name=name, defaults={"holder": "", "expires_at": now - ttl})
    except IntegrityError:  # made at the same moment by another worker
        pass
    return bool(
        Lease.objects.filter(name=name)
        .filter(Q(expires_at__lt=now) | Q(holder=holder))
        .update(holder=holder, expires_at=now + ttl)
    )


def run_once(holder: str) -> dict[str, int]:
    """One round (see the module's docstring); what it did, by kind. Nothing if another
    worker holds the lease."""
    if not take_lease("watchdog", holder, matches.stale_after()):
        return {}
    done = {
        "lost": rescue_lost(),
        "spooled": matches.flush_spool(),
        "tokens": _unless_the_broker_is_away(send_missing_tokens),
        "builds": _unless_the_broker_is_away(rescue_builds),
        "pairings": _unless_the_broker_is_away(pair_unpaired_rounds),
        "fits": _unless_the_broker_is_away(refit_stale_stages),
    }
    if any(done.values()):
        log.warning("watchdog: %s", ", ".join(f"{n} {what}" for what, n in done.items() if n))
    if _due("fault-digests", DIGEST_SCAN):
        done["digests"] = notifications.send_fault_digests()
        if done["digests"]:
            log.info("watchdog: %s digests of programs' faults written", done["digests"])
    return done


def _due(name: str, every: timedelta) -> bool:
    """Whether a job done at most once per ``every`` across the installation is due: it takes
    the lease ``name`` for ``every`` only once that has expired (its holder's name is new each
    time, so not even the last one renews it early)."""
    return take_lease(name, f"{socket.gethostname()} {uuid.uuid4().hex}", every)


def _unless_the_broker_is_away(step) -> int:
    """A step that asks the broker, skipped (in one line, no traceback) while it is away: the
    next round, a heartbeat later, does it once it is back. The database's own absence is not
    caught here: the heartbeat waits a whole period after it (see ``judging.signals``)."""
    try:
        return step()
    except matches.DB_ERRORS:
        raise
    except Exception as e:  # kombu's and redis's connection errors, whatever the transport
        log.warning(
            "watchdog: the broker is away (%s: %s); %s again at the next beat", type(e).__name__, e, step.__name__
        )
        return 0


def _process_gone(pid: int) -> bool:
    """Whether process ``pid`` of this host has ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            state = f.read().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def rescue_lost() -> int:
    """Give up the running attempts whose player is gone; their matches are queued again."""
    now = timezone.now()
    stale = now - matches.stale_after()
    given_up = 0
    running = MatchAttempt.objects.filter(outcome=MatchAttempt.Outcome.RUNNING)
    for attempt in running.filter(last_seen__lt=stale):
        why = f"{attempt.worker or 'its worker'} (pid {attempt.pid} on {attempt.host}) gave no sign of life since {attempt.last_seen:%H:%M:%S}"
        given_up += matches.end_attempt(attempt.pk, MatchAttempt.Outcome.LOST, why)
    host = socket.gethostname()
    for attempt in running.filter(host=host).exclude(pid__in=[0, os.getpid()]):
        if _process_gone(attempt.pid):
            why = f"its process (pid {attempt.pid} of {attempt.worker or host}) is gone"
            given_up += matches.end_attempt(attempt.pk, MatchAttempt.Outcome.LOST, why)
    return given_up


def broker_backlog(queue: str) -> int:
    """Messages waiting in a queue of the broker (not those a worker has already taken). Not a
    passive declaration: a broker restarted without its data no longer knows the queue."""
    from celery import current_app  # the installation's app (arbiter/celery.py), whichever process asks

    with current_app.connection_for_write() as conn:
        return conn.default_channel.queue_declare(queue=queue).message_count


def send_missing_tokens() -> int:
    """A token for each queued match beyond the messages waiting in its queue of the broker
    (matches, races). An extra token costs nothing (it finds no match, or the next one); a
    missing one leaves a match queued."""
    sent = 0
    for queue, races in ((queues.MATCHES, False), (queues.RACES, True)):
        queued = queues.of_queue(Match.objects.filter(status=Match.Status.QUEUED), races)
        missing = queued.count() - broker_backlog(queue)
        if missing > 0:
            dispatch.queue_matches(queued.order_by("priority", "pk").values_list("pk", flat=True)[:missing])
            sent += missing
    return sent


def rescue_builds() -> int:
    """Put back the builds a lost worker left ``building``, and queue again the queued builds
    the broker has no message for."""
    now = timezone.now()
    put_back = 0
    for submission in Submission.objects.filter(
        status=Submission.Status.BUILDING, build_started_at__lt=now - BUILD_STALE
    ):
        if not builds.build_fault(submission.pk, f"its build was lost (building since {submission.build_started_at})"):
            with transaction.atomic():
                if Submission.objects.filter(pk=submission.pk, status=Submission.Status.BUILDING).update(
                    status=Submission.Status.QUEUED, queued_at=timezone.now()
                ):
                    dispatch.queue_build(submission.pk)
                    put_back += 1
    waiting = Submission.objects.filter(status=Submission.Status.QUEUED, queued_at__lt=now - QUEUED_BUILD_GRACE)
    missing = waiting.count() - broker_backlog(queues.BUILDS)
    if missing > 0:
        for pk in waiting.order_by("pk").values_list("pk", flat=True)[:missing]:
            dispatch.queue_build(pk)
        put_back += missing
    return put_back


def refit_stale_stages() -> int:
    """Queue a fit of each stage whose stored ratings are behind its results (``confidence.stale_fits``)."""
    stale = confidence.stale_fits(timezone.now(), STALE_FIT_GRACE)
    for stage_id, frozen in stale:
        confidence.queue_now(stage_id, frozen)
    return len(stale)


def pair_unpaired_rounds() -> int:
    """Queue again the pairing of each Swiss stage whose round ended ``UNPAIRED_GRACE`` ago and
    is still unpaired, while the default queue holds no message (its task may be waiting
    there). An extra pairing task pairs nothing (``tournaments.pair_next_round``)."""
    stages = tournaments.unpaired_stages(timezone.now() - UNPAIRED_GRACE)
    if not stages or broker_backlog(queues.DEFAULT):
        return 0
    for stage_id in stages:
        dispatch.queue_pairing(stage_id)
    return len(stages)
