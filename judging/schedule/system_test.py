"""The system test: a few games of every new submission against a reference player, as the
Chomp rules promise ("system tests will be played against a random-move opponent to
determine whether the program conforms to the rules").

An entry plays with its newest version that passed: a new version that passes becomes the
active one; one that fails leaves the previous one active. A judge may re-run any test game:
the version keeps playing meanwhile, and if the re-run fails it, the entry goes back to its
newest other version that passed (its contestant reads why in the version's test log, and
the judges' log records it)."""

from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from contests.models import Entry, Stage, Submission
from contests.services import log_action
from games import registry
from games.base import CRASH, FAULTS
from judging import dispatch
from judging.models import Match, MatchAttempt, MatchSeat
from judging.news import events, notifications, results
from judging.record import entrants, formats
from judging.record.formats import SECONDS, SEED, StageError, StageFormat, StageParam, register
from judging.record.lifecycle import Ended
from judging.schedule import scheduling
from judging.schedule.tournaments import stage_params, version_activated

SYSTEM_TEST = "system_test"  # the kind of stage (Stage.kind)
SEAT = re.compile(r"\bseat (\d+)\b")  # a game's reason names seats: the log names entries


def system_test_stage(contest) -> Stage | None:
    return contest.stages.filter(kind=SYSTEM_TEST).order_by("order").first()


def _opponent(stage: Stage) -> tuple[Entry, Submission] | None:
    entries = stage.contest.entries.filter(is_reference=True, status=Entry.Status.ACTIVE)
    if stage.params.get("opponent"):
        entries = entries.filter(name=stage.params["opponent"])
    for entry in entries.order_by("pk"):
        submission = entrants.ready_submission(entry)
        if submission is not None:
            return entry, submission
    return None


def choose_active(entry_id: int) -> Submission | None:
    """Make the entry's newest version that passed (ready) the one that plays for it; the
    contest's continuous stages then schedule its games. The active version, or None when no
    version of the entry has passed."""
    versions = Submission.objects.filter(entry_id=entry_id)
    newest = versions.filter(status=Submission.Status.READY).order_by("-number").first()
    current = versions.filter(is_active=True).first()
    if current is not None and (newest is None or newest.pk != current.pk):
        versions.filter(pk=current.pk).update(is_active=False)
    if newest is not None and (current is None or newest.pk != current.pk):
        versions.filter(pk=newest.pk).update(is_active=True)
        version_activated(newest)
    return newest


