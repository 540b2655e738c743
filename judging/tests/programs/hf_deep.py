"""Hearts and Flowers test player that makes 1,200 folders, each inside the last, beside
support/ every move (deeper than Python's recursion limit: the referee once raised
RecursionError emptying them), says whether its folder came back fresh, and plays W1."""

import os
import sys

sys.stdin.read()
print("fresh folder" if not os.path.exists("deep") else "deep folders kept", file=sys.stderr)
home = os.getcwd()
for _ in range(1200):
    os.mkdir("deep")
    os.chdir("deep")
os.chdir(home)
print("W1")
