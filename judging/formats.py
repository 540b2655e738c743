"""Stage formats: what each kind of stage does, registered where it is implemented (as DMOJ
registers its contest formats).

A format says how its stage starts (the matches it schedules), what follows when one of its
matches ends, whether its games count in the standings and whether it goes on while the
contest is open. Every place that used to branch on ``Stage.kind`` asks the stage's format
instead, so a new kind of stage (a race, next) is a class and a ``register``, not an edit of
the callers.

This module is a leaf (models only): the formats live in ``tournaments`` and ``system_test``,
which ``judging.apps`` imports at start-up, so the registry is full before anything asks it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from contests.models import Match, Stage


class StageError(Exception):
    """The stage cannot be run as asked; the message is for the judge."""


@dataclass(frozen=True)
class StageParam:
    """One parameter a kind of stage reads from ``Stage.params``, as a judge's form shows it."""

    name: str
    label: str
    help: str
    minimum: int = 0
    maximum: int = 10**9
    default: int | None = None  # None: left out unless the judge gives it
    boolean: bool = False
    text: bool = False  # a name, not a number (the system test's opponent)


GAMES = StageParam(
    "games_per_pairing", "Games a pairing", "How many games each pair plays, each side first in turn.", 1, 100, 2
)
TOP = StageParam(
    "top", "Only the best", "Only this many best entries of the stages before take part (all if empty).", 1
)
SECONDS = StageParam(
    "seconds", "Seconds a run", "The time limit of a run or race, in real time (the contest's if empty).", 1, 86_400
)
SEED = StageParam("seed", "Seed", "The inputs' seed: the same for a re-run; a fresh secret one if empty.", 0, 2**62)


class StageFormat:
    kind: str  # a Stage.Kind value
    params: tuple[StageParam, ...] = ()  # what a judge may set, beside the game's own parameters
    counts_in_standings: bool = True  # its games are in the contest's standings
    continuous: bool = False  # goes on while the contest is open; its standings count current versions
    run_by_judges: bool = True  # a judge starts it (a system test starts itself, per submission)

    def start(self, stage: Stage) -> list[Match]:
        """Schedule the stage's matches (once: a second call schedules nothing)."""
        raise StageError(f"{stage.get_kind_display()} stages are not run by hand")

    def match_ended(self, match: Match) -> None:
        """After one of the stage's matches ended (finished, failed or cancelled), in its
        transaction. By default the stage is finished once no match of it is open."""
        finish_when_done(match.stage)

    def match_queued_again(self, match: Match) -> None:
        """A judge re-runs one of its matches (in that transaction): the stage runs again
        until the match has ended."""
        reopen(match.stage)


def reopen(stage: Stage) -> None:
    """A finished stage some of whose matches are to be played again is running again."""
    Stage.objects.filter(pk=stage.pk, status=Stage.Status.FINISHED).update(
        status=Stage.Status.RUNNING, finished_at=None
    )


def finish_when_done(stage: Stage) -> bool:
    """Finish the stage if none of its matches is queued or running (under the stage's row
    lock, so the ends of its last two matches take turns: one of them sees the other ended);
    whether it has finished."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.matches.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).exists():
        return False
    Stage.objects.filter(pk=stage.pk, status=Stage.Status.RUNNING).update(
        status=Stage.Status.FINISHED, finished_at=timezone.now()
    )
    return True


FORMATS: dict[str, StageFormat] = {}


def register(kind: str):
    """Class decorator: the format of stages of ``kind``."""
    if kind not in Stage.Kind.values:
        raise ValueError(f"{kind!r} is not a kind of stage (Stage.Kind)")

    def decorate(cls: type[StageFormat]) -> type[StageFormat]:
        cls.kind = kind
        FORMATS[kind] = cls()
        return cls

    return decorate


class _NotYet(StageFormat):
    """A kind of stage the platform has no format for yet: it refuses to start."""

    def start(self, stage: Stage) -> list[Match]:
        raise StageError(f"{stage.get_kind_display()} stages cannot be run yet: the platform has no format for them")


def of(kind: str) -> StageFormat:
    """The format of stages of ``kind`` (one that refuses to start if none is registered)."""
    found = FORMATS.get(kind)
    if found is None:
        found = _NotYet()
        found.kind = kind
    return found


def uncounted_kinds() -> list[str]:
    """The kinds of stage whose games are in no standings (the system tests)."""
    return [kind for kind, f in FORMATS.items() if not f.counts_in_standings]


def continuous_kinds() -> list[str]:
    return [kind for kind, f in FORMATS.items() if f.continuous]


def run_stage(stage: Stage) -> list[Match]:
    """Start a stage by its format: the one entry point for the pages, the admin, the API and scripts."""
    return of(stage.kind).start(stage)


@transaction.atomic
def match_ended(match: Match) -> None:
    """What follows the end of a match (finished, failed or cancelled), in its transaction."""
    if match.stage is not None:
        of(match.stage.kind).match_ended(match)
