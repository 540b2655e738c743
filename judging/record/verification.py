"""The judges' verification of an output-only contest's outputs, in the MSO page's procedure:
"we will actually manually verify each answer, starting with the entrant whose program claims
to have found the largest score, and continuing down until we find a verified winner that has
a higher score than any other claimed score. Once we identify the winner, we reserve the
right to simply give credit to all other entrants as having their unverified scores."

Every run's output is first checked by the game's verifier (the seat's points: the score it
recomputed, 0 for an output it refused; the seat's score: the score the output claims). A
judge then accepts a claim (it counts), rejects it with a note (it counts 0), or, once the
winner is certain, credits every claim still waiting with its unverified score. What counts
is written to the seat's points, so the standings need nothing more; a new result of the run
(a re-run) puts the automatic figure back and the claim waits for a judge again. Every
decision is in the judges' log.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext

from contests.locks import writing
from contests.models import JudgeAction, Stage
from judging.models import Match, MatchAttempt, MatchSeat, Verification
from judging.news import events, notifications
from judging.record import lifecycle, tallies

Status = Verification.Status


class VerificationError(Exception):
    """The decision cannot be made as asked; the message is for the judge."""


@dataclass
class Claim:
    """One output waiting for, or past, a judge's verification."""

    match: Match
    seat: MatchSeat
    claimed: float  # the score the output states on its first line
    automatic: float  # the score the verifier recomputed (0: it refused the output)
    valid: bool  # whether the verifier accepted the output
    verification: Verification | None  # the judge's decision on this result, if any

    @property
    def status(self) -> str:
        return self.verification.status if self.verification else Status.PENDING

    @property
    def counted(self) -> float:
        return counted_score(self.status, self.claimed, self.automatic)


def counted_score(status: str, claimed: float, automatic: float) -> float:
    """What a run counts in the standings, by the judges' decision on it."""
    if status in (Status.ACCEPTED, Status.CREDITED):
        return claimed
    if status == Status.REJECTED:
        return 0.0
    return automatic


def _automatic(attempt: MatchAttempt | None) -> tuple[float, bool]:
    """The verifier's figure and verdict, as the attempt recorded them."""
    seats = ((attempt.result or {}).get("seats") or [{}]) if attempt else [{}]
    first = seats[0]
    return float(first.get("points") or 0.0), first.get("status") == "valid"


def claims(stage: Stage) -> list[Claim]:
    """Every finished run of the stage, the highest claim first (the page's order)."""
    matches = (
        stage.matches.filter(result_attempt__isnull=False)
        .select_related("result_attempt", "verification__judge")
        .prefetch_related("seats__entry", "seats__submission")
    )
    found = []
    for match in matches:
        seats = list(match.seats.all())
        if not seats:
            continue
        automatic, valid = _automatic(match.result_attempt)
        verification = getattr(match, "verification", None)
        if verification is not None and verification.attempt_id != match.result_attempt_id:
            verification = None  # a decision on an earlier result: this one waits for a judge
        found.append(Claim(match, seats[0], float(seats[0].score or 0.0), automatic, valid, verification))
    found.sort(key=lambda c: (-c.claimed, c.seat.entry.name.lower()))
    return found


@dataclass
class Progress:
    claims: list[Claim]
    winner: Claim | None  # the best accepted claim, when it beats every claim still waiting
    waiting: int

    @property
    def can_stop(self) -> bool:
        """Verification may stop: a verified score is higher than every remaining claim."""
        return self.winner is not None


def progress(stage: Stage) -> Progress:
    found = claims(stage)
    waiting = [c for c in found if c.status == Status.PENDING]
    accepted = [c for c in found if c.status == Status.ACCEPTED]
    best = max(accepted, key=lambda c: c.counted, default=None)
    highest_waiting = max((c.claimed for c in waiting), default=None)
    winner = best if best is not None and (highest_waiting is None or best.counted > highest_waiting) else None
    return Progress(found, winner, len(waiting))


def _log(stage: Stage, judge, action: str, target: str, reason: str = "", **data) -> None:
    JudgeAction.objects.create(
        contest_id=stage.contest_id, judge=judge, action=action, target=target, reason=reason, data=data
    )


def _count(match: Match, status: str) -> None:
    """Write what the run counts now to its seat (the standings add seats up)."""
    seat = match.seats.get()
    automatic, _ = _automatic(match.result_attempt)
    with tallies.recounting(match.pk):
        MatchSeat.objects.filter(pk=seat.pk).update(points=counted_score(status, float(seat.score or 0.0), automatic))


def decide(match: Match, judge, status: str, note: str = "") -> Verification:
    """A judge's decision on one output: accepted or rejected (a rejection says why)."""
    if status not in (Status.ACCEPTED, Status.REJECTED, Status.PENDING):
        raise VerificationError(
            gettext("a judge accepts or rejects an output, or reopens it; not %(status)s") % {"status": repr(status)}
        )
    note = (note or "").strip()
    if status == Status.REJECTED and not note:
        raise VerificationError(gettext("Say why the output is rejected; the contestant will read it."))
    with writing():
        match = lifecycle.lock_match(match.pk)
        if match.result_attempt_id is None or match.stage is None:
            raise VerificationError(gettext("This run has no output to verify yet."))
        seat = match.seats.select_related("entry").get()
        verification, _ = Verification.objects.update_or_create(
            match=match,
            defaults={
                "attempt_id": match.result_attempt_id,
                "status": status,
                "note": note[:5000],
                "judge": judge,
                "decided_at": timezone.now(),
            },
        )
        _count(match, status)
        _log(
            match.stage,
            judge,
            f"verification.{status}",
            f"output of {seat.entry.name} (match {match.pk})",
            note,
            match=match.pk,
            claimed=seat.score,
        )
        events.standings_changed(match.stage)
        notifications.output_decided(match, seat, status, note)
    return verification


def credit_rest(stage: Stage, judge, note: str = "") -> int:
    """Credit every claim still waiting with its unverified score; only once the winner is
    verified (a verified score above every claim still waiting), as the page reserves."""
    with writing():
        lifecycle.lock_stage(stage.pk)  # one judge's credit at a time
        state = progress(stage)
        if not state.can_stop:
            raise VerificationError(
                gettext(
                    "Not yet: verify claims from the highest down until a verified score beats every claim still "
                    "waiting."
                )
            )
        waiting = [c for c in state.claims if c.status == Status.PENDING]
        now = timezone.now()
        for claim in waiting:
            Verification.objects.update_or_create(
                match=claim.match,
                defaults={
                    "attempt_id": claim.match.result_attempt_id,
                    "status": Status.CREDITED,
                    "note": note,
                    "judge": judge,
                    "decided_at": now,
                },
            )
            _count(claim.match, Status.CREDITED)
            notifications.output_decided(claim.match, claim.seat, Status.CREDITED, note)
        _log(
            stage,
            judge,
            "verification.credit_rest",
            f"{len(waiting)} unverified outputs of {stage.name}",
            note,
            matches=[c.match.pk for c in waiting],
            winner=state.winner.match.pk if state.winner else None,
        )
        events.standings_changed(stage)
    return len(waiting)
