"""Chomp test player for the fault tests: as chomp_last.c (the last cookie of the lowest row),
but it thinks for a tenth of a second first, so that a game lasts long enough to be interrupted."""

import sys
import time

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
time.sleep(0.1)
widths = [next((c for c, x in enumerate(row) if x == "*"), cols) for row in grid]
last = max((r for r in range(rows) if widths[r] > 0), default=0)
if last > 0:
    grid[last][widths[last] - 1] = "*"
elif widths[0] > 1:
    grid[0][widths[0] - 1] = "*"
else:
    grid[0][0] = "*"
print("\n".join("".join(row) for row in grid))
