"""Putting work on the broker, in one place: always after the transaction that made the work
commits, so a worker never looks for a row it cannot see yet (outside a transaction, at once:
the watchdog's resent tokens).

A ``play_match`` message is a token: the worker that takes it plays the most urgent queued
match (see ``judging.matches.claim``), so that a match put back after a fault goes ahead of the
queue, whatever the broker can or cannot reorder. The id a token carries is only for the log.
"""

from __future__ import annotations

from collections.abc import Iterable


def queue_matches(match_ids: Iterable[int]) -> None:
    """A token for each of these (newly queued) matches, sent when the transaction commits: a
    race's to the races queue, any other's to the matches queue."""
    from judging.matches import of_queue
    from judging.models import Match
    from judging.tasks import play_match, play_race

    ids = list(match_ids)
    races = set(of_queue(Match.objects.filter(pk__in=ids), races=True).values_list("pk", flat=True)) if ids else set()
    for pk in ids:
        (play_race if pk in races else play_match).delay_on_commit(pk)


def queue_match(match_id: int) -> None:
    queue_matches([match_id])


def queue_build(submission_id: int) -> None:
    from judging.tasks import build_submission

    build_submission.delay_on_commit(submission_id)


def queue_received_submission(sender, submission, **kwargs) -> None:
    """A new submission was saved (``contests.signals.submission_received``): build it."""
    queue_build(submission.pk)
