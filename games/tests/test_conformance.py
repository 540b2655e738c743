"""One suite for every registered game: playouts end, replays re-derive, golden files hold."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games import registry
from games.base import Illegal, ParamError
from games.playthrough import playthrough

GAMES = sorted(registry.TURN_GAMES)  # move-by-move games; an output-only game has no moves to conform


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_end_within_the_maximum_length(name):
    game = registry.get(name)
    rng = random.Random(1)
    for seed in range(40):
        params = {p.name: rng.randint(p.minimum, min(p.maximum, p.minimum + 4)) for p in game.info.params}
        state = game.initial_state(params, seed)
        for _ in range(game.max_moves(params)):
            if game.to_move(state) is None:
                break
            moves = game.legal_moves(state)
            assert moves, "a game that is not over has a legal move"
            state = game.apply(state, rng.choice(moves))
        assert game.to_move(state) is None, f"{name} {params} not over after max_moves"
        outcome = game.outcome(state)
        assert outcome is not None
        assert len(outcome.points) == len(outcome.scores) == len(outcome.statuses) == game.info.seats


@pytest.mark.parametrize("name", GAMES)
def test_a_replay_re_derives_every_state(name):
    game = registry.get(name)
    rng = random.Random(7)
    params = game.resolve_params({})
    state = game.initial_state(params, 3)
    record = []
    while game.to_move(state) is not None:
        move = rng.choice(game.legal_moves(state))
        record.append((game.move_text(state, move), game.frame(state)))
        state = game.apply(state, move)
    json.dumps([frame for _, frame in record])  # frames are JSON
    again = game.initial_state(params, 3)
    for text, frame in record:
        assert game.frame(again) == frame
        move = game.parse_move(again, text)
        assert not isinstance(move, Illegal), move
        again = game.apply(again, move)
    assert game.outcome(again) == game.outcome(state)


@pytest.mark.parametrize("name", GAMES)
def test_parameters_are_checked(name):
    game = registry.get(name)
    with pytest.raises(ParamError, match="has no parameter"):
        game.resolve_params({"no_such_parameter": 1})
    for p in game.info.params:
        with pytest.raises(ParamError, match="between"):
            game.resolve_params({p.name: p.maximum + 1})
        with pytest.raises(ParamError, match="whole number"):
            game.resolve_params({p.name: "5"})


@pytest.mark.parametrize("name", GAMES)
def test_garbage_replies_are_illegal_never_exceptions(name):
    game = registry.get(name)
    state = game.initial_state({}, 0)
    for text in ["", " ", "\x00\xff", "9" * 10_000, "-1,-1", "W0", "Z9", "1,2,3", "\n\n", "é"]:
        result = game.parse_move(state, text)
        assert isinstance(result, Illegal) or result in game.legal_moves(state)


@pytest.mark.parametrize("name", GAMES)
def test_golden_playthrough(name):
    path = Path(registry.get(name).__module__.replace(".", "/")).parent / "playthrough.json"
    golden = json.loads(path.read_text())
    assert playthrough(name, golden["params"], golden["seed"], golden["moves"]) == golden
