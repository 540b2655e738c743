"""Tournament formats: who plays whom, as Match rows ready for the workers."""

from __future__ import annotations

import logging
import math
import random
import secrets
from collections import Counter
from itertools import combinations

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from contests.locks import writing
from contests.models import Entry, Stage, Submission
from games import registry
from games.base import BYE, BatchGame, RaceGame
from judging import dispatch
from judging.models import Match, MatchAttempt, MatchSeat
from judging.record import formats, lifecycle, standings
from judging.record.formats import StageError, StageFormat, register
from judging.record.lifecycle import Ended
from judging.schedule import scheduling
from judging.schedule.pairing import swiss_groups, swiss_pairs

log = logging.getLogger(__name__)

# The kinds of stage this module registers (Stage.kind).
ROUND_ROBIN, SWISS, LADDER, BATCH, QUALIFICATION, RACE, PRACTICE = (
    "round_robin",
    "swiss",
    "ladder",
    "batch",
    "qualification",
    "race",
    "practice",
)


def round_robin_pairs(count: int, games_per_pairing: int = 2) -> list[tuple[int, int]]:
    """Seat orders (first, second) of a round robin among ``count`` players: every pair
    plays ``games_per_pairing`` games, the first seat alternating between the two."""
    games = []
    for a, b in combinations(range(count), 2):
        for g in range(games_per_pairing):
            games.append((a, b) if g % 2 == 0 else (b, a))
    return games


def round_robin_groups(count: int, seats: int, rotations: int) -> list[tuple[int, ...]]:
    """Seat orders of a round robin of groups: every ``seats`` of ``count`` players meet, each
    group in ``rotations`` of its orders turned by one seat (``seats`` of them: each player
    sits in each seat once). Every two players meet equally often: in the C(count − 2,
    seats − 2) groups holding both."""
    games = []
    for group in combinations(range(count), seats):
        for turn in range(rotations):
            games.append(group[turn:] + group[:turn])
    return games


MAX_ROUND_ROBIN = 100_000  # games of one round robin: beyond it a judge is told to choose fewer


def stage_params(stage: Stage) -> dict:
    """The game parameters of this stage's matches: the contest's, overridden by the stage's."""
    game = registry.get(stage.contest.game)
    names = {p.name for p in game.info.params}
    params = dict(stage.contest.game_params)
    params.update({k: v for k, v in stage.params.items() if k in names})
    return game.resolve_params(params)


def _create_match(stage: Stage, round_no: int, seed: int, params: dict, seats: list[tuple[Entry, Submission]]) -> Match:
    return scheduling.create_match(stage.contest, stage, seats, round=round_no, seed=seed, params=params)


def _launch(stage: Stage, matches: list[Match]) -> list[Match]:
    """Mark the stage running and queue its new matches when the transaction commits."""
    lifecycle.start_stage(stage)
    dispatch.queue_matches([match.pk for match in matches if match.status == Match.Status.QUEUED])
    return matches


