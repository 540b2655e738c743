"""One lifecycle for stages, matches and attempts: every state, every move between them with
its guard, and the one order in which a writer locks rows.

Stage::

    pending --run--> running --(no match open)--> finished
       |                |  ^                          |
       |                |  +-------- re-run ----------+
       +----cancel------+--------> cancelled (for good: never run, re-run or shown by default)
       +----delete (none of its matches started)--> gone

Match::

    queued --claim--> running --result--> finished
      ^  ^               |  \\--fault (< MAX_FAULTS)--> queued (ahead of the rest)
      |  |               +----fault (MAX_FAULTS)-----> failed (for a judge)
      |  +------------ re-run (from any state) ---------+
      +-- cancel (queued, running or failed) --> cancelled, or back to finished when a
          re-run of a finished match is cancelled (its earlier result stands)

Attempt: running --> finished | lost | infra | stalled | error | superseded (called off).

A stage's format is told why each of its matches ended (``Ended``): a Swiss round is paired
only once every match of the stage is finished or deliberately cancelled, never from a
cancelled stage, a failed match or one being played again.

Locks are taken as ``contests.locks`` says: one order for every writer.
"""

from __future__ import annotations

import logging
from enum import StrEnum

from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from contests.locks import lock, lock_one, writing
from contests.models import Stage
from games.base import BYE
from judging import dispatch
from judging.models import Match, MatchAttempt
from judging.news import events
from judging.record import counts, formats, tallies
from judging.record.formats import StageError

log = logging.getLogger(__name__)

MAX_FAULTS = 3  # platform faults in a row before a match is failed for a judge
OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)
STOPPABLE = (*OPEN, Match.Status.FAILED)  # what a judge may cancel: not played, or failed for a judge


class Refused(StageError):
    """A transition its guard does not allow; the message says why, for the judge."""


class Ended(StrEnum):
    """Why a match stopped being open, as its stage's format is told."""

    FINISHED = "finished"  # played to its end: its result counts
    FAILED = "failed"  # the platform failed it MAX_FAULTS times: a judge decides
    CANCELLED = "cancelled"  # a judge cancelled it (or its stage)


# --- Stages ---------------------------------------------------------------------------------


def lock_stage(stage_id: int) -> Stage:
    return lock_one("stage", Stage.objects.filter(pk=stage_id).select_related("contest"))


def check(stage: Stage, action: str) -> None:
    """Whether a judge may ``action`` ("run", "rerun" or "cancel") the stage now: Refused, in
    words, if not. Running a stage scheduled already does nothing; a cancelled one stays so."""
    if not formats.of(stage.kind).run_by_judges:
        if action == "cancel":
            said = gettext("%(stage)s runs by itself for each new submission; it cannot be cancelled.")
        else:
            said = gettext("%(stage)s runs by itself for each new submission; re-run one of its games instead.")
        raise Refused(said % {"stage": stage.name})
    if stage.status == Stage.Status.CANCELLED:
        if action == "cancel":
            raise Refused(gettext("%(stage)s is already cancelled.") % {"stage": stage.name})
        raise Refused(
            gettext("%(stage)s was cancelled, for good; add a new stage to play it again.") % {"stage": stage.name}
        )
    if action == "rerun" and stage.status == Stage.Status.PENDING:
        raise Refused(gettext("%(stage)s has not been run yet: run it.") % {"stage": stage.name})


def run_stage(stage: Stage) -> list[Match]:
    """Start a stage by its format (it schedules its matches, once): the one entry point for
    the pages, the admin, the API and scripts."""
    check(stage, "run")
    return formats.of(stage.kind).start(stage)


def start_stage(stage: Stage) -> None:
    """pending -> running: its format has scheduled its first matches (in this transaction)."""
    if stage.status == Stage.Status.PENDING:
        stage.status, stage.started_at = Stage.Status.RUNNING, timezone.now()
        Stage.objects.filter(pk=stage.pk).update(status=stage.status, started_at=stage.started_at)


