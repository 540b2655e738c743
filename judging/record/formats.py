"""Stage formats: what each kind of stage does, registered where it is implemented (as DMOJ
registers its contest formats). ``Stage.kind`` is a free name: the kinds are those registered
here, so a new kind of stage is a class and a ``register``, not a migration nor an edit of the
callers.

A format says which games it can run, how its stage starts (the matches it schedules), what
follows when one of its matches ends (and why it ended: ``lifecycle.Ended``), whether its
games count in the standings and whether it goes on while the contest is open. The moves of
a stage between its states are ``judging.record.lifecycle``'s, not a format's.

This module is a leaf (models only): the formats live in ``tournaments`` and ``system_test``,
which ``judging.apps`` imports at start-up, so the registry is full before anything asks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext, gettext_lazy

from contests import bounds
from contests.models import Stage
from games import registry
from judging.models import Match

if TYPE_CHECKING:
    from games.base import Game
    from judging.record.lifecycle import Ended


class StageError(Exception):
    """The stage cannot be run as asked; the message is for the judge."""


class ParamsError(StageError):
    """A stage's parameters are not what its kind and its game take: a message per parameter."""

    def __init__(self, fields: dict[str, str]) -> None:
        self.fields = fields
        super().__init__("; ".join(f"{name}: {message}" for name, message in fields.items()))


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
    places: bool = False  # a list of places, "1, 3, 10"


GAMES = StageParam(
    "games_per_pairing",
    gettext_lazy("Games a pairing"),
    gettext_lazy("How many games each pair plays, each side first in turn."),
    1,
    100,
    2,
)
GAMES_OF_GROUPS = StageParam(
    "games_per_pairing",
    gettext_lazy("Games a pairing"),
    gettext_lazy(
        "How many games each pair plays, each side first in turn (2 if empty); "
        "in games of more seats, how many of each group's seat orders it plays (all if empty)."
    ),
    1,
    100,
)
TOP = StageParam(
    "top",
    gettext_lazy("Only the best"),
    gettext_lazy("Only this many best entries of the stages before take part (all if empty)."),
    1,
)
SECONDS = StageParam(
    "seconds",
    gettext_lazy("Seconds a run"),
    gettext_lazy("The time limit of a run or race, in real time (the contest's if empty)."),
    1,
    86_400,
)
RATED = StageParam(
    "rated",
    gettext_lazy("Ranked by rating"),
    gettext_lazy("Rank by the conservative rating (as a continuous stage does), not by points."),
    boolean=True,
)
RATING_K = StageParam(
    "rating_k",
    gettext_lazy("Rating's caution k"),
    gettext_lazy("A rated stage ranks by mu - k sigma: a strength less k times its uncertainty."),
    0,
    5,
    2,
)
CONFIDENCE = StageParam(
    "confidence",
    gettext_lazy("Confidence, %"),
    gettext_lazy("Of each rank interval, and for telling tied rows apart."),
    50,
    99,
    95,
)
PLACES = StageParam(
    "places",
    gettext_lazy("Places that matter"),
    gettext_lazy(
        "Cut-offs (prizes, the top N into a final), e.g. 1, 3: the stage plays its next "
        "games between the entries around them, until they are separated."
    ),
    places=True,
)
STOP_SETTLED = StageParam(
    "stop_when_settled",
    gettext_lazy("End when settled"),
    gettext_lazy("End the stage once every place that matters is settled at its confidence."),
    boolean=True,
)
STOP_GAMES = StageParam(
    "stop_after_games",
    gettext_lazy("End after games"),
    gettext_lazy("End the stage once it has played this many games (never, if empty)."),
    1,
)

SEATS = StageParam(
    "seats",
    gettext_lazy("Seats a game"),
    gettext_lazy(
        "How many programs play each game, within the game's range (two if it takes two, else its fewest, if empty)."
    ),
    1,
    100,
)


def seats(stage: Stage) -> int:
    """How many programs play each of the stage's games: its ``seats``, else the game's
    default (``Game.default_seats``)."""
    return int(stage.params.get("seats") or registry.get(stage.contest.game).default_seats)


