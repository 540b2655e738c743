"""Swiss pairing by maximum-weight matching (``judging.schedule.pairing``), against the backtracking it
replaced and against every pairing there is, on small fields; on large ones, the rules it
must keep over 24 rounds of random results. No clock here: ``bench/bench_swiss.py`` times it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judging.schedule import pairing
from judging.schedule.pairing import swiss_pairs
from judging.tests.backtracking import backtracking_pairs


def cost(pairs, order, met, points=None, firsts=None):
    """A round's pairing measured by the rules, in their order (the module's docstring),
    written out here again: rematches, squared distances between points groups, first-move
    clashes, squared distances between places (of the players paired, the bye left out)."""
    points, firsts = points or {}, firsts or {}
    paired = {p for pair in pairs for p in pair}
    place = {p: i for i, p in enumerate(p for p in order if p in paired)}
    groups = sorted({points.get(p, 0) for p in paired}, reverse=True)
    group = {p: groups.index(points.get(p, 0)) for p in paired}
    found = [0, 0, 0, 0]
    for a, b in pairs:
        fa, fb = firsts.get(a, 0), firsts.get(b, 0)
        found[0] += frozenset((a, b)) in met
        found[1] += (group[a] - group[b]) ** 2
        found[2] += min(abs(fa), abs(fb)) if fa * fb > 0 else 0
        found[3] += (place[a] - place[b]) ** 2
    return tuple(found)


def every_pairing(players):
    """Every way to pair ``players`` (an even number) off."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, second in enumerate(rest):
        for tail in every_pairing(rest[:i] + rest[i + 1 :]):
            yield [(first, second), *tail]


def assert_a_round(order, pairs, bye):
    """Everyone plays once but the bye (one exactly when the number is odd), pairs listed by
    their better player's place."""
    assert (bye is not None) == (len(order) % 2 == 1)
    seated = [p for pair in pairs for p in pair] + ([bye] if bye is not None else [])
    assert sorted(seated) == sorted(order)
    place = {p: i for i, p in enumerate(order)}
    better = [min(place[a], place[b]) for a, b in pairs]
    assert better == sorted(better)


@st.composite
def small_fields(draw, most=10, with_points=True):
    count = draw(st.integers(1, most))
    order = draw(st.permutations(range(100, 100 + count)))
    every = [frozenset(pair) for pair in every_pairing_edges(order)]
    met = {pair for pair in every if draw(st.booleans())}
    byes = {p: draw(st.integers(0, 2)) for p in order}
    points = firsts = None
    if with_points and draw(st.booleans()):
        points = {p: draw(st.sampled_from([0, 0.5, 1, 2, 3])) for p in order}
    if with_points and draw(st.booleans()):
        firsts = {p: draw(st.integers(-2, 2)) for p in order}
    return list(order), met, byes, points, firsts


def every_pairing_edges(order):
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]


# --- against the backtracking and against every pairing, on small fields --------------------


@settings(max_examples=300, deadline=None)
@given(small_fields(with_points=False))
def test_never_worse_than_the_backtracking_it_replaced(field):
    order, met, byes, _, _ = field
    pairs, bye = swiss_pairs(order, met, byes)
    before, bye_before = backtracking_pairs(order, met, byes)
    assert_a_round(order, pairs, bye)
    assert bye == bye_before  # the same rule for the bye
    assert cost(pairs, order, met)[0] <= cost(before, order, met)[0]  # never more rematches
    assert cost(pairs, order, met) <= cost(before, order, met)  # nor, with as many, farther apart
    if cost(before, order, met)[0] == 0:
        assert cost(pairs, order, met)[0] == 0  # none where the backtracking found a way round


@settings(max_examples=300, deadline=None)
@given(small_fields())
def test_the_best_of_every_pairing_there_is_by_the_rules_in_their_order(field):
    order, met, byes, points, firsts = field
    pairs, bye = swiss_pairs(order, met, byes, points=points, firsts=firsts)
    assert_a_round(order, pairs, bye)
    players = [p for p in order if p != bye]
    best = min(cost(other, order, met, points, firsts) for other in every_pairing(players))
    assert cost(pairs, order, met, points, firsts) == best


