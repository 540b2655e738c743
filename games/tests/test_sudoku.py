"""CodeCup Sudoku: every judgement of the scoring table, and the solution counter held to a
simple independent solver."""

import random

import pytest

from games.base import Illegal
from games.sudoku import native, reference_solver
from games.sudoku.rules import Claim, Place, Sudoku, SudokuState, cell_name

game = Sudoku()


def solution() -> list[int]:
    """A valid full grid: the classic shifted pattern."""
    return [(r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]


def state_with(cells: dict[str, int], turn: int = 0) -> SudokuState:
    grid = bytearray(81)
    for name, digit in cells.items():
        grid["ABCDEFGHI".index(name[0]) * 9 + "abcdefghi".index(name[1])] = digit
    return SudokuState(grid=bytes(grid), turn=turn, moves=len(cells))


def two_solutions() -> tuple[bytes, int, int]:
    """A grid with exactly two solutions and a move that keeps only one: (grid, cell, digit).
    Cells of a full grid are emptied in a fixed random order until a second solution
    appears; the simple solver confirms the count."""
    grid = solution()
    order = list(range(81))
    random.Random(7).shuffle(order)
    for cell in order:
        digit, grid[cell] = grid[cell], 0
        n = reference_solver.count(grid, 3)
        if n == 2:
            break
        if n > 2:
            grid[cell] = digit
    assert reference_solver.count(grid, 3) == 2
    for cell in range(81):
        for digit in range(1, 10):
            if grid[cell] == 0 and reference_solver._fits(grid, cell, digit):
                after = grid[:cell] + [digit] + grid[cell + 1 :]
                if (
                    reference_solver.count(after, 2) == 1
                    and reference_solver.count(grid[:cell] + [0] + grid[cell + 1 :], 2) == 2
                ):
                    return bytes(grid), cell, digit
    raise AssertionError("no move keeps one of the two solutions")


def judge(state: SudokuState, text: str):
    move = game.parse_move(state, text)
    if isinstance(move, Illegal):
        assert move.status == "illegal"  # the platform's word; the detail is CodeCup's
        return move.detail, move.reason
    after = game.apply(state, move)
    return after.result, after.reason


def test_moves_are_read_as_the_page_writes_them():
    state = game.initial_state({}, 0)
    assert game.parse_move(state, "Dg7") == Place(3 * 9 + 6, 7)
    assert game.parse_move(state, "Hd7!") == Place(7 * 9 + 3, 7, claim=True)
    assert game.parse_move(state, "!") == Claim()
    assert cell_name(3 * 9 + 6) == "Dg"


@pytest.mark.parametrize("text", ["", "dg7", "DG7", "Dg0", "Dj7", "Dg", "Dg77", "Dg7!!", "D g7", "Start", "!Dg7"])
def test_an_unparsable_move_is_illegal_0_2(text):
    status, _ = judge(game.initial_state({}, 0), text)
    assert status == "ILLEGAL"


def test_a_digit_on_an_occupied_cell_is_illegal_0_2():
    status, reason = judge(state_with({"Aa": 5}), "Aa3")
    assert status == "ILLEGAL" and "Aa already holds 5" in reason
    outcome = game.forfeit(state_with({"Aa": 5}), 1, "illegal", reason, "ILLEGAL")
    assert outcome.points == (2.0, 0.0)


@pytest.mark.parametrize(
    ("cells", "move", "where"), [({"Aa": 5}, "Ai5", "row"), ({"Aa": 5}, "Ia5", "column"), ({"Aa": 5}, "Cc5", "box")]
)
def test_a_digit_its_row_column_or_box_already_holds_is_doubled_0_2(cells, move, where):
    status, reason = judge(state_with(cells), move)
    assert status == "DOUBLED_SOMEWHERE" and f"its {where} already holds a 5" in reason


def test_a_move_that_leaves_no_solution_loses_1_2():
    # Digit 1 cannot go in rows A and B of the first box (Ad1, Bg1), nor in columns a and b
    # (Da1, then Gb1), and Cc holds a 2: the first box has no place for a 1. Hard to see.
    state = state_with({"Ad": 1, "Bg": 1, "Cc": 2, "Da": 1}, turn=0)
    after = game.apply(state, game.parse_move(state, "Gb1"))
    assert after.result == ("NO_SOLUTIONS_LEFT", "WIN")
    assert game.outcome(after).points == (1.0, 2.0)


def test_a_move_that_does_not_decrease_the_solutions_loses_1_2():
    # Row A holds 1 to 8: Ai can only be 9, so playing it changes nothing.
    state = state_with({f"A{c}": d for c, d in zip("abcdefgh", range(1, 9), strict=True)}, turn=1)
    after = game.apply(state, game.parse_move(state, "Ai9"))
    assert after.result == ("WIN", "NO_SOLUTION_DECREASED")
    assert "could only hold 9" in after.reason
    assert game.outcome(after).points == (2.0, 1.0)


def test_a_true_claim_with_a_move_wins_2_1():
    grid, cell, digit = two_solutions()
    assert native.count(grid) == 2
    state = SudokuState(grid=grid, turn=1, moves=77)
    after = game.apply(state, game.parse_move(state, f"{cell_name(cell)}{digit}!"))
    assert after.result == ("LOSE", "WIN")
    assert game.outcome(after).points == (1.0, 2.0)


def test_a_move_that_leaves_one_solution_unclaimed_lets_the_opponent_claim():
    grid, cell, digit = two_solutions()
    state = SudokuState(grid=grid, turn=0, moves=77)
    after = game.apply(state, game.parse_move(state, f"{cell_name(cell)}{digit}"))
    assert after.result is None and game.to_move(after) == 1
    end = game.apply(after, Claim())
    assert end.result == ("LOSE", "WIN") and "rightly claimed" in end.reason
    # Any other answer loses: the last solution's digit does not decrease anything.
    empty = next(i for i in range(81) if after.grid[i] == 0)
    forced = next(d for d in range(1, 10) if native.count(after.grid, 1, exclude=(empty, d)) == 0)
    wrong = game.apply(after, Place(empty, forced))
    assert wrong.result == ("WIN", "NO_SOLUTION_DECREASED")


def test_a_false_claim_loses_0_2():
    state = game.apply(game.initial_state({}, 0), Place(0, 1))
    assert game.apply(state, Claim()).result == ("WIN", "NO_UNIQUE_CLAIM")
    grid, _, _ = two_solutions()
    state = SudokuState(grid=grid, turn=0, moves=77)
    after = game.apply(state, game.parse_move(state, "!"))
    assert after.result == ("NO_UNIQUE_CLAIM", "WIN") and game.outcome(after).points == (0.0, 2.0)
    # A false claim is a legal move that loses, not a fault: the system test passes it.
    assert game.outcome(after).statuses == ("loss", "win")
    assert game.outcome(after).details == ("NO_UNIQUE_CLAIM", "WIN")


def test_referee_faults_score_as_the_page_says():
    state = game.initial_state({}, 0)
    assert game.forfeit(state, 0, "timeout", "slow").points == (1.0, 2.0)
    assert game.forfeit(state, 0, "crash", "boom").details == ("CRASH", "WIN")
    assert game.forfeit(state, 0, "crash", "boom").statuses == ("crash", "win")
    assert game.forfeit(state, 1, "exit", "gone").points == (2.0, 0.0)
    assert game.forfeit(state, 1, "exit", "gone").details == ("WIN", "EXIT")
    with pytest.raises(ValueError):
        game.forfeit(state, 1, "timeout", "no", "NO_UNIQUE_CLAIM")  # a detail that is not that fault


def test_every_codecup_result_has_a_platform_status():
    # The system test fails a program on a fault; CodeCup's irregular results are the faults.
    from games.base import FAULTS, SEAT_STATUSES
    from games.sudoku.rules import STATUS

    assert set(STATUS.values()) <= set(SEAT_STATUSES)
    assert {name for name, status in STATUS.items() if status in FAULTS} == {
        "ILLEGAL", "DOUBLED_SOMEWHERE", "TIMEOUT", "CRASH", "EXIT"
    }  # fmt: skip


def test_standings_break_ties_by_fewer_irregular_losses():
    assert [c.key for c in game.standings] == ["points", "irregular", "wins"]
    assert game.standings[1].higher_is_better is False


def _random_position(rng: random.Random) -> list[int]:
    grid = [0] * 81
    for _ in range(rng.randint(5, 45)):
        cell, digit = rng.randrange(81), rng.randint(1, 9)
        if grid[cell] == 0 and reference_solver._fits(grid, cell, digit):
            grid[cell] = digit
    return grid


def _shuffled_solution(rng: random.Random) -> list[int]:
    digits = list(range(1, 10))
    rng.shuffle(digits)
    return [digits[d - 1] for d in solution()]


def test_the_counter_agrees_with_a_simple_solver_on_many_random_positions():
    rng = random.Random(2024)
    seen = {0: 0, 1: 0, 2: 0}
    compared = 0
    while compared < 200:
        if rng.random() < 0.5:  # a position of a real game: part of some solution, perhaps broken
            grid = [d if rng.random() < rng.uniform(0.3, 0.9) else 0 for d in _shuffled_solution(rng)]
            if rng.random() < 0.5:
                cell = rng.randrange(81)
                grid[cell] = 0
                grid[cell] = next((d for d in range(1, 10) if reference_solver._fits(grid, cell, d)), 0)
        else:  # random digits where the rules allow them: often a hidden contradiction
            grid = _random_position(rng)
        expected = reference_solver.count(grid, 2, budget=20_000)
        if expected is None:
            continue  # too slow for the simple solver; the fast one is checked on the others
        compared += 1
        seen[expected] += 1
        assert native.count(bytes(grid)) == expected, grid
        empty = [i for i in range(81) if grid[i] == 0]
        if expected and empty:
            cell = rng.choice(empty)
            digit = rng.randint(1, 9)
            others = [
                grid[:cell] + [e] + grid[cell + 1 :]
                for e in range(1, 10)
                if e != digit and reference_solver._fits(grid, cell, e)
            ]
            counts = [reference_solver.count(g, 2, budget=20_000) for g in others]
            if None not in counts:
                assert native.count(bytes(grid), 2, exclude=(cell, digit)) == min(sum(counts), 2)
    assert all(seen.values()), seen  # none, one and several solutions each seen
