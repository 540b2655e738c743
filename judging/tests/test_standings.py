"""Standings with each game's own tie-breaks, checked against hand-computed tables."""

import pytest

from contests.models import Match, Stage
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from judging import standings

pytestmark = pytest.mark.django_db


def _game(contest, stage, results, status=Match.Status.FINISHED):
    """results: [(submission, points, score, status, moves), ...] in seat order."""
    match = make_match(contest, [r[0] for r in results], stage=stage, status=status)
    for seat, (_, points, score, seat_status, moves) in zip(match.seats.all(), results, strict=True):
        seat.points, seat.score, seat.status, seat.moves = points, score, seat_status, moves
        seat.save()
    return match


def test_chomp_ranks_by_wins_then_cookies_then_fewest_chomps():
    contest = make_contest(game="chomp")
    stage = make_stage(contest)
    a, b, c = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea", "Cid"))
    _game(contest, stage, [(a, 1, 10, "win", 4), (b, 0, 0, "loss", 4)])
    _game(contest, stage, [(b, 1, 12, "win", 5), (a, 0, 0, "loss", 5)])
    _game(contest, stage, [(a, 1, 7, "win", 3), (c, 0, 0, "loss", 3)])
    _game(contest, stage, [(c, 1, 7, "win", 2), (a, 0, 0, "illegal", 2)])
    _game(contest, stage, [(b, 1, 5, "win", 6), (c, 0, 0, "loss", 6)])
    _game(contest, stage, [(c, 1, 10, "win", 6), (b, 0, 0, "timeout", 5)])
    _game(contest, stage, [(a, 0, 0, "loss", 1), (b, 0, 0, "loss", 1)], status=Match.Status.QUEUED)  # not played yet
    table = standings.compute(contest, stage)
    assert [c.key for c in table.columns] == ["wins", "score", "chomps"]
    # Each has 2 wins and 17 cookies; chomps: Ann 4+5+3+2, Cid 3+2+6+6, Bea 4+5+6+5.
    got = [(r.rank, r.entry.name, r.games, r.ordered(table.columns)) for r in table.rows]
    assert got == [
        (1, "Ann", 4, [2, 17, 14]),
        (2, "Cid", 4, [2, 17, 17]),
        (3, "Bea", 4, [2, 17, 20]),
    ]
    assert (table.finished, table.total) == (6, 7)


def test_equal_on_every_column_shares_a_rank():
    contest = make_contest(game="hearts_flowers", game_params={"n": 4})
    stage = make_stage(contest)
    a, b, c = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea", "Cid"))
    _game(contest, stage, [(a, 1, 1, "draw", 10), (b, 1, 1, "draw", 10)])
    _game(contest, stage, [(c, 2, 2, "win", 3), (a, 0, 0, "loss", 3)])
    _game(contest, stage, [(b, 0, 0, "crash", 1), (c, 2, 2, "win", 1)])
    table = standings.compute(contest)
    assert [(r.rank, r.entry.name, r.ordered(table.columns)) for r in table.rows] == [
        (1, "Cid", [4, 2, 0]),
        (2, "Ann", [1, 0, 1]),
        (2, "Bea", [1, 0, 1]),
    ]


def test_a_cancelled_match_is_not_counted_as_scheduled():
    contest = make_contest()
    stage = make_stage(contest)
    a, b = (make_submission(make_entry(contest)) for _ in range(2))
    _game(contest, stage, [(a, 1, 3, "win", 2), (b, 0, 0, "loss", 2)])
    _game(contest, stage, [(a, 1, 3, "win", 2), (b, 0, 0, "loss", 2)], status=Match.Status.CANCELLED)
    table = standings.compute(contest)
    assert (table.finished, table.total) == (1, 1)
    assert table.rows[0].values["wins"] == 1


def test_a_contests_standings_leave_out_system_tests_and_test_games():
    contest = make_contest()
    tournament = make_stage(contest)
    system_test = make_stage(contest, kind=Stage.Kind.SYSTEM_TEST)
    a, b = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea"))
    ref = make_submission(make_entry(contest, name="Random", is_reference=True))
    _game(contest, tournament, [(b, 1, 3, "win", 2), (a, 0, 0, "loss", 2)])
    for _ in range(3):  # games against the random player, as many as Ann asks for
        _game(contest, None, [(a, 1, 9, "win", 2), (ref, 0, 0, "loss", 2)])
    _game(contest, system_test, [(a, 1, 9, "win", 2), (ref, 0, 0, "loss", 2)])
    table = standings.compute(contest)
    assert [(r.entry.name, r.games, r.values["wins"]) for r in table.rows] == [("Bea", 1, 1), ("Ann", 1, 0)]
    assert (table.finished, table.total) == (1, 1)


def test_only_each_contestants_best_entry_proceeds_past_the_first_round():
    from contests.tests.factories import make_user
    from judging.tournaments import contenders

    contest = make_contest(game="hearts_flowers", game_params={"n": 4}, max_entries_per_user=3)
    first = make_stage(contest, order=1)
    second = make_stage(contest, order=2, params={"best_of_each_contestant": True})
    ann, bea = make_user(), make_user()
    a1, a2 = (make_submission(make_entry(contest, ann, name=n), is_active=True, status="ready") for n in ("A1", "A2"))
    b1 = make_submission(make_entry(contest, bea, name="B1"), is_active=True, status="ready")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    _game(contest, first, [(a2, 2, 2, "win", 5), (b1, 0, 0, "loss", 5)])
    _game(contest, first, [(a1, 0, 0, "loss", 5), (b1, 2, 2, "win", 5)])
    _game(contest, first, [(ref, 1, 1, "draw", 5), (a1, 1, 1, "draw", 5)])
    names = [entry.name for entry, _ in contenders(second)]
    assert names == ["A2", "B1", "Random"]  # A1 (1 point) gives way to A2 (2 points)
    assert [entry.name for entry, _ in contenders(first)] == ["A1", "A2", "B1", "Random"]


def test_a_disqualified_entry_leaves_the_table_and_its_opponents_keep_their_results():
    from contests.models import Entry

    contest = make_contest(game="chomp")
    stage = make_stage(contest)
    a, b = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea"))
    _game(contest, stage, [(a, 1, 5, "win", 2), (b, 0, 0, "loss", 2)])
    Entry.objects.filter(pk=a.entry_id).update(status=Entry.Status.DISQUALIFIED)
    rows = standings.compute(contest, stage).rows
    assert [(r.rank, r.entry.name, r.values["wins"]) for r in rows] == [(1, "Bea", 0)]
