"""Highest unique: four, then three, two, one, five, and again."""

import sys

for line in sys.stdin:
    print((4, 3, 2, 1, 5)[(int(line) - 1) % 5], flush=True)
