"""Fair tournaments: Swiss byes with an odd number of players, who proceeds to a later stage,
and the continuous stage that puts every entry of an open contest in the standings at once."""

from collections import Counter

import pytest

from contests.models import Entry, Stage, Submission
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_stage, make_submission, make_user
from judging.models import Match
from judging.record import lifecycle, standings
from judging.record.lifecycle import Ended
from judging.schedule import system_test, tournaments
from judging.schedule.tournaments import swiss_pairs
from judging.tests.pairings import deliver_pairings

pytestmark = pytest.mark.django_db


def test_the_bye_goes_to_the_lowest_placed_player_who_has_not_had_one():
    assert swiss_pairs([1, 2, 3, 4, 5], set()) == ([(1, 2), (3, 4)], 5)
    assert swiss_pairs([1, 2, 3, 4, 5], set(), {5: 1}) == ([(1, 2), (3, 5)], 4)
    # Everyone below has had one: then the lowest of those with the fewest.
    assert swiss_pairs([1, 2, 3, 4, 5], set(), {5: 1, 4: 1, 3: 1, 2: 1})[1] == 1
    assert swiss_pairs([1, 2, 3, 4, 5], set(), {n: 1 for n in range(1, 6)})[1] == 5


def _play_swiss_round(stage, strength):
    """Each queued match won by the stronger entry, 2-1 (Sudoku's points)."""
    for match in stage.matches.filter(status=Match.Status.QUEUED):
        seats = list(match.seats.select_related("entry").order_by("index"))
        best = max(seats, key=lambda s: strength[s.entry.name]).index
        finish_on_paper(match, [(2, 2, "win") if s.index == best else (1, 1, "loss") for s in seats])
    lifecycle.match_ended(match, Ended.FINISHED)


def test_with_an_odd_number_every_player_sits_out_once_scores_it_and_plays_every_other_round(queued):
    contest = make_contest(game="sudoku", game_params={})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 5, "games_per_pairing": 2})
    final = make_stage(contest, kind="round_robin", params={"top": 5, "games_per_pairing": 2})
    names = [f"E{i}" for i in range(5)]
    for name in names:
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    strength = {name: i for i, name in enumerate(names)}  # E4 beats everyone, E0 no one
    lifecycle.run_stage(swiss)
    for _ in range(5):
        _play_swiss_round(swiss, strength)
        deliver_pairings(queued)
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.FINISHED and set(swiss.matches.values_list("round", flat=True)) == {
        1,
        2,
        3,
        4,
        5,
    }
    byes = swiss.matches.filter(seats__status="bye")
    sat_out = Counter(byes.values_list("seats__entry__name", flat=True))
    assert sat_out == dict.fromkeys(names, 1)  # five rounds, five players: a bye each, nobody twice
    assert byes.first().seats.get().points == 4  # what winning both games of a pairing scores
    table = {row.entry.name: row for row in standings.compute(contest, swiss).rows}
    for name in names:
        games = Match.objects.filter(stage=swiss, seats__entry__name=name).exclude(seats__status="bye").count()
        assert table[name].games == games == 8  # 4 rounds of 2 games; the bye is no game
    assert table["E4"].values["points"] == 8 * 2 + 4 and table["E0"].values["points"] == 8 * 1 + 4
    final_matches = lifecycle.run_stage(final)
    finalists = {s.entry.name for m in final_matches for s in m.seats.all()}
    assert finalists == set(names)  # the player who sat out round 1 was not dropped


def test_the_bye_points_are_a_stage_parameter(queued):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 1, "games_per_pairing": 2, "bye_points": 0})
    for name in "ABC":
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    matches = lifecycle.run_stage(swiss)
    assert len(queued) == 2 and len(matches) == 3  # the bye is born finished: nothing to play
    assert Match.objects.get(stage=swiss, seats__status="bye").seats.get().points == 0


def test_a_chomp_bye_counts_as_winning_its_round_in_a_table_ranked_by_wins(queued):
    """Chomp ranks by wins (issue 36: its bye counted nothing there): a bye counts the wins of
    its round, what its ``bye_points`` say, in the live table, the kept one and the public one."""
    from judging.tests.kept import assert_kept_as_counted

    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 1, "games_per_pairing": 2})
    for name in "ABC":
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    lifecycle.run_stage(swiss)
    for match in swiss.matches.filter(status=Match.Status.QUEUED):
        finish_on_paper(match, [(1, 5, "win"), (0, 0, "loss")])
    bye = Match.objects.get(stage=swiss, seats__status="bye").seats.get()
    table = {row.entry.name: row for row in standings.compute(contest, swiss).rows}
    assert table[bye.entry.name].values["wins"] == 2 and table[bye.entry.name].games == 0
    played = [name for name in "ABC" if name != bye.entry.name]
    assert sum(table[name].values["wins"] for name in played) == 2  # two games, a win each
    assert_kept_as_counted(contest)


