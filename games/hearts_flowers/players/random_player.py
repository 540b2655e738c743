#!/usr/bin/env python3
"""Hearts and Flowers: a random legal player, for system tests.

Reads n and the board (it plays Hearts, H) and prints one move such as W2.
"""

import random
import sys


def main():
    n = int(sys.stdin.readline())
    for _ in range(n):
        sys.stdin.readline()
    move = f"{random.choice('NSEW')}{random.randint(1, n)}"
    print(move, file=sys.stderr)
    print(move)


if __name__ == "__main__":
    main()
