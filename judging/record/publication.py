"""What a visitor may see of the judging: which matches, which results, which part of a replay.

Test games are their players' and the judges'; another contestant's stderr and output are
never shown; an output-only run's solution stays its author's while the contest is open.

A freeze is a snapshot: ``freeze`` copies the counted result of every stage's match (its
seats, as ``FrozenSeat`` rows) at that moment, and until ``publish`` every public surface
shows the snapshot: the standings, the crosstable, the chart and an entry's results are
computed from it (``standings.FROZEN``); a game played after the freeze (or played again:
a re-run) shows its snapshot's result if it had one, else is "played, result hidden", on its
page, in the lists and in the API, and its replay waits too. Who sees the live record: the
contest's judges (``contests.roles``) everywhere, and a match's own contestants on that match's
page, in lists and in its replay; everyone sees the live progress (games played, queued).
A disqualification or withdrawal takes an entry out of the public table at once: the
snapshot hides results, not the judges' decisions about entries. Publishing drops the
snapshot: everyone sees the live record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from contests import roles
from contests.locks import lock_one, writing
from contests.models import Contest
from contests.services import can_see_private
from judging.models import FrozenSeat, Match, MatchSeat, read_replay
from judging.news import events
from judging.record import counts, formats, tallies
from judging.record.standings import FROZEN, LIVE, Record
from judging.record.verification import counted_score


class Refused(Exception):
    """Not now; the message says why, for the judge."""


# --- The snapshot ---------------------------------------------------------------------------


def freeze(contest: Contest) -> int:
    """Freeze the public standings now: a snapshot of every stage's match's counted result.
    How many results it holds. Refused while already frozen (publish first)."""
    with writing():
        contest = lock_one("contest", Contest.objects.filter(pk=contest.pk))
        if contest.standings_frozen_at is not None:
            raise Refused(
                gettext(
                    "The standings are frozen already (since %(since)s UTC); publish the results first to freeze "
                    "them again."
                )
                % {"since": f"{contest.standings_frozen_at:%Y-%m-%d %H:%M}"}
            )
        now = timezone.now()
        seats = (
            MatchSeat.objects.filter(match__contest=contest, match__stage__isnull=False)
            .filter(match__result_attempt__isnull=False)
            .values(
                "match_id", "match__result_attempt_id", "match__finished_at", "match__result_attempt__finished_at",
                "index", "entry_id", "submission_id", "submission__is_active", "points", "score", "status", "detail",
                "reason", "moves", "cpu_seconds", "wall_seconds",
            )
        )  # fmt: skip
        rows = (
            FrozenSeat(
                contest=contest,
                match_id=s["match_id"],
                attempt_id=s["match__result_attempt_id"],
                finished_at=s["match__result_attempt__finished_at"] or s["match__finished_at"] or now,
                index=s["index"],
                entry_id=s["entry_id"],
                submission_id=s["submission_id"],
                current_version=s["submission__is_active"],
                points=s["points"],
                score=s["score"],
                status=s["status"],
                detail=s["detail"],
                reason=s["reason"],
                moves=s["moves"],
                cpu_seconds=s["cpu_seconds"],
                wall_seconds=s["wall_seconds"],
            )
            for s in seats.iterator(chunk_size=2000)
        )
        made = len(FrozenSeat.objects.bulk_create(rows, batch_size=1000))
        tallies.snapshot(contest)  # the frozen standings' totals, from these rows
        Contest.objects.filter(pk=contest.pk).update(standings_frozen_at=now)
        events.emit("standings", contest.pk, {"stage": None})
    return made


def publish(contest: Contest) -> None:
    """Everyone sees every game's result: the snapshot is dropped, the contest says when."""
    with writing():
        lock_one("contest", Contest.objects.filter(pk=contest.pk))
        FrozenSeat.objects.filter(contest=contest).delete()
        tallies.thaw(contest)
        Contest.objects.filter(pk=contest.pk).update(standings_frozen_at=None, results_published_at=timezone.now())
        events.emit("standings", contest.pk, {"stage": None})


