"""Hearts and Flowers test player that computes for 0.6 s of CPU on an empty board (its
first move as Hearts), then plays W1 at once every move."""

import sys
import time

n = int(sys.stdin.readline())
board = [sys.stdin.readline().strip() for _ in range(n)]
if all(set(row) <= {"."} for row in board):
    while time.process_time() < 0.6:
        pass
print("W1")