@writing()
def schedule_round_robin(stage: Stage) -> list[Match]:
    """Create the matches of a round-robin stage once; a second call creates nothing."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != ROUND_ROBIN:
        raise StageError(
            gettext("%(stage)s is a %(kind)s stage, not a round robin")
            % {"stage": stage, "kind": formats.label(stage.kind)}
        )
    if stage.matches.exists():
        return []
    players = standings.contenders(stage)
    seats = formats.seats(stage)
    if len(players) < seats:
        raise StageError(
            gettext(
                "a round robin of %(seats)s-player games needs %(seats)s entries with a ready program; %(contest)s "
                "has %(players)s"
            )
            % {"seats": seats, "contest": stage.contest, "players": len(players)}
        )
    if seats == 2:
        orders = round_robin_pairs(len(players), int(stage.params.get("games_per_pairing", 2)))
    else:  # a group's games: each of its orders turned by one seat, all of them unless the stage says
        rotations = int(stage.params.get("games_per_pairing", seats))
        if math.comb(len(players), seats) * rotations > MAX_ROUND_ROBIN:
            raise StageError(
                gettext(
                    "a round robin of %(seats)s-player games among %(players)s entries would be %(games)s games "
                    "(at most %(most)s): choose fewer games a group, or a Swiss or a ladder"
                )
                % {
                    "seats": seats,
                    "players": len(players),
                    "games": f"{math.comb(len(players), seats) * rotations:,}",
                    "most": f"{MAX_ROUND_ROBIN:,}",
                }
            )
        orders = round_robin_groups(len(players), seats, rotations)
    params = stage_params(stage)
    rng = random.Random(f"{stage.contest.slug}/{stage.pk}")  # the same stage re-created draws the same seeds
    matches = [_create_match(stage, 1, rng.randrange(2**62), params, [players[i] for i in order]) for order in orders]
    return _launch(stage, matches)


@writing()
def schedule_batch(stage: Stage) -> list[Match]:
    """An output-only stage: every contender's program runs once, alone, on the same inputs:
    those of the stage's ``seed`` parameter, else a fresh draw made now ("the same 198 letters
    randomized into a different order", secret until the run). A second call creates nothing."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != BATCH:
        raise StageError(
            gettext("%(stage)s is a %(kind)s stage, not a batch run")
            % {"stage": stage, "kind": formats.label(stage.kind)}
        )
    if stage.matches.exists():
        return []
    players = standings.contenders(stage)
    if not players:
        raise StageError(
            gettext("a batch run needs an entry with a ready program; %(contest)s has none")
            % {"contest": stage.contest}
        )
    seed = int(stage.params["seed"]) if "seed" in stage.params else secrets.randbelow(2**62)
    params = stage_params(stage)
    return _launch(stage, [_create_match(stage, 1, seed, params, [player]) for player in players])


@register(ROUND_ROBIN, gettext_lazy("Round robin"))
class RoundRobin(StageFormat):
    listed = 10
    params = (
        formats.GAMES_OF_GROUPS,
        formats.SEATS,
        formats.TOP,
        formats.StageParam(
            "best_of_each_contestant",
            gettext_lazy("Best entry of each contestant"),
            gettext_lazy("Only each contestant's best-ranked entry of the stages before takes part."),
            boolean=True,
        ),
        formats.RATED,
        formats.RATING_K,
        formats.CONFIDENCE,
    )

    def fits(self, game) -> bool:
        return game.in_groups

    def start(self, stage: Stage) -> list[Match]:
        return schedule_round_robin(stage)


@register(BATCH, gettext_lazy("Batch run"))
class BatchRun(StageFormat):
    """An output-only contest's run: every program once, alone, on the same inputs."""

    listed = 40
    params = (formats.SECONDS, formats.SEED)
    alone = True

    def fits(self, game) -> bool:
        return isinstance(game, BatchGame)

    def start(self, stage: Stage) -> list[Match]:
        return schedule_batch(stage)


FREE_FOR_ALL = "free_for_all"


