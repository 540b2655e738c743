"""Standings: a stage's or a contest's finished games, ranked by the game's own columns.
A contest's are those of its tournament stages: system tests and test games do not count.

Returns data; templates and the API render it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from contests.models import Contest, Entry, Match, MatchSeat, Stage
from games import registry
from games.base import Column, SeatRecord


@dataclass
class Row:
    rank: int
    entry: Entry
    games: int
    values: dict[str, float] = field(default_factory=dict)

    cells: list[float] = field(default_factory=list)  # the values in column order, for templates

    def ordered(self, columns: tuple[Column, ...]) -> list[float]:
        return [self.values[c.key] for c in columns]


@dataclass
class Standings:
    columns: tuple[Column, ...]
    rows: list[Row]
    finished: int  # games played
    total: int  # games scheduled (cancelled ones not counted)


def _sort_key(values: dict[str, float], columns: tuple[Column, ...]) -> tuple[float, ...]:
    return tuple(-values[c.key] if c.higher_is_better else values[c.key] for c in columns)


BYE = "bye"  # the seat status of a round sat out (a Swiss bye): its points count, it is no game


def current_stage(contest: Contest) -> Stage | None:
    """The stage a contest's standings show by default: the latest one under way or over."""
    return (
        contest.stages.exclude(kind=Stage.Kind.SYSTEM_TEST)
        .filter(status__in=[Stage.Status.RUNNING, Stage.Status.FINISHED])
        .order_by("-order")
        .first()
    )


def compute(contest: Contest, stage: Stage | None = None) -> Standings:
    game = registry.get(contest.game)
    columns = game.standings
    matches = Match.objects.filter(contest=contest)
    if stage is not None:
        matches = matches.filter(stage=stage)
    else:  # the contest's tournament: not the system tests, nor the test games a contestant asks for
        matches = matches.filter(stage__isnull=False).exclude(stage__kind=Stage.Kind.SYSTEM_TEST)
    # The newest result of every match that has one, a match being re-run included.
    seats = MatchSeat.objects.filter(match__in=matches.filter(result_attempt__isnull=False)).select_related("entry")
    continuous = stage is not None and stage.kind == Stage.Kind.LADDER
    if continuous:  # an entry's current version's games; a new version starts afresh
        seats = seats.filter(submission__is_active=True)
    records: dict[int, list[SeatRecord]] = defaultdict(list)
    entries: dict[int, Entry] = {}
    for seat in seats:
        entries[seat.entry_id] = seat.entry
        records[seat.entry_id].append(SeatRecord(seat.points or 0.0, seat.score or 0.0, seat.status, seat.moves))
    if continuous:  # every entry that plays in it is listed at once, before its first game
        from judging.tournaments import contenders

        for entry, _ in contenders(stage):
            entries.setdefault(entry.pk, entry)
            records.setdefault(entry.pk, [])
    # A disqualified or withdrawn entry leaves; its opponents keep what they won against it.
    rows = [
        Row(
            rank=0,
            entry=entries[eid],
            games=sum(1 for r in recs if r.status != BYE),  # a round sat out is not a game
            values={c.key: c.total(recs) for c in columns},
        )
        for eid, recs in records.items()
        if entries[eid].status == Entry.Status.ACTIVE
    ]
    for row in rows:
        row.cells = row.ordered(columns)
    rows.sort(key=lambda r: (_sort_key(r.values, columns), r.entry.name.lower()))
    previous = None
    for position, row in enumerate(rows, start=1):
        key = _sort_key(row.values, columns)
        row.rank = rows[position - 2].rank if key == previous else position  # equal on every column: shared rank
        previous = key
    scheduled = matches.exclude(status=Match.Status.CANCELLED)
    return Standings(columns, rows, scheduled.filter(status=Match.Status.FINISHED).count(), scheduled.count())
