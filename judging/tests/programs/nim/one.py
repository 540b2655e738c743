"""Nim's plain player: takes one stone."""

import sys

for _line in sys.stdin:
    print(1, flush=True)
