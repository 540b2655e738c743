"""The check the kept standings must pass: every table read from the kept totals equals the
one added up from the seats (``kept=False``, the reference), live and, while frozen, public;
and each stage's kept count of matches by state is its matches counted."""

from __future__ import annotations

from django.db import connection

from contests.models import Contest
from judging.record import counts, standings


def analyze_as_it_is() -> None:
    """PostgreSQL's statistics as the test's own transaction sees the tables (a no-op on SQLite).

    A stateful test adds thousands of rows in one transaction that never commits; autovacuum
    had analysed the tables after earlier tests of the suite, when they were empty, so the
    planner took them for empty and joined the seats and matches by nested scans: one standings
    query took 2.5 s, and the judges' sequences over 15 minutes in the suite (97 s alone, on a
    fresh database never analysed). ANALYZE in the transaction samples the rows it sees."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _rows(table: standings.Standings) -> list[tuple]:
    return [(r.rank, r.entry.pk, r.games, {k: round(v, 6) for k, v in r.values.items()}) for r in table.rows]


def _met(found: list[dict] | None) -> list[tuple] | None:
    if found is None:
        return None
    return [(f["row"].entry.pk, round(f["points"], 6), round(f["against"], 6), f["games"]) for f in found]


def assert_counts_as_counted(contest: Contest) -> None:
    stages = list(contest.stages.values_list("pk", flat=True))
    kept = {pk: found for pk, found in counts.of_stages(stages).items() if found != counts.Progress()}
    assert kept == counts.counted(stages), "the kept counts of matches"


def assert_kept_as_counted(contest: Contest, opponents: bool = True) -> None:
    """With ``opponents``, each entry's head-to-head too (two queries an entry)."""
    contest = Contest.objects.get(pk=contest.pk)
    assert_counts_as_counted(contest)
    records = [standings.LIVE] + ([standings.FROZEN] if contest.standings_frozen_at is not None else [])
    for stage in [None, *contest.stages.order_by("order")]:
        for record in records:
            kept, counted = (standings.compute(contest, stage, record, kept=k) for k in (True, False))
            where = f"{stage or 'the contest'}, {'frozen' if record.frozen else 'live'}"
            assert _rows(kept) == _rows(counted), where
            assert (kept.finished, kept.total) == (counted.finished, counted.total), where
            for row in counted.rows if opponents else []:
                mine, reference = (
                    _met(standings.head_to_head(contest, stage, row.entry, counted.rows, record, kept=k))
                    for k in (True, False)
                )
                assert mine == reference, f"{where}: {row.entry.name}'s opponents"
