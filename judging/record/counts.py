"""The kept count of each stage's matches by state, so that "120 of 40,000 games played"
reads a few rows whatever the number of games (``MatchCount``).

Whatever makes a match of a stage, moves one to another state or deletes one calls
``moved`` in the same transaction: ``scheduling.create_match``, ``lifecycle`` (re-runs,
cancellations, failures), ``matches.write_result``. A queued and a running match are both
``open``, so the busiest writers change nothing here: a claim (queued -> running) and a
platform fault that queues a match again (running -> queued).

No hot row. A stage has up to ``SHARDS`` rows; a writer adds to the row of its process (or
thread), by one ``INSERT ... ON CONFLICT DO UPDATE`` for every stage it touched at once, and
holds that row until it commits. Two workers finishing games of one stage add to different
rows unless their process numbers fall on the same row, and then only one waits for the
other's commit (a result's transaction moves its match to finished after its replay is
saved: the row is held from then to the commit). A transaction writes one row a stage, so
writers of one stage cannot wait on each other in a circle.

The reference is the matches themselves (``counted``); ``rebuild`` compares each stage's
sum with it and adds the difference, one stage a transaction.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, QuerySet, Sum

from contests.locks import lock, writing
from contests.models import Contest, Stage
from judging.models import Match, MatchCount

__all__ = [
    "SHARDS", "STATES", "Progress", "by_status", "changed", "counted", "listed", "moved", "of_stages", "rebuild", "summed",
]  # fmt: skip

SHARDS = 16
STATES = ("open", "finished", "failed", "cancelled")
OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)

# (contest, stage, was, now): one match of that stage moved from ``was`` to ``now`` (None: it
# did not exist before, or no longer does).
Move = tuple[int, int | None, str | None, str | None]


def state(status: str) -> str:
    """The kept count a match's status adds to."""
    return "open" if status in OPEN else status


@dataclass(frozen=True)
class Progress:
    open: int = 0
    finished: int = 0
    failed: int = 0
    cancelled: int = 0

    @property
    def total(self) -> int:
        """Every match but the cancelled ones: the games scheduled."""
        return self.open + self.finished + self.failed


def _shard() -> int:
    return threading.get_native_id() % SHARDS  # the main thread's id is its process's


def moved(moves: Iterable[Move]) -> None:
    """Add these matches' moves to their stages' kept counts, in one statement (a test game,
    of no stage, is in none)."""
    deltas: dict[tuple[int, int], Counter[str]] = {}
    for contest_id, stage_id, was, now in moves:
        if stage_id is None or (was is not None and now is not None and state(was) == state(now)):
            continue
        delta = deltas.setdefault((stage_id, contest_id), Counter())
        if was is not None:
            delta[state(was)] -= 1
        if now is not None:
            delta[state(now)] += 1
    _add({key: delta for key, delta in deltas.items() if any(delta.values())}, _shard())


def changed(match: Match, was: str | None) -> None:
    """``match`` has just moved from ``was`` (None: it was just made) to its status."""
    moved([(match.contest_id, match.stage_id, was, match.status)])


def _add(deltas: dict[tuple[int, int], Counter[str]], shard: int) -> None:
    if not deltas:
        return
    quote = connection.ops.quote_name
    table, states = quote(MatchCount._meta.db_table), [quote(s) for s in STATES]
    added = ", ".join(f"{s} = {table}.{s} + excluded.{s}" for s in states)
    row = "(" + ", ".join(["%s"] * (3 + len(STATES))) + ")"
    ordered = sorted(deltas.items())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (stage_id, contest_id, shard, {', '.join(states)}) "
            f"VALUES {', '.join([row] * len(ordered))} "
            f"ON CONFLICT (stage_id, shard) DO UPDATE SET {added}",
            [v for (stage, contest), d in ordered for v in (stage, contest, shard, *(d[s] for s in STATES))],
        )


def summed(rows: QuerySet[MatchCount]) -> Progress:
    """The counts of the stages whose rows these are, added up."""
    found = rows.aggregate(**{s: Sum(s) for s in STATES})
    return Progress(**{s: found[s] or 0 for s in STATES})


def of_stages(stage_ids: Iterable[int]) -> dict[int, Progress]:
    """Each stage's kept count (a stage with no match: none)."""
    rows = MatchCount.objects.filter(stage_id__in=list(stage_ids)).order_by().values("stage_id")
    return {r.pop("stage_id"): Progress(**r) for r in rows.annotate(**{s: Sum(s) for s in STATES})}


def by_status(stage_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Each stage's matches by status, as the pages and the API show them: the kept counts,
    and the running ones counted (a worker's slot each, however long the history) to tell
    them from the queued."""
    stage_ids = list(stage_ids)
    kept = of_stages(stage_ids)
    running = dict(
        Match.objects.filter(stage_id__in=stage_ids, status=Match.Status.RUNNING)
        .order_by()
        .values("stage_id")
        .annotate(n=Count("pk"))
        .values_list("stage_id", "n")
    )
    found = {}
    for pk in stage_ids:
        have, playing = kept.get(pk, Progress()), running.get(pk, 0)
        found[pk] = {
            "played": have.finished,
            "total": have.total,
            "queued": have.open - playing,
            "running": playing,
            "failed": have.failed,
            "cancelled": have.cancelled,
        }
    return found


def listed(
    contests: QuerySet[Contest] | list[int], stage_id: int | None = None, status: str | None = None
) -> int | None:
    """How many matches the stages of ``contests`` hold (of one stage, in one status, if
    named), from their kept counts; None for queued or running, which they keep together."""
    if status in OPEN:
        return None
    rows = MatchCount.objects.filter(contest__in=contests)
    found = summed(rows.filter(stage_id=stage_id) if stage_id is not None else rows)
    return getattr(found, status) if status else found.total + found.cancelled


# --- From scratch: the reference ------------------------------------------------------------


def counted(stage_ids: Iterable[int]) -> dict[int, Progress]:
    """Each stage's matches counted by state, from the matches themselves."""
    found: dict[int, Counter[str]] = {}
    grouped = (
        Match.objects.filter(stage_id__in=list(stage_ids))
        .order_by()
        .values("stage_id", "status")
        .annotate(n=Count("pk"))
    )
    for g in grouped:
        found.setdefault(g["stage_id"], Counter())[state(g["status"])] += g["n"]
    return {pk: Progress(**{s: c[s] for s in STATES}) for pk, c in found.items()}


def rebuild(contest: Contest | None = None) -> list[str]:
    """Compare each stage's kept count (of one contest, or all) with its matches counted, and
    add the difference: one stage a transaction, its rows locked first (a writer meanwhile
    waits, then adds its own move to the rebuilt count). What differed, in words."""
    stages = Stage.objects.order_by("pk").select_related("contest")
    differences = []
    for stage in stages.filter(contest=contest) if contest is not None else stages:
        with writing():
            lock("count", MatchCount.objects.filter(stage=stage))
            kept = of_stages([stage.pk]).get(stage.pk, Progress())
            now = counted([stage.pk]).get(stage.pk, Progress())
            if kept == now:
                continue
            differences.append(
                f"matches of {stage.contest.slug}, {stage.name} (stage {stage.pk}): kept "
                + ", ".join(f"{getattr(kept, s)} {s}" for s in STATES)
                + "; counted "
                + ", ".join(f"{getattr(now, s)} {s}" for s in STATES)
            )
            delta = Counter({s: getattr(now, s) - getattr(kept, s) for s in STATES})
            _add({(stage.pk, stage.contest_id): delta}, 0)
    return differences