def activate(submission: Submission) -> None:
    """A version that needs no system test (a reference program, a contest without one) is
    ready: it plays for its entry unless a newer one does already."""
    Submission.objects.filter(pk=submission.pk).update(status=Submission.Status.READY)
    choose_active(submission.entry_id)


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
    # a game of k seats: the version and k - 1 of the reference, the version's seat turned by
    # one each game (each seat once in k games: the default)
    k = 1 if alone else formats.seats(stage)
    for game in range(int(stage.params.get("games", k if k > 1 else 1))):
        seats = [(submission.entry, submission)] + [opponent] * (k - 1)
        turn = game % k
        seats = seats[-turn:] + seats[:-turn] if turn else seats
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
    """After a system-test match ends (in the transaction that ended it, its stage's row
    locked: the ends of two test games take turns here, so one of them sees the other ended):
    once all of the submission's test games have, pass or fail it, with a line per game for
    its author. A judge's re-run of a test game concludes again, from every game's newest
    result; failing then takes the entry back to its newest other version that passed."""
    seat = match.seats.select_related("submission").filter(entry__is_reference=False).first()
    if seat is None:
        return
    submission = Submission.objects.select_related("entry").get(pk=seat.submission_id)
    first_test = submission.status == Submission.Status.TESTING
    if not first_test and submission.status not in (Submission.Status.READY, Submission.Status.TEST_FAILED):
        return  # being built again meanwhile: its games are those of the new build
    seats = (
        MatchSeat.objects.filter(submission=submission, match__stage=match.stage, match__round=submission.number)
        .select_related("match__result_attempt")
        .order_by("match_id")
    )
    if submission.built_at is not None:  # the games of the program as last built (it may have been rebuilt)
        seats = seats.filter(match__created_at__gte=submission.built_at)
    if any(s.match.status in (Match.Status.QUEUED, Match.Status.RUNNING) for s in seats):
        return
    lines, failed, unplayed, warned = [], False, False, 0
    game = registry.get(match.contest.game)
    for number, s in enumerate(seats, start=1):
        m = s.match
        if m.status != Match.Status.FINISHED:
            lines.append(
                gettext("game %(number)s (match %(match)s): not played, not your program's doing: %(why)s")
                % {"number": number, "match": m.pk, "why": _not_played(m)}
            )
            unplayed = True
            continue
        average = s.cpu_seconds / s.moves if s.moves else 0.0
        sides = (gettext("first"), gettext("second"), gettext("third"), gettext("fourth"))
        side = sides[s.index] if s.index < 4 else gettext("seat %(seat)s") % {"seat": s.index + 1}
        players = list(m.seats.select_related("entry"))
        # a game of more than two by its place, as its match page says it ("2nd of 4: lost"):
        # Hearts' second place read "lost", as its fourth did
        said = results.seat_words(game, s, players if len(players) > 2 else None)
        if s.detail and s.detail not in said:  # the game's own word too, as its author knows it
            said = f"{said} ({s.detail})"
        names = {seat.index: seat.entry.name for seat in players}
        reason = SEAT.sub(lambda found, names=names: names.get(int(found[1]), found[0]), s.reason or "")
        alone = len(names) == 1  # a solitaire's game or an output-only run: nobody to move before or after
        figures = {
            "number": number,
            "match": m.pk,
            "side": side,
            "said": said,
            "moves": s.moves,
            "cpu": f"{s.cpu_seconds:.3f}",
            "average": f"{average:.3f}",
        }
        if alone:
            line = gettext(
                "game %(number)s (match %(match)s): %(said)s, %(moves)s moves, %(cpu)s s CPU (%(average)s s a move)"
            )
        else:
            line = gettext(
                "game %(number)s (match %(match)s), moving %(side)s: %(said)s, %(moves)s moves, "
                "%(cpu)s s CPU (%(average)s s a move)"
            )
        lines.append(line % figures + (" - " + reason if reason else ""))
        failed |= s.status in FAULTS
        found = _warnings(m, s.index)
        warned += len(found)
        lines += ["  " + gettext("warning: %(warning)s") % {"warning": w} for w in found]
    if first_test and failed and _supplied_runme_did_not_run(submission, seats):
        _rebuild_from_sources(submission, lines)
        return
    if unplayed and not failed:
        _waits(submission, lines, first_test)
        return
    if failed:
        verdict = gettext("system test failed: a program must play every game by the rules")
    elif warned:
        verdict = ngettext(
            "system test passed, with %(n)s warning", "system test passed, with %(n)s warnings", warned
        ) % {"n": warned}
    else:
        verdict = gettext("system test passed")
    if not first_test:
        lines.insert(0, gettext("a judge re-ran this version's system test:"))
    lines.append(verdict)
    was_active = submission.is_active
    status = Submission.Status.TEST_FAILED if failed else Submission.Status.READY
    Submission.objects.filter(pk=submission.pk).update(status=status, test_log="\n".join(lines))
    active = choose_active(submission.entry_id)
    if was_active and active != submission:
        _told_back(submission, active, lines)
    if failed:
        notifications.test_failed(submission, seats, active, rerun=not first_test)
    events.submission_changed(submission)
    if active is not None and active != submission:
        events.submission_changed(active)


def _not_played(match: Match) -> str:
    """Why a test game was not played, in words for the version's author."""
    if match.status == Match.Status.CANCELLED:
        return gettext("a judge cancelled it")
    last = match.attempts.order_by("-number").values_list("outcome", flat=True).first()
    if last == MatchAttempt.Outcome.REFEREE:
        return gettext("the game's referee failed in it")
    return gettext("the platform failed in it")


