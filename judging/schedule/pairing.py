"""Swiss pairing by maximum-weight matching: a pure function of the placings, the pairs met
and the byes had (no Django), called by ``tournaments.schedule_swiss_round``.

A round's pairs are a perfect matching of the players (all of them but the bye) that is the
best by four rules, each counting only among the matchings best by the ones before it:

1. the fewest rematches (none while a pairing without one exists);
2. players near their own points group: the least sum of the squared distances between the
   groups of a pair's two players (groups: the distinct points, best first);
3. the fewest first-move clashes: two players who have both moved first more often than
   second (or both less often) in this stage, counted by the smaller imbalance of the two;
4. players near each other in the order: the least sum of the squared distances between the
   places of a pair's two players (1-2, 3-4 ...; 1-3, 2-4 when 1-2 and 3-4 have met).

Each rule is a whole number per pair; the weight of a pair is a sum of them scaled so that a
rule outweighs the sum of all those after it over the whole round, and rustworkx's blossom
algorithm (``max_weight_matching``, Edmonds' primal-dual method, a port of networkx's) finds
the heaviest matching among those of greatest size. Rustworkx's weights are 128-bit integers:
the scaled sums stay far below that bound for fields of ten thousand.

Not every pair is offered to the matching: a field of a thousand would make half a million
edges. Each player is offered the ``PARTNERS`` nearest players below it that it has not met,
and the next player below it (met or not, so that a perfect matching always exists). If the
best matching of those still holds a rematch, the offer widens (four times as many) until it is
every pair: a pairing without rematches is found whenever one exists. Among the pairs not
offered, rule 2 and 4 would rarely choose any (they are far apart in the order); the bench
(``bench/bench_swiss.py``) measures the time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import rustworkx

PARTNERS = 12  # the unmet players below each one that its pairing may pick from, at first


def swiss_pairs(
    order: Sequence[int],
    met: set[frozenset[int]],
    byes: Mapping[int, int] | None = None,
    *,
    points: Mapping[int, float] | None = None,
    firsts: Mapping[int, int] | None = None,
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair the players of ``order`` (best placed first) for a Swiss round: the pairs, each
    with the player who moves first in its first game first, listed by the place of their
    better player, and the one who sits out (None with an even number).

    ``met``: the pairs that have played each other. ``byes``: player to byes had so far; the
    bye goes to the lowest placed of those with the fewest, so nobody has a second while
    another has none, as in FIDE's Swiss rules. ``points``: player to points so far (its points
    group; all in one if None). ``firsts``: player to games moved first less games moved
    second so far; of a pair, the one with fewer moves first, else the better placed, moves
    first. The rules and their order are the module's docstring."""
    bye = None
    if len(order) % 2:
        byes = byes or {}
        fewest = min(byes.get(p, 0) for p in order)
        bye = next(p for p in reversed(order) if byes.get(p, 0) == fewest)
    players = [p for p in order if p != bye]
    if not players:
        return [], bye
    balance = [(firsts or {}).get(p, 0) for p in players]
    values = sorted({(points or {}).get(p, 0.0) for p in players}, reverse=True)
    group_of = {value: i for i, value in enumerate(values)}
    group = [group_of[(points or {}).get(p, 0.0)] for p in players]

    partners = PARTNERS
    while True:
        edges = _offered(players, met, partners)
        mates = _best_matching(len(players), edges, group, balance)
        if partners >= len(players) or not any(frozenset((players[i], players[j])) in met for i, j in mates):
            break
        partners *= 4
    pairs = []
    for i, j in sorted(mates):
        first, second = (j, i) if balance[j] < balance[i] else (i, j)
        pairs.append((players[first], players[second]))
    return pairs, bye


def _offered(players: list[int], met: set[frozenset[int]], partners: int) -> list[tuple[int, int, bool]]:
    """The pairs (i < j, places in ``players``) the matching may choose, each with whether it
    is a rematch: for each player, the ``partners`` nearest below it not met, and the next one;
    every pair once ``partners`` reaches the field's size."""
    every = partners >= len(players)
    edges = []
    for i, mine in enumerate(players):
        found = 0
        for j in range(i + 1, len(players)):
            rematch = frozenset((mine, players[j])) in met
            if every or not rematch or j == i + 1:
                edges.append((i, j, rematch))
            found += not rematch
            if found >= partners:
                break
    return edges


def _clash(a: int, b: int) -> int:
    """How far two players who both want the same first move (both have moved first more, or
    both less, than second) leave the one less out of balance."""
    return min(abs(a), abs(b)) if a * b > 0 else 0


def _best_matching(
    count: int, edges: list[tuple[int, int, bool]], group: list[int], balance: list[int]
) -> list[tuple[int, int]]:
    """The perfect matching of ``count`` places (even) over ``edges`` that is best by the
    module's rules, as (i, j) with i < j."""
    costs = [
        (int(rematch), (group[i] - group[j]) ** 2, _clash(balance[i], balance[j]), (j - i) ** 2)
        for i, j, rematch in edges
    ]
    # A rule's unit outweighs all that the rules after it can add up to over a round's pairs;
    # a pair's weight is the most any pair can cost less its own, so that each is positive.
    pairs = count // 2
    worst = [max(cost[rule] for cost in costs) for rule in range(4)]
    unit = [1, 1, 1, 1]
    for rule in (2, 1, 0):
        unit[rule] = pairs * sum(worst[later] * unit[later] for later in range(rule + 1, 4)) + 1
    most = sum(w * u for w, u in zip(worst, unit, strict=True)) + 1
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(count))
    for (i, j, _), (rematch, groups, clash, places) in zip(edges, costs, strict=True):
        graph.add_edge(i, j, most - (rematch * unit[0] + groups * unit[1] + clash * unit[2] + places))
    found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda weight: weight)
    return [(min(i, j), max(i, j)) for i, j in found]


def swiss_groups(
    order: Sequence[int], met: set[frozenset[int]], byes: Mapping[int, int], size: int
) -> tuple[list[list[int]], list[int]]:
    """A Swiss round of games of ``size`` seats: (groups, those sitting out). ``order`` is the
    players best first (the standings' order, so neighbours are of near points); ``met`` the
    pairs that shared a game; ``byes`` how many rounds each sat out. The ``len(order) % size``
    who sit out are the lowest placed of those with the fewest byes; the rest are taken in
    order, each group the best placed left and, of the next ``2 × size`` in order, those who
    met the fewest of the group so far (the nearer on a tie): players of near points together,
    rematches only where the neighbours leave no other."""
    out = sorted(order, key=lambda p: (byes.get(p, 0), -order.index(p)))[: len(order) % size]
    left = [p for p in order if p not in out]
    groups = []
    while left:
        group = [left.pop(0)]
        while len(group) < size:
            near = left[: 2 * size]
            chosen = min(near, key=lambda p: (sum(frozenset((p, q)) in met for q in group), left.index(p)))
            group.append(chosen)
            left.remove(chosen)
        groups.append(group)
    return groups, sorted(out, key=order.index)
