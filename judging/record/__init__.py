"""The record: the lifecycle of stages and matches, the kept tallies and counts, standings, ratings, publication, verification."""
