"""Chomp, as the POTM of summer 1995 played it (../shared/rules/chomp.txt).

The grid is N rows by M columns of cookies with the poison cookie at row 1, column 1. A
chomp at (r, c) eats the cookie there and every cookie below and to the right of it. The
player who eats the poison cookie loses; the winner scores the cookies it ate.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import (
    Column,
    GameInfo,
    GameResult,
    Illegal,
    Param,
    ProcessPerMove,
    TurnGame,
    total_moves,
    total_points,
    total_score,
)

Move = tuple[int, int]  # (row, column), both counted from 1 as the page counts them


@dataclass(frozen=True)
class ChompState:
    rows: int
    cols: int
    widths: tuple[int, ...]  # cookies left in each row; a chomped grid is a staircase
    turn: int = 0
    eaten: tuple[int, int] = (0, 0)
    chomps: tuple[int, int] = (0, 0)
    loser: int | None = None  # the seat that ate the poison cookie

    def cookie_at(self, row: int, col: int) -> bool:
        return col <= self.widths[row - 1]


def _bump(pair: tuple[int, int], seat: int, by: int) -> tuple[int, int]:
    return (pair[0] + by, pair[1]) if seat == 0 else (pair[0], pair[1] + by)


class Chomp(TurnGame[ChompState, Move]):
    info = GameInfo(
        name="chomp",
        title="Chomp",
        version=1,
        seats=2,
        params=(
            Param("rows", 5, 2, 50, "rows of cookies (N, the program's first argument)"),
            Param("cols", 8, 2, 50, "columns of cookies (M, the program's second argument)"),
        ),
    )
    # "no more than 30 seconds per move averaged over an entire large-size game" (sys+user);
    # the wall limit only stops a program that waits instead of computing.
    default_clock = {"cpu_average_per_move_s": 30, "wall_per_move_s": 120}
    # "compiled without any optimisation": a program that misbehaves under -O2 plays as it did.
    original_table = "potm"
    # Section III: most wins, then the highest total score, then the fewest chomps. A win is
    # the game's one point (a loss, a forfeit included, none), so the wins are the points:
    # and a Swiss bye, which scores the points of winning its round (``bye_points``), counts
    # as those wins, as a bye does in chess (decision: the page has no byes).
    standings = (
        Column("wins", "Wins", total_points),
        Column("score", "Cookies eaten in won games", total_score),
        Column("chomps", "Chomps", total_moves, higher_is_better=False),
    )

    @property
    def interaction(self) -> ProcessPerMove:
        from games.chomp import codec

        return ProcessPerMove(
            args=lambda state, seat: codec.program_args(state),
            stdin=lambda state, seat: codec.program_input(state),
            read=lambda state, seat, output: codec.read_reply(self, state, output),
            keep=None,  # "You may NOT attempt to record the moves": a fresh folder every move
            forgiven=lambda state, seat, output: codec.forgiven(state, output),
            tidy=True,  # "Temporary files may be created ONLY in /tmp ... MUST be removed"
        )

    def initial_state(self, params: Mapping[str, int], seed: int) -> ChompState:
        params = self.resolve_params(params)
        return ChompState(rows=params["rows"], cols=params["cols"], widths=(params["cols"],) * params["rows"])

    def to_move(self, state: ChompState) -> int | None:
        return None if state.loser is not None else state.turn

    def legal_moves(self, state: ChompState) -> list[Move]:
        if state.loser is not None:
            return []
        return [(r, c) for r in range(1, state.rows + 1) for c in range(1, state.widths[r - 1] + 1)]

    def parse_move(self, state: ChompState, text: str) -> Move | Illegal:
        try:
            row, col = (int(part) for part in text.split(","))
        except ValueError:
            return Illegal(f"{text!r} is not a move (write it as ROW,COLUMN)")
        if not (1 <= row <= state.rows and 1 <= col <= state.cols):
            return Illegal(f"row {row}, column {col} is off the {state.rows}x{state.cols} grid")
        if not state.cookie_at(row, col):
            return Illegal(f"row {row}, column {col} has already been eaten")
        return (row, col)

    def move_text(self, state: ChompState, move: Move) -> str:
        return f"{move[0]},{move[1]}"

    def eat(self, state: ChompState, move: Move) -> tuple[tuple[int, ...], int]:
        """The rows after chomping at ``move``, and how many cookies that ate."""
        row, col = move
        widths = list(state.widths)
        eaten = 0
        for r in range(row - 1, state.rows):
            if widths[r] >= col:
                eaten += widths[r] - col + 1
                widths[r] = col - 1
        return tuple(widths), eaten

    def apply(self, state: ChompState, move: Move) -> ChompState:
        seat = state.turn
        widths, eaten = self.eat(state, move)
        return replace(
            state,
            widths=widths,
            turn=1 - seat,
            eaten=_bump(state.eaten, seat, eaten),
            chomps=_bump(state.chomps, seat, 1),
            loser=seat if move == (1, 1) else None,
        )

    def outcome(self, state: ChompState) -> GameResult | None:
        if state.loser is None:
            return None
        winner = 1 - state.loser
        return self._won_by(state, winner, "loss", f"seat {state.loser} ate the poison cookie")

    def forfeit(self, state: ChompState, seat: int, status: str, reason: str, detail: str = "") -> GameResult:
        return self._won_by(state, 1 - seat, status, reason)

    def _won_by(self, state: ChompState, winner: int, loser_status: str, reason: str) -> GameResult:
        points = [0.0, 0.0]
        scores = [0.0, 0.0]
        statuses = [loser_status, loser_status]
        points[winner] = 1.0
        scores[winner] = float(state.eaten[winner])
        statuses[winner] = "win"
        return GameResult(tuple(points), tuple(scores), tuple(statuses), reason)

    def frame(self, state: ChompState) -> dict[str, Any]:
        return {
            "grid": grid_lines(state),
            "to_move": self.to_move(state),
            "eaten": list(state.eaten),
            "chomps": list(state.chomps),
        }

    def max_moves(self, params: Mapping[str, int]) -> int:
        params = self.resolve_params(params)
        return params["rows"] * params["cols"]


def grid_lines(state: ChompState) -> list[str]:
    return list(_grid(state.widths, state.cols))


@functools.lru_cache(maxsize=4096)  # a move's grid is drawn three times: input, frame, reply check
def _grid(widths: tuple[int, ...], cols: int) -> tuple[str, ...]:
    lines = []
    for r, width in enumerate(widths):
        line = "O" * width + "*" * (cols - width)
        lines.append("X" + line[1:] if r == 0 and width else line)
    return tuple(lines)
