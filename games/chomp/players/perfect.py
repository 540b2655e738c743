#!/usr/bin/env python3
"""Chomp: plays perfectly when the position is small enough to search, and sensibly otherwise.

Usage: perfect.py ROWS COLS < grid > grid. A fresh process every move, as the rules ask:
nothing is remembered between moves.

A position is the tuple of row widths (a staircase). It is lost for the player to move when
every chomp leads to a won position; the only chomp from (1,) (the poison alone) loses.
Too large to search: on a square board take (2,2) and then mirror; with only the first row
and column left, make the two arms equal; otherwise the chomp that leaves the smallest
number of cookies in the last row and column, never the poison.
"""

import random
import sys
from functools import cache

NODE_BUDGET = 300_000
# The share of moves chosen as above; the others are a cookie at random (never the poison
# while another is left). The demo enters copies with less, as its medium and weak programs.
CHANCE = 1.0


class TooBig(Exception):
    pass


def chomp(widths, r, c):
    """Widths after eating at row r, column c (0-based); empty rows are dropped."""
    out = list(widths[:r]) + [min(w, c) for w in widths[r:]]
    while out and out[-1] == 0:
        out.pop()
    return tuple(out)


def moves(widths):
    return [(r, c) for r, w in enumerate(widths) for c in range(w) if (r, c) != (0, 0)]


nodes = 0


@cache
def wins(widths):
    """True when the player to move from here wins (with the poison still on the board)."""
    global nodes
    nodes += 1
    if nodes > NODE_BUDGET:
        raise TooBig
    if widths == (1,):
        return False  # only the poison is left
    return any(not wins(chomp(widths, r, c)) for r, c in moves(widths))


def heuristic(widths):
    rows, cols = len(widths), widths[0]
    if rows == cols and all(w == cols for w in widths) and rows > 1:
        return (1, 1)
    if all(w == 1 for w in widths[1:]):  # an L: first row and first column
        arm_right, arm_down = cols - 1, rows - 1
        if arm_right > arm_down:
            return (0, arm_down + 1)
        if arm_down > arm_right:
            return (arm_right + 1, 0)
    if len(widths) == 1:
        return (0, 1)  # leave the poison alone to the opponent
    candidates = moves(widths)
    return min(candidates, key=lambda m: (sum(chomp(widths, *m)) < 2, -sum(chomp(widths, *m))))


def choose(widths):
    if widths == (1,):
        return (0, 0)
    try:
        for r, c in moves(widths):
            if not wins(chomp(widths, r, c)):
                return (r, c)
        return max(moves(widths), key=lambda m: sum(chomp(widths, *m)))  # lost: resist as long as possible
    except TooBig:
        return heuristic(widths)


def main():
    rows, cols = int(sys.argv[1]), int(sys.argv[2])
    grid = [sys.stdin.readline().rstrip("\r\n")[:cols] for _ in range(rows)]
    staircase = tuple(w for w in (sum(1 for ch in line if ch in "XO") for line in grid) if w)
    careless = random.random() >= CHANCE and len(moves(staircase)) > 0
    r, c = random.choice(moves(staircase)) if careless else choose(staircase)
    print(f"chomp at row {r + 1}, column {c + 1}{' (at random)' if careless else ''}", file=sys.stderr)
    for i, line in enumerate(grid):
        if i >= r:
            line = line[:c] + "*" * (cols - c)
        print(line)


if __name__ == "__main__":
    main()
