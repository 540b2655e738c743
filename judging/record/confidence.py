"""How sure a stage's standings are: ratings with their uncertainty, each row's rank interval
and the groups of rows the games do not order ("statistically tied"), computed from the kept
pairs (``PairTally``) by ``judging.record.ratings`` and stored, so that a page reads them in
O(entries).

What is fitted: a Bradley–Terry strength for each *version* in a continuous stage (a version
is fixed code: its strength does not drift, so there is no decay; a new version starts from
the population's prior and a version's games against an opponent's old version still tell
about both), for each *entry* in any other stage (its games all count). The fit reads each
pair's games, wins and draws (a draw half a win; a game both seats lost, two faults, is a
draw); a re-run replaces a game's row in the pairs and a cancelled stage's games are not
read, so the fit is that of the counted results, whatever the order they came in.

The intervals are the Laplace approximation's: 1,000 draws of every strength at once from
the fit's posterior (seeded by the number of games: the same results give the
same intervals), each row's rank read in every draw. That is likelihood-based, so it holds
however the pairs were chosen (a round robin, a Swiss stage's pairing by score, a ladder's or
the active scheduler's): a bootstrap over games would condition on the pairings and under-
cover pairs with few games (docs/architecture.md: issue 27).

A rated stage (a continuous one) ranks by the conservative rating μ − kσ (``rating_k``, 2 by
default), so that a version with few games is not placed above one that has proved itself,
and its intervals are those of that order: each draw ranked by its strengths less each one's
kσ (ranked by the strengths alone, a row placed first by μ − 2σ showed the interval [2, 5]).
Any other stage ranks by its points and shows the interval of each row's strength beside.
Either way a row's interval holds its own place (``standings``: widened to it where the
draws leave it out, as a Swiss table's points can).

Computed in a task (``judging.rate_stage``) once a result changes the stage's totals, at most
one queued per stage (``queue``) and never two at work: a task that finds a fit of its stage at
work queues one more and leaves: the page shows when it was computed and from how many games.
A race (every entry at once) is read as its pairs, each weighted 2/k (``_race_pairs``); a
one-seat stage's ranks are exact (one verified run each).
"""

from __future__ import annotations

import io
import math
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

import numpy as np
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from contests.locks import lock, writing
from contests.models import Stage, Submission
from games.base import BYE
from judging import dispatch
from judging.models import FrozenSeat, Match, MatchSeat, PairTally, Rating, RatingFit, RatingPoint
from judging.news import events
from judging.record import formats, ratings, standings
from judging.record.fits import ELO, ELO_MEAN, exact, k, level, paired, rated, seats_of

__all__ = ["Fitted", "Running", "fitted", "hold", "queue", "rate", "rating_lines", "stale_fits"]

DEBOUNCE_S = 2  # a stage's ratings wait this long after a result, so a burst is fitted once


# --- Reading the pairs ------------------------------------------------------------------------


