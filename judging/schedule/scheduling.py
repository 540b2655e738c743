"""Making matches, in one place: the factory every format and the test games use."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contests.models import Contest, Entry, Stage, Submission
from judging import dispatch
from judging.models import Match, MatchSeat
from judging.record import counts

Seat = tuple[Entry, Submission]


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