def finish_stage_if_done(stage: Stage) -> bool:
    """running -> finished once none of its matches is queued, being played or failed (a failed
    one waits for a judge: re-run or cancelled). The caller holds the stage's lock, so the ends
    of its last two matches take turns here and one of them sees the other ended."""
    if stage.status != Stage.Status.RUNNING:
        return stage.status == Stage.Status.FINISHED
    if stage.matches.filter(status__in=[*OPEN, Match.Status.FAILED]).exists():
        return False
    stage.status, stage.finished_at = Stage.Status.FINISHED, timezone.now()
    Stage.objects.filter(pk=stage.pk).update(status=stage.status, finished_at=stage.finished_at)
    events.standings_changed(stage)
    return True


def end_stage(stage_id: int, why: str) -> bool:
    """running -> finished by its declared stopping rule (``why``, as the standings say it): its
    queued matches are not played; those being played finish and count. False if it was no
    longer running."""
    with writing():
        stage = lock_stage(stage_id)
        if stage.status != Stage.Status.RUNNING:
            return False
        for match in lock("match", stage.matches.filter(status=Match.Status.QUEUED)):
            _stop(match)
        stage.status, stage.finished_at, stage.ended_by = Stage.Status.FINISHED, timezone.now(), why
        Stage.objects.filter(pk=stage.pk).update(status=stage.status, finished_at=stage.finished_at, ended_by=why)
        events.standings_changed(stage)
    return True


def reopen_stage(stage: Stage) -> None:
    """finished -> running: some of its matches are to be played again."""
    if stage.status == Stage.Status.FINISHED:
        stage.status, stage.finished_at, stage.ended_by = Stage.Status.RUNNING, None, ""
        Stage.objects.filter(pk=stage.pk).update(status=stage.status, finished_at=None, ended_by="")


def _playable(matches: QuerySet) -> QuerySet:
    """The matches that are games: not a Swiss round's bye (a one-seat record of a round sat out)."""
    return matches.exclude(seats__status=BYE)


def rerun_stage(stage: Stage) -> int:
    """Play every game of a stage again (its byes stay byes; its pairings stay as they are):
    each earlier result counts until its new one lands; the stage runs until they have all
    ended. How many were queued."""
    with writing():
        stage = lock_stage(stage.pk)
        check(stage, "rerun")
        matches = lock("match", _playable(stage.matches.all()))
        ids = [m.pk for m in matches]
        _call_off(ids, "a judge asked for a re-run of the stage while it was being played")
        counts.moved((m.contest_id, m.stage_id, m.status, Match.Status.QUEUED) for m in matches)
        Match.objects.filter(pk__in=ids).update(
            status=Match.Status.QUEUED,
            priority=Match.Priority.TOURNAMENT,
            faults=0,
            error="",
            started_at=None,
            finished_at=None,
            queued_at=timezone.now(),
        )
        reopen_stage(stage)
        dispatch.queue_matches(ids)
    return len(ids)


def cancel_stage(stage: Stage) -> dict[str, int]:
    """Stop a stage for good: it is cancelled, and every match of it queued, being played or
    failed is cancelled (a running one called off; a re-run's earlier result stands). Its
    finished games stay on record; its standings are shown only when asked for. How many
    matches it stopped, by the state each was in."""
    with writing():
        stage = lock_stage(stage.pk)
        check(stage, "cancel")
        stage.status, stage.finished_at = Stage.Status.CANCELLED, timezone.now()
        Stage.objects.filter(pk=stage.pk).update(status=stage.status, finished_at=stage.finished_at)
        matches = lock("match", stage.matches.filter(status__in=STOPPABLE))
        stopped = {status: sum(m.status == status for m in matches) for status in STOPPABLE}
        _call_off([m.pk for m in matches], "a judge cancelled the stage while it was being played")
        for match in matches:
            _stop(match)
        events.standings_changed(stage)
    return stopped


def deletion_refusal(stage: Stage) -> str:
    """Why a judge may not delete the stage, in a sentence; empty if they may: only a stage that
    never ran (none of its matches started: it has none, or only queued ones), of a kind the
    judges run (not the system test, which runs by itself)."""
    if not formats.of(stage.kind).run_by_judges:
        return gettext("%(stage)s runs by itself for each new submission; it cannot be deleted.") % {
            "stage": stage.name
        }
    started = MatchAttempt.objects.filter(match__stage=stage).count()
    settled = stage.matches.exclude(status=Match.Status.QUEUED).count()
    if started or settled:
        return gettext(
            "%(stage)s has run (%(started)s of its matches started or ended); only a stage that "
            "never ran can be deleted: cancel it instead (its games stay on record)."
        ) % {"stage": stage.name, "started": max(started, settled)}
    return ""


