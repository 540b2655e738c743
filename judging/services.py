"""The judges' deeds: each is one function that acts and writes the judges' log, so the
console, the API and the admin (thin adapters all three) do and log the same action the
same way."""

from __future__ import annotations

from typing import Any

from django.db.models import Max
from django.utils.translation import gettext

from contests.locks import lock_one, writing
from contests.models import Contest, JudgeAction, Stage, Submission
from contests.services import log_action
from games import registry
from judging.models import Match, PairTally
from judging.news import notifications
from judging.play import builds
from judging.record import confidence, formats, lifecycle, publication


def add_stage(
    judge,
    contest: Contest,
    *,
    kind: str,
    name: str,
    params: dict[str, Any] | None = None,
    entries: str | list[int] = "ready",
    order: int | None = None,
    reason: str = "",
) -> Stage:
    """A new stage of the contest, to run when the judges say: its kind one the contest's game
    can be played in, its parameters those the kind and the game take (checked, with a message
    for each that is not), ``entries`` "ready" (every entry with a playable version when it
    runs) or a list of the contest's entry ids, ``order`` its place (after the last if None)."""
    if not contest.is_hosted:
        raise formats.StageError(
            gettext("%(contest)s's game (%(game)s) is not hosted here: it has no stages.")
            % {"contest": contest.title, "game": contest.game}
        )
    game = registry.get(contest.game)
    kinds = dict(formats.choices(game))
    if kind not in kinds:
        raise formats.ParamsError(
            {
                "kind": gettext("one of %(kinds)s for %(game)s, not %(kind)s")
                % {"kinds": ", ".join(kinds), "game": game.info.title, "kind": repr(kind)}
            }
        )
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > 100:
        raise formats.ParamsError({"name": gettext("a name of 1 to 100 characters, as contestants read it")})
    cleaned = formats.clean_params(kind, game, params or {})
    if entries != "ready":
        if not isinstance(entries, list) or not all(isinstance(e, int) and not isinstance(e, bool) for e in entries):
            raise formats.ParamsError({"entries": gettext('"ready", or a list of entry ids')})
        known = set(contest.entries.filter(pk__in=entries).values_list("pk", flat=True))
        if set(entries) - known:
            missing = ", ".join(str(e) for e in sorted(set(entries) - known))
            raise formats.ParamsError(
                {
                    "entries": gettext("not entries of %(contest)s: %(missing)s")
                    % {"contest": contest.title, "missing": missing}
                }
            )
        cleaned["entries"] = sorted(known)
    with writing():
        lock_one("contest", Contest.objects.filter(pk=contest.pk))
        last = contest.stages.order_by("-order").values_list("order", flat=True).first() or 0
        order = last + 1 if order is None else order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= 1000:
            raise formats.ParamsError({"order": gettext("a whole number from 1 to 1000")})
        if contest.stages.filter(order=order).exists():
            raise formats.ParamsError(
                {
                    "order": gettext("%(contest)s has a stage at place %(order)s already")
                    % {"contest": contest.title, "order": order}
                }
            )
        stage = Stage.objects.create(contest=contest, kind=kind, name=name, order=order, params=cleaned)
        log_action(judge, contest.pk, "stage.add", f"stage {stage.name}", reason, kind=kind, params=cleaned)
    return stage


def run_stage(judge, stage, reason: str = "") -> list:
    """Schedule a stage's matches; a second run schedules nothing and is no action."""
    made = lifecycle.run_stage(stage)
    if made:
        log_action(judge, stage.contest_id, "stage.run", f"stage {stage.name}", reason, matches=len(made))
    return made


def rerun_stage(judge, stage, reason: str = "") -> int:
    """Play every match of a stage again; how many were queued."""
    queued = lifecycle.rerun_stage(stage)
    log_action(judge, stage.contest_id, "stage.rerun", f"stage {stage.name}", reason, matches=queued)
    return queued


def cancel_stage(judge, stage, reason: str = "") -> dict[str, int]:
    """Stop a stage for good; how many of its matches it stopped, by the state each was in."""
    stopped = lifecycle.cancel_stage(stage)
    log_action(judge, stage.contest_id, "stage.cancel", f"stage {stage.name}", reason, matches=sum(stopped.values()))
    return stopped


def delete_stage(judge, stage, reason: str = "") -> int:
    """Delete a stage that never ran (a mistaken one), logged in the same transaction; Refused
    (``lifecycle.Refused``, a sentence) for a stage that ran. How many queued matches went with it."""
    with writing():
        name, kind, contest_id = stage.name, stage.kind, stage.contest_id
        dropped = lifecycle.delete_stage(stage)
        log_action(judge, contest_id, "stage.delete", f"stage {name}", reason, kind=kind, matches=dropped)
    return dropped