@writing()
def schedule_free_for_all(stage: Stage) -> list[Match]:
    """Every contender in one game, ``games`` times (as many as seats if empty), each game the
    seats turned by one: for a game whose seats take the whole field. A second call creates
    nothing."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != FREE_FOR_ALL:
        raise StageError(
            gettext("%(stage)s is a %(kind)s stage, not a free-for-all")
            % {"stage": stage, "kind": formats.label(stage.kind)}
        )
    if stage.matches.exists():
        return []
    players = standings.contenders(stage)
    wrong = registry.get(stage.contest.game).seats_wrong(len(players))
    if len(players) < 2 or wrong:
        raise StageError(
            gettext("a free-for-all plays every entry at once: %(why)s")
            % {"why": wrong or gettext("it needs two entries at least")}
        )
    params = stage_params(stage)
    rng = random.Random(f"{stage.contest.slug}/{stage.pk}")
    games = int(stage.params.get("games", len(players)))
    return _launch(
        stage,
        [
            _create_match(
                stage, 1, rng.randrange(2**62), params, players[g % len(players) :] + players[: g % len(players)]
            )
            for g in range(games)
        ],
    )


@register(FREE_FOR_ALL, gettext_lazy("Free-for-all"))
class FreeForAll(StageFormat):
    """Every entry in one game at once, a few times (a game whose seats take the whole field)."""

    listed = 15
    params = (
        formats.StageParam(
            "games",
            gettext_lazy("Games"),
            gettext_lazy("Games of the whole field, its seats turned by one each game (one a seat if empty)."),
            1,
            1000,
        ),
        formats.TOP,
        formats.CONFIDENCE,
    )

    def fits(self, game) -> bool:
        return game.seat_range is not None and game.seat_range[1] > 2

    def start(self, stage: Stage) -> list[Match]:
        return schedule_free_for_all(stage)


# --- Races: every program at once against the game's server -------------------------------


def qualifiers(stage: Stage, pairs: list[tuple[Entry, Submission]]) -> list[tuple[Entry, Submission]]:
    """The race's field from the stages before it (the trial laps): "The 24 entries with the
    lowest round count qualify for the race. If there are more than 72 entries, the best third
    will qualify." The stage's ``top`` sets another number; with no stage before, all race."""
    rank = standings.earlier_ranks(stage)
    if not rank:
        return pairs
    ranked = [p for p in pairs if p[0].pk in rank]
    top = int(stage.params.get("top") or (math.ceil(len(ranked) / 3) if len(ranked) > 72 else 24))
    chosen = sorted(ranked, key=lambda p: (rank[p[0].pk], p[0].pk))[:top]
    return sorted(chosen, key=lambda p: p[0].pk)


@writing()
def schedule_race(stage: Stage) -> list[Match]:
    """One match of every contender at once (trial laps), or of the qualifiers (the race),
    on the decks of the stage's ``seed`` parameter, else a fresh shuffle. A second call
    creates nothing."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind not in (QUALIFICATION, RACE):
        raise StageError(
            gettext("%(stage)s is a %(kind)s stage, not a race") % {"stage": stage, "kind": formats.label(stage.kind)}
        )
    if not isinstance(registry.get(stage.contest.game), RaceGame):
        raise StageError(
            gettext("%(contest)s is not a race: its game (%(game)s) is played one match at a time")
            % {"contest": stage.contest.title, "game": stage.contest.game}
        )
    if stage.matches.exists():
        return []
    players = standings.contenders(stage)
    if stage.kind == RACE and "top" not in stage.params:
        players = qualifiers(stage, players)
    if not players:
        raise StageError(
            gettext("a race needs an entry with a ready program; %(contest)s has none") % {"contest": stage.contest}
        )
    seed = int(stage.params["seed"]) if "seed" in stage.params else secrets.randbelow(2**62)
    return _launch(stage, [_create_match(stage, 1, seed, stage_params(stage), players)])


@register(QUALIFICATION, gettext_lazy("Qualification"))
class TrialLaps(StageFormat):
    """The Solitaire 500's trial laps: every entry at once, each measured on the same decks."""

    listed = 50
    params = (formats.SECONDS, formats.SEED)

    def fits(self, game) -> bool:
        return isinstance(game, RaceGame)

    def start(self, stage: Stage) -> list[Match]:
        return schedule_race(stage)


@register(RACE, gettext_lazy("Race"))
class RaceStage(StageFormat):
    """The race: the qualifiers at once; the first to win the last deck wins."""

    listed = 60
    params = (
        formats.SECONDS,
        formats.SEED,
        formats.StageParam(
            "top",
            gettext_lazy("Qualifiers"),
            gettext_lazy("How many of the trial laps' best race (24, or a third above 72, if empty)."),
            1,
        ),
    )

    def fits(self, game) -> bool:
        return isinstance(game, RaceGame)

    def start(self, stage: Stage) -> list[Match]:
        return schedule_race(stage)


