"""The bonus squares computed from the page's description, held to the page's drawing."""

from collections import Counter

from games.crossed_words import board

# The page's "board ... repeated below as an HTML table", its 17 rows as the page gives them,
# each empty cell (a non-breaking space there) written as _.
DRAWING = (
    "T _ _ _ 2 _ _ _ T _ _ _ 2 _ _ _ T",
    "_ 3 _ _ _ _ _ 3 _ 3 _ _ _ _ _ 3 _",
    "_ _ D _ _ _ D _ _ _ D _ _ _ D _ _",
    "_ _ _ 3 _ 3 _ _ _ _ _ 3 _ 3 _ _ _",
    "2 _ _ _ T _ _ _ 2 _ _ _ T _ _ _ 2",
    "_ _ _ 3 _ 3 _ _ _ _ _ 3 _ 3 _ _ _",
    "_ _ D _ _ _ D _ _ _ D _ _ _ D _ _",
    "_ 3 _ _ _ _ _ 3 _ 3 _ _ _ _ _ 3 _",
    "T _ _ _ 2 _ _ _ T _ _ _ 2 _ _ _ T",
    "_ 3 _ _ _ _ _ 3 _ 3 _ _ _ _ _ 3 _",
    "_ _ D _ _ _ D _ _ _ D _ _ _ D _ _",
    "_ _ _ 3 _ 3 _ _ _ _ _ 3 _ 3 _ _ _",
    "2 _ _ _ T _ _ _ 2 _ _ _ T _ _ _ 2",
    "_ _ _ 3 _ 3 _ _ _ _ _ 3 _ 3 _ _ _",
    "_ _ D _ _ _ D _ _ _ D _ _ _ D _ _",
    "_ 3 _ _ _ _ _ 3 _ 3 _ _ _ _ _ 3 _",
    "T _ _ _ 2 _ _ _ T _ _ _ 2 _ _ _ T",
)


def test_the_layout_is_the_drawing():
    drawn = [line.split(" ") for line in DRAWING]
    assert all(len(row) == 17 for row in drawn)
    assert [["." if cell == "_" else cell for cell in row] for row in drawn] == [list(r) for r in board.BONUS]


def test_the_counts_the_page_names():
    counts = Counter(cell for row in board.BONUS for cell in row)
    assert counts == {"T": 13, "D": 16, "2": 12, "3": 32, ".": 17 * 17 - 73}


def test_the_description_square_by_square():
    assert {(r, c) for r in range(17) for c in range(17) if board.BONUS[r][c] == "T"} == {
        (r, c) for r in (0, 8, 16) for c in (0, 8, 16)
    } | {(r, c) for r in (4, 12) for c in (4, 12)}
    assert {(r, c) for r in range(17) for c in range(17) if board.BONUS[r][c] == "D"} == {
        (r, c) for r in (2, 6, 10, 14) for c in (2, 6, 10, 14)
    }
    assert board.BONUS[4][8] == board.BONUS[0][4] == board.BONUS[12][16] == "2"  # halfway between two T's
    assert board.BONUS[1][7] == "3"  # on the diamond |r-8| + |c-8| = 8
    assert board.BONUS[5][5] == "3"  # on a main diagonal
    assert len(board.bonus_lines()) == 17