def sees_live(user, contest: Contest) -> bool:
    """Whether the user sees the live standings of the contest: always, but while it is frozen
    only its judges do."""
    return contest.standings_frozen_at is None or roles.may(user, contest, roles.Power.JUDGE)


def record_for(contest: Contest, user) -> Record:
    """Which results the user's standings of the contest count: the live record or the snapshot."""
    return LIVE if sees_live(user, contest) else FROZEN


@dataclass
class Shown:
    """A match as one visitor sees it."""

    seats: list  # its seats (MatchSeat), or their results as the snapshot holds them (FrozenSeat)
    reason: str  # how the game ended, in words
    hidden: bool = False  # played after the freeze: its result waits for the judges to publish
    frozen: bool = False  # played again after the freeze: the snapshot's result is shown
    attempt_id: int | None = None  # whose replay is shown
    decision: Decision | None = None  # the judges' decision on its output, if the visitor may see one

    @property
    def status_label(self) -> str:
        return gettext("Played; its result is hidden until the judges publish the results") if self.hidden else ""


def _plays_in(user, match: Match, seats: list) -> bool:
    return user.is_authenticated and any(seat.entry.user_id == user.pk for seat in seats)


def sees_match_live(user, match: Match) -> bool:
    """Whether the user may watch the match as it is played (a race's live table): always, but
    while its contest is frozen only its judges and its own contestants (a game played after the
    freeze is the public's once the judges publish)."""
    return sees_live(user, match.contest) or _plays_in(user, match, list(match.seats.all()))


def shown_matches(user, matches: list[Match]) -> dict[int, Shown]:
    """How each of ``matches`` (their seats prefetched with their entries) looks to ``user``:
    the live result, unless their contest is frozen and the user is neither a judge nor one of
    the match's contestants; then the snapshot's result, or none. Two queries at most."""
    shown: dict[int, Shown] = {}
    frozen_ids: set[int] = set()
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda seat: seat.index)
        shown[match.pk] = Shown(seats, match.reason, attempt_id=match.result_attempt_id)
        if (
            match.stage_id is not None
            and match.result_attempt_id is not None
            and not sees_live(user, match.contest)
            and not _plays_in(user, match, seats)
        ):
            frozen_ids.add(match.pk)
    for match_id, decision in decisions(user, matches).items():
        shown[match_id].decision = decision
    if not frozen_ids:
        return shown
    snapshot: dict[int, list[FrozenSeat]] = {}
    for seat in FrozenSeat.objects.filter(match_id__in=frozen_ids).select_related("entry", "attempt"):
        snapshot.setdefault(seat.match_id, []).append(seat)
    for match in matches:
        if match.pk not in frozen_ids:
            continue
        held = sorted(snapshot.get(match.pk, []), key=lambda seat: seat.index)
        if held and held[0].attempt_id == match.result_attempt_id and _as_held(held, shown[match.pk].seats):
            continue  # the result it had at the freeze: nothing new to hide
        if held:
            reason = (held[0].attempt.result or {}).get("reason", "")
            shown[match.pk] = Shown(held, reason, frozen=True, attempt_id=held[0].attempt_id)
        else:
            shown[match.pk] = Shown([_blank(seat) for seat in shown[match.pk].seats], "", hidden=True)
    return shown


def _as_held(held: list[FrozenSeat], seats: list[MatchSeat]) -> bool:
    """Whether the seats still say what the snapshot holds: a judges' decision made since on the
    same result (an output rejected) rewrote their points."""
    now = {seat.index: (seat.points, seat.score, seat.status) for seat in seats}
    return all(now.get(seat.index) == (seat.points, seat.score, seat.status) for seat in held)


def shown_match(user, match: Match) -> Shown:
    return shown_matches(user, [match])[match.pk]


