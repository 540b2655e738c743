"""Celery tasks of the judging layer: thin wrappers over services, ids only.

Names are explicit: ``arbiter/queues.py`` routes them by name.
"""

from __future__ import annotations

from celery import shared_task

from judging import builds, matches, services
from sandbox.errors import SandboxError


@shared_task(name="judging.ping", bind=True)
def ping(self, ping_id: int) -> None:
    services.answer_ping(ping_id, self.request.hostname or "")


@shared_task(
    name="judging.build_submission",
    autoretry_for=(SandboxError,),
    retry_backoff=10,
    max_retries=5,
)
def build_submission(submission_id: int) -> None:
    builds.build_submission(submission_id)


@shared_task(
    name="judging.play_match",
    bind=True,
    autoretry_for=(SandboxError,),
    retry_backoff=10,
    max_retries=3,
)
def play_match(self, match_id: int) -> None:
    try:
        matches.play_match(match_id)
    except SandboxError:
        if self.request.retries >= self.max_retries:
            matches.fail_match(match_id, "the sandbox failed on every try")
        raise
    except Exception as e:  # a platform bug: record it for the judges instead of losing the match
        matches.fail_match(match_id, f"{type(e).__name__}: {e}")
        raise
