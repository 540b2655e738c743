"""The system test: a few games of every new submission against a reference player, as the
Chomp rules promise ("system tests will be played against a random-move opponent to
determine whether the program conforms to the rules"). Passing makes the submission the
entry's active version; failing leaves the previous one active."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from contests.models import Entry, Match, MatchSeat, Stage, Submission
from games import registry
from games.base import CRASH, FAULTS
from judging import dispatch, events, scheduling
from judging.formats import SECONDS, SEED, StageError, StageFormat, StageParam, register
from judging.tournaments import stage_params, version_activated


def system_test_stage(contest) -> Stage | None:
    return contest.stages.filter(kind=Stage.Kind.SYSTEM_TEST).order_by("order").first()


def _opponent(stage: Stage) -> tuple[Entry, Submission] | None:
    entries = stage.contest.entries.filter(is_reference=True, status=Entry.Status.ACTIVE)
    if stage.params.get("opponent"):
        entries = entries.filter(name=stage.params["opponent"])
    for entry in entries.order_by("pk"):
        submission = scheduling.ready_submission(entry)
        if submission is not None:
            return entry, submission
    return None


def activate(submission: Submission) -> None:
    """Make this version the one that plays for its entry; the contest's continuous stages
    schedule its games."""
    Submission.objects.filter(entry_id=submission.entry_id, is_active=True).exclude(pk=submission.pk).update(
        is_active=False
    )
    Submission.objects.filter(pk=submission.pk).update(is_active=True, status=Submission.Status.READY)
    version_activated(submission)


@transaction.atomic
def start(submission: Submission) -> bool:
    """Schedule the system test of a freshly built submission; False when the contest has
    none to run (no such stage, or no reference player ready), and the submission is then
    made active at once."""
    stage = system_test_stage(submission.entry.contest)
    # a run on its own, no opponent: a one-seat game, or a race (of one, on the stage's decks)
    alone = registry.get(submission.entry.contest.game).info.seats in (0, 1)
    opponent = _opponent(stage) if stage and not alone else None
    if stage is None or (opponent is None and not alone) or submission.entry.is_reference:
        activate(submission)
        return False
    Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.TESTING, test_log="")
    params = stage_params(stage)
    for game in range(int(stage.params.get("games", 1 if alone else 2))):
        seats = [(submission.entry, submission)] if alone else [(submission.entry, submission), opponent]
        if game % 2:
            seats.reverse()
        scheduling.create_match(
            stage.contest,
            stage,
            seats,
            round=submission.number,
            # an output-only contest tests on its practice inputs (the stage's seed)
            seed=int(stage.params["seed"]) + game if "seed" in stage.params else submission.pk * 1000 + game,
            params=params,
            priority=Match.Priority.WAITING,  # its author is waiting for the verdict
            queue=True,
        )
    return True


def _warnings(match: Match, index: int) -> list[str]:
    """What the referee would write back about a seat's game without it costing the game
    (POTM's weekly status: moves over the 30 s average, output forgiven by the judge)."""
    result = match.result_attempt.result if match.result_attempt else None
    seats = (result or {}).get("seats") or []
    return list(seats[index].get("warnings") or []) if index < len(seats) else []


def conclude(match: Match) -> None:
    """After a system-test match ends (in the transaction that ended it): once all of the
    submission's test games have, pass or fail it, with a line per game for its author."""
    seat = match.seats.select_related("submission").filter(entry__is_reference=False).first()
    if seat is None:
        return
    # The ends of two test games take turns here: on PostgreSQL each would otherwise see the
    # other still running (neither committed yet) and neither would conclude.
    submission = Submission.objects.select_for_update().get(pk=seat.submission_id)
    seats = (
        MatchSeat.objects.filter(submission=submission, match__stage=match.stage, match__round=submission.number)
        .select_related("match__result_attempt")
        .order_by("match_id")
    )
    if submission.built_at is not None:  # the games of the program as last built (it may have been rebuilt)
        seats = seats.filter(match__created_at__gte=submission.built_at)
    if any(s.match.status in (Match.Status.QUEUED, Match.Status.RUNNING) for s in seats):
        return
    lines, failed = [], False
    for number, s in enumerate(seats, start=1):
        m = s.match
        if m.status != Match.Status.FINISHED:
            lines.append(f"game {number} (match {m.pk}): not played ({m.get_status_display().lower()})")
            failed = True
            continue
        average = s.cpu_seconds / s.moves if s.moves else 0.0
        side = "first" if s.index == 0 else "second"
        lines.append(
            f"game {number} (match {m.pk}), moving {side}: {s.detail or s.status}, {s.moves} moves, "
            f"{s.cpu_seconds:.3f} s CPU ({average:.3f} s a move){' - ' + s.reason if s.reason else ''}"
        )
        failed |= s.status in FAULTS
        lines += [f"  warning: {w}" for w in _warnings(m, s.index)]
    if failed and _supplied_runme_did_not_run(submission, seats):
        _rebuild_from_sources(submission, lines)
        return
    warned = sum(line.startswith("  warning: ") for line in lines)
    if failed:
        verdict = "failed: a program must play every game by the rules"
    else:
        verdict = f"passed, with {warned} warning{'s' * (warned != 1)}" if warned else "passed"
    log = "\n".join([*lines, f"system test {verdict}"])
    with transaction.atomic():
        updated = Submission.objects.filter(pk=submission.pk, status=Submission.Status.TESTING).update(test_log=log)
        if not updated:
            return
        if failed:
            Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.TEST_FAILED)
        else:
            activate(submission)
        events.submission_changed(submission)


