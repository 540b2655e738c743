"""Sudoku test player: writes a move without its newline, then waits."""

import sys
import time

sys.stdin.readline()
sys.stdout.write("Ea1")
sys.stdout.flush()
time.sleep(1000)
