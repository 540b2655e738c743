"""Scores worked out by hand from the page's rules and table, square by square.

Board squares are named (row, column) from 1 here, as output.txt names them; ``BONUS`` is
indexed from 0."""

import pytest

from games.crossed_words import letters
from games.crossed_words.board import BONUS
from games.crossed_words.verify import Discard, Draw, Play, Replay, Wrong, score_squares, verify, write_output

WORDS = frozenset(
    ["an", "plan", "plane", "airplane", "airplanes", "airline", "cat", "no", "to", "third", "not", "at", "pa", "is"]
)


def grid_with(word: str, row: int, col: int, across: bool = True) -> tuple[list[list[str]], list[tuple[int, int]]]:
    grid = [[""] * 17 for _ in range(17)]
    squares = [(row - 1, col - 1 + i) if across else (row - 1 + i, col - 1) for i in range(len(word))]
    for (r, c), letter in zip(squares, word, strict=True):
        grid[r][c] = letter
    return grid, squares


def score(word: str, row: int, col: int, across: bool = True) -> int:
    return score_squares(*grid_with(word, row, col, across))


@pytest.mark.parametrize(
    ("word", "page", "table"),
    [
        # "ignoring the bonus squares": the page's figures, and the table's.
        ("AN", 6, 4),
        ("PLAN", 14, 12),
        ("PLANE", 15, 13),
        ("AIRPLANE", 20, 18),
        ("CAT", 9, 9),
        ("NO", 5, 5),
        ("TO", 6, 6),
        ("THIRD", None, 16),
        ("NOT", None, 8),
    ],
)
def test_the_pages_examples_by_the_table(word, page, table):
    assert letters.value(word) == table
    if page is not None and page != table:
        # The page's AN/PLAN/PLANE/AIRPLANE figures all fit N = 4 (its table says 2); its
        # CAT example's AN = 6 does too, but NO = 5 there needs N = 2. The table decides.
        assert page - table == 2 and "N" in word


def test_plain_squares():
    assert BONUS[8][5] == BONUS[8][6] == BONUS[8][7] == "."
    assert score("CAT", 9, 6) == 4 + 2 + 3


def test_double_letter():
    assert BONUS[8][4] == "2"
    assert score("CAT", 9, 5) == 4 * 2 + 2 + 3


def test_triple_letter():
    assert BONUS[9][9] == "3"
    assert score("AN", 10, 9) == 2 + 2 * 3


def test_double_word():
    assert BONUS[2][2] == "D"
    assert score("AT", 3, 3) == (2 + 3) * 2


def test_two_double_words_quadruple():
    assert score("PLANE", 3, 3) == (5 + 3 + 2 + 2 + 1) * 4  # D at columns 3 and 7


def test_three_double_words_octuple():
    assert score("AIRPLANES", 3, 3) == (2 + 1 + 2 + 5 + 3 + 2 + 2 + 1 + 1) * 8  # D at 3, 7, 11


def test_triple_word():
    assert BONUS[0][0] == "T"
    assert score("AT", 1, 1) == (2 + 3) * 3


def test_two_triple_words_nine_times():
    # T at columns 1 and 9, and L on the double letter of column 5.
    assert score("AIRPLANES", 1, 1) == (2 + 1 + 2 + 5 + 3 * 2 + 2 + 2 + 1 + 1) * 9


def test_down_words_read_the_columns():
    assert score("AT", 3, 3, across=False) == (2 + 3) * 2  # (3,3) D, (4,3) plain
    assert score("AT", 1, 5, across=False) == 2 * 2 + 3  # (1,5) double letter


def test_the_page_extension_example_on_the_board():
    """AN, PLAN, PLANE, AIRPLANE in row 10, where columns 8 and 10 are triple letters."""
    game = Replay(("ANPLEAIR", "", ""), WORDS)
    game.draw(1, "AN")
    assert game.play(10, 9, True, "AN").main.score == 2 + 2 * 3
    game.draw(1, "PL")
    assert game.play(10, 7, True, "PLAN").main.score == 5 + 3 * 3 + 2 + 2 * 3
    game.draw(1, "E")
    assert game.play(10, 7, True, "PLANE").main.score == 22 + 1
    game.draw(1, "AIR")
    result = game.play(10, 4, True, "AIRPLANE")
    assert (result.main.score, result.also, result.bonus) == (2 + 1 + 2 + 23, (), 0)
    assert game.score == 8 + 22 + 23 + 28


