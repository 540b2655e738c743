"""Chomp test player that plays as chomp_last.c but ends every row with a space and a
carriage return: legal, forgiven, and warned of."""

import sys

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
widths = [next((c for c, x in enumerate(row) if x == "*"), cols) for row in grid]
last = max((r for r in range(rows) if widths[r] > 0), default=0)
if last > 0:
    grid[last][widths[last] - 1] = "*"
elif widths[0] > 1:
    grid[0][widths[0] - 1] = "*"
else:
    grid[0][0] = "*"
sys.stdout.write("".join("".join(row) + " \r\n" for row in grid))
