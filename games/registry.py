"""Every game Arbiter hosts, under its short name."""

from __future__ import annotations

from games.base import Game, TurnGame
from games.chomp.rules import Chomp
from games.crossed_words.rules import CrossedWords
from games.hearts_flowers.rules import HeartsFlowers
from games.sudoku.rules import Sudoku
from games.wheels.rules import Wheels

GAMES: dict[str, Game] = {
    game.info.name: game for game in (Chomp(), CrossedWords(), HeartsFlowers(), Sudoku(), Wheels())
}
# The games played move by move (the conformance suite's, the move-by-move referees').
TURN_GAMES: dict[str, TurnGame] = {name: game for name, game in GAMES.items() if isinstance(game, TurnGame)}


class UnknownGame(LookupError):
    pass


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game named {name!r} (known: {', '.join(sorted(GAMES))})") from None
