"""Letter values and tile quantities, from the page's table ("Letter Frequency Quantity Point
Value"). The frequencies are the page's counts in its own dictionary, kept for reference only.

198 tiles in all, dealt into three piles of 66 (``inputs.shuffle_pool``).
"""

from __future__ import annotations

# letter: (frequency in the page's dictionary, quantity, point value)
_TABLE = {
    "Q": (1280, 1, 9),
    "J": (1560, 1, 9),
    "X": (2093, 2, 8),
    "Z": (2789, 2, 8),
    "V": (6630, 3, 8),
    "W": (7643, 3, 7),
    "K": (8470, 4, 7),
    "F": (10177, 4, 7),
    "Y": (10454, 5, 6),
    "B": (14517, 5, 6),
    "H": (16013, 6, 6),
    "M": (18679, 6, 5),
    "P": (19352, 7, 5),
    "G": (23306, 7, 5),
    "U": (24113, 8, 4),
    "C": (24352, 8, 4),
    "D": (28472, 9, 4),
    "L": (36518, 9, 3),
    "T": (40175, 10, 3),
    "O": (40237, 11, 3),
    "N": (42939, 12, 2),
    "R": (49151, 13, 2),
    "A": (52152, 14, 2),
    "I": (55594, 15, 1),
    "S": (66684, 16, 1),
    "E": (81239, 17, 1),
}

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Upper-case letter -> its point value.
VALUES: dict[str, int] = {letter: _TABLE[letter][2] for letter in ALPHABET}
# Upper-case letter -> how many tiles of it the pool holds.
COUNTS: dict[str, int] = {letter: _TABLE[letter][1] for letter in ALPHABET}
FREQUENCIES: dict[str, int] = {letter: _TABLE[letter][0] for letter in ALPHABET}
TILES = sum(COUNTS.values())  # 198
PILES = 3
PILE_SIZE = TILES // PILES  # 66


def value(letters: str) -> int:
    """The sum of the single values of ``letters`` (either case): what a discard costs."""
    return sum(VALUES[letter] for letter in letters.upper())
