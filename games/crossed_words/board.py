"""The 17 x 17 board and its bonus squares, computed from the page's description.

"if you were to number the rows and columns from zero to sixteen:
  - the thirteen triple-word squares are at the nine intersections of rows and columns 0, 8
    and 16 and at the four intersections of rows and columns 4 and 12.
  - the sixteen double-word squares are at the intersections of rows/columns 2, 6, 10 and 14.
  - the twelve double-letter squares are halfway between the triple-word squares in any row
    or column that contains triple-word squares.
  - the thirty-two triple-letter squares are in any squares on the main diagonals or on the
    half-diagonals (diamond pattern) that are not already filled by D, T or 2."

The half-diagonals are the diamond through the middles of the four edges (|r-8| + |c-8| = 8).
``tests/test_board.py`` holds the result against the page's drawing.
"""

from __future__ import annotations

SIZE = 17
PLAIN, DOUBLE_LETTER, TRIPLE_LETTER, DOUBLE_WORD, TRIPLE_WORD = ".", "2", "3", "D", "T"
LETTER_FACTOR = {DOUBLE_LETTER: 2, TRIPLE_LETTER: 3}
WORD_FACTOR = {DOUBLE_WORD: 2, TRIPLE_WORD: 3}


def _layout() -> tuple[tuple[str, ...], ...]:
    grid = [[PLAIN] * SIZE for _ in range(SIZE)]
    triple_words = [(r, c) for r in (0, 8, 16) for c in (0, 8, 16)] + [(r, c) for r in (4, 12) for c in (4, 12)]
    for r, c in triple_words:
        grid[r][c] = TRIPLE_WORD
    for r in (2, 6, 10, 14):
        for c in (2, 6, 10, 14):
            grid[r][c] = DOUBLE_WORD
    for line in range(SIZE):
        in_row = sorted(c for r, c in triple_words if r == line)
        in_col = sorted(r for r, c in triple_words if c == line)
        for a, b in zip(in_row, in_row[1:], strict=False):
            grid[line][(a + b) // 2] = DOUBLE_LETTER
        for a, b in zip(in_col, in_col[1:], strict=False):
            grid[(a + b) // 2][line] = DOUBLE_LETTER
    for r in range(SIZE):
        for c in range(SIZE):
            on_diagonal = r == c or r + c == SIZE - 1
            on_diamond = abs(r - 8) + abs(c - 8) == 8
            if (on_diagonal or on_diamond) and grid[r][c] == PLAIN:
                grid[r][c] = TRIPLE_LETTER
    return tuple(tuple(row) for row in grid)


# BONUS[row][col], both counted from 0: '.', '2', '3', 'D' or 'T'.
BONUS: tuple[tuple[str, ...], ...] = _layout()


def bonus_lines() -> list[str]:
    """The board as 17 strings of 17 characters, row 0 first."""
    return ["".join(row) for row in BONUS]
