"""Standings: a stage's or a contest's finished games, ranked by the game's own columns.
A contest's are those of its tournament stages: system tests and test games do not count.

Every column is a ``games.base.Total`` (a sum of a seat's field, or a count of seats), so the
totals are kept as results are counted (``judging.record.tallies``: one row per stage, entry,
version and result) and a table adds up those rows, O(entries) whatever the number of games:
one grouped query over them, one read of the entries it names (as values: an entry becomes an
object only on the rows shown), the kept count of the matches (``judging.record.counts``) and the
stored ratings. A page of the table (``page``) or an entry's place in it (``standing``) ranks
every row that way and makes objects of the rows it shows alone.
Which rows count is decided here, when reading: a cancelled stage, a disqualified entry, an
old version in a continuous stage. ``kept=False`` adds up the seats themselves instead: the
reference the tests and ``manage.py rebuild_standings`` check the kept rows against.

Returns data; templates and the API render it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum

from contests.models import Contest, Entry, Stage, Submission
from games import registry
from games.base import BYE, MEASURES, Column, Formula, SeatRecord, Total, places
from judging.models import FrozenSeat, Match, MatchAttempt, MatchCount, MatchSeat, PairTally, RatingFit, Tally
from judging.record import counts, entrants, fits, formats, tallies
from judging.record.fits import Shown

__all__ = [
    "BYE", "FROZEN", "LIVE", "MAX_PAGE_ROWS", "PAGE_ROWS", "Change", "Comparison", "Page", "Record", "Row", "Standing",
    "Standings", "compare", "compute", "current_stage", "page", "replayed", "standing", "with_result",
]  # fmt: skip


@dataclass
class Row:
    rank: int
    entry: Entry
    games: int
    values: dict[str, float] = field(default_factory=dict)

    cells: list[float] = field(default_factory=list)  # the values in column order, for templates
    sure: Shown | None = None  # its rating, rank interval and tied group (judging.record.fits)

    def ordered(self, columns: tuple[Column, ...]) -> list[float]:
        return [self.values[c.key] for c in columns]


@dataclass
class Standings:
    columns: tuple[Column, ...]
    rows: list[Row]
    finished: int  # games played
    total: int  # games scheduled (cancelled ones not counted)
    fit: RatingFit | None = None  # the ratings and intervals shown, as last computed
    rated: bool = False  # ranked by rating (a continuous stage), not by points
    count: int = -1  # the rows of the whole table, of which ``rows`` may be some (a page); -1: len(rows)

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.rows)


@dataclass
class _Tally:
    """An entry's totals before ranking: its seats, its games and each column's value."""

    seats: int
    games: int
    values: dict[str, float]

    def add(self, record: SeatRecord, columns: tuple[Column, ...], sign: int = 1) -> None:
        self.seats += sign
        self.games += sign * (record.status != BYE)  # a round sat out is not a game
        for c in _summed(columns):
            self.values[c.key] += sign * c.total([record])
        if _formulas(columns):
            self.values["execution_s"] = self.values.get("execution_s", 0.0) + sign * record.wall_seconds


def _summed(columns: tuple[Column, ...]) -> list[Column]:
    """The columns that are sums over seats (the database adds them up)."""
    return [c for c in columns if isinstance(c.total, Total)]


def _formulas(columns: tuple[Column, ...]) -> list[Column]:
    return [c for c in columns if isinstance(c.total, Formula)]


def _sort_key(values: dict[str, float], columns: tuple[Column, ...]) -> tuple[float, ...]:
    return tuple(-values[c.key] if c.higher_is_better else values[c.key] for c in columns if c.ranks)


def current_stage(contest: Contest) -> Stage | None:
    """The stage a contest's standings show by default: the latest one under way or over."""
    return (
        contest.stages.exclude(kind__in=formats.uncounted_kinds())
        .filter(status__in=[Stage.Status.RUNNING, Stage.Status.FINISHED])
        .order_by("-order")
        .first()
    )


def _in_table(contest: Contest, stage: Stage | None, via: str = "match__") -> Q:
    """The matches a table counts, as a condition on a model that reaches Match ``via`` (a
    seat's ``match__``; "" for Match itself)."""
    if stage is not None:
        return Q(**{f"{via}stage": stage})
    # the contest's tournament: not the system tests, nor the test games a contestant asks
    # for, nor a stage the judges cancelled
    return (
        Q(**{f"{via}contest": contest, f"{via}stage__isnull": False})
        & ~Q(**{f"{via}stage__kind__in": formats.uncounted_kinds()})
        & ~Q(**{f"{via}stage__status": Stage.Status.CANCELLED})
    )