@settings(max_examples=100, deadline=None)
@given(small_fields())
def test_the_same_field_pairs_the_same_way(field):
    order, met, byes, points, firsts = field
    again = set(reversed(list(met)))  # the same pairs, gathered in another order
    assert swiss_pairs(order, met, byes, points=points, firsts=firsts) == swiss_pairs(
        order, again, dict(byes), points=points, firsts=firsts
    )


@settings(max_examples=100, deadline=None)
@given(small_fields())
def test_who_moves_first_evens_out_the_first_moves(field):
    order, met, byes, points, firsts = field
    pairs, _ = swiss_pairs(order, met, byes, points=points, firsts=firsts)
    place = {p: i for i, p in enumerate(order)}
    for a, b in pairs:
        fa, fb = (firsts or {}).get(a, 0), (firsts or {}).get(b, 0)
        assert fa < fb or (fa == fb and place[a] < place[b])


def test_rematches_when_they_cannot_be_avoided_and_as_few_as_can_be():
    # Four players who have all met: two rematches, the nearest pairs.
    every = {frozenset(p) for p in every_pairing_edges([1, 2, 3, 4])}
    assert swiss_pairs([1, 2, 3, 4], every) == ([(1, 2), (3, 4)], None)
    # All but 1-4: one pairing has one rematch (1-4 and 2-3); the backtracking took 1-2, 3-4, two.
    met = every - {frozenset((1, 4))}
    assert swiss_pairs([1, 2, 3, 4], met) == ([(1, 4), (2, 3)], None)
    assert backtracking_pairs([1, 2, 3, 4], met) == ([(1, 2), (3, 4)], None)


def test_points_groups_before_places():
    # 1 leads alone; 2, 3, 4 share the next points, 5 and 6 the last: 1 meets the group below
    # and the last two meet each other, not 4 and 5 across two groups.
    points = {1: 4, 2: 2, 3: 2, 4: 2, 5: 0, 6: 0}
    assert swiss_pairs([1, 2, 3, 4, 5, 6], set(), points=points) == ([(1, 2), (3, 4), (5, 6)], None)
    # 5 and 6 have met: one of the group above comes down, not 1 two groups away.
    met = {frozenset((5, 6))}
    pairs, _ = swiss_pairs([1, 2, 3, 4, 5, 6], met, points=points)
    assert pairs == [(1, 2), (3, 5), (4, 6)]


def test_no_rematch_dominates_the_points_groups():
    points = {1: 3, 2: 3, 3: 0, 4: 0}
    met = {frozenset((1, 2)), frozenset((3, 4))}
    assert swiss_pairs([1, 2, 3, 4], met, points=points) == ([(1, 3), (2, 4)], None)


def test_a_first_move_clash_yields_to_the_points_groups_not_the_other_way():
    # 1 and 2 both moved first more often: they still meet (same points); the one with fewer
    # first moves goes first.
    points, firsts = {1: 2, 2: 2, 3: 0, 4: 0}, {1: 2, 2: 1, 3: -1, 4: -1}
    assert swiss_pairs([1, 2, 3, 4], set(), points=points, firsts=firsts) == ([(2, 1), (3, 4)], None)
    # One points group: the clash decides over the places.
    assert swiss_pairs([1, 2, 3, 4], set(), firsts=firsts) == ([(3, 1), (4, 2)], None)


# --- large fields: the offered pairs, and the widening when they are not enough --------------


def test_a_pairing_beyond_the_nearest_partners_is_found_when_it_is_the_only_one():
    # Places 0-12 (an odd block) have not met each other but have met everyone else, except
    # that 0 has not met 100: one of the block must leave it, and only 0 can, with 100, which
    # is far beyond 0's twelve nearest partners (1-12). The rest have not met each other.
    count = 160
    block = range(13)
    met = {frozenset((a, b)) for a in block for b in range(13, count)} - {frozenset((0, 100))}
    pairs, bye = swiss_pairs(list(range(count)), met)
    assert_a_round(list(range(count)), pairs, bye)
    assert (0, 100) in pairs and not [p for p in pairs if frozenset(p) in met]


@st.composite
def fields_with_a_way_round(draw):
    """A field of 30-150 players with many pairs met, and a pairing without rematches hidden
    among them."""
    count = draw(st.integers(15, 75)) * 2
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = list(range(count))
    hidden = players[:]
    rng.shuffle(hidden)
    spared = {frozenset(hidden[i : i + 2]) for i in range(0, count, 2)}
    dense = draw(st.sampled_from([0.3, 0.7, 0.95]))
    met = {frozenset((a, b)) for a in players for b in players[a + 1 :] if rng.random() < dense} - spared
    return players, met


