#!/usr/bin/env python3
"""CodeCup Sudoku: a random legal player.

Plays a random digit in a random cell, among the moves the rules allow: the digit is not in
the cell's row, column or box, some solution is left, and some solution has another digit
there (so the number of solutions goes down). When the opponent has left a single solution
it claims it with "!". It never claims with its own move.
"""

import random
import sys

ROWS, COLS = "ABCDEFGHI", "abcdefghi"
ALL = 0x1FF
PEERS = []
for cell in range(81):
    r, c = divmod(cell, 9)
    peers = set()
    for i in range(9):
        peers.add(r * 9 + i)
        peers.add(i * 9 + c)
    br, bc = r - r % 3, c - c % 3
    for rr in range(br, br + 3):
        for cc in range(bc, bc + 3):
            peers.add(rr * 9 + cc)
    peers.discard(cell)
    PEERS.append(tuple(peers))


def candidates(grid):
    cand = [0] * 81
    for cell in range(81):
        if grid[cell] == 0:
            used = 0
            for p in PEERS[cell]:
                if grid[p]:
                    used |= 1 << (grid[p] - 1)
            cand[cell] = ALL & ~used
    return cand


BUDGET = 5000  # search nodes a count may take; past it the answer is "unknown" (None)


class OverBudget(Exception):
    pass


def count(grid, limit, exclude=None):
    """Solutions, up to limit, or None when the search runs over its budget; with
    exclude=(cell, digit), solutions with that digit there are not counted."""
    grid = list(grid)
    cand = candidates(grid)
    if exclude is not None:
        cand[exclude[0]] &= ~(1 << (exclude[1] - 1))
    try:
        return _search(grid, cand, limit, [BUDGET])
    except OverBudget:
        return None


def _search(grid, cand, limit, budget):
    budget[0] -= 1
    if budget[0] < 0:
        raise OverBudget
    best, fewest = -1, 10
    for cell in range(81):
        if grid[cell] == 0:
            n = bin(cand[cell]).count("1")
            if n < fewest:
                best, fewest = cell, n
                if n <= 1:
                    break
    if best < 0:
        return 1
    if fewest == 0:
        return 0
    total = 0
    m = cand[best]
    while m:
        bit = m & -m
        m ^= bit
        digit = bit.bit_length()
        grid2, cand2 = grid[:], cand[:]
        grid2[best] = digit
        ok = True
        for p in PEERS[best]:
            if grid2[p] == 0 and cand2[p] & bit:
                cand2[p] &= ~bit
                if not cand2[p]:
                    ok = False
                    break
        if ok:
            total += _search(grid2, cand2, limit - total, budget)
            if total >= limit:
                return total
    return total


def choose(grid):
    if count(grid, 2) == 1:
        return "!"
    cand = candidates(grid)
    options = [(cell, d) for cell in range(81) if grid[cell] == 0 for d in range(1, 10) if cand[cell] >> (d - 1) & 1]
    random.shuffle(options)
    for cell, d in options:
        after = list(grid)
        after[cell] = d
        if count(after, 1) and count(grid, 1, exclude=(cell, d)):  # None (unknown) is skipped too
            return f"{ROWS[cell // 9]}{COLS[cell % 9]}{d}"
    return "!"  # nothing legal is left: only a claim can win


def play(grid, move):
    if move != "!" and move != "Start":
        cell = ROWS.index(move[0]) * 9 + COLS.index(move[1])
        grid[cell] = int(move[2])


def main():
    grid = [0] * 81
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line == "Quit":
            return
        play(grid, line.rstrip("!"))
        move = choose(grid)
        play(grid, move)
        print(move, flush=True)
        print(f"played {move}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
