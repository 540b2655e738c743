"""Chomp test player that prints the grid it was given: no chomp, an illegal reply."""

import sys

sys.stdout.write(sys.stdin.read())
