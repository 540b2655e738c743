"""Small factory functions for tests: each makes one valid row with sensible defaults."""

from __future__ import annotations

import hashlib
import itertools

from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.utils import timezone

from contests.models import Contest, Entry, Stage, Submission
from games.base import FAULTS
from judging.models import Match, MatchAttempt, MatchSeat, UntoldFault
from judging.record import counts, tallies

_n = itertools.count(1)


def make_user(username: str | None = None, **kwargs) -> User:
    username = username or f"user{next(_n)}"
    return User.objects.create_user(username=username, password=kwargs.pop("password", "pw-" + username), **kwargs)


def make_contest(**kwargs) -> Contest:
    n = next(_n)
    kwargs.setdefault("slug", f"contest-{n}")
    kwargs.setdefault("title", f"Contest {n}")
    kwargs.setdefault("game", "chomp")
    kwargs.setdefault("game_params", {"rows": 4, "cols": 5})
    return Contest.objects.create(**kwargs)


def make_stage(contest: Contest, **kwargs) -> Stage:
    kwargs.setdefault("order", contest.stages.count() + 1)
    kwargs.setdefault("name", "Round robin")
    kwargs.setdefault("kind", "round_robin")
    return Stage.objects.create(contest=contest, **kwargs)


def make_entry(contest: Contest, user: User | None = None, **kwargs) -> Entry:
    user = user or make_user()
    kwargs.setdefault("name", user.username)
    return Entry.objects.create(contest=contest, user=user, **kwargs)


def make_submission(entry: Entry, source: bytes = b"print('hello')\n", **kwargs) -> Submission:
    kwargs.setdefault("number", entry.submissions.count() + 1)
    kwargs.setdefault("language", "python3")
    kwargs.setdefault("filename", "main.py")
    submission = Submission(entry=entry, sha256=hashlib.sha256(source).hexdigest(), size=len(source), **kwargs)
    submission.source.save(submission.filename, ContentFile(source), save=False)
    submission.save()
    return submission


def make_match(contest: Contest, submissions: list[Submission], **kwargs) -> Match:
    """A match of these submissions, seat 0 first; made ``finished`` it has a (first) attempt
    holding its result, as a played match has."""
    kwargs.setdefault("seed", 12345)
    finished = kwargs.get("status") == Match.Status.FINISHED
    match = Match.objects.create(contest=contest, **kwargs)
    counts.changed(match, None)  # as judging.schedule.scheduling.create_match keeps the counts of matches
    for index, submission in enumerate(submissions):
        MatchSeat.objects.create(match=match, index=index, entry=submission.entry, submission=submission)
    if finished:
        finish_on_paper(match)
    return match


def finish_on_paper(match: Match, results: list[tuple[float, float, str]] | None = None, reason: str = "") -> Match:
    """Record a result as a worker would, without playing: ``results`` gives each seat's
    (points, score, status), in seat order (the seats' current values when None)."""
    was = Match.objects.values_list("status", flat=True).get(pk=match.pk)
    with tallies.recounting(match.pk):  # as judging.play.matches.write_result keeps the standings' totals
        _hold(match, results, reason)
    counts.moved([(match.contest_id, match.stage_id, was, Match.Status.FINISHED)])
    match.refresh_from_db()
    return match


def _hold(match: Match, results: list[tuple[float, float, str]] | None, reason: str) -> None:
    seats = list(match.seats.order_by("index"))
    for seat, values in zip(seats, results or [], strict=False):
        seat.points, seat.score, seat.status = values
        seat.save()
    now = timezone.now()
    number = match.attempts.count() + 1
    attempt = MatchAttempt.objects.create(
        match=match,
        number=number,
        worker="on paper",
        started_at=now,
        last_seen=now,
        finished_at=now,
        outcome=MatchAttempt.Outcome.FINISHED,
        result={
            "reason": reason,
            "seats": [
                {"index": s.index, "points": s.points, "score": s.score, "status": s.status, "moves": s.moves}
                for s in seats
            ],
        },
    )
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, result_attempt=attempt, finished_at=now, reason=reason or match.reason
    )
    UntoldFault.objects.bulk_create(UntoldFault(seat=seat, attempt=attempt) for seat in seats if seat.status in FAULTS)


def name_to(contest: Contest, user: User | None = None, role: str = "judge") -> User:
    """A user named to a role of the contest (judge, organiser or owner): contests.roles."""
    from contests import roles
    from contests.models import ContestRole

    user = user or make_user()
    if role == ContestRole.Role.OWNER:
        roles.make_owner(contest, user)
    else:
        ContestRole.objects.update_or_create(contest=contest, user=user, defaults={"role": role})
    roles.forget(user)
    return user
