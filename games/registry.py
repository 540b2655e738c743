"""Every game Arbiter hosts, under its short name: the built-in games, and the uploaded ones
(games/hosted.py) a source installed by the database's app finds, as ``name@version``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from games.base import Game, TurnGame
from games.chomp.rules import Chomp
from games.crossed_words.rules import CrossedWords
from games.hearts_flowers.rules import HeartsFlowers
from games.sudoku.rules import Sudoku
from games.wheels.rules import Wheels

BUILT_IN: dict[str, Game] = {
    game.info.name: game for game in (Chomp(), CrossedWords(), HeartsFlowers(), Sudoku(), Wheels())
}
# The games played move by move (the conformance suite's, the move-by-move referees').
TURN_GAMES: dict[str, TurnGame] = {name: game for name, game in BUILT_IN.items() if isinstance(game, TurnGame)}


class Source(Protocol):
    """Where uploaded games are found (contests.hosting's, over the database)."""

    def find(self, name: str) -> Game | None:
        """The game of this name: ``name@version``, or a bare name for its newest version."""

    def names(self) -> list[str]:
        """Every game it has, as ``name@version``."""


class Games(Mapping[str, Game]):
    """The built-in games, then what each installed source finds."""

    def __init__(self, built_in: dict[str, Game]) -> None:
        self.built_in = built_in
        self.sources: list[Source] = []

    def install(self, source: Source) -> None:
        if source not in self.sources:
            self.sources.append(source)

    def __getitem__(self, name: str) -> Game:
        game = self.built_in.get(name)
        if game is not None:
            return game
        if isinstance(name, str):
            for source in self.sources:
                game = source.find(name)
                if game is not None:
                    return game
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        yield from self.built_in
        for source in self.sources:
            yield from source.names()

    def __len__(self) -> int:
        return sum(1 for _ in self)


GAMES = Games(BUILT_IN)


class UnknownGame(LookupError):
    pass


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game named {name!r} (known: {', '.join(sorted(GAMES))})") from None