# --- The continuous stage of an open contest ------------------------------------------------


@writing()
def schedule_continuous(stage: Stage, submission: Submission | None = None) -> list[Match]:
    """The games a continuous stage still owes: every pair of current versions (the active
    submissions of the contest's active entries) plays ``games_per_pairing`` games, each side
    first in turn, like a round robin that grows as versions arrive. With ``submission``, only
    that new version's games are looked at. Bounded: a new version brings at most
    ``games_per_pairing`` games against each other entry, or against the ``max_opponents``
    whose versions have played least in the stage (so that, over time, the counts even out).
    The standings of the stage count the games of each entry's current version."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != LADDER:
        raise StageError(gettext("%(stage)s is not a continuous stage") % {"stage": stage})
    if stage.status == Stage.Status.FINISHED:
        return []
    players = standings.contenders(stage)
    current = {sub.pk: (entry, sub) for entry, sub in players}
    if formats.seats(stage) > 2:
        return _launch(stage, _continuous_groups(stage, current, submission))
    played: dict[frozenset[int], int] = {}
    games_of: dict[int, int] = dict.fromkeys(current, 0)
    seats = MatchSeat.objects.filter(match__stage=stage, submission__in=current).exclude(
        match__status=Match.Status.CANCELLED
    )
    by_match: dict[int, list[int]] = {}
    for match_id, sub_id in seats.values_list("match_id", "submission_id"):
        by_match.setdefault(match_id, []).append(sub_id)
    for subs in by_match.values():
        if len(subs) == 2:
            played[frozenset(subs)] = played.get(frozenset(subs), 0) + 1
        for sub_id in subs:
            games_of[sub_id] += 1
    games = int(stage.params.get("games_per_pairing", 2))
    limit = stage.params.get("max_opponents")
    new = [submission.pk] if submission is not None and submission.pk in current else list(current)
    params = stage_params(stage)
    rng = random.Random()
    matches: list[Match] = []
    paired: set[frozenset[int]] = set()
    for mine in new:
        others = [other for other in current if other != mine and frozenset((mine, other)) not in paired]
        if limit:
            others = sorted(others, key=lambda o: (played.get(frozenset((mine, o)), 0), games_of[o], o))[: int(limit)]
        for other in others:
            pair = frozenset((mine, other))
            paired.add(pair)
            first, second = sorted(pair)
            for g in range(played.get(pair, 0), games):
                seats_of = [current[first], current[second]] if g % 2 == 0 else [current[second], current[first]]
                matches.append(_create_match(stage, 1, rng.randrange(2**62), params, seats_of))
    return _launch(stage, matches)


def _continuous_groups(
    stage: Stage, current: dict[int, tuple[Entry, Submission]], submission: Submission | None
) -> list[Match]:
    """A continuous stage of games of k seats draws groups: at its start the current versions
    shuffled into groups of k (the last filled with those drawn first); a new version then one
    group with the k - 1 versions that have played least in the stage. Each group plays
    ``games_per_pairing`` of its seat orders (all k if empty)."""
    size = formats.seats(stage)
    if len(current) < size:
        return []
    games_of = Counter(
        MatchSeat.objects.filter(match__stage=stage, submission__in=current)
        .exclude(match__status=Match.Status.CANCELLED)
        .values_list("submission_id", flat=True)
    )
    rng = random.Random()
    if submission is None:
        if games_of:
            return []  # started already: each new version draws its own group
        drawn = list(current)
        rng.shuffle(drawn)
        groups = [drawn[i : i + size] for i in range(0, len(drawn), size)]
        groups[-1] += drawn[: size - len(groups[-1])]
    elif submission.pk not in current or games_of[submission.pk]:
        return []
    else:
        others = sorted((o for o in current if o != submission.pk), key=lambda o: (games_of[o], rng.random()))
        groups = [[submission.pk, *others[: size - 1]]]
    params = stage_params(stage)
    rotations = int(stage.params.get("games_per_pairing", size))
    return [
        _create_match(stage, 1, rng.randrange(2**62), params, [current[pk] for pk in group[turn:] + group[:turn]])
        for group in groups
        for turn in range(rotations)
    ]


@writing()
def schedule_groups(stage_id: int, groups: list[tuple[int, ...]], rng: random.Random) -> list[Match]:
    """One game for each group of entries (ids; pairs in a ladder of games of two) of a running
    continuous stage, between their current versions, the seats drawn: the games its ratings
    ask for (``judging.schedule.steering``). A group of another size than the stage's games,
    or naming an entry twice or one no longer in the stage, is left out."""
    stage = lifecycle.lock_stage(stage_id)
    if stage.kind != LADDER or stage.status != Stage.Status.RUNNING:
        return []
    current = {entry.pk: (entry, sub) for entry, sub in standings.contenders(stage)}
    size = formats.seats(stage)
    params = stage_params(stage)
    matches = []
    for group in groups:
        if len(group) == size == len(set(group)) and all(pk in current for pk in group):
            seats = [current[pk] for pk in group]
            rng.shuffle(seats)
            matches.append(_create_match(stage, 1, rng.randrange(2**62), params, seats))
    return _launch(stage, matches)


def version_activated(submission: Submission) -> None:
    """A new version became its entry's active one: the contest's running continuous stages
    schedule its games (in the transaction that activated it)."""
    stages = Stage.objects.filter(
        contest_id=submission.entry.contest_id, kind__in=formats.continuous_kinds(), status=Stage.Status.RUNNING
    )
    for stage in stages:
        formats.of(stage.kind).version_activated(stage, submission)


@register(LADDER, gettext_lazy("Continuous (an open contest's games, as versions arrive)"))
class Continuous(StageFormat):
    """An open contest's games, scheduled as versions arrive; its standings count each
    entry's current version."""

    listed = 30
    params = (
        formats.GAMES_OF_GROUPS,
        formats.SEATS,
        formats.StageParam(
            "max_opponents",
            gettext_lazy("Opponents a new version"),
            gettext_lazy("A new version plays only this many opponents, those that have played least (all if empty)."),
            1,
        ),
        formats.RATING_K,
        formats.CONFIDENCE,
        formats.PLACES,
        formats.STOP_SETTLED,
        formats.STOP_GAMES,
    )

    continuous = True
    ends_when_played = False  # it goes on while its contest is open

    def fits(self, game) -> bool:
        return game.in_groups

    def start(self, stage: Stage) -> list[Match]:
        return schedule_continuous(stage)

    def version_activated(self, stage: Stage, submission: Submission) -> list[Match]:
        return schedule_continuous(stage, submission)


