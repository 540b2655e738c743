"""The Swiss system of CodeCup's final: rounds paired by points, no rematches, then the best
of them in a double round robin."""

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from contests.locks import writing
from contests.models import Stage
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_stage, make_submission
from games.base import BYE
from judging import watchdog
from judging.models import Match, MatchSeat
from judging.record import lifecycle, standings
from judging.record.lifecycle import Ended
from judging.schedule import tournaments
from judging.schedule.tournaments import swiss_pairs
from judging.tasks import pair_swiss_round
from judging.tests.pairings import deliver_pairings, pairings_of


def test_pairs_go_top_down_by_placing():
    pairs, bye = swiss_pairs([1, 2, 3, 4, 5, 6], set())
    assert pairs == [(1, 2), (3, 4), (5, 6)] and bye is None


def test_no_rematch_while_another_pairing_exists():
    met = {frozenset((1, 2)), frozenset((3, 4))}
    pairs, _ = swiss_pairs([1, 2, 3, 4], met)
    assert pairs == [(1, 3), (2, 4)]


def test_the_pairing_greed_misses_is_found():
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
        assert not swiss.matches.filter(round=round_no + 1).exists()  # not in the result's transaction
        assert pairings_of(queued, swiss.pk) == (1 if round_no < 3 else 0)  # the last round queues none
        deliver_pairings(queued)
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
    assert [e.name for e, _ in standings.contenders(final)] == ["E3", "E5"]
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
    assert swiss.status == Stage.Status.RUNNING  # its next round is the pairing task's to try
    assert deliver_pairings(queued) == 0
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


def _swiss_of(names, rounds=3, games=1, game="chomp"):
    params = {"rows": 3, "cols": 3} if game == "chomp" else {}
    contest = make_contest(game=game, game_params=params)
    swiss = make_stage(contest, kind="swiss", params={"rounds": rounds, "games_per_pairing": games})
    for name in names:
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")
    return swiss


def _first_wins(entries):
    return entries[0]


@pytest.mark.django_db
def test_a_round_is_paired_by_a_task_and_a_second_delivery_pairs_nothing(queued):
    swiss = _swiss_of("ABCD")
    lifecycle.run_stage(swiss)
    _finish_round(swiss, _first_wins)
    assert pairings_of(queued, swiss.pk) == 1 and swiss.matches.count() == 2
    assert deliver_pairings(queued) == 2 and swiss.matches.filter(round=2).count() == 2
    assert pair_swiss_round(swiss.pk) is None and swiss.matches.count() == 4  # delivered again: nothing
    assert tournaments.pair_next_round(swiss.pk) == []
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.RUNNING


@pytest.mark.django_db
def test_the_pairing_task_is_sent_only_once_the_result_commits(django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr(pair_swiss_round, "apply_async", lambda args=None, **kw: sent.append(args))
    swiss = _swiss_of("AB")
    (match,) = lifecycle.run_stage(swiss)
    finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss")])
    with django_capture_on_commit_callbacks(execute=True):
        with writing():
            lifecycle.match_ended(match, Ended.FINISHED)
        assert sent == []  # nothing while the result's transaction is open
    assert sent == [(swiss.pk,)]


@pytest.mark.django_db
def test_a_pairing_task_for_a_stage_gone_or_cancelled_pairs_nothing(queued, caplog):
    swiss = _swiss_of("ABCD")
    lifecycle.run_stage(swiss)
    _finish_round(swiss, _first_wins)
    lifecycle.cancel_stage(swiss)
    assert deliver_pairings(queued) == 0
    pair_swiss_round(10**9)
    assert "stage 1000000000 is gone" in caplog.text


@pytest.mark.django_db
def test_the_last_round_finishes_the_stage_without_a_task(queued):
    swiss = _swiss_of("ABC", rounds=1)
    lifecycle.run_stage(swiss)
    _finish_round(swiss, _first_wins)
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.FINISHED and pairings_of(queued, swiss.pk) == 0


@pytest.mark.django_db
def test_the_watchdog_pairs_a_round_whose_task_was_lost(queued, monkeypatch):
    swiss = _swiss_of("ABCD")
    lifecycle.run_stage(swiss)
    _finish_round(swiss, _first_wins)
    queued.clear()  # the message is lost
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.pair_unpaired_rounds() == 0  # a minute's grace: its task may be on its way
    swiss.matches.update(finished_at=timezone.now() - watchdog.UNPAIRED_GRACE - timedelta(seconds=1))
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 3)
    assert watchdog.pair_unpaired_rounds() == 0  # the default queue holds messages: it may be among them
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.pair_unpaired_rounds() == 1 and pairings_of(queued, swiss.pk) == 1
    assert deliver_pairings(queued) == 2
    assert watchdog.pair_unpaired_rounds() == 0  # paired: its games are open


@pytest.mark.django_db
def test_with_one_game_a_pairing_the_first_moves_even_out(queued):
    # Before issue 35 the better placed always moved first: the leader of 4 rounds did 4 times.
    swiss = _swiss_of("ABCDEF", rounds=4)
    lifecycle.run_stage(swiss)
    for _ in range(4):
        _finish_round(swiss, lambda entries: min(entries, key=lambda e: e.name))  # A beats all, B all but A ...
        deliver_pairings(queued)
    balance = Counter()
    for seat in MatchSeat.objects.filter(match__stage=swiss).exclude(status=BYE):
        balance[seat.entry.name] += 1 if seat.index == 0 else -1
    assert swiss.matches.count() == 12 and max(abs(v) for v in balance.values()) <= 2, balance
    pairings = [frozenset(m.seats.values_list("entry_id", flat=True)) for m in swiss.matches.all()]
    assert len(set(pairings)) == 12  # no rematch
