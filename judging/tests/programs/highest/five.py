"""Highest unique: always five."""

import sys

for _ in sys.stdin:
    print(5, flush=True)
