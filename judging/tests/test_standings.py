"""Standings with each game's own tie-breaks, checked against hand-computed tables."""

import pytest

from contests.models import Stage
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match
from judging.record import confidence, counts, lifecycle, standings, tallies

pytestmark = pytest.mark.django_db


def _game(contest, stage, results, status=Match.Status.FINISHED):
    """results: [(submission, points, score, status, moves), ...] in seat order; a finished
    game's attempt records them, as a worker's does."""
    match = make_match(contest, [r[0] for r in results], stage=stage, status=Match.Status.QUEUED)
    for seat, (_, points, score, seat_status, moves) in zip(match.seats.all(), results, strict=True):
        seat.points, seat.score, seat.status, seat.moves = points, score, seat_status, moves
        seat.save()
    if status == Match.Status.FINISHED:
        finish_on_paper(match)
    elif status != Match.Status.QUEUED:
        Match.objects.filter(pk=match.pk).update(status=status)
        counts.moved([(match.contest_id, match.stage_id, Match.Status.QUEUED, status)])  # as the lifecycle does
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
    system_test = make_stage(contest, kind="system_test")
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
    from judging.record.standings import contenders

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


# --- The database adds up what each column declares ------------------------------------------


def _ring(contest, stage, count, seed=7):
    """``count`` entries, each playing the next two in a ring, with random results."""
    import random

    rnd = random.Random(seed)
    subs = [make_submission(make_entry(contest, name=f"E{i:02}"), is_active=True, status="ready") for i in range(count)]
    statuses = ["win", "loss", "draw", "illegal", "timeout", "crash", "exit"]
    for i, sub in enumerate(subs):
        for step in (1, 2):
            other = subs[(i + step) % count]
            if other is sub:
                continue
            results = [(sub, rnd.choice([0, 1, 2]), rnd.randint(0, 9), rnd.choice(statuses), rnd.randint(1, 30))]
            results.append((other, rnd.choice([0, 1, 2]), rnd.randint(0, 9), rnd.choice(statuses), rnd.randint(1, 30)))
            _game(contest, stage, results)
    return subs


@pytest.mark.parametrize(
    "game,params", [("chomp", {"rows": 4, "cols": 5}), ("sudoku", {}), ("hearts_flowers", {"n": 4})]
)
def test_the_database_adds_up_what_the_games_columns_declare(game, params):
    from games import registry
    from games.base import SeatRecord
    from judging.models import MatchSeat

    contest = make_contest(game=game, game_params=params)
    stage = make_stage(contest)
    _ring(contest, stage, 6)
    table = standings.compute(contest, stage)
    columns = registry.get(game).standings
    for row in table.rows:
        seats = MatchSeat.objects.filter(entry=row.entry)
        records = [SeatRecord(s.points, s.score, s.status, s.moves, s.detail) for s in seats]
        assert row.values == {c.key: c.total(records) for c in columns}
        assert row.games == len(records) == 4


def test_a_column_may_count_the_results_a_game_names_itself(monkeypatch):
    from games import registry
    from games.base import Column, count_detail, total_points
    from judging.models import MatchSeat

    game = registry.get("sudoku")
    monkeypatch.setattr(
        game, "standings", (Column("points", "Points", total_points), Column("stuck", "Stuck", count_detail("NO_MOVE")))
    )
    contest = make_contest(game="sudoku", game_params={})
    stage = make_stage(contest)
    a, b = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea"))
    for _ in range(2):
        _game(contest, stage, [(a, 2, 0, "win", 5), (b, 0, 0, "loss", 5)])
    first, second = MatchSeat.objects.filter(entry=b.entry)
    for seat, detail in ((first, "NO_MOVE"), (second, "SOMETHING_ELSE")):
        with tallies.recounting(seat.match_id):  # as every writer of a counted result does
            MatchSeat.objects.filter(pk=seat.pk).update(detail=detail)
    rows = standings.compute(contest, stage).rows
    assert [(r.entry.name, r.values) for r in rows] == [
        ("Ann", {"points": 4, "stuck": 0}),
        ("Bea", {"points": 0, "stuck": 1}),
    ]


