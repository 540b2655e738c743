"""Playing a match: claim it, build its programs, referee it, record the result once."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from contests.models import Match, Stage
from games import registry
from judging import events, system_test, tournaments
from judging.clocks import Clock
from judging.referee import Player, play

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3


def _player(seat) -> Player:
    from sandbox.programs import build_program

    submission = seat.submission
    with submission.source.open("rb") as f:
        build = build_program(f.read(), submission.filename, language=submission.language)
    if not build.ok:
        raise RuntimeError(f"submission {submission.pk} no longer builds: {build.log[-500:]}")
    return Player(
        name=seat.entry.name,
        program=build.program,
        submission={
            "entry": seat.entry_id,
            "submission": submission.pk,
            "sha256": submission.sha256,
            "language": submission.language,
        },
    )


def play_match(match_id: int) -> Match.Status | None:
    """Play one match; safe to run twice. A re-delivered task (the worker died mid-game)
    plays it again from the start; a finished match is never played or counted again."""
    claimed = Match.objects.filter(
        pk=match_id, status__in=[Match.Status.QUEUED, Match.Status.RUNNING], attempts__lt=MAX_ATTEMPTS
    ).update(status=Match.Status.RUNNING, started_at=timezone.now())
    if not claimed:
        if Match.objects.filter(pk=match_id, status=Match.Status.RUNNING, attempts__gte=MAX_ATTEMPTS).exists():
            # Every try died with its worker or the sandbox: fail it, so that a judge can re-run it.
            fail_match(match_id, f"not played after {MAX_ATTEMPTS} attempts")
        return None
    Match.objects.filter(pk=match_id).update(attempts=F("attempts") + 1)
    match = Match.objects.select_related("contest", "stage").get(pk=match_id)
    game = registry.get(match.contest.game)
    seats = list(match.seats.select_related("entry", "submission").order_by("index"))
    players = [_player(seat) for seat in seats]
    clock = Clock.from_json({**game.default_clock, **match.contest.clock})
    record = play(game, match.params, match.seed, players, clock)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match_id)
        if locked.status != Match.Status.RUNNING:
            return None  # another delivery finished it first: count it once
        for seat, totals in zip(seats, record.seats, strict=True):
            seat.points = record.outcome.points[seat.index]
            seat.score = record.outcome.scores[seat.index]
            seat.status = record.outcome.statuses[seat.index]
            seat.reason = record.outcome.reason if seat.status not in ("win", "draw") else ""
            seat.moves = totals.moves
            seat.cpu_seconds = totals.cpu_s
            seat.wall_seconds = totals.wall_s
            seat.save()
        locked.save_replay(record.replay)
        locked.status = Match.Status.FINISHED
        locked.reason = record.outcome.reason
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "reason", "finished_at"])
        events.match_finished(locked)
        if locked.stage is not None and locked.stage.kind == Stage.Kind.SYSTEM_TEST:
            system_test.conclude(locked)
        else:
            _finish_stage_if_done(locked.stage)
    return Match.Status.FINISHED


def fail_match(match_id: int, error: str) -> None:
    """Record a platform fault: the match is not counted and a judge can re-run it."""
    failed = (
        Match.objects.filter(pk=match_id)
        .exclude(status=Match.Status.FINISHED)
        .update(status=Match.Status.FAILED, error=error[-4000:], finished_at=timezone.now())
    )
    match = Match.objects.select_related("stage").get(pk=match_id)
    if failed and match.stage is not None and match.stage.kind == Stage.Kind.SYSTEM_TEST:
        system_test.conclude(match)


def _finish_stage_if_done(stage: Stage | None) -> None:
    if stage is None:
        return
    # The row lock makes the ends of the last two matches of a round take turns here, so one of
    # them sees the other finished (PostgreSQL runs them side by side; SQLite never does).
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    open_matches = stage.matches.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).exists()
    if not open_matches and stage.kind == Stage.Kind.SWISS:
        try:
            if tournaments.schedule_swiss_round(stage):
                return  # the next round is on
        except tournaments.StageError as e:  # e.g. too few players left: the stage ends, the result stands
            log.warning("stage %s: no further Swiss round: %s", stage.pk, e)
    if not open_matches:
        Stage.objects.filter(pk=stage.pk, status=Stage.Status.RUNNING).update(
            status=Stage.Status.FINISHED, finished_at=timezone.now()
        )
