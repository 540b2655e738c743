"""Swiss pairing as it was before issue 35, kept to compare with: the tests of
``judging.schedule.pairing`` and ``bench/bench_swiss.py`` (which runs without Django) use it."""

from __future__ import annotations


def backtracking_pairs(order, met, byes=None):
    """The pairing before issue 35, as it was: each player, best first, with the best-placed
    player below it not met, backtracking when the rest cannot be paired; with rematches (any)
    only when nothing else works. Exponential: small fields only."""
    bye = None
    if len(order) % 2:
        byes = byes or {}
        fewest = min(byes.get(p, 0) for p in order)
        bye = next(p for p in reversed(order) if byes.get(p, 0) == fewest)
        order = [p for p in order if p != bye]

    def pair(rest, allow_rematch):
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for i, second in enumerate(others):
            if not allow_rematch and frozenset((first, second)) in met:
                continue
            tail = pair(others[:i] + others[i + 1 :], allow_rematch)
            if tail is not None:
                return [(first, second), *tail]
        return None

    pairs = pair(order, allow_rematch=False)
    if pairs is None:
        pairs = pair(order, allow_rematch=True) or []
    return pairs, bye
