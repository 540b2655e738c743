"""The Swiss system of CodeCup's final: rounds paired by points, no rematches, then the best
of them in a double round robin."""

import pytest

from contests.models import Stage
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_stage, make_submission
from games.base import BYE
from judging import lifecycle, standings, tournaments
from judging.lifecycle import Ended
from judging.models import Match
from judging.tournaments import swiss_pairs


def test_pairs_go_top_down_by_placing():
    pairs, bye = swiss_pairs([1, 2, 3, 4, 5, 6], set())
    assert pairs == [(1, 2), (3, 4), (5, 6)] and bye is None


def test_no_rematch_while_another_pairing_exists():
    met = {frozenset((1, 2)), frozenset((3, 4))}
    pairs, _ = swiss_pairs([1, 2, 3, 4], met)
    assert pairs == [(1, 3), (2, 4)]


def test_backtracking_finds_the_pairing_greed_misses():
    # Greedy 1-2 would leave 3 and 4, who have met; 1-3, 2-4 is the answer.
    met = {frozenset((3, 4))}
    pairs, _ = swiss_pairs([1, 2, 3, 4], met)
    assert sorted(map(sorted, pairs)) == [[1, 3], [2, 4]]


def test_a_rematch_only_when_nothing_else_is_left():
    met = {frozenset((1, 2))}
    pairs, _ = swiss_pairs([1, 2], met)
    assert pairs == [(1, 2)]


def test_with_an_odd_number_the_last_sits_out():
    pairs, bye = swiss_pairs([1, 2, 3, 4, 5], set())
    assert pairs == [(1, 2), (3, 4)] and bye == 5


def _finish_round(stage, winner_of):
    """Play a round on paper: in each match the entry ``winner_of`` picks wins 2-1."""
    for match in stage.matches.filter(status=Match.Status.QUEUED):
        seats = list(match.seats.select_related("entry"))
        winner = winner_of([s.entry for s in seats])
        for seat in seats:
            won = seat.entry == winner
            seat.points, seat.score, seat.status = (2, 2, "win") if won else (1, 1, "loss")
            seat.save()
        finish_on_paper(match)
    lifecycle.match_ended(match, Ended.FINISHED)


@pytest.mark.django_db
def test_swiss_rounds_follow_each_other_then_the_best_go_on(queued):
    contest = make_contest(game="sudoku", game_params={})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 3, "games_per_pairing": 2})
    final = make_stage(contest, kind="round_robin", params={"top": 2, "games_per_pairing": 2})
    entries = [
        make_submission(make_entry(contest, name=f"E{i}"), is_active=True, status="ready").entry for i in range(6)
    ]
    strength = {e.pk: i for i, e in enumerate(entries)}  # E5 beats everyone, E0 no one

    first = lifecycle.run_stage(swiss)
    assert len(first) == 6 and {m.round for m in first} == {1}  # 3 pairings x 2 games
    for round_no in (1, 2, 3):
        assert swiss.matches.filter(round=round_no).count() == 6
        _finish_round(swiss, lambda es: max(es, key=lambda e: strength[e.pk]))
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.FINISHED
    assert swiss.matches.count() == 18  # three rounds, no fourth
    pairings = [frozenset(s.entry_id for s in m.seats.all()) for m in swiss.matches.all()]
    assert all(pairings.count(p) == 2 for p in pairings)  # every pairing twice (each first once), never again
    firsts = {m.seats.get(index=0).entry_id for m in swiss.matches.filter(round=1)}
    assert len(firsts) == 6  # in each pairing each side moved first once
    table = standings.compute(contest, swiss)
    assert table.rows[0].entry.name == "E5" and table.rows[0].values["points"] == 12

    # E3 and E4 tie for second on every column (10 points, no irregular loss, 4 wins): the
    # earlier entry goes on.
    assert table.rows[1].rank == table.rows[2].rank == 2
    assert [e.name for e, _ in tournaments.contenders(final)] == ["E3", "E5"]
    final_matches = lifecycle.run_stage(final)
    assert len(final_matches) == 2


@pytest.mark.django_db
def test_a_swiss_stage_without_enough_players_left_ends_after_its_last_match(queued):
    contest = make_contest(game="sudoku", game_params={})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 3, "games_per_pairing": 1})
    entries = [make_submission(make_entry(contest, name=f"E{i}"), is_active=True, status="ready").entry for i in (0, 1)]
    (match,) = lifecycle.run_stage(swiss)
    entries[1].status = "disqualified"  # during the round: no second round can be paired
    entries[1].save()
    finish_on_paper(match)
    lifecycle.match_ended(match, Ended.FINISHED)  # as the worker calls it, in the transaction that records the match
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.FINISHED and swiss.matches.count() == 1


@pytest.mark.django_db
def test_a_rerun_swiss_stage_plays_its_games_again_and_keeps_its_byes(queued):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 2, "games_per_pairing": 1})
    for name in "ABC":
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    lifecycle.run_stage(swiss)
    (game,) = swiss.matches.exclude(seats__status=BYE)
    (bye,) = swiss.matches.filter(seats__status=BYE)
    finish_on_paper(game, [(1, 1, "win"), (0, 0, "loss")])
    queued.clear()
    assert lifecycle.rerun_stage(swiss) == 1
    assert queued == [("play_match", game.pk)]  # the game, not the bye: "chomp needs 2 players, not 1"
    bye.refresh_from_db()
    assert bye.status == "finished" and bye.seats.get().status == BYE
    with pytest.raises(lifecycle.Refused, match="a bye"):
        lifecycle.rerun_match(bye)
