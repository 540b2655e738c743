"""Events for scripts that wait (server-sent events at /api/events/): written in the same
transaction as the change they announce, so a reader never sees one that did not happen."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from judging.models import Event

KEEP = timedelta(days=2)


def emit(kind: str, contest_id: int, data: dict, user_id: int | None = None) -> None:
    Event.objects.create(kind=kind, contest_id=contest_id, user_id=user_id, data=data)
    if random.random() < 0.01:  # now and then, forget old events
        Event.objects.filter(created_at__lt=timezone.now() - KEEP).delete()


def submission_changed(submission) -> None:
    submission.refresh_from_db(fields=["status", "is_active"])
    emit(
        Event.Kind.SUBMISSION,
        submission.entry.contest_id,
        {
            "submission": submission.pk,
            "entry": submission.entry_id,
            "status": submission.status,
            "active": submission.is_active,
        },
        user_id=submission.entry.user_id,
    )


def match_finished(match) -> None:
    """A match ended. A stage's match is public news (its status, never its result); a test
    game is its players' alone (one event for each contestant in it), and moves no standings."""
    data = {"match": match.pk, "stage": match.stage_id, "status": match.status}
    if match.stage_id is None:
        players = match.seats.filter(entry__is_reference=False).values_list("entry__user_id", flat=True).distinct()
        for user_id in players:
            emit(Event.Kind.MATCH, match.contest_id, data, user_id=user_id)
        return
    emit(Event.Kind.MATCH, match.contest_id, data)
    emit(Event.Kind.STANDINGS, match.contest_id, {"stage": match.stage_id, **_live(match.contest)})


def standings_changed(stage) -> None:
    """A judge's decision (or a fit) moved a stage's live standings (no match finished)."""
    emit(Event.Kind.STANDINGS, stage.contest_id, {"stage": stage.pk, **_live(stage.contest)})


def _live(contest) -> dict:
    """While the contest's standings are frozen, a change of its live standings is news for
    those who see them (its judges: ``web.events``), never the public's: a post-freeze
    result or decision, even its moment, waits for publish (``judging.record.publication``)."""
    return {"live": True} if contest.standings_frozen_at is not None else {}
