"""Chomp test player that keeps a memo in /tmp between moves (says on stderr whether it
found one), then plays as chomp_last.c."""

import os
import sys

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
print("memo found" if os.path.exists("/tmp/memo") else "fresh /tmp", file=sys.stderr)
with open("/tmp/memo", "a") as f:
    f.write("seen\n")
widths = [next((c for c, x in enumerate(row) if x == "*"), cols) for row in grid]
last = max((r for r in range(rows) if widths[r] > 0), default=0)
if last > 0:
    grid[last][widths[last] - 1] = "*"
elif widths[0] > 1:
    grid[0][widths[0] - 1] = "*"
else:
    grid[0][0] = "*"
print("\n".join("".join(row) for row in grid))
