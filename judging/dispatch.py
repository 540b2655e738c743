"""Putting work on the broker, in one place: always after the transaction that made the work
commits, so a worker never looks for a row it cannot see yet (outside a transaction, at once:
the watchdog's resent tokens).

What a commit stored stays stored: a send that fails after it (the broker away) is logged in one
line, never raised into the request or the task that made the work (the row is on record, its
answer already decided); the watchdog sends it again when the broker is back (tokens for queued
matches, queued builds, unpaired Swiss rounds: ``judging/watchdog.py``).

A ``play_match`` message is a token: the worker that takes it plays the most urgent queued
match (see ``judging.play.matches.claim``), so that a match put back after a fault goes ahead of the
queue, whatever the broker can or cannot reorder. Each token carries the time limit of the
match it was sent for (``time_budget``: a race's or an output-only run's own seconds and a
margin, else the installation's ``TASK_TIME_LIMIT``); the worker that takes it plays that
match if it is still queued, else the most urgent one whose budget fits the token's, so a long
race is never played under a short token's limit.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from games import registry
from judging import queues
from judging.models import Match

log = logging.getLogger(__name__)

# What a match's task is given beyond its programs' own time: building them (most often from
# the cache), making the jails, a game server's start, writing the result.
MARGIN_S = 600


def time_budget(match) -> int:
    """How long a worker may take for a match, in seconds (its task's hard time limit): a game
    with a clock of ``seconds`` of real time (a race, an output-only run; the stage's own, else
    the contest's, else the game's) takes them and ``MARGIN_S``; never less than the
    installation's ``TASK_TIME_LIMIT``."""
    default = int(settings.CELERY_TASK_TIME_LIMIT)
    stage_params = (match.stage.params or {}) if match.stage_id else {}
    game = registry.GAMES.get(match.contest.game)
    seconds = stage_params.get("seconds") or match.contest.clock.get("seconds")
    if not seconds and game is not None:
        seconds = game.default_clock.get("seconds")
    try:
        seconds = float(seconds or 0)
    except (TypeError, ValueError):
        seconds = 0.0
    return max(default, math.ceil(seconds) + MARGIN_S)


# Every task by its name, filled by ``judging.tasks`` as it is loaded (``judging.apps`` loads it
# at start-up, a worker when it starts): the modules that queue work sit below the tasks that
# do it with all of them. (Celery's ``current_app`` is per thread: a page served on another
# thread did not find them there.)
TASKS: dict[str, Any] = {}


def task(name: str):
    """The task of this name (``judging.tasks``)."""
    try:
        return TASKS[name]
    except KeyError:
        raise LookupError(f"no task {name!r}: judging.tasks is not loaded") from None


def send_on_commit(task, pk: int, budget: int | None = None) -> None:
    """Send a task about one row (a match's token, a stage's pairing, a build), with its time
    limit (None: the installation's), once the transaction commits (at once outside one); a
    broker away then is logged, not raised (see the module's docstring)."""

    def send() -> None:
        try:
            task.apply_async((pk,), time_limit=budget)
        except Exception as e:  # kombu's and redis's connection errors, whatever the transport
            log.warning(
                "%s(%s) not sent, the broker is away (%s: %s): the watchdog sends it when it is back",
                task.name, pk, type(e).__name__, e,
            )  # fmt: skip

    transaction.on_commit(send)


def queue_matches(match_ids: Iterable[int]) -> None:
    """A token for each of these (newly queued) matches, sent when the transaction commits: a
    race's to the races queue, any other's to the matches queue; each with its time limit."""
    ids = list(match_ids)
    if not ids:
        return
    found = Match.objects.filter(pk__in=ids).select_related("stage", "contest")
    races = set(queues.of_queue(found, races=True).values_list("pk", flat=True))
    budgets = {match.pk: time_budget(match) for match in found}
    for pk in ids:
        budget = budgets.get(pk, int(settings.CELERY_TASK_TIME_LIMIT))
        send_on_commit(task("judging.play_race" if pk in races else "judging.play_match"), pk, budget)


def queue_match(match_id: int) -> None:
    queue_matches([match_id])


def queue_pairing(stage_id: int) -> None:
    """Pair a Swiss stage's next round on a worker, once the result that ended its round
    commits (``judging.schedule.tournaments.pair_next_round``: a second delivery pairs nothing)."""
    send_on_commit(task("judging.pair_swiss_round"), stage_id, int(settings.CELERY_TASK_TIME_LIMIT))


def queue_build(submission_id: int) -> None:
    """Build a submission once the transaction that queued it commits (a lost send: the
    watchdog's ``rescue_builds``)."""
    send_on_commit(task("judging.build_submission"), submission_id)


def queue_game_check(version_id: int) -> None:
    """Run an uploaded game's conformance kit on a worker, once the upload is committed (a lost
    send is logged; no watchdog sends it again: the version stays "being checked")."""
    send_on_commit(task("judging.build_game"), version_id)


def queue_versus_step(batch_id: int) -> None:
    """Step a versus batch (``judging.schedule.versus.step``) once the transaction that ended one
    of its games commits; a broker away is logged (``robust``): the batch's next game waits for
    the next step."""
    transaction.on_commit(lambda: task("judging.versus_step").delay(batch_id), robust=True)


def queue_email(notification_id: int) -> None:
    """E-mail a notification once the transaction that wrote it commits. The change it
    announces is committed by then: a broker that is away is logged (``robust``), never raised
    into the build, the match or the judge's deed that announced it."""
    transaction.on_commit(lambda: task("judging.send_notification").delay(notification_id), robust=True)


def queue_received_submission(sender, submission, **kwargs) -> None:
    """A new submission was saved (``contests.signals.submission_received``): build it."""
    queue_build(submission.pk)