@pytest.mark.parametrize("count", [2, 20])
@pytest.mark.parametrize("kind", ["round_robin", "ladder"])
def test_a_table_takes_the_same_queries_however_many_entries(count, kind, django_assert_num_queries):
    contest = make_contest()
    stage = make_stage(contest, kind=kind)
    _ring(contest, stage, count)
    confidence.rate(stage.pk)
    # the kept totals, the entries (in a ladder: with its contenders), the matches, the stored
    # fit and its ratings
    with django_assert_num_queries(5):
        table = standings.compute(contest, stage)
    assert len(table.rows) == count and all(r.sure is not None for r in table.rows)
    with django_assert_num_queries(3):  # the contest's table
        assert len(standings.compute(contest).rows) == count


def test_a_rerun_match_counts_its_earlier_result_until_the_newer_one_lands(queued):

    contest = make_contest()
    stage = make_stage(contest)
    a, b = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea"))
    match = _game(contest, stage, [(a, 1, 7, "win", 3), (b, 0, 0, "loss", 3)])
    _game(contest, stage, [(b, 1, 2, "win", 4), (a, 0, 0, "loss", 4)])

    def table():
        t = standings.compute(contest, stage)
        return [(r.rank, r.entry.name, r.games, r.ordered(t.columns)) for r in t.rows]

    assert table() == [(1, "Ann", 2, [1, 7, 7]), (2, "Bea", 2, [1, 2, 7])]
    lifecycle.rerun_match(match)
    assert Match.objects.get(pk=match.pk).status == Match.Status.QUEUED
    assert table() == [(1, "Ann", 2, [1, 7, 7]), (2, "Bea", 2, [1, 2, 7])]  # the earlier result still counts
    finish_on_paper(match, [(0, 0, "timeout"), (1, 9, "win")])
    assert table() == [(1, "Bea", 2, [2, 11, 7]), (2, "Ann", 2, [0, 0, 7])]  # replaced, counted once


def test_a_disqualified_entry_leaves_and_the_others_move_up():
    from contests import services

    contest = make_contest(game="hearts_flowers", game_params={"n": 4})
    stage = make_stage(contest)
    a, b, c = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea", "Cid"))
    _game(contest, stage, [(a, 2, 2, "win", 5), (b, 0, 0, "loss", 5)])
    _game(contest, stage, [(a, 2, 2, "win", 5), (c, 0, 0, "loss", 5)])
    _game(contest, stage, [(b, 1, 1, "draw", 5), (c, 1, 1, "draw", 5)])
    assert [(r.rank, r.entry.name) for r in standings.compute(contest, stage).rows] == [
        (1, "Ann"),
        (2, "Bea"),
        (2, "Cid"),
    ]
    services.disqualify(None, a.entry, "the same program as another entry")
    rows = standings.compute(contest, stage).rows
    assert [(r.rank, r.entry.name, r.games, r.values["points"]) for r in rows] == [(1, "Bea", 2, 1), (1, "Cid", 2, 1)]
    services.reinstate(None, a.entry)
    assert [r.entry.name for r in standings.compute(contest, stage).rows] == ["Ann", "Bea", "Cid"]


# --- What a re-run changed, for the judges ----------------------------------------------------