def _continuous(stage: Stage | None) -> bool:
    """A continuous stage counts the games of each entry's current version; a new one starts afresh."""
    return stage is not None and formats.of(stage.kind).continuous


@dataclass(frozen=True)
class Record:
    """The results a table counts: the live record (each counted match's current result), or
    the snapshot its contest's freeze took (``judging.record.publication``), which the public sees
    until the judges publish. Both are rows with a seat's fields, read the same way."""

    frozen: bool = False

    @property
    def model(self) -> type[MatchSeat] | type[FrozenSeat]:
        return FrozenSeat if self.frozen else MatchSeat

    def seats(self, contest: Contest, stage: Stage | None, current_only: bool = True) -> QuerySet:
        """The seats with a result in the table's matches; in a continuous stage (unless
        ``current_only`` is False) only those of each entry's current version."""
        if self.frozen:
            seats = FrozenSeat.objects.filter(_in_table(contest, stage), contest=contest)
            return seats.filter(current_version=True) if current_only and _continuous(stage) else seats
        seats = MatchSeat.objects.filter(_in_table(contest, stage), match__result_attempt__isnull=False)
        return seats.filter(submission__is_active=True) if current_only and _continuous(stage) else seats

    def kept(
        self, model: type[Tally] | type[PairTally], contest: Contest, stage: Stage | None, current_only: bool = True
    ) -> QuerySet:
        """The kept rows (``Tally`` or ``PairTally``) of the table, as ``seats`` chooses seats."""
        rows = model.objects.filter(_in_table(contest, stage, via=""), contest=contest, frozen=self.frozen)
        if not (current_only and _continuous(stage)):
            return rows
        return rows.filter(current_version=True) if self.frozen else rows.filter(submission__is_active=True)

    def rows(self, contest: Contest, stage: Stage | None, current_only: bool = True, kept: bool = True) -> QuerySet:
        """What a table adds up: the kept totals, or (``kept`` False) the seats themselves."""
        return self.kept(Tally, contest, stage, current_only) if kept else self.seats(contest, stage, current_only)

    @property
    def finished_at(self) -> str:
        """The field that says when a seat's result was recorded."""
        return "finished_at" if self.frozen else "match__finished_at"


LIVE, FROZEN = Record(), Record(frozen=True)


def _count(kept: bool, only: Q | None = None) -> Sum | Count:
    """The number of seats: a kept row's ``seats`` added up, or the seats counted."""
    return Sum("seats", filter=only) if kept else Count("pk", filter=only)


def _sql(total: Total, kept: bool) -> Sum | Count:
    only = Q()
    if total.statuses:
        only &= Q(status__in=total.statuses)
    if total.detail:
        only &= Q(detail=total.detail)
    if total.place:
        only &= Q(place=total.place)
    if total.of:
        return Sum(total.of, filter=only or None)
    return _count(kept, only or None)


Totals = tuple[int, int, dict[str, float]]  # an entry's seats, games and each column's value


def _tallies(
    contest: Contest, stage: Stage | None, columns: tuple[Column, ...], record: Record = LIVE, kept: bool = True
) -> dict[int, Totals]:
    """Each entry's totals over the counted seats, in one grouped query. Only the seats of
    matches with a result count: a match being re-run keeps its earlier one until the new
    one lands."""
    seats = record.rows(contest, stage, kept=kept)
    summed = _summed(columns)
    if not kept and any(c.total.place for c in summed):
        seats = tallies.placed(seats)
    aliases = {f"c{i}": c.key for i, c in enumerate(summed)}
    if _formulas(columns):
        aliases["execution"] = "execution_s"
    sums = {alias: _sql(c.total, kept) for alias, c in zip(aliases, summed, strict=False)}
    if _formulas(columns):
        sums["execution"] = Sum("wall_seconds")
    grouped = (
        seats.order_by().values("entry_id").annotate(n_seats=_count(kept), n_games=_count(kept, ~Q(status=BYE)), **sums)
    )
    return {
        g["entry_id"]: (g["n_seats"], g["n_games"] or 0, {key: g[alias] or 0 for alias, key in aliases.items()})
        for g in grouped
        if g["n_seats"]
    }


