"""Chomp test player: eats the whole lowest row (column 1 of it); on the top row alone, all
but the poison. Deterministic."""

import sys

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
widths = [sum(ch in "XO" for ch in row) for row in grid]
last = max(r for r in range(rows) if widths[r] > 0)
r, c = (last, 0) if last > 0 else ((0, 1) if widths[0] > 1 else (0, 0))
for i in range(r, rows):
    for j in range(c, cols):
        grid[i][j] = "*"
print("ate from row", r + 1, "column", c + 1, file=sys.stderr)
print("\n".join("".join(row) for row in grid))