def _blank(seat: MatchSeat) -> MatchSeat:
    """A seat with its result taken off (a copy: the row is not changed)."""
    return MatchSeat(
        match_id=seat.match_id, index=seat.index, entry=seat.entry, submission_id=seat.submission_id,
        points=None, score=None, status="", detail="", reason="", moves=0, cpu_seconds=0.0, wall_seconds=0.0,
    )  # fmt: skip


def hidden_results(contest: Contest, stage=None) -> int:
    """How many games' results the public does not see yet (played, or played again, after the freeze)."""
    if contest.standings_frozen_at is None:
        return 0
    matches = Match.objects.filter(contest=contest, stage__isnull=False, result_attempt__isnull=False)
    if stage is not None:
        matches = matches.filter(stage=stage)
    else:
        matches = matches.exclude(stage__kind__in=formats.uncounted_kinds())
    same = FrozenSeat.objects.filter(match=OuterRef("pk"), attempt_id=OuterRef("result_attempt_id"))
    return matches.exclude(Exists(same)).count()


def visible_matches(user, matches: QuerySet) -> QuerySet:
    """The matches of ``matches`` a user may see listed or opened: every stage's game, but a
    test game (no stage) only to the contestants who played in it and the contest's judges."""
    judged = roles.judged_ids(user)
    if judged is None:  # an administrator
        return matches
    public = Q(stage__isnull=False)
    if not user.is_authenticated:
        return matches.filter(public)
    mine = Exists(MatchSeat.objects.filter(match=OuterRef("pk"), entry__user=user))
    return matches.filter(public | mine | Q(contest_id__in=judged))


def played_by(matches: QuerySet, entry_id: int) -> QuerySet:
    """The matches of ``matches`` the entry played in, each once: joined with the entry's
    first seat in it, not filtered by an EXISTS nor made DISTINCT, so that its newest games
    come by the seats' (entry, match) index, however many games others played since (an
    entry may sit twice in a test game against its own earlier version)."""
    # the seat's match, not the match's id: the lookup is made for each of the entry's seats,
    # not for each of the contest's matches
    first = MatchSeat.objects.filter(match=OuterRef("seats__match"), entry_id=entry_id).order_by("index")
    return matches.filter(seats__entry_id=entry_id, seats__index=Subquery(first.values("index")[:1]))


def visible_count(
    user, contests: QuerySet[Contest] | list[int], stage_id: int | None = None, status: str | None = None
) -> int | None:
    """How many matches of ``contests`` a user may see listed (``visible_matches``), of one
    stage and in one status if named, without counting the stages' games: the kept counts
    (``judging.record.counts``), and the test games this user may see, counted by their own index.
    None for queued or running matches, which the kept counts keep together (count those:
    they wait for a worker or are being played, never the history)."""
    kept = counts.listed(contests, stage_id, status)
    if kept is None or stage_id is not None or not user.is_authenticated:  # no test game for a visitor
        return kept
    tests = Match.objects.filter(contest__in=contests, stage__isnull=True)
    return kept + visible_matches(user, tests.filter(status=status) if status else tests).count()


@dataclass
class Decision:
    """The judges' decision on an output (an output-only contest's run), as one visitor sees it."""

    status: str  # accepted, rejected, credited
    label: str  # in words
    claimed: float  # the score the output claimed
    counted: float  # what it counts now
    verifier: float  # what the verifier recomputed (0: it refused the output)
    decided_at: Any
    note: str | None  # the judge's note: its contestant's and the judges' only (None for others)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "claimed": self.claimed,
            "counted": self.counted,
            "verifier": self.verifier,
            "decided_at": self.decided_at.isoformat() if self.decided_at else None,
            **({"note": self.note} if self.note is not None else {}),
        }