def _progress(contest: Contest, stage: Stage | None, kept: bool = True, record: Record = LIVE) -> tuple[int, int]:
    """(games played, games scheduled): what everyone may know, frozen or not; from the kept
    counts of the table's stages (``judging.record.counts``: a few rows a stage), or (``kept``
    False, the reference) counted over the matches. The snapshot's table (``FROZEN``) counts
    as played a game it holds a result of that is being played again (``replayed``): a re-run
    after the freeze moves nothing the public sees until publish."""
    if kept:
        found = counts.summed(MatchCount.objects.filter(_in_table(contest, stage, via=""), contest=contest))
        finished, total = found.finished, found.total
    else:
        matches = (
            Match.objects.filter(_in_table(contest, stage, via=""))
            .exclude(status=Match.Status.CANCELLED)
            .aggregate(finished=Count("pk", filter=Q(status=Match.Status.FINISHED)), total=Count("pk"))
        )
        finished, total = matches["finished"], matches["total"]
    if record.frozen:
        finished += sum(replayed(Match.objects.filter(_in_table(contest, stage, via=""))).values())
    return finished, total


def replayed(matches: QuerySet[Match]) -> dict[int, int]:
    """Of ``matches``, by stage, those whose result the freeze's snapshot holds that are not
    finished now (being played again, or failed since): played, to whoever sees the snapshot,
    which still counts their result. Only open and failed matches are read (a few)."""
    held = FrozenSeat.objects.filter(match=OuterRef("pk"))
    open_or_failed = matches.filter(status__in=[*counts.OPEN, Match.Status.FAILED]).filter(Exists(held))
    return dict(open_or_failed.order_by().values("stage_id").annotate(n=Count("pk")).values_list("stage_id", "n"))


@functools.cache
def _entry_fields() -> tuple[str, ...]:
    """The fields of an entry a table reads (all but the answers to the entry form), in the
    model's order, as ``Entry.from_db`` takes them."""
    return tuple(f.attname for f in Entry._meta.concrete_fields if f.name != "form_data")


def _contenders(stage: Stage | None) -> QuerySet | list[int] | None:
    """In a continuous stage, the entries that play in it (``contenders``), listed
    before their first game, as ids (a subquery, unless the stage chooses them by the
    standings of the stages before); None in any other stage."""
    if not _continuous(stage):
        return None
    if stage.params.get("best_of_each_contestant") or stage.params.get("top"):  # by the stages before
        return [entry.pk for entry, _ in contenders(stage)]
    # contenders() without its objects: a ladder's table lists every contender at every read
    ready = entrants.ready_submissions(stage.contest_id)
    if isinstance(stage.params.get("entries"), list):  # only the entries the judges named
        ready = ready.filter(entry_id__in=stage.params["entries"])
    return ready.values("entry_id")


def _listed(chosen: Q) -> dict[int, tuple]:
    """The active entries among those ``chosen`` (a disqualified or withdrawn entry leaves the
    standings; its opponents keep what they won against it), each as its fields' values
    (``_entry_fields``), in one query."""
    fields = _entry_fields()
    at = fields.index("id")
    rows = Entry.objects.filter(chosen, status=Entry.Status.ACTIVE).order_by().values_list(*fields)
    return {row[at]: row for row in rows}


def _entry(fields: tuple) -> Entry:
    """An entry from its fields read by ``_listed``: the model object a query would have made
    (its entry form, not read, is read if asked for)."""
    return Entry.from_db(Entry.objects.db, _entry_fields(), fields)


def _measures(
    contest: Contest, stage: Stage | None, tallies: dict[int, Totals], record: Record = LIVE, kept: bool = True
) -> dict[int, dict[str, float]]:
    """What a Formula weighs, for each entry: its execution time (the seats' wall time, added
    up with the other totals), and the programming time and size of the newest submission it
    played with in the table (one query, over the versions the kept rows name)."""
    found: dict[int, dict[str, float]] = {
        pk: {"programming_s": 0.0, "execution_s": values.get("execution_s", 0.0), "program_bytes": 0.0}
        for pk, (_, _, values) in tallies.items()
    }
    seats = record.rows(contest, stage, current_only=False, kept=kept)
    played = (
        seats.order_by("entry_id", "submission__created_at")
        .values_list("entry_id", "submission__created_at", "submission__program_bytes")
        .distinct()
    )
    for entry_id, created_at, size in played:
        if entry_id in found:
            opened = contest.opens_at or created_at
            found[entry_id]["programming_s"] = max((created_at - opened).total_seconds(), 0.0)
            found[entry_id]["program_bytes"] = float(size or 0)
    return found


def _apply_formulas(
    columns,
    contest,
    stage,
    tallies: dict[int, Totals],
    entries: dict[int, tuple],
    record: Record = LIVE,
    kept: bool = True,
) -> None:
    """Each Formula column's value: the entry's measures over the smallest in the table."""
    formulas = _formulas(columns)
    if not formulas:
        return
    measures = _measures(contest, stage, {pk: t for pk, t in tallies.items() if pk in entries}, record, kept)
    smallest = {m: min((v[m] for v in measures.values() if v[m] > 0), default=0.0) for m in MEASURES}
    for pk, (_, _, values) in tallies.items():
        for c in formulas:
            values[c.key] = round(c.total(measures[pk], smallest), 6) if pk in measures else 0.0