def _supplied_runme_did_not_run(submission: Submission, seats) -> bool:
    """The first test game ended with the program's very first run (an exec failure, a crash
    before any answer), it is an archive that came with a runme, the game's page promises to
    rebuild such an entry from its sources, and it has not been rebuilt yet."""
    first = seats[0] if seats else None
    return (
        first is not None
        and first.match.status == Match.Status.FINISHED
        and first.status == CRASH
        and first.moves == 0  # not one move made: it never answered
        and submission.language == "archive"
        and not submission.rebuilt_from_sources
        and registry.get(submission.entry.contest.game).rebuilds_from_sources
    )


def _rebuild_from_sources(submission: Submission, lines: list[str]) -> None:
    """Build the submission again from its src/Makefile (``builds.build_submission``), then test
    it once more; its build log says why. Called with the submission's row locked."""
    why = f"the supplied runme did not run (system test, {lines[0]}): rebuilding from src/ with make"
    with transaction.atomic():
        updated = Submission.objects.filter(pk=submission.pk, status=Submission.Status.TESTING).update(
            status=Submission.Status.QUEUED,
            queued_at=timezone.now(),
            rebuilt_from_sources=True,
            build_log=f"{submission.build_log}\n{why}".strip(),
            test_log="\n".join(
                [*lines, "system test stopped: the program is rebuilt from its sources and tested again"]
            ),
            build_faults=0,
            build_started_at=None,
        )
        if not updated:
            return
        dispatch.queue_build(submission.pk)
        events.submission_changed(submission)


@register(Stage.Kind.SYSTEM_TEST)
class SystemTest(StageFormat):
    """The games of each new submission against a reference program (or its run on the
    practice inputs): they start by themselves and count in no standings."""

    params = (
        StageParam(
            "games", "Games", "Test games of each new version (2, each side first once; 1 for a run alone).", 1, 20
        ),
        StageParam(
            "opponent", "Opponent", "The reference entry it plays, by name (the first ready if empty).", text=True
        ),
        SEED,
        SECONDS,
    )

    counts_in_standings = False
    run_by_judges = False

    def start(self, stage: Stage) -> list[Match]:
        raise StageError("A system test runs by itself for each new submission; re-run one of its games instead.")

    def match_ended(self, match: Match) -> None:
        conclude(match)

    def match_queued_again(self, match: Match) -> None:
        """A re-run test game puts its submission back under test."""
        super().match_queued_again(match)
        Submission.objects.filter(
            seats__match=match,
            entry__is_reference=False,
            status__in=[Submission.Status.READY, Submission.Status.TEST_FAILED],
        ).update(status=Submission.Status.TESTING)