# --- Practice: each new version alone, as it arrives ----------------------------------------


def practice_seed(stage: Stage) -> int:
    """The inputs every version of a practice stage runs on, so that their results compare:
    the stage's ``seed``, else one drawn from the stage's identity (the same for each run)."""
    if "seed" in stage.params:
        return int(stage.params["seed"])
    return random.Random(f"practice/{stage.contest.slug}/{stage.pk}").randrange(2**62)


@writing()
def schedule_practice(stage: Stage, submission: Submission | None = None) -> list[Match]:
    """A practice stage's runs still owed: each current version (or only ``submission``) that
    has not run in it yet runs once, alone, on the stage's inputs: an output-only program's
    run, a race client's laps. Nothing for a finished or cancelled stage."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != PRACTICE:
        raise StageError(gettext("%(stage)s is not a practice stage") % {"stage": stage})
    if stage.status in (Stage.Status.FINISHED, Stage.Status.CANCELLED):
        return []
    players = standings.contenders(stage)
    if submission is not None:
        players = [(entry, sub) for entry, sub in players if sub.pk == submission.pk]
    ran = set(
        MatchSeat.objects.filter(match__stage=stage)
        .exclude(match__status=Match.Status.CANCELLED)
        .values_list("submission_id", flat=True)
    )
    seed, params = practice_seed(stage), stage_params(stage)
    return _launch(stage, [_create_match(stage, 1, seed, params, [p]) for p in players if p[1].pk not in ran])


@register(PRACTICE, gettext_lazy("Practice (each new version runs alone, as it arrives)"))
class Practice(StageFormat):
    """An open output-only or race contest's practice: each version that passes its system
    test runs at once, alone, on the stage's inputs (Crossed Words' run, the Solitaire 500's
    laps), and the stage's standings rank the current versions. A contestant sees where a
    new program stands without waiting for the judges' final run."""

    listed = 35
    params = (formats.SECONDS, formats.SEED)
    continuous = True
    alone = True
    ends_when_played = False  # it goes on while its contest is open

    def fits(self, game) -> bool:
        return isinstance(game, (BatchGame, RaceGame))

    def start(self, stage: Stage) -> list[Match]:
        return schedule_practice(stage)

    def version_activated(self, stage: Stage, submission: Submission) -> list[Match]:
        return schedule_practice(stage, submission)