def test_compare_gives_each_entrys_place_with_the_earlier_and_the_newer_result(queued, django_assert_num_queries):

    contest = make_contest(game="hearts_flowers", game_params={"n": 4})
    stage = make_stage(contest)
    a, b, c = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bea", "Cid"))
    match = _game(contest, stage, [(a, 2, 2, "win", 5), (b, 0, 0, "loss", 5)])
    _game(contest, stage, [(c, 1, 1, "draw", 5), (b, 1, 1, "draw", 5)])
    _game(contest, stage, [(c, 1, 1, "draw", 5), (a, 1, 1, "draw", 5)])
    lifecycle.rerun_match(match)
    finish_on_paper(match, [(0, 0, "crash"), (2, 2, "win")])
    earlier, newer = match.attempts.order_by("number")
    match = Match.objects.select_related("contest", "stage").get(pk=match.pk)

    with django_assert_num_queries(4):  # the match's seats, the totals, the entries, the matches
        comparison = standings.compare(match, earlier, newer)
    got = [
        (
            ch.entry.name,
            ch.before.rank,
            ch.after.rank,
            ch.before.values["points"],
            ch.after.values["points"],
            ch.places_up,
        )
        for ch in comparison.changes
    ]
    assert got == [("Bea", 3, 1, 1, 3, 2), ("Cid", 2, 2, 2, 2, 0), ("Ann", 1, 3, 3, 1, -2)]
    assert [r.entry.name for r in comparison.after.rows] == [
        r.entry.name for r in standings.compute(contest, stage).rows
    ]
    assert comparison.before.rows[0].values == {"points": 3, "wins": 1, "draws": 1}
    assert (comparison.before.finished, comparison.before.total) == (3, 3)
    # The other way round, and against no result at all.
    assert [(ch.entry.name, ch.after.rank) for ch in standings.compare(match, newer, earlier).changes][0] == ("Ann", 1)
    without = standings.with_result(match, None)
    assert [(r.entry.name, r.games, r.values["points"]) for r in without.rows] == [
        ("Cid", 2, 2),
        ("Ann", 1, 1),
        ("Bea", 1, 1),
    ]


def test_compare_in_a_continuous_stage_counts_only_current_versions_and_lists_every_contender(queued):

    contest = make_contest()
    ladder = make_stage(contest, kind="ladder")
    a, b = (make_submission(make_entry(contest, name=n), is_active=True, status="ready") for n in ("Ann", "Bea"))
    make_submission(make_entry(contest, name="Cid"), is_active=True, status="ready")  # no game yet
    match = _game(contest, ladder, [(a, 1, 5, "win", 3), (b, 0, 0, "loss", 3)])
    finish_on_paper(match, [(0, 0, "loss"), (1, 4, "win")])
    earlier, newer = match.attempts.order_by("number")
    comparison = standings.compare(match, earlier, newer)
    assert [(ch.entry.name, ch.before.rank, ch.after.rank) for ch in comparison.changes] == [
        ("Bea", 3, 1),
        ("Cid", 2, 2),  # no game yet, and fewer chomps than Bea's 3 (fewer is better)
        ("Ann", 1, 3),
    ]
    a.is_active = False  # Ann's version is no longer current: its games leave, and so does she (no version ready)
    a.save()
    comparison = standings.compare(match, earlier, newer)
    assert [(ch.entry.name, ch.before.rank, ch.after.rank, ch.after.games) for ch in comparison.changes] == [
        ("Bea", 2, 1, 1),
        ("Cid", 1, 2, 0),
    ]


def test_a_test_game_is_in_no_standings_to_compare():
    contest = make_contest()
    a, b = (make_submission(make_entry(contest)) for _ in range(2))
    match = _game(contest, None, [(a, 1, 5, "win", 3), (b, 0, 0, "loss", 3)])
    assert standings.compare(match, None, match.attempts.get()) is None
    other = _game(contest, make_stage(contest), [(a, 1, 5, "win", 3), (b, 0, 0, "loss", 3)])
    with pytest.raises(ValueError, match="not one of match"):
        standings.compare(other, None, match.attempts.get())


def test_a_crosstable_shows_points_against_each_opponent_in_the_standings_order():
    from judging.record.standings import crosstable

    contest = make_contest()
    stage = make_stage(contest)
    ann, bob, cid = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bob", "Cid"))
    for first, second, result in [(ann, bob, [(1, 5, "win"), (0, 1, "loss")]), (bob, ann, [(0, 2, "loss"), (1, 4, "win")]),
                                  (bob, cid, [(1, 3, "win"), (0, 0, "loss")])]:  # fmt: skip
        match = make_match(contest, [first, second], stage=stage, status=Match.Status.FINISHED)
        finish_on_paper(match, result)
    table = standings.compute(contest, stage)
    grid = crosstable(contest, stage, table.rows)
    names = [line["row"].entry.name for line in grid]
    assert names == [r.entry.name for r in table.rows]
    by_name = {line["row"].entry.name: dict(zip(names, line["cells"], strict=True)) for line in grid}
    assert by_name["Ann"]["Bob"] == (2, 2) and by_name["Bob"]["Ann"] == (0, 2) and by_name["Bob"]["Cid"] == (1, 1)
    assert by_name["Ann"]["Ann"] is None and by_name["Ann"]["Cid"] is None


