"""Versus batches: a contestant's new version against a pool of opponents (its entry's previous
version, the references, the current top entries, rivals who allow it), in unrated games
outside every stage, until the win rate's interval excludes 50% or the batch's games are
spent; the page follows the win rate and its interval as the games arrive.

Looking at a win rate after every game and stopping once a plain 95% interval excludes 50%
would call a batch of two equal programs decided about four times in ten (issue 27's note:
41.7% of 20,000 simulated batches of 200 games). The interval here is a confidence sequence
(Robbins' normal mixture for outcomes in [0, 1], a win 1, a draw 1/2, anything else 0):
valid at every game at once, so stopping at the first look that excludes 50% is wrong at most
5% of the time, peeking included.

A batch keeps a few games in play; each one's end queues ``step`` (a task), which counts the
batch's results from its games, stops it or tops it up: the same whatever the order the
games end in, and harmless if a step runs twice.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext

from contests import bounds
from contests.locks import lock, writing
from contests.models import Entry, Submission
from games import registry
from games.base import DRAW, WIN
from judging.models import Event, Match, MatchSeat, VersusBatch
from judging.news import events
from judging.record import entrants, lifecycle, standings
from judging.record.formats import StageError
from judging.schedule import scheduling

__all__ = ["Pool", "WinRate", "games_left", "interval", "pool_of", "start", "step", "win_rate"]

LEVEL = 0.95
MIXTURE_GAMES = 30  # the confidence sequence is narrowest about here (its mixture's width)
IN_PLAY = 8  # games of a batch in play at once, at most


def interval(games: int, score: float, level: float = LEVEL) -> tuple[float, float]:
    """The win rate's interval after ``games`` games scoring ``score``, valid at every number of
    games at once (a two-sided normal-mixture confidence sequence, variance at most 1/4)."""
    if games == 0:
        return 0.0, 1.0
    alpha = 1 - level
    spread = games / 4 + MIXTURE_GAMES / 4  # the variance so far and the mixture's
    half = math.sqrt(2 * spread * math.log(2 / alpha * math.sqrt(spread / (MIXTURE_GAMES / 4)))) / games
    rate = score / games
    return max(0.0, rate - half), min(1.0, rate + half)


@dataclass(frozen=True)
class WinRate:
    games: int
    score: float  # wins, and a half for each draw
    wins: int
    draws: int
    low: float
    high: float

    @property
    def rate(self) -> float | None:
        return self.score / self.games if self.games else None


def win_rate(batch: VersusBatch) -> WinRate:
    """The batch's version's results so far, from its finished games."""
    statuses = list(
        MatchSeat.objects.filter(
            match__versus=batch, match__status=Match.Status.FINISHED, submission_id=batch.submission_id
        ).values_list("status", flat=True)
    )
    wins, draws = statuses.count(WIN), statuses.count(DRAW)
    score = wins + draws / 2
    return WinRate(len(statuses), score, wins, draws, *interval(len(statuses), score, batch.level))


# --- The pool ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    previous: bool = True  # the entry's version before this one
    references: bool = True
    top: int = 0  # the current top entries of the contest's standings (its own aside)
    rivals: tuple[int, ...] = ()  # entries whose contestants allow versus games


def pool_of(submission: Submission, pool: Pool) -> list[tuple[str, Submission]]:
    """The opponents a version's batch plays in turn, (label, version); refused if none."""

    entry, contest = submission.entry, submission.entry.contest
    found: dict[int, tuple[str, Submission]] = {}
    if pool.previous:
        earlier = (
            entry.submissions.filter(status=Submission.Status.READY, number__lt=submission.number)
            .order_by("-number")
            .first()
        )
        if earlier is not None:
            found[earlier.pk] = (gettext("my version %(number)s") % {"number": earlier.number}, earlier)
    others = Entry.objects.filter(contest=contest, status=Entry.Status.ACTIVE).exclude(pk=entry.pk)
    chosen: list[tuple[Entry, str]] = []
    if pool.references:
        chosen += [
            (e, gettext("%(entry)s (reference)") % {"entry": e.name})
            for e in others.filter(is_reference=True).order_by("pk")
        ]
    if pool.top:
        stage = standings.current_stage(contest)
        rows = standings.compute(contest, stage).rows if stage else []
        top = [r.entry for r in rows if r.entry.pk != entry.pk][: pool.top]
        chosen += [(e, gettext("%(entry)s (top %(top)s)") % {"entry": e.name, "top": pool.top}) for e in top]
    if pool.rivals:
        rivals = others.filter(pk__in=pool.rivals)
        refused = set(pool.rivals) - set(rivals.filter(versus_allowed=True).values_list("pk", flat=True))
        if refused:
            raise StageError(
                gettext("Only entries whose contestants allow versus games can be named as rivals; not: %(refused)s")
                % {"refused": ", ".join(map(str, sorted(refused)))}
            )
        chosen += [(e, gettext("%(entry)s (rival)") % {"entry": e.name}) for e in rivals.order_by("pk")]
    for other, label in chosen:
        ready = entrants.ready_submission(other)
        if ready is not None and ready.pk not in found:
            found[ready.pk] = (label, ready)
    if not found:
        raise StageError(
            gettext("The pool is empty: no earlier version, reference, top entry or rival is ready to play.")
        )
    return list(found.values())


