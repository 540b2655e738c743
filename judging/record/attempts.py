"""Two attempts of one match side by side, for its judges: each attempt keeps its own replay
(``Match.save_replay``), so a re-run can be read against the result it replaced, move by move.

What is compared is what a deterministic program makes again (``Game.reproduced``: each move
or fault in order, and the result), never a time: two attempts agree when their programs
played the same game. Returns data; the match page renders it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import registry
from judging.models import Match, MatchAttempt, read_replay


@dataclass
class Line:
    """One move of the comparison: its number (from 1) and each attempt's move in words ("" if
    that attempt has no such move)."""

    number: int
    a: str
    b: str
    differs: bool


@dataclass
class Compared:
    a: MatchAttempt
    b: MatchAttempt
    lines: list[Line]
    first: int | None  # the number of the first move that differs; None if every move agrees
    said: str  # the comparison in one sentence


def _played(move: list[Any]) -> str:
    """A reproduced move ([seat, move, status]) in words: "seat 0: c3", or its fault."""
    seat, played, status = (list(move) + [None, None, None])[:3]
    who = "the program" if seat is None else f"seat {seat}"
    return f"{who}: {played}" if played is not None else f"{who}: {status or 'no move'}"


def _result(reproduced: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in reproduced.items() if key != "moves"}


def compare(match: Match, a: MatchAttempt, b: MatchAttempt) -> Compared:
    """Attempts ``a`` and ``b`` of ``match``, move by move, with the first move that differs
    named. An attempt whose replay was not kept (it ended without one: a fault, a call-off, a
    full disk) is said to have none."""
    game = registry.get(match.contest.game)
    replays = {attempt.pk: read_replay(attempt.replay) for attempt in (a, b)}
    missing = [attempt.number for attempt in (a, b) if replays[attempt.pk] is None]
    if missing:
        which = " and ".join(f"attempt {n}" for n in missing)
        return Compared(
            a, b, [], None, f"Nothing to compare: {which} kept no replay (it did not play the game to its end)."
        )
    ra, rb = (game.reproduced(replays[attempt.pk]) for attempt in (a, b))
    ma, mb = ra.get("moves") or [], rb.get("moves") or []
    lines, first = [], None
    for n in range(max(len(ma), len(mb))):
        x, y = (ma[n] if n < len(ma) else None), (mb[n] if n < len(mb) else None)
        differs = x != y
        if differs and first is None:
            first = n + 1
        lines.append(Line(n + 1, _played(x) if x is not None else "", _played(y) if y is not None else "", differs))
    return Compared(a, b, lines, first, _sentence(a, b, ma, mb, first, _result(ra) == _result(rb)))


def _sentence(a: MatchAttempt, b: MatchAttempt, ma: list, mb: list, first: int | None, same_result: bool) -> str:
    names = f"attempts {a.number} and {b.number}"
    if first is None:
        moves = f"the same {len(ma)} move{'s' if len(ma) != 1 else ''}"
        if same_result:
            return f"The {names} agree: {moves} and the same result."
        return f"The {names} played {moves}, but their results differ (see each attempt's result above)."
    if first > min(len(ma), len(mb)):  # one went on where the other had stopped
        longer, shorter = (a, b) if len(ma) > len(mb) else (b, a)
        return (
            f"The {names} agree on their first {first - 1} moves; move {first} is attempt {longer.number}'s alone "
            f"(attempt {shorter.number} has {min(len(ma), len(mb))} moves, attempt {longer.number} {max(len(ma), len(mb))})."
        )
    return (
        f"Move {first} is the first that differs: attempt {a.number}, {_played(ma[first - 1])}; "
        f"attempt {b.number}, {_played(mb[first - 1])}."
    )