def test_an_entrys_row_of_the_crosstable_names_each_opponent_it_met_however_large_the_table(client):
    from judging.record.standings import CROSSTABLE_MAX, head_to_head

    contest = make_contest(slug="h2h")
    stage = make_stage(contest, status=Stage.Status.RUNNING)
    ann, bob, cid = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bob", "Cid"))
    others = [make_submission(make_entry(contest, name=f"Extra {i}")) for i in range(CROSSTABLE_MAX)]
    for first, second, result in [(ann, bob, [(1, 5, "win"), (0, 1, "loss")]), (bob, ann, [(0, 2, "loss"), (1, 4, "win")]),
                                  (bob, cid, [(1, 3, "win"), (0, 0, "loss")])]:  # fmt: skip
        finish_on_paper(make_match(contest, [first, second], stage=stage, status=Match.Status.FINISHED), result)
    for first, second in zip(others, others[1:], strict=False):  # the others play among themselves
        finish_on_paper(
            make_match(contest, [first, second], stage=stage, status=Match.Status.FINISHED),
            [(1, 1, "win"), (0, 0, "loss")],
        )
    rows = standings.compute(contest, stage).rows
    assert standings.crosstable(contest, stage, rows) is None  # too large for a grid
    line = head_to_head(contest, stage, bob.entry, rows)
    assert [(o["row"].entry.name, o["points"], o["against"], o["games"]) for o in line] == [
        ("Ann", 0, 2, 2),
        ("Cid", 1, 0, 1),
    ]  # the standings' order, only those Bob met
    assert len(rows) > CROSSTABLE_MAX
    assert [o["row"].entry.name for o in head_to_head(contest, stage, others[2].entry, rows)] == ["Extra 1", "Extra 3"]
    page = client.get(f"/contests/h2h/entries/{bob.entry_id}/").content.decode()
    assert "Against each opponent" in page
    table = page.split('class="list head-to-head"')[1].split("</table>")[0]
    assert table.index(">Ann<") < table.index(">Cid<") and "Extra" not in table


def test_the_history_gives_each_best_entrys_points_after_each_slice_of_the_games(client):
    from judging.record.standings import history

    contest = make_contest(slug="hist")
    stage = make_stage(contest)
    ann, bob = (make_submission(make_entry(contest, name=n)) for n in ("Ann", "Bob"))
    for result in ([(1, 5, "win"), (0, 1, "loss")], [(0, 2, "loss"), (1, 4, "win")], [(1, 3, "win"), (0, 0, "loss")]):
        finish_on_paper(make_match(contest, [ann, bob], stage=stage, status=Match.Status.FINISHED), result)
    rows = standings.compute(contest, stage).rows
    lines = {line["name"]: line["points"] for line in history(contest, stage, rows)}
    assert lines == {"Ann": [0.0, 1.0, 1.0, 2.0], "Bob": [0.0, 0.0, 1.0, 1.0]}
    served = client.get(f"/contests/hist/standings/history.json?stage={stage.pk}").json()["lines"]
    assert {line["name"]: line["points"] for line in served} == lines
    assert (
        'data-history="/contests/hist/standings/history.json?stage='
        in client.get(f"/contests/hist/standings/?stage={stage.pk}").content.decode()
    )


# --- A page of the table, an entry's place in it ----------------------------------------------


def _as_shown(rows):
    return [(r.rank, r.entry.pk, r.games, r.values, r.cells, r.sure) for r in rows]


