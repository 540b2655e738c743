"""One entrant's game of Wheels, as the server keeps it: the decks of the puzzle, the deck in
hand, the four piles and the counters, and every command of the Stateful Wheels Protocol.

Plain Python and no I/O: the server (``server.py``) feeds it the words of an instruction and
the time, and sends back what it answers. Decisions where the page is silent or inconsistent
are in docs/games.md ("Wheels"); in short:

- ``lay`` deals the next four cards of the deck in hand onto piles 0, 1, 2, 3;
- ``NN`` moves pile N1's top card onto pile N2's when N2 < N1 and the two ranks match; only
  these count as moves (the page's move counter does not move on ``lay``, ``discard`` or a
  pick-up);
- ``discard`` removes the four top cards when all four are of one rank;
- ``NNNN`` (each pile named once) is allowed once the deck in hand is used up: the piles are
  picked up in the order named, each turned over onto the bottom of the deck in hand, so the
  bottom card of the first pile named is the next card laid; a new round begins;
- ``win`` once all thirteen sets of the deck are discarded starts the next deck, and a new
  round; on the last deck it finishes the game;
- "sets left in deck" is the number of cards in hand / 4 (a fresh deck has thirteen).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

from games.wheels.cards import EMPTY, rank

KNOWN = "status lay win discard NN NNNN sync... close"
FINISHED_CARDS = "FI NI SH ED"
# every move: lay, discard, win, NN and NNNN (a set: a 1 MiB line is told in a few ms)
MOVE_WORDS = frozenset(["lay", "discard", "win", *("".join(p) for n in (2, 4) for p in product("0123", repeat=n))])
_SYNC = re.compile(r"sync\w+", re.ASCII)


@dataclass
class Answer:
    """What the server sends back for one command, and what the command was."""

    line: str  # without its newline; empty for close
    move: bool = False  # a move-containing command (rate-limited)
    illegal: bool = False  # a move the rules refused (a pit stop)
    close: bool = False
    dump: bool = False


def is_move(word: str) -> bool:
    return word in MOVE_WORDS


@dataclass
class Table:
    decks: Sequence[Sequence[str]]
    deck: int = 0  # index of the deck in play
    hand: list[str] | None = None  # the deck in hand, the next card to lay first (None: the whole deck)
    piles: list[list[str]] = field(default_factory=lambda: [[], [], [], []])  # bottom card first
    round: int = 1
    moves: int = 0
    discarded: int = 0  # sets of the deck in play discarded
    finished: bool = False
    illegal: int = 0  # moves refused, over the game
    instructions: int = 0  # lines received with at least one command

    def __post_init__(self) -> None:
        if not self.decks:
            raise ValueError("a game needs at least one deck")
        if self.hand is None:
            self.hand = list(self.decks[self.deck])

    # What the page's status line shows.
    def tops(self) -> str:
        if self.finished:
            return FINISHED_CARDS
        return " ".join(p[-1] if p else EMPTY for p in self.piles)

    def status(self, seconds: int) -> str:
        return (
            f"OK {self.tops()} time {seconds} round {self.round} move {self.moves} "
            f"{len(self.hand) // 4} sets left in deck {self.deck + 1} of {len(self.decks)} decks"
        )

    def progress(self) -> tuple[int, int]:
        """(decks won, sets discarded of the deck in play): how far along the game is."""
        return (len(self.decks) if self.finished else self.deck), self.discarded

    def dump(self) -> str:
        piles = " | ".join(" ".join(p) or EMPTY for p in self.piles)
        return f"deck {self.deck + 1} hand [{' '.join(self.hand)}] piles (bottom first) [{piles}] discarded {self.discarded}"

    # The commands.
    def execute(self, word: str, seconds: int) -> Answer:
        if word == "status":
            return Answer(self.status(seconds))
        if word == "close":
            return Answer("", close=True)
        if word == "dump":
            return Answer(self.status(seconds), dump=True)
        if _SYNC.fullmatch(word):
            return Answer(f"OK, synching {word}")
        if not is_move(word):
            shown = word if len(word) <= 40 else word[:40] + "..."
            return Answer(f'ERR what is "{shown}"? I know: {KNOWN}')
        if self.finished:
            return Answer("ERR the game is over: every deck is won", move=True, illegal=True)
        error = self._move(word)
        if error:
            self.illegal += 1
            return Answer(f"ERR {error}", move=True, illegal=True)
        return Answer(self.status(seconds), move=True)

    def _move(self, word: str) -> str:
        """Play a move; what is wrong with it, or "" when it was played."""
        piles = self.piles
        if word == "lay":
            if not self.hand:
                return "cannot lay: no cards left in hand"
            for pile in piles:
                pile.append(self.hand.pop(0))
            return ""
        if word == "discard":
            tops = {rank(p[-1]) for p in piles if p}
            if len(tops) != 1 or not all(piles):
                return "cannot discard: the four top cards do not match"
            for pile in piles:
                pile.pop()
            self.discarded += 1
            return ""
        if word == "win":
            if self.hand or any(piles):
                return "there are still cards in this deck"
            if self.deck + 1 == len(self.decks):
                self.finished = True
            else:
                self.deck += 1
                self.discarded = 0
                self.round += 1
                self.hand = list(self.decks[self.deck])
            return ""
        if len(word) == 2:
            source, target = int(word[0]), int(word[1])
            if target >= source or not piles[source] or not piles[target]:
                return f"cannot move {word}"
            if rank(piles[source][-1]) != rank(piles[target][-1]):
                return f"cannot move {word}"
            piles[target].append(piles[source].pop())
            self.moves += 1
            return ""
        order = [int(c) for c in word]
        if sorted(order) != [0, 1, 2, 3]:
            return f"cannot pick up {word}: name each pile once"
        if self.hand:
            return f"cannot pick up {word}: there are still cards in hand"
        if not any(piles):
            return f"cannot pick up {word}: the piles are empty"
        for n in order:
            self.hand.extend(piles[n])
            piles[n] = []
        self.round += 1
        return ""
