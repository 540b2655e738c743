"""Games of more than two seats (issue 37): a stage says how many seats its games have; a
round robin of groups meets every two entries equally often, each entry in each seat equally
often; a system test seats the version with k - 1 of the reference; the standings add the
points and the places the games gave (first, second…) and the intervals read each game as its
pairs; and ``arbiter play`` plays three
programs on a default installation.

The test game is Highest unique (judging/tests/programs/highest): three seats, each round
the highest number named by one seat alone scores it a point."""

from __future__ import annotations

import io
import json
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from contests.models import GameVersion, Submission
from contests.services import submit
from contests.tests.factories import make_contest, make_entry, make_stage, make_submission, make_user
from judging.models import Match
from judging.record import confidence, formats, standings, tallies
from judging.schedule import tournaments
from judging.schedule.tournaments import round_robin_groups
from judging.tests.conftest import PROGRAMS
from judging.tests.kept import assert_kept_as_counted
from judging.uploaded import hosting

HIGHEST = PROGRAMS / "highest"


@pytest.mark.parametrize(("count", "seats"), [(3, 3), (4, 3), (5, 3), (6, 4), (5, 2)])
def test_a_round_robin_of_groups_is_fair_in_meetings_and_seats(count, seats):
    games = round_robin_groups(count, seats, seats)
    met = Counter(pair for game in games for pair in combinations(sorted(game), 2))
    assert set(met) == set(combinations(range(count), 2)) and len(set(met.values())) == 1
    sat = Counter((player, seat) for game in games for seat, player in enumerate(game))
    assert len(sat) == count * seats and len(set(sat.values())) == 1
    assert all(len(set(game)) == seats for game in games)


@pytest.fixture
def highest(db):
    version = hosting.upload(hosting.read_folder(HIGHEST), make_user())
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    return version.key


def test_a_stage_says_its_seats_within_the_games_range(highest):
    contest = make_contest(game=highest, game_params={})
    game = hosting.manifest_of(hosting.read_folder(HIGHEST))
    assert formats.clean_params("round_robin", game, {"seats": 3}) == {"seats": 3}
    with pytest.raises(formats.ParamsError) as refused:
        formats.clean_params("round_robin", game, {"seats": 2})
    assert refused.value.fields["seats"] == "highest@1 needs 3 players, not 2"
    assert formats.seats(make_stage(contest, kind="round_robin")) == 3  # the game's own, unsaid
    assert {"round_robin", "swiss", "ladder"} <= set(dict(formats.choices(game)))


@override_settings(SANDBOX_SLOTS=3)
def test_three_programs_play_at_home_on_a_default_installation(tmp_path):
    """Three programs and the referee are four jails: a host of three slots refused the game."""
    out = io.StringIO()
    programs = [str(HIGHEST / name) for name in ("five.py", "cycle.py", "cycle.py")]
    call_command("play", str(HIGHEST), *programs, "--param", "rounds=5", "--json", stdout=out)
    said = json.loads(out.getvalue())
    # five, five, five, five, five against 4 3 2 1 5 twice: the first four rounds are five's
    assert [seat["points"] for seat in said["seats"]] == [4.0, 0.0, 0.0]
    assert [seat["status"] for seat in said["seats"]] == ["win", "loss", "loss"] and said["moves"] == 15
    out = io.StringIO()  # for a person: each seat's place, as the site's pages say it
    call_command("play", str(HIGHEST), *programs, "--param", "rounds=5", stdout=out)
    seats = [line for line in out.getvalue().splitlines() if line.startswith("seat ")]
    assert ["1st of 3" in seats[0], "2nd of 3" in seats[1], "2nd of 3" in seats[2]] == [True] * 3, seats


