"""The kept standings: every stage's totals, maintained as results are counted.

A seat's counted result (its match's current result, ``Match.result_attempt``) adds to one
``Tally`` row, that of (stage, entry, version, status, detail), and a two-seat game's adds to
one ``PairTally`` row, that of (stage, entry, version, opponent, its version). Whatever writes a seat's
counted result does it inside ``recounting(match_id)``: the match's contribution is read
before and after, and the difference is added to the rows in the same transaction, so a
result written twice, a re-run that lands or one that is refused leave the right totals.

The rows are added to by one statement (``INSERT ... ON CONFLICT DO UPDATE``, on SQLite and
PostgreSQL alike) in the order of their keys: two workers finishing games of the same
entries lock the rows they share in the same order, after every other row lock they take
(``contests.locks``), and cannot wait on each other in a circle.

``rebuild`` recomputes the rows from the seats (``build``, the reference) and says what
differed; ``snapshot`` and ``thaw`` keep the frozen rows with a contest's freeze.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Case, Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce

from contests.locks import lock, writing
from contests.models import Contest, Entry
from games.base import BYE, DRAW, WIN, places
from judging.models import FrozenSeat, MatchSeat, PairTally, RatingFit, Tally
from judging.record import confidence

__all__ = ["Rebuilt", "build", "build_pairs", "build_totals", "placed", "rebuild", "recounting", "snapshot", "thaw"]

TALLY_KEY = ("contest_id", "stage_id", "entry_id", "submission_id", "status", "detail", "place")
TALLY_SUMS = ("seats", "points", "score", "moves", "wall_seconds")
PAIR_KEY = ("contest_id", "stage_id", "entry_id", "submission_id", "opponent_id", "opponent_submission_id")
PAIR_SUMS = ("games", "points", "wins", "draws")

Sums = dict[tuple, list[float]]


def _contribution(match_id: int) -> tuple[Sums, Sums]:
    """What the match's counted result adds to the tallies and to the pairs (nothing for a
    test game or a match with no result)."""
    seats = list(
        MatchSeat.objects.filter(match_id=match_id, match__stage__isnull=False, match__result_attempt__isnull=False)
        .order_by("index")
        .values(
            "match__contest_id", "match__stage_id", "entry_id", "submission_id", "status", "detail",
            "points", "score", "moves", "wall_seconds",
        )
    )  # fmt: skip
    tallies: Sums = {}
    pairs: Sums = {}
    placed = places([s["points"] for s in seats], [s["status"] for s in seats])
    for i, s in enumerate(seats):
        where = (s["match__contest_id"], s["match__stage_id"], s["entry_id"], s["submission_id"])
        found = tallies.setdefault((*where, s["status"], s["detail"], placed[i]), [0, 0.0, 0.0, 0, 0.0])
        for n, value in enumerate((1, s["points"] or 0.0, s["score"] or 0.0, s["moves"], s["wall_seconds"])):
            found[n] += value
        if len(seats) == 2 and s["status"] != BYE:
            other = seats[1 - i]
            pair = pairs.setdefault((*where, other["entry_id"], other["submission_id"]), [0, 0.0, 0, 0])
            for n, value in enumerate((1, s["points"] or 0.0, s["status"] == WIN, s["status"] == DRAW)):
                pair[n] += value
    return tallies, pairs


def _difference(after: Sums, before: Sums) -> Sums:
    found = {}
    for key in after.keys() | before.keys():
        now, was = after.get(key), before.get(key)
        delta = [a - b for a, b in zip(now or [0] * len(was), was or [0] * len(now), strict=True)]
        if any(delta):
            found[key] = delta
    return found


def _add(model: type[Tally] | type[PairTally], keys: tuple[str, ...], sums: tuple[str, ...], deltas: Sums) -> None:
    """Add ``deltas`` to the live rows, making those missing, in one statement, in key order;
    then drop the rows left with no seat."""
    if not deltas:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = [*keys, "frozen", "current_version", *sums]
    columns = [quote(model._meta.get_field(n.removesuffix("_id")).column) for n in names]
    unique = next(c for c in model._meta.constraints if c.name.endswith("unique"))
    conflict = ", ".join(quote(model._meta.get_field(f).column) for f in unique.fields)
    added = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in columns[-len(sums) :])
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    ordered = sorted(deltas.items())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * len(ordered))} "
            f"ON CONFLICT ({conflict}) DO UPDATE SET {added}",
            [value for key, delta in ordered for value in (*key, False, True, *delta)],
        )
    emptied = {sums[0]: 0, "frozen": False}
    model.objects.filter(
        stage_id__in={key[1] for key in deltas}, entry_id__in={key[2] for key in deltas}, **emptied
    ).delete()


@contextlib.contextmanager
def recounting(match_id: int) -> Iterator[None]:
    """Keep the tallies with whatever the block does to the match's counted result (its
    seats, its ``result_attempt``), in one transaction with it. The caller holds the match's
    row lock (``lifecycle.lock_match``) or is alone (a match being made)."""
    with transaction.atomic():
        tallies, pairs = _contribution(match_id)
        yield
        now_tallies, now_pairs = _contribution(match_id)
        totals = _difference(now_tallies, tallies)
        _add(Tally, TALLY_KEY, TALLY_SUMS, totals)
        _add(PairTally, PAIR_KEY, PAIR_SUMS, _difference(now_pairs, pairs))
        for stage_id in sorted({key[1] for key in totals}):
            confidence.queue(stage_id)  # the stage's ratings and intervals, fitted again after the commit


# --- From scratch: the reference ------------------------------------------------------------


def build(
    seats: QuerySet, frozen: bool = False, tally: type[Tally] = Tally, pair: type[PairTally] = PairTally
) -> tuple[list[Tally], list[PairTally]]:
    """The rows the seats add up to (``seats``: MatchSeat rows with a counted result, or a
    contest's FrozenSeat rows with ``frozen``), unsaved: two grouped queries. (A migration
    passes its own models.)"""
    return build_totals(seats, frozen, tally), build_pairs(seats, frozen, pair)


def _grouping(frozen: bool) -> tuple[str, ...]:
    version = ("current_version",) if frozen else ()
    return ("match__contest_id", "match__stage_id", "entry_id", "submission_id", *version)


def placed(seats: QuerySet) -> QuerySet:
    """The seats with their ``place`` in their games, as ``games.base.places`` gives it: one
    more than the seats of the same match with more points; 0 for a bye."""
    above = (
        seats.model.objects.filter(match=OuterRef("match"))
        .annotate(scored=Coalesce("points", 0.0))
        .filter(scored__gt=Coalesce(OuterRef("points"), 0.0))
        .order_by()
        .values("match")
        .annotate(c=Count("pk"))
        .values("c")
    )
    return seats.annotate(
        place=Case(
            When(status=BYE, then=Value(0)),
            default=Value(1) + Coalesce(Subquery(above, output_field=IntegerField()), 0),
            output_field=IntegerField(),
        )
    )


def build_totals(seats: QuerySet, frozen: bool = False, tally: type[Tally] = Tally) -> list[Tally]:
    grouped = (
        placed(seats.order_by())
        .values(*_grouping(frozen), "status", "detail", "place")
        .annotate(n=Count("pk"), p=Sum("points"), s=Sum("score"), m=Sum("moves"), w=Sum("wall_seconds"))
    )
    return [
        tally(
            contest_id=g["match__contest_id"], stage_id=g["match__stage_id"], entry_id=g["entry_id"],
            submission_id=g["submission_id"], status=g["status"], detail=g["detail"], place=g["place"], frozen=frozen,
            current_version=g.get("current_version", True), seats=g["n"], points=g["p"] or 0.0,
            score=g["s"] or 0.0, moves=g["m"] or 0, wall_seconds=g["w"] or 0.0,
        )
        for g in grouped
    ]  # fmt: skip


def build_pairs(seats: QuerySet, frozen: bool = False, pair: type[PairTally] = PairTally) -> list[PairTally]:
    others = seats.model.objects.filter(match=OuterRef("match")).order_by().values("match")
    opponent = others.exclude(index=OuterRef("index"))
    two = (
        seats.exclude(status=BYE)
        .annotate(
            players=Subquery(others.annotate(c=Count("pk")).values("c")),
            opponent=Subquery(opponent.values("entry_id")[:1]),
            opponent_version=Subquery(opponent.values("submission_id")[:1]),
        )
        .filter(players=2)
    )
    paired = (
        two.order_by()
        .values(*_grouping(frozen), "opponent", "opponent_version")
        .annotate(
            n=Count("pk"), p=Sum("points"), w=Count("pk", filter=Q(status=WIN)), d=Count("pk", filter=Q(status=DRAW))
        )
    )
    return [
        pair(
            contest_id=g["match__contest_id"], stage_id=g["match__stage_id"], entry_id=g["entry_id"],
            submission_id=g["submission_id"], opponent_id=g["opponent"],
            opponent_submission_id=g["opponent_version"], frozen=frozen,
            current_version=g.get("current_version", True), games=g["n"], points=g["p"] or 0.0, wins=g["w"],
            draws=g["d"],
        )
        for g in paired
    ]  # fmt: skip


def counted_seats(contest: Contest | None = None) -> QuerySet:
    """Every seat the live tallies count (of one contest, if named)."""
    seats = MatchSeat.objects.filter(match__stage__isnull=False, match__result_attempt__isnull=False)
    return seats.filter(match__contest=contest) if contest is not None else seats


def snapshot(contest: Contest) -> None:
    """The frozen rows of a contest, from the FrozenSeat rows its freeze has just made."""
    thaw(contest)
    tallies, pairs = build(FrozenSeat.objects.filter(contest=contest), frozen=True)
    Tally.objects.bulk_create(tallies, batch_size=1000)
    PairTally.objects.bulk_create(pairs, batch_size=1000)
    stages = sorted({t.stage_id for t in tallies})
    confidence.hold(stages)  # rows have intervals from now; their own fit follows
    for stage_id in stages:
        confidence.queue(stage_id, frozen=True)


def thaw(contest: Contest) -> None:
    Tally.objects.filter(contest=contest, frozen=True).delete()
    PairTally.objects.filter(contest=contest, frozen=True).delete()
    RatingFit.objects.filter(contest=contest, frozen=True).delete()


@dataclass
class Rebuilt:
    contests: int
    rows: int  # rows kept after the rebuild
    differences: list[str]  # what the kept rows had wrong, in words


def _keyed(rows, sums: tuple[str, ...]) -> dict[tuple, tuple[float, ...]]:
    fields = ("contest_id", "stage_id", "entry_id", "submission_id", "frozen", "current_version")
    found = {}
    for r in rows:
        extra = (r.status, r.detail, r.place) if isinstance(r, Tally) else (r.opponent_id, r.opponent_submission_id)
        found[tuple(getattr(r, f) for f in fields) + extra] = tuple(round(float(getattr(r, s)), 6) for s in sums)
    return found


def _said(kind: str, key: tuple, was, now, names: dict[int, str]) -> str:
    entry = names.get(key[2], f"entry {key[2]}")
    which = f"stage {key[1]}, {entry}, version {key[3]}{', frozen' if key[4] else ''}, {' '.join(map(str, key[6:]))}"
    return f"{kind} {which}: kept {was}, counted {now}"


def rebuild(contest: Contest | None = None) -> Rebuilt:
    """Recompute the kept rows (of one contest, or all) from the seats, in one transaction,
    and say what differed."""
    contests = [contest] if contest is not None else list(Contest.objects.order_by("pk"))
    differences: list[str] = []
    rows = 0
    with writing():
        # Every kept row first: a result landing meanwhile waits, then adds to the rebuilt rows.
        lock("tally", Tally.objects.filter(contest__in=contests))
        lock("pair", PairTally.objects.filter(contest__in=contests))
        for c in contests:
            tallies, pairs = build(counted_seats(c))
            if c.standings_frozen_at is not None:
                frozen_tallies, frozen_pairs = build(FrozenSeat.objects.filter(contest=c), frozen=True)
                tallies, pairs = tallies + frozen_tallies, pairs + frozen_pairs
            kept_tallies = list(Tally.objects.filter(contest=c))
            kept_pairs = list(PairTally.objects.filter(contest=c))
            names = dict(Entry.objects.filter(contest=c).values_list("pk", "name"))
            for kind, kept, made, sums in (
                ("totals", kept_tallies, tallies, TALLY_SUMS),
                ("pair", kept_pairs, pairs, PAIR_SUMS),
            ):
                was, now = _keyed(kept, sums), _keyed(made, sums)
                for key in sorted(was.keys() | now.keys(), key=repr):
                    if was.get(key) != now.get(key):
                        differences.append(_said(kind, key, was.get(key), now.get(key), names))
            Tally.objects.filter(contest=c).delete()
            PairTally.objects.filter(contest=c).delete()
            Tally.objects.bulk_create(tallies, batch_size=1000)
            PairTally.objects.bulk_create(pairs, batch_size=1000)
            rows += len(tallies) + len(pairs)
            for stage_id in sorted({t.stage_id for t in tallies}):  # the ratings read the rebuilt pairs
                confidence.queue(stage_id)
                if c.standings_frozen_at is not None:
                    confidence.queue(stage_id, frozen=True)
    return Rebuilt(len(contests), rows, differences)
