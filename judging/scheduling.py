"""Making matches, in one place: the factory every format and the test games use, and the
lookup of the programs that may play (an entry's active, built version)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet

from contests.models import Contest, Entry, Stage, Submission
from judging import counts, dispatch
from judging.models import Match, MatchSeat

Seat = tuple[Entry, Submission]


def ready_submissions(contest: Contest | int) -> QuerySet[Submission]:
    """The version that plays for each active entry of a contest: its active one, built and
    through its system test (at most one an entry)."""
    return Submission.objects.filter(
        entry__contest=contest,
        entry__status=Entry.Status.ACTIVE,
        is_active=True,
        status=Submission.Status.READY,
    )


def ready_submission(entry: Entry) -> Submission | None:
    """The version that plays for this entry, if it has one ready."""
    return entry.submissions.filter(is_active=True, status=Submission.Status.READY).first()


def create_match(
    contest: Contest,
    stage: Stage | None,
    seats: Sequence[Seat],
    *,
    seed: int,
    params: dict[str, Any],
    round: int = 0,
    priority: int = Match.Priority.TOURNAMENT,
    queue: bool = False,
    seat_fields: dict[str, Any] | None = None,
    **fields: Any,
) -> Match:
    """A match of these (entry, submission) seats, seat 0 first; ``fields`` for the match
    (a bye is born finished), ``seat_fields`` for every seat. With ``queue``, a worker is told
    once the transaction commits (a stage's matches are queued together by its launch)."""
    match = Match.objects.create(
        contest=contest, stage=stage, round=round, seed=seed, params=params, priority=priority, **fields
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, index=index, entry=entry, submission=submission, **(seat_fields or {}))
        for index, (entry, submission) in enumerate(seats)
    )
    counts.changed(match, None)
    if queue:
        dispatch.queue_match(match.pk)
    return match