# --- The quota --------------------------------------------------------------------------------


def games_left(user, contest, now=None) -> int:
    """Versus games this user may still ask for in the contest: ``VERSUS_GAMES_PER_DAY`` in any
    24 hours. A batch reserves its games when it starts: the games made in the last 24 hours and
    those the running batches may still make are taken (three batches of 10,000 asked at once were
    each given what the games made so far left: 200, 192 and 184 of a quota of 200). A batch
    stopped early gives back what it did not make."""
    now = now or timezone.now()
    made = (
        Match.objects.filter(versus__entry__user=user, versus__contest=contest, created_at__gte=now - timedelta(days=1))
        .exclude(status=Match.Status.CANCELLED)
        .count()
    )
    running = VersusBatch.objects.filter(entry__user=user, contest=contest, status=VersusBatch.Status.RUNNING)
    running = running.annotate(made=Count("matches", filter=~Q(matches__status=Match.Status.CANCELLED)))
    reserved = sum(max(0, batch.games - batch.made) for batch in running)
    return max(0, settings.VERSUS_GAMES_PER_DAY - made - reserved)


# --- A batch's life ---------------------------------------------------------------------------


@writing()
def start(submission: Submission, user, games: int, pool: Pool) -> VersusBatch:
    """A batch of at most ``games`` games of the version against the pool, within the user's
    quota: cut to what is left of it (``batch.note`` says so), refused when under 2 are left. Its
    first games are queued at once. The contestant's row is locked first, so that batches asked
    at once reserve their games one after the other."""
    lock("contestant", get_user_model().objects.filter(pk=user.pk))
    entry = submission.entry
    if submission.status != Submission.Status.READY:
        raise StageError(gettext("Only a version that passed its system test plays versus games."))
    if entry.status != Entry.Status.ACTIVE:
        raise StageError(
            gettext("%(entry)s is %(status)s: it plays no versus games.")
            % {"entry": entry.name, "status": entry.get_status_display().lower()}
        )
    if not entry.contest.is_hosted or registry.get(entry.contest.game).info.seats != 2:
        raise StageError(gettext("Versus games are games of two: this contest's game is not."))
    if problem := bounds.VERSUS_GAMES.refusal("games", games):
        raise StageError(problem)
    left = games_left(user, entry.contest)
    if left < 2:
        raise StageError(
            gettext("You have used your %(most)s versus games of the last 24 hours in %(contest)s.")
            % {"most": settings.VERSUS_GAMES_PER_DAY, "contest": entry.contest.title}
        )
    opponents = pool_of(submission, pool)
    batch = VersusBatch.objects.create(
        contest=entry.contest, entry=entry, submission=submission, requested_by=user, games=min(games, left),
        level=LEVEL, opponents=[{"submission": s.pk, "entry": s.entry_id, "label": label} for label, s in opponents],
    )  # fmt: skip
    batch.note = ""
    if games > left:
        batch.note = gettext(
            "Cut to %(left)s games: that is what is left of your %(most)s versus games of the "
            "last 24 hours in %(contest)s (you asked for %(games)s)."
        ) % {"left": left, "most": settings.VERSUS_GAMES_PER_DAY, "contest": entry.contest.title, "games": f"{games:,}"}
    _top_up(batch, 0, 0)
    return batch


