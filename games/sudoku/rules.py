"""CodeCup 2024 Sudoku (../shared/rules/codecup-sudoku.txt).

Two players fill an empty 9 x 9 sudoku, one digit a move; every move must strictly
decrease the number of solutions. A player claims that a single solution is left with a
move followed by ``!`` (``Dg7!``) or, after the opponent's move, with ``!`` alone. Rows are
A to I, columns a to i.

Judgement of a move, as the page scores it (winner 2 points):
    unparsable, on an occupied cell                      ILLEGAL                0-2
    digit already in its row, column or box              DOUBLED_SOMEWHERE      0-2
    leaves no solution                                   NO_SOLUTIONS_LEFT      1-2
    does not decrease the number of solutions            NO_SOLUTION_DECREASED  1-2
    a claim of uniqueness that is false                  NO_UNIQUE_CLAIM        0-2
    a claim that is true                                 WIN                    2-1
and, from the referee: a crash CRASH and an early exit EXIT (0-2), running out of time
TIMEOUT (1-2). The other seat's status is WIN, or LOSE when it lost to a true claim.

These CodeCup names are each seat's detail; its status is the platform's word for it
(``STATUS``): the mistakes that break the rules are faults (illegal, timeout, crash, exit),
the others (a move that leaves no solution, a false claim) are losses, as CodeCup counted
only the first kind as irregular.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import (
    CRASH,
    EXIT,
    ILLEGAL,
    LOSS,
    TIMEOUT,
    WIN,
    Column,
    GameInfo,
    GameResult,
    Illegal,
    LineProtocol,
    TurnGame,
    count_status,
    total_points,
)
from games.sudoku import native

ROWS = "ABCDEFGHI"
COLS = "abcdefghi"
MOVE = re.compile(r"^([A-I])([a-i])([1-9])(!?)$")

# Points of the seat at fault; the other seat gets 2.
FAULT_POINTS = {
    "ILLEGAL": 0.0,
    "DOUBLED_SOMEWHERE": 0.0,
    "NO_UNIQUE_CLAIM": 0.0,
    "CRASH": 0.0,
    "EXIT": 0.0,
    "NO_SOLUTIONS_LEFT": 1.0,
    "NO_SOLUTION_DECREASED": 1.0,
    "TIMEOUT": 1.0,
}
# The platform's status of each CodeCup result.
STATUS = {
    "WIN": WIN,
    "LOSE": LOSS,
    "NO_SOLUTIONS_LEFT": LOSS,
    "NO_SOLUTION_DECREASED": LOSS,
    "NO_UNIQUE_CLAIM": LOSS,
    "ILLEGAL": ILLEGAL,
    "DOUBLED_SOMEWHERE": ILLEGAL,
    "TIMEOUT": TIMEOUT,
    "CRASH": CRASH,
    "EXIT": EXIT,
}


@dataclass(frozen=True)
class Place:
    cell: int  # 0..80, row by row
    digit: int
    claim: bool = False


@dataclass(frozen=True)
class Claim:
    """``!``: the opponent's move left a single solution."""


Move = Place | Claim


@dataclass(frozen=True)
class SudokuState:
    grid: bytes = bytes(81)
    turn: int = 0
    moves: int = 0
    result: tuple[str, str] | None = None
    reason: str = ""
    last: str = ""


