"""Chomp test player that plays as chomp_last.c after making 1,200 folders, each inside the
last, in its folder: deeper than Python's recursion limit (the referee's walk once raised
RecursionError)."""

import os
import sys

rows, cols = int(sys.argv[1]), int(sys.argv[2])
grid = [list(sys.stdin.readline().rstrip("\n")) for _ in range(rows)]
home = os.getcwd()
for _ in range(1200):
    os.mkdir("deep")
    os.chdir("deep")
os.chdir(home)
widths = [next((c for c, x in enumerate(row) if x == "*"), cols) for row in grid]
last = max((r for r in range(rows) if widths[r] > 0), default=0)
if last > 0:
    grid[last][widths[last] - 1] = "*"
elif widths[0] > 1:
    grid[0][widths[0] - 1] = "*"
else:
    grid[0][0] = "*"
sys.stdout.write("".join("".join(row) + "\n" for row in grid))