@pytest.mark.worker
@pytest.mark.slow
def test_a_contest_of_three_seat_games_tests_plays_a_round_robin_and_ranks_with_intervals(worker, highest):
    from judging.tests.test_tournament import wait_for

    contest = make_contest(game=highest, game_params={"rounds": 4})
    make_stage(contest, kind="system_test", name="System test", params={})
    stage = make_stage(contest, kind="round_robin", params={"seats": 3})
    assert hosting.add_references(contest) == []  # five and cycle, made with the contest
    wait_for(lambda: Submission.objects.filter(entry__is_reference=True, is_active=True).count() == 2, worker=worker)
    mine = [
        submit(make_entry(contest, name=name), filename=f"{name}.py", data=f"import sys\nfor l in sys.stdin:\n print({n}, flush=True)\n".encode())
        for name, n in (("four", 4), ("three", 3))
    ]  # fmt: skip
    for version in mine:
        wait_for(lambda v=version: Submission.objects.get(pk=v.pk).status in ("ready", "test_failed"), worker=worker)
        version.refresh_from_db()
        assert version.status == "ready" and version.is_active, version.test_log
        tests = Match.objects.filter(seats__submission=version, stage__kind="system_test").distinct()
        assert tests.count() == 3 and all(m.seats.count() == 3 for m in tests)
        assert sorted(tests.values_list("seats__index", flat=True).filter(seats__submission=version)) == [0, 1, 2]
        assert "moving third" in version.test_log

    matches = tournaments.schedule_round_robin(stage)
    assert len(matches) == 4 * 3  # four groups of three, each in its three seat orders
    wait_for(lambda: not Match.objects.filter(stage=stage, status__in=["queued", "running"]).exists(), worker=worker)
    assert not Match.objects.filter(stage=stage).exclude(status="finished").exists()
    table = standings.compute(contest, stage)
    assert all(row.games == 9 for row in table.rows)  # each entry in 3 groups, 3 games each
    points = {row.entry.name: row.values["points"] for row in table.rows}
    assert sum(points.values()) <= 12 * 4 and points["five"] == max(points.values())
    # Places by points, as the games gave them: each game one place a seat, ties sharing the better.
    assert [c.label for c in table.columns] == ["Points", "1st", "2nd", "3rd"]
    placed = {row.entry.name: [row.values[f"place{n}"] for n in (1, 2, 3)] for row in table.rows}
    assert all(sum(p) == 9 for p in placed.values()), placed
    recount = {name: [0, 0, 0] for name in placed}
    for match in Match.objects.filter(stage=stage).prefetch_related("seats__entry"):
        seats = list(match.seats.all())
        for seat in seats:
            recount[seat.entry.name][sum(o.points > seat.points for o in seats)] += 1
    assert placed == recount
    assert_kept_as_counted(contest)
    assert tallies.rebuild(contest).differences == []
    page = Client().get(f"/contests/{contest.slug}/standings/?stage={stage.pk}").content.decode()
    assert "<th" in page and ">1st<" in page and ">3rd<" in page
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    assert table.fit is not None and table.fit.games == 12  # the games, not their pairs' weights (24)
    assert all(row.sure is not None and row.sure.rank_low <= row.rank <= row.sure.rank_high for row in table.rows)
    assert standings.crosstable(contest, stage, table.rows) is None  # a grid of pairs is for games of two


def test_a_swiss_round_of_groups_seats_near_points_together_and_spreads_the_byes():
    from judging.schedule.pairing import swiss_groups

    order = list(range(1, 8))  # seven players, best first
    groups, out = swiss_groups(order, set(), {}, 3)
    assert groups == [[1, 2, 3], [4, 5, 6]] and out == [7]  # the lowest placed sits out
    met = {frozenset(p) for g in groups for p in combinations(g, 2)}
    groups, out = swiss_groups(order, met, {7: 1}, 3)
    assert out == [6]  # 7 sat out already: the lowest of those with none
    assert groups[0][0] == 1 and sum(frozenset(p) in met for g in groups for p in combinations(g, 2)) < 3