def contest_seats(contest) -> int:
    """How many programs play one of a contest's games outside its stages (a test game, a game
    at home): as many as its system test seats (what a version must pass), else the game's own
    default. A game of four played two (OpenSpiel's Hearts) was its referee's fault every time."""
    system_test = contest.stages.filter(kind="system_test").order_by("order").first()
    return seats(system_test) if system_test is not None else registry.get(contest.game).default_seats


# What a stage declares before it starts and keeps (the admin refuses a change once it runs).
DECLARED = ("seats", "rated", "rating_k", "confidence", "places", "stop_when_settled", "stop_after_games")


def parse_places(value) -> list[int] | None:
    """``"1, 3, 10"`` as [1, 3, 10]; None if it is not such a list."""
    if not isinstance(value, str) or len(value) > 200:
        return None
    found = set()
    for part in value.replace(";", ",").split(","):
        if part.strip():
            if not part.strip().isdigit() or not 1 <= int(part) <= 100_000:
                return None
            found.add(int(part))
    return sorted(found)


def places(stage: Stage) -> list[int]:
    return parse_places(stage.params.get("places", "")) or []


SEED = StageParam(
    "seed",
    gettext_lazy("Seed"),
    gettext_lazy("The inputs' seed: the same for a re-run; a fresh secret one if empty."),
    0,
    2**62,
)


class StageFormat:
    kind: str  # the name stages of this kind carry in Stage.kind
    label: str  # as judges and contestants read it
    params: tuple[StageParam, ...] = ()  # what a judge may set, beside the game's own parameters
    counts_in_standings: bool = True  # its games are in the contest's standings
    continuous: bool = False  # goes on while the contest is open; its standings count current versions
    alone: bool = False  # each match one program alone: no game between two rows, so each rank is exact
    run_by_judges: bool = True  # a judge starts it (a system test starts itself, per submission)
    ends_when_played: bool = True  # finished once none of its matches is left to play
    listed: int = 100  # where the judges' list of kinds shows it (the order a contest uses them)

    def fits(self, game: Game) -> bool:
        """Whether stages of this kind can be run for ``game``."""
        return True

    def start(self, stage: Stage) -> list[Match]:
        """Schedule the stage's matches (once: a second call schedules nothing)."""
        raise StageError(gettext("%(kind)s stages are not run by hand") % {"kind": self.label})

    def match_ended(self, match: Match, why: Ended) -> None:
        """After one of the stage's matches ended (``why``), in its transaction, the stage's
        row locked; the stage is finished afterwards if nothing of it is left to play."""

    def version_activated(self, stage: Stage, submission) -> list[Match]:
        """A version became its entry's active one while this (continuous, running) stage is:
        schedule what it owes (in that transaction, the stage's row locked by the caller)."""
        return []

    def match_queued_again(self, match: Match) -> None:
        """A judge re-runs one of its matches (in that transaction)."""

    def stages_touched(self, match: Match) -> list[int]:
        """Other stages the end of one of its matches may schedule games in (their rows are
        locked first, in the one lock order: see ``contests.locks``)."""
        return []