def _empty(columns: tuple[Column, ...]) -> dict[str, float]:
    return dict.fromkeys((c.key for c in columns), 0)


def _rank(
    columns: tuple[Column, ...], tallies: dict[int, Totals], names: dict[int, str]
) -> tuple[list[int], dict[int, int]]:
    """The entries in the table's order (by the ranking columns, then by name) and each one's
    rank (equal on every column: a shared rank). Ids, tuples and dicts of numbers, which the
    garbage collector stops following: an object a row, alive through a request, made a full
    collection every few requests (60–90 ms each on a loaded machine)."""
    empty = _sort_key(_empty(columns), columns)
    keys = {pk: _sort_key(tallies[pk][2], columns) if pk in tallies else empty for pk in names}
    order = sorted(names, key=lambda pk: (keys[pk], names[pk].lower()))
    rank: dict[int, int] = {}
    previous = None
    for position, pk in enumerate(order, start=1):
        rank[pk] = rank[previous] if previous is not None and keys[pk] == keys[previous] else position
        previous = pk
    return order, rank


def _names(listed: dict[int, tuple]) -> dict[int, str]:
    at = _entry_fields().index("name")
    return {pk: fields[at] for pk, fields in listed.items()}


@dataclass
class _Ranked:
    """A whole table ranked, its rows not yet shown: what ``compute``, ``page`` and
    ``standing`` make rows of."""

    table: Standings  # with no rows
    order: list[int]  # the entries, in the table's order
    rank: dict[int, int]
    tallies: dict[int, Totals]
    listed: dict[int, tuple]  # each entry's fields read
    exact: bool = False  # each rank exact (``fits.exact``)
    stored: fits.Stored | None = None  # the stored ratings and intervals

    def rows(self, entries: list[int]) -> list[Row]:
        """The rows of these entries, made objects."""
        columns = self.table.columns
        rows = []
        for pk in entries:
            games, values = self.tallies[pk][1:] if pk in self.tallies else (0, _empty(columns))
            values = dict(values)
            row = Row(self.rank[pk], _entry(self.listed[pk]), games, values, [values[c.key] for c in columns])
            row.sure = self._sure(pk, row.rank)
            rows.append(row)
        return rows

    def _sure(self, pk: int, rank: int) -> Shown | None:
        """The row's rating and interval; the interval holds the row's own rank: widened to it
        where the fit's draws leave it out (a Swiss table ranks by points, not strengths; a
        version newer than a rated fit is placed after the rated rows)."""
        if self.exact:
            return Shown(rank_low=rank, rank_high=rank, exact=True)
        found = self.stored.get(pk) if self.stored is not None else None
        if found is not None and not found.rank_low <= rank <= found.rank_high:
            found = replace(found, rank_low=min(found.rank_low, rank), rank_high=max(found.rank_high, rank))
        return found

    def shown(self, entries: list[int]) -> Standings:
        """The table with the rows of ``entries`` (the whole table's count and ranks)."""
        t = self.table
        return Standings(t.columns, self.rows(entries), t.finished, t.total, t.fit, t.rated, len(self.order))


def _columns(contest: Contest, stage: Stage | None) -> tuple[Column, ...]:
    """The game's columns, its places (1st, 2nd…) only as many as the stage's games have seats:
    a stage of two seats of a game of up to four counted 3rd and 4th, always 0. The last place
    shown ranks nothing (fewer of them is what the others already say)."""
    columns = registry.get(contest.game).standings
    if stage is None or not any(isinstance(c.total, Total) and c.total.place for c in columns):
        return columns
    most = formats.seats(stage)
    kept = []
    for c in columns:
        place = c.total.place if isinstance(c.total, Total) else 0
        if place <= most:
            kept.append(replace(c, ranks=False) if place == most else c)
    return tuple(kept)


def _ranked(
    contest: Contest, stage: Stage | None, record: Record = LIVE, kept: bool = True, rated: bool = True
) -> _Ranked:
    columns = _columns(contest, stage)
    tallies = _tallies(contest, stage, columns, record, kept)
    # the entries with a result in the table (the database picks them: 1,000 ids sent back
    # to it took longer than the totals), and in a continuous stage every contender at once
    chosen = Q(pk__in=record.rows(contest, stage, kept=kept).values("entry_id"))
    at_once = _contenders(stage)
    listed = _listed(chosen | Q(pk__in=at_once) if at_once is not None else chosen)
    _apply_formulas(columns, contest, stage, tallies, listed, record, kept)
    table = Standings(columns, [], *_progress(contest, stage, kept, record))
    ranked = _Ranked(table, *_rank(columns, tallies, _names(listed)), tallies, listed)
    if rated:
        _with_confidence(ranked, contest, stage, record)
    return ranked


