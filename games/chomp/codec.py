"""What a Chomp program reads and writes: `prog ROWS COLS`, the grid on standard input,
the grid after its chomp on standard output (rules, section IV)."""

from __future__ import annotations

from games.base import Illegal
from games.chomp.rules import Chomp, ChompState, Move, grid_lines

GRID_CHARACTERS = frozenset("XO*\n")


def program_args(state: ChompState) -> list[str]:
    return [str(state.rows), str(state.cols)]


def program_input(state: ChompState) -> str:
    return "".join(line + "\n" for line in grid_lines(state))


def forgiven(state: ChompState, output: str) -> list[str]:
    """What ``read_reply`` forgave in a legal reply, for the referee to warn of: the page asks
    "no white space, newline on each line"."""
    if output.endswith("\n") and output.count("\n") == state.rows and not set(output) - GRID_CHARACTERS:
        return []  # the grid alone, a newline after each row: nothing to forgive (the usual reply)
    notes = []
    lines = output.split("\n")
    rows = lines[: state.rows]
    spaced = [r for r, line in enumerate(rows, start=1) if line.rstrip("\r") != line.rstrip()]
    returns = [r for r, line in enumerate(rows, start=1) if line.endswith("\r")]
    if spaced:
        notes.append(f"white space at the end of row {spaced[0]}; the page asks for none")
    if returns:
        notes.append(f"a carriage return at the end of row {returns[0]}; the page asks for a newline alone")
    if len(lines) > state.rows + 1:
        notes.append("blank lines after the grid; the page asks for the grid alone")
    if not output.endswith("\n"):
        notes.append("no newline after the last row; the page asks for one on each line")
    return notes


def read_reply(game: Chomp, state: ChompState, output: str) -> Move | Illegal:
    """The chomp that turns the input grid into ``output``.

    Tolerated, as a person judging by eye would: a carriage return or spaces at the end of
    a line, blank lines after the grid, a missing final newline; the referee warns of each
    (``forgiven``). Anything else that is not exactly the input grid with one chomp is an
    illegal reply, with the first row that differs.
    """
    lines = [line.rstrip() for line in output.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    want = grid_lines(state)
    if len(lines) != state.rows:
        return Illegal(f"output has {len(lines)} rows, not {state.rows}")
    for r, line in enumerate(lines, start=1):
        if len(line) != state.cols:
            return Illegal(f"row {r} has {len(line)} characters, not {state.cols}")
        bad = set(line) - {"X", "O", "*"}
        if bad:
            return Illegal(f"row {r} has {''.join(sorted(bad))!r}; only X, O and * may appear")
    # The top row and the leftmost column where the output differs from the input: a row at a
    # time (most are unchanged), then the first different character of each row that is not.
    top = left = 0
    for r, (line, was) in enumerate(zip(lines, want, strict=True), start=1):
        if line != was:
            c = next(c for c, (a, b) in enumerate(zip(line, was, strict=True), start=1) if a != b)
            top, left = top or r, min(left or c, c)
    if not top:
        return Illegal("output is the input grid: no cookie was eaten")
    move = (top, left)
    if not state.cookie_at(*move):
        return Illegal(f"output is not the input grid with one chomp: row {move[0]} differs")
    after = grid_lines(ChompState(state.rows, state.cols, game.eat(state, move)[0]))
    for r, (got, expected) in enumerate(zip(lines, after, strict=True), start=1):
        if got != expected:
            return Illegal(f"output is not the input grid with one chomp: row {r} differs")
    return move