def cell_name(cell: int) -> str:
    return ROWS[cell // 9] + COLS[cell % 9]


def peers_hold(grid: bytes, cell: int, digit: int) -> str | None:
    """Where ``digit`` already stands in the cell's row, column or box, or None."""
    r, c = divmod(cell, 9)
    for i in range(9):
        if grid[r * 9 + i] == digit:
            return "row"
        if grid[i * 9 + c] == digit:
            return "column"
    br, bc = r - r % 3, c - c % 3
    if any(grid[rr * 9 + cc] == digit for rr in range(br, br + 3) for cc in range(bc, bc + 3)):
        return "box"
    return None


class Sudoku(TurnGame[SudokuState, Move]):
    info = GameInfo(name="sudoku", title="CodeCup Sudoku", version=1, seats=2, params=())
    interaction = LineProtocol(start="Start", quit="Quit")
    # "each player gets 30 seconds for the whole game", measured as the answering time
    # CodeCup's technical rules name no memory figure; its strong entries allocate tables of
    # 512 MiB and more, which its machines had: 1536 MB, as the demo contest gives.
    default_clock = {"time_limit": 30, "measure": "wall", "memory_mb": 1536}
    result_words = {
        "WIN": "won",
        "LOSE": "lost",
        "NO_SOLUTIONS_LEFT": "left no solution",
        "NO_SOLUTION_DECREASED": "a move that did not decrease the number of solutions",
        "NO_UNIQUE_CLAIM": "claimed a single solution where more were left",
        "ILLEGAL": "illegal move",
        "DOUBLED_SOMEWHERE": "a digit twice in a row, column or box",
        "TIMEOUT": "out of time",
        "CRASH": "crashed",
        "EXIT": "stopped before the game ended",
    }
    original_table = "codecup"  # its compilers and flags: -O2 -march=native, C++20, rustc target-cpu=native
    standings = (
        Column("points", "Points", total_points),
        Column("irregular", "Irregular losses", count_status(ILLEGAL, TIMEOUT, CRASH, EXIT), higher_is_better=False),
        Column("wins", "Wins", count_status(WIN)),
    )

    def initial_state(self, params: Mapping[str, int], seed: int) -> SudokuState:
        self.resolve_params(params)
        return SudokuState()

    def to_move(self, state: SudokuState) -> int | None:
        return None if state.result is not None else state.turn

    def legal_moves(self, state: SudokuState) -> list[Move]:
        """Every move the rules let a program make without an easy mistake (a digit on an
        empty cell that its row, column and box do not hold) and the claim; whether a move
        leaves solutions or decreases their number is judged when it is applied."""
        if state.result is not None:
            return []
        moves: list[Move] = [Claim()] if state.moves else []
        for cell in range(81):
            if state.grid[cell] == 0:
                moves += [Place(cell, d) for d in range(1, 10) if peers_hold(state.grid, cell, d) is None]
        return moves

    def parse_move(self, state: SudokuState, text: str) -> Move | Illegal:
        if text == "!":
            return Claim()
        m = MOVE.match(text)
        if m is None:
            return Illegal(f"{text[:40]!r} is not a move (like Dg7, Dg7! or !)", ILLEGAL, "ILLEGAL")
        cell = ROWS.index(m.group(1)) * 9 + COLS.index(m.group(2))
        digit = int(m.group(3))
        if state.grid[cell]:
            return Illegal(f"{text}: {cell_name(cell)} already holds {state.grid[cell]}", ILLEGAL, "ILLEGAL")
        where = peers_hold(state.grid, cell, digit)
        if where:
            return Illegal(f"{text}: its {where} already holds a {digit}", ILLEGAL, "DOUBLED_SOMEWHERE")
        return Place(cell, digit, claim=bool(m.group(4)))

    def move_text(self, state: SudokuState, move: Move) -> str:
        if isinstance(move, Claim):
            return "!"
        return f"{cell_name(move.cell)}{move.digit}{'!' if move.claim else ''}"

    def apply(self, state: SudokuState, move: Move) -> SudokuState:
        seat = state.turn
        text = self.move_text(state, move)
        moves = state.moves + 1
        if isinstance(move, Claim):
            if native.count(state.grid) == 1:
                return self._end(
                    state, seat, "WIN", f"move {moves}: seat {seat} rightly claimed a single solution", text
                )
            return self._end(
                state, seat, "NO_UNIQUE_CLAIM", f"move {moves}: ! but more than one solution is left", text
            )
        grid = bytearray(state.grid)
        grid[move.cell] = move.digit
        grid = bytes(grid)
        after = native.count(grid)
        if after == 0:
            return self._end(state, seat, "NO_SOLUTIONS_LEFT", f"move {moves}: {text} leaves no solution", text, grid)
        if native.count(state.grid, limit=1, exclude=(move.cell, move.digit)) == 0:
            reason = f"move {moves}: {text} does not decrease the number of solutions (the cell could only hold {move.digit})"
            return self._end(state, seat, "NO_SOLUTION_DECREASED", reason, text, grid)
        if move.claim:
            if after == 1:
                return self._end(
                    state, seat, "WIN", f"move {moves}: {text} left a single solution, rightly claimed", text, grid
                )
            return self._end(
                state, seat, "NO_UNIQUE_CLAIM", f"move {moves}: {text} claimed, but solutions remain", text, grid
            )
        return replace(state, grid=grid, turn=1 - seat, moves=moves, last=text)

    def _end(
        self, state: SudokuState, seat: int, status: str, reason: str, text: str, grid: bytes | None = None
    ) -> SudokuState:
        result = ["", ""]
        if status == "WIN":
            result[seat], result[1 - seat] = "WIN", "LOSE"
        else:
            result[seat], result[1 - seat] = status, "WIN"
        return replace(
            state,
            grid=grid if grid is not None else state.grid,
            moves=state.moves + 1,
            result=(result[0], result[1]),
            reason=reason,
            last=text,
        )

    def outcome(self, state: SudokuState) -> GameResult | None:
        if state.result is None:
            return None
        return self._outcome(state.result, state.reason)

    def _outcome(self, names: tuple[str, ...], reason: str) -> GameResult:
        points = tuple(self._points(name) for name in names)
        return GameResult(points, points, tuple(STATUS[name] for name in names), reason, names)

    @staticmethod
    def _points(status: str) -> float:
        if status == "WIN":
            return 2.0
        if status == "LOSE":
            return 1.0
        return FAULT_POINTS[status]

    def forfeit(self, state: SudokuState, seat: int, status: str, reason: str, detail: str = "") -> GameResult:
        names = ["WIN", "WIN"]
        names[seat] = detail or status.upper()
        if STATUS.get(names[seat]) != status:
            raise ValueError(f"{status!r} ({detail!r}) is not a fault of a Sudoku program")
        return self._outcome((names[0], names[1]), reason)

    def frame(self, state: SudokuState) -> dict[str, Any]:
        return {
            "grid": "".join(str(d) if d else "." for d in state.grid),
            "last": state.last,
            "to_move": self.to_move(state),
            "moves": state.moves,
        }

    def max_moves(self, params: Mapping[str, int]) -> int:
        return 82  # 81 digits at most, then a claim
