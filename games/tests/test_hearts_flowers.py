"""Hearts and Flowers: sliding, pushing off, lines, draws and the swapped view."""

import pytest

from games.base import Illegal
from games.hearts_flowers import codec
from games.hearts_flowers.rules import HeartsFlowers, HFState, lines_of, slide

game = HeartsFlowers()


def test_the_pictured_move_pushes_a_flower_off_and_completes_a_line_for_flowers():
    # The page's picture: Hearts slides in from the left into row 2, the whole row moves
    # along, a flower falls off the right, and column 3 becomes a line of Flowers.
    state = HFState(n=4, board=("H.F.", "HFHF", "..F.", ".HF."))
    after = game.apply(state, ("W", 2))
    assert after.board == ("H.F.", "HHFH", "..F.", ".HF.")
    outcome = game.outcome(after)
    assert outcome.statuses == ("loss", "win")
    assert "line for Flowers (the opponent's move)" in outcome.reason


@pytest.mark.parametrize(
    ("move", "row_or_col", "expected"),
    [
        (("W", 1), "row", "HHF."),  # only the run at the edge moves; the gap takes it
        (("E", 1), "row", "H.FH"),
        (("N", 1), "col", "HHH."),  # column 1 was H H . .
        (("S", 3), "col", "HFFH"),  # column 3 was F H F F: a full run, the top F falls off
    ],
)
def test_slides_from_each_side(move, row_or_col, expected):
    board = ("H.F.", "HFHF", "..F.", ".HF.")
    after = slide(board, "H", move)
    k = move[1] - 1
    got = after[k] if row_or_col == "row" else "".join(row[k] for row in after)
    assert got == expected


def test_lines_are_rows_columns_and_the_two_main_diagonals():
    assert lines_of(("HHH", "...", "...")) == {"H"}
    assert lines_of(("F..", "F..", "F..")) == {"F"}
    assert lines_of(("H..", ".H.", "..H")) == {"H"}
    assert lines_of(("..F", ".F.", "F..")) == {"F"}
    assert lines_of(("HH.", "...", "...")) == set()


def test_lines_for_both_at_once_are_a_draw():
    # Flowers already holds row 2; Hearts completes row 1 from the east: both have a line.
    draw = game.apply(HFState(n=3, board=("HH.", "FFF", "..."), turn=0), ("E", 1))
    assert draw.board[0] == "HHH"
    assert lines_of(draw.board) == {"H", "F"}
    assert game.outcome(draw).statuses == ("draw", "draw")
    assert game.outcome(draw).points == (1.0, 1.0)


def test_a_line_made_by_the_mover_wins_for_the_mover():
    won = game.apply(HFState(n=3, board=("HH.", "...", "F.F"), turn=0), ("E", 1))
    assert game.outcome(won).statuses == ("win", "loss")
    assert game.outcome(won).points == (2.0, 0.0)
    assert "(its own move)" in game.outcome(won).reason


def test_a_game_without_a_line_is_drawn_after_2n2_moves_each():
    state = HFState(n=3, board=("...",) * 3, moves=4 * 9 - 1)
    after = game.apply(state, ("N", 1))
    assert after.moves == 36
    assert game.outcome(after).statuses == ("draw", "draw")
    assert game.max_moves({"n": 3}) == 36


def test_flowers_sees_the_board_as_hearts():
    state = HFState(n=3, board=("HF.", "...", "..F"), turn=1)
    assert codec.program_input(state, 0) == "3\nHF.\n...\n..F\n"
    assert codec.program_input(state, 1) == "3\nFH.\n...\n..H\n"
    after = game.apply(state, ("W", 2))
    assert after.board[1] == "F.."  # played as Flowers on the real board


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("", "no move"),
        ("W2\nE1\n", "2 lines"),
        ("X2\n", "not a move"),
        ("W\n", "not a move"),
        ("W0\n", "from 1 to 4"),
        ("N5\n", "from 1 to 4"),
        ("w2\n", "not a move"),
        ("W²\n", "not a move"),  # a digit to str.isdigit, not to int()
        ("W١\n", "not a move"),
        ("W" + "1" * 5000 + "\n", "from 1 to 4"),  # int() refuses it (4300 digits): once a platform fault
    ],
)
def test_bad_replies_are_illegal(output, reason):
    result = codec.read_reply(game, game.initial_state({"n": 4}, 0), output)
    assert isinstance(result, Illegal)
    assert reason in result.reason


@pytest.mark.parametrize("output", ["W2\n", "W2", "W2\r\n", "\n  W2 \r\n\n", "W 2\n", "W\t2"])
def test_whitespace_around_and_inside_the_move_is_forgiven(output):
    assert codec.read_reply(game, game.initial_state({"n": 4}, 0), output) == ("W", 2)
