"""Nim's plain player: takes one stone."""

import sys

for line in sys.stdin:
    print(1, flush=True)
