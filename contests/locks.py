"""Row locks, taken in one order by every writer of the database.

A writer takes row locks in this order, and only this order: contestant, contest, versus
(a versus batch, whose step then cancels its queued games: ``judging.schedule.versus``), stage, match,
attempt, submission, the kept standings' totals and pairs (tally, pair), the kept counts
of matches (count), and a stage's stored ratings (rating: its fits take turns on it, nothing
else held). Two writers that lock the same rows can then never wait
on each other in a circle (a deadlock PostgreSQL would end by failing one of them). Every
lock goes through ``lock`` inside ``writing()``, which checks the order and raises
``LockOrderError`` on a lock taken after one that comes later (a row already held may be
locked again). A result's writer adds to the kept standings' rows (``judging.record.tallies``) after all its
other locks, in one statement in the order of their keys; only their rebuild locks them here.
A writer adds to one row of a stage's kept count (``judging.record.counts``), its own, as it moves a
match; only the count's rebuild, one stage at a time and nothing else held, locks them here.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

from django.db import transaction
from django.db.models import Model, QuerySet

ORDER = (
    "contestant",
    "contest",
    "versus",
    "stage",
    "match",
    "attempt",
    "submission",
    "tally",
    "pair",
    "count",
    "rating",
)


class LockOrderError(RuntimeError):
    """A writer locked rows against the one order (a bug: it could deadlock with another)."""


_held: contextvars.ContextVar[list[tuple[int, int]] | None] = contextvars.ContextVar("arbiter_locks", default=None)


@contextlib.contextmanager
def writing() -> Iterator[None]:
    """A writer's transaction: atomic, with every lock it takes checked against ``ORDER``. A
    writer called inside another's transaction shares its locks (they are held till the end)."""
    if _held.get() is not None:
        with transaction.atomic():
            yield
        return
    token = _held.set([])
    try:
        with transaction.atomic():
            yield
    finally:
        _held.reset(token)


def lock(kind: str, rows: QuerySet, *, skip_held: bool = False) -> list[Model]:
    """Lock ``rows`` (of the kind named, in ``ORDER``) for the rest of the writer's transaction,
    in primary-key order, and return them; with ``skip_held``, leave out (SKIP LOCKED) the rows
    another transaction holds rather than wait for them."""
    held = _held.get()
    if held is None:
        raise LockOrderError(f"{kind} rows locked outside a writer's transaction (contests.locks.writing)")
    rank = ORDER.index(kind)
    found = list(rows.select_for_update(of=("self",), skip_locked=skip_held).order_by("pk"))
    new = [row.pk for row in found if (rank, row.pk) not in held]
    later = [r for r, _ in held if r > rank]
    if new and later:
        raise LockOrderError(
            f"{kind} locked after {ORDER[max(later)]}: every writer locks in the order {', '.join(ORDER)}"
        )
    held.extend((rank, pk) for pk in new)
    return found


def lock_one(kind: str, rows: QuerySet) -> Model:
    """The one row of ``rows``, locked (DoesNotExist if there is none)."""
    found = lock(kind, rows)
    if not found:
        raise rows.model.DoesNotExist(f"no such {kind}")
    return found[0]
