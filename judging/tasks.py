"""Celery tasks of the judging layer: thin wrappers over services, ids only.

Names are explicit: ``arbiter/queues.py`` routes them by name. A task that cannot reach the
database is retried (with a growing delay, for as long as it takes), never acknowledged and
forgotten; the watchdog (``judging/watchdog.py``) catches whatever a lost message leaves.
"""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task
from django.conf import settings

from contests.models import Stage
from judging import disks, dispatch, logs, workers
from judging.news import notifications
from judging.play import builds, matches
from judging.play.matches import DB_ERRORS
from judging.record import confidence
from judging.schedule import steering, tournaments, versus
from judging.uploaded import hosting
from sandbox.errors import Interrupted, SandboxError, SandboxUnavailable

log = logging.getLogger(__name__)

MAIL_TRIES = 5  # a notification's e-mail is given up after this many refusals of the mail server
DISK_WAIT_S = 300  # the longest a token is held on a full disk before it is sent again, once


def backoff(retries: int) -> int:
    """Seconds before the next try: 1, 2, 4 ... up to a minute."""
    return min(2**retries, 60)


def wait_for_room(self) -> bool:
    """While a disk this host writes on is full, the token stays in this process, unacknowledged:
    the worker takes no other meanwhile (prefetch 1) and sends none back to the broker; the log
    says it once a minute (the heartbeat's ``disks.FullDiskLog``). Whether there is room, at once
    or after waiting (at most ``DISK_WAIT_S``, and half the token's time limit)."""
    return disks.wait_for_room(min(DISK_WAIT_S, _budget(self) / 2))


@shared_task(name="judging.ping", bind=True)
def ping(self, ping_id: int) -> None:
    workers.answer_ping(ping_id, self.request.hostname or "")


@shared_task(name="judging.build_submission", bind=True, max_retries=None)
def build_submission(self, submission_id: int) -> None:
    if not wait_for_room(self):  # a full disk: not the program's fault, nor the platform's to count
        raise self.retry(countdown=0)  # still full: sent again once, and waited for again
    try:
        with logs.about(submission=submission_id):
            builds.build_submission(submission_id)
    except Interrupted:  # the worker is stopping (judging.signals): built again at the next start
        raise self.retry(countdown=0) from None
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e
    except SandboxError as e:
        if not builds.build_fault(submission_id, f"{type(e).__name__}: {e}"):
            raise self.retry(exc=e, countdown=10 * backoff(self.request.retries)) from e


@shared_task(name="judging.build_game", bind=True, max_retries=None)
def build_game(self, version_id: int) -> None:
    """Build an uploaded game's referee and players and run its conformance kit (on a builds
    host: the kit's games are short); a host without a sandbox leaves it for another."""

    if not wait_for_room(self):
        raise self.retry(countdown=0)  # still full: sent again once, and waited for again
    try:
        hosting.check_queued(version_id)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e
    except SandboxError as e:
        log.error("%s cannot check game version %s: %s", self.request.hostname, version_id, e)
        raise self.retry(exc=e, countdown=30) from e
    except Exception as e:  # not the host's fault, so no retry: the version ends refused, its uploader told
        log.exception("game version %s could not be checked", version_id)
        hosting.refuse_unchecked(version_id, f"the platform failed to check it ({type(e).__name__}: {e})")


@shared_task(name="judging.play_match", bind=True, max_retries=None)
def play_match(self, match_id: int) -> None:
    """A token for one match: plays ``match_id`` if it is still queued, else the most urgent
    queued one whose time budget fits this token's time limit. Every outcome, faults
    included, is recorded by the service."""
    _play(self, match_id, races=False)


@shared_task(name="judging.play_race", bind=True, max_retries=None)
def play_race(self, match_id: int) -> None:
    """A token for one race, on the races queue: as ``play_match``, with its stage's limit."""
    _play(self, match_id, races=True)


def _budget(self) -> int:
    """This token's hard time limit: the one it was sent with, else the installation's."""
    limits = self.request.timelimit or (None, None)
    return int(limits[1] or settings.CELERY_TASK_TIME_LIMIT)


def _play(self, match_id: int, races: bool) -> None:
    try:
        matches.play_next(self.request.hostname or "worker", races=races, budget=_budget(self), sent_for=match_id)
    except Interrupted:  # the worker is stopping (judging.signals): the match is queued again with a token
        log.info("%s is stopping: its game, if it had one, is queued again", self.request.hostname)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e
    except SandboxUnavailable as e:  # this host cannot play now: the token goes back
        log.error("%s takes no match: %s", self.request.hostname, e)
        raise self.retry(exc=e, countdown=30) from e
    except disks.DiskFull:
        # Nothing claimed. Wait for room with the token in hand, then send it again once: a
        # fresh token has its whole time limit ahead for the match it claims.
        wait_for_room(self)
        raise self.retry(countdown=0) from None


@shared_task(name="judging.pair_swiss_round", bind=True, max_retries=None)
def pair_swiss_round(self, stage_id: int) -> None:
    """Pair a Swiss stage's next round, if it is due (``tournaments.pair_next_round``)."""

    try:
        tournaments.pair_next_round(stage_id)
    except Stage.DoesNotExist:
        log.info("stage %s is gone: no round to pair", stage_id)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e


@shared_task(name="judging.rate_stage", bind=True, max_retries=None)
def rate_stage(self, stage_id: int, frozen: bool = False) -> None:
    """Fit a stage's ratings and rank intervals again from its kept pairs (``judging.record.confidence``);
    if a fit of the stage is at work, queue this one again instead of waiting for it."""

    confidence.started(stage_id, frozen)
    try:
        found = confidence.fitted(stage_id, frozen, wait=False)
        did = steering.steer(found) if found else ""
        if did:
            log.info("stage %s: %s", stage_id, did)
    except confidence.Running:
        # The fit at work may have read the pairs before this task's results: one more after it
        # (or the one already queued), never two at once (a second one's work would be wasted).
        confidence.queue(stage_id, frozen)
    except Stage.DoesNotExist:
        log.info("stage %s is gone: no ratings to fit", stage_id)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e


@shared_task(name="judging.versus_step", bind=True, max_retries=None)
def versus_step(self, batch_id: int) -> None:
    """After one of a versus batch's games ended: stop the batch or queue its next games."""

    try:
        did = versus.step(batch_id)
        if did:
            log.info("versus batch %s: %s", batch_id, did)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e


@shared_task(name="judging.send_notification", bind=True, max_retries=None)
def send_notification(self, notification_id: int) -> None:
    """E-mail one notification. A mail server that is away or refuses is tried again, a minute
    later and then less often, ``MAIL_TRIES`` times in all; then the e-mail is given up (said in
    the log) and the notification stays on the site."""
    try:
        notifications.send_email(notification_id)
    except DB_ERRORS as e:
        raise self.retry(exc=e, countdown=backoff(self.request.retries)) from e
    except (smtplib.SMTPException, OSError) as e:
        tries = self.request.retries + 1
        if tries >= MAIL_TRIES:
            log.error("notification %s not e-mailed, given up after %s tries: %s", notification_id, tries, e)
            return
        log.warning("notification %s not e-mailed (try %s of %s): %s", notification_id, tries, MAIL_TRIES, e)
        raise self.retry(exc=e, countdown=60 * backoff(self.request.retries)) from e


dispatch.TASKS.update(
    (task.name, task)
    for task in (
        ping, build_submission, build_game, play_match, play_race, pair_swiss_round, rate_stage, versus_step,
        send_notification,
    )
)  # fmt: skip
