"""Every game Arbiter hosts, under its short name."""

from __future__ import annotations

from games.base import Game
from games.chomp.rules import Chomp
from games.hearts_flowers.rules import HeartsFlowers
from games.sudoku.rules import Sudoku

GAMES: dict[str, Game] = {game.info.name: game for game in (Chomp(), HeartsFlowers(), Sudoku())}


class UnknownGame(LookupError):
    pass


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game named {name!r} (known: {', '.join(sorted(GAMES))})") from None
