"""Chomp against the examples of the rules page (section II) and its scoring (section III)."""

import pytest

from games.base import Illegal
from games.chomp import codec
from games.chomp.rules import Chomp, ChompState, grid_lines

game = Chomp()
PAGE_4x7 = ["XOOOOOO", "OOOO***", "OOOO***", "OO*****"]


def state_from(lines, turn=0):
    return ChompState(
        rows=len(lines),
        cols=len(lines[0]),
        widths=tuple(line.count("O") + line.count("X") for line in lines),
        turn=turn,
    )


def test_the_initial_grid_has_the_poison_in_the_corner():
    state = game.initial_state({"rows": 3, "cols": 4}, seed=0)
    assert grid_lines(state) == ["XOOO", "OOOO", "OOOO"]
    assert codec.program_args(state) == ["3", "4"]
    assert codec.program_input(state) == "XOOO\nOOOO\nOOOO\n"


@pytest.mark.parametrize(
    ("move", "after"),
    [
        ((2, 3), ["XOOOOOO", "OO*****", "OO*****", "OO*****"]),
        ((1, 7), ["XOOOOO*", "OOOO***", "OOOO***", "OO*****"]),
        ((3, 2), ["XOOOOOO", "OOOO***", "O******", "O******"]),
        ((1, 1), ["*******", "*******", "*******", "*******"]),
    ],
)
def test_the_examples_of_the_rules_page(move, after):
    state = state_from(PAGE_4x7)
    assert grid_lines(game.apply(state, move)) == after
    assert codec.read_reply(game, state, "\n".join(after) + "\n") == move


def test_the_opening_example_eats_twelve_cookies():
    state = game.initial_state({"rows": 5, "cols": 8}, seed=0)
    after = game.apply(state, (3, 5))
    assert after.eaten == (12, 0)
    assert grid_lines(after)[2:] == ["OOOO****"] * 3


def test_eating_the_poison_loses_and_the_winner_scores_what_it_ate():
    state = game.initial_state({"rows": 2, "cols": 2}, seed=0)
    for move in [(2, 2), (1, 2), (2, 1)]:
        state = game.apply(state, move)
    assert game.to_move(state) == 1 and game.legal_moves(state) == [(1, 1)]  # only the poison is left
    state = game.apply(state, (1, 1))
    outcome = game.outcome(state)
    assert outcome.statuses == ("win", "loss")
    assert outcome.points == (1.0, 0.0)
    assert outcome.scores == (2.0, 0.0)  # seat 0 ate (2,2) and (2,1)
    assert state.chomps == (2, 2)


def test_a_forfeit_gives_the_other_seat_the_win_and_its_cookies():
    state = game.apply(game.initial_state({"rows": 3, "cols": 3}, 0), (2, 2))
    outcome = game.forfeit(state, 1, "timeout", "move 2: 31.2 s over the 30 s limit")
    assert outcome.statuses == ("win", "timeout")
    assert outcome.scores == (4.0, 0.0)


@pytest.mark.parametrize(
    ("output", "warnings"),
    [
        (
            "XOOOOOO\r\nOO*****\r\nOO*****\r\nOO*****\r\n",
            ["a carriage return at the end of row 1; the page asks for a newline alone"],
        ),
        (
            "XOOOOOO\nOO*****\t\nOO*****  \nOO*****\n",
            ["white space at the end of row 2; the page asks for none"],
        ),
        ("XOOOOOO\nOO*****\nOO*****\nOO*****", ["no newline after the last row; the page asks for one on each line"]),
        ("XOOOOOO\nOO*****\nOO*****\nOO*****\n\n\n", ["blank lines after the grid; the page asks for the grid alone"]),
        ("XOOOOOO\nOO*****\nOO*****\nOO*****\n", []),  # as the page asks
    ],
)
def test_whitespace_at_line_ends_and_after_the_grid_is_forgiven_with_a_warning(output, warnings):
    """ "no white space, newline on each line": forgiven, as a judge by eye would, but written
    back to the contestant as a judge would."""
    assert codec.read_reply(game, state_from(PAGE_4x7), output) == (2, 3)
    assert codec.forgiven(state_from(PAGE_4x7), output) == warnings


def test_chomping_an_eaten_cell_changes_nothing_and_is_illegal():
    result = codec.read_reply(game, state_from(PAGE_4x7), "\n".join(PAGE_4x7) + "\n")
    assert isinstance(result, Illegal) and "no cookie was eaten" in result.reason


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("", "output has 0 rows, not 4"),
        ("XOOOOOO\nOOOO***\nOOOO***\n", "output has 3 rows, not 4"),
        ("XOOOOOO\nOO*****\nOO*****\nOO*****\nXOOOOOO\n", "output has 5 rows, not 4"),  # an extra line
        (" XOOOOOO\nOO*****\nOO*****\nOO*****\n", "row 1 has 8 characters, not 7"),  # leading space
        ("XOOOOOO\nOOOO**\nOOOO***\nOO*****\n", "row 2 has 6 characters, not 7"),
        ("XOOOOOO\nOOOO***\nOOOO?**\nOO*****\n", "row 3 has '?'"),
        ("\n".join(PAGE_4x7), "no cookie was eaten"),
        ("XOOOOO*\nOOOO***\nOOO****\nOO*****\n", "not the input grid with one chomp: row 1 differs"),
        ("XOOOOOO\nOOO****\nOOOO***\nOO*****\n", "not the input grid with one chomp: row 3 differs"),
        ("XOOOOOO\nOOOOO**\nOOOO***\nO******\n", "row 2 differs"),
        ("XOOOOO*\nOO*****\nOO*****\nOO*****\n", "row 1 differs"),  # two chomps at once
        ("XOOOOOO\nOOOO***\nOOOO***\nOOO****\n", "row 4 differs"),
    ],
)
def test_anything_but_one_chomp_is_illegal_with_the_row_that_differs(output, reason):
    result = codec.read_reply(game, state_from(PAGE_4x7), output)
    assert isinstance(result, Illegal)
    assert reason in result.reason
