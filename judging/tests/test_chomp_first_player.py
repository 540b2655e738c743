"""Strategy stealing through the real referee and sandbox: the shipped perfect player, moving
first, beats the random player (games/tests/test_chomp_strategy_stealing.py plays every board
up to 6 x 6 through the rules engine alone)."""

import pytest

from games import registry
from games.clocks import Clock
from judging.play.referee import Player, play

pytestmark = pytest.mark.once

chomp = registry.get("chomp")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_perfect_player_moving_first_wins_through_the_referee(program, seed):
    names = ["chomp/players/perfect.py", "chomp/players/random_player.c"]
    players = [Player(name=n, program=program(n), submission={"language": "test"}) for n in names]
    record = play(chomp, {"rows": 4, "cols": 5}, seed, players, Clock.from_json(chomp.default_clock))
    assert record.outcome.statuses == ("win", "loss"), record.outcome.reason
    assert record.outcome.reason == "seat 1 ate the poison cookie"
    assert all("status" not in move for move in record.replay["moves"])