def test_the_page_cat_example_on_the_board():
    """CAT in the middle row, then AN, NO (with TO), THIRD (with NOT). The O lands on a triple
    letter at (10,8) and counts again in NOT, as the page says bonus squares always do."""
    game = Replay(("CATNOTHIRD", "", ""), WORDS)
    game.draw(1, "CAT")
    assert game.play(9, 6, True, "CAT").points == 9
    game.draw(1, "N")
    assert game.play(9, 7, False, "AN").points == 4
    game.draw(1, "O")
    result = game.play(10, 7, True, "NO")
    assert (result.main.score, [(f.word, f.score) for f in result.also]) == (2 + 9, [("TO", 3 + 9)])
    game.draw(1, "THIRD")
    result = game.play(10, 9, False, "THIRD")
    assert result.main.score == 3 + 6 + 1 + 2 * 2 + 4  # R on the double letter at (13,9)
    assert [(f.word, f.score) for f in result.also] == [("NOT", 2 + 9 + 3)]
    assert game.score == 9 + 4 + 11 + 12 + 18 + 14


def test_bonus_for_eight_letters():
    game = Replay(("AIRPLANE", "", ""), WORDS)
    game.draw(1, "AIRPLANE")
    result = game.play(10, 3, True, "AIRPLANE")
    assert (result.main.score, result.bonus, result.points) == (2 + 1 + 2 + 5 + 3 + 2 * 3 + 2 + 3, 100, 124)


def test_bonus_for_seven_letters():
    game = Replay(("AIRLINE", "", ""), WORDS)
    game.draw(1, "AIRLINE")
    result = game.play(10, 3, True, "AIRLINE")
    assert (result.main.score, result.bonus) == (2 + 1 + 2 + 3 + 1 + 2 * 3 + 1, 50)


def test_seven_letters_into_an_eight_letter_word():
    game = Replay(("PA", "IRPLANE", ""), WORDS)
    game.draw(1, "PA")
    game.play(9, 3, False, "PA")  # the A lands on (10,3)
    game.draw(2, "IRPLANE")
    result = game.play(10, 3, True, "AIRPLANE")
    assert (len(result.placed), result.bonus, result.main.score) == (7, 50, 24)


def test_six_letters_earn_no_bonus():
    game = Replay(("AN", "AIRPLE", ""), WORDS)
    game.draw(1, "AN")
    game.play(10, 8, True, "AN")  # AIRPLANE's A and N, columns 8 and 9
    game.draw(2, "AIRPLE")
    assert game.play(10, 3, True, "AIRPLANE").bonus == 0


def test_discard_costs_single_values():
    game = Replay(("QXE", "", ""), WORDS)
    game.draw(1, "QXE")
    assert game.discard("QX") == -17
    assert game.score == -17
    assert game.hand == "E"


def test_write_output_then_verify_round_trip():
    piles = ("CATNOTHIRD", "QX", "")
    moves = [
        Draw(1, "CAT"),
        Play(9, 6, True, "CAT"),
        Draw(2, "QX"),
        Discard("QX"),
        Draw(1, "N"),
        Play(9, 7, False, "AN"),
    ]
    text = write_output(moves, piles, WORDS, line_end="\r\n")
    assert text.startswith("-4\r\n")
    assert "DISCARD QX -17\r\nDRAW 1 N\r\nPLAY 9 7 D AN 4\r\n" in text
    verdict = verify(text.encode(), piles, WORDS)
    assert (verdict.ok, verdict.verified, verdict.claimed) == (True, -4, -4)


def test_write_output_refuses_an_illegal_move():
    moves = [Draw(1, "CAT"), Play(9, 6, True, "CAT"), Draw(2, "QX"), Draw(1, "N")]
    with pytest.raises(ValueError, match=r"move 4 .*: a second draw in one move"):
        write_output(moves, ("CATN", "QX", ""), WORDS)


def test_wrong_is_raised_for_refused_moves():
    game = Replay(("CAT", "", ""), WORDS)
    with pytest.raises(Wrong, match="the hand is empty"):
        game.play(1, 1, True, "AT")
