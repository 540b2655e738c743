"""Chomp test player that tries to remember between moves: it must always find a fresh folder."""

import os
import sys

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
print("memory found" if os.path.exists("memory") else "fresh folder", file=sys.stderr)
with open("memory", "w") as f:
    f.write("seen\n")
widths = [sum(ch in "XO" for ch in row) for row in grid]
last = max(r for r in range(rows) if widths[r] > 0)
if last > 0:
    grid[last][widths[last] - 1] = "*"
elif widths[0] > 1:
    grid[0][widths[0] - 1] = "*"
else:
    grid[0][0] = "*"
print("\n".join("".join(row) for row in grid))