def test_a_swiss_stage_of_three_seat_games_plays_its_rounds_by_points(highest):
    from contests.tests.factories import finish_on_paper

    contest = make_contest(game=highest, game_params={})
    stage = make_stage(contest, kind="swiss", params={"rounds": 3, "seats": 3, "games_per_pairing": 1})
    for n in range(7):
        make_submission_ready(make_entry(contest, name=f"P{n}"))
    sat_out = Counter()
    for round_no in range(1, 4):
        made = tournaments.schedule_swiss_round(stage) if round_no == 1 else tournaments.pair_next_round(stage.pk)
        played = [m for m in made if m.seats.count() == 3]
        byes = [m for m in made if m.seats.count() == 1]
        assert len(played) == 2 and len(byes) == 1 and {m.round for m in made} == {round_no}
        sat_out[byes[0].seats.get().entry_id] += 1
        for match in played:  # the first seat wins each game
            finish_on_paper(Match.objects.get(pk=match.pk), [(1, 1, "win"), (0, 0, "loss"), (0, 0, "loss")])
    assert max(sat_out.values()) == 1  # three different entries sat out
    assert tournaments.pair_next_round(stage.pk) == []  # after the last round: none, and the stage ends
    stage.refresh_from_db()
    assert stage.status == "finished"
    table = standings.compute(contest, stage)
    assert sum(row.games for row in table.rows) == 3 * 2 * 3  # six games of three seats (a bye is no game)


def make_submission_ready(entry):
    from contests.tests.factories import make_submission

    return make_submission(entry, status="ready", is_active=True)


@pytest.mark.django_db
def test_the_three_seat_game_passes_its_kit_as_uploaded():
    """On a fresh clone the test game was refused: a crashed seat scored 0, as much as two
    copies of the opponent that cancelled each other out. A seat that leaves now scores -1."""
    version = hosting.check(hosting.upload(hosting.read_folder(HIGHEST), make_user()))
    assert version.status == GameVersion.Status.ACCEPTED, version.report["problems"]
    assert {len(g["players"]) for g in version.report["games"]} == {3}


@pytest.mark.django_db
def test_a_host_that_can_never_hold_a_game_says_so_at_its_upload(settings):
    """A game of three players and its referee are four programs at once: a host of three
    slots refuses it in words when it is uploaded, not in every game's fault later."""
    settings.SANDBOX_SLOTS = 3
    version = hosting.check(hosting.upload(hosting.read_folder(HIGHEST), make_user()))
    assert version.status == GameVersion.Status.REFUSED
    assert "runs 4 programs at once (its referee too), but this host runs at most 3" in version.report["problems"][0]


def test_a_ladder_of_three_seat_games_draws_groups_and_ranks_by_rating(highest):
    from contests.tests.factories import finish_on_paper

    contest = make_contest(game=highest, game_params={})
    stage = make_stage(contest, kind="ladder", status="running", params={"seats": 3})
    versions = [make_submission_ready(make_entry(contest, name=f"P{n}")) for n in range(4)]
    made = tournaments.schedule_continuous(stage)
    assert len(made) == 2 * 3 and all(m.seats.count() == 3 for m in made)  # two groups, each in 3 orders
    assert {s.submission_id for m in made for s in m.seats.all()} == {v.pk for v in versions}
    assert tournaments.schedule_continuous(stage) == []  # started: no second draw
    newer = make_submission_ready(make_entry(contest, name="P4"))
    mine = tournaments.schedule_continuous(stage, newer)
    assert len(mine) == 3 and all(newer.pk in m.seats.values_list("submission_id", flat=True) for m in mine)
    for match in Match.objects.filter(stage=stage):  # the first seat wins
        finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss"), (0, 0, "loss")])
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    assert table.rated and len(table.rows) == 5
    assert all(r.sure is not None and r.sure.rating is not None for r in table.rows)
    assert all(r.sure.rank_low <= r.rank <= r.sure.rank_high for r in table.rows)


def test_a_free_for_all_seats_the_whole_field_in_each_game(highest):
    from contests.tests.factories import finish_on_paper

    contest = make_contest(game=highest, game_params={})
    stage = make_stage(contest, kind="free_for_all", params={})
    make_submission_ready(make_entry(contest, name="P0"))
    make_submission_ready(make_entry(contest, name="P1"))
    with pytest.raises(formats.StageError, match="needs 3 players, not 2"):
        tournaments.schedule_free_for_all(stage)
    make_submission_ready(make_entry(contest, name="P2"))
    made = tournaments.schedule_free_for_all(stage)
    firsts = [m.seats.get(index=0).entry.name for m in made]
    assert len(made) == 3 and sorted(firsts) == ["P0", "P1", "P2"]  # each first once
    assert tournaments.schedule_free_for_all(stage) == []
    for match in made:
        finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss"), (0, 0, "loss")])
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    assert [r.values["points"] for r in table.rows] == [1, 1, 1] and all(r.sure is not None for r in table.rows)