def delete_stage(stage: Stage) -> int:
    """Delete a stage that never ran, with its queued matches (their tokens find nothing to
    claim); Refused, in words, for one that ran. How many queued matches went with it."""
    with writing():
        stage = lock_stage(stage.pk)
        refusal = deletion_refusal(stage)
        if refusal:
            raise Refused(refusal)
        matches = lock("match", stage.matches.all())
        counts.moved((m.contest_id, m.stage_id, m.status, None) for m in matches)
        stage.delete()  # its matches, seats and kept counts with it
    return len(matches)


# --- Matches --------------------------------------------------------------------------------


def stages_to_lock(match: Match) -> list[int]:
    """The stages a writer of this match locks first: its own, and those its end may schedule
    games in (a passed system test activates a version, which continuous stages then play)."""
    if match.stage_id is None:
        return []
    stage = Stage.objects.only("kind").get(pk=match.stage_id)
    return sorted({match.stage_id, *formats.of(stage.kind).stages_touched(match)})


def lock_match(match_id: int) -> Match:
    """Lock a match after the stages its writer may touch (see ``stages_to_lock``)."""
    unlocked = Match.objects.only("stage_id").get(pk=match_id)
    lock("stage", Stage.objects.filter(pk__in=stages_to_lock(unlocked)))
    return lock_one("match", Match.objects.filter(pk=match_id).select_related("stage", "contest"))


def _call_off(match_ids: list[int], why: str) -> None:
    """Attempts being played are called off: their players stop at their next move and any
    result they bring is not counted."""
    running = lock("attempt", MatchAttempt.objects.filter(match_id__in=match_ids, outcome=MatchAttempt.Outcome.RUNNING))
    MatchAttempt.objects.filter(pk__in=[a.pk for a in running]).update(
        outcome=MatchAttempt.Outcome.SUPERSEDED, finished_at=timezone.now(), error=why
    )


def rerun_refusal(match: Match) -> str:
    """Why the match cannot be played again, in a sentence for the judge; empty if it can (the
    match page offers the button only then)."""
    if match.stage is not None and match.stage.status == Stage.Status.CANCELLED:
        return gettext("Match %(match)s is of %(stage)s, which was cancelled for good.") % {
            "match": match.pk,
            "stage": match.stage.name,
        }
    if match.seats.filter(status=BYE).exists():
        return gettext("Match %(match)s is a bye (a round sat out), not a game: there is nothing to play.") % {
            "match": match.pk
        }
    return ""


def check_can_rerun(match: Match) -> None:
    refusal = rerun_refusal(match)
    if refusal:
        raise Refused(refusal)


def rerun_match(match: Match) -> Match:
    """Play a match again from the start, whatever its state (one being played is called off).
    Its earlier result stays, and counts, until the new one replaces it."""
    with writing():
        match = lock_match(match.pk)
        check_can_rerun(match)
        _call_off([match.pk], "a judge asked for a re-run while it was being played")
        was = match.status
        match.status, match.priority, match.faults = Match.Status.QUEUED, Match.Priority.WAITING, 0
        match.error, match.started_at, match.finished_at, match.queued_at = "", None, None, timezone.now()
        match.save(update_fields=["status", "priority", "faults", "error", "started_at", "finished_at", "queued_at"])
        counts.changed(match, was)
        if match.stage is not None:
            reopen_stage(match.stage)
            formats.of(match.stage.kind).match_queued_again(match)
        dispatch.queue_match(match.pk)
    return match


def _stop(match: Match) -> None:
    """queued | running | failed -> cancelled; back to finished for a re-run of a finished match (its
    earlier result stands, as it was: its time included)."""
    was = match.status
    if match.result_attempt_id:
        match.status, match.finished_at = Match.Status.FINISHED, match.result_attempt.finished_at
    else:
        match.status, match.finished_at = Match.Status.CANCELLED, timezone.now()
    match.save(update_fields=["status", "finished_at"])
    counts.changed(match, was)
    events.match_finished(match)


