"""Every race game keeps the race contract of games/base.py: its server is a RaceServer whose
snapshot holds each RaceProgress key the referee reads, and its live columns name keys of it."""

import asyncio
import typing

import pytest

from games import registry
from games.base import RaceGame, RaceProgress, RaceServer

RACES = [name for name, game in registry.BUILT_IN.items() if isinstance(game, RaceGame)]


@pytest.mark.parametrize("name", RACES)
def test_a_race_game_keeps_the_race_contract(name):
    game = registry.get(name)
    params = game.resolve_params({})

    async def look():
        server = game.server(params, 7, {"alice": "pw", "bob": "pw"}, start_timeout_s=0.1)
        assert isinstance(server, RaceServer)
        snapshot = server.snapshot()
        logs = server.logs()
        await server.close()
        return snapshot, logs

    snapshot, logs = asyncio.run(look())
    assert [entrant["name"] for entrant in snapshot] == ["alice", "bob"] and set(logs) == {"alice", "bob"}
    for entrant in snapshot:
        assert set(typing.get_type_hints(RaceProgress)) <= set(entrant), "a key the referee reads is missing"
        for column in game.live_columns(params):
            assert column.key in entrant, column
    assert game.over(params, snapshot) is False  # nobody has finished
