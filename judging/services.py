"""The judges' deeds: each is one function that acts and writes the judges' log, so the
console, the API and the admin (thin adapters all three) do and log the same action the
same way."""

from __future__ import annotations

from contests.models import Contest, Submission
from contests.services import log_action
from judging import builds, lifecycle, publication


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


def rerun_match(judge, match, reason: str = ""):
    """Play a match again; its earlier result counts until the new one lands."""
    match = lifecycle.rerun_match(match)
    log_action(judge, match.contest_id, "match.rerun", f"match {match.pk}", reason)
    return match


def cancel_match(judge, match, reason: str = ""):
    """Cancel a match that is queued or being played; None (and nothing logged) if it had ended."""
    cancelled = lifecycle.cancel_match(match)
    if cancelled is not None:
        log_action(judge, cancelled.contest_id, "match.cancel", f"match {cancelled.pk}", reason)
    return cancelled


def rebuild(judge, submission: Submission, reason: str = "") -> bool:
    """Build again a submission the platform failed (or lost); False if it was no such build."""
    if not builds.rebuild(submission):
        return False
    entry = submission.entry
    log_action(judge, entry.contest_id, "submission.rebuild", f"{entry.name} v{submission.number}", reason)
    return True


def freeze_standings(judge, contest: Contest, reason: str = "") -> int:
    """Freeze the public standings: a snapshot of every result as it is now, which the public
    sees until the results are published (``judging.publication``). How many results it holds."""
    held = publication.freeze(contest)
    log_action(judge, contest.pk, "standings.freeze", contest.title, reason, results=held)
    return held


def publish_results(judge, contest: Contest, reason: str = "") -> None:
    """Everyone sees every game's result; the contest page says the results are out."""
    publication.publish(contest)
    log_action(judge, contest.pk, "standings.publish", contest.title, reason)