# --- Swiss system ---------------------------------------------------------------------------


def win_points(stage: Stage) -> float:
    """What a seat of this stage's game scores for a win: what it gets when its opponent forfeits."""
    game = registry.get(stage.contest.game)
    state = game.initial_state(stage_params(stage), 0)
    return game.forfeit(state, 1, "crash", "").points[0]


def _create_bye(stage: Stage, round_no: int, player: tuple[Entry, Submission], points: float) -> Match:
    """A round sat out, recorded as a one-seat match that is born finished, with its points."""
    entry, submission = player
    now = timezone.now()
    match = scheduling.create_match(
        stage.contest,
        stage,
        [player],
        round=round_no,
        seed=0,
        params=stage_params(stage),
        status=Match.Status.FINISHED,
        reason=f"{entry.name} sits out round {round_no} (a bye)",
        started_at=now,
        finished_at=now,
        seat_fields={"points": points, "score": 0, "status": BYE, "moves": 0},
    )
    seat = {"index": 0, "entry": entry.pk, "submission": submission.pk, "points": points, "status": BYE}
    attempt = MatchAttempt.objects.create(
        match=match,
        number=1,
        worker="(the Swiss pairing)",
        started_at=now,
        last_seen=now,
        finished_at=now,
        outcome=MatchAttempt.Outcome.FINISHED,
        result={"reason": match.reason, "seats": [seat]},
    )
    lifecycle.count_made_result(match, attempt)
    return match