@pytest.mark.parametrize("kind", ["round_robin", "ladder"])
def test_each_page_is_its_slice_of_the_whole_table_ranked_as_a_whole(kind, django_assert_num_queries):
    contest = make_contest()
    stage = make_stage(contest, kind=kind, status=Stage.Status.RUNNING)
    _ring(contest, stage, 23)
    confidence.rate(stage.pk)
    whole = standings.compute(contest, stage)
    assert whole.count == 23 and (whole.rated, whole.fit is not None) == (kind == "ladder", True)
    pages = [standings.page(contest, stage, number=n, size=5) for n in range(1, 6)]
    assert [(p.number, p.pages, p.first, p.last) for p in pages] == [
        (n, 5, 5 * n - 4, min(5 * n, 23)) for n in range(1, 6)
    ]
    assert [_as_shown(p.table.rows) for p in pages] == [_as_shown(whole.rows[i : i + 5]) for i in range(0, 23, 5)]
    assert all(p.table.count == 23 and p.table.fit == whole.fit and p.table.rated == whole.rated for p in pages)
    assert standings.page(contest, stage, number=9, size=5).number == 5  # kept within the pages
    assert standings.page(contest, stage, number=0, size=5).number == 1
    with django_assert_num_queries(5):  # as the whole table: the totals, the entries, the matches, the fit
        standings.page(contest, stage, number=2, size=5, own={whole.rows[-1].entry.pk})


def test_a_page_shows_the_viewers_rows_wherever_they_are_with_a_gap_where_rows_are_left_out():
    contest = make_contest()
    stage = make_stage(contest, status=Stage.Status.RUNNING)
    _ring(contest, stage, 12)
    whole = [r.entry.pk for r in standings.compute(contest, stage).rows]
    first, last = whole[0], whole[-1]

    found = standings.page(contest, stage, number=2, size=5, own={first, last})
    assert [r.entry.pk for r in found.table.rows] == whole[5:10]  # the page's rows alone
    assert [r and r.entry.pk for r in found.lines] == [first, None, *whole[5:10], None, last]
    assert [r.entry.pk for r in found.yours] == [first, last] and found.own == {first, last}
    assert [r.rank for r in found.yours] == [1, standings.compute(contest, stage).rows[-1].rank]

    found = standings.page(contest, stage, number=1, size=5, own={whole[3]})  # on the page: in place, once
    assert [r and r.entry.pk for r in found.lines] == [*whole[:5], None]
    assert [r.entry.pk for r in found.yours] == [whole[3]]
    found = standings.page(contest, stage, number=3, size=5)  # the last page, nothing below
    assert [r and r.entry.pk for r in found.lines] == [None, *whole[10:]]
    empty = standings.page(make_contest(), None)
    assert (empty.number, empty.pages, empty.lines, empty.table.count) == (1, 1, [], 0)


@pytest.mark.parametrize("kind", ["round_robin", "ladder"])
def test_an_entrys_standing_is_its_row_of_the_whole_table_and_the_opponents_it_met(kind):
    from contests.models import Entry

    contest = make_contest()
    stage = make_stage(contest, kind=kind, status=Stage.Status.RUNNING)
    subs = _ring(contest, stage, 9)
    confidence.rate(stage.pk)
    whole = standings.compute(contest, stage)
    for row in whole.rows:
        found = standings.standing(contest, stage, row.entry)
        assert _as_shown([found.row]) == _as_shown([row]) and found.of == 9
        assert (found.table.fit, found.table.rated) == (whole.fit, whole.rated)
        met = standings.head_to_head(contest, stage, row.entry, whole.rows)
        assert [(o["row"].rank, o["row"].entry.pk, o["points"], o["against"], o["games"]) for o in found.opponents] == [
            (o["row"].rank, o["row"].entry.pk, o["points"], o["against"], o["games"]) for o in met
        ]
    Entry.objects.filter(pk=subs[0].entry_id).update(status=Entry.Status.DISQUALIFIED)
    assert standings.standing(contest, stage, subs[0].entry) is None  # not in the table any more


