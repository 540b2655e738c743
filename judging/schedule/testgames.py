"""Test games: a contestant's game of a built version, outside every stage, against a
reference program or one of the entry's own earlier versions, to try it before it plays for
real. Counted in no standings; seen only by their players and the judges."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from contests.models import Contest, Entry, Submission
from games import registry
from judging.models import Match
from judging.record import entrants, formats
from judging.record.formats import StageError
from judging.schedule import scheduling


def test_game_opponents(submission: Submission) -> list[tuple[str, Submission]]:
    """What a version may play a test game against: each reference program ready to play, and
    the entry's own earlier versions that were built; (label, submission)."""
    contest = submission.entry.contest
    found = []
    for entry in contest.entries.filter(is_reference=True, status=Entry.Status.ACTIVE).order_by("pk"):
        ready = entrants.ready_submission(entry)
        if ready is not None:
            found.append((gettext("%(entry)s (reference)") % {"entry": entry.name}, ready))
    earlier = submission.entry.submissions.filter(
        status__in=[Submission.Status.READY, Submission.Status.TEST_FAILED], number__lt=submission.number
    )
    for version in earlier.order_by("-number"):
        found.append((gettext("my version %(number)s") % {"number": version.number}, version))
    return found


def test_games_left(user, contest: Contest, now: datetime | None = None) -> tuple[int, datetime | None]:
    """(test games this user may still ask for in the contest, when the next one frees up if
    none): ``TEST_GAMES_PER_DAY`` in any 24 hours."""
    now = now or timezone.now()
    recent = Match.objects.filter(
        contest=contest, stage__isnull=True, versus__isnull=True, seats__entry__user=user,
        seats__entry__is_reference=False, created_at__gte=now - timedelta(days=1),
    ).distinct()  # fmt: skip
    quota = settings.TEST_GAMES_PER_DAY
    count = recent.count()
    if count < quota:
        return quota - count, None
    oldest = recent.order_by("created_at").values_list("created_at", flat=True)[count - quota]
    return 0, oldest + timedelta(days=1)


@transaction.atomic
def create_test_game(submission: Submission, opponent: Submission | None = None, first: bool = True) -> Match:
    """An on-demand game of a built submission (not counted in any stage) against a reference
    program or one of the entry's own earlier versions (``opponent``; the first reference
    ready when None; in every other seat of a game of more): what a contestant asks for to try a version before it plays for real.
    Refused for an entry that is withdrawn or disqualified, and past the contestant's quota."""
    if submission.status not in (Submission.Status.READY, Submission.Status.TESTING, Submission.Status.TEST_FAILED):
        raise StageError(gettext("Only a program that has been built can play a test game."))
    entry = submission.entry
    if entry.status != Entry.Status.ACTIVE:
        raise StageError(
            gettext("%(entry)s is %(status)s: it plays no test games.")
            % {"entry": entry.name, "status": entry.get_status_display().lower()}
        )
    contest = entry.contest
    if not entry.is_reference:
        left, free_at = test_games_left(entry.user, contest)
        if left <= 0:
            raise StageError(
                gettext(
                    "You have played your %(most)s test games of the last 24 hours in %(contest)s; the next one is "
                    "allowed at %(when)s UTC."
                )
                % {
                    "most": settings.TEST_GAMES_PER_DAY,
                    "contest": contest.title,
                    "when": f"{free_at:%Y-%m-%d %H:%M}",
                }
            )
    game = registry.get(contest.game)
    seats = [(entry, submission)]
    if game.info.seats not in (0, 1):  # a one-seat game's or a race's test game is a run alone
        choices = test_game_opponents(submission)
        if opponent is not None:
            choices = [c for c in choices if c[1].pk == opponent.pk]
            if not choices:
                raise StageError(
                    gettext("The opponent must be a reference program or one of your own earlier built versions.")
                )
        if not choices:
            raise StageError(
                gettext("%(contest)s has no reference program ready to play against.") % {"contest": contest.title}
            )
        other = choices[0][1]
        seats += [(other.entry, other)] * (formats.contest_seats(contest) - 1)  # a game of k seats: k - 1 of them
        if not first:
            seats.reverse()
    return scheduling.create_match(
        contest,
        None,
        seats,
        seed=random.randrange(2**62),
        params=game.resolve_params(contest.game_params),
        priority=Match.Priority.WAITING,
        queue=True,
    )
