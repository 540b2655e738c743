"""Any OpenSpiel game: a legal action drawn at random (seeded by the game's first line)."""

import random
import sys

rng = random.Random()
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "game":
        rng.seed(rest)
    elif word == "legal":
        print(rng.choice(rest.split()).split(":")[0], flush=True)