def compute(
    contest: Contest, stage: Stage | None = None, record: Record = LIVE, kept: bool = True, rated: bool = True
) -> Standings:
    """The standings of a stage (the contest's current one if None), from the live record or
    (``FROZEN``) from the snapshot its contest's freeze took; from the kept totals, or
    (``kept`` False, the reference) from the seats. With the stored ratings and intervals
    (``judging.record.confidence``; a rated stage ranked by them) unless ``rated`` is False. Every
    row, each with its entry as an object: a page shows some (``page``)."""
    ranked = _ranked(contest, stage, record, kept, rated)
    return ranked.shown(ranked.order)


def _with_confidence(ranked: _Ranked, contest: Contest, stage: Stage | None, record: Record) -> None:
    """Each row's stored rating, interval and tied group (made when a row is shown); a rated
    stage's rows in the order of their ratings, those not rated yet (a version newer than the
    fit) last, by points."""
    if fits.exact(contest, stage):
        ranked.exact = True
        return
    table, order = ranked.table, ranked.order
    ranked.stored = stored = fits.shown(stage, record.frozen, set(order))
    table.fit = stored.fit if stored is not None else None
    table.rated = fits.rated(stage)
    if not table.rated:
        return
    rating = {pk: stored.rating(pk) if stored is not None else None for pk in order}
    by_points = {pk: n for n, pk in enumerate(order)}
    order.sort(key=lambda pk: (rating[pk] is None, -(rating[pk] or 0), by_points[pk]))
    ranked.rank = {pk: n for n, pk in enumerate(order, start=1)}


# --- A page of a table, an entry's place in it -----------------------------------------------

PAGE_ROWS = 100  # a page's rows, unless asked for another number
MAX_PAGE_ROWS = 500


@dataclass
class Page:
    """One page of a table: ``table.rows`` are its rows (ranked in the whole table; ``table.count``
    the whole table's), with the viewer's own rows wherever they are."""

    table: Standings
    number: int  # 1 to pages
    pages: int
    size: int  # rows a page
    lines: list[Row | None]  # the rows shown, in order: the page's and the viewer's; None: rows left out
    yours: list[Row]  # the viewer's rows, on this page or not, in the table's order

    @property
    def first(self) -> int:
        """The position in the whole table of the page's first row (1 for the top)."""
        return min((self.number - 1) * self.size + 1, self.table.count)

    @property
    def last(self) -> int:
        return min(self.number * self.size, self.table.count)

    @property
    def own(self) -> set[int]:
        return {row.entry.pk for row in self.yours}


