"""A game's result in the contestant's words, for every page and the API.

The platform keeps one vocabulary of seat statuses (``games.base``: win, loss, illegal...)
and the game's own name beside it (``detail``: CodeCup's NO_SOLUTIONS_LEFT). Neither is for
reading: here a seat's result becomes "lost: left no solution (move 23)", a race's seat "2nd
of 3: finished 1.2 s after the winner", and a match, seen from one of its entries, "won
against Bob" or "lost to Bob: crashed (move 1)". Each game translates its own words in
``Game.result_words`` (docs/games.md has the tables).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games.base import BYE, CRASH, DRAW, EXIT, FAULTS, ILLEGAL, LOSS, TIMEOUT, VALID, WIN, BatchGame, Game

STATUS_WORDS = {
    WIN: gettext_lazy("won"),
    LOSS: gettext_lazy("lost"),
    DRAW: gettext_lazy("drew"),
    VALID: gettext_lazy("valid output"),
    ILLEGAL: gettext_lazy("illegal move"),
    TIMEOUT: gettext_lazy("out of time"),
    CRASH: gettext_lazy("crashed"),
    EXIT: gettext_lazy("stopped before the game ended"),
    BYE: gettext_lazy("bye"),
}
MOVE = re.compile(r"^move (\d+):")
# A program's faults counted: "2 crashes, 1 timeout", in the reader's language when called.
FAULT_NOUNS = {
    CRASH: lambda n: ngettext("%(n)s crash", "%(n)s crashes", n) % {"n": n},
    TIMEOUT: lambda n: ngettext("%(n)s timeout", "%(n)s timeouts", n) % {"n": n},
    ILLEGAL: lambda n: ngettext("%(n)s illegal move", "%(n)s illegal moves", n) % {"n": n},
    EXIT: lambda n: ngettext("%(n)s early exit", "%(n)s early exits", n) % {"n": n},
}


# An output-only game's program makes no moves: its one "illegal" is an output the verifier refused.
BATCH_NOUNS = {ILLEGAL: lambda n: ngettext("%(n)s refused output", "%(n)s refused outputs", n) % {"n": n}}


def counted(status: str, n: int, game: Game | None = None) -> str:
    nouns = {**FAULT_NOUNS, **BATCH_NOUNS} if isinstance(game, BatchGame) else FAULT_NOUNS
    said = nouns.get(status)
    return said(n) if said is not None else f"{n} {status}"


# The English suffixes, each translated by itself (Dutch writes every one "e": 1e, 2e, 3e).
SUFFIXES = {
    "st": pgettext_lazy("ordinal suffix", "st"),
    "nd": pgettext_lazy("ordinal suffix", "nd"),
    "rd": pgettext_lazy("ordinal suffix", "rd"),
    "th": pgettext_lazy("ordinal suffix", "th"),
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{SUFFIXES[suffix]}"


DETAIL_CHARS = 200  # of a fault's reason in a notification's line: its page has the whole


def fault_detail(seat: Any) -> str:
    """What went wrong, in the referee's or the verifier's words ("not a square of the board",
    "line 1: the total is 17, not 22"): the first line of the seat's reason, less the move the
    words before it already name; "" if it gave none. A notification said "illegal move (move
    1)" and "output.txt refused by the verifier" without it."""
    reason = (seat.reason or "").strip().splitlines()
    if not reason:
        return ""
    line = MOVE.sub("", reason[0]).strip()
    return line if len(line) <= DETAIL_CHARS else line[: DETAIL_CHARS - 1] + "…"


def _own_words(game: Game, seat: Any) -> str:
    """What the game says of this seat beyond its status, translated; "" if nothing more."""
    detail = seat.detail or ""
    if not detail or detail.lower() == seat.status:
        return ""
    words = game.result_words.get(detail, detail)
    return "" if words == STATUS_WORDS.get(seat.status) else words


def _at_move(game: Game, seat: Any) -> str:
    """The move its own mistake ended the game at, as " (move 23)"; "" if none."""
    if seat.status not in FAULTS and not _own_words(game, seat):
        return ""
    found = MOVE.match(seat.reason or "")
    return " " + gettext("(move %(move)s)") % {"move": found.group(1)} if found else ""


def _ranked(game: Game, seats: Sequence[Any]) -> bool:
    """A race (any number of seats, trial laps of two) or a game of more than two: by place."""
    return game.info.seats == 0 or len(seats) > 2


def _place(seat: Any, seats: Sequence[Any]) -> int:
    return 1 + sum(1 for other in seats if (other.points or 0) > (seat.points or 0))


