"""Nim test player that answers in words, not with a number of stones."""

import sys

for _line in sys.stdin:
    print("all of them", flush=True)