@writing()
def schedule_swiss_round(stage: Stage) -> list[Match]:
    """Schedule the next round of a Swiss stage (parameters ``rounds``, default 24, and
    ``games_per_pairing``, default 2: each side first in turn), paired by ``swiss_pairs`` from
    this stage's standings so far: its order, its points groups (the first column), the pairs
    met, the byes had and the first moves. With an odd number of players one sits out and
    scores ``bye_points`` (default: what winning the pairing's games scores, as FIDE gives a
    full point). Does nothing while a round is being played or after the last one."""
    stage = lifecycle.lock_stage(stage.pk)
    if stage.kind != SWISS:
        raise StageError(gettext("%(stage)s is not a Swiss stage") % {"stage": stage})
    if stage.status != Stage.Status.PENDING and stage.status != Stage.Status.RUNNING:
        return []  # finished, or cancelled for good
    if stage.matches.filter(status__in=[*lifecycle.OPEN, Match.Status.FAILED]).exists():
        return []
    done_rounds = max(stage.matches.values_list("round", flat=True), default=0)
    if done_rounds >= swiss_rounds(stage):
        return []
    players = standings.contenders(stage) if done_rounds == 0 else _swiss_players(stage)
    if len(players) < 2:
        raise StageError(
            gettext("a Swiss round needs two entries with a ready program; %(contest)s has %(players)s")
            % {"contest": stage.contest, "players": len(players)}
        )
    table = standings.compute(stage.contest, stage)
    rank = {row.entry.pk: row.rank for row in table.rows}
    points = {row.entry.pk: row.values[table.columns[0].key] for row in table.rows}
    by_entry = {entry.pk: (entry, submission) for entry, submission in players}
    order = sorted(by_entry, key=lambda pk: (rank.get(pk, 0), pk))
    met, byes, firsts = _swiss_history(stage)
    size = formats.seats(stage)
    params = stage_params(stage)
    rng = random.Random(f"{stage.contest.slug}/{stage.pk}/{done_rounds + 1}")
    matches = []
    if size == 2:
        pairs, bye = swiss_pairs(order, met, byes, points=points, firsts=firsts)
        groups, out = [list(pair) for pair in pairs], [bye] if bye is not None else []
        games = int(stage.params.get("games_per_pairing", 2))
    else:  # groups of near points, each in each of its seat orders unless the stage says
        met = {frozenset(pair) for together in met for pair in combinations(sorted(together), 2)}
        groups, out = swiss_groups(order, met, byes, size)
        games = int(stage.params.get("games_per_pairing", size))
    for group in groups:  # the first of a group moves first in its first game, then each in turn
        for g in range(games):
            turn = g % len(group)
            seats = [by_entry[pk] for pk in group[turn:] + group[:turn]]
            matches.append(_create_match(stage, done_rounds + 1, rng.randrange(2**62), params, seats))
    for pk in out:
        matches.append(_create_bye(stage, done_rounds + 1, by_entry[pk], _bye_points(stage, games)))
    return _launch(stage, matches)


def _bye_points(stage: Stage, games: int) -> float:
    """What a round sat out scores: the stage's ``bye_points``, else winning its games (a game
    whose rules the platform does not hold, an uploaded one, scores 0 unless the stage says)."""
    if "bye_points" in stage.params:
        return float(stage.params["bye_points"])
    if not hasattr(registry.get(stage.contest.game), "initial_state"):
        return 0.0
    return games * win_points(stage)


def swiss_rounds(stage: Stage) -> int:
    """How many rounds a Swiss stage plays (its ``rounds``, 24 if not given)."""
    return int(stage.params.get("rounds", 24))


def _swiss_history(stage: Stage) -> tuple[set[frozenset[int]], Counter, Counter]:
    """What a Swiss stage's pairing remembers, from its seats in one query: the pairs that met
    (in any game, cancelled ones too, as before), the byes each entry had, and each entry's
    games moved first less games moved second (of the games not cancelled)."""
    seats = MatchSeat.objects.filter(match__stage=stage).values_list("match_id", "entry_id", "index", "status")
    cancelled = set(stage.matches.filter(status=Match.Status.CANCELLED).values_list("pk", flat=True))
    by_match: dict[int, list[int]] = {}
    byes: Counter = Counter()
    firsts: Counter = Counter()
    for match_id, entry_id, index, status in seats.order_by():
        by_match.setdefault(match_id, []).append(entry_id)
        if status == BYE:
            byes[entry_id] += 1
        elif match_id not in cancelled:
            firsts[entry_id] += 1 if index == 0 else -1
    return {frozenset(entries) for entries in by_match.values()}, byes, firsts


