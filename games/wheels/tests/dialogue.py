"""The page's sample dialogue ("a test run of the pace car on a set of eight decks, after it had
solved decks one, two, and three, and discarded three sets from deck four"), and a table in
the state it starts from, worked back from the cards it shows.

Each exchange is (what the client sent, the server's lines as the page prints them, each on
one line). The page's log was edited by hand ("based on a test run"): its clock goes back
after the first ``lay`` and it shows 9 sets left after a ``lay`` that leaves 8; and the first
``lay`` after ``3012`` shows Js, which was on top of pile 1, where the cards laid after a
pick-up come from the bottom of the first pile named (pile 3). ``DIFFERENCES`` lists those
lines as the server answers them; docs/games.md says why.
"""

from __future__ import annotations

from games.wheels.cards import FULL_DECK, decks_from_seed, write_decks
from games.wheels.table import Table

DIALOGUE: list[tuple[str, list[str]]] = [
    ("status", ["OK 3h Js Kd Ks time 883 round 77 move 1271 3 sets left in deck 4 of 8 decks"]),
    ("32", ["OK 3h Js Ks 3c time 884 round 77 move 1272 3 sets left in deck 4 of 8 decks"]),
    ("30", ["OK 3c Js Ks 2h time 885 round 77 move 1273 3 sets left in deck 4 of 8 decks"]),
    ("lay", ["OK Kc Kh 4s 4c time 883 round 77 move 1273 2 sets left in deck 4 of 8 decks"]),
    ("32", ["OK Kc Kh 4c 2h time 884 round 77 move 1274 2 sets left in deck 4 of 8 decks"]),
    ("21", ["ERR cannot move 21"]),
    ("status", ["OK Kc Kh 4c 2h time 886 round 77 move 1274 2 sets left in deck 4 of 8 decks"]),
    ("10", ["OK Kh Js 4c 2h time 887 round 77 move 1275 2 sets left in deck 4 of 8 decks"]),
    ("lay", ["OK 8s 8h 8d 8c time 887 round 77 move 1275 1 sets left in deck 4 of 8 decks"]),
    (
        "discard lay",
        [
            "OK Kh Js 4c 2h time 887 round 77 move 1275 1 sets left in deck 4 of 8 decks",
            "OK Ac As Ad 4d time 887 round 77 move 1275 0 sets left in deck 4 of 8 decks",
        ],
    ),
    (
        "21 10 32 10 3012 lay syncA",
        [
            "OK Ac Ad 4c 4d time 888 round 77 move 1276 0 sets left in deck 4 of 8 decks",
            "OK Ad As 4c 4d time 888 round 77 move 1277 0 sets left in deck 4 of 8 decks",
            "OK Ad As 4d 2h time 888 round 77 move 1278 0 sets left in deck 4 of 8 decks",
            "OK As Js 4d 2h time 888 round 77 move 1279 0 sets left in deck 4 of 8 decks",
            "OK __ __ __ __ time 888 round 78 move 1279 9 sets left in deck 4 of 8 decks",
            "OK Js 9c 9d 9s time 888 round 78 move 1279 9 sets left in deck 4 of 8 decks",
            "OK, synching syncA",
        ],
    ),
    ("blat", ['ERR what is "blat"? I know: status lay win discard NN NNNN sync... close']),
    ("win", ["ERR there are still cards in this deck"]),
]

# The page's line -> the server's: the deal after 3012 is pile 3's bottom four cards (Jh, not
# the Js on top of pile 1), and a lay of four cards leaves 8 sets of the 9, not 9.
DIFFERENCES = {
    "OK Js 9c 9d 9s time 888 round 78 move 1279 9 sets left in deck 4 of 8 decks": (
        "OK Jh 9c 9d 9s time 888 round 78 move 1279 8 sets left in deck 4 of 8 decks"
    ),
}

# The state before the first line. Sets of 5s, 6s and 7s were discarded earlier; the cards
# under the ones the dialogue shows are the other 22 of the deck, pile 3's bottom four being
# the four the page lays after the pick-up (with Jh for the Js it could not be). Each pile
# holds seven cards: the state is seven lays into a round (see ``deck_file``).
PILES = [
    ["Qc", "Qd", "Qh", "Qs", "Ah", "Tc", "3h"],
    ["Td", "Th", "Ts", "4h", "2c", "2d", "Js"],
    ["2s", "3d", "3s", "Jc", "Jd", "9h", "Kd"],
    ["Jh", "9c", "9d", "9s", "2h", "3c", "Ks"],
]
HAND = ["Kc", "Kh", "4s", "4c", "8s", "8h", "8d", "8c", "Ac", "As", "Ad", "4d"]
DISCARDED = ["5", "6", "7"]
# From a fresh first deck of ``deck_file``: a round of thirteen lays discarding the 5s, 6s and
# 7s as they come out together, a pick-up, and seven lays of the next round.
PREAMBLE = ["lay"] * 10 + ["lay", "discard"] * 3 + ["0123"] + ["lay"] * 7


def deck_file() -> str:
    """Eight decks whose first reaches the dialogue's state by ``PREAMBLE``: its counters are
    then round 2, move 0, deck 1 (the page's: 77, 1271, deck 4), every card as the page's."""
    lays = [[pile[k] for pile in PILES] for k in range(7)]
    second_round = [card for lay in lays for card in lay] + HAND  # the deck in hand after the pick-up
    # picked up 0123, each pile bottom first: pile i of the first round is second_round[10i:10i+10]
    first = [second_round[10 * i + k] for k in range(10) for i in range(4)]
    first += [rank + suit for rank in DISCARDED for suit in "cdhs"]
    return write_decks([tuple(first), *decks()[1:]])


def decks() -> list[tuple[str, ...]]:
    """Eight decks; the fourth is the one in play (its order no longer matters)."""
    return decks_from_seed(8, 1999)


def table() -> Table:
    """A table in the state the dialogue starts from."""
    return Table(
        decks=decks(),
        deck=3,
        hand=list(HAND),
        piles=[list(p) for p in PILES],
        round=77,
        moves=1271,
        discarded=3,
    )


def check_cards() -> None:
    """The state holds each card of a deck once, but for the three sets discarded."""
    held = [c for p in PILES for c in p] + HAND
    expected = sorted(c for c in FULL_DECK if c[0] not in DISCARDED)
    assert sorted(held) == expected, "the sample's cards are not one deck"
