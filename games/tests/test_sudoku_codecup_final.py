"""External validation of Sudoku: every game of the CodeCup 2024 final sample re-judged with
games/sudoku's rules gives the official result (games/sudoku/codecup.py says how each ending is
judged; games/sudoku/tests/data/README.md where the file comes from)."""

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from games.sudoku import codecup

FINAL = Path(__file__).resolve().parents[1] / "sudoku" / "tests" / "data" / "codecup-2024-final-sample.csv"


@pytest.fixture(scope="module")
def games():
    return codecup.read(FINAL.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judged(games):
    return [codecup.rejudge(g) for g in games]


def test_every_official_game_is_judged_as_the_organisers_judged_it(judged):
    wrong = [(j.official.game, j.problems) for j in judged if not j.agrees]
    assert wrong == []
    assert len(judged) == 326


def test_the_sample_covers_every_ending_it_promises(judged):
    assert Counter(j.ending for j in judged) == {
        "WIN": 200,
        "NO_SOLUTIONS_LEFT": 40,
        "NO_SOLUTION_DECREASED": 40,
        "TIMEOUT": 40,
        "EXIT": 4,
        "DOUBLED_SOMEWHERE": 1,
        "ILLEGAL": 1,
    }
    assert sum(len(j.move_seconds) for j in judged) == sum(len(j.official.moves) for j in judged)


def _first(games, ending):
    return next(g for g in games if ending in g.statuses and (ending != "WIN" or "LOSE" in g.statuses))


@pytest.mark.parametrize(
    ("ending", "change", "problem"),
    [
        ("WIN", lambda g: {"scores": (g.scores[1], g.scores[0])}, "scored"),
        ("WIN", lambda g: {"statuses": ("NO_UNIQUE_CLAIM", "WIN")}, "judged"),
        ("WIN", lambda g: {"moves": g.moves[:-1]}, "not over"),
        ("WIN", lambda g: {"solution": g.solution[::-1]}, "published solution"),
        ("TIMEOUT", lambda g: {"moves": g.moves[:-1]}, "not over"),  # the other side at fault
        ("TIMEOUT", lambda g: {"moves": (g.moves[0], *g.moves)}, "is illegal"),  # on an occupied cell
        ("NO_SOLUTION_DECREASED", lambda g: {"moves": ()}, "no move here would be one"),
        ("NO_SOLUTIONS_LEFT", lambda g: {"scores": (0.0, 2.0) if g.statuses[0] != "WIN" else (2.0, 0.0)}, "scored"),
    ],
)
def test_a_result_that_is_not_the_rules_is_caught(games, ending, change, problem):
    game = _first(games, ending)
    judged = codecup.rejudge(replace(game, **change(game)))
    assert not judged.agrees and any(problem in p for p in judged.problems), judged.problems


def test_a_file_without_the_columns_is_refused():
    with pytest.raises(ValueError, match="no column Round, IsSwiss, Score1, Score2, Status2, Moves, Solution"):
        codecup.read("Game,Status1\n1,WIN\n")