def seat_words(game: Game, seat: Any, seats: Sequence[Any] | None = None) -> str:
    """One seat's result: "won", "lost: left no solution (move 23)", "crashed (move 1)", a
    race's "2nd of 3: finished 1.2 s after the winner" (its place only given ``seats``, the
    match's). "" before it is played."""
    if not seat.status:
        return ""
    own = _own_words(game, seat)
    if (
        seats is not None and _ranked(game, seats) and seat.status != BYE
    ):  # a race: its place says more than won or lost
        place = gettext("%(place)s of %(seats)s") % {"place": ordinal(_place(seat, seats)), "seats": len(seats)}
        return f"{place}: {own}" if own else f"{place}: {STATUS_WORDS.get(seat.status, seat.status)}"
    words = STATUS_WORDS.get(seat.status, seat.status)
    if own and seat.status in (WIN, LOSS, DRAW, VALID):
        words = f"{words}: {own}"
    elif own:
        words = own
    if seat.status == VALID and seat.points is not None:
        words = gettext("%(words)s, %(points)s points") % {"words": words, "points": f"{seat.points:g}"}
    return words + _at_move(game, seat)


def summary(game: Game, seats: Sequence[Any], entry_id: int | None = None) -> str:
    """A match in one line: from ``entry_id``'s side if it played ("won against Bob", "lost
    to Bob: crashed (move 1)"), else as a bystander reads it ("Alice won against Bob"). ""
    while unplayed or hidden."""
    seats = sorted(seats, key=lambda seat: seat.index)
    if not seats or not all(seat.status for seat in seats):
        return ""
    mine = next((seat for seat in seats if seat.entry_id == entry_id), None)
    if sum(seat.entry_id == entry_id for seat in seats) > 1:  # its versions against each other: told as a bystander
        mine = None
    if len(seats) == 1:
        words = seat_words(game, seats[0], seats)
        return words if mine is not None else f"{seats[0].entry.name}: {words}"
    if _ranked(game, seats):
        if mine is not None:
            return seat_words(game, mine, seats)
        best = min(seats, key=lambda seat: _place(seat, seats))
        return gettext("%(entry)s first of %(seats)s") % {"entry": best.entry.name, "seats": len(seats)}
    if mine is not None:
        other = seats[1 - seats.index(mine)]
        return _from_side(game, mine, other, seats)
    won = [seat for seat in seats if seat.status == WIN]
    if len(won) == 1:
        loser = seats[1 - seats.index(won[0])]
        return f"{seat_name(won[0], seats)} {_from_side(game, won[0], loser, seats)}"
    if all(seat.status == DRAW for seat in seats):
        return gettext("%(first)s and %(second)s drew") % {
            "first": seat_name(seats[0], seats),
            "second": seat_name(seats[1], seats),
        }
    return "; ".join(f"{seat_name(seat, seats)}: {seat_words(game, seat, seats)}" for seat in seats)


def seat_name(seat: Any, seats: Sequence[Any]) -> str:
    """Who sat in the seat: its entry's name, and its version when another seat of the game is
    the same entry's ("carol v3" against "carol v2": a versus batch against an earlier version
    read "won against carol · carol ate the poison cookie"), or its seat when the same version."""
    same = [other for other in seats if other.entry_id == seat.entry_id]
    if len(same) < 2:
        return seat.entry.name
    if len({other.submission_id for other in same}) == len(same):
        return f"{seat.entry.name} v{seat.submission.number}"
    return gettext("%(entry)s (seat %(seat)s)") % {"entry": seat.entry.name, "seat": seat.index}


def _from_side(game: Game, mine: Any, other: Any, seats: Sequence[Any]) -> str:
    name = seat_name(other, seats)
    if mine.status == WIN:
        theirs = seat_words(game, other, seats)
        told = other.status in FAULTS or _own_words(game, other)
        if told:
            return gettext("won against %(name)s (%(name)s %(theirs)s)") % {"name": name, "theirs": theirs}
        return gettext("won against %(name)s") % {"name": name}
    if mine.status == DRAW:
        return gettext("drew with %(name)s") % {"name": name}
    if mine.status == BYE:
        return gettext("a bye")
    words = seat_words(game, mine, seats)
    if mine.status == LOSS:
        words = words.removeprefix(str(STATUS_WORDS[LOSS])).removeprefix(":").strip()
        if not words:
            return gettext("lost to %(name)s") % {"name": name}
    return gettext("lost to %(name)s: %(words)s") % {"name": name, "words": words}


def stderr_tail(match: Any, index: int, lines: int = 10) -> str:
    """The last ``lines`` lines its program at seat ``index`` wrote to standard error in the
    match (the replay's: its moves', its race seat's or its run's), for its owner and the
    judges: a crash at move 1 shows its traceback where the result is read. "" if none."""
    try:
        replay = match.load_replay()
    except (OSError, ValueError):
        return ""
    if not replay:
        return ""
    seats = replay.get("seats") or []
    written = [m.get("stderr") or "" for m in replay.get("moves", []) if m.get("seat") == index]
    if index < len(seats) and seats[index].get("stderr"):
        written.append(seats[index]["stderr"])
    if index == 0 and replay.get("stderr"):
        written.append(replay["stderr"])
    text = "".join(written).rstrip("\n")
    return "\n".join(text.splitlines()[-lines:])