def _pairs(stage: Stage, frozen: bool, by_version: bool) -> tuple[dict[int, int], ratings.Table]:
    """The stage's kept pairs as the fit reads them: the nodes (versions, or entries: id to
    index) and each unordered pair's games and its first node's score (a pair is two rows, one
    of each side: each seat's own word on a game counts half, so a game both lost is a draw).

    The rows are read as they are kept and added up here: the database's grouping of them
    took a third of a large stage's fit (0.4 s of 1.2 at 1,000 entries, 630,000 rows)."""
    table = connection.ops.quote_name(PairTally._meta.db_table)
    x, y = ("submission_id", "opponent_submission_id") if by_version else ("entry_id", "opponent_id")
    # a side's games and its word on them (2 a win, 1 a draw), counts below 2³¹, in one column:
    # a fifth less to copy
    one, other, both = _integers(
        f"SELECT CAST({x} AS BIGINT), CAST({y} AS BIGINT), CAST(games AS BIGINT) * {1 << 32} + 2 * wins + draws"
        f" FROM {table} WHERE stage_id = %s AND frozen = %s",
        [stage.pk, frozen],
        3,
    )
    if not len(one):
        empty = np.zeros(0)
        return {}, (empty.astype(np.int64), empty.astype(np.int64), empty, empty)
    ids, (i, j) = _index(one, other)
    first, second = np.minimum(i, j), np.maximum(i, j)
    games, said = (both >> 32) / 2, (both & 0xFFFFFFFF) / 4  # each side's word counts half
    keys, (pair,) = _index(first * len(ids) + second)
    points = np.where(i == first, said, games - said)
    nodes = {int(id_): n for n, id_ in enumerate(ids)}
    count = len(keys)
    return nodes, (keys // len(ids), keys % len(ids), np.bincount(pair, games, count), np.bincount(pair, points, count))


def _integers(sql: str, params: list, columns: int) -> list[np.ndarray]:
    """The columns of a query of ``columns`` BIGINT columns, none NULL, as arrays. PostgreSQL's
    rows are copied out in its binary format and read by numpy: fetched as Python tuples,
    630,000 rows took longer than the fit."""
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql" or not hasattr(cursor.cursor, "copy_expert"):
            cursor.execute(sql, params)
            found = np.array(cursor.fetchall(), dtype=np.int64).reshape(-1, columns)
            return [found[:, n] for n in range(columns)]
        copied = io.BytesIO()
        cursor.copy_expert(f"COPY ({cursor.mogrify(sql, params).decode()}) TO STDOUT (FORMAT binary)", copied)
    data = copied.getbuffer()
    # A signature, flags and an extension's length, then each row: its count of fields, and
    # each field's length and value (big-endian); then a count of -1.
    if bytes(data[:11]) != b"PGCOPY\n\xff\r\n\x00" or bytes(data[-2:]) != b"\xff\xff":
        raise ValueError("not PostgreSQL's binary COPY")
    start = 19 + int.from_bytes(data[15:19], "big")
    fields = [("fields", "=u2")] + [(f"{part}{n}", kind) for n in range(columns) for part, kind in
                                    (("length", "=u4"), ("value", ">i8"))]  # fmt: skip
    refused = ValueError("a column that is not BIGINT, or NULL")
    if (len(data) - start - 2) % np.dtype(fields).itemsize:
        raise refused
    found = np.frombuffer(data[start:-2], dtype=fields)
    # the heads compared as they lie in memory, without turning them around
    count, eight = np.frombuffer(columns.to_bytes(2, "big"), "=u2")[0], np.frombuffer((8).to_bytes(4, "big"), "=u4")[0]
    if (found["fields"] != count).any() or any((found[f"length{n}"] != eight).any() for n in range(columns)):
        raise refused
    return [found[f"value{n}"].astype(np.int64) for n in range(columns)]


def _index(*values: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """``np.unique`` of the values of all the arrays: the distinct ones ascending, and each
    array's places among them; by a table of the range they span where it is small (no sort)."""
    every = [v for v in values if len(v)]
    if not every:
        return np.zeros(0, dtype=np.int64), list(values)
    low, high = min(v.min() for v in every), max(v.max() for v in every)
    span = int(high - low) + 1
    if span > 4 * sum(map(len, values)) + 65_536:
        distinct, places = np.unique(np.concatenate(values), return_inverse=True)
        return distinct, np.split(places, np.cumsum([len(v) for v in values])[:-1])
    present = np.zeros(span, dtype=bool)
    for v in values:
        present[v - low] = True
    place = np.cumsum(present) - 1
    return np.flatnonzero(present) + low, [place[v - low] for v in values]


class _Counted(dict):
    """The games of a stage read as their pairs: each node's games (id to games) and, in
    ``games``, the games played. A pair's weight is not a game: 4 games of 4 seats are 24
    pairs weighing 12, and the standings said "from 12 games"."""

    games: int = 0


def _race_pairs(
    stage: Stage, frozen: bool, by_version: bool
) -> tuple[dict[int, int], list[ratings.Pair] | ratings.Table, _Counted]:
    """A race's (every entry at once) results as pairs: each race of k seats is its k(k-1)/2
    pairs, the seat with more points (its place) beating the other, each pair weighted 2/k:
    the pairs of one race are not independent games (at k = 4, weight 1 made the intervals
    too narrow and 1/(k-1) too wide: issue 27's note)."""

    if frozen:
        seats = FrozenSeat.objects.filter(match__stage=stage, contest_id=stage.contest_id)
    else:
        seats = MatchSeat.objects.filter(match__stage=stage, match__result_attempt__isnull=False)
    by_match: dict[int, list[tuple[int, float]]] = {}
    rows = seats.exclude(status=BYE).values_list("match_id", "entry_id", "submission_id", "points")
    for match_id, entry, version, points in rows.iterator(chunk_size=5000):
        by_match.setdefault(match_id, []).append((version if by_version else entry, points or 0.0))
    scored: dict[tuple[int, int], list[float]] = {}
    for race in by_match.values():
        k = len(race)
        for i, (x, px) in enumerate(race):
            for y, py in race[i + 1 :]:
                key, mine = ((x, y), px) if x < y else ((y, x), py)
                theirs = py if key == (x, y) else px
                found = scored.setdefault(key, [0.0, 0.0])
                found[0] += 2 / k
                found[1] += 2 / k * (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    nodes: dict[int, int] = {}
    pairs = []
    for (x, y), (games, score) in sorted(scored.items()):
        pairs.append(ratings.Pair(nodes.setdefault(x, len(nodes)), nodes.setdefault(y, len(nodes)), games, score))
    counted = _Counted()
    for race in by_match.values():
        if len(race) > 1:
            counted.games += 1
            for x, _ in race:
                counted[x] = counted.get(x, 0) + 1
    return nodes, pairs, counted


def _played(a: np.ndarray, b: np.ndarray, games: np.ndarray, size: int) -> np.ndarray:
    """Each node's games."""
    return np.bincount(a, games, size) + np.bincount(b, games, size)


# --- The fit ----------------------------------------------------------------------------------


def _shown_nodes(stage: Stage, frozen: bool, by_version: bool) -> list[tuple[int, int | None]]:
    """The rows the standings show, as (entry, node): each active entry of the table, with its
    current version in a continuous stage (the one it had at the freeze, for the frozen table)."""
    record = standings.FROZEN if frozen else standings.LIVE
    table = standings.compute(stage.contest, stage, record, rated=False)
    if not by_version:
        return [(row.entry.pk, row.entry.pk) for row in table.rows]
    if frozen:
        current = dict(
            PairTally.objects.filter(stage=stage, frozen=True, current_version=True).values_list(
                "entry_id", "submission_id"
            )
        )
    else:
        current = {entry.pk: version.pk for entry, version in standings.contenders(stage)}
    return [(row.entry.pk, current.get(row.entry.pk)) for row in table.rows]


@dataclass
class Fitted:
    """A fit as the scheduler reads it: the rows in the order shown (entry ids), their draws
    (one column each, in that order) and the share of draws settling each boundary."""

    fit: RatingFit
    entries: list[int]
    samples: np.ndarray | None
    shares: list[float]


class Running(Exception):
    """Another fit of the stage is at work: this one did nothing (``fitted(..., wait=False)``)."""


def rate(stage_id: int, frozen: bool = False) -> RatingFit | None:
    """Fit the stage's ratings and intervals from its kept pairs (the snapshot's, ``frozen``)
    and store them in place of the last; None (and nothing stored) if its game is not played
    in pairs."""
    found = fitted(stage_id, frozen)
    return found.fit if found else None


def fitted(stage_id: int, frozen: bool = False, wait: bool = True) -> Fitted | None:
    """``rate``, with what the scheduler reads of the fit. Two fits of one stage never work at
    once: the second waits for the first to store its rows and then reads the pairs, or, not
    ``wait``-ing (the task), does nothing and raises ``Running``."""
    stage = Stage.objects.select_related("contest").get(pk=stage_id)
    if seats_of(stage.contest) is None or exact(stage.contest, stage) or not formats.of(stage.kind).counts_in_standings:
        return None
    blank = {"contest_id": stage.contest_id, "level": level(stage), "k": k(stage), "computed_at": timezone.now()}
    RatingFit.objects.get_or_create(stage=stage, frozen=frozen, defaults=blank)  # the row a fit holds while it works
    return _fit(stage, frozen, wait)


@writing()
def _fit(stage: Stage, frozen: bool, wait: bool) -> Fitted:
    if not lock("rating", RatingFit.objects.filter(stage=stage, frozen=frozen), skip_held=not wait):
        raise Running(f"a fit of stage {stage.pk}{' (frozen)' if frozen else ''} is at work")
    started = time.perf_counter()
    by_version = formats.of(stage.kind).continuous
    if paired(stage):
        nodes, pairs = _pairs(stage, frozen, by_version)
        counted = None
    else:
        nodes, pairs, counted = _race_pairs(stage, frozen, by_version)
    a, b, pair_games, pair_points = ratings._arrays(pairs)
    shown = _shown_nodes(stage, frozen, by_version)
    for _, node in shown:
        if node is not None:
            nodes.setdefault(node, len(nodes))  # a version with no game yet: the prior alone
    played = _played(a, b, pair_games, len(nodes))
    found = ratings.fit(len(nodes), (a, b, pair_games, pair_points), start=_last(stage, frozen, by_version, nodes))
    centre, sigma = _centred(found, played)  # the pairs' weights: how much each row's rating rests on
    games = int(round(pair_games.sum()))
    if counted is not None:  # what is said: the games themselves, not their pairs' weights
        games = counted.games
        played = np.zeros(len(nodes))
        for id_, n in counted.items():
            played[nodes[id_]] = n
    at = level(stage)
    columns = [nodes[node] for _, node in shown if node is not None]
    samples = ratings.draws(found, seed=2 * games + frozen, columns=columns) if columns else None
    rows = [(entry, node, nodes.get(node)) for entry, node in shown]
    if rated(stage):
        score = {i: centre[i] - k(stage) * sigma[i] for i in nodes.values()}
        rows.sort(key=lambda r: -score[r[2]] if r[2] is not None else math.inf)
        if samples is not None:  # each draw ranked by the table's own rule: its strength less kσ
            samples = samples - k(stage) * sigma[np.asarray(columns)]
    low = high = None
    shares: list[float] = []
    with_fit = [r for r in rows if r[2] is not None]
    if samples is not None and with_fit:
        place_of = {i: n for n, i in enumerate(columns)}
        order = [place_of[r[2]] for r in with_fit]
        drawn = ratings.strongest_first(samples)  # sorted once, read twice
        low, high = ratings.rank_intervals(samples, at, drawn=drawn)
        shares = list(ratings.settled(samples, order, drawn=drawn))
    groups = ratings.tied_groups(np.array(shares), at) if with_fit else []
    fit = _store(stage, frozen, games, at, time.perf_counter() - started, shares)
    made = [
        Row(
            place + 1, entry, node if by_version else None, float(centre[i]), float(sigma[i]), int(played[i]),
            int(low[place_of[i]]), int(high[place_of[i]]), groups[place],
        )
        for place, (entry, node, i) in enumerate(with_fit)
    ]  # fmt: skip
    _insert(fit, made)
    if not frozen:
        if rated(stage):  # only a rated stage's charts draw ratings
            _remember(stage, fit, made)
        events.standings_changed(stage)  # an open standings page shows the new intervals
    if samples is not None and with_fit:
        samples = samples[:, order]  # the columns in the order shown
    return Fitted(fit, [r[0] for r in with_fit], samples, shares)


class Row(NamedTuple):
    """A ``Rating`` of the fit, as it is written."""

    place: int
    entry_id: int
    submission_id: int | None
    mu: float
    sigma: float
    games: int
    rank_low: int
    rank_high: int
    group: int


def _insert(fit: RatingFit, rows: list[Row]) -> None:
    """Write the fit's rows: an INSERT of plain values (as many rows a statement as the database
    takes), where Django's bulk_create prepared each value of each model object, a tenth of the
    task at 1,000 rows."""
    names = ["fit", *(name.removesuffix("_id") for name in Row._fields)]
    columns = ", ".join(connection.ops.quote_name(Rating._meta.get_field(name).column) for name in names)
    table = connection.ops.quote_name(Rating._meta.db_table)
    one = f"({', '.join(['%s'] * len(names))})"
    size = max(1, connection.ops.bulk_batch_size(names, rows))
    with connection.cursor() as cursor:
        for start in range(0, len(rows), size):
            part = rows[start : start + size]
            values = [value for row in part for value in (fit.pk, *row)]
            cursor.execute(f"INSERT INTO {table} ({columns}) VALUES {', '.join([one] * len(part))}", values)


def _last(stage: Stage, frozen: bool, by_version: bool, nodes: dict[int, int]) -> np.ndarray:
    """Where the fit starts: each node's strength in the last fit stored (NaN for one it did not
    show), which only saves Newton steps: a few results move the strengths a little."""
    start = np.full(len(nodes), np.nan)
    stored = Rating.objects.filter(fit__stage=stage, fit__frozen=frozen)
    for entry, version, mu in stored.values_list("entry_id", "submission_id", "mu"):
        node = nodes.get(version if by_version else entry)
        if node is not None:
            start[node] = mu
    return start


HISTORY_GROWTH = 1.15  # a fit is kept for the charts once the stage's games grew this much since the last kept


def _remember(stage: Stage, fit: RatingFit, made: list[Row]) -> None:
    """Keep the fit's ratings for the charts, if the stage's games grew enough since the last
    fit kept: some 100 points a row over a million games."""
    last = RatingPoint.objects.filter(stage=stage).order_by("-games").values_list("games", flat=True).first()
    if not made or (last is not None and fit.games < max(last + 1, last * HISTORY_GROWTH)):
        return
    RatingPoint.objects.bulk_create(
        [
            RatingPoint(
                stage=stage,
                entry_id=r.entry_id,
                submission_id=r.submission_id,
                games=fit.games,
                at=fit.computed_at,
                mu=r.mu,
                sigma=r.sigma,
            )
            for r in made
        ],  # fmt: skip
        batch_size=1000,
    )


def _centred(found: ratings.Fit, played: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each strength less the mean of those with games, and its spread about that mean: with a
    weak prior the common level is loose, but no standing depends on it."""
    weights = played > 0
    if not weights.any():
        return found.strength.copy(), found.sigma
    if found.approximate:  # a very large field: the mean is known well; each one's own spread
        return found.strength - found.strength[weights].mean(), found.sigma
    w = weights / weights.sum()
    return found.strength - found.strength @ w, np.sqrt(np.maximum(found.variance_about(w), 0.0))


def _store(stage: Stage, frozen: bool, games: int, at: float, seconds: float, shares: list[float]) -> RatingFit:
    fit, _ = RatingFit.objects.update_or_create(  # the row exists, locked
        stage=stage,
        frozen=frozen,
        defaults={
            "contest_id": stage.contest_id, "games": games, "level": at, "k": k(stage), "seconds": seconds,
            "computed_at": timezone.now(), "settled": [round(s, 4) for s in shares],
        },
    )  # fmt: skip
    fit.ratings.all().delete()
    return fit


# --- Queueing ---------------------------------------------------------------------------------


def queue(stage_id: int, frozen: bool = False) -> None:
    """Fit the stage's ratings again once the transaction commits, unless a fit of it is
    already queued and has not started (it will read this transaction's results)."""

    def send() -> None:
        key = _queued_key(stage_id, frozen)
        if cache.add(key, 1, timeout=DEBOUNCE_S + 600):
            took = RatingFit.objects.filter(stage_id=stage_id, frozen=frozen).values_list("seconds", flat=True).first()
            try:
                dispatch.task("judging.rate_stage").apply_async((stage_id, frozen), countdown=_wait(took))
            except BaseException:
                # Not sent (the broker away): the key would keep every later result from sending
                # one for ten minutes, and a stage with no later result stale for ever. The
                # watchdog queues a fit older than its stage's results (``stale_fits``).
                cache.delete(key)
                raise

    transaction.on_commit(send, robust=True)


def _wait(took: float | None) -> float:
    """How long a fit waits after the result that queued it, so that a burst is fitted once: a
    fit that takes long (a very large stage) is done less often, at most a fifth of a worker's time."""
    return min(max(DEBOUNCE_S, 5 * (took or 0)), 600)


def stale_fits(now: datetime, grace: timedelta) -> list[tuple[int, bool]]:
    """The (stage, frozen) fits behind their record by more than their own wait (``_wait``)
    and ``grace``: a live fit that counts another number of games than the stage's kept pairs
    hold, or older than its stage's last result; a snapshot's fit older than its contest's
    freeze; and a stage with kept pairs and no fit at all. (A lost send, or a broker that lost
    its messages: each result queues a fit after its commit, and nothing else would again.)"""
    live = {
        stage_id: games // 2
        for stage_id, games in PairTally.objects.filter(frozen=False)
        .values_list("stage_id")
        .annotate(games=Sum("games"))
        .values_list("stage_id", "games")
    }
    last = dict(
        Match.objects.filter(stage_id__in=list(live), result_attempt__isnull=False)
        .values_list("stage_id")
        .annotate(last=Max("finished_at"))
        .values_list("stage_id", "last")
    )
    fits = {
        (stage_id, frozen): (games, at, froze, now - timedelta(seconds=_wait(took)) - grace)
        for stage_id, frozen, games, at, froze, took in RatingFit.objects.values_list(
            "stage_id", "frozen", "games", "computed_at", "contest__standings_frozen_at", "seconds"
        )
    }
    behind: dict[tuple[int, bool], bool | str] = {}  # why: True, "count" (two seats' only), False
    for stage_id, games in live.items():
        fit = fits.get((stage_id, False))
        changed = last.get(stage_id)
        if fit is None:  # its first fit may be on its way
            behind[(stage_id, False)] = changed is None or changed < now - grace
        elif fit[1] < fit[3]:
            newer = changed is not None and changed > fit[1]
            behind[(stage_id, False)] = newer or ("count" if fit[0] != games else False)
    for (stage_id, frozen), (_, at, froze, older_than) in fits.items():
        if frozen and froze is not None and at < froze and at < older_than:  # none since, or a copy held
            behind[(stage_id, True)] = True
    snapshots = PairTally.objects.filter(frozen=True, contest__standings_frozen_at__lt=now - grace)
    for stage_id in snapshots.values_list("stage_id", flat=True).distinct():
        behind.setdefault((stage_id, True), (stage_id, True) not in fits)
    stages = Stage.objects.select_related("contest").in_bulk([stage_id for stage_id, _ in behind])
    return [
        key
        for key, why in behind.items()
        if why
        and key[0] in stages
        and _fitted_at_all(stages[key[0]])
        # a race's fit counts its games as pairs: only two seats' is the kept pairs' count
        and (why is True or paired(stages[key[0]]))
    ]


def _fitted_at_all(stage: Stage) -> bool:
    """Whether ``fitted`` fits the stage (else it stores no fit, and a fit is never missing)."""
    contest = stage.contest
    return seats_of(contest) is not None and not exact(contest, stage) and formats.of(stage.kind).counts_in_standings


def queue_now(stage_id: int, frozen: bool) -> None:
    """A fit of the stage sent at once, whatever is thought queued (the watchdog's)."""
    dispatch.task("judging.rate_stage").apply_async((stage_id, frozen))
    cache.set(_queued_key(stage_id, frozen), 1, timeout=DEBOUNCE_S + 600)  # results meanwhile find it queued


def _queued_key(stage_id: int, frozen: bool) -> str:
    return f"rate-stage:{stage_id}:{int(frozen)}"


def started(stage_id: int, frozen: bool) -> None:
    """A queued fit starts: a result counted from now on queues another."""
    cache.delete(_queued_key(stage_id, frozen))


# --- The charts -------------------------------------------------------------------------------


def hold(stage_ids: list[int]) -> None:
    """At a freeze, each stage's live fit copied as its frozen one, so the frozen table's rows
    carry their ratings and intervals from the moment it is frozen (they had none for the
    seconds its own fit took). The frozen fit queued beside replaces it: the live one may lag
    the snapshot's results by its debounce."""
    for fit in RatingFit.objects.filter(stage_id__in=stage_ids, frozen=False):
        rows = [Row(*row) for row in fit.ratings.order_by("place").values_list(*Row._fields)]
        fit.pk, fit.frozen = None, True
        fit.save(force_insert=True)
        _insert(fit, rows)


def rating_lines(stage: Stage, entries: dict[int, str], until=None, by_version: bool = False) -> list[dict]:
    """Each named entry's kept ratings over the stage's games (of fits up to ``until``, a
    freeze), on the Elo scale, with a band of two sigmas: a line each, or (``by_version``) a
    line each of its versions."""
    points = RatingPoint.objects.filter(stage=stage, entry_id__in=list(entries)).order_by("games")
    if until is not None:
        points = points.filter(at__lte=until)
    lines: dict[tuple, dict] = {}
    numbers = {}
    if by_version:
        numbers = dict(Submission.objects.filter(entry_id__in=list(entries)).values_list("pk", "number"))
    for p in points.values_list("entry_id", "submission_id", "games", "mu", "sigma"):
        entry, version, games, mu, sigma = p
        key = (entry, version) if by_version else (entry,)
        name = f"version {numbers.get(version, '?')}" if by_version else entries[entry]
        line = lines.setdefault(key, {"entry": entry, "name": name, "x": [], "points": [], "low": [], "high": []})
        line["x"].append(games)
        for field, value in (("points", mu), ("low", mu - 2 * sigma), ("high", mu + 2 * sigma)):
            line[field].append(round(ELO_MEAN + ELO * value, 1))
    return list(lines.values())