def test_only_entries_ranked_in_the_earlier_stages_proceed_as_a_contestants_best(queued):
    contest = make_contest(game="hearts_flowers", game_params={"n": 4}, max_entries_per_user=3)
    first = make_stage(contest, order=1, kind="round_robin", params={"games_per_pairing": 1})
    second = make_stage(contest, order=2, kind="round_robin", params={"best_of_each_contestant": True})
    alice, bob = make_user(), make_user()
    a1 = make_submission(make_entry(contest, user=alice, name="A1"), is_active=True, status="ready")
    b1 = make_submission(make_entry(contest, user=bob, name="B1"), is_active=True, status="ready")
    (match,) = lifecycle.run_stage(first)
    finish_on_paper(match, [(2, 2, "win"), (0, 0, "loss")])
    late = make_submission(make_entry(contest, user=alice, name="A2 (late)"), is_active=True, status="ready")
    proceeding = {entry.name for entry, _ in standings.contenders(second)}
    assert proceeding == {"A1", "B1"}  # A2 never played the first stage: it has no rank to be best by
    assert late.entry.name not in proceeding and a1 and b1


def _version(entry, number=None):
    """A new version of ``entry`` that passed its system test: it becomes the active one."""
    submission = make_submission(entry, status="testing", **({"number": number} if number else {}))
    system_test.activate(submission)
    submission.refresh_from_db()
    return submission


def test_a_continuous_stage_plays_each_new_version_against_the_others(queued):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    ladder = make_stage(contest, kind="ladder", params={"games_per_pairing": 2})
    assert lifecycle.run_stage(ladder) == [] and Stage.objects.get(pk=ladder.pk).status == "running"
    a = _version(make_entry(contest, name="A"))
    assert Match.objects.filter(stage=ladder).count() == 0  # nobody to play yet
    assert [row.entry.name for row in standings.compute(contest, ladder).rows] == ["A"]  # listed at once
    b = _version(make_entry(contest, name="B"))
    c = _version(make_entry(contest, name="C"))
    pairs = Counter(frozenset(m.seats.values_list("submission_id", flat=True)) for m in ladder.matches.all())
    assert pairs == {frozenset((a.pk, b.pk)): 2, frozenset((a.pk, c.pk)): 2, frozenset((b.pk, c.pk)): 2}
    firsts = Counter(m.seats.get(index=0).submission_id for m in ladder.matches.all())
    assert firsts == {a.pk: 2, b.pk: 2, c.pk: 2}  # each first once in each pairing
    rows = standings.compute(contest, ladder).rows
    assert sorted(r.entry.name for r in rows) == ["A", "B", "C"] and all(r.games == 0 for r in rows)
    assert tournaments.schedule_continuous(ladder) == []  # nothing owed: calling again adds nothing

    # Games count as they finish; a new version of A starts afresh and plays everyone again.
    for match in ladder.matches.all():
        finish_on_paper(match, [(1, 3, "win"), (0, 0, "loss")])
    assert {r.entry.name: r.games for r in standings.compute(contest, ladder).rows} == {"A": 4, "B": 4, "C": 4}
    a2 = _version(a.entry)
    new_games = ladder.matches.filter(status=Match.Status.QUEUED)
    assert new_games.count() == 4 and all(a2.pk in m.seats.values_list("submission_id", flat=True) for m in new_games)
    assert {r.entry.name: r.games for r in standings.compute(contest, ladder).rows} == {"A": 0, "B": 4, "C": 4}
    ladder.refresh_from_db()
    assert ladder.status == "running"  # a continuous stage does not end when its games do


def test_a_continuous_stage_can_bound_the_games_of_a_new_version(queued):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    ladder = make_stage(contest, kind="ladder", params={"games_per_pairing": 2, "max_opponents": 2})
    lifecycle.run_stage(ladder)
    for name in "ABCDE":
        _version(make_entry(contest, name=name))
    games = Counter()
    for match in ladder.matches.all():
        for entry_id in match.seats.values_list("entry_id", flat=True):
            games[entry_id] += 1
    assert max(games.values()) - min(games.values()) <= 2  # the least played are chosen first
    newest = Entry.objects.get(contest=contest, name="E")
    assert ladder.matches.filter(seats__entry=newest).count() == 4  # two opponents, two games each


def test_a_continuous_stage_leaves_out_entries_that_left(queued):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    ladder = make_stage(contest, kind="ladder")
    lifecycle.run_stage(ladder)
    gone = _version(make_entry(contest, name="Gone"))
    Entry.objects.filter(pk=gone.entry_id).update(status=Entry.Status.WITHDRAWN)
    _version(make_entry(contest, name="Here"))
    assert ladder.matches.count() == 0
    assert [r.entry.name for r in standings.compute(contest, ladder).rows] == ["Here"]
    assert Submission.objects.get(pk=gone.pk).is_active