def step(batch_id: int) -> str:
    """After one of the batch's games ended: stop it if its interval excludes 50% or its games
    are spent, else keep its games in play. What it did, in words."""

    with writing():
        found = lock("versus", VersusBatch.objects.filter(pk=batch_id))
        if not found or found[0].status != VersusBatch.Status.RUNNING:
            return ""
        batch = found[0]
        found = win_rate(batch)
        matches = Match.objects.filter(versus=batch)
        playing = matches.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).count()
        made = matches.exclude(status=Match.Status.CANCELLED).count()
        said = ""
        if found.games:
            said = gettext("%(score)s of %(games)s (%(rate)s; %(level)s interval %(low)s–%(high)s)") % {
                "score": f"{found.score:g}",
                "games": found.games,
                "rate": f"{found.rate:.0%}",
                "level": f"{batch.level:.0%}",
                "low": f"{found.low:.1%}",
                "high": f"{found.high:.1%}",
            }
        if found.games and (found.low > 0.5 or found.high < 0.5):
            if found.low > 0.5:
                ended_by = gettext("better than the pool: %(said)s excludes 50%%") % {"said": said}
            else:
                ended_by = gettext("worse than the pool: %(said)s excludes 50%%") % {"said": said}
            batch.status, batch.ended_by = VersusBatch.Status.DECIDED, ended_by
        elif made >= batch.games and playing == 0:
            spent = gettext("its %(games)s games spent: %(said)s, undecided") % {"games": batch.games, "said": said}
            batch.status, batch.ended_by = VersusBatch.Status.SPENT, spent
        else:
            _top_up(batch, made, playing)
            return ""
        batch.finished_at = timezone.now()
        batch.save(update_fields=["status", "ended_by", "finished_at"])
        events.emit(Event.Kind.SUBMISSION, batch.contest_id, {"versus": batch.pk}, user_id=batch.requested_by_id)
        for match in matches.filter(status=Match.Status.QUEUED):
            lifecycle.cancel_match(match)
        return batch.ended_by


def _top_up(batch: VersusBatch, made: int, playing: int) -> None:
    """Queue the batch's next games, opponents in turn and each side first in turn, keeping
    at most ``IN_PLAY`` in play; among the tournament's games, by age (a batch is many games:
    ahead of them, a hundred contestants' batches would hold a stage back for hours)."""
    count = min(IN_PLAY - playing, batch.games - made)
    if count <= 0:
        return
    submission = Submission.objects.select_related("entry").get(pk=batch.submission_id)
    versions = Submission.objects.select_related("entry").in_bulk([o["submission"] for o in batch.opponents])
    game = registry.get(batch.contest.game)
    rng = random.Random()
    for n in range(made, made + count):
        other = versions.get(batch.opponents[n % len(batch.opponents)]["submission"])
        if other is None:
            continue
        seats = [(submission.entry, submission), (other.entry, other)]
        if (n // len(batch.opponents)) % 2:
            seats.reverse()
        scheduling.create_match(
            batch.contest, None, seats, seed=rng.randrange(2**62), params=game.resolve_params(batch.contest.game_params),
            priority=Match.Priority.TOURNAMENT, queue=True, versus=batch,
        )  # fmt: skip