@writing()
def pair_next_round(stage_id: int) -> list[Match]:
    """The pairing task's work (``judging.tasks.pair_swiss_round``), after the result that
    ended a Swiss round committed: under the stage's lock, the next round if it is due (the
    stage running, none of its games open or failed, rounds left), else nothing; the stage
    finishes when no further round can be paired. A task delivered twice, or after a judge's
    run paired the round, finds the round paired (its games open) and pairs nothing."""
    stage = lifecycle.lock_stage(stage_id)
    if stage.kind != SWISS or stage.status != Stage.Status.RUNNING:
        return []
    try:
        matches = schedule_swiss_round(stage)
    except StageError as e:  # e.g. too few players left: the stage ends, the results stand
        log.warning("stage %s: no further Swiss round: %s", stage_id, e)
        matches = []
    if not matches:
        lifecycle.finish_stage_if_done(stage)
    return matches


def unpaired_stages(ended_before) -> list[int]:
    """The running Swiss stages none of whose games has been open or failed since before
    ``ended_before``: a round that ended then and was never paired (its task's message lost),
    or a stage never finished. The watchdog queues their pairing again."""
    idle = (
        Stage.objects.filter(kind=SWISS, status=Stage.Status.RUNNING)
        .exclude(matches__status__in=[*lifecycle.OPEN, Match.Status.FAILED])
        .annotate(last=Max("matches__finished_at"))
        .filter(last__lt=ended_before)
    )
    return list(idle.order_by("pk").values_list("pk", flat=True))


@register(SWISS, gettext_lazy("Swiss system"))
class Swiss(StageFormat):
    """Rounds paired by points (``pairing.swiss_pairs``). The first round is paired when a
    judge runs the stage; each next one by a task on a worker once the result that ended the
    round before commits (``pair_next_round``), so a result's transaction never waits for a
    pairing. The stage finishes itself: after its last round, or when no round can be paired."""

    listed = 20
    params = (
        formats.StageParam("rounds", gettext_lazy("Rounds"), gettext_lazy("Swiss rounds to play."), 1, 1000, 24),
        formats.GAMES_OF_GROUPS,
        formats.SEATS,
        formats.StageParam(
            "bye_points",
            gettext_lazy("Points of a bye"),
            gettext_lazy("What sitting out a round scores (a win's points if empty)."),
            0,
            1000,
        ),
        formats.RATED,
        formats.RATING_K,
        formats.CONFIDENCE,
    )

    ends_when_played = False  # a round ended with rounds left is not the stage's end: match_ended decides

    def start(self, stage: Stage) -> list[Match]:
        return schedule_swiss_round(stage)

    def fits(self, game) -> bool:
        return game.in_groups

    def match_ended(self, match: Match, why: Ended) -> None:
        """Once every game of the stage so far is over (finished, or cancelled by a judge: not
        to be played), the next round is queued for pairing, or the stage finishes after its
        last. A failed game waits for a judge, and a game queued again (a re-run) for its new
        result: a round is never paired from results still to come. The caller holds the
        stage's lock, so the ends of a round's last two games take turns here: one of them sees
        the other ended."""
        if why == Ended.FAILED:
            return
        stage = lifecycle.lock_stage(match.stage_id)  # held already: read as it is now
        if stage.status != Stage.Status.RUNNING:
            return
        if stage.matches.filter(status__in=[*lifecycle.OPEN, Match.Status.FAILED]).exists():
            return
        done_rounds = max(stage.matches.values_list("round", flat=True), default=0)
        if done_rounds >= swiss_rounds(stage):
            lifecycle.finish_stage_if_done(stage)
        else:
            dispatch.queue_pairing(stage.pk)


def _swiss_players(stage: Stage) -> list[tuple[Entry, Submission]]:
    """Who plays the later rounds: the first round's players (a bye included) still active."""
    seats = MatchSeat.objects.filter(match__stage=stage, match__round=1).select_related("entry", "submission")
    players = {seat.entry_id: (seat.entry, seat.submission) for seat in seats}
    return [p for p in players.values() if p[0].status == Entry.Status.ACTIVE]
