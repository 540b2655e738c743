"""Hearts and Flowers, as Mike Spivey's Oxford competition of 2003 played it
(../shared/rules/hearts-and-flowers.txt).

Seat 0 plays Hearts (H) and seat 1 Flowers (F); the codec swaps the pieces for seat 1 so
that every program plays Hearts. A move slides a piece onto the board from a side: N or S
followed by a column, W or E followed by a row, counted from 1 at the top and at the left.
The pieces in a contiguous run from the entry square move along one place; one pushed off
the far edge is gone. A line of n in a row, a column or a main diagonal wins, whoever's move
made it; lines for both at once are a draw, and so is a game in which each side has made
2n² moves without a line.
"""

from __future__ import annotations

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
    count_status,
    total_points,
)

PIECES = ("H", "F")
EMPTY = "."
SIDES = "NSEW"
WIN, DRAW, LOSS = 2.0, 1.0, 0.0

Move = tuple[str, int]  # ("W", 2): from the west side, into row 2


@dataclass(frozen=True)
class HFState:
    n: int
    board: tuple[str, ...]  # n rows of n characters: H, F or .
    turn: int = 0
    moves: int = 0  # made by both sides together
    result: tuple[str, ...] | None = None  # the seats' statuses once it is over
    reason: str = ""


def slide(board: tuple[str, ...], piece: str, move: Move) -> tuple[str, ...]:
    side, k = move
    n = len(board)
    grid = [list(row) for row in board]
    if side in "WE":
        cells = [(k - 1, c) for c in range(n)]
    else:
        cells = [(r, k - 1) for r in range(n)]
    if side in "ES":
        cells.reverse()  # entry square first, far edge last
    # The run of pieces from the entry square moves one place along; the last of a run
    # that reaches the far edge falls off.
    run = 0
    while run < n and grid[cells[run][0]][cells[run][1]] != EMPTY:
        run += 1
    end = min(run, n - 1)
    for i in range(end, 0, -1):
        r, c = cells[i]
        pr, pc = cells[i - 1]
        grid[r][c] = grid[pr][pc]
    grid[cells[0][0]][cells[0][1]] = piece
    return tuple("".join(row) for row in grid)


def lines_of(board: tuple[str, ...]) -> set[str]:
    """The pieces that have a complete line on this board."""
    n = len(board)
    lines = [board[r] for r in range(n)]
    lines += ["".join(board[r][c] for r in range(n)) for c in range(n)]
    lines.append("".join(board[i][i] for i in range(n)))
    lines.append("".join(board[i][n - 1 - i] for i in range(n)))
    return {line[0] for line in lines if line[0] != EMPTY and line == line[0] * n}


class HeartsFlowers(TurnGame[HFState, Move]):
    info = GameInfo(
        name="hearts_flowers",
        title="Hearts and Flowers",
        version=1,
        seats=2,
        params=(Param("n", 5, 3, 12, "the board is n by n; a line of n wins"),),
    )
    # "Your program will have 30 seconds to decide on each move."
    default_clock = {"cpu_per_move_s": 30, "wall_per_move_s": 30}
    # The page names no points: a win is worth two, a draw one, and the count of wins breaks ties.
    standings = (
        Column("points", "Points", total_points),
        Column("wins", "Wins", count_status("win")),
        Column("draws", "Draws", count_status("draw")),
    )
    # "If the supplied executable does not work, we will attempt to rebuild your program from
    # the sources you provide."
    rebuilds_from_sources = True

    @property
    def interaction(self) -> ProcessPerMove:
        from games.hearts_flowers import codec

        return ProcessPerMove(
            args=lambda state, seat: [],
            stdin=codec.program_input,
            read=lambda state, seat, output: codec.read_reply(self, state, output),
            keep="support",  # "your program may read and write files you have put in the support subdirectory"
        )

    def initial_state(self, params: Mapping[str, int], seed: int) -> HFState:
        n = self.resolve_params(params)["n"]
        return HFState(n=n, board=(EMPTY * n,) * n)

    def to_move(self, state: HFState) -> int | None:
        return None if state.result is not None else state.turn

    def legal_moves(self, state: HFState) -> list[Move]:
        if state.result is not None:
            return []
        return [(side, k) for side in SIDES for k in range(1, state.n + 1)]

    def parse_move(self, state: HFState, text: str) -> Move | Illegal:
        text = text.strip()
        if len(text) < 2 or text[0] not in SIDES or not (text[1:].isascii() and text[1:].isdigit()):
            return Illegal(
                f"{text[:40]!r} is not a move: a side N, S, E or W and a number from 1 to {state.n}, like W2"
            )
        k = int(text[1:]) if len(text) <= 12 else 0  # longer is out of range (and int() refuses 4300 digits)
        if not 1 <= k <= state.n:
            return Illegal(f"{text[:40]!r}: the number must be from 1 to {state.n}")
        return (text[0], k)

    def move_text(self, state: HFState, move: Move) -> str:
        return f"{move[0]}{move[1]}"

    def apply(self, state: HFState, move: Move) -> HFState:
        seat = state.turn
        board = slide(state.board, PIECES[seat], move)
        moves = state.moves + 1
        lines = lines_of(board)
        result, reason = None, ""
        if lines == {"H", "F"}:
            result, reason = ("draw", "draw"), f"move {moves} made lines for both Hearts and Flowers"
        elif lines:
            winner = PIECES.index(lines.pop())
            result = ("win", "loss") if winner == 0 else ("loss", "win")
            whose = "its own" if winner == seat else "the opponent's"
            reason = f"move {moves} completed a line for {('Hearts', 'Flowers')[winner]} ({whose} move)"
        elif moves >= 4 * state.n * state.n:
            result, reason = ("draw", "draw"), f"no line after {state.n * state.n * 2} moves each"
        return replace(state, board=board, turn=1 - seat, moves=moves, result=result, reason=reason)

    def outcome(self, state: HFState) -> GameResult | None:
        if state.result is None:
            return None
        points = tuple({"win": WIN, "draw": DRAW, "loss": LOSS}[s] for s in state.result)
        return GameResult(points, points, state.result, state.reason)

    def forfeit(self, state: HFState, seat: int, status: str, reason: str, detail: str = "") -> GameResult:
        statuses = [status, status]
        statuses[1 - seat] = "win"
        points = [LOSS, LOSS]
        points[1 - seat] = WIN
        return GameResult(tuple(points), tuple(points), tuple(statuses), reason)

    def frame(self, state: HFState) -> dict[str, Any]:
        return {"board": list(state.board), "to_move": self.to_move(state), "moves": state.moves}

    def max_moves(self, params: Mapping[str, int]) -> int:
        n = self.resolve_params(params)["n"]
        return 4 * n * n
