"""What a Hearts and Flowers program reads and writes: n, then n lines of the board, on
standard input; one move such as W2 on standard output. The pieces are swapped for the
Flowers seat so that every program plays Hearts."""

from __future__ import annotations

from games.base import Illegal
from games.hearts_flowers.rules import HeartsFlowers, HFState, Move

_SWAP = str.maketrans("HF", "FH")


def board_for(state: HFState, seat: int) -> list[str]:
    return [row.translate(_SWAP) for row in state.board] if seat == 1 else list(state.board)


def program_input(state: HFState, seat: int) -> str:
    return f"{state.n}\n" + "".join(row + "\n" for row in board_for(state, seat))


def read_reply(game: HeartsFlowers, state: HFState, output: str) -> Move | Illegal:
    """The move in the program's one line. Forgiven: blank lines, spaces around the move and
    between its side and number (``W 2``), a carriage return, a missing final newline. Not
    forgiven: a second non-blank line (the rules allow one line and nothing else), a side in
    lower case, anything that is not a side and a number."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    if not lines:
        return Illegal("no move on standard output")
    if len(lines) > 1:
        return Illegal(f"{len(lines)} lines on standard output; the rules allow one")
    return game.parse_move(state, "".join(lines[0].split()))
