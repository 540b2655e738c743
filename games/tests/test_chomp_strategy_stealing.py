"""External validation of Chomp: the first player wins every rectangular board.

Strategy stealing: if taking only the bottom-right cookie lost, the reply that wins against it
would have been available as the first move. So on every rectangle larger than 1 × 1 the
first player has a winning strategy. A perfect player found by exhaustive search (here, in the
test, independent of the shipped players) must therefore win every game it starts, whatever
its opponent does, when the moves go through the game's rules engine (games/chomp/rules.py).

games/chomp/players/perfect.py is the reference player: it searches exhaustively within a
budget of nodes and falls back on a heuristic beyond. Where its search fits, it must agree
with the exhaustive search here: from every winning position it takes a winning chomp.
"""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from pathlib import Path

import pytest

from games.chomp.rules import Chomp, ChompState

game = Chomp()
SMALL = [(rows, cols) for rows in range(2, 7) for cols in range(2, 7)]  # every board up to 6 x 6
LARGER = [(7, 7), (8, 8), (2, 50), (3, 20), (4, 12), (6, 9)]
PERFECT_PY = Path(__file__).resolve().parents[1] / "chomp" / "players" / "perfect.py"


def _after(widths: tuple[int, ...], row: int, col: int) -> tuple[int, ...]:
    """Row widths after a chomp at (row, col), both from 1; empty rows at the bottom dropped."""
    out = [w if r < row - 1 else min(w, col - 1) for r, w in enumerate(widths)]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


@cache
def to_move_wins(widths: tuple[int, ...]) -> bool:
    """The player to move wins from here (the poison is at widths[0] >= 1). With the poison
    alone left, the only chomp eats it: that loses."""
    return any(
        not to_move_wins(_after(widths, r, c))
        for r, w in enumerate(widths, start=1)
        for c in range(1, w + 1)
        if (r, c) != (1, 1)
    )


def _live(state: ChompState) -> tuple[int, ...]:
    widths = list(state.widths)
    while widths and widths[-1] == 0:
        widths.pop()
    return tuple(widths)


def perfect(state: ChompState, rng: random.Random) -> tuple[int, int]:
    """A winning chomp when there is one; otherwise any chomp that does not eat the poison
    (the poison only when nothing else is left)."""
    moves = game.legal_moves(state)
    widths = _live(state)
    winning = [m for m in moves if m != (1, 1) and not to_move_wins(_after(widths, *m))]
    if winning:
        return rng.choice(winning)
    safe = [m for m in moves if m != (1, 1)]
    return rng.choice(safe) if safe else (1, 1)


def random_player(state: ChompState, rng: random.Random) -> tuple[int, int]:
    return rng.choice(game.legal_moves(state))


def greedy(state: ChompState, rng: random.Random) -> tuple[int, int]:
    """Eats as little as it can, never the poison while it has a choice."""
    widths = _live(state)
    safe = [m for m in game.legal_moves(state) if m != (1, 1)] or [(1, 1)]
    return min(safe, key=lambda m: (-sum(_after(widths, *m)), rng.random()))


def play(rows: int, cols: int, first, second, seed: int):
    rng = random.Random(seed)
    state = game.initial_state({"rows": rows, "cols": cols}, seed)
    players = (first, second)
    while (seat := game.to_move(state)) is not None:
        move = players[seat](state, rng)
        assert game.parse_move(state, game.move_text(state, move)) == move  # a legal move, by the rules
        state = game.apply(state, move)
    return game.outcome(state)


@pytest.mark.parametrize(("rows", "cols"), SMALL + LARGER)
def test_the_first_player_wins_every_rectangle(rows, cols):
    assert to_move_wins((cols,) * rows)


@pytest.mark.parametrize(("rows", "cols"), SMALL + LARGER)
def test_perfect_play_moving_first_wins_every_game(rows, cols):
    opponents = [perfect, greedy] + [random_player] * 5
    for seed, opponent in enumerate(opponents):
        outcome = play(rows, cols, perfect, opponent, seed)
        assert outcome is not None and outcome.statuses == ("win", "loss"), (rows, cols, opponent.__name__, seed)
        assert outcome.reason == "seat 1 ate the poison cookie"


def test_perfect_play_loses_only_from_a_lost_position():
    """Against itself the second player loses every time: it never had a winning chomp."""
    for rows, cols in SMALL:
        outcome = play(rows, cols, perfect, perfect, seed=rows * 10 + cols)
        assert outcome.statuses == ("win", "loss")


def _reachable(widths: tuple[int, ...]):
    seen, todo = {widths}, [widths]
    while todo:
        here = todo.pop()
        for r, w in enumerate(here, start=1):
            for c in range(1, w + 1):
                if (r, c) != (1, 1) and (there := _after(here, r, c)) not in seen:
                    seen.add(there)
                    todo.append(there)
    return seen


@pytest.fixture(scope="module")
def perfect_py():
    spec = importlib.util.spec_from_file_location("chomp_perfect_player", PERFECT_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("rows", "cols"), [(6, 6), (7, 7), (3, 20)])
def test_the_shipped_perfect_player_takes_a_winning_chomp_from_every_winning_position(perfect_py, rows, cols):
    for widths in _reachable((cols,) * rows):
        if widths == (1,) or not to_move_wins(widths):
            continue
        perfect_py.nodes = 0  # a fresh process every move: the budget is per move
        r, c = perfect_py.choose(widths)  # 0-based
        assert not to_move_wins(_after(widths, r + 1, c + 1)), (widths, (r + 1, c + 1))