def cancel_match(match: Match) -> Match | None:
    """Stop a match that is queued, being played or failed (it is not to be played); None if
    it had finished or was cancelled already."""
    with writing():
        match = lock_match(match.pk)
        if match.status not in STOPPABLE:
            return None
        _call_off([match.pk], "a judge cancelled the match while it was being played")
        _stop(match)
        match_ended(match, Ended.CANCELLED)
    return match


def delete_match(match: Match) -> None:
    """Delete a match (the admin's delete; a judge cancels instead): its stage's kept totals
    and count of matches lose it in the transaction that deletes it."""
    with writing():
        match = lock_match(match.pk)
        with tallies.recounting(match.pk):
            counts.moved([(match.contest_id, match.stage_id, match.status, None)])
            match.delete()
        contest = match.contest
        if contest.standings_frozen_at is not None:  # its frozen seats went with it: so do their totals
            tallies.thaw(contest)
            tallies.snapshot(contest)


def count_made_result(match: Match, attempt: MatchAttempt) -> None:
    """A match made finished with its result (a Swiss bye: no game is played) counts from now
    on: its attempt becomes its result, its stage's kept totals take it."""
    with tallies.recounting(match.pk):
        Match.objects.filter(pk=match.pk).update(result_attempt=attempt)


def fail_match(match_id: int, error: str) -> None:
    """Fail a match that is queued or being played, for a judge (see ``_fail``)."""
    with writing():
        match = lock_match(match_id)
        if match.status in OPEN:
            _call_off([match.pk], error)
            _fail(match, error)


def _fail(match: Match, error: str) -> None:
    """running | queued -> failed, for a judge (the caller holds its locks): it is not played
    again by itself; an earlier result stands; its stage waits for a judge's re-run or cancel."""
    was = match.status
    match.status, match.error, match.finished_at = Match.Status.FAILED, error[-4000:], timezone.now()
    match.save(update_fields=["status", "error", "finished_at"])
    counts.changed(match, was)
    events.match_finished(match)
    match_ended(match, Ended.FAILED)


def requeue_after_fault(match: Match, error: str, by: str = "", counted: bool = True) -> bool:
    """running -> queued at the head of the queue after a platform fault, or -> failed after
    MAX_FAULTS in a row (the caller holds its locks); True if it goes back to the queue. ``by``:
    whose fault the last was, when not the platform's own (the game's referee). A game its
    worker was asked to stop (``counted`` off: Ctrl-C of `make run`, a worker's group stopped)
    is no fault: it goes back to the queue however often that happens."""
    if counted and match.faults + 1 >= MAX_FAULTS:
        said = gettext("not played: %(who)s failed %(times)s times in a row; last: %(error)s") % {
            "who": by or gettext("the platform"),
            "times": MAX_FAULTS,
            "error": error,
        }
        _fail(match, said)
        return False
    # running -> queued: open both, the kept count (judging.record.counts) is unchanged
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.QUEUED,
        priority=Match.Priority.RESCUE,
        faults=F("faults") + (1 if counted else 0),
        started_at=None,
        queued_at=timezone.now(),
    )
    dispatch.queue_match(match.pk)
    return True


def match_ended(match: Match, why: Ended) -> None:
    """What follows the end of a match, in the transaction that ended it (the caller holds its
    stage's lock): its format is told why (a system test concludes, a Swiss round pairs the
    next), then the stage finishes if nothing of it is left to play. A cancelled stage
    schedules nothing more. A versus batch's game steps its batch, after the commit."""
    if match.versus_id is not None:
        dispatch.queue_versus_step(match.versus_id)
    if match.stage_id is None:
        return
    with writing():
        stage = lock_stage(match.stage_id)
        if stage.status == Stage.Status.CANCELLED:
            return
        kind = formats.of(stage.kind)
        kind.match_ended(match, why)
        if kind.ends_when_played:
            finish_stage_if_done(stage)
