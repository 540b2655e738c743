"""Connect Four: a player that drops in a random column that is not full (see rules.md).

Its random numbers always start from the same seed, so a game against the same opponent
plays out the same way each time.
"""

import random

rows, columns = map(int, input().split())
discs = [0] * columns  # how many discs each column holds
chance = random.Random(1)
while (line := input()) != "Quit":
    if line != "Start":
        discs[int(line) - 1] += 1
    column = chance.choice([c for c in range(columns) if discs[c] < rows])
    discs[column] += 1
    print(column + 1, flush=True)
