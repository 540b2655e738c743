"""Cards and decks in the Solitaire 500 page's notation, and the deck file.

A card is two characters, rank then suit: ``3h``, ``Js``, ``Kd``; the ten is ``T`` (the page
writes no ten, and two characters keep every status line the same width); ``__`` stands for an
empty pile. A deck is its 52 cards, the top card first.

The deck file (``decks.dat`` on the page) holds one deck per line: its 52 cards as
two-character tokens separated by single spaces, top card first, LF line ends; blank lines
and lines starting with ``#`` are skipped. ``decks_from_seed`` shuffles them reproducibly.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

RANKS = "A23456789TJQK"
SUITS = "cdhs"
FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
EMPTY = "__"


class DeckError(ValueError):
    """A deck or deck file that is not 52 distinct cards per line, in words."""


def parse_deck(line: str, where: str = "deck") -> tuple[str, ...]:
    tokens = line.split(" ")
    if len(tokens) != 52:
        raise DeckError(f"{where}: {len(tokens)} cards, not 52 (cards are separated by single spaces)")
    for i, card in enumerate(tokens, 1):
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise DeckError(f"{where}: card {i} is {card!r}, not a rank of {RANKS} then a suit of {SUITS}")
    missing = sorted(set(FULL_DECK) - set(tokens), key=FULL_DECK.index)
    if missing:
        raise DeckError(f"{where}: {', '.join(missing)} missing (a card appears twice)")
    return tuple(tokens)


def read_decks(text: str) -> list[tuple[str, ...]]:
    decks = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        decks.append(parse_deck(line, where=f"line {number}"))
    if not decks:
        raise DeckError("no decks in the file")
    return decks


def write_decks(decks: Iterable[Sequence[str]]) -> str:
    return "".join(" ".join(deck) + "\n" for deck in decks)


def decks_from_seed(count: int, seed: int) -> list[tuple[str, ...]]:
    """``count`` shuffled decks, the same for the same seed on every machine."""
    rng = random.Random(f"wheels:{seed}")
    decks = []
    for _ in range(count):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        decks.append(tuple(deck))
    return decks


def rank(card: str) -> str:
    return card[0]