def _waits(submission: Submission, lines: list[str], first_test: bool) -> None:
    """A test game could not be played (the platform or the game's referee failed it, or a judge
    cancelled it) and none that was showed a fault of the program: the test is not decided. The
    version waits, as it was (a first test stays under way; a re-run leaves it playing or not
    as before), until a judge plays the game again; nobody is told it failed."""
    if not first_test:
        lines.insert(0, gettext("a judge re-ran this version's system test:"))
    lines.append(gettext("system test waiting for a judge to play again a game that could not be played"))
    Submission.objects.filter(pk=submission.pk).update(test_log="\n".join(lines))
    events.submission_changed(submission)


def _told_back(failed: Submission, active: Submission | None, lines: list[str]) -> None:
    """The active version failed a re-run of its system test: the entry plays with its newest
    other version that passed, if any. Its contestant reads it in the failed version's test
    log; the judges' log has it too."""
    entry = failed.entry
    if active is not None:
        told = gettext(
            "version %(failed)s no longer plays; version %(active)s, the newest that passed, plays again"
        ) % {"failed": failed.number, "active": active.number}
    else:
        told = gettext(
            "version %(failed)s no longer plays, and no other version has passed: submit a new one to play"
        ) % {"failed": failed.number}
    lines.append(told)
    Submission.objects.filter(pk=failed.pk).update(test_log="\n".join(lines))
    log_action(
        None,
        entry.contest_id,
        "submission.restore",
        f"entry {entry.name}",
        gettext("version %(failed)s failed a re-run of its system test; %(told)s")
        % {"failed": failed.number, "told": told},
        failed=failed.pk,
        active=active.pk if active is not None else None,
    )


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
    why = gettext("the supplied runme did not run (system test, %(game)s): rebuilding from src/ with make") % {
        "game": lines[0]
    }
    with transaction.atomic():
        updated = Submission.objects.filter(pk=submission.pk, status=Submission.Status.TESTING).update(
            status=Submission.Status.QUEUED,
            queued_at=timezone.now(),
            rebuilt_from_sources=True,
            build_log=f"{submission.build_log}\n{why}".strip(),
            test_log="\n".join(
                [*lines, gettext("system test stopped: the program is rebuilt from its sources and tested again")]
            ),
            build_faults=0,
            build_started_at=None,
        )
        if not updated:
            return
        dispatch.queue_build(submission.pk)
        events.submission_changed(submission)


@register(SYSTEM_TEST, gettext_lazy("System test"))
class SystemTest(StageFormat):
    """The games of each new submission against a reference program (or its run on the
    practice inputs): they start by themselves and count in no standings."""

    params = (
        StageParam(
            "games",
            gettext_lazy("Games"),
            gettext_lazy("Test games of each new version (one a seat: each seat once; 1 for a run alone)."),
            1,
            20,
        ),
        formats.SEATS,
        StageParam(
            "opponent",
            gettext_lazy("Opponent"),
            gettext_lazy("The reference entry it plays, by name (the first ready if empty)."),
            text=True,
        ),
        SEED,
        SECONDS,
    )

    listed = 0
    counts_in_standings = False
    run_by_judges = False
    ends_when_played = False  # it tests each new submission for as long as the contest takes them

    def start(self, stage: Stage) -> list[Match]:
        raise StageError(
            gettext("A system test runs by itself for each new submission; re-run one of its games instead.")
        )

    def match_ended(self, match: Match, why: Ended) -> None:
        conclude(match)

    def stages_touched(self, match: Match) -> list[int]:
        """A version that passes plays at once in the contest's running continuous stages."""
        return list(
            Stage.objects.filter(
                contest_id=match.contest_id, kind__in=formats.continuous_kinds(), status=Stage.Status.RUNNING
            ).values_list("pk", flat=True)
        )