def entry_judged(sender=None, *, entry, action: str, judge=None, **kwargs) -> None:
    """A disqualified entry plays no more games: its open ones (queued, being played, failed)
    are called off, each a line of the judges' log (not its versions' system tests: a version's
    test decides whether it may play, should it be reinstated); a reinstated one plays again what its
    disqualification called off in stages still under way (not a Swiss round that is over:
    the next rounds pair it again). Either way its stages' ratings are fitted again (its row
    leaves or joins the intervals). In the judge's transaction (``contests.signals.entry_judged``)."""
    contest_id = entry.contest_id
    if action == "disqualify":
        open_ones = Match.objects.filter(seats__entry=entry, status__in=lifecycle.STOPPABLE).exclude(
            stage__kind="system_test"
        )
        for match in open_ones.distinct():
            if lifecycle.cancel_match(match) is not None:
                reason = gettext("%(entry)s is disqualified") % {"entry": entry.name}
                log_action(judge, contest_id, "match.cancel", f"match {match.pk}", reason, disqualified=entry.pk)
    elif action == "reinstate":
        since = (
            JudgeAction.objects.filter(contest_id=contest_id, action="entry.disqualify", target=f"entry {entry.name}")
            .values_list("at", flat=True)
            .first()
        )
        called_off = JudgeAction.objects.filter(
            contest_id=contest_id,
            action="match.cancel",
            data__disqualified=entry.pk,
            **({"at__gte": since} if since else {}),
        ).values_list("target", flat=True)
        ids = [int(target.removeprefix("match ")) for target in called_off]
        for match in Match.objects.filter(pk__in=ids, status=Match.Status.CANCELLED).select_related("stage"):
            stage = match.stage
            if stage is not None and (
                stage.status == Stage.Status.CANCELLED
                or (stage.kind == "swiss" and match.round < (stage.matches.aggregate(n=Max("round"))["n"] or 0))
            ):
                continue
            if lifecycle.rerun_refusal(match):
                continue
            lifecycle.rerun_match(match)
            log_action(
                judge,
                contest_id,
                "match.rerun",
                f"match {match.pk}",
                gettext("%(entry)s is reinstated") % {"entry": entry.name},
            )
    else:
        return
    frozen = Contest.objects.filter(pk=contest_id, standings_frozen_at__isnull=False).exists()
    for stage_id in PairTally.objects.filter(entry=entry, frozen=False).values_list("stage_id", flat=True).distinct():
        confidence.queue(stage_id)
        if frozen:
            confidence.queue(stage_id, frozen=True)


def rerun_match(judge, match, reason: str = ""):
    """Play a match again; its earlier result counts until the new one lands. Its contestants
    are told (the reason is the judges' log's)."""
    with writing():
        match = lifecycle.rerun_match(match)
        log_action(judge, match.contest_id, "match.rerun", f"match {match.pk}", reason)
        notifications.match_rerun(match)
    return match


def cancel_match(judge, match, reason: str = ""):
    """Cancel a match that is queued or being played; None (and nothing logged) if it had ended."""
    with writing():
        cancelled = lifecycle.cancel_match(match)
        if cancelled is not None:
            log_action(judge, cancelled.contest_id, "match.cancel", f"match {cancelled.pk}", reason)
            notifications.match_cancelled(cancelled)
    return cancelled


def delete_match(judge, match, reason: str = "") -> None:
    """Delete a match for good (the admin's delete): the standings and the counts of matches
    lose it at once."""
    with writing():
        lifecycle.delete_match(match)
        log_action(judge, match.contest_id, "match.delete", f"match {match.pk}", reason)


def rebuild(judge, submission: Submission, reason: str = "") -> bool:
    """Build again a submission the platform failed (or lost); False if it was no such build."""
    with writing():
        if not builds.rebuild(submission):
            return False
        entry = submission.entry
        log_action(judge, entry.contest_id, "submission.rebuild", f"{entry.name} v{submission.number}", reason)
        notifications.rebuilt(submission)
    return True


def freeze_standings(judge, contest: Contest, reason: str = "") -> int:
    """Freeze the public standings: a snapshot of every result as it is now, which the public
    sees until the results are published (``judging.record.publication``). How many results it holds."""
    held = publication.freeze(contest)
    log_action(judge, contest.pk, "standings.freeze", contest.title, reason, results=held)
    return held


def publish_results(judge, contest: Contest, reason: str = "") -> None:
    """Everyone sees every game's result; the contest page says the results are out."""
    publication.publish(contest)
    log_action(judge, contest.pk, "standings.publish", contest.title, reason)
