"""The pool of letters and the files a program finds in its folder.

"Each file contains three lines of text, 66 characters in each line ... The final test files
will be the same length, but will contain a different "pool" of letters (the same 198
letters randomized into a different order)."

Files written by ``write_inputs``, all in one folder:

  input10.txt, input13.txt, input1310.txt   the three piles, one a line, upper case, each
                                            line (the third too) ended by LF, CR or CR/LF
  dict10/, dict13/, dict1310/               a.txt .. z.txt, see ``dictionary``
  seconds.txt                               the limit then CR/LF ("the number 300 followed by
                                            a carriage return then by a line feed")
  seconds10.txt                             the limit then LF ("followed by a line feed only")

Decision: the third line of an input file has its line end too. The page says the lines are
"separated", but says of the dictionary that "every file ends with the EOL character" after a
contestant tripped on a file without one; a program that reads three lines reads either.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from games.crossed_words import dictionary, letters

# The seed of the practice pool: the day the contest started (17 December 2000).
PRACTICE_SEED = 20001217
INPUT_FILES = {"input10.txt": "\n", "input13.txt": "\r", "input1310.txt": "\r\n"}
SECONDS_FILES = {"seconds.txt": "\r\n", "seconds10.txt": "\n"}


def pool() -> str:
    """The 198 tiles in alphabetical order."""
    return "".join(letter * count for letter, count in letters.COUNTS.items())


def shuffle_pool(seed: int) -> tuple[str, str, str]:
    """The 198 tiles shuffled by ``random.Random(seed)`` and dealt into three piles of 66, in
    order: the first 66 are pile 1. The same seed gives the same piles on every Python since
    3.2 (``Random.shuffle`` of an integer seed)."""
    tiles = list(pool())
    random.Random(seed).shuffle(tiles)
    size = letters.PILE_SIZE
    return "".join(tiles[:size]), "".join(tiles[size : 2 * size]), "".join(tiles[2 * size :])


def check_piles(piles: Sequence[str]) -> tuple[str, str, str]:
    """Three piles of upper-case letters A-Z, or a ``ValueError``."""
    if len(piles) != letters.PILES:
        raise ValueError(f"there are {len(piles)} piles; the game has {letters.PILES}")
    for number, pile in enumerate(piles, start=1):
        if not (pile.isascii() and pile.isalpha() and pile.isupper()):
            raise ValueError(f"pile {number} must be upper-case letters A-Z: {pile[:70]!r}")
    return piles[0], piles[1], piles[2]


def write_inputs(folder: Path, piles: Sequence[str], words: Iterable[str], seconds: int) -> None:
    """Every file of the page's "Summary of Details" into ``folder`` (created if need be)."""
    piles = check_piles(piles)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 1:
        raise ValueError(f"the time limit must be a whole number of seconds, at least 1: {seconds!r}")
    folder.mkdir(parents=True, exist_ok=True)
    for name, line_end in INPUT_FILES.items():
        (folder / name).write_bytes("".join(pile + line_end for pile in piles).encode("ascii"))
    dictionary.write_dictionaries(folder, words)
    for name, line_end in SECONDS_FILES.items():
        (folder / name).write_bytes(f"{seconds}{line_end}".encode("ascii"))