@pytest.mark.parametrize("named", [False, True])
def test_a_ladder_lists_every_contender_as_the_tournament_chooses_them(named):
    from contests.models import Entry
    from judging.record.standings import contenders

    contest = make_contest()
    ready = [make_submission(make_entry(contest, name=f"R{i}"), is_active=True, status="ready") for i in range(4)]
    make_submission(make_entry(contest, name="Building"), is_active=True, status="building")
    make_submission(make_entry(contest, name="Old"), is_active=False, status="ready")
    gone = make_submission(make_entry(contest, name="Gone"), is_active=True, status="ready")
    Entry.objects.filter(pk=gone.entry_id).update(status=Entry.Status.WITHDRAWN)
    make_submission(make_entry(make_contest(), name="Elsewhere"), is_active=True, status="ready")
    params = {"entries": [ready[0].entry_id, ready[2].entry_id, gone.entry_id]} if named else {}
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING, params=params)
    chosen = {entry.pk for entry, _ in contenders(stage)}
    assert chosen == ({ready[0].entry_id, ready[2].entry_id} if named else {s.entry_id for s in ready})
    assert set(standings._contenders(stage).values_list("entry_id", flat=True)) == chosen
    assert {r.entry.pk for r in standings.compute(contest, stage).rows} == chosen  # listed before any game


def test_a_fit_under_way_for_the_first_time_shows_no_ratings_yet():
    from django.utils import timezone

    from judging.models import RatingFit

    contest = make_contest()
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING)
    _ring(contest, stage, 4)
    RatingFit.objects.create(contest=contest, stage=stage, level=0.95, k=2, computed_at=timezone.now())  # no rows yet
    table = standings.compute(contest, stage)
    assert table.fit is None and all(r.sure is None for r in table.rows)


def test_a_disqualified_entry_plays_no_more_and_a_reinstated_one_plays_what_was_called_off(
    queued, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 36: a disqualified entry's queued Swiss games started and counted after its
    disqualification. Now its open games are called off (each logged; a result the worker
    brings late is not counted) and its stages' fits queued; reinstated, it plays again what
    was called off in a stage still under way."""
    from contests import services
    from contests.models import JudgeAction
    from contests.tests.factories import make_user
    from games.base import GameResult
    from judging.play import matches
    from judging.play.referee import MatchRecord, SeatTotals

    fits = []
    monkeypatch.setattr("judging.tasks.rate_stage.apply_async", lambda args, **kwargs: fits.append(args))
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind="round_robin", params={"games_per_pairing": 1})
    subs = [make_submission(make_entry(contest, name=n), is_active=True, status="ready") for n in ("Ann", "Bea", "Cid")]
    lifecycle.run_stage(stage)
    ann = subs[0].entry
    theirs = list(Match.objects.filter(stage=stage, seats__entry=ann).order_by("pk"))
    finish_on_paper(theirs[0], [(1, 5, "win"), (0, 0, "loss")])  # played: its result stays
    running = matches.claim("w1", match_id=theirs[1].pk)  # being played when the judge acts
    judge = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        services.disqualify(judge, ann, "shared code")
    assert Match.objects.get(pk=theirs[1].pk).status == Match.Status.CANCELLED
    assert Match.objects.get(pk=theirs[0].pk).status == Match.Status.FINISHED
    late = MatchRecord(
        GameResult((1.0, 0.0), (5.0, 0.0), ("win", "loss"), "on paper", ("", "")), [SeatTotals(moves=1)] * 2, {}
    )
    assert matches.write_result(running.pk, late) is False  # brought late: not counted
    logged = JudgeAction.objects.filter(contest=contest, action="match.cancel").values_list("target", "reason")
    assert list(logged) == [(f"match {theirs[1].pk}", "Ann is disqualified")]
    assert (stage.pk, False) in fits
    assert {r.entry.name for r in standings.compute(contest, stage).rows} == {
        theirs[0].seats.exclude(entry=ann).get().entry.name
    }
    fits.clear()
    confidence.started(stage.pk, False)  # the fit queued ran
    with django_capture_on_commit_callbacks(execute=True):
        services.reinstate(judge, ann, "cleared")
    assert Match.objects.get(pk=theirs[1].pk).status == Match.Status.QUEUED  # played again
    assert ("match.rerun", f"match {theirs[1].pk}", "Ann is reinstated") in JudgeAction.objects.filter(
        contest=contest
    ).values_list("action", "target", "reason")
    assert (stage.pk, False) in fits