@settings(max_examples=40, deadline=None)
@given(fields_with_a_way_round())
def test_no_rematch_in_a_large_field_whenever_a_pairing_without_one_exists(field):
    order, met = field
    pairs, bye = swiss_pairs(order, met)
    assert_a_round(order, pairs, bye)
    assert not [pair for pair in pairs if frozenset(pair) in met]


def test_the_first_offer_is_the_nearest_unmet_partners_and_the_next_player():
    met = {frozenset((0, 1)), frozenset((0, 2))}
    offered = pairing._offered(list(range(40)), met, partners=3)
    mine = [(j, rematch) for i, j, rematch in offered if i == 0]
    assert mine == [(1, True), (3, False), (4, False), (5, False)]
    assert len(pairing._offered(list(range(40)), met, partners=40)) == 40 * 39 // 2  # then every pair


# --- 24 rounds of random results, as the CodeCup final's Swiss ------------------------------


def play_rounds(count: int, rounds: int, games: int, seed: int):
    """A Swiss of ``count`` players over ``rounds`` rounds of random results (a game: 2 to the
    winner, 1 each for a draw; a bye: what winning the pairing's games scores), paired each
    round by ``swiss_pairs`` from the points so far; each round as (order, pairs, bye, met before)."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(count), 0.0)
    met: set[frozenset[int]] = set()
    byes: Counter = Counter()
    firsts: Counter = Counter()
    played = []
    for _ in range(rounds):
        order = sorted(points, key=lambda p: (-points[p], p))
        pairs, bye = swiss_pairs(order, met, byes, points=points, firsts=firsts)
        played.append((order, pairs, bye, set(met)))
        if bye is not None:
            byes[bye] += 1
            points[bye] += 2 * games
        for a, b in pairs:
            met.add(frozenset((a, b)))
            for g in range(games):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                firsts[first] += 1
                firsts[second] -= 1
                outcome = rng.random()
                points[first] += 2 if outcome < 0.45 else (1 if outcome > 0.9 else 0)
                points[second] += 2 if 0.45 <= outcome <= 0.9 else (1 if outcome > 0.9 else 0)
    return played, byes, firsts


@pytest.mark.parametrize("count", [56, 70, 71, 128])
def test_24_rounds_of_random_results_without_a_rematch(count):
    played, byes, _ = play_rounds(count, 24, games=2, seed=count)
    for order, pairs, bye, met in played:
        assert_a_round(order, pairs, bye)
        assert not [pair for pair in pairs if frozenset(pair) in met]
    assert sum(len(pairs) for _, pairs, _, _ in played) == 24 * (count // 2)
    assert max(byes.values(), default=0) <= 1  # 24 byes among 71: nobody twice


def test_a_field_smaller_than_its_rounds_rematches_only_when_no_pairing_avoids_it():
    played, _, _ = play_rounds(8, 24, games=2, seed=8)
    forced = []
    for order, pairs, bye, met in played:
        assert_a_round(order, pairs, bye)
        fewest = min(sum(frozenset(pair) in met for pair in other) for other in every_pairing(order))
        assert sum(frozenset(pair) in met for pair in pairs) == fewest
        forced.append(fewest)
    assert forced[:5] == [0] * 5 and forced[-1] == 4  # 7 opponents each: by the last round, all pairs rematches


def test_byes_go_round_before_anyone_has_a_second():
    played, byes, _ = play_rounds(9, 24, games=2, seed=9)
    assert sorted(byes.values()) == [2, 2, 2, 3, 3, 3, 3, 3, 3]  # 24 byes among 9
    for number in range(1, 25):
        had = Counter(bye for _, _, bye, _ in played[:number])
        assert max(had.values()) - min(had.get(p, 0) for p in range(9)) <= 1


def test_one_game_a_pairing_keeps_each_players_first_moves_within_two_of_even():
    for count in (16, 56, 71):
        _, _, firsts = play_rounds(count, 24, games=1, seed=count)
        assert max(abs(v) for v in firsts.values()) <= 2, count