def page(
    contest: Contest,
    stage: Stage | None = None,
    record: Record = LIVE,
    number: int = 1,
    size: int | None = None,
    own: set[int] | frozenset[int] = frozenset(),
) -> Page:
    """Page ``number`` (kept between the first and the last) of the table, ``size`` rows a page
    (``PAGE_ROWS`` unless given), and the rows of the entries ``own`` wherever they are: the
    whole table ranked, only the rows shown made objects."""
    size = size or PAGE_ROWS
    ranked = _ranked(contest, stage, record)
    order = ranked.order
    count = len(order)
    pages = max(1, -(-count // size))
    number = min(max(number, 1), pages)
    start, stop = (number - 1) * size, min(number * size, count)
    mine = [i for i, pk in enumerate(order) if pk in own]
    at = [i for i in mine if i < start] + list(range(start, stop)) + [i for i in mine if i >= stop]
    rows = ranked.rows([order[i] for i in at])
    lines: list[Row | None] = []
    for n, (i, row) in enumerate(zip(at, rows, strict=True)):
        if i != (at[n - 1] + 1 if n else 0):
            lines.append(None)
        lines.append(row)
    if at and at[-1] < count - 1:
        lines.append(None)
    table = ranked.shown([])
    table.rows = [row for i, row in zip(at, rows, strict=True) if start <= i < stop]
    return Page(table, number, pages, size, lines, [row for row in rows if row.entry.pk in own])


@dataclass
class Standing:
    """An entry's row in a table, for its page: its place of how many, and (a two-seat game)
    each opponent it met, in the table's order (``head_to_head``)."""

    row: Row
    of: int
    table: Standings  # the table's columns, ratings and counts; no rows
    opponents: list[dict] | None


def standing(contest: Contest, stage: Stage | None, entry: Entry, record: Record = LIVE) -> Standing | None:
    """``entry``'s place in the table (None: not listed), with the rows of the opponents it met:
    the whole table ranked, only those rows made objects."""
    ranked = _ranked(contest, stage, record)
    if entry.pk not in ranked.rank:
        return None
    opponents = None
    if _two_seats(contest, stage):
        cells = _pairs(contest, stage, record, entry=entry)
        met = [pk for pk in ranked.order if pk != entry.pk and (entry.pk, pk) in cells]
        opponents = _met(entry, ranked.rows(met), cells)
    return Standing(ranked.rows([entry.pk])[0], len(ranked.order), ranked.table, opponents)


CROSSTABLE_MAX = 40  # entries; a larger table is no longer read as a grid


def _pairs(
    contest: Contest, stage: Stage | None, record: Record = LIVE, entry: Entry | None = None, kept: bool = True
) -> dict[tuple[int, int], tuple[float, int]]:
    """A two-seat game's results by pair, in one grouped query: (entry, opponent) -> (points
    the entry scored against it, games); only the games of ``entry`` if one is named."""
    if kept:
        rows = record.kept(PairTally, contest, stage)
        if entry is not None:
            rows = rows.filter(Q(entry=entry) | Q(opponent=entry))
        pairs = rows.order_by().values("entry_id", "opponent_id").annotate(won=Sum("points"), n=Sum("games"))
        return {(p["entry_id"], p["opponent_id"]): (p["won"] or 0, p["n"]) for p in pairs if p["n"]}
    seats = record.seats(contest, stage)
    if entry is not None:
        seats = seats.filter(match__in=record.model.objects.filter(entry=entry).values("match"))
    opponent = (
        record.model.objects.filter(match=OuterRef("match")).exclude(index=OuterRef("index")).values("entry_id")[:1]
    )
    pairs = (
        seats.exclude(status=BYE)
        .annotate(opponent=Subquery(opponent))
        .order_by()
        .values("entry_id", "opponent")
        .annotate(points=Sum("points"), games=Count("pk"))
    )
    return {(p["entry_id"], p["opponent"]): (p["points"] or 0, p["games"]) for p in pairs}


def _two_seats(contest: Contest, stage: Stage | None) -> bool:
    """Whether the games read are of two seats: the stage's, else any the game can have."""
    if stage is not None:
        return fits.paired(stage)
    game = registry.get(contest.game)
    return game.default_seats == 2 and (game.seat_range is None or game.seat_range[1] == 2)


def crosstable(
    contest: Contest, stage: Stage | None, rows: list[Row], record: Record = LIVE, kept: bool = True
) -> list[dict] | None:
    """A two-seat game's results as a grid, in the standings' order: for each entry, against
    each other one, the points it scored and the games it played (one grouped query); None
    for another kind of game or a table too large to read as one."""
    if not _two_seats(contest, stage) or not 1 < len(rows) <= CROSSTABLE_MAX:
        return None
    cells = _pairs(contest, stage, record, kept=kept)
    order = [row.entry.pk for row in rows]
    return [
        {"row": row, "cells": [None if other == row.entry.pk else cells.get((row.entry.pk, other)) for other in order]}
        for row in rows
    ]


def head_to_head(
    contest: Contest, stage: Stage | None, entry: Entry, rows: list[Row], record: Record = LIVE, kept: bool = True
) -> list[dict] | None:
    """One entry's row of the crosstable, however large the table: each opponent it has met,
    in the standings' order, with the points each scored against the other and the games;
    None for a game that is not two seats."""
    if not _two_seats(contest, stage):
        return None
    cells = _pairs(contest, stage, record, entry=entry, kept=kept)
    return _met(entry, [row for row in rows if row.entry.pk != entry.pk and (entry.pk, row.entry.pk) in cells], cells)


def _met(entry: Entry, rows: list[Row], cells: dict[tuple[int, int], tuple[float, int]]) -> list[dict]:
    """Each of ``rows`` (opponents ``entry`` met) with the points each scored against the other
    and their games (``cells``: ``_pairs``)."""
    found = []
    for row in rows:
        mine = cells[(entry.pk, row.entry.pk)]
        theirs = cells.get((row.entry.pk, entry.pk), (0, 0))
        found.append({"row": row, "points": mine[0], "against": theirs[0], "games": mine[1]})
    return found


HISTORY_STEPS = 50


def history(contest: Contest, stage: Stage | None, rows: list[Row], record: Record = LIVE, top: int = 10) -> list[dict]:
    """Each of the ``top`` entries' points over the stage, for a chart: 0 at its start, then
    its total after each of at most ``HISTORY_STEPS`` equal slices of the finished games, in
    the order they finished."""
    chosen = {row.entry.pk: row.entry.name for row in rows[:top]}
    if not chosen:
        return []
    seats = record.seats(contest, stage).filter(entry_id__in=list(chosen))
    games = list(
        record.seats(contest, stage, current_only=False)
        .order_by(record.finished_at, "match_id")
        .values_list("match_id", flat=True)
        .distinct()
    )
    games = list(dict.fromkeys(games))  # one a match, in the order they finished
    if not games:
        return []
    step = max(1, -(-len(games) // HISTORY_STEPS))
    slice_of = {match_id: i // step for i, match_id in enumerate(games)}
    slices = -(-len(games) // step)
    gained = {pk: [0.0] * slices for pk in chosen}
    for entry_id, match_id, points in seats.values_list("entry_id", "match_id", "points").iterator():
        if match_id in slice_of:
            gained[entry_id][slice_of[match_id]] += points or 0.0
    lines = []
    for pk, name in chosen.items():
        total, points = 0.0, [0.0]  # from the start of the stage
        for value in gained[pk]:
            total += value
            points.append(round(total, 3))
        lines.append({"entry": pk, "name": name, "points": points})
    return lines


# --- How one match's result moves the standings (for the judges) -----------------------------


@dataclass
class Change:
    """One entry's place with the earlier result and with the newer one (None: not listed)."""

    entry: Entry
    before: Row | None
    after: Row | None

    @property
    def places_up(self) -> int:
        """How many places the newer result moved it up (down when negative)."""
        if self.before is None or self.after is None:
            return 0
        return self.before.rank - self.after.rank


@dataclass
class Comparison:
    before: Standings  # with the earlier attempt's result
    after: Standings  # with the newer attempt's result
    changes: list[Change]  # every entry listed in either, in the newer order


def _recorded(attempt: MatchAttempt | None, seats: list[MatchSeat]) -> list[tuple[MatchSeat, SeatRecord]]:
    """The seats' results as ``attempt`` recorded them (see judging.play.matches._result_json);
    none when it has no result."""
    by_index = {seat.index: seat for seat in seats}
    result = (attempt.result or {}) if attempt is not None else {}
    recorded = [r for r in result.get("seats", []) if r.get("index") in by_index]
    placed = places([r.get("points") for r in recorded], [r.get("status") or "" for r in recorded])
    return [
        (by_index[r["index"]], SeatRecord(r.get("points") or 0.0, r.get("score") or 0.0, r.get("status") or "",
                                          r.get("moves") or 0, r.get("detail") or "", r.get("wall_s") or 0.0, place))
        for r, place in zip(recorded, placed, strict=True)
    ]  # fmt: skip


def _held(seats: list[MatchSeat]) -> list[tuple[MatchSeat, SeatRecord]]:
    """The result the seats hold: the match's current one."""
    placed = places([s.points for s in seats], [s.status for s in seats])
    return [
        (s, SeatRecord(s.points or 0.0, s.score or 0.0, s.status, s.moves, s.detail, s.wall_seconds, place))
        for s, place in zip(seats, placed, strict=True)
    ]


def _tables(match: Match, attempts: list[MatchAttempt | None]) -> list[Standings]:
    """The standings of ``match``'s stage as they would be with each attempt's result counted
    for it instead of the current one. Every total is a sum over seats, so each is the
    current table less this match's current result plus the attempt's."""
    if any(a is not None and a.match_id != match.pk for a in attempts):
        raise ValueError(f"an attempt compared is not one of match {match.pk}'s")
    stage = match.stage
    columns = _columns(match.contest, match.stage)
    seats = list(match.seats.select_related("submission"))
    continuous = _continuous(stage)
    counted = {s.index for s in seats if not continuous or s.submission.is_active}
    tallies = {
        pk: _Tally(seats, games, values)
        for pk, (seats, games, values) in _tallies(match.contest, stage, columns).items()
    }
    if match.result_attempt_id is not None:  # take the current result out
        for seat, record in _held(seats):
            if seat.index in counted:
                tallies[seat.entry_id].add(record, columns, sign=-1)
    at_once = _contenders(stage)
    at_once = set(at_once.values_list("entry_id", flat=True) if isinstance(at_once, QuerySet) else at_once or ())
    entries = _listed(Q(pk__in=set(tallies) | {s.entry_id for s in seats} | at_once))
    progress = _progress(match.contest, stage)
    tables = []
    for attempt in attempts:
        these = {pk: _Tally(t.seats, t.games, dict(t.values)) for pk, t in tallies.items()}
        for seat, record in _recorded(attempt, seats):
            if seat.index in counted:
                these.setdefault(seat.entry_id, _Tally(0, 0, _empty(columns)))
                these[seat.entry_id].add(record, columns)
        listed = {pk: e for pk, e in entries.items() if pk in at_once or (pk in these and these[pk].seats > 0)}
        totals = {pk: (t.seats, t.games, t.values) for pk, t in these.items()}
        _apply_formulas(columns, match.contest, stage, totals, listed)
        ranked = _Ranked(Standings(columns, [], *progress), *_rank(columns, totals, _names(listed)), totals, listed)
        tables.append(ranked.shown(ranked.order))
    return tables


def with_result(match: Match, attempt: MatchAttempt | None) -> Standings | None:
    """The standings of ``match``'s stage had ``attempt``'s result been the one counted for it
    (None: had the match no result). None for a test game: it is in no standings."""
    if match.stage_id is None:
        return None
    return _tables(match, [attempt])[0]


def compare(match: Match, earlier: MatchAttempt | None, newer: MatchAttempt | None) -> Comparison | None:
    """The standings of ``match``'s stage with the earlier attempt's result and with the newer
    one's, entry by entry: what a re-run changed. None for a test game (in no standings)."""
    if match.stage_id is None:
        return None
    before, after = _tables(match, [earlier, newer])
    was = {row.entry.pk: row for row in before.rows}
    now = {row.entry.pk: row for row in after.rows}
    changes = [Change(row.entry, was.get(row.entry.pk), row) for row in after.rows]
    changes += [Change(row.entry, row, None) for row in before.rows if row.entry.pk not in now]
    return Comparison(before, after, changes)


# --- Who plays a stage ---------------------------------------------------------------------


def contenders(stage: Stage) -> list[tuple[Entry, Submission]]:
    """The active entries of the stage's contest with a ready, active submission (of those the
    stage names in its ``entries`` parameter, if it names them).

    With the stage parameter ``best_of_each_contestant`` (Hearts and Flowers: "only the
    highest-scoring program from each contestant will be allowed to proceed beyond the
    first round"), a contestant's entries are cut to the one ranked highest in the standings
    of the stages before this one. Reference programs are not contestants and all proceed.
    """
    ready = entrants.ready_submissions(stage.contest_id)
    if isinstance(stage.params.get("entries"), list):  # only the entries the judges named
        ready = ready.filter(entry_id__in=stage.params["entries"])
    # Without the logs: a ladder's standings list every contender at every read.
    ready = ready.select_related("entry").defer("build_log", "test_log", "entry__form_data")
    pairs = [(s.entry, s) for s in ready.order_by("entry_id")]
    if stage.params.get("best_of_each_contestant"):
        pairs = _best_of_each_contestant(stage, pairs)
    if stage.params.get("top"):
        pairs = _top_of_earlier_stages(stage, pairs, int(stage.params["top"]))
    return pairs


def earlier_ranks(stage: Stage) -> dict[int, int]:
    earlier = (
        stage.contest.stages.filter(order__lt=stage.order)
        .exclude(kind__in=formats.uncounted_kinds())
        .exclude(status=Stage.Status.CANCELLED)
    )
    rank: dict[int, int] = {}
    for previous in earlier.order_by("order"):
        for row in compute(stage.contest, previous).rows:
            rank[row.entry.pk] = row.rank  # the latest earlier stage decides
    return rank


def _top_of_earlier_stages(
    stage: Stage, pairs: list[tuple[Entry, Submission]], top: int
) -> list[tuple[Entry, Submission]]:
    """The ``top`` best of the stages before (CodeCup: the best 36 of the Swiss rounds)."""
    rank = earlier_ranks(stage)
    ranked = sorted((p for p in pairs if p[0].pk in rank), key=lambda p: (rank[p[0].pk], p[0].pk))
    return sorted(ranked[:top], key=lambda p: p[0].pk)


def _best_of_each_contestant(stage: Stage, pairs: list[tuple[Entry, Submission]]) -> list[tuple[Entry, Submission]]:
    """A contestant's best-ranked entry of the stages before; an entry that played none of
    them does not proceed (it has no rank to be the best by)."""
    rank = earlier_ranks(stage)
    played_before = (
        stage.contest.stages.filter(order__lt=stage.order)
        .exclude(kind__in=formats.uncounted_kinds())
        .exclude(status=Stage.Status.CANCELLED)
        .exists()
    )
    best: dict[int, tuple[Entry, Submission]] = {}
    kept = []
    for entry, submission in pairs:
        if entry.is_reference:
            kept.append((entry, submission))
            continue
        if played_before and entry.pk not in rank:
            continue
        current = best.get(entry.user_id)
        if current is None or rank.get(entry.pk, 10**9) < rank.get(current[0].pk, 10**9):
            best[entry.user_id] = (entry, submission)
    return sorted(kept + list(best.values()), key=lambda pair: pair[0].pk)