def _place_on_paper(stage, strengths: dict[str, float], rng) -> int:
    """Play every queued game of the stage on paper: places drawn by Plackett–Luce odds of the
    strengths (the first among all, the second among the rest…), 2, 1, 0… points by place."""
    from contests.tests.factories import finish_on_paper

    played = 0
    for match in Match.objects.filter(stage=stage, status="queued").prefetch_related("seats__entry"):
        names = [s.entry.name for s in match.seats.order_by("index")]
        left, order = list(range(len(names))), []
        while left:
            weights = [10 ** (strengths[names[i]] / 400) for i in left]
            order.append(left.pop(rng.choices(range(len(left)), weights)[0]))
        points = {seat: len(names) - 1 - place for place, seat in enumerate(order)}
        finish_on_paper(match, [(points[i], 0, "win" if i == order[0] else "loss") for i in range(len(names))])
        played += 1
    return played


def test_a_ladder_of_three_seat_games_steers_its_groups_to_the_places_that_matter(highest):
    """A rated ladder of three-seat games plays its next games around the unsettled place
    (a pair across it and a row from around them), and ends once it is settled."""
    import random

    from judging.schedule import steering

    strengths = {"Top": 700, "Second": 450, "M1": 100, "M2": 80, "M3": 60, "M4": 40}
    contest = make_contest(game=highest, game_params={})
    params = {"seats": 3, "places": "1", "stop_when_settled": True, "stop_after_games": 3000}
    stage = make_stage(contest, kind="ladder", status="running", params=params)
    for name in strengths:
        make_submission_ready(make_entry(contest, name=name))
    assert len(tournaments.schedule_continuous(stage)) == 2 * 3
    rng = random.Random(3)
    groups, with_first = 0, 0
    for _ in range(200):
        _place_on_paper(stage, strengths, rng)
        confidence.rate(stage.pk)
        found = confidence.fitted(stage.pk)
        did = steering.steer(found, rng)
        stage.refresh_from_db()
        if stage.status == "finished":
            break
        assert did.startswith("4 games scheduled around places 1"), did  # two seats in play a row
        for match in Match.objects.filter(stage=stage, status="queued"):
            seated = set(match.seats.values_list("entry_id", flat=True))
            assert len(seated) == 3
            groups += 1
            with_first += found.entries[0] in seated
    assert stage.status == "finished" and stage.ended_by.startswith("places 1 settled at 95% after ")
    # The open boundary is the one played: a row above the cut in each group (but the tenth
    # of games drawn from the whole field).
    assert groups >= 4 and with_first >= 0.75 * groups, (with_first, groups)
    table = standings.compute(contest, stage)
    assert table.rated and table.rows[0].entry.name == "Top"
    assert_kept_as_counted(contest)


@pytest.mark.django_db
def test_a_stage_counts_the_places_its_games_have_and_no_more():
    """A game of two to four seats played two a game: its table counted 3rd and 4th places,
    always 0 (OpenSpiel's Breakthrough, walked on the site); now 1st and 2nd, the 2nd ranking
    nothing."""
    files = hosting.read_folder(HIGHEST)
    manifest = json.loads(files["game.json"])
    files["game.json"] = json.dumps({**manifest, "name": "ranged", "seats": {"min": 2, "max": 4}}).encode()
    version = hosting.upload(files, make_user())
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    contest = make_contest(game=version.key, game_params={})
    two = make_stage(contest, kind="round_robin", params={"seats": 2})
    four = make_stage(contest, kind="round_robin", params={"seats": 4}, name="Four", order=2)
    shown = {s.pk: [(c.label, c.ranks) for c in standings.compute(contest, s).columns] for s in (two, four)}
    assert shown[two.pk] == [("Points", True), ("1st", True), ("2nd", False)]
    assert shown[four.pk] == [("Points", True), ("1st", True), ("2nd", True), ("3rd", True), ("4th", False)]