def decisions(user, matches: list[Match]) -> dict[int, Decision]:
    """The judges' decisions on the current results of ``matches`` that the user may see (their
    ``verification`` and seats prefetched): each match's contestant and the judges see every
    one with its note; anyone else sees the decision without the note, and, while the contest
    is frozen, only decisions made before the freeze (a later one would move the table)."""
    found = {}
    for match in matches:
        verification = getattr(match, "verification", None)
        if verification is None or verification.attempt_id != match.result_attempt_id:
            continue  # none yet, or one on an earlier result: the current one waits for a judge
        seats = list(match.seats.all())
        own = roles.may(user, match.contest_id, roles.Power.JUDGE) or any(
            can_see_private(user, seat.entry) for seat in seats
        )
        frozen_at = match.contest.standings_frozen_at
        if not own and frozen_at is not None and verification.decided_at and verification.decided_at > frozen_at:
            continue
        first = ((match.result_attempt.result or {}).get("seats") or [{}])[0] if match.result_attempt else {}
        claimed, verifier = float(seats[0].score or 0.0), float(first.get("points") or 0.0)
        found[match.pk] = Decision(
            status=verification.status,
            label=verification.get_status_display(),
            claimed=claimed,
            counted=counted_score(verification.status, claimed, verifier),
            verifier=verifier,
            decided_at=verification.decided_at,
            note=verification.note if own else None,
        )
    return found


class Hidden(Exception):
    """The replay of a game whose result waits for the judges to publish."""


def replay_for(user, match, attempt: int | None = None) -> dict[str, Any] | None:
    """The match's replay as the user may see it: that of the result the user is shown (the
    snapshot's while frozen; Hidden for a game played since), with the stderr of every program
    the user may not see removed. ``attempt`` (a number) asks for that attempt's own replay:
    the contest's judges' only (Hidden for anyone else, frozen or not)."""
    if attempt is not None:
        if not roles.may(user, match.contest, roles.Power.JUDGE):
            raise Hidden(
                gettext("Only the contest's judges see each attempt's replay; without ?attempt, the counted one's.")
            )
        tried = match.attempts.filter(number=attempt).first()
        replay = read_replay(tried.replay) if tried is not None else None
        return _as_seen(user, match, replay)
    shown = shown_match(user, match)
    if shown.hidden:
        raise Hidden(gettext("This game was played after the standings were frozen: its replay waits for the results."))
    if shown.frozen:
        replay = read_replay(shown.seats[0].attempt.replay)
    else:
        replay = match.load_replay()
    return _as_seen(user, match, replay)


def _as_seen(user, match, replay: dict[str, Any] | None) -> dict[str, Any] | None:
    """A replay with what the user may not read of it taken out."""
    if replay is None:
        return None
    seats = {seat.index: seat for seat in match.seats.select_related("entry")}
    visible = {index for index, seat in seats.items() if can_see_private(user, seat.entry)}
    for move in replay.get("moves", []):
        if move.get("seat") not in visible:
            move.pop("stderr", None)
            move.pop("output", None)
    for index, seat in enumerate(replay.get("seats", [])):
        if index not in visible:  # a race's seat: what its program wrote, and while open its dialogue
            seat.pop("stderr", None)
            if match.contest.is_open():
                seat.pop("server_log", None)
    if "verification" in replay and 0 not in visible:  # an output-only run: its output is its program's work
        replay.pop("printed", None)
        replay.pop("stderr", None)
        if match.contest.is_open():  # the solution stays its author's until the contest is over
            _private_batch_run(replay)
    replay["visible_seats"] = sorted(visible)
    return replay


def _private_batch_run(replay: dict[str, Any]) -> None:
    """An output-only run as others see it while the contest is open: the score, not the game."""
    report = replay.get("verification") or {}
    replay["verification"] = {k: report.get(k) for k in ("ok", "claimed", "verified") if k in report}
    replay.pop("output", None)
    replay["moves"] = []
    replay["frames"] = replay.get("frames", [])[:1]