def clean_params(kind: str, game: Game, params: Mapping[str, Any]) -> dict[str, Any]:
    """A stage's parameters checked against what its kind declares (``StageParam``) and its
    game's own (``games.base.Param``): every value of the right type and within bounds, no
    unknown name (ParamsError names each one that is not). ``entries`` is not checked here."""
    if not isinstance(params, Mapping):
        raise ParamsError({"params": gettext("give the parameters as an object: name to value")})
    declared = {p.name: p for p in of(kind).params}
    own = {p.name: p for p in game.info.params}
    cleaned: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for name, value in params.items():
        if name == "entries":
            continue
        if name in declared:
            p = declared[name]
            if p.boolean:
                if not isinstance(value, bool):
                    errors[name] = gettext("true or false")
                elif value:
                    cleaned[name] = True
            elif p.places:
                found = parse_places(value)
                if found is None:
                    errors[name] = gettext("places as whole numbers from 1, separated by commas: 1, 3, 10")
                elif found:
                    cleaned[name] = ", ".join(map(str, found))
            elif p.text:
                if not isinstance(value, str) or len(value) > 100:
                    errors[name] = gettext("a name of at most 100 characters")
                elif value.strip():
                    cleaned[name] = value.strip()
            elif isinstance(value, bool) or not isinstance(value, int):
                errors[name] = gettext("a whole number between %(minimum)s and %(maximum)s") % {
                    "minimum": p.minimum,
                    "maximum": p.maximum,
                }
            elif not p.minimum <= value <= p.maximum:
                errors[name] = gettext("between %(minimum)s and %(maximum)s, not %(value)s") % {
                    "minimum": p.minimum,
                    "maximum": p.maximum,
                    "value": value,
                }
            elif (site := bounds.stage_bound(name)) is not None and (problem := site.refusal(name, value)):
                errors[name] = problem
            else:
                cleaned[name] = value
        elif name in own:
            try:
                cleaned[name] = own[name].check(value)
            except ValueError as e:
                errors[name] = str(e)
            else:  # the site's bound is on numbers: text and true or false are the game's own
                numeric = isinstance(value, int | float) and not isinstance(value, bool)
                if numeric and (problem := bounds.GAME_PARAM.refusal(name, value)):
                    errors[name] = problem
        else:
            takes = sorted(declared) + sorted(own)
            errors[name] = gettext("%(kind)s stages of %(game)s take no such parameter (they take: %(takes)s)") % {
                "kind": of(kind).label,
                "game": game.info.title,
                "takes": ", ".join(takes) or gettext("none"),
            }
    if "seats" in cleaned and (wrong := game.seats_wrong(cleaned["seats"])):
        errors["seats"] = wrong
    if errors:
        raise ParamsError(errors)
    return cleaned


FORMATS: dict[str, StageFormat] = {}


def register(kind: str, label: str):
    """Class decorator: the format of stages of ``kind``."""

    def decorate(cls: type[StageFormat]) -> type[StageFormat]:
        if kind in FORMATS:
            raise ValueError(f"{kind!r} is already the kind of another stage format")
        cls.kind, cls.label = kind, label
        FORMATS[kind] = cls()
        return cls

    return decorate


class _NotYet(StageFormat):
    """A kind of stage the platform has no format for (any more): it refuses to start."""

    def fits(self, game: Game) -> bool:
        return False

    def start(self, stage: Stage) -> list[Match]:
        raise StageError(
            gettext("%(kind)s stages cannot be run: the platform has no format for them") % {"kind": self.label}
        )


def of(kind: str) -> StageFormat:
    """The format of stages of ``kind`` (one that refuses to start if none is registered)."""
    found = FORMATS.get(kind)
    if found is None:
        found = _NotYet()
        found.kind, found.label = kind, kind.replace("_", " ").capitalize()
    return found


def label(kind: str) -> str:
    return of(kind).label


def choices(game: Game | None = None) -> list[tuple[str, str]]:
    """The kinds of stage (of those that fit ``game``, if given), as (kind, label)."""
    found = sorted(FORMATS.values(), key=lambda f: (f.listed, f.kind))
    return [(f.kind, f.label) for f in found if game is None or f.fits(game)]


def uncounted_kinds() -> list[str]:
    """The kinds of stage whose games are in no standings (the system tests)."""
    return [kind for kind, f in FORMATS.items() if not f.counts_in_standings]


def continuous_kinds() -> list[str]:
    return [kind for kind, f in FORMATS.items() if f.continuous]


def shown_status(stage: Stage) -> str:
    """A stage's status as people should read it (a ``Stage.Status`` value). A stage no judge
    runs (the system test: it plays each new version by itself) was shown "pending" forever
    at "6 of 6 played": it is running while its contest takes submissions or a game of it is
    left to play, then finished. Cancelled stays cancelled."""
    found = FORMATS.get(stage.kind)
    if found is None or found.run_by_judges or stage.status == Stage.Status.CANCELLED:
        return stage.status
    if stage.contest.is_open():
        return Stage.Status.RUNNING
    left = stage.matches.filter(status__in=(Match.Status.QUEUED, Match.Status.RUNNING)).exists()
    return Stage.Status.RUNNING if left else Stage.Status.FINISHED