def test_a_test_game_of_a_three_seat_game_seats_three(highest):
    """A contestant's test game had two seats whatever the game: the three-seat referee's fault
    every time. It seats the reference in every other seat, as the system test does."""
    from judging.schedule.testgames import create_test_game

    contest = make_contest(game=highest, game_params={})
    make_stage(contest, kind="system_test", name="System test", params={})
    reference = make_submission_ready(make_entry(contest, name="five", is_reference=True))
    mine = make_submission_ready(make_entry(contest, name="mine"))
    first = create_test_game(mine)
    assert list(first.seats.order_by("index").values_list("submission_id", flat=True)) == [
        mine.pk, reference.pk, reference.pk,
    ]  # fmt: skip
    last = create_test_game(mine, first=False)
    assert list(last.seats.order_by("index").values_list("submission_id", flat=True))[-1] == mine.pk
    assert last.seats.count() == 3


def test_the_test_game_form_of_a_three_seat_game_says_seats_not_moving_first(highest, client):
    """Its form read "Against five · the opponent moves first", as for a game of two."""
    contest = make_contest(game=highest, game_params={})
    make_stage(contest, kind="system_test", name="System test", params={})
    make_submission_ready(make_entry(contest, name="five", is_reference=True))
    mine = make_submission_ready(make_entry(contest, name="mine"))
    client.force_login(mine.entry.user)
    page = client.get(f"/submissions/{mine.pk}/").content.decode()
    assert "Against, in each of the other 2 seats," in page and "my program in the last seat" in page
    assert "moves first" not in page


def test_the_contest_page_plays_at_home_with_a_program_a_seat(highest, client):
    """A contest on a game of four (OpenSpiel's Hearts, walked on a fresh clone) said
    ``play … YOUR_PROGRAM random_player.py --contest …``, two programs, its referee's fault at
    home. The command names a program for each seat its system test plays."""
    from contests.tests.factories import make_submission

    contest = make_contest(game=highest, game_params={}, slug="highest-open")
    make_stage(contest, kind="system_test", name="System test", params={})
    make_submission(
        make_entry(contest, name="five", is_reference=True), status="ready", is_active=True, filename="five.py"
    )
    page = client.get("/contests/highest-open/").content.decode()
    assert f"play {highest} YOUR_PROGRAM five.py five.py --contest highest-open</pre>" in page


def test_a_system_test_of_more_seats_says_each_games_place(highest):
    """Hearts' system test said "lost" of a second place as of a fourth (walked on a fresh
    clone); the match page said "2nd of 4". The version's log says the place too."""
    from contests.tests.factories import finish_on_paper, make_match
    from judging.schedule import system_test

    contest = make_contest(game=highest, game_params={})
    stage = make_stage(contest, kind="system_test", name="System test", params={})
    reference = make_submission_ready(make_entry(contest, name="five", is_reference=True))
    mine = make_submission(make_entry(contest, name="mine"), status="testing")
    games = []
    for seat, points in ((0, [2, 3, 0]), (1, [1, 0, 2]), (2, [1, 0, 3])):
        lineup = [reference] * 3
        lineup[seat] = mine
        game = make_match(contest, lineup, stage=stage, round=mine.number)
        statuses = ["win" if p == max(points) else "loss" for p in points]
        finish_on_paper(game, [(p, p, w) for p, w in zip(points, statuses, strict=True)])
        games.append(game)
    system_test.conclude(games[-1])
    mine.refresh_from_db()
    assert mine.status == Submission.Status.READY, mine.test_log
    log = mine.test_log.splitlines()
    assert ", moving first: 2nd of 3: lost," in log[0] and ", moving second: 3rd of 3: lost," in log[1], log
    assert ", moving third: 1st of 3: won," in log[2], log
